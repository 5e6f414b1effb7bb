"""The edge of the web app: every request is checked here before any handler reads it.

`Guard` is a plain ASGI middleware (a ``BaseHTTPMiddleware`` would break
WebSockets and streaming). For each request it checks, in this order:

- the request names this server in its ``Host`` (one of ``allowed_hosts``,
  when set; else 400, or a socket closed with 4400), so that a page whose
  name was rebound to this server's address (DNS rebinding) is not its own;
- a token (``Authorization``, or ``?token=``/``?key=`` in the address) is
  printable ASCII of bounded length (the address's numbers are bounded where
  they are read: by each route's typed parameters);
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
mend it, quoted and cut short (see `safe_errors`, `web.refusals.echoed` and
docs/security.md); a refused WebSocket is accepted, sent that refusal as
``{"type": "error", …}`` and closed, so a browser sees the code.
`RedactTokens` keeps seat tokens and profile keys out of the server's log.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import re
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qsl, unquote_plus, urlsplit

from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.schemas import MAX_ROUNDS
from shutthebox.web.settings import ANY_HOST, Settings

__all__ = [
    "CLIENT_FAULTS",
    "MAX_TOKEN_LENGTH",
    "Budget",
    "ClientFaultsInOneLine",
    "Guard",
    "MovingWindows",
    "RateLimits",
    "RedactTokens",
    "SharedOrOwn",
    "SharedWindows",
    "Windows",
    "budgets",
    "client_address",
    "describe",
    "frame_too_large",
    "host_allowed",
    "install_log_filter",
    "plain_refusal",
    "redact",
    "safe_errors",
    "same_origin",
    "strict_json",
]

MAX_TOKEN_LENGTH = 512
"""The longest token or ``Authorization`` header read (the server's own tokens have 24 characters)."""
INT64 = (-(2**63), 2**63 - 1)
"""The whole numbers the edge lets through: what a database integer holds."""
SECRET_PARAMETERS = ("token", "key")
"""Query parameters that carry secrets: a seat token, a profile key."""

_ROOM_PATH = re.compile(r"/api/rooms/(?P<code>[^/]+)(?:/|$)")
_SOLVER_PATH = re.compile(r"/api/(?:cheatsheet|train|games/[^/]+/review|players/.+/stats)")
"""Requests that ask the solver for work (a room's hints and reviews spend the room's budget)."""
_PRINTABLE = re.compile(rb"[\x20-\x7e]*")
_WORD = re.compile(r"[A-Za-z0-9_-]{1,20}")
_UNKNOWN_TAG = "Input tag found using {discriminator} does not match any of the expected tags: {tags}"
_PARAMETER = re.compile(r"(?:^|(?<=[?&\s\"']))([^=&?#\s\"']+)=[^&?#\s\"']*")
"""A ``name=value`` pair of a query as a log line shows it, undecoded."""
log = logging.getLogger(__name__)


# -- values ----------------------------------------------------------------------
class _NotFiniteError(ValueError):
    pass


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFiniteError
    return value


def _no_constant(_text: str) -> float:
    raise _NotFiniteError


class _TooBig:
    """A whole number beyond 64 bits, kept unread until the walk finds where it stands."""


_TOO_BIG = _TooBig()


def _int64(text: str) -> int | _TooBig:
    if len(text.lstrip("+-")) > 19:  # checked before int(): a 5,000-digit number costs nothing
        return _TOO_BIG
    value = int(text)
    return value if INT64[0] <= value <= INT64[1] else _TOO_BIG


def _walk(value: object) -> tuple[int, tuple[object, ...] | None]:
    """How deep lists and objects nest in ``value`` (a scalar: 0), and where a number too big stands."""
    deepest, too_big = 0, None
    stack: list[tuple[object, int, tuple[object, ...]]] = [(value, 1, ())]
    while stack:
        item, level, where = stack.pop()
        children: Iterable[tuple[object, object]]
        if isinstance(item, dict):
            children = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:
            if item is _TOO_BIG and too_big is None:
                too_big = where
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1, (*where, key)) for key, child in children)
    return deepest, too_big


