"""Redis goes away under a server of several processes (issue 26): every room request is refused
with a 503 that names it, never a 500 or a reset; a WebSocket is told why and closed to be tried
again; and when a ``redis-server`` starts again on the same port, play resumes by itself, nothing
acknowledged lost and nothing refused applied. First the server alone, its hub put out of touch and
back by hand (as `RedisHub` does when Redis goes and comes back); then a real server of two workers
over a real Redis killed with SIGKILL."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from shutthebox.core.record import GameRecord
from shutthebox.core.verify import verify
from shutthebox.ops.throwaway import free_port, missing_redis, temporary_redis
from shutthebox.web import create_app
from shutthebox.web.hub import LocalHub
from shutthebox.web.server import Server as Services
from tests.support.remote import action_for, by_the_actor, headers, note, online_room, recorded, socket
from tests.support.services import kill_redis
from tests.support.serving import Server, running
from tests.support.web import FakeClock, Table, create, online, settings_at, tick

SECONDS = 60.0
"""How long a server may take to notice Redis went, or came back (it takes well under a second)."""
WORKERS = 2
"""The processes of the server whose Redis is killed."""


# -- the server, its hub out of touch and back --------------------------------------------------
@pytest.fixture
def shared(tmp_path: Path) -> Iterator[tuple[TestClient, LocalHub, FakeClock]]:
    """A server whose hub says other processes share its rooms, on a clock moved by hand."""
    clock = FakeClock()
    hub = LocalHub(name="here", shared=True)
    with TestClient(create_app(settings_at(tmp_path), clock=clock, hub=hub)) as client:
        yield client, hub, clock


def out_of_touch(client: TestClient, hub: LocalHub, in_touch: bool) -> None:
    """What `RedisHub` does when Redis goes (False) or answers again (True)."""
    server: Services = client.app.state.server  # type: ignore[attr-defined]
    assert client.portal is not None
    hub.in_touch = in_touch
    client.portal.call(server.cluster.missed)


def refused_for_redis(response: httpx.Response) -> str:
    """A 503 whose refusal names the cause, Redis (the shared state) away: its words."""
    assert response.status_code == 503, (response.status_code, response.text)
    body = response.json()
    assert body["error"] == "shared-down" and "Redis" in body["detail"], body
    detail: str = body["detail"]
    return detail


def test_out_of_touch_every_room_request_is_503_in_the_readers_language_and_nothing_changes(
    shared: tuple[TestClient, LocalHub, FakeClock],
) -> None:
    client, hub, _clock = shared
    host, guest = online(client)
    before = host.state()
    ticket = client.post("/api/commitments").json()["ticket"]
    out_of_touch(client, hub, False)
    english = refused_for_redis(client.get(f"/api/rooms/{host.code}", headers=host.headers))
    spanish = refused_for_redis(
        client.get(f"/api/rooms/{host.code}", headers={**host.headers, "Accept-Language": "es"})
    )
    assert spanish != english and "inténtalo" in spanish
    refused_for_redis(host.post({"type": "roll"}))
    refused_for_redis(client.post(f"/api/rooms/{host.code}/join", json={"name": "Eva"}))
    refused_for_redis(client.post("/api/rooms", json={"seats": [{"name": "Ana"}], "ticket": ticket}))
    with client.websocket_connect(f"/api/rooms/{host.code}/ws?token={guest.token}") as ws:
        assert ws.receive_json()["error"] == "shared-down"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (1013, "shared-down")  # the page tries again
    assert client.get("/api/rules").status_code == 200  # what needs no room is served
    out_of_touch(client, hub, True)
    assert host.state() == before  # nothing refused was applied
    made = client.post("/api/rooms", json={"seats": [{"name": "Ana"}], "ticket": ticket})
    assert made.status_code == 201, made.text  # the refused creation spent no commitment
    assert host.act({"type": "roll"})["events"] == before["events"] + 1


def test_an_open_socket_is_refused_in_words_while_out_of_touch_and_told_the_state_once_back(
    shared: tuple[TestClient, LocalHub, FakeClock],
) -> None:
    client, hub, _clock = shared
    host, _guest = online(client)
    with client.websocket_connect(f"/api/rooms/{host.code}/ws?token={host.token}") as ws:
        state = ws.receive_json()["state"]
        out_of_touch(client, hub, False)
        assert ws.receive_json()["type"] == "state"  # caught up from the store as Redis went
        ws.send_json(action_for(state["match"]))
        refusal = ws.receive_json()
        assert refusal["type"] == "error" and refusal["error"] == "shared-down", refusal
        out_of_touch(client, hub, True)
        back = ws.receive_json()
        assert back["type"] == "state" and back["state"]["version"] == state["version"]
        ws.send_json(action_for(state["match"]))
        assert ws.receive_json()["state"]["events"] == state["events"] + 1


def test_a_turn_clock_that_ran_out_while_out_of_touch_starts_over(
    shared: tuple[TestClient, LocalHub, FakeClock],
) -> None:
    """Its seat was refused meanwhile: no bot plays for it, it has its full time again; a clock
    that runs out after that is a miss as ever."""
    client, hub, clock = shared
    host, guest = online(client)
    out_of_touch(client, hub, False)
    clock.now += 61
    tick(client)
    out_of_touch(client, hub, True)
    tick(client)
    state = host.state()
    assert state["match"]["actor"] == 0 and state["seats"][0]["missed"] == 0 and state["events"] == 0
    assert state["clock"] == {"seat": 0, "deadline": clock.now + 60, "remaining": 60.0}
    assert guest.state()["clock"] == state["clock"]  # kept: every process sees the same clock
    clock.now += 61
    tick(client)
    state = guest.state()
    assert state["match"]["actor"] == 1 and state["seats"][0]["missed"] == 1


def test_a_room_of_one_process_alone_is_never_refused_for_redis(client: TestClient) -> None:
    server: Services = client.app.state.server  # type: ignore[attr-defined]
    assert server.hub.in_touch and not server.hub.shared
    table, _ = create(client, seats=[{"name": "Ana"}])
    assert Table(client, table.code, table.token).act({"type": "roll"})["events"] == 1


# -- a real server of two workers, a real Redis killed --------------------------------------------
def room(server: Server, code: str, token: str, lang: str = "en") -> httpx.Response:
    return httpx.get(f"{server.url}/api/rooms/{code}", headers={**headers(token), "Accept-Language": lang})


def refused_on_every_worker(server: Server, code: str, token: str) -> None:
    """Room requests come to be refused for Redis, 30 in a row (every worker has seen it go); on the
    way only answers or such refusals, never a 500 and never a reset (httpx would raise)."""
    end, in_a_row = time.monotonic() + SECONDS, 0
    while in_a_row < 30:
        assert time.monotonic() < end, "the server did not notice that Redis went away"
        response = room(server, code, token)
        if response.status_code == 200:  # a worker that did not notice yet: served as before
            in_a_row = 0
            time.sleep(0.02)
            continue
        refused_for_redis(response)
        in_a_row += 1


def served_on_every_worker(server: Server, code: str, token: str) -> dict[str, Any]:
    """Room requests come to be answered again, 30 in a row; on the way only refusals for Redis."""
    end, in_a_row = time.monotonic() + SECONDS, 0
    while True:
        assert time.monotonic() < end, "play did not resume once Redis was back"
        response = room(server, code, token)
        if response.status_code != 200:
            refused_for_redis(response)
            in_a_row = 0
            time.sleep(0.05)
            continue
        in_a_row += 1
        if in_a_row == 30:
            state: dict[str, Any] = response.json()
            return state


def refused_socket(server: Server, code: str, token: str) -> None:
    """A WebSocket opened while Redis is away is accepted, told why, and closed with 1013 (try again
    later), which the page answers by reconnecting."""
    with socket(server, code, token) as ws:
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] == "error" and message["error"] == "shared-down", message
        assert "Redis" in message["detail"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
        assert ws.close_code == 1013, (ws.close_code, ws.close_reason)
        assert ws.close_reason == "shared-down"


def pushed_until(ws: ClientConnection, version: int) -> dict[str, Any]:
    """Read the socket until a state at ``version`` (or newer) comes; every error on the way is a
    refusal for Redis."""
    while True:
        message = json.loads(ws.recv(timeout=SECONDS))
        if message["type"] == "error":
            assert message["error"] == "shared-down", message
            continue
        assert message["type"] == "state", message
        if message["state"]["version"] >= version:
            state: dict[str, Any] = message["state"]
            return state


def counted_in_redis_again(server: Server, code: str, token: str) -> None:
    """Every worker whose rate limits fell back to its own memory (said once in the log) comes to say
    they count in Redis again, as requests go on."""
    end = time.monotonic() + SECONDS
    while True:
        log = server.log.read_text()
        alone, again = log.count("rate limits count in this process alone"), log.count("shared storage again")
        if alone == again:
            assert alone >= 1, log  # the outage was seen by the rate limits too
            return
        assert time.monotonic() < end, log
        assert room(server, code, token).status_code == 200
        time.sleep(0.1)


def said_by_every_worker(server: Server, line: str) -> str:
    """The server's log once each of its `WORKERS` has said ``line``: each worker's news reader finds
    Redis gone, or back, in its own time, and every request meanwhile may have gone to the other
    worker (a busy machine starves one), so no answer shows that all have; the log then."""
    end = time.monotonic() + SECONDS
    while (log := server.log.read_text()).count(line) < WORKERS:
        assert time.monotonic() < end, log
        time.sleep(0.1)
    return log


@pytest.mark.slow
def test_redis_killed_mid_game_refuses_rooms_with_503_and_play_resumes_when_it_is_back(
    tmp_path: Path, postgres_database: str
) -> None:
    if missing_redis() is not None:
        pytest.skip(missing_redis())
    port = free_port()
    with ExitStack() as brokers, ExitStack() as serving:  # the server stops first, Redis after it
        redis_url = brokers.enter_context(temporary_redis(tmp_path, port=port))
        server = serving.enter_context(
            running(
                tmp_path, db_url=postgres_database, redis_url=redis_url, workers=WORKERS, log_level="info"
            )  # each worker says it started, and is waited for
        )
        code, ana, luis = online_room(server, server)
        tokens = (ana, luis)
        told: dict[int, dict[str, Any]] = {}  # every action acknowledged, by its place
        state = room(server, code, ana).json()
        while state["events"] < 5:  # the starting order rolled, the first turn begun
            state = by_the_actor(server, code, tokens, state)
            note(told, [state])
        with socket(server, code, luis) as watching:  # a socket held open across the outage
            assert json.loads(watching.recv(timeout=10))["type"] == "state"
            kill_redis(redis_url)

            refused_on_every_worker(server, code, ana)
            said_by_every_worker(server, "Redis does not answer")
            in_spanish = room(server, code, ana, "es")
            refused_for_redis(in_spanish)  # in the reader's language
            assert in_spanish.json()["detail"] != room(server, code, ana).json()["detail"]
            actor = state["match"]["actor"]
            body = action_for(state["match"])
            actions = f"{server.url}/api/rooms/{code}/actions"
            refused_for_redis(httpx.post(actions, json=body, headers=headers(tokens[actor])))
            joined = httpx.post(f"{server.url}/api/rooms/{code}/join", json={"name": "Eva"})
            refused_for_redis(joined)
            refused_socket(server, code, luis)
            watching.send(json.dumps(body))  # the open socket: refused in words too, nothing applied
            while (message := json.loads(watching.recv(timeout=10)))["type"] == "state":
                pass
            assert message["error"] == "shared-down", message

            brokers.enter_context(temporary_redis(tmp_path, port=port))  # Redis is back, empty
            resumed = served_on_every_worker(server, code, ana)
            assert (resumed["version"], resumed["events"]) == (state["version"], state["events"])
            state = by_the_actor(server, code, tokens, resumed)  # the refused action, made now: once
            note(told, [state])
            assert state["events"] == resumed["events"] + 1
            assert pushed_until(watching, state["version"])["events"] == state["events"]  # news flows

        while state["status"] == "playing":
            state = by_the_actor(server, code, tokens, state)
            note(told, [state])
        saved = state["saved_game_id"]
        assert saved is not None
        games = httpx.get(f"{server.url}/api/games").json()
        assert games["total"] == 1 and [game["id"] for game in games["games"]] == [saved]
        record = httpx.get(f"{server.url}/api/rooms/{code}/record").json()
        assert verify(GameRecord.from_json(record)).proven
        assert len(record["events"]) == state["events"] == len(told)  # nothing lost, nothing twice
        assert [recorded(told[seq]) for seq in sorted(told)] == [
            {**e, "move": sorted(e["move"])} if "move" in e else e for e in record["events"]
        ]
        counted_in_redis_again(server, code, ana)
        log = said_by_every_worker(server, "Redis answers again")
        assert log.count("Redis does not answer") == log.count("Redis answers again") == WORKERS  # each once
        assert "Traceback" not in log
