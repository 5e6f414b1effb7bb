"""The server's connections: a deadline on each request's headers, and then on its body, which
uvicorn has none of.

uvicorn closes a connection left idle after an answer (``timeout_keep_alive``), but not one that
never finishes its request headers: 21 connections that sent half a request stayed open a minute
(a slowloris, which holds the server's connections with a few bytes each), nor one that sends its
headers and never its whole body. `RequestDeadline` is uvicorn's own httptools protocol — its
parser, its flow control, its upgrade to WebSockets — with one timer more: armed when a connection
opens and when a request begins, armed again when the request's headers are complete, disarmed
once its body is (at once for a request with none) or a WebSocket takes the connection over. When
it fires, the connection is closed.

`serve` gives it to uvicorn as the HTTP protocol (`http_protocol`), in one process or in each
worker of several.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

__all__ = ["RequestDeadline", "http_protocol"]


class RequestDeadline(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request headers are not complete
    ``header_timeout`` seconds after it opened or after its request began, or whose body is not
    complete ``header_timeout`` seconds after its headers were."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        header_timeout: float,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout = header_timeout
        self.header_deadline: asyncio.TimerHandle | None = None
        self.awaited = "headers"  # what the deadline waits for: the request's headers, or its body

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()  # a connection that sends nothing at all is timed too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # the next request of a kept-alive connection

    def on_headers_complete(self) -> None:
        self._disarm()  # the app has the request now
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):  # a WebSocket: timed by pings
            self._arm("body")  # a body that never comes, or a byte at a time, holds the app's request

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # done with: its callbacks held this protocol in a cycle

    def _arm(self, awaited: str = "headers") -> None:
        if self.header_deadline is None:
            self.awaited = awaited
            self.header_deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
            self.header_deadline = None

    def _too_slow(self) -> None:
        self.header_deadline = None
        if not self.transport.is_closing():
            client = "{}:{} - ".format(*self.client) if self.client else ""
            self.logger.info(
                "%sclosed: no whole request %s within %g s", client, self.awaited, self.header_timeout
            )
            self.transport.close()


def http_protocol(header_timeout: float) -> Callable[..., asyncio.Protocol]:
    """The HTTP protocol to give uvicorn (its ``http`` option): `RequestDeadline` with this deadline,
    as a callable that pickles, so each worker process of `serve --workers` gets it too."""
    return functools.partial(RequestDeadline, header_timeout=header_timeout)
