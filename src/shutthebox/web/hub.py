"""What the processes of one server share besides the database: news of rooms and leases.

One process needs neither: `LocalHub` keeps its leases in memory and has nobody
to tell. Several processes share a `RedisHub`:

- **News.** After a process keeps a change of a room it publishes
  ``{code, version}`` on a Redis channel; every other process that holds a copy
  of the room, or sockets watching it, catches up from the database and pushes
  the new state to its own sockets. It also says which seats it has sockets for
  (who is connected is the union of every process's sockets).
- **Leases.** The work no player asks for (a bot's move, a clock that ran out,
  a rematch to settle, closing an idle room) is done by whichever process takes
  the room's lease (a Redis lock with a time to live, taken without waiting), so
  exactly one does it; a process that dies holding one frees it when it expires.

Correctness never rests on either: every write names the room version it
changed (`storage.rooms`), so a change made from a stale copy is refused and
made again over the fresh state. News only makes copies fresh sooner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

__all__ = ["Hub", "LocalHub", "News", "RedisHub", "hub_for"]

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger(__name__)
CHANNEL = "shutthebox:rooms"


@dataclass(frozen=True, slots=True)
class News:
    """What another process says of a room: its new version, or the seats it has sockets for."""

    code: str
    sender: str
    version: int | None = None
    seats: tuple[int, ...] | None = None
    closed: bool = False


Listen = Callable[[News], Awaitable[None]]
Missed = Callable[[], Coroutine[Any, Any, None]]


class Hub(Protocol):
    name: str
    """This process, as its news names it."""
    shared: bool
    """Other processes serve the same rooms."""

    async def start(self, listen: Listen, missed: Missed) -> None:
        """Hear news with ``listen``; ``missed`` when some may have been lost (Redis reconnected)."""
        ...

    async def stop(self) -> None: ...
    async def publish(self, news: News) -> None: ...
    async def lease(self, key: str, seconds: float) -> bool:
        """Take (or renew, if this process holds it) the lease ``key`` for ``seconds``; False if
        another holds it."""
        ...

    async def renew(self, key: str, seconds: float) -> bool:
        """Extend a lease this process holds; False if it lost it (expired, and maybe taken)."""
        ...

    async def release(self, key: str) -> None: ...


@dataclass
class LocalHub:
    """One process alone: leases among its own tasks, news for nobody."""

    name: str = "local"
    shared: bool = False
    clock: Callable[[], float] = time.monotonic
    _leases: dict[str, float] = field(default_factory=dict)

    async def start(self, listen: Listen, missed: Missed) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, news: News) -> None:
        return None

    async def lease(self, key: str, seconds: float) -> bool:
        now = self.clock()
        held = self._leases.get(key)
        if held is not None and held > now:
            return False
        self._leases[key] = now + seconds
        return True

    async def renew(self, key: str, seconds: float) -> bool:
        if key not in self._leases:
            return False
        self._leases[key] = self.clock() + seconds
        return True

    async def release(self, key: str) -> None:
        self._leases.pop(key, None)


class RedisHub:
    """Several processes, one Redis: news on a pub/sub channel, leases as Redis locks."""

    shared = True

    def __init__(self, url: str) -> None:
        from redis.asyncio import Redis

        self.url = url
        self.name = secrets.token_hex(6)
        self.redis: Redis = Redis.from_url(url)
        self._locks: dict[str, Any] = {}
        self._reader: asyncio.Task[None] | None = None
        self._missed: Missed = _nothing
        self._catching_up: set[asyncio.Task[None]] = set()
        self._pubsub: PubSub | None = None

    async def start(self, listen: Listen, missed: Missed) -> None:
        await self.redis.ping()  # a wrong URL stops the server now, not at its first room
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(CHANNEL)
        self._missed = missed
        assert self._pubsub.connection is not None
        self._pubsub.connection.register_connect_callback(self._reconnected)  # held weakly: a method
        self._reader = asyncio.create_task(self._read(listen))

    async def _reconnected(self, _connection: object) -> None:
        """The news connection came back (redis-py resubscribes): what was said meanwhile is lost,
        so every copy of a room may be behind."""
        log.warning("the room news from Redis reconnected; copies of rooms catch up")
        task = asyncio.create_task(self._missed())  # not in the middle of redis-py's reconnecting
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)

    async def _read(self, listen: Listen) -> None:
        assert self._pubsub is not None
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis went away: wait, then the client reconnects and resubscribes
                log.exception("the room news from Redis stopped; reconnecting")
                await self._missed()
                await asyncio.sleep(1.0)
                continue
            if message is None:
                continue
            try:
                news = _read_news(message["data"])
            except (ValueError, KeyError, TypeError):
                log.warning("unreadable room news: %r", message["data"][:200])
                continue
            if news.sender != self.name:
                try:
                    await listen(news)
                except Exception:
                    log.exception("room %s: news could not be applied", news.code)

    async def stop(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._pubsub is not None:
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()

    async def publish(self, news: News) -> None:
        body = {"code": news.code, "sender": news.sender, "version": news.version, "closed": news.closed,
                "seats": list(news.seats) if news.seats is not None else None}
        await self.redis.publish(CHANNEL, json.dumps(body))

    async def lease(self, key: str, seconds: float) -> bool:
        if key in self._locks:
            return False  # a task of this process holds it
        lock = self.redis.lock(f"shutthebox:lease:{key}", timeout=seconds, blocking=False)
        if not await lock.acquire():
            return False
        self._locks[key] = lock
        return True

    async def renew(self, key: str, seconds: float) -> bool:
        from redis.exceptions import LockError

        lock = self._locks.get(key)
        if lock is None:
            return False
        try:
            await lock.extend(seconds, replace_ttl=True)
        except LockError:  # it expired meanwhile, and may be another's now
            self._locks.pop(key, None)
            return False
        return True

    async def release(self, key: str) -> None:
        from redis.exceptions import LockError

        lock = self._locks.pop(key, None)
        if lock is not None:
            with contextlib.suppress(LockError):  # expired already: someone else may hold it now
                await lock.release()


async def _nothing() -> None:
    return None


def _read_news(data: bytes | str) -> News:
    body = json.loads(data)
    seats = body.get("seats")
    return News(
        code=str(body["code"]), sender=str(body["sender"]),
        version=int(body["version"]) if body.get("version") is not None else None,
        seats=tuple(int(seat) for seat in seats) if seats is not None else None,
        closed=bool(body.get("closed")),
    )


def hub_for(redis_url: str | None) -> Hub:
    """The hub of a server: Redis when it runs as several processes, else its own memory."""
    return RedisHub(redis_url) if redis_url else LocalHub()
