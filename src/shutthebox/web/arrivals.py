"""The ways into a game, let in a few to a turn of the event loop (`web.turns`): a crowd opening
rooms at once does not hold up the games in play."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from shutthebox.web.turns import PerTurn

__all__ = ["ARRIVALS_PER_TURN", "ROOMS_PATH", "Arrivals"]

ROOMS_PATH = "/api/rooms"
"""Where a room is created (``POST``)."""
ARRIVALS_PER_TURN = 8
"""New requests and sockets let into the app per turn: a room's creation costs about 0.8 ms of the
server's CPU before it waits for its write, so a turn stays within some ten milliseconds."""


class Arrivals:
    """ASGI middleware: the ways into a game, a room's creation (``POST /api/rooms``) and a socket's
    opening, enter the app through one `PerTurn`. A game in play is never held back: a socket's
    messages are not arrivals, nor is any other request (an action, a hint, a page)."""

    def __init__(self, app: ASGIApp, per_turn: int = ARRIVALS_PER_TURN) -> None:
        self.app = app
        self.turns = PerTurn(per_turn)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" or (
            scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == ROOMS_PATH
        ):
            await self.turns.wait()
        await self.app(scope, receive, send)
