"""Two real server processes over one PostgreSQL and one Redis share their rooms (issue 11): a
change made on either is kept once and pushed to the sockets held by the other; of identical
actions racing from both, exactly one applies; a player resumes on the other process where the
first left them; bots play once; a process killed mid-game leaves the game to the survivor."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from shutthebox.core.record import GameRecord
from shutthebox.core.verify import verify
from tests.support.remote import (
    action_for,
    by_the_actor,
    fresh,
    headers,
    note,
    online_room,
    recorded,
    socket,
    socket_step,
    step,
    two_servers,
)
from tests.support.serving import Server

pytestmark = pytest.mark.slow  # two real servers over PostgreSQL and Redis


@pytest.fixture
def servers(tmp_path: Path, postgres_database: str, redis_url: str) -> Iterator[tuple[Server, Server]]:
    with two_servers(tmp_path, postgres_database, redis_url) as pair:
        yield pair


def get(server: Server, code: str, token: str | None = None) -> dict[str, Any]:
    response = httpx.get(f"{server.url}/api/rooms/{code}", headers=headers(token) if token else {})
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def next_state(ws: ClientConnection, seconds: float = 5) -> dict[str, Any]:
    message = json.loads(ws.recv(timeout=seconds))
    assert message["type"] == "state", message
    state: dict[str, Any] = message["state"]
    return state


def drain(ws: ClientConnection) -> list[dict[str, Any]]:
    """Every state queued for the socket so far (a ping is answered behind them)."""
    ws.send(json.dumps({"type": "ping"}))
    states = []
    while (message := json.loads(ws.recv(timeout=5)))["type"] != "pong":
        assert message["type"] == "state", message
        states.append(message["state"])
    return states


def states_until(ws: ClientConnection, version: int) -> list[dict[str, Any]]:
    """The states pushed to the socket up to the one at ``version``."""
    states = [next_state(ws)]
    while states[-1]["version"] < version:
        states.append(next_state(ws))
    return states


def connected(server: Server, code: str) -> list[bool]:
    return [seat["connected"] for seat in get(server, code)["seats"]]


def eventually(read: Callable[[], object], want: object, seconds: float = 20) -> None:
    """``read()`` comes to answer ``want`` within ``seconds`` (news between processes takes a moment,
    longer on a loaded machine)."""
    end = time.monotonic() + seconds
    while (got := read()) != want:
        assert time.monotonic() < end, f"{got!r}, not {want!r}, after {seconds} s"
        time.sleep(0.02)


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state but for the seconds its clock has left (each process counts them at its own moment)."""
    clock = state["clock"] and {**state["clock"], "remaining": None}
    return {**state, "clock": clock}


