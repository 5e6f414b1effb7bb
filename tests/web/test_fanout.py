"""Fan-out that no client can stall: each socket has a bounded queue, a socket that lets it fill is
dropped (free to reconnect) instead of waited for, and a room's change is drawn once per seat and
language, so a room watched by many costs a join what an empty room costs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.web import Settings, create_app
from shutthebox.web import fanout as fanout_module
from shutthebox.web.fanout import Fanout, Listener
from shutthebox.web.hub import News
from shutthebox.web.server import Server
from tests.support.web import create


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'f.db'}", bot_delay=0, tick_seconds=3600)
    with TestClient(create_app(settings)) as client:
        yield client


def fanout_of(client: TestClient) -> Fanout:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server.fanout


def watch(client: TestClient, code: str, listener: Listener) -> None:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    assert client.portal is not None
    held = client.portal.call(server.copies.fresh, code)
    client.portal.call(server.fanout.listen, held, listener)


def test_a_socket_that_does_not_read_is_dropped_and_the_game_goes_on(client: TestClient) -> None:
    """Before, the server awaited each socket's send in turn: one spectator that stopped reading
    stalled its whole room."""
    table, _ = create(client, seats=[{"name": "Ana"}], seed=3)
    stuck = Listener(None, queue=asyncio.Queue(3))  # nobody takes its messages out
    reading = Listener(None, queue=asyncio.Queue(1000))
    watch(client, table.code, stuck)
    watch(client, table.code, reading)
    state = table.state()
    for _ in range(12):
        if state["status"] == "over":
            break
        state = table.step()  # every action is answered at once
    assert stuck.dropped.is_set() and stuck.queue.qsize() == 3
    assert not reading.dropped.is_set()
    listeners = fanout_of(client).listeners.get(table.code, set())
    assert stuck not in listeners
    pushed = [json.loads(reading.queue.get_nowait()) for _ in range(reading.queue.qsize())]
    assert pushed[-1]["state"]["version"] == state["version"]  # the one that reads saw it all


def test_joining_a_watched_room_draws_the_state_as_often_as_joining_an_empty_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, every socket's state was drawn for each change (and every spectator's arrival told
    everyone): joining a room watched by 900 sockets took 30 times as long as an empty one."""
    drawn = []
    real = fanout_module.room_json

    def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        drawn.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(fanout_module, "room_json", counted)
    counts = []
    for watchers in (0, 300):
        host, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}])
        for _ in range(watchers):
            watch(client, host.code, Listener(None, queue=asyncio.Queue(64)))
        drawn.clear()
        joined = client.post(f"/api/rooms/{host.code}/join", json={"name": "Luis"})
        assert joined.status_code == 200, joined.text
        counts.append(len(drawn))
    empty, watched = counts
    assert watched <= empty + 1  # the spectators' view, drawn once for all of them
    spectators = fanout_of(client).listeners[host.code]
    assert len(spectators) == 300 and all(s.queue.qsize() == 2 for s in spectators)  # each told once


def test_news_of_a_version_the_sockets_were_pushed_already_pushes_nothing_again(client: TestClient) -> None:
    """Before, news of version N pushed the room again when this copy had caught up to N already (news
    of N-1 arriving after N was kept): the sockets got version N twice (seen with two processes)."""
    host, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}])
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    assert client.portal is not None
    listener = Listener(host.token, seats=(0,), queue=asyncio.Queue(64))
    watch(client, host.code, listener)
    pushed = listener.queue.qsize()
    held = client.portal.call(server.copies.fresh, host.code)
    client.portal.call(server.cluster.hear, News(host.code, "other", version=held.version))
    assert listener.queue.qsize() == pushed  # the sockets have this version
    client.portal.call(server.cluster.hear, News(host.code, "other", seats=(1,)))
    assert listener.queue.qsize() == pushed + 1  # a seat come online elsewhere is news to them
    last = [json.loads(listener.queue.get_nowait()) for _ in range(pushed + 1)][-1]
    assert last["state"]["seats"][1]["connected"] is True
