"""The run: whole solo games through the API, each player taking the step the room says is due at
its seat, ``concurrency`` games at once, every answer timed."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

from shutthebox.ops.loadtest.measure import (
    KEEPALIVE_SECONDS,
    REFUSED,
    REQUEST_SECONDS,
    SETTLE_SECONDS,
    LoadResult,
    LoadSettings,
    is_loopback,
)

__all__ = ["run_load"]


class _GameError(Exception):
    """A game stops: its error is counted under ``kind``."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class _Tally:
    """What the games have done so far (one event loop: no locks needed)."""

    finished: int = 0
    saved: int = 0
    actions: int = 0
    think_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    unsaved: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    """Finished games whose answer named no saved game yet: their code and the headers to ask with."""


async def run_load(settings: LoadSettings) -> LoadResult:
    """Play ``settings.games`` whole games against the server, ``settings.concurrency`` at once."""
    if not is_loopback(settings.url):
        raise ValueError(f"a load test plays against this machine only, not {settings.url!r}")
    chance = random.Random(settings.seed)
    seeds = [chance.getrandbits(64) for _ in range(settings.games)]
    tally = _Tally()
    games = iter(range(settings.games))
    limits = httpx.Limits(
        max_connections=settings.concurrency, max_keepalive_connections=settings.concurrency,
        keepalive_expiry=KEEPALIVE_SECONDS,
    )
    async with httpx.AsyncClient(
        base_url=settings.url.rstrip("/"), limits=limits, timeout=REQUEST_SECONDS, trust_env=False
    ) as client:

        async def worker() -> None:
            for index in games:  # one iterator for all: as a game ends, the next one starts
                await _play(client, settings, index, random.Random(seeds[index]), tally)

        timed_out = False
        start = time.perf_counter()
        try:
            async with asyncio.timeout(settings.timeout), asyncio.TaskGroup() as group:
                for _ in range(min(settings.concurrency, settings.games)):
                    group.create_task(worker())
        except TimeoutError:
            timed_out = True
        elapsed = time.perf_counter() - start
        await _settle(client, tally)
    return LoadResult(
        settings=settings,
        finished=tally.finished,
        saved=tally.saved,
        errors=dict(tally.errors),
        actions=tally.actions,
        latencies=tuple(tally.latencies),
        elapsed=elapsed,
        think_seconds=tally.think_seconds,
        timed_out=timed_out,
    )


def _client_headers(settings: LoadSettings, index: int) -> dict[str, str]:
    """The headers of every request of game ``index``: its own 10.x.y.z address when asked."""
    if not settings.many_clients:
        return {}
    address = ipaddress.IPv4Address(int(ipaddress.IPv4Address("10.0.0.1")) + index % (2**24 - 2))
    return {"X-Forwarded-For": str(address)}


async def _play(
    client: httpx.AsyncClient, settings: LoadSettings, index: int, rng: random.Random, tally: _Tally
) -> None:
    """One whole game; an error ends it, counted by kind."""
    player = _Player(client, settings, rng, tally, _client_headers(settings, index))
    try:
        body = {"seats": [{"kind": "here", "name": f"Load {index + 1}"}], "rules": {"tiles": settings.tiles}}
        created = _answer(await client.post("/api/rooms", json=body, headers=player.headers))
        code, token = created["code"], created["token"]
        if settings.websocket:
            state = await player.over_socket(code, token)
        else:
            state = await player.over_http(code, token, created["state"])
    except _GameError as failure:
        tally.errors[failure.kind] += 1
        return
    except httpx.TimeoutException:
        tally.errors["timeout"] += 1
        return
    except (httpx.HTTPError, OSError) as error:  # refused, reset, closed: named by its class
        tally.errors[f"connection {type(error).__name__}"] += 1
        return
    except (KeyError, TypeError, ValueError):  # an answer that is not the state the API describes
        tally.errors["unreadable"] += 1
        return
    tally.finished += 1
    if state.get("saved_game_id") is not None:
        tally.saved += 1
    else:
        tally.unsaved.append((code, {"Authorization": f"Bearer {token}", **player.headers}))


def _answer(response: httpx.Response) -> dict[str, Any]:
    """The JSON of a 2xx answer; a refusal or a failure ends the game, counted by its status."""
    if response.status_code == 429:
        raise _GameError(REFUSED)
    if not response.is_success:
        raise _GameError(f"http {response.status_code}")
    data = response.json()
    if not isinstance(data, dict):
        raise _GameError("unreadable")
    return data


def _over(state: dict[str, Any]) -> bool:
    """Whether the game waits for nothing more, as the room's ``due`` says (`core.game.Due`)."""
    due = state["due"]
    return due is not None and due["wait"] == "over"