def strict_json(raw: bytes, *, max_depth: int) -> object:
    """``raw`` read as JSON the way the API accepts it, or `RefusedError` ``malformed`` saying why
    (never quoting it): UTF-8, no ``NaN`` or ``Infinity``, whole numbers within 64 bits, nested
    at most ``max_depth`` deep."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RefusedError(Refusal.MALFORMED, "the body is not UTF-8 text") from None
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=_int64)
    except _NotFiniteError:
        raise RefusedError(
            Refusal.MALFORMED, "numbers in the body must be finite (no NaN or Infinity)",
        ) from None
    except RecursionError:  # nested deeper than Python's recursion limit: certainly too deep
        raise RefusedError(
            Refusal.MALFORMED, "the body nests deeper than {depth} levels", depth=max_depth,
        ) from None
    except json.JSONDecodeError as error:
        raise RefusedError(
            Refusal.MALFORMED, "the body is not valid JSON (line {line}, column {column})",
            line=error.lineno, column=error.colno,
        ) from None
    depth, too_big = _walk(value)
    if depth > max_depth:
        raise RefusedError(Refusal.MALFORMED, "the body nests deeper than {depth} levels", depth=max_depth)
    if too_big is not None:
        where = ".".join(str(_place(part)) for part in ("body", *too_big))
        raise RefusedError(
            Refusal.MALFORMED, "{where}: whole numbers must lie between {low} and {high}",
            where=where, low=INT64[0], high=INT64[1],
        )
    return value


def frame_too_large(raw: str | bytes | None, limit: int = Settings.max_frame_bytes) -> bool:
    """Whether a WebSocket message (text or bytes) is over ``limit`` bytes."""
    if raw is None:
        return False
    if isinstance(raw, bytes) or len(raw) > limit or 4 * len(raw) <= limit:
        return len(raw) > limit
    return len(raw.encode("utf-8", "surrogatepass")) > limit


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


def safe_errors(errors: Iterable[Any]) -> list[dict[str, Any]]:
    """Pydantic's errors without the input they repeat: no ``input``, a key the client made up
    quoted and cut short, and a ``type`` tag it sent quoted only if it is a short word (else the
    one message that repeats it is said without it)."""
    safe = []
    for error in errors:
        item = {k: v for k, v in error.items() if k not in ("input", "url")}
        item["loc"] = [_place(part) for part in error.get("loc", ())]
        context = dict(item.get("ctx") or {})
        if "tag" in context and _WORD.fullmatch(str(context["tag"])) is None:
            context.pop("tag")
            item["msg"] = _UNKNOWN_TAG.format(
                discriminator=context.get("discriminator", "the discriminator"),
                tags=context.get("expected_tags", ""),
            )
        if context:
            item["ctx"] = {k: v if isinstance(v, int | float) else _short(str(v)) for k, v in context.items()}
        else:
            item.pop("ctx", None)
        item["msg"] = _short(str(item.get("msg", "")), 200)  # a validator's own words may quote the input
        safe.append(item)
    return safe


def plain_refusal(errors: list[dict[str, Any]]) -> RefusedError | None:
    """The refusal of a body a person's form could send, said as a sentence (not Pydantic's words):
    too many players, rounds out of range, a name too long. None for anything else."""
    for error in errors:
        loc = [part for part in error["loc"] if part != "body"]
        context = error.get("ctx") or {}
        field = loc[-1] if loc else None
        if loc == ["seats"] and error["type"] == "too_long":
            return RefusedError(
                Refusal.MALFORMED, "a game has at most {high} players, not {count}",
                high=context.get("max_length"), count=context.get("actual_length"),
            )
        if loc == ["rounds"] and error["type"] in ("less_than_equal", "greater_than_equal"):
            return RefusedError(Refusal.MALFORMED, "a game has from 1 to {high} rounds", high=MAX_ROUNDS)
        if field == "name" and error["type"] == "string_too_long":
            high = context.get("max_length")
            return RefusedError(Refusal.MALFORMED, "a name has at most {high} characters", high=high)
    return None


def describe(errors: Iterable[dict[str, Any]]) -> str:
    """One line naming each field that is wrong (of `safe_errors`)."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in errors)


