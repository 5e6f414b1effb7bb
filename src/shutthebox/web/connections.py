"""The server's connections: a deadline on each request's headers, and then on its body, which
uvicorn has none of; a bound on the size of its headers; no header taken from after its body.

uvicorn closes a connection left idle after an answer (``timeout_keep_alive``), but not one that
never finishes its request headers: 21 connections that sent half a request stayed open a minute
(a slowloris, which holds the server's connections with a few bytes each), nor one that sends its
headers and never its whole body. `RequestDeadline` is uvicorn's own httptools protocol — its
parser, its flow control, its upgrade to WebSockets — with one timer more: armed when a connection
opens and when a request begins, armed again when the request's headers are complete, disarmed
once its body is (at once for a request with none) or a WebSocket takes the connection over. When
it fires, the connection is closed.

A deadline bounds time, not bytes: httptools gathers a header (and uvicorn the request line) by
concatenation, so one connection sending a header, or a chunked body's trailer, that never ends at
20 MB/s held every other request of the process for as long as its deadline let it. A request's
line, headers, chunk framing and trailers past `MAX_HEAD_BYTES` get 431 and the connection closes;
an address past `MAX_TARGET_BYTES` gets 414. Refused with 400, once the requests read before are
answered: a WebSocket handshake that declares a body (uvicorn waited for that body before it
upgraded, with no deadline, then left the handshake unanswered), a request with two ``Host``
headers, or one whose whole address names another host than its ``Host`` (the guard reads the
header; a proxy in front may route by the other). Trailers are dropped: uvicorn added them to the
request's headers, where an ``Authorization`` no proxy had seen chose the seat that played. Bytes
between requests (an empty line) are timed as a request's headers: they stopped uvicorn's idle timer
and began no request, so nothing timed the connection.

A refusal made here is said as the app says one (``{"error", "detail"}``, in the language the
request asks for, `i18n.requested_language`): a person who meets one reads it in their words.

`serve` gives it to uvicorn as the HTTP protocol (`http_protocol`), in one process or in each
worker of several.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

import httptools
from uvicorn._types import ASGI3Application
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.server import ServerState

from shutthebox.i18n import SOURCE, requested_language, say, using
from shutthebox.web.refusals import Refusal, RefusedError

__all__ = ["MAX_HEAD_BYTES", "MAX_TARGET_BYTES", "RequestDeadline", "http_protocol"]

MAX_HEAD_BYTES = 32 * 1024
"""The most a request line and its headers may take, with the framing of a chunked body and its
trailers, as nginx's default (Node allows 16 KiB): a page's requests take under 2 KiB. Counted a
chunk late (what arrives as a request begins is not), so the parser never holds more than this and
two chunks of one."""
MAX_TARGET_BYTES = 4096
"""The most a request's address (its path and query) may take: the longest the server reads is a
player's name of 200 characters, percent-escaped. A query is parsed again by each layer that reads
it (the guard, the language, the route, the access log): 30 kB of it took 38 ms, 25 plain requests."""


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
        self.in_head = False  # a request's line and headers are coming
        self.in_message = False  # a request is coming (its line, headers, body, trailers)
        self.framing = 0  # bytes of it that are not its body, but for the chunk that began it
        self.begun = False  # that chunk is being read
        self.body_read = 0  # bytes of body in the chunk being read
        self.refusal: tuple[HTTPStatus, RefusedError] | None = None  # the answer it gets, once read
        self.answered: RequestResponseCycle | None = None  # the request being answered (`_start_asgi_task`)

    def data_received(self, data: bytes) -> None:
        self.begun, self.body_read = False, 0
        super().data_received(data)
        if self.transport.is_closing() or self.parser is None:  # closed, or a WebSocket's now
            return
        if self.refusal is None and self.in_message and not self.begun:
            self.framing += len(data) - self.body_read  # its head, its chunks' sizes, its trailers
            if self.framing > MAX_HEAD_BYTES:
                self.refusal = HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, _head_too_large()
                if not self.in_head:  # its body's framing or trailers: the app has it, never to get it whole
                    self._refuse(*self.refusal)
                    return
        if self.refusal is not None:
            if self._answering():  # a request sent before it is answered first: no more is read
                self.flow.pause_reading()
            else:
                self._refuse(*self.refusal)
        elif not self.in_message and not self._answering():
            self._arm()  # bytes between requests (a bare CRLF) stopped uvicorn's idle timer: this times them

    def _answering(self) -> bool:
        """Whether a request of this connection read before is still to be answered."""
        return (self.cycle is not None and not self.cycle.response_complete) or bool(self.pipeline)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.refusal is not None and not self.transport.is_closing() and not self._answering():
            self._refuse(*self.refusal)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()  # a connection that sends nothing at all is timed too

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: ASGI3Application) -> None:
        self.answered = cycle
        super()._start_asgi_task(cycle, app)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        # uvicorn tells the last request read that its client is gone; with requests pipelined behind
        # it, the one being answered was not told, and wrote to the closed connection ("the handler is
        # closed": an error and its traceback in the log for each such client)
        answered = self.answered
        if answered is not None and not answered.response_complete:
            answered.disconnected = True
            answered.message_event.set()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.in_head = self.in_message = self.begun = True
        self.framing = 0
        self._arm()  # the next request of a kept-alive connection

    def on_header(self, name: bytes, value: bytes) -> None:
        if self.in_head:  # not a trailer, sent after a chunked body: no header comes from there
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.in_head = False
        self._disarm()  # the app has the request now
        if self.refusal is not None:
            return  # a request sent after one refused, in the same chunk: the connection closes
        if self._head_bytes() > MAX_HEAD_BYTES:  # a head read in one chunk, which `framing` does not count
            self.refusal = HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, _head_too_large()
        elif self.parser.should_upgrade() and self._should_upgrade() and self._declares_body():
            self.refusal = HTTPStatus.BAD_REQUEST, RefusedError(
                Refusal.MALFORMED, "a WebSocket handshake has no body"
            )
        elif sum(name == b"host" for name, _value in self.headers) > 1:  # RFC 9112 3.2 (the guard reads
            self.refusal = HTTPStatus.BAD_REQUEST, RefusedError(  # the first)
                Refusal.MALFORMED, "a request has one Host header"
            )
        elif len(self.url) > MAX_TARGET_BYTES:  # each layer parses its query again: 30 kB took 38 ms
            self.refusal = HTTPStatus.REQUEST_URI_TOO_LONG, RefusedError(
                Refusal.TOO_LARGE, "a request's address takes at most {high} bytes", high=MAX_TARGET_BYTES
            )
        elif not self.url.startswith(b"/") and not self._names_its_host():  # RFC 9112 3.2.2: its own
            self.refusal = HTTPStatus.BAD_REQUEST, RefusedError(  # host wins (the guard reads the header's)
                Refusal.MALFORMED, "a request's whole address names the host its Host header names"
            )
        if self.refusal is not None:
            return  # answered once this chunk is read (`data_received`)
        super().on_headers_complete()
        self._arm("body")  # a body that never comes, or a byte at a time, holds the app's request

    def _head_bytes(self) -> int:
        """The request's line and headers as sent, near enough (the method and version aside): what
        the chunk that began the request held of them."""
        return len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)

    def _names_its_host(self) -> bool:
        """Whether a request in absolute form (``GET http://host/path``, as sent to a proxy) names the
        host and port its ``Host`` header does."""
        try:
            url = httptools.parse_url(self.url)
        except httptools.HttpParserInvalidURLError:
            return False
        authority = (url.host or b"") + (b":%d" % url.port if url.port is not None else b"")
        host = next((value for name, value in self.headers if name == b"host"), b"")
        return bool(url.host) and authority.lower() == host.strip().lower()

    def _declares_body(self) -> bool:
        return any(
            name == b"transfer-encoding" or (name == b"content-length" and value.strip().strip(b"0"))
            for name, value in self.headers
        )

    def on_body(self, body: bytes) -> None:
        self.body_read += len(body)
        if self.refusal is None:  # a refused request's goes nowhere: no app has it
            super().on_body(body)

    def on_message_complete(self) -> None:
        self.in_message = False
        self._disarm()
        if self.refusal is None:
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        if self.refusal is not None:
            return  # refused instead (`data_received`)
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

    def _refuse(self, status: HTTPStatus, refusal: RefusedError) -> None:
        """Answer ``status`` with ``refusal`` as the API says one (``{"error", "detail"}``, in the
        language the request asks for, as far as its headers were read) and close the connection
        (the app never saw the request); the log says it in English."""
        self._disarm()
        client = "{}:{} - ".format(*self.client) if self.client else ""
        with using(SOURCE):
            self.logger.info("%srefused %d: %s", client, status, say(refusal))
        with using(self._language()):
            body = json.dumps(refusal.to_json(), ensure_ascii=False).encode()
        head = [f"HTTP/1.1 {status.value} {status.phrase}\r\n".encode("ascii")]
        head += [name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers]
        head += [b"content-type: application/json\r\n",
                 b"content-length: %d\r\n" % len(body), b"connection: close\r\n\r\n"]
        self.transport.write(b"".join(head) + body)
        self.transport.close()

    def _language(self) -> str:
        """The language the request asks for, as the app reads it, from what of its address and
        headers was read."""
        header = next((value for name, value in self.headers if name == b"accept-language"), b"")
        return requested_language(urlsplit(self.url).query.decode("latin-1"), header.decode("latin-1"))

    def _too_slow(self) -> None:
        self.header_deadline = None
        if not self.transport.is_closing():
            client = "{}:{} - ".format(*self.client) if self.client else ""
            self.logger.info(
                "%sclosed: no whole request %s within %g s", client, self.awaited, self.header_timeout
            )
            self.transport.close()


def _head_too_large() -> RefusedError:
    return RefusedError(
        Refusal.TOO_LARGE, "a request's line, headers and trailers take at most {high} bytes",
        high=MAX_HEAD_BYTES,
    )


def http_protocol(header_timeout: float) -> Callable[..., asyncio.Protocol]:
    """The HTTP protocol to give uvicorn (its ``http`` option): `RequestDeadline` with this deadline,
    as a callable that pickles, so each worker process of `serve --workers` gets it too."""
    return functools.partial(RequestDeadline, header_timeout=header_timeout)
