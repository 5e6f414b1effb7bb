"""The run: whole solo games through the API, each player taking the step the room says is due at
its seat, ``concurrency`` games at once, every answer timed.

The tester must cost little beside the server it loads (issue 29): it imports nothing of the
server, each game talks over a connection of its own (h11 over asyncio streams: no pool scanned on
each request, as httpcore's is; a socket is websockets' own sans-I/O protocol over the same streams,
with no reader task, queue or lock of its own), nothing is compressed, JSON is read by orjson
(json's own took a fifth of the tester's CPU, a state of a few kB at each action), the loop is
uvloop's when it is installed, and a large run spreads over several processes (`run_measured`), its
own CPU measured beside the server's.
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import multiprocessing
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

import h11
import orjson
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

from shutthebox.ops.loadtest.measure import (
    KEEPALIVE_SECONDS,
    REFUSED,
    REQUEST_SECONDS,
    SETTLE_SECONDS,
    LoadResult,
    LoadSettings,
    is_loopback,
    merged,
)

try:  # the web extra's event loop, a third cheaper than asyncio's own; the tester runs without it
    import uvloop
except ImportError:  # pragma: no cover - uvloop comes with the web extra
    uvloop = None  # type: ignore[assignment]  # the module or nothing, asked for as such below

__all__ = ["Http", "run_load", "run_measured", "shares"]

READ_BYTES = 65536
FULL_COLLECTION_EVERY = 1000
"""As the server's (`shutthebox.web.runtime`, which the tester does not import): a full collection
walks a thousand games' sockets, and a pause of the tester's counts in every latency it times."""


class _GameError(Exception):
    """A game stops: its error is counted under ``kind``."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class Http:
    """One game's own HTTP/1.1 connection to the server, h11 over asyncio streams: no pool shared
    across games, so no request scans the others' connections. Opened at the first request, and
    again once the server closed it or it sat idle past `KEEPALIVE_SECONDS` (uvicorn drops an idle
    one at 5 s: a request sent as it does so meets an error that is no fault of the server's). No
    ``Accept-Encoding`` is sent: answers come uncompressed."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        base = urlsplit(url.rstrip("/"))
        self.host = base.hostname or "127.0.0.1"
        self.port = base.port or (443 if base.scheme == "https" else 80)
        self.tls = base.scheme == "https"
        self.prefix = base.path
        self.headers = [("Host", base.netloc), *headers.items()]
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._h11 = h11.Connection(h11.CLIENT)
        self._used = 0.0

    async def request(
        self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        """The status and body of one request; ``body`` goes as JSON. `TimeoutError` past
        `REQUEST_SECONDS`; `OSError` or `h11.ProtocolError` when the connection fails."""
        try:
            async with asyncio.timeout(REQUEST_SECONDS):
                return await self._exchange(method, path, body, headers or {})
        except BaseException:  # a request cut short leaves the connection in no known state
            self.close()
            raise

    async def _exchange(
        self, method: str, path: str, body: object, headers: dict[str, str]
    ) -> tuple[int, bytes]:
        reader, writer = self._reader, self._writer
        idle = time.monotonic() - self._used > KEEPALIVE_SECONDS
        if reader is None or writer is None or reader.at_eof() or idle:
            self.close()
            reader, writer = self._reader, self._writer = await asyncio.open_connection(
                self.host, self.port, ssl=self.tls or None
            )
            self._h11 = h11.Connection(h11.CLIENT)
        connection = self._h11
        payload = b"" if body is None else orjson.dumps(body)
        head = [*self.headers, *headers.items()]
        if body is not None:
            head += [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))]
        events: list[h11.Request | h11.Data | h11.EndOfMessage] = [
            h11.Request(method=method, target=self.prefix + path, headers=head)
        ]
        if payload:
            events.append(h11.Data(data=payload))
        events.append(h11.EndOfMessage())
        writer.write(b"".join(connection.send(event) or b"" for event in events))
        status, chunks = 0, []
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                connection.receive_data(await reader.read(READ_BYTES))
            elif isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                raise ConnectionResetError("the server closed the connection before its answer")
        if connection.our_state is h11.DONE and connection.their_state is h11.DONE:
            connection.start_next_cycle()
            self._used = time.monotonic()
        else:  # the server means to close it (Connection: close): a new one next time
            self.close()
        return status, b"".join(chunks)

    def close(self) -> None:
        """Drop the connection (no wait for the server to see it go: nothing more is said on it)."""
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


class Socket:
    """One game's WebSocket: websockets' sans-I/O `ClientProtocol` over asyncio streams, read only
    when the game waits for a message (its asyncio client ran a reader task, a queue and a lock per
    connection, a fifth of the tester's CPU). No compression, no keepalive pings: a game's messages
    come within `REQUEST_SECONDS`. Errors are websockets' own: `InvalidStatus` for a refused
    handshake, `ConnectionClosed` once the server closed it."""

    def __init__(
        self, protocol: ClientProtocol, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self._protocol, self._reader, self._writer = protocol, reader, writer
        self._frames: list[Any] = []  # frames read and not yet taken (the handshake's answer first)
        self._ended = False  # the server's end of the connection closed

    @classmethod
    async def open(cls, url: str, headers: dict[str, str]) -> Socket:
        """The socket at ``url`` (ws:// or wss://), handshake done with ``headers`` besides its own."""
        uri = parse_uri(url)
        protocol = ClientProtocol(uri)
        reader, writer = await asyncio.open_connection(uri.host, uri.port, ssl=uri.secure or None)
        socket = cls(protocol, reader, writer)
        try:
            request = protocol.connect()
            request.headers.update(headers)
            protocol.send_request(request)
            socket._flush()
            while not socket._frames or not isinstance(socket._frames[0], Response):
                socket._frames.extend(await socket._events())
            if protocol.handshake_exc is not None:
                raise protocol.handshake_exc
            socket._frames.pop(0)  # the handshake's answer; the frames that came with it stay
            return socket
        except BaseException:
            socket.close()
            raise

    async def send(self, text: str) -> None:
        """A text frame, as the page sends."""
        self._protocol.send_text(text.encode())
        self._flush()

    async def recv(self) -> bytes:
        """The next whole message (a text one, as the server sends: its UTF-8 bytes, as orjson reads them)."""
        parts: list[bytes] = []
        while True:
            while self._frames:
                frame: Frame = self._frames.pop(0)
                if frame.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                    parts.append(bytes(frame.data))
                    if frame.fin:
                        return b"".join(parts)
            self._frames.extend(await self._events())

    async def _events(self) -> list[Any]:
        """What the server sent next (at least one event); `ConnectionClosed` once it closed (the
        handshake's refusal if it closed before answering it)."""
        protocol = self._protocol
        while True:
            events = protocol.events_received()
            self._flush()  # a pong, or the close answered, as the protocol wants
            if events:
                return events
            if protocol.close_rcvd is not None:  # nothing comes after a close (answered above)
                sent = protocol.close_sent
                raise ConnectionClosed(protocol.close_rcvd, sent, True if sent is not None else None)
            if self._ended:
                raise protocol.handshake_exc or protocol.close_exc
            data = await self._reader.read(READ_BYTES)
            if data:
                protocol.receive_data(data)
            else:
                protocol.receive_eof()
                self._ended = True

    def _flush(self) -> None:
        for data in self._protocol.data_to_send():
            if data:
                self._writer.write(data)

    def close(self) -> None:
        """A close frame sent, and the connection dropped (no wait for the server's answer: the game is
        over, and nothing more is said on it)."""
        if self._protocol.state is State.OPEN:
            self._protocol.send_close()
            self._flush()
        self._writer.close()


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


def run_measured(settings: LoadSettings) -> LoadResult:
    """The whole run, with the tester's own CPU (user + system, its worker processes included,
    their start-up too) from its first game to its last: in this process, or spread over
    ``settings.processes`` processes (`shares`), each a full tester, their results merged."""
    before = _cpu_seconds()
    parts = shares(settings)
    if len(parts) == 1:
        result = _play_share(settings, *parts[0])
    else:
        with ProcessPoolExecutor(len(parts), mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = [pool.submit(_play_share, settings, games, at_once) for games, at_once in parts]
            results = [future.result() for future in futures]
        result = merged(settings, results)  # the pool is shut down: its processes reaped, counted
    return replace(result, tester_cpu_seconds=_cpu_seconds() - before)


def shares(settings: LoadSettings) -> list[tuple[range, int]]:
    """The games and the concurrency of each process, as even as they split: as many processes as
    asked, but never more than there are games, nor games at once."""
    count = min(settings.processes, settings.games, settings.concurrency)
    games, at_once = settings.games, settings.concurrency
    return [
        (
            range(games * i // count, games * (i + 1) // count),
            at_once * (i + 1) // count - at_once * i // count,
        )
        for i in range(count)
    ]


def _cpu_seconds() -> float:
    """User + system CPU of this process and of its children waited for (os.times: no resource
    module needed, so it runs off Unix too, children then not counted)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _play_share(settings: LoadSettings, games: range, concurrency: int) -> LoadResult:
    """One process's games (a worker process starts here), on uvloop when it is installed."""
    return _run(lambda: run_load(settings, games, concurrency))


@contextmanager
def _quiet_collector() -> Iterator[None]:
    """For the run, what is loaded frozen and full collections rare (the tester's pauses are not the
    server's); as it was after."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(before[0], before[1], FULL_COLLECTION_EVERY)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def _run(main: Callable[[], Coroutine[Any, Any, LoadResult]]) -> LoadResult:
    loop = None if uvloop is None else uvloop.new_event_loop
    with _quiet_collector(), asyncio.Runner(loop_factory=loop) as runner:
        return runner.run(main())


async def run_load(
    settings: LoadSettings, games: range | None = None, concurrency: int | None = None
) -> LoadResult:
    """Play ``settings.games`` whole games against the server, ``settings.concurrency`` at once; or,
    in one of several processes, the ``games`` of its share, ``concurrency`` at once. A game's seed
    and client address come from its index among all, so a run plays the same however it is split."""
    if not is_loopback(settings.url):
        raise ValueError(f"a load test plays against this machine only, not {settings.url!r}")
    chance = random.Random(settings.seed)
    seeds = [chance.getrandbits(64) for _ in range(settings.games)]
    share = range(settings.games) if games is None else games
    at_once = settings.concurrency if concurrency is None else concurrency
    tally = _Tally()
    pending = iter(share)

    async def worker() -> None:
        for index in pending:  # one iterator for all: as a game ends, the next one starts
            await _play(settings, index, random.Random(seeds[index]), tally)

    timed_out = False
    start = time.perf_counter()
    try:
        async with asyncio.timeout(settings.timeout), asyncio.TaskGroup() as group:
            for _ in range(min(at_once, len(share))):
                group.create_task(worker())
    except TimeoutError:
        timed_out = True
    elapsed = time.perf_counter() - start
    await _settle(settings.url, tally)
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


async def _play(settings: LoadSettings, index: int, rng: random.Random, tally: _Tally) -> None:
    """One whole game over a connection of its own; an error ends it, counted by kind."""
    headers = _client_headers(settings, index)
    http = Http(settings.url, headers)
    player = _Player(http, settings, rng, tally, headers)
    try:
        body = {"seats": [{"kind": "here", "name": f"Load {index + 1}"}], "rules": {"tiles": settings.tiles}}
        created = _answer(await http.request("POST", "/api/rooms", body))
        code, token = created["code"], created["token"]
        if settings.websocket:
            http.close()  # from here the game talks over its socket alone
            state = await player.over_socket(code, token)
        else:
            state = await player.over_http(code, token, created["state"])
    except _GameError as failure:
        tally.errors[failure.kind] += 1
        return
    except TimeoutError:  # before OSError: it is one
        tally.errors["timeout"] += 1
        return
    except (OSError, h11.ProtocolError) as error:  # refused, reset, closed: named by its class
        tally.errors[f"connection {type(error).__name__}"] += 1
        return
    except (KeyError, TypeError, ValueError):  # an answer that is not the state the API describes
        tally.errors["unreadable"] += 1
        return
    finally:
        http.close()
    tally.finished += 1
    if state.get("saved_game_id") is not None:
        tally.saved += 1
    else:
        tally.unsaved.append((code, {"Authorization": f"Bearer {token}", **headers}))


def _answer(answer: tuple[int, bytes]) -> dict[str, Any]:
    """The JSON of a 2xx answer; a refusal or a failure ends the game, counted by its status."""
    status, body = answer
    if status == 429:
        raise _GameError(REFUSED)
    if not 200 <= status < 300:
        raise _GameError(f"http {status}")
    data = orjson.loads(body)
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

    client: Http
    """The game's own connection (its client address already in its headers)."""
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
        seat = {"Authorization": f"Bearer {token}"}
        while not _over(state):
            action = self.choose(state)
            await self.think()
            sent = time.perf_counter()
            answer = await self.client.request("POST", f"/api/rooms/{code}/actions", action, seat)
            latency = time.perf_counter() - sent
            state = _answer(answer)
            self.answered(latency)
        return state

    async def over_socket(self, code: str, token: str) -> dict[str, Any]:
        """Act over the room's WebSocket until the game is over; the last state."""
        base = urlsplit(self.settings.url.rstrip("/"))
        scheme = "wss" if base.scheme == "https" else "ws"
        address = f"{scheme}://{base.netloc}{base.path}/api/rooms/{code}/ws?token={token}"
        try:
            async with asyncio.timeout(REQUEST_SECONDS):
                ws = await Socket.open(address, self.headers)
            try:
                state = await _next_state(ws, after=-1)
                while not _over(state):
                    action = self.choose(state)
                    await self.think()
                    sent = time.perf_counter()
                    await ws.send(orjson.dumps(action).decode())  # a text frame, as the page sends
                    state = await _next_state(ws, after=state["events"])
                    self.answered(time.perf_counter() - sent)
                return state
            finally:
                ws.close()
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


async def _next_state(ws: Socket, after: int) -> dict[str, Any]:
    """The first pushed state whose event count is past ``after``: the answer to the action sent
    (a push from before it, such as the one for a seat connecting, is skipped). An error message
    ends the game."""
    async with asyncio.timeout(REQUEST_SECONDS):
        while True:
            message = orjson.loads(await ws.recv())
            if message["type"] == "error":
                code = message.get("error")
                raise _GameError(REFUSED if code == "too-many" else f"socket-error {code}")
            if message["type"] == "state" and message["state"]["events"] > after:
                state: dict[str, Any] = message["state"]
                return state


async def _settle(url: str, tally: _Tally) -> None:
    """Look again, for a few seconds, at the finished games whose answer named no saved game: a
    server may save after it answers. One connection for all, each game's headers on its request."""
    deadline = time.perf_counter() + SETTLE_SECONDS
    http = Http(url, {})
    try:
        while tally.unsaved and time.perf_counter() < deadline:
            waiting = []
            for code, headers in tally.unsaved:
                try:
                    status, body = await http.request("GET", f"/api/rooms/{code}", headers=headers)
                    saved = 200 <= status < 300 and orjson.loads(body).get("saved_game_id") is not None
                except (OSError, h11.ProtocolError, ValueError, AttributeError):
                    saved = False
                if saved:
                    tally.saved += 1
                else:
                    waiting.append((code, headers))
            tally.unsaved = waiting
            if waiting:
                await asyncio.sleep(0.2)
    finally:
        http.close()
