"""The JSON API under ``/api``: words and profiles, rooms, stored games, the daily challenge, the trainer.

Each handler translates JSON to one call of a service of the server (`web.server.Server`) and its
answer back; what it refuses is ``{"error": code, "detail": why}`` with the refusal's status
(`web.refusals`), and nothing changes.
"""

from dataclasses import replace

from fastapi import APIRouter

from shutthebox.web.api import daily, games, rooms, train, words
from shutthebox.web.api.deps import Quick

__all__ = ["PREFIX", "QUICK", "routers"]

PREFIX = "/api"
routers: tuple[APIRouter, ...] = tuple(part.router for part in (rooms, words, games, daily, train))
"""The API's routers, a game's first (each request walks them in order), each included by the app under
`PREFIX` itself: FastAPI looks a request's route up anew in each router it was included through, so
one level of them, not two."""

QUICK: tuple[Quick, ...] = tuple(replace(quick, path=PREFIX + quick.path) for quick in rooms.QUICK)
"""The routes `web.lane` takes, as the app serves them."""