@dataclass
class _Player:
    """The person at one solo seat: picks among the legal actions the server offers (the page
    decides nothing, nor does this player beyond the pick), thinks, acts, times each answer."""

    client: httpx.AsyncClient
    settings: LoadSettings
    rng: random.Random
    tally: _Tally
    headers: dict[str, str]

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        """One of the state's legal actions for our seat, whose step the room's ``due`` says it is:
        the roll it waits for, one of its legal moves, or one of its dice options."""
        due, match = state["due"], state["match"]
        if due is None or due["wait"] != "person" or due["seat"] not in state["you"]:
            raise _GameError("stuck")  # a solo seat played here is always the one the game waits for
        if match["is_chance"]:
            return {"type": "roll"}
        if match["legal_moves"]:
            return {"type": "move", "tiles": self.rng.choice(match["legal_moves"])}
        if match["dice_options"]:
            return {"type": "dice", "count": self.rng.choice(match["dice_options"])}
        raise _GameError("stuck")

    async def think(self) -> None:
        low, high = self.settings.think
        if high > 0:
            pause = self.rng.uniform(low, high)
            self.tally.think_seconds += pause
            await asyncio.sleep(pause)

    def answered(self, latency: float) -> None:
        self.tally.actions += 1
        self.tally.latencies.append(latency)

    async def over_http(self, code: str, token: str, state: dict[str, Any]) -> dict[str, Any]:
        """Act by ``POST …/actions`` from the created room's ``state`` until the game is over; the
        last state."""
        seat = {"Authorization": f"Bearer {token}", **self.headers}
        while not _over(state):
            action = self.choose(state)
            await self.think()
            sent = time.perf_counter()
            response = await self.client.post(f"/api/rooms/{code}/actions", json=action, headers=seat)
            latency = time.perf_counter() - sent
            state = _answer(response)
            self.answered(latency)
        return state

    async def over_socket(self, code: str, token: str) -> dict[str, Any]:
        """Act over the room's WebSocket until the game is over; the last state."""
        base = urlsplit(self.settings.url.rstrip("/"))
        scheme = "wss" if base.scheme == "https" else "ws"
        address = f"{scheme}://{base.netloc}{base.path}/api/rooms/{code}/ws?token={token}"
        try:
            async with connect(
                address, additional_headers=self.headers, proxy=None, open_timeout=REQUEST_SECONDS,
                ping_interval=None, close_timeout=1,
            ) as ws:
                state = await _next_state(ws, after=-1)
                while not _over(state):
                    action = self.choose(state)
                    await self.think()
                    sent = time.perf_counter()
                    await ws.send(json.dumps(action))
                    state = await _next_state(ws, after=state["events"])
                    self.answered(time.perf_counter() - sent)
                return state
        except TimeoutError:
            raise _GameError("timeout") from None
        except InvalidStatus as refusal:
            status = refusal.response.status_code
            raise _GameError(REFUSED if status == 429 else f"socket-http {status}") from None
        except ConnectionClosed as closed:
            closing = closed.rcvd.code if closed.rcvd is not None else None
            raise _GameError(REFUSED if closing == 4429 else f"socket-closed {closing}") from None
        except WebSocketException:
            raise _GameError("socket") from None


async def _next_state(ws: ClientConnection, after: int) -> dict[str, Any]:
    """The first pushed state whose event count is past ``after``: the answer to the action sent
    (a push from before it, such as the one for a seat connecting, is skipped). An error message
    ends the game."""
    async with asyncio.timeout(REQUEST_SECONDS):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                code = message.get("error")
                raise _GameError(REFUSED if code == "too-many" else f"socket-error {code}")
            if message["type"] == "state" and message["state"]["events"] > after:
                state: dict[str, Any] = message["state"]
                return state


async def _settle(client: httpx.AsyncClient, tally: _Tally) -> None:
    """Look again, for a few seconds, at the finished games whose answer named no saved game: a
    server may save after it answers."""
    deadline = time.perf_counter() + SETTLE_SECONDS
    while tally.unsaved and time.perf_counter() < deadline:
        waiting = []
        for code, headers in tally.unsaved:
            try:
                response = await client.get(f"/api/rooms/{code}", headers=headers)
                saved = response.is_success and response.json().get("saved_game_id") is not None
            except (httpx.HTTPError, ValueError):
                saved = False
            if saved:
                tally.saved += 1
            else:
                waiting.append((code, headers))
        tally.unsaved = waiting
        if waiting:
            await asyncio.sleep(0.2)


