"""The hub of several processes (`web.hub`) over a real Redis that is killed and started again on
its port: out of touch, it refuses leases and keeps its news, raising nothing; back, it says so to
the server, sends what it kept, and a lease held before the restart is not renewed."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack
from pathlib import Path

import pytest

from shutthebox.ops.throwaway import free_port, missing_redis, temporary_redis
from shutthebox.web.hub import LocalHub, News
from shutthebox.web.redishub import RedisHub
from tests.support.services import kill_redis

SECONDS = 60.0
"""How long the hub may take to notice Redis went, or came back (it takes well under a second)."""


async def until(condition: Callable[[], bool]) -> None:
    end = time.monotonic() + SECONDS
    while not condition():
        assert time.monotonic() < end, "it did not happen"
        await asyncio.sleep(0.02)


def kept(hub: RedisHub) -> list[News]:
    """The news ``hub`` keeps until Redis answers (each held with when it was said)."""
    return [held[1] if isinstance(held, tuple) else held for held in hub._unsent.values()]


def test_one_process_alone_is_always_in_touch() -> None:
    assert LocalHub().in_touch and not LocalHub().shared


@pytest.mark.slow
async def test_a_hub_out_of_touch_refuses_leases_and_keeps_its_news_until_redis_is_back(
    tmp_path: Path,
) -> None:
    if missing_redis() is not None:
        pytest.skip(missing_redis())
    port = free_port()
    with ExitStack() as brokers:
        url = await asyncio.to_thread(brokers.enter_context, temporary_redis(tmp_path, port=port))
        hub, other = RedisHub(url), RedisHub(url)
        told: list[bool] = []  # whether the hub was in touch each time it said news was missed
        heard: list[News] = []

        async def missed() -> None:
            told.append(hub.in_touch)

        async def hear(news: News) -> None:
            heard.append(news)

        async def caught_up() -> None:
            return None

        await hub.start(hear, missed)
        await other.start(hear, caught_up)
        try:
            assert hub.in_touch
            assert await hub.lease("room:AAAAA", 30) and await hub.lease("room:CCCCC", 30)

            await asyncio.to_thread(kill_redis, url)
            await until(lambda: not hub.in_touch)
            assert told == [False]
            assert not await hub.lease("room:BBBBB", 30)  # nobody can tell who holds it: the work waits
            assert not await hub.renew("room:CCCCC", 30)  # cannot tell: its work stops
            await hub.release("room:CCCCC")  # nothing to free: it expires by itself
            news = News("DDDDD", hub.name, version=7)
            await hub.publish(news)  # kept, not raised
            assert kept(hub) == [news]

            await asyncio.to_thread(brokers.enter_context, temporary_redis(tmp_path, port=port))
            await until(lambda: hub.in_touch and other.in_touch)
            await until(lambda: told == [False, True])  # every copy marked behind, in touch again
            await until(lambda: not hub._unsent)  # the kept news went out
            assert heard in ([], [news])  # heard once, or not at all if `other` subscribed again after
            assert not await hub.renew("room:AAAAA", 30)  # Redis started again, empty: maybe another's now
            assert await other.lease("room:AAAAA", 30)
            assert not await hub.lease("room:AAAAA", 30)
            assert await hub.lease("room:BBBBB", 30)
        finally:
            await hub.stop()
            await other.stop()


async def test_the_news_of_one_turn_go_out_as_one_message_and_every_other_process_hears_each(
    redis_url: str,
) -> None:
    """Forty rooms change in one turn of the event loop (a group commit wakes forty writers at once):
    one PUBLISH carries their news, not forty, so each other process reads one message, not forty;
    the latest of each kind of a room is told, and a message of one news alone (as a process of
    before sent it) is still heard."""
    from redis.asyncio import Redis

    from shutthebox.web.hub import CHANNEL, CHANNEL_BEFORE

    hub, other = RedisHub(redis_url), RedisHub(redis_url)
    heard: list[News] = []

    async def hear(news: News) -> None:
        heard.append(news)

    async def nothing() -> None:
        return None

    watcher = Redis.from_url(redis_url)
    channel = watcher.pubsub(ignore_subscribe_messages=True)
    before = watcher.pubsub(ignore_subscribe_messages=True)
    await channel.subscribe(CHANNEL)
    await before.subscribe(CHANNEL_BEFORE)  # where a process of before reads, one news a message
    await hub.start(hear, nothing)
    await other.start(hear, nothing)
    try:
        said = [News(f"R{index:04d}", hub.name, version=index + 1) for index in range(40)]
        again = News("R0000", hub.name, version=99)  # said again in the same turn: newer
        await asyncio.gather(*(hub.publish(news) for news in [*said, again]))  # each returns once sent
        await until(lambda: len(heard) >= 40)
        messages, end = [], time.monotonic() + 1.0  # what the channel carried meanwhile, and then some
        while time.monotonic() < end:
            if (message := await channel.get_message(timeout=0.1)) is not None:
                messages.append(message)
        assert len(messages) == 1, f"{len(messages)} messages for one turn's news"
        end = time.monotonic() + 0.3
        while time.monotonic() < end:  # a list where a process of before reads would stop its reader
            assert await before.get_message(timeout=0.1) is None
        assert heard == [*said[1:], again]  # in the order said, the room said twice once

        await watcher.publish(CHANNEL_BEFORE, '{"code": "ZZZZZ", "sender": "before", "version": 3}')
        await until(lambda: len(heard) == 42)  # both hubs hear it: neither sent it
        assert heard[-2:] == [News("ZZZZZ", "before", version=3)] * 2
    finally:
        await channel.aclose()  # type: ignore[no-untyped-call]
        await before.aclose()  # type: ignore[no-untyped-call]
        await watcher.aclose()
        await hub.stop()
        await other.stop()


@contextlib.asynccontextmanager
async def paused(redis_url: str, seconds: float) -> AsyncIterator[None]:
    """Redis answers nobody for ``seconds`` (a stall: connected, silent), or until the block ends:
    the session's Redis serves the next test."""
    from redis.asyncio import Redis

    admin = Redis.from_url(redis_url)
    await admin.execute_command("CLIENT", "PAUSE", str(int(seconds * 1000)), "ALL")
    try:
        yield
    finally:
        await admin.execute_command("CLIENT", "UNPAUSE")
        await admin.aclose()