def _place(part: object) -> object:
    """A part of where an error stands: a field's name as it is when it is a word (all of the
    API's are), else quoted as ``repr`` writes it (a key the client made up may hold any
    character) and cut short."""
    if isinstance(part, str) and _WORD.fullmatch(part) is None:
        return _short(repr(part))
    return part


def _short(part: object, limit: int = 40) -> object:
    if isinstance(part, str) and len(part) > limit:
        return part[: limit - 1] + "…"
    return part


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


# -- rate limits ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Budget:
    """What one client address may spend on one kind of request: every window must have room."""

    name: str
    limits: tuple[RateLimitItem, ...]


def budgets(settings: Settings) -> dict[str, Budget]:
    """The budgets the settings give each client address; `ValueError` for a rate that cannot be read."""
    rates = {
        "rooms": settings.rate_rooms,
        "commitments": settings.rate_rooms,
        "joins": settings.rate_joins,
        "profiles": settings.rate_profiles,
        "room": settings.rate_room_requests,
        "misses": settings.rate_room_misses,
        "solver": settings.rate_solver_requests,
    }
    return {name: Budget(name, tuple(parse_many(text))) for name, text in rates.items()}


class MovingWindows:
    """Moving windows counted in this process's memory: for each (budget, address, limit), the times
    of the hits still inside its window, oldest first, pruned as they are read.

    Why not the `limits` library's memory storage: it starts a thread every 10 ms that rescans
    every key, which took a sixth of the server's time with 200 clients and grows with each one.
    Here a hit costs the same whatever the number of clients, and keys whose hits have all left
    their window are dropped once a minute."""

    SWEEP_SECONDS = 60.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._hits: dict[tuple[str, str, int, int], deque[float]] = {}
        self._next_sweep = clock() + self.SWEEP_SECONDS

    def wait(self, item: RateLimitItem, name: str, address: str) -> float | None:
        """Seconds until ``address`` may spend once more on ``item`` (None: it may now)."""
        now = self._clock()
        hits = self._recent(item, name, address, now)
        if hits is None or len(hits) < item.amount:
            return None
        return hits[0] + item.get_expiry() - now

    def hit(self, item: RateLimitItem, name: str, address: str) -> None:
        """One spending, counted only while the window has room (as the `limits` strategy does)."""
        now = self._clock()
        if now >= self._next_sweep:
            self._sweep(now)
        hits = self._recent(item, name, address, now)
        if hits is None:
            hits = self._hits[(name, address, item.amount, item.get_expiry())] = deque()
        if len(hits) < item.amount:
            hits.append(now)

    def _recent(self, item: RateLimitItem, name: str, address: str, now: float) -> deque[float] | None:
        hits = self._hits.get((name, address, item.amount, item.get_expiry()))
        if hits is not None:
            start = now - item.get_expiry()
            while hits and hits[0] <= start:
                hits.popleft()
        return hits

    def _sweep(self, now: float) -> None:
        self._hits = {
            key: hits for key, hits in self._hits.items() if hits and hits[-1] > now - key[3]
        }
        self._next_sweep = now + self.SWEEP_SECONDS


class Windows(Protocol):
    """Moving windows: how long an address must wait on a limit, and one spending counted."""

    def wait(self, item: RateLimitItem, name: str, address: str) -> float | None: ...
    def hit(self, item: RateLimitItem, name: str, address: str) -> None: ...


REDIS_SECONDS = 2.0
"""How long one try of a count may wait for a Redis that does not answer (a network cut)."""


def storage_options(uri: str) -> dict[str, Any]:
    """How the `limits` storage of ``uri`` is reached: its failures raised as `StorageError`; a Redis
    one gives each try up after `REDIS_SECONDS` and makes it once more at once (over a connection
    held from before a restart), not ten times with waits between as redis-py does by default: a
    request counted as Redis goes waits a moment, not seconds."""
    options: dict[str, Any] = {"wrap_exceptions": True}
    if uri.split(":", 1)[0] in ("redis", "rediss", "redis+unix"):
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        options |= {"socket_connect_timeout": REDIS_SECONDS, "socket_timeout": REDIS_SECONDS,
                    "retry": Retry(NoBackoff(), 1)}
    return options