def act_over(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """One action over a socket held open; the first state pushed after it."""
    ws.send(json.dumps(action_for(state["match"])))
    while (pushed := next_state(ws))["events"] == state["events"]:
        pass
    return pushed


def no_errors(*servers: Server) -> None:
    """Each server logged nothing but its address: at ``--log-level warning`` any warning, error or
    traceback (the app's own as bare lines, uvicorn's with their level) is a line more."""
    for server in servers:
        lines = server.log.read_text().splitlines()
        assert [line for line in lines if not line.startswith("Shut the Box: http")] == [], lines


def test_a_room_is_played_from_both_processes_and_each_pushes_what_the_other_kept(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    code, ana, luis = online_room(a, b)
    with socket(b, code, luis) as luis_socket:
        assert next_state(luis_socket)["you"] == [1]
        eventually(lambda: (connected(a, code), connected(b, code)), ([False, True],) * 2)
        with socket(a, code, ana) as ana_socket:
            assert next_state(ana_socket)["you"] == [0]
            eventually(lambda: (connected(a, code), connected(b, code)), ([True, True],) * 2)
        eventually(lambda: (connected(a, code), connected(b, code)), ([False, True],) * 2)
        drain(luis_socket)

        state = get(a, code, ana)
        while state["status"] == "playing":
            made, seen = [], state["events"]
            while state["status"] == "playing" and state["match"]["actor"] == 0:
                state = step(a.url, code, ana)  # Ana acts over HTTP on A
                made.append(state["version"])
            if made:
                pushed = states_until(luis_socket, made[-1])
                versions = [s["version"] for s in pushed]
                # each version pushed once, in order, up to the last (a save too); a copy that caught up
                # past a version's news (A kept the next first) pushes the latest, and no event is lost
                assert versions == sorted(set(versions)) and versions[0] >= made[0], versions
                told = {event["seq"] for s in pushed for event in s["recent"]}
                assert set(range(seen, pushed[-1]["events"])) <= told
                state = pushed[-1]
                assert comparable(state) == comparable(get(a, code, luis)) == comparable(get(b, code, luis))
            while state["status"] == "playing" and state["match"]["actor"] == 1:
                state = act_over(luis_socket, state)  # Luis acts over his socket on B; Ana looks on A
                eventually(lambda: comparable({**get(a, code, ana), "you": [1]}), comparable(state))
        assert state["saved_game_id"] is not None
        assert state["match"]["winner_name"] in ("Ana", "Luis")


def test_a_process_killed_mid_game_leaves_the_game_to_the_other(servers: tuple[Server, Server]) -> None:
    a, b = servers
    code, ana, luis = online_room(a, b)
    told = get(a, code, ana)
    while told["events"] < 5:  # the starting order rolled, the first turn begun, all on A
        told = by_the_actor(a, code, (ana, luis), told)
    told = get(a, code, ana)
    a.process.send_signal(signal.SIGKILL)
    a.process.wait(10)
    state = get(b, code, ana)
    assert comparable(state) == comparable(told)
    while state["status"] == "playing":  # Ana goes on over HTTP on B, Luis over a socket on B
        state = step(b.url, code, ana) if state["match"]["actor"] == 0 else socket_step(b.url, code, luis)
    saved = state["saved_game_id"]
    assert saved is not None
    games = httpx.get(f"{b.url}/api/games").json()
    assert games["total"] == 1 and [game["id"] for game in games["games"]] == [saved]
    game = httpx.get(f"{b.url}/api/games/{saved}").json()
    assert game["players"] == ["Ana", "Luis"] and len(game["record"]["events"]) == state["events"]
    no_errors(b)


async def race(urls: list[str], code: str, token: str, body: dict[str, Any]) -> list[httpx.Response]:
    """``body`` posted to every one of ``urls`` at once."""
    async with httpx.AsyncClient(headers=headers(token), timeout=30) as client:
        return await asyncio.gather(
            *(client.post(f"{url}/api/rooms/{code}/actions", json=body) for url in urls)
        )


def test_of_fifty_identical_actions_sent_to_both_processes_at_once_exactly_one_applies(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    code, ana, luis = online_room(a, b)
    state = get(b, code, ana)
    while state["match"]["phase"] == "roll-off":  # who starts: a roll-off roll may be followed by a roll
        state = by_the_actor(a, code, (ana, luis), state)
    for _ in range(4):  # the first rolls and moves of the starting turn: none can be made twice
        actor = state["match"]["actor"]
        body = action_for(state["match"])
        answers = asyncio.run(race([a.url, b.url] * 25, code, (ana, luis)[actor], body))
        applied = [answer.json() for answer in answers if answer.status_code == 200]
        refused = [answer for answer in answers if answer.status_code != 200]
        assert len(applied) == 1, [answer.status_code for answer in answers]
        assert all(400 <= answer.status_code < 500 for answer in refused), [answer.text for answer in refused]
        assert all(answer.json()["error"] in ("illegal", "wrong-turn") for answer in refused)
        assert all(answer.json()["detail"] for answer in refused)
        on_a, on_b = get(a, code, ana), get(b, code, ana)
        assert comparable(on_a) == comparable(on_b)
        assert (on_b["version"], on_b["events"]) == (state["version"] + 1, state["events"] + 1)
        assert applied[0]["version"] == on_b["version"]
        last = on_b["recent"][-1]  # the history holds the one action more
        assert (last["seq"], last["player"], last["kind"]) == (state["events"], actor, body["type"])
        assert last.get("tiles") == body.get("tiles")
        state = on_b
    no_errors(a, b)


def test_a_socket_reconnected_to_the_other_process_resumes_where_it_was(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    code, ana, luis = online_room(a, b)  # B holds a copy of the room from the join
    with socket(a, code, luis) as first:
        state = next_state(first)
        for _ in range(4):
            state = by_the_actor(a, code, (ana, luis), state)
        last = states_until(first, state["version"])[-1]
    with socket(b, code, luis, since=last["version"]) as second:
        resumed = next_state(second)
        assert resumed["version"] >= last["version"]
        assert comparable(resumed) == comparable(last)
        drain(second)
        moved = by_the_actor(a, code, (ana, luis), resumed)  # and it hears on B what A keeps
        assert moved["version"] == resumed["version"] + 1
        heard = next_state(second)
        assert comparable(heard) == comparable(get(a, code, luis)) == comparable(get(b, code, luis))
        assert heard["version"] == moved["version"]


def waiting(ws: ClientConnection) -> list[dict[str, Any]]:
    """The states the socket has received and nobody read yet, without waiting for more."""
    states: list[dict[str, Any]] = []
    while True:
        try:
            message = json.loads(ws.recv(timeout=0.01))
        except TimeoutError:
            return states
        assert message["type"] == "state", message
        states.append(message["state"])


def test_bots_play_once_though_both_processes_look_after_the_room(
    tmp_path: Path, postgres_database: str, redis_url: str
) -> None:
    seats = [{"name": "Ana"}, {"kind": "bot", "name": "Bo", "bot": "easy"}]
    body = {"seats": seats, "rules": {"mode": "round"}}
    with two_servers(tmp_path, postgres_database, redis_url, bot_delay="0.05") as (a, b):
        created = httpx.post(f"{a.url}/api/rooms", json=body)
        assert created.status_code == 201, created.text
        code, ana = created.json()["code"], created.json()["token"]
        told: dict[int, dict[str, Any]] = {}  # every action a socket on A or B was told of, by its place
        with socket(a, code, ana) as on_a, socket(b, code, ana) as on_b:
            end = time.monotonic() + 30
            state = get(a, code, ana)
            while state["status"] == "playing":
                assert time.monotonic() < end, "the bots did not play"
                if state["match"]["actor"] == 0:
                    state = step((a, b)[state["events"] % 2].url, code, ana, seen=state["version"])  # A or B
                else:
                    time.sleep(0.05)
                    state = fresh(b.url, code, ana, seen=state["version"])
                note(told, waiting(on_a) + waiting(on_b))
            end = time.monotonic() + 10  # the game's last push may come a moment after its last answer
            while len(told) < state["events"]:
                assert time.monotonic() < end, (sorted(told), state["events"])
                note(told, waiting(on_a) + waiting(on_b))
        record = httpx.get(f"{b.url}/api/rooms/{code}/record").json()
        verdict = verify(GameRecord.from_json(record))
        assert verdict.proven, verdict
        assert len(record["events"]) == state["events"] == len(told)
        assert [recorded(told[seq]) for seq in sorted(told)] == [
            {**e, "move": sorted(e["move"])} if "move" in e else e for e in record["events"]
        ]
        assert {event["player"] for event in record["events"]} == {0, 1}
        eventually(lambda: httpx.get(f"{a.url}/api/games").json()["total"], 1)
        no_errors(a, b)


def test_a_process_that_missed_news_while_redis_reconnected_catches_up(
    servers: tuple[Server, Server], redis_url: str
) -> None:
    import redis

    a, b = servers
    code, ana, luis = online_room(a, b)  # B holds a copy from the join
    state = get(b, code, ana)
    cutting = threading.Event()

    def cut() -> None:  # Redis drops every subscriber, over and over: they reconnect each time
        with redis.Redis.from_url(redis_url) as shared:
            while not cutting.is_set():
                shared.client_kill_filter(_type="pubsub")
                time.sleep(0.005)

    cutter = threading.Thread(target=cut)
    cutter.start()
    try:
        for _ in range(3):
            state = by_the_actor(a, code, (ana, luis), state)
    finally:
        cutting.set()
        cutter.join()
    eventually(lambda: get(b, code, ana)["version"], state["version"], seconds=3)