@contextlib.asynccontextmanager
async def deaf_hub(redis_url: str) -> AsyncIterator[RedisHub]:
    """A hub that talks and does nothing with what it hears, stopped after the block."""

    async def nothing() -> None:
        return None

    async def quiet(_news: News) -> None:
        return None

    hub = RedisHub(redis_url)
    await hub.start(quiet, nothing)
    try:
        yield hub
    finally:
        await hub.stop()


@pytest.mark.slow
async def test_while_redis_stalls_the_news_said_last_is_kept_and_nobody_waits_past_a_timeout(
    redis_url: str,
) -> None:
    """News kept while Redis was away goes out as it answers again, and a newer news of that room is
    said meanwhile; Redis stalls, so both messages fail: the newer is the one kept (before, the older
    came back over it), and its caller went on after a call's timeout, while the messages still
    waited on Redis (before, it waited for the message before its own, then for its own: 8 s)."""

    async with deaf_hub(redis_url) as hub:
        hub.in_touch = False
        await hub.publish(News("AAAAA", hub.name, seats=(0,)))  # kept while away
        async with paused(redis_url, 9):
            hub.in_touch = True
            resumed = asyncio.create_task(hub._send_unsent())  # as the hub does once Redis is back
            await asyncio.sleep(0.1)
            await hub.publish(News("AAAAA", hub.name, seats=(0, 1)))
            assert hub._sender is not None and not hub._sender.done()  # back before its message failed
            await resumed
            await until(lambda: hub._sender is None or hub._sender.done())
        assert [news.seats for news in kept(hub)] == [(0, 1)]


@pytest.mark.slow
async def test_news_on_their_way_when_the_sender_is_cancelled_are_kept_and_their_callers_go_on(
    redis_url: str,
) -> None:
    """The server stops while Redis stalls: the sender is cancelled with one message on its way and
    news waiting for the next. Nothing said is lost (all kept), and no caller waits for good."""

    async with deaf_hub(redis_url) as hub, paused(redis_url, 3):
        first = asyncio.create_task(hub.publish(News("FIRST", hub.name, version=1)))
        await asyncio.sleep(0.1)
        later = asyncio.create_task(hub.publish(News("LATER", hub.name, version=1)))
        await asyncio.sleep(0.1)
        assert hub._sender is not None
        hub._sender.cancel()
        done, _ = await asyncio.wait([first, later], timeout=1)
        assert done == {first, later}, "a caller still waits"
        assert sorted(news.code for news in kept(hub)) == ["FIRST", "LATER"]
