"""The web app: FastAPI server (authoritative: it rolls and judges) and the page it serves.

`create_app(Settings(...))` builds the ASGI app; ``shutthebox serve`` runs it
with uvicorn. Layout: ``rooms`` (seats, tokens, turn checks), ``lobby`` (rooms,
bots, saving, advice), ``views`` (the JSON the page renders), ``api`` (REST),
``sockets`` (the room WebSocket), ``static/`` (the page: HTML, CSS, JS modules).
"""

from shutthebox.web.app import create_app
from shutthebox.web.settings import Settings

__all__ = ["Settings", "create_app"]
