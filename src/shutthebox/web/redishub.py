"""The hub of several processes, one Redis (the redis extra): news on a pub/sub channel, leases as
Redis locks (`web.hub` says what a hub does, and what each call does while Redis is away).

Imported only when the server is given a Redis URL (`web.app`), so a server of one process runs
without redis-py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import LockError, RedisError

from shutthebox.web.hub import CHANNEL, CHANNEL_BEFORE, Listen, Missed, News

__all__ = ["REDIS_SECONDS", "RETRY_SECONDS", "RedisHub", "client_options"]

log = logging.getLogger("shutthebox.web.hub")  # the name it had in web.hub: a level set on it still holds

REDIS_SECONDS = 2.0
"""How long one try of a call may wait for a Redis that does not answer (a network cut)."""
RETRY_SECONDS = 1.0
"""How often the news connection is tried again while Redis is away."""


def client_options() -> dict[str, Any]:
    """How the hub's Redis client calls: each try given up after `REDIS_SECONDS`, and made once more at
    once (over a connection held from before a restart), not ten times with waits between as redis-py
    does by default: a lease asked for as Redis goes is refused in a moment, not in seconds."""

    return {"socket_connect_timeout": REDIS_SECONDS, "socket_timeout": REDIS_SECONDS,
            "retry": Retry(NoBackoff(), 1)}


class RedisHub:
    """Several processes, one Redis: news on a pub/sub channel, leases as Redis locks; Redis away
    stops the news (`in_touch` False) and refuses every lease until it answers again."""

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = secrets.token_hex(6)
        self.redis: Redis = Redis.from_url(url, **client_options())
        self.in_touch = False
        self._locks: dict[str, Any] = {}
        self._reader: asyncio.Task[None] | None = None
        self._missed: Missed = _nothing
        self._catching_up: set[asyncio.Task[None]] = set()
        self._pubsub: PubSub | None = None
        self._said = 0
        """News said so far, each numbered by when (the newest of a kind is the one kept)."""
        self._unsent: dict[tuple[str, str], tuple[int, News]] = {}
        """News that could not be published, the newest of each kind per room: sent once Redis answers."""
        self._outbox: list[tuple[int, News]] = []
        """News said while the last message was on its way: the next message carries them all."""
        self._sender: asyncio.Task[None] | None = None
        self._next: asyncio.Future[None] | None = None
        """Done once the message the news of `_outbox` go in has gone out (or they were kept)."""

    async def start(self, listen: Listen, missed: Missed) -> None:
        await self.redis.ping()  # a wrong URL stops the server now, not at its first room
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(CHANNEL, CHANNEL_BEFORE)
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
                heard = _read_news(message["data"])
            except (ValueError, KeyError, TypeError, AttributeError):
                log.warning("unreadable room news: %r", message["data"][:200])
                continue
            for news in heard:
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
        try:
            await self.redis.ping()
        except RedisError:
            return False
        return True

    async def stop(self) -> None:
        sender = self._sender
        if sender is not None and not sender.done():  # what was said goes out before the connections close
            await asyncio.wait([sender], timeout=REDIS_SECONDS)
            sender.cancel()  # still waiting on Redis: what it holds is kept, as for Redis away
            await asyncio.wait([sender])
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._pubsub is not None:
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()

    async def publish(self, news: News) -> None:
        """Publish ``news`` with whatever else this process says meanwhile: one message goes out at a
        time, carrying all the news said while the last was on its way (a turn of the event loop's
        actions is one PUBLISH, one message for each other process to read). Returns once its message
        went out (Redis has passed it to the others' connections before it answers), so a player
        answered here finds the news at the other processes already, or after `REDIS_SECONDS` of a
        Redis that does not answer; while Redis is away, or when the message is not sent, the news
        is kept (the newest of its kind for its room) until Redis answers."""
        self._said += 1
        self._unsent.pop(_topic(news), None)  # said again, newer: what was kept is out of date
        if not self.in_touch:
            self._keep([(self._said, news)])
            return
        sent = self._enqueue([(self._said, news)])
        with contextlib.suppress(TimeoutError):  # a caller cancelled leaves the message to go for the others
            await asyncio.wait_for(asyncio.shield(sent), REDIS_SECONDS)

    def _enqueue(self, said: list[tuple[int, News]]) -> asyncio.Future[None]:
        """Put news in the next message (the sender starts if it was not running); done once it went."""
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
        self._outbox.extend(said)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_outbox())
        return self._next

    async def _send_outbox(self) -> None:
        """The one sender: a message at a time, of all the news waiting, the newest of each kind of a
        room; after a message went out, what was kept goes in the next."""
        while self._outbox:  # started in the turn of the first news: the turn's other news go with it
            said = _newest(self._outbox)
            self._outbox, sent, self._next = [], self._next, None
            try:
                if self.in_touch and await self._send([news for _number, news in said]):
                    if self._unsent:  # Redis answers: what was kept goes next
                        kept, self._unsent = list(self._unsent.values()), {}
                        self._outbox.extend(kept)
                else:
                    waiting = {_topic(news) for _number, news in self._outbox}
                    self._keep([(number, news) for number, news in said if _topic(news) not in waiting])
            except BaseException:  # cancelled (the server stops): nothing said is lost, nobody waits
                self._keep([*said, *self._outbox])
                self._outbox = []
                for waited in (sent, self._next):
                    if waited is not None and not waited.done():
                        waited.set_result(None)
                self._next = None
                raise
            finally:
                if sent is not None and not sent.done():
                    sent.set_result(None)

    def _keep(self, said: list[tuple[int, News]]) -> None:
        """Keep news until Redis answers: of each kind of a room, the one said last."""
        for number, news in said:
            kept = self._unsent.get(_topic(news))
            if kept is None or kept[0] < number:
                self._unsent[_topic(news)] = (number, news)

    async def _send_unsent(self) -> None:
        """Redis answers again: what was kept goes in the next message."""
        if self._unsent and self.in_touch:
            kept, self._unsent = list(self._unsent.values()), {}
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._enqueue(kept)), REDIS_SECONDS)

    async def _send(self, said: list[News]) -> bool:
        try:
            await self.redis.publish(CHANNEL, _written(said))
        except RedisError as error:
            log.warning("the news of %d room(s) waits for Redis (%s)", len(said), error)
            return False
        except Exception:
            log.exception("the news of %d room(s) could not be published; kept", len(said))
            return False
        return True

    async def lease(self, key: str, seconds: float) -> bool:
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
        lock = self._locks.pop(key, None)
        if lock is not None:
            with contextlib.suppress(RedisError):  # expired already, or Redis away: it expires by itself
                await lock.release()


async def _nothing() -> None:
    return None


def _newest(said: list[tuple[int, News]]) -> list[tuple[int, News]]:
    """Of each kind of news of a room, the one said last; in the order they were said."""
    newest: dict[tuple[str, str], tuple[int, News]] = {}
    for number, news in said:
        kept = newest.get(_topic(news))
        if kept is None or kept[0] < number:
            newest[_topic(news)] = (number, news)
    return sorted(newest.values(), key=lambda numbered: numbered[0])


def _topic(news: News) -> tuple[str, str]:
    """What ``news`` speaks of: a room's version, its seats with sockets here, or its closing; a
    newer news of one topic says all an older one did."""
    kind = "closed" if news.closed else "seats" if news.seats is not None else "version"
    return news.code, kind


def _written(said: list[News]) -> str:
    """One message of news: a JSON list, one object per news."""
    return json.dumps([
        {"code": news.code, "sender": news.sender, "version": news.version, "closed": news.closed,
         "seats": list(news.seats) if news.seats is not None else None}
        for news in said
    ])


def _read_news(data: bytes | str) -> list[News]:
    """The news of one message: a list, or one object alone (as a process before lists sent it)."""
    body = json.loads(data)
    return [_one_news(one) for one in (body if isinstance(body, list) else [body])]


def _one_news(body: dict[str, Any]) -> News:
    seats = body.get("seats")
    return News(
        code=str(body["code"]), sender=str(body["sender"]),
        version=int(body["version"]) if body.get("version") is not None else None,
        seats=tuple(int(seat) for seat in seats) if seats is not None else None,
        closed=bool(body.get("closed")),
    )
