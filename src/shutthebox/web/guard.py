"""The edge of the web app: every request is checked here before any handler reads it.

`Guard` is a plain ASGI middleware (a ``BaseHTTPMiddleware`` would break
WebSockets and streaming). For each request it checks, in this order:

- the request names this server in its ``Host`` (one of ``allowed_hosts``,
  when set; else 400, or a socket closed with 4400), so that a page whose
  name was rebound to this server's address (DNS rebinding) is not its own
  (the probes ``/healthz`` and ``/readyz`` alone pass unchecked, `web.hosts.PROBES`);
- a token (``Authorization``, or ``?token=``/``?key=`` in the address) is
  printable ASCII of bounded length (the address's numbers are bounded where
  they are read: by each route's typed parameters);
- a request that spends a rate budget comes from the server's own page (or
  ``allowed_origins``), or from no page at all, by its ``Origin`` or
  ``Sec-Fetch-Site`` (else 403): another site's page must not spend them;
- the rate limits of the client address (moving windows, read by the `limits`
  library and counted in this process's memory, or in the shared storage of
  ``Settings.rate_limit_storage``, and in memory again while that storage does
  not answer): rooms created, seats joined, profiles created, requests naming a
  room code, codes that name no room (what guessing spends), and requests that
  ask the solver for work outside a room; over one, 429 with ``Retry-After``;
- a body is at most ``max_body_bytes`` (413, read no further), and a JSON body
  is parsed once, strictly: finite numbers within 64 bits, UTF-8, nested at most
  ``max_json_depth`` deep (422); then it goes on to the app unchanged;
- a WebSocket comes from the server's own page (or ``allowed_origins``) when
  its browser sends an ``Origin`` (else closed with 4403), at most
  ``max_sockets_per_client`` are open per address (4429), and a message over
  ``max_frame_bytes`` closes it (1009).

Refusals are the API's ``{"error": code, "detail": why}`` in the reader's
language; they repeat no token, key or value of the request, only what helps
mend it, quoted and cut short (see `web.strict.safe_errors`, `web.refusals.echoed` and
docs/security.md); a refused WebSocket is accepted, sent that refusal as
``{"type": "error", …}`` and closed, so a browser sees the code.
`RedactTokens` keeps seat tokens and profile keys out of the server's log.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Iterable
from urllib.parse import parse_qsl, unquote_plus

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shutthebox.web.hosts import PROBES, host_allowed, same_origin, wrong_host
from shutthebox.web.rates import RateLimits, budgets_of, client_address
from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.settings import Settings
from shutthebox.web.strict import frame_too_large, strict_json

__all__ = [
    "CLIENT_FAULTS", "MAX_TOKEN_LENGTH", "ClientFaultsInOneLine", "Guard", "RedactTokens",
    "install_log_filter", "redact", "replaying",
]

MAX_TOKEN_LENGTH = 512
"""The longest token or ``Authorization`` header read (the server's own tokens have 24 characters)."""
SECRET_PARAMETERS = ("token", "key")
"""Query parameters that carry secrets: a seat token, a profile key."""
_PRINTABLE = re.compile(rb"[\x20-\x7e]*")
_PARAMETER = re.compile(r"(?:^|(?<=[?&\s\"']))([^=&?#\s\"']+)=[^&?#\s\"']*")
"""A ``name=value`` pair of a query as a log line shows it, undecoded."""
log = logging.getLogger(__name__)


def _bad_token(value: bytes) -> bool:
    return len(value) > MAX_TOKEN_LENGTH or _PRINTABLE.fullmatch(value) is None


def _refusal_in_address(scope: Scope) -> RefusedError | None:
    """What is wrong with the tokens of a request (its header, its address), before anything reads
    them. Numbers are the typed parameters' business (their bounds are the routes'): a digit-only
    player name or preset is words."""
    for name, value in scope.get("headers") or []:
        if name == b"authorization" and _bad_token(value):
            return RefusedError(
                Refusal.MALFORMED,
                "the Authorization header must be printable ASCII, at most {limit} characters",
                limit=MAX_TOKEN_LENGTH,
            )
    query = scope.get("query_string", b"").decode("latin-1")
    for name, value in parse_qsl(query, keep_blank_values=True):
        if name in SECRET_PARAMETERS and _bad_token(value.encode("utf-8", "surrogatepass")):
            return RefusedError(
                Refusal.MALFORMED, "a token must be printable ASCII, at most {limit} characters",
                limit=MAX_TOKEN_LENGTH,
            )
    return None



# -- the log -----------------------------------------------------------------------
def redact(text: str) -> str:
    """``text`` with the value of every ``token=`` and ``key=`` query parameter replaced by ``…``,
    their names read as the server reads them (percent-decoded: ``%74oken=`` is a token too)."""
    return _PARAMETER.sub(_masked, text)


def _masked(pair: re.Match[str]) -> str:
    name = pair.group(1)
    return f"{name}=…" if unquote_plus(name).lower() in SECRET_PARAMETERS else pair.group(0)


class RedactTokens(logging.Filter):
    """A log filter that keeps seat tokens and profile keys (``?token=…``, ``?key=…``) out of the log:
    uvicorn writes each request's path with its query, a WebSocket's too."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        return True


def _redacted(value: object) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, bytes):
        return redact(value.decode("latin-1")).encode("latin-1")
    return value


CLIENT_FAULTS = frozenset({"Invalid UTF-8 sequence received from client."})
"""What uvicorn logs with a traceback when a client, not the server, is at fault (the socket is
closed, 1007, and the room goes on): one line said, a warning."""


class ClientFaultsInOneLine(logging.Filter):
    """A log filter that says a client's fault in one line: no traceback of the server's own code
    for what a client sent (anyone may send a frame that is not UTF-8, as often as they like)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in CLIENT_FAULTS:
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        return True


def install_log_filter(loggers: Iterable[str] = ("uvicorn.access", "uvicorn.error")) -> None:
    """Put `RedactTokens` on ``loggers`` (once each): the ones uvicorn writes request lines to; and
    `ClientFaultsInOneLine` on the one it writes its errors to."""
    for name in loggers:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ClientFaultsInOneLine) for f in errors.filters):
        errors.addFilter(ClientFaultsInOneLine())



