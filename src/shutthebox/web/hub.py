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

**Redis away** (stopped, restarted, out of reach): the news connection breaks and
a PING goes unanswered, so the hub is out of touch (`Hub.in_touch` False, said
once in the log). What each call does meanwhile:

- *Rooms are refused* with 503 ``shared-down`` (`web.copies.Copies.check_in_touch`): a copy
  here cannot be known fresh, nor a change told to the sockets of the others, so
  nothing is read or changed, and nothing refused is applied. A change that was
  under way when Redis went is kept all the same: the database's compare-and-set
  guards it, and it was acknowledged; only its news waits.
- *News waits*: what cannot be published is kept (the latest of each kind per
  room) and published once Redis answers.
- *Leases are refused*, so bots, clocks, rematches and closing wait: no room's
  work can run twice at once. A lease that cannot be renewed stops its work (the
  lock's token is checked by Redis, so one lost to a restart or an expiry is
  never renewed); the database fences the one action that may be under way.
- *Rate limits* count in each process's memory (`web.rates.SharedOrOwn`).

When the news connection is made again, the hub is in touch, every copy of a room
is marked behind before any request is served from it, the watched ones catch up
and are pushed to their sockets, the kept news goes out, and a turn clock that
ran out meanwhile starts over (`web.news.Cluster.resumed`): play resumes by itself.
[`tests/web/test_redis_away.py`]
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
    in_touch: bool
    """News flows between the processes; False while Redis is away (no copy here is known fresh)."""

    async def start(self, listen: Listen, missed: Missed) -> None:
        """Hear news with ``listen``; ``missed`` when some may have been lost: the news reconnected,
        or stopped (`in_touch` False), or came back after it."""
        ...

    async def stop(self) -> None: ...
    async def publish(self, news: News) -> None:
        """Tell the other processes, now or (Redis away) once Redis answers again."""
        ...

    async def lease(self, key: str, seconds: float) -> bool:
        """Take (or renew, if this process holds it) the lease ``key`` for ``seconds``; False if
        another holds it, or nobody can tell (Redis away)."""
        ...

    async def renew(self, key: str, seconds: float) -> bool:
        """Extend a lease this process holds; False if it lost it (expired, and maybe taken), or
        cannot tell (Redis away)."""
        ...

    async def release(self, key: str) -> None: ...
    async def answers(self) -> bool:
        """Whether what the processes share answers now (always, for one process alone)."""
        ...


@dataclass
class LocalHub:
    """One process alone: leases among its own tasks, news for nobody."""

    name: str = "local"
    shared: bool = False
    in_touch: bool = True
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

    async def answers(self) -> bool:
        return True


REDIS_SECONDS = 2.0
"""How long one try of a call may wait for a Redis that does not answer (a network cut)."""
RETRY_SECONDS = 1.0
"""How often the news connection is tried again while Redis is away."""


def client_options() -> dict[str, Any]:
    """How the hub's Redis client calls: each try given up after `REDIS_SECONDS`, and made once more at
    once (over a connection held from before a restart), not ten times with waits between as redis-py
    does by default: a lease asked for as Redis goes is refused in a moment, not in seconds."""
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    return {"socket_connect_timeout": REDIS_SECONDS, "socket_timeout": REDIS_SECONDS,
            "retry": Retry(NoBackoff(), 1)}


