"""Rate limits per client address: moving windows counted in this process's memory, or in a storage
several processes share (Redis), and in memory again while that storage does not answer.

Each kind of request spends from its own budget (`budgets`): rooms created, commitments, seats
joined, profiles created, requests naming a room, codes naming no room (what guessing spends), and
requests that ask the solver for work outside a room. The address is the connecting one, an IPv6
address by its /64 network (`client_address`).
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import math
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter as AsyncMovingWindows
from limits.errors import StorageError
from limits.storage import storage_from_string
from starlette.types import Scope

from shutthebox.web.settings import Settings

__all__ = [
    "LEASE_SHARE", "Budget", "Leased", "MovingWindows", "RateLimits", "SharedOrOwn", "SharedWindows",
    "Windows", "budgets", "budgets_of", "client_address",
]

log = logging.getLogger(__name__)
_ROOM_PATH = re.compile(r"/api/rooms/(?P<code>[^/]+)(?:/|$)")
_SOLVER_PATH = re.compile(r"/api/(?:cheatsheet|tables|train|games/[^/]+/review|players/.+/stats)")
"""Requests that ask the solver for work (a room's hints and reviews spend the room's budget)."""


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

    def wait(self, item: RateLimitItem, name: str, address: str, cost: int = 1) -> float | None:
        """Seconds until ``address`` may spend ``cost`` more on ``item`` (None: it may now)."""
        now = self._clock()
        hits = self._recent(item, name, address, now)
        if hits is None or len(hits) + cost <= item.amount:
            return None
        if cost > item.amount:
            return float(item.get_expiry())
        return hits[len(hits) + cost - item.amount - 1] + item.get_expiry() - now

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

    def take(self, item: RateLimitItem, name: str, address: str, cost: int = 1) -> float | None:
        """``cost`` hits if the window has room for them (None), else the seconds until it has."""
        seconds = self.wait(item, name, address, cost)
        if seconds is None:
            for _ in range(cost):
                self.hit(item, name, address)
        return seconds

    def take_all(
        self, items: Sequence[tuple[RateLimitItem, str]], spent: Collection[str], address: str
    ) -> float | None:
        """What `RateLimits.take` asks, in one pass: the seconds until ``address`` may spend on each
        window of ``items`` (the first that is full), else None after one hit on each window whose
        budget is in ``spent`` (a socket's every message asks, so each window is looked up once)."""
        now = self._clock()
        if now >= self._next_sweep:
            self._sweep(now)
        to_hit: list[tuple[tuple[str, str, int, int], deque[float] | None]] = []
        for item, name in items:
            hits = self._recent(item, name, address, now)
            if (
                hits is not None and len(hits) >= item.amount
                and (seconds := self._until_room(hits, item.amount, item.get_expiry(), now))
            ):
                return seconds
            if name in spent:
                to_hit.append(((name, address, item.amount, item.get_expiry()), hits))
        for key, found in to_hit:
            hits = self._hits.setdefault(key, deque()) if found is None else found
            if len(hits) < key[2]:
                hits.append(now)
        return None

    @staticmethod
    def _until_room(hits: deque[float], amount: int, expiry: int, now: float) -> float:
        """Seconds until a full window of ``amount`` hits has room for one more."""
        return float(expiry) if amount < 1 else hits[len(hits) - amount] + expiry - now

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
    """Moving windows a storage holds (`SharedWindows`): how long an address must wait on a limit,
    one spending counted, and ``cost`` spendings taken at once if the window has room for them."""

    async def wait(self, item: RateLimitItem, name: str, address: str) -> float | None: ...
    async def hit(self, item: RateLimitItem, name: str, address: str) -> None: ...
    async def take(self, item: RateLimitItem, name: str, address: str, cost: int = 1) -> float | None: ...
    async def close(self) -> None: ...


REDIS_SECONDS = 2.0
"""How long one try of a count may wait for a Redis that does not answer (a network cut)."""
REDIS_CONNECTIONS = 32
"""Connections to Redis one process counts over at once (a burst of requests waits for one, rather
than opening hundreds)."""


class SharedWindows:
    """Moving windows in a storage several processes share (Redis), through the `limits` library's
    asyncio strategy: no thread per count, one round trip per window (`take` tests and spends in
    one); a storage that cannot be reached raises `limits.errors.StorageError`.

    A Redis is reached over a pool of redis-py's asyncio connections held here (at most
    `REDIS_CONNECTIONS`, closed by `close`),
    each try given up after `REDIS_SECONDS` and made once more at once (over a connection held from
    before a restart), not ten times with waits between as redis-py does by default: a request
    counted as Redis goes waits a moment, not seconds."""

    def __init__(self, uri: str) -> None:
        options: dict[str, Any] = {"wrap_exceptions": True}
        self._pool: Any = None
        if uri.split(":", 1)[0] in ("redis", "rediss", "redis+unix"):
            from redis.asyncio import BlockingConnectionPool  # the redis extra: several processes
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            self._pool = BlockingConnectionPool.from_url(
                uri.replace("redis+unix", "unix", 1), max_connections=REDIS_CONNECTIONS,
                timeout=REDIS_SECONDS, socket_connect_timeout=REDIS_SECONDS, socket_timeout=REDIS_SECONDS,
                retry=Retry(NoBackoff(), 1),
            )
            options |= {"implementation": "redispy", "connection_pool": self._pool}
        self._limiter = AsyncMovingWindows(storage_from_string(f"async+{uri}", **options))

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.aclose()

    async def wait(self, item: RateLimitItem, name: str, address: str) -> float | None:
        if await self._limiter.test(item, name, address):
            return None
        return await self._until_room(item, name, address)

    async def hit(self, item: RateLimitItem, name: str, address: str) -> None:
        await self._limiter.hit(item, name, address)

    async def take(self, item: RateLimitItem, name: str, address: str, cost: int = 1) -> float | None:
        """``cost`` hits if the window has room for them (None), else the seconds until it has: one
        round trip."""
        if await self._limiter.hit(item, name, address, cost=cost):
            return None
        return await self._until_room(item, name, address)

    async def _until_room(self, item: RateLimitItem, name: str, address: str) -> float:
        return (await self._limiter.get_window_stats(item, name, address)).reset_time - time.time()


LEASE_SHARE = 16
"""The part of a limit a process takes from the shared windows at once (`Leased`): 1/16th."""


@dataclass(slots=True)
class _Lease:
    left: int  # spendings taken from the shared window and not yet spent here
    until: float  # when the shared window lets them go (their window has passed)


class Leased:
    """Shared windows spent a lease at a time: a process takes a part of a limit at once (`LEASE_SHARE`
    of it, for an address on a budget) and spends it here, asking the shared storage again once it is
    spent or its window has passed. A socket's every message spent from a Redis round trip: 14 % of a
    worker's CPU with two processes; now one in each lease. Over `SharedOrOwn`: while Redis is away,
    a lease comes from this process's own windows.

    The budget holds as before, whatever the processes: a lease is counted in the shared window as it
    is taken, so all the processes together never spend more than the limit; what a process leased
    and did not spend is the budget's until its window passes (an address whose requests move to
    another process may be held a little early there, never late). A limit too small to share out
    (a sixteenth under one) is counted one at a time."""

    SWEEP_SECONDS = 60.0

    def __init__(self, shared: Windows, clock: Callable[[], float] = time.monotonic) -> None:
        self._shared, self._clock = shared, clock
        self._leases: dict[tuple[str, str, int, int], _Lease] = {}
        self._next_sweep = clock() + self.SWEEP_SECONDS

    def _held(self, item: RateLimitItem, name: str, address: str) -> _Lease | None:
        lease = self._leases.get((name, address, item.amount, item.get_expiry()))
        return lease if lease is not None and lease.left > 0 and lease.until > self._clock() else None

    async def wait(self, item: RateLimitItem, name: str, address: str) -> float | None:
        if self._held(item, name, address) is not None:
            return None
        return await self._shared.wait(item, name, address)

    async def hit(self, item: RateLimitItem, name: str, address: str) -> None:
        lease = self._held(item, name, address)
        if lease is not None:
            lease.left -= 1
            return
        await self._shared.hit(item, name, address)

    async def take(self, item: RateLimitItem, name: str, address: str, cost: int = 1) -> float | None:
        """One spending (``cost`` must be 1) from the lease held here, else a new lease is taken (the
        rest of it held here), else one spending alone as the shared window allows it."""
        assert cost == 1, "a lease is spent one at a time"
        lease = self._held(item, name, address)
        if lease is not None:
            lease.left -= 1
            return None
        now = self._clock()
        if now >= self._next_sweep:
            self._sweep(now)
        share = item.amount // LEASE_SHARE
        if share > 1 and await self._shared.take(item, name, address, share) is None:
            key = (name, address, item.amount, item.get_expiry())
            self._leases[key] = _Lease(share - 1, now + item.get_expiry())
            return None
        return await self._shared.take(item, name, address)

    async def close(self) -> None:
        await self._shared.close()

    def _sweep(self, now: float) -> None:
        self._leases = {key: lease for key, lease in self._leases.items() if lease.until > now and lease.left}
        self._next_sweep = now + self.SWEEP_SECONDS


Counted = TypeVar("Counted")


class SharedOrOwn:
    """The shared windows while their storage answers, this process's own while it does not (Redis
    away): each process then holds each address to the budgets alone, and nobody's request fails
    for it. The storage is tried again every `RETRY_SECONDS` (by one request; the others count here
    meanwhile), and each change of side is logged once."""

    RETRY_SECONDS = 5.0

    def __init__(
        self, shared: Windows, own: MovingWindows, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._shared, self._own, self._clock = shared, own, clock
        self._retry_at: float | None = None
        """None while the shared storage answers; else when to try it again."""

    @property
    def shared(self) -> bool:
        """Whether the counts go to the shared storage (as far as the last call knows)."""
        return self._retry_at is None

    async def wait(self, item: RateLimitItem, name: str, address: str) -> float | None:
        return await self._count(self._shared.wait, self._own.wait, item, name, address)

    async def hit(self, item: RateLimitItem, name: str, address: str) -> None:
        await self._count(self._shared.hit, self._own.hit, item, name, address)

    async def take(self, item: RateLimitItem, name: str, address: str, cost: int = 1) -> float | None:
        return await self._count(
            functools.partial(self._shared.take, cost=cost), functools.partial(self._own.take, cost=cost),
            item, name, address,
        )

    async def close(self) -> None:
        await self._shared.close()

    async def _count(
        self, shared: Callable[[RateLimitItem, str, str], Awaitable[Counted]],
        own: Callable[[RateLimitItem, str, str], Counted], item: RateLimitItem, name: str, address: str,
    ) -> Counted:
        retry_at = self._retry_at
        if retry_at is not None and self._clock() < retry_at:
            return own(item, name, address)
        try:
            counted = await shared(item, name, address)
        except StorageError as error:
            self._away(error)
            return own(item, name, address)
        if retry_at is not None:
            self._back()
        return counted

    def _away(self, error: StorageError) -> None:
        if self._retry_at is None:
            log.warning(
                "the rate limits count in this process alone: their shared storage does not answer "
                "(%s); tried again every %.0f s", error.storage_error, self.RETRY_SECONDS,
            )
        self._retry_at = self._clock() + self.RETRY_SECONDS

    def _back(self) -> None:
        if self._retry_at is not None:
            log.warning("the rate limits count in their shared storage again")
        self._retry_at = None


class RateLimits:
    """The budgets of the settings, counted per client address: in this process's memory, or in the
    shared storage the settings name when several processes serve (in this process's memory again
    while that storage does not answer: see `SharedOrOwn`)."""

    def __init__(self, settings: Settings) -> None:
        self.budgets = budgets(settings)
        inline = settings.rate_limit_storage.startswith("memory:")
        self._own = MovingWindows()
        self._shared = None if inline else Leased(
            SharedOrOwn(SharedWindows(settings.rate_limit_storage), self._own)
        )

    async def take(self, checked: Iterable[str], spent: Iterable[str], address: str) -> int | None:
        """Seconds until ``address`` may spend on every budget of ``checked`` (whole seconds, at least
        one), or None after it spent on each of ``spent`` (budgets of ``checked``): one window of a
        shared storage is tested and spent in one round trip (a socket's message spends one)."""
        spent = list(spent)
        items = [(item, name) for name in checked for item in self.budgets[name].limits]
        if self._shared is None:
            return _whole(self._own.take_all(items, spent, address))
        shared = self._shared
        last = next(((item, name) for item, name in reversed(items) if name in spent), None)
        for item, name in items:
            if (item, name) != last and (seconds := await shared.wait(item, name, address)) is not None:
                return _whole(seconds)
        if last is not None and (seconds := await shared.take(*last, address)) is not None:
            return _whole(seconds)
        for item, name in items:
            if name in spent and (item, name) != last:
                await shared.hit(item, name, address)
        return None

    async def close(self) -> None:
        """Let the shared storage's connections go (at the server's stop)."""
        if self._shared is not None:
            await self._shared.close()

    async def spend(self, names: Iterable[str], address: str) -> None:
        """Spend once on each budget of ``names``, whatever is left (a miss found after the answer)."""
        for name in names:
            for item in self.budgets[name].limits:
                if self._shared is None:
                    self._own.hit(item, name, address)
                else:
                    await self._shared.hit(item, name, address)


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else max(1, math.ceil(seconds))


def client_address(scope: Scope) -> str:
    """Whom a request is counted against: its client's address (an IPv6 one by its /64 network,
    which one home or one server holds whole)."""
    client = scope.get("client")
    return _counted_as(str(client[0]) if client else "unknown")


@functools.lru_cache(maxsize=4096)
def _counted_as(host: str) -> str:
    """`client_address` of one host: parsed once, as every request and socket message asks."""
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
