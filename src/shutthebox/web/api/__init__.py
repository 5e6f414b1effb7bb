"""The JSON API under ``/api``: words and profiles, rooms, stored games, the daily challenge, the trainer.

Each handler translates JSON to one call of a service of the server (`web.server.Server`) and its
answer back; what it refuses is ``{"error": code, "detail": why}`` with the refusal's status
(`web.refusals`), and nothing changes.
"""

from fastapi import APIRouter

from shutthebox.web.api import daily, games, rooms, train, words

__all__ = ["router"]

router = APIRouter(prefix="/api")
for _part in (rooms, words, games, daily, train):  # a game's routes first: each request walks them in order
    router.include_router(_part.router)
