"""A real server seen from outside, over HTTP and its WebSocket: one simple player's actions, and
two processes sharing one database and one Redis."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.support.serving import Server, running


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def fresh(url: str, code: str, token: str, seen: int = 0) -> dict[str, Any]:
    """The room as the server at ``url`` holds it, once its copy has come to version ``seen``.

    ``seen`` is the version last answered by any process: a server hears of another's moves a
    moment later (by Redis), and a move judged on a copy from before them is refused, rightly."""
    end = time.monotonic() + 10
    while (state := httpx.get(f"{url}/api/rooms/{code}", headers=headers(token)).json())["version"] < seen:
        assert time.monotonic() < end, f"{url} still at version {state['version']}, not {seen}"
        time.sleep(0.01)
    return state  # type: ignore[no-any-return]


def step(url: str, code: str, token: str, seen: int = 0) -> dict[str, Any]:
    """One action over HTTP for the token's seat (two dice, the first legal move), judged on a copy
    at version ``seen`` at least."""
    match = fresh(url, code, token, seen)["match"]
    if match["phase"] == "choose":
        body: dict[str, Any] = {"type": "dice", "count": match["dice_options"][-1]}
    elif match["phase"] in ("roll", "roll-off"):
        body = {"type": "roll"}
    else:
        body = {"type": "move", "tiles": match["legal_moves"][0]}
    response = httpx.post(f"{url}/api/rooms/{code}/actions", json=body, headers=headers(token))
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def socket_step(url: str, code: str, token: str) -> dict[str, Any]:
    """One action over the room's WebSocket; the state pushed back."""
    with connect(f"{url.replace('http', 'ws')}/api/rooms/{code}/ws?token={token}", origin=None) as ws:
        state = json.loads(ws.recv())["state"]
        match = state["match"]
        if match["phase"] == "choose":
            ws.send(json.dumps({"type": "dice", "count": match["dice_options"][-1]}))
        elif match["phase"] in ("roll", "roll-off"):
            ws.send(json.dumps({"type": "roll"}))
        else:
            ws.send(json.dumps({"type": "move", "tiles": match["legal_moves"][0]}))
        while True:
            message = json.loads(ws.recv())
            assert message["type"] == "state", message
            if message["state"]["events"] > state["events"]:
                pushed: dict[str, Any] = message["state"]
                return pushed



ONLINE = {"seats": [{"name": "Ana"}, {"kind": "remote"}], "rules": {"mode": "round"}}


@contextmanager
def two_servers(
    folder: Path, db_url: str, redis_url: str, bot_delay: str = "0"
) -> Iterator[tuple[Server, Server]]:
    """Processes A and B on their own ports, one database, one Redis; each logs in its own folder."""
    import redis

    with redis.Redis.from_url(redis_url) as shared:
        shared.flushdb()  # no rate limit or lease of an earlier test
    with ExitStack() as stack, ThreadPoolExecutor(2) as starting:  # both start at once: a second saved
        def start(name: str) -> Server:
            (folder / name).mkdir()
            server = running(folder / name, db_url=db_url, redis_url=redis_url, bot_delay=bot_delay)
            return stack.enter_context(server)

        a, b = starting.map(start, ["a", "b"])
        yield a, b


def online_room(host: Server, guest: Server) -> tuple[str, str, str]:
    """Ana creates the online room on ``host``, Luis joins it on ``guest``: code and both tokens."""
    created = httpx.post(f"{host.url}/api/rooms", json=ONLINE)
    assert created.status_code == 201, created.text
    code, ana = created.json()["code"], created.json()["token"]
    joined = httpx.post(f"{guest.url}/api/rooms/{code}/join", json={"name": "Luis"})
    assert joined.status_code == 200, joined.text
    return code, ana, joined.json()["token"]


def by_the_actor(server: Server, code: str, tokens: tuple[str, str], state: dict[str, Any]) -> dict[str, Any]:
    """One action over HTTP on ``server``, by whichever of ``tokens`` holds the seat to act."""
    return step(server.url, code, tokens[state["match"]["actor"]], seen=state["version"])


def socket(server: Server, code: str, token: str, since: int | None = None) -> ClientConnection:
    query = f"token={token}" + (f"&since={since}" if since is not None else "")
    return connect(f"{server.url.replace('http', 'ws')}/api/rooms/{code}/ws?{query}", origin=None)


def action_for(match: dict[str, Any]) -> dict[str, Any]:
    """What a simple player does: two dice, the first legal move."""
    if match["phase"] == "choose":
        return {"type": "dice", "count": match["dice_options"][-1]}
    if match["phase"] in ("roll", "roll-off"):
        return {"type": "roll"}
    return {"type": "move", "tiles": match["legal_moves"][0]}


def note(told: dict[int, dict[str, Any]], pushed: list[dict[str, Any]]) -> None:
    """Add the actions of the states ``pushed`` to those ``told`` by their place: none may differ."""
    for state in pushed:
        for event in state["recent"]:
            assert told.setdefault(event["seq"], event) == event, (event, told[event["seq"]])


def recorded(event: dict[str, Any]) -> dict[str, Any]:
    """An action as a state's ``recent`` shows it, as the game record writes it."""
    kind = {"roll": "dice", "dice": "count", "move": "tiles"}[event["kind"]]
    return {"player": event["player"], event["kind"]: event[kind]}