def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope.get("headers") or []:
        if name == wanted:
            return bytes(value).decode("latin-1")
    return None



# -- the middleware ----------------------------------------------------------------------
class Guard:
    """ASGI middleware: the checks of this module, before the app sees a request or a socket."""

    def __init__(self, app: ASGIApp, settings: Settings, limits: RateLimits | None = None) -> None:
        self.app = app
        self.settings = settings
        self.limits = limits if limits is not None else RateLimits(settings)
        self.sockets: Counter[str] = Counter()
        """Open WebSockets per client address."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _named(self, scope: Scope) -> bool:
        """Whether the request names this server in its ``Host`` (always, with no allowed hosts set)."""
        allowed = self.settings.allowed_hosts
        return allowed is None or host_allowed(_header(scope, b"host"), allowed)

    # -- HTTP --
    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["path"] in PROBES:  # by the address, from a balancer: they read nothing, tell nothing
            await self.app(scope, receive, send)
            return
        if not self._named(scope):
            await _refuse(scope, receive, send, wrong_host())
            return
        refusal = _refusal_in_address(scope)
        if refusal is not None:
            await _refuse(scope, receive, send, refusal)
            return
        address = client_address(scope)
        names, names_room = budgets_of(scope["method"], scope["path"])
        checked = [*names, "misses"] if names_room else names
        if checked and not self._own_page_or_none(scope):
            await _refuse(scope, receive, send, RefusedError(
                Refusal.WRONG_ORIGIN, "this server takes this request from its own page only"
            ))
            return
        wait = await self.limits.take(checked, names, address)
        if wait is not None:
            retry = [(b"retry-after", str(wait).encode())]
            await _refuse(scope, receive, send, _too_many(wait), headers=retry)
            return
        body = await self._body(scope, receive, send)
        if body is None:
            return

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 404:
                await self.limits.spend(["misses"], address)
            await send(message)

        await self.app(scope, replaying(body, receive), watch if names_room else send)

    def _own_page_or_none(self, scope: Scope) -> bool:
        """Whether a request comes from this server's own page (or ``allowed_origins``), or from no
        page at all (a program sends neither header). Another site's page makes a player's browser
        send requests it cannot read (a form, an image, ``fetch`` with ``no-cors``); spending the
        player's budgets, they kept the player from starting or joining a game for up to an hour."""
        origin = _header(scope, b"origin")
        if origin is not None:
            return same_origin(origin, _header(scope, b"host") or "", self.settings.allowed_origins)
        return _header(scope, b"sec-fetch-site") in (None, "same-origin", "none")  # none: typed in

    async def _body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, checked; None when it was refused (or the client left)."""
        limit = self.settings.max_body_bytes
        length = _header(scope, b"content-length")
        if length is not None and length.strip().isdigit() and int(length) > limit:
            await _refuse(scope, receive, send, _too_large(limit))
            return None
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return None  # http.disconnect: nobody is left to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(scope, receive, send, _too_large(limit))
                return None
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body and _is_json(_header(scope, b"content-type")):
            try:
                strict_json(body, max_depth=self.settings.max_json_depth)
            except RefusedError as error:
                await _refuse(scope, receive, send, error)
                return None
        return body

    # -- WebSockets --
    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._named(scope):  # first: a rebound name's page must not pass for the server's own
            await _close(receive, send, 4400, wrong_host())
            return
        origin = _header(scope, b"origin")
        host = _header(scope, b"host") or ""
        if origin is not None and not same_origin(origin, host, self.settings.allowed_origins):
            error = RefusedError(Refusal.WRONG_ORIGIN, "this server takes WebSockets from its own page only")
            await _close(receive, send, 4403, error)
            return
        refusal = _refusal_in_address(scope)
        if refusal is not None:
            await _close(receive, send, 4422, refusal)
            return
        address = client_address(scope)
        if self.sockets[address] >= self.settings.max_sockets_per_client:
            error = RefusedError(
                Refusal.TOO_MANY, "too many connections from your address (at most {count} at once)",
                count=self.settings.max_sockets_per_client,
            )
            await _close(receive, send, 4429, error)
            return
        names, names_room = budgets_of("GET", scope["path"])
        wait = await self.limits.take([*names, "misses"] if names_room else names, names, address)
        if wait is not None:
            await _close(receive, send, 4429, _too_many(wait))
            return
        self.sockets[address] += 1
        try:
            await self.app(scope, *self._socket_channels(receive, send, address))
        finally:
            self.sockets[address] -= 1
            if self.sockets[address] <= 0:
                del self.sockets[address]

    def _socket_channels(self, receive: Receive, send: Send, address: str) -> tuple[Receive, Send]:
        """The socket's receive and send as the app sees them: a message over the size limit closes
        the socket (1009, as uvicorn's own limit does), a closing 4404 is a missed room code."""
        closed = False

        async def guarded_receive() -> Message:
            nonlocal closed
            message = await receive()
            if message["type"] == "websocket.receive" and (
                frame_too_large(message.get("text"), self.settings.max_frame_bytes)
                or frame_too_large(message.get("bytes"), self.settings.max_frame_bytes)
            ):
                if not closed:
                    closed = True
                    await send({"type": "websocket.close", "code": 1009, "reason": "too-large"})
                return {"type": "websocket.disconnect", "code": 1009}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal closed
            if closed:
                return  # the guard closed it: the app's last words have nobody to reach
            if message["type"] == "websocket.close":
                closed = True
                if message.get("code") == 4404:
                    await self.limits.spend(["misses"], address)
            await send(message)

        return guarded_receive, guarded_send


def replaying(body: bytes, receive: Receive) -> Receive:
    """``receive`` that gives ``body``, read already, as the request's whole body first."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _is_json(content_type: str | None) -> bool:
    """Whether FastAPI reads a body of this type as JSON (it does one with no type, too)."""
    if not content_type:
        return True
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def _too_large(limit: int) -> RefusedError:
    return RefusedError(Refusal.TOO_LARGE, "the request body is over {limit} bytes", limit=limit)


def _too_many(seconds: int) -> RefusedError:
    return RefusedError(
        Refusal.TOO_MANY, "too many requests from your address: try again in {seconds} s", seconds=seconds
    )


async def _refuse(
    scope: Scope, receive: Receive, send: Send, error: RefusedError, *,
    headers: Iterable[tuple[bytes, bytes]] = (),
) -> None:
    response = JSONResponse(error.to_json(), status_code=error.status)
    response.raw_headers.extend(headers)
    await response(scope, receive, send)


async def _close(receive: Receive, send: Send, code: int, error: RefusedError) -> None:
    """Refuse a WebSocket so a browser learns why: accept it, send the refusal, close with ``code``."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps({"type": "error", **error.to_json()})})
    await send({"type": "websocket.close", "code": code, "reason": error.code})