class SharedWindows:
    """Moving windows in a storage several processes share (Redis), through the `limits` library;
    a storage that cannot be reached raises `limits.errors.StorageError`."""

    def __init__(self, uri: str) -> None:
        self._limiter = MovingWindowRateLimiter(storage_from_string(uri, **storage_options(uri)))

    def wait(self, item: RateLimitItem, name: str, address: str) -> float | None:
        if self._limiter.test(item, name, address):
            return None
        return self._limiter.get_window_stats(item, name, address).reset_time - time.time()

    def hit(self, item: RateLimitItem, name: str, address: str) -> None:
        self._limiter.hit(item, name, address)


Counted = TypeVar("Counted")


class SharedOrOwn:
    """The shared windows while their storage answers, this process's own while it does not (Redis
    away): each process then holds each address to the budgets alone, and nobody's request fails
    for it. The storage is tried again every `RETRY_SECONDS` (by one request; the others count here
    meanwhile), and each change of side is logged once."""

    RETRY_SECONDS = 5.0

    def __init__(self, shared: Windows, own: Windows, clock: Callable[[], float] = time.monotonic) -> None:
        self._shared, self._own, self._clock = shared, own, clock
        self._retry_at: float | None = None
        """None while the shared storage answers; else when to try it again."""
        self._switching = threading.Lock()  # the calls come from the thread pool

    @property
    def shared(self) -> bool:
        """Whether the counts go to the shared storage (as far as the last call knows)."""
        return self._retry_at is None

    def wait(self, item: RateLimitItem, name: str, address: str) -> float | None:
        return self._count(lambda windows: windows.wait(item, name, address))

    def hit(self, item: RateLimitItem, name: str, address: str) -> None:
        self._count(lambda windows: windows.hit(item, name, address))

    def _count(self, use: Callable[[Windows], Counted]) -> Counted:
        retry_at = self._retry_at
        if retry_at is not None and self._clock() < retry_at:
            return use(self._own)
        try:
            counted = use(self._shared)
        except StorageError as error:
            self._away(error)
            return use(self._own)
        if retry_at is not None:
            self._back()
        return counted

    def _away(self, error: StorageError) -> None:
        with self._switching:
            if self._retry_at is None:
                log.warning(
                    "the rate limits count in this process alone: their shared storage does not answer "
                    "(%s); tried again every %.0f s", error.storage_error, self.RETRY_SECONDS,
                )
            self._retry_at = self._clock() + self.RETRY_SECONDS

    def _back(self) -> None:
        with self._switching:
            if self._retry_at is not None:
                log.warning("the rate limits count in their shared storage again")
            self._retry_at = None


class RateLimits:
    """The budgets of the settings, counted per client address: in this process's memory, or in the
    shared storage the settings name when several processes serve (in this process's memory again
    while that storage does not answer: see `SharedOrOwn`)."""

    def __init__(self, settings: Settings) -> None:
        self.budgets = budgets(settings)
        self._inline = settings.rate_limit_storage.startswith("memory:")  # no I/O: no thread needed
        self._windows: Windows = MovingWindows() if self._inline else SharedOrOwn(
            SharedWindows(settings.rate_limit_storage), MovingWindows()
        )

    async def wait(self, names: Iterable[str], address: str) -> int | None:
        """Seconds until ``address`` may spend on every budget of ``names`` (None: it may now)."""
        if self._inline:
            return self._wait(list(names), address)
        return await run_in_threadpool(self._wait, list(names), address)

    async def spend(self, names: Iterable[str], address: str) -> None:
        if self._inline:
            self._spend(list(names), address)
        else:
            await run_in_threadpool(self._spend, list(names), address)

    def _wait(self, names: list[str], address: str) -> int | None:
        for name in names:
            for item in self.budgets[name].limits:
                seconds = self._windows.wait(item, name, address)
                if seconds is not None:
                    return max(1, math.ceil(seconds))
        return None

    def _spend(self, names: list[str], address: str) -> None:
        for name in names:
            for item in self.budgets[name].limits:
                self._windows.hit(item, name, address)