class RedisHub:
    """Several processes, one Redis: news on a pub/sub channel, leases as Redis locks; Redis away
    stops the news (`in_touch` False) and refuses every lease until it answers again."""

    shared = True

    def __init__(self, url: str) -> None:
        from redis.asyncio import Redis

        self.url = url
        self.name = secrets.token_hex(6)
        self.redis: Redis = Redis.from_url(url, **client_options())
        self.in_touch = False
        self._locks: dict[str, Any] = {}
        self._reader: asyncio.Task[None] | None = None
        self._missed: Missed = _nothing
        self._catching_up: set[asyncio.Task[None]] = set()
        self._pubsub: PubSub | None = None
        self._unsent: dict[tuple[str, str], News] = {}
        """News that could not be published, the latest of each kind per room: sent once Redis answers."""

    async def start(self, listen: Listen, missed: Missed) -> None:
        await self.redis.ping()  # a wrong URL stops the server now, not at its first room
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(CHANNEL)
        self._missed = missed
        assert self._pubsub.connection is not None
        self._pubsub.connection.register_connect_callback(self._reconnected)  # held weakly: a method
        self.in_touch = True
        self._reader = asyncio.create_task(self._read(listen))

    async def _reconnected(self, _connection: object) -> None:
        """The news connection came back (redis-py resubscribed first): what was said meanwhile is lost,
        so every copy of a room may be behind."""
        if not self.in_touch:
            return  # Redis was away: the reader brings the rooms back (`_back`) once it reads again
        log.warning("the room news from Redis reconnected; copies of rooms catch up")
        task = asyncio.create_task(self._resume())  # not in the middle of redis-py's reconnecting
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)

    async def _read(self, listen: Listen) -> None:
        from redis.exceptions import RedisError

        assert self._pubsub is not None
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the news connection broke: redis-py reconnects at the next call
                if not isinstance(error, RedisError | OSError):
                    log.exception("the room news from Redis stopped")
                await self._lost(error)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if not self.in_touch:  # read, so connected and subscribed again
                await self._back()
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

    async def _lost(self, error: Exception) -> None:
        """The news connection broke. If Redis still answers, only news said meanwhile is lost; if not,
        Redis is away: out of touch (said once) until the reader reads again."""
        if await self.answers():
            if self.in_touch:
                await self._missed()
            return
        if self.in_touch:
            self.in_touch = False
            log.warning(
                "Redis does not answer (%s): rooms are refused (503) until it does; their bots and clocks "
                "wait", error,
            )
            await self._missed()

    async def _back(self) -> None:
        """Redis answers again: in touch, and at once (no await between) `missed` marks every copy
        behind, so none is served as it was."""
        log.warning("Redis answers again: rooms are served again, their bots and clocks run")
        self.in_touch = True
        await self._resume()

    async def _resume(self) -> None:
        """After news was lost: every copy catches up; the news kept meanwhile goes out."""
        await self._missed()
        await self._send_unsent()

    async def answers(self) -> bool:
        """Whether Redis answers a PING now."""
        from redis.exceptions import RedisError

        try:
            await self.redis.ping()
        except RedisError:
            return False
        return True

    async def stop(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._pubsub is not None:
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()

    async def publish(self, news: News) -> None:
        """Publish ``news`` if Redis answers, else keep it (the latest of its kind for its room) until
        it does; after news that went out, any kept news goes too."""
        topic = _topic(news)
        self._unsent.pop(topic, None)  # said again, newer: what was kept is out of date
        if not self.in_touch or not await self._send(news):
            self._unsent[topic] = news
        elif self._unsent:
            await self._send_unsent()

    async def _send_unsent(self) -> None:
        unsent, self._unsent = self._unsent, {}  # taken whole: no news goes twice
        for topic, news in unsent.items():
            if topic not in self._unsent and (not self.in_touch or not await self._send(news)):
                self._unsent.setdefault(topic, news)

    async def _send(self, news: News) -> bool:
        from redis.exceptions import RedisError

        body = {"code": news.code, "sender": news.sender, "version": news.version, "closed": news.closed,
                "seats": list(news.seats) if news.seats is not None else None}
        try:
            await self.redis.publish(CHANNEL, json.dumps(body))
        except RedisError as error:
            log.warning("room %s: its news waits for Redis (%s)", news.code, error)
            return False
        return True

    async def lease(self, key: str, seconds: float) -> bool:
        from redis.exceptions import RedisError

        if key in self._locks or not self.in_touch:
            return False  # a task of this process holds it; or Redis is away: the work waits for it
        lock = self.redis.lock(f"shutthebox:lease:{key}", timeout=seconds, blocking=False)
        try:
            if not await lock.acquire():
                return False
        except RedisError as error:  # maybe taken, unknown to us: it expires by itself
            log.warning("the lease %s waits for Redis (%s)", key, error)
            return False
        self._locks[key] = lock
        return True

    async def renew(self, key: str, seconds: float) -> bool:
        from redis.exceptions import LockError, RedisError

        lock = self._locks.get(key)
        if lock is None:
            return False
        try:
            await lock.extend(seconds, replace_ttl=True)
        except LockError:  # it expired meanwhile (or Redis started again, empty): maybe another's now
            self._locks.pop(key, None)
            return False
        except RedisError:  # cannot tell: stop the work; `release` lets it go if Redis answers by then
            return False
        return True

    async def release(self, key: str) -> None:
        from redis.exceptions import RedisError

        lock = self._locks.pop(key, None)
        if lock is not None:
            with contextlib.suppress(RedisError):  # expired already, or Redis away: it expires by itself
                await lock.release()


async def _nothing() -> None:
    return None


def _topic(news: News) -> tuple[str, str]:
    """What ``news`` speaks of: a room's version, its seats with sockets here, or its closing; a
    newer news of one topic says all an older one did."""
    kind = "closed" if news.closed else "seats" if news.seats is not None else "version"
    return news.code, kind


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
