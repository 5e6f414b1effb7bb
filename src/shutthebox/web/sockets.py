"""The room WebSocket: state pushed to every seat, actions and hint requests from each.

Connect to ``/api/rooms/{code}/ws?token=…&lang=…`` (no token: watch only; the
language of the refusals and of the state in words, else ``Accept-Language``). The server
sends ``{"type": "state", "state": …}`` at once and after every change. The
client sends ``{"type": "roll"}``, ``{"type": "dice", "count": 1}``,
``{"type": "move", "tiles": [5, 3]}``, ``{"type": "hint"}``, ``{"type": "ping"}``, or once the
game is over ``{"type": "rematch", "accept": true}`` (offer or accept; false declines);
a refused or malformed message gets ``{"type": "error", "error": code, "detail": why}``
(to the sender only) and changes nothing; a hint comes back as
``{"type": "hint", "advice": …}``, a ping as ``{"type": "pong"}``. A socket whose room cannot
be served is sent that refusal and closed: 4404 for no such room, 1013 (try again later) while
the server cannot serve it for now (a 503: Redis away, a room being restored).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import Field, TypeAdapter, ValidationError
from starlette.routing import WebSocketRoute

from shutthebox.i18n import language
from shutthebox.web.fanout import Listener
from shutthebox.web.rates import RateLimits, client_address
from shutthebox.web.refusals import REFUSED, Refusal, RefusedError, refused
from shutthebox.web.schemas import HintIn, PingIn, RematchIn, SocketIn
from shutthebox.web.server import Server
from shutthebox.web.strict import INT64, describe, frame_too_large, safe_errors

__all__ = ["ROUTE", "close_code", "handle"]

_messages: TypeAdapter[Any] = TypeAdapter(SocketIn)
_since: TypeAdapter[int] = TypeAdapter(Annotated[int, Field(ge=0, le=INT64[1])])
"""A room version a client may name: a database integer."""


async def room_socket(socket: WebSocket) -> None:
    """``/api/rooms/{code}/ws?token=…&since=…``; ``since``: the room version the client last saw (a
    reconnect, maybe to another process): it is sent a state at least that new.

    A plain Starlette route, its address read here: FastAPI's dependency solving was a fourth of a
    socket's opening."""
    code, token = socket.path_params["code"], socket.query_params.get("token")
    try:
        since = _since.validate_python(socket.query_params.get("since", "0"))
    except ValidationError as invalid:
        errors = [{**e, "loc": ("query", "since", *e["loc"])} for e in invalid.errors()]
        unread = RefusedError(Refusal.MALFORMED, "the request cannot be read: {detail}",
                              detail=describe(safe_errors(errors)))
        await refuse(socket, unread, 4422)
        return
    server: Server = socket.app.state.server
    try:
        held = await server.rooms.sighted(code, token, since)
    except REFUSED as failure:
        await refuse(socket, as_refusal(failure))
        return
    await socket.accept()
    listener = Listener(
        token, held.room.seats_of(token), language(), asyncio.Queue(server.settings.socket_queue),
        address=client_address(socket.scope),
    )
    sending = asyncio.create_task(listener.pump(socket))
    reading = asyncio.create_task(read(socket, server, held.code, listener))
    dropped = asyncio.create_task(listener.dropped.wait())
    await server.fanout.listen(held, listener)
    try:
        done, _pending = await asyncio.wait({sending, reading, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sending, reading, dropped):
            task.cancel()
        await server.fanout.leave(held.code, listener)
    if dropped in done:  # too slow to read its messages: closed, free to reconnect
        with contextlib.suppress(Exception):
            await asyncio.wait_for(socket.close(code=1013, reason="too slow"), 1.0)


ROUTE = WebSocketRoute("/api/rooms/{code}/ws", room_socket)
"""The room socket's route, taken by `web.lane` before FastAPI's router."""


async def refuse(socket: WebSocket, refusal: RefusedError, code: int | None = None) -> None:
    """Open the socket to say why it is refused, then close it (with ``code``, else `close_code`):
    a browser sees no reason for a socket refused before it opened."""
    await socket.accept()
    await socket.send_json({"type": "error", **refusal.to_json()})
    await socket.close(code=code or close_code(refusal), reason=refusal.code)


def close_code(refusal: RefusedError) -> int:
    """How a socket refused at its start is closed: 1013 (try again later) when the server cannot
    serve the room for now (503: the page reconnects), 4404 when there is no such room (a missed
    code), else 4403 (not for this client: a sealed room)."""
    if refusal.status == 503:
        return 1013
    return 4404 if refusal.code == "not-found" else 4403


async def read(socket: WebSocket, server: Server, code: str, listener: Listener) -> None:
    """Answer the client's messages until it disconnects; each answer queued behind the states."""
    while True:
        try:
            message = await socket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        raw = message.get("text")
        if raw is None:
            refusal = RefusedError(Refusal.MALFORMED, "messages are JSON text, not binary")
            reply: dict[str, Any] | None = {"type": "error", **refusal.to_json()}
        elif frame_too_large(raw, server.settings.max_frame_bytes):
            refusal = RefusedError(Refusal.MALFORMED, "a message has at most {count} bytes",
                                count=server.settings.max_frame_bytes)
            reply = {"type": "error", **refusal.to_json()}
        elif (wait := await spend_a_request(socket)) is not None:
            refusal = RefusedError(
                Refusal.TOO_MANY,
                "too many requests from your address: try again in {seconds} s", seconds=wait
            )
            reply = {"type": "error", **refusal.to_json()}
        else:
            reply = await handle(server, code, listener, raw)
        if reply is not None:
            listener.push(reply)


async def spend_a_request(socket: WebSocket) -> int | None:
    """A message spends what a request naming the room spends, from the same per-address budget (so
    a socket is no way around the rate limits); the seconds to wait when none is left."""
    limits: RateLimits = socket.app.state.limits
    address = client_address(socket.scope)
    return await limits.take(["room"], ["room"], address)


async def handle(server: Server, code: str, listener: Listener, raw: str) -> dict[str, Any] | None:
    """Answer one client message: None when the state broadcast is the answer."""
    try:
        message = _messages.validate_json(raw)
    except ValidationError as error:  # the reason names the fields, never echoes the message
        detail = describe(safe_errors(error.errors()))
        refusal = RefusedError(Refusal.MALFORMED, "the message cannot be read: {detail}", detail=detail)
        return {"type": "error", **refusal.to_json()}
    try:
        await server.copies.fresh(code)
        if isinstance(message, PingIn):
            return {"type": "pong"}
        if isinstance(message, HintIn):
            advice = await server.advice.hint(code, listener.token, listener.address)
            return {"type": "hint", "advice": advice}
        if isinstance(message, RematchIn):
            await server.rooms.rematch(code, listener.token, message.accept, message.client_seed)
            return None
        await server.rooms.act(code, listener.token, message)
    except REFUSED as failure:
        return {"type": "error", **as_refusal(failure).to_json()}
    return None


def as_refusal(error: Exception) -> RefusedError:
    """The refusal ``error`` is (one of `REFUSED`), as the app's handler says it over HTTP."""
    found = refused(error)
    assert found is not None
    return found