def client_address(scope: Scope) -> str:
    """Whom a request is counted against: its client's address (an IPv6 one by its /64 network,
    which one home or one server holds whole)."""
    client = scope.get("client")
    host = str(client[0]) if client else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def budgets_of(method: str, path: str) -> tuple[list[str], bool]:
    """The budgets a request spends, and whether it names a room code (so a 404 is a miss)."""
    names = []
    if method == "POST" and path == "/api/rooms":
        names.append("rooms")
    elif method == "POST" and path == "/api/commitments":
        names.append("commitments")
    elif method == "POST" and path == "/api/profiles":
        names.append("profiles")
    if _SOLVER_PATH.fullmatch(path.rstrip("/")) is not None:
        names.append("solver")
    room = _ROOM_PATH.match(path) is not None
    if room:
        names.append("room")
        if method == "POST" and path.rstrip("/").endswith("/join"):
            names.append("joins")
    return names, room


# -- hosts ---------------------------------------------------------------------------
def host_allowed(host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a request whose ``Host`` is ``host`` names this server: one of the ``allowed`` names
    (ports aside, case aside), any name for ``*``, any address for a wildcard address."""
    name = _host_name(host or "")
    if name is None:
        return False
    for entry in allowed:
        if entry.strip() == ANY_HOST:
            return True
        wanted = _host_name(entry)
        if wanted in ("0.0.0.0", "::") and _is_address(name):
            return True
        if name == wanted:
            return True
    return False


def _host_name(host: str) -> str | None:
    """The name of a ``Host`` (or of an allowed host): lower case, no port, no brackets, no final
    dot; None if it cannot be read."""
    host = host.strip().lower()
    if host.count(":") > 1 and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address written bare, as an allowed host may be
    try:
        parts = urlsplit(f"//{host}")
        parts.port  # noqa: B018 - a port that is no number is no host
    except ValueError:
        return None
    return parts.hostname.rstrip(".") if parts.hostname else None


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _wrong_host() -> RefusedError:
    return RefusedError(
        Refusal.WRONG_HOST,
        "this server does not answer to the name this request was sent to (its Host header); "
        "its operator may add the name with serve --allowed-host",
    )


# -- origins -------------------------------------------------------------------------
_DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def same_origin(origin: str, host: str, allowed: Iterable[str] = ()) -> bool:
    """Whether a page at ``origin`` may open a socket on the server reached as ``host``: the same
    host and port, or an origin in ``allowed``."""
    origin = origin.strip().lower()
    if origin in (o.strip().lower().rstrip("/") for o in allowed):
        return True
    try:
        page = urlsplit(origin)
        server = urlsplit(f"//{host.strip().lower()}")
        page_port = page.port or _DEFAULT_PORTS.get(page.scheme)
        server_port = server.port
    except ValueError:
        return False
    if not page.hostname or page.hostname != server.hostname:
        return False
    if server_port is None:  # the Host of a default port names none
        return page_port == _DEFAULT_PORTS.get(page.scheme)
    return page_port == server_port


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
        if not self._named(scope):
            await _refuse(scope, receive, send, _wrong_host())
            return
        refusal = _refusal_in_address(scope)
        if refusal is not None:
            await _refuse(scope, receive, send, refusal)
            return
        address = client_address(scope)
        names, names_room = budgets_of(scope["method"], scope["path"])
        checked = [*names, "misses"] if names_room else names
        wait = await self.limits.wait(checked, address)
        if wait is not None:
            retry = [(b"retry-after", str(wait).encode())]
            await _refuse(scope, receive, send, _too_many(wait), headers=retry)
            return
        await self.limits.spend(names, address)
        body = await self._body(scope, receive, send)
        if body is None:
            return

        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 404:
                await self.limits.spend(["misses"], address)
            await send(message)

        await self.app(scope, replay, watch if names_room else send)

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
            await _close(receive, send, 4400, _wrong_host())
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
        wait = await self.limits.wait([*names, "misses"] if names_room else names, address)
        if wait is not None:
            await _close(receive, send, 4429, _too_many(wait))
            return
        await self.limits.spend(names, address)
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
