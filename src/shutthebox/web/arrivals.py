"""The ways into a game, let in a few to a turn of the event loop (`web.turns`) and two at a time:
a crowd opening rooms at once does not hold up the games in play."""

from __future__ import annotations

import asyncio
from collections import deque

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shutthebox.web.turns import PerTurn, hold_place

__all__ = ["ARRIVALS_AT_ONCE", "ARRIVALS_PER_TURN", "ROOMS_PATH", "Arrivals"]

ROOMS_PATH = "/api/rooms"
"""Where a room is created (``POST``)."""
ARRIVALS_PER_TURN = 8
"""New requests and sockets let into the app per turn: a room's creation costs about 0.8 ms of the
server's CPU before it waits for its write, so a turn stays within some ten milliseconds."""
ARRIVALS_AT_ONCE = 2
"""New requests and sockets in the app at once, until they are answered or wait for the disk (a
request's body is read before it takes a place: a client that sends it slowly holds none). Per
turn alone does not bound them where an arrival waits on other servers: with two processes
(Redis's rate limits, PostgreSQL's reads) each turn let in eight more, a thousand waited together,
and their answers, woken in the same turns as the games in play, held those games' actions up to
0.4 s (p99 418 and 195 ms, a thousand games opened at once). Two at a time: p99 38 and 28 ms; one
process is as fast as without a bound, since the arrivals waiting for the disk go in one group."""

_ANSWERED = frozenset(
    {"http.response.start", "websocket.accept", "websocket.close", "websocket.http.response.start"}
)
"""The messages that answer an arrival: the first of them lets the next one in."""


class Arrivals:
    """ASGI middleware: the ways into a game, a room's creation (``POST /api/rooms``) and a socket's
    opening, enter the app through one `PerTurn`, at most ``at_once`` of them in it at a time. A game
    in play is never held back: a socket's messages are not arrivals, nor is any other request (an
    action, a hint, a page)."""

    def __init__(
        self, app: ASGIApp, per_turn: int = ARRIVALS_PER_TURN, at_once: int = ARRIVALS_AT_ONCE,
        *, body_bytes: int = 64 * 1024,
    ) -> None:
        if at_once < 1:
            raise ValueError(f"at_once must be at least 1, not {at_once}")
        self.app = app
        self.body_bytes = body_bytes  # read ahead at most (the guard refuses a larger body)
        self.turns = PerTurn(per_turn)
        self.at_once = at_once
        self._inside: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _slots(self) -> asyncio.Semaphore:
        """The bound of the running loop (made there: a worker's, or a test's, own)."""
        loop = asyncio.get_running_loop()
        if self._inside is None or loop is not self._loop:
            self._inside, self._loop = asyncio.Semaphore(self.at_once), loop
        return self._inside

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not (
            scope["type"] == "websocket"
            or (scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == ROOMS_PATH)
        ):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http":
            receive = await _read_ahead(receive, self.body_bytes)
        slots = self._slots()
        await slots.acquire()
        inside = True

        def leave() -> None:
            nonlocal inside
            if inside:
                inside = False
                slots.release()

        async def answer(message: Message) -> None:
            if message["type"] in _ANSWERED:
                leave()
            await send(message)

        hold_place(leave)  # until `turns.waiting_for_disk`
        try:
            await self.turns.wait()
            await self.app(scope, receive, answer)
        finally:
            leave()


async def _read_ahead(receive: Receive, most: int) -> Receive:
    """``receive`` with the request's body read ahead, up to ``most`` bytes and one chunk: the client's
    own pace is waited for before the arrival takes a place in the app, so two clients that never
    finish their body cannot hold every room's creation and socket's opening of the process."""
    heard: deque[Message] = deque()
    size = 0
    while True:
        message = await receive()
        heard.append(message)
        if message["type"] != "http.request":
            break  # the client left: the app hears it first thing
        size += len(message.get("body", b""))
        if not message.get("more_body", False) or size > most:
            break

    async def replay() -> Message:
        return heard.popleft() if heard else await receive()

    return replay
