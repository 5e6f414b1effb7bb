"""The load tester: its percentiles by hand, and whole games against a real server, over HTTP and
the WebSocket, through ``shutthebox loadtest`` as a user runs it."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from shutthebox.cli import main
from shutthebox.cli.flags import load as load_flags
from shutthebox.cli.flags.load import think_range
from shutthebox.cli.load import ERROR_WORDS, error_words, settings_line
from shutthebox.ops import loadtest
from shutthebox.ops.loadtest import (
    LoadResult,
    LoadSettings,
    is_loopback,
    merged,
    percentile,
    run_load,
    shares,
)
from shutthebox.ops.loadtest import play as load
from shutthebox.ops.loadtest import server as spawning
from tests.support.serving import Server, running

KEYS = {"games", "finished", "saved", "errors", "actions_per_second", "latency_ms"}
CPU_KEYS = {
    "tester_cpu_seconds", "tester_cpu_ms_per_action", "server_cpu_seconds", "server_cpu_ms_per_action"
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the runs of this module that stay within its per-address limit of 20 rooms a
    minute (6 + 6 + 1 + 1 + 4)."""
    with running(tmp_path_factory.mktemp("load")) as started:
        yield started


def loadtest_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["--lang", "en", "loadtest", *argv])
    out, err = capsys.readouterr()
    return status, out, err


# -- percentiles ---------------------------------------------------------------------------------
def test_nearest_rank_percentiles_of_the_textbook_example() -> None:
    values = [35, 20, 50, 15, 40]  # sorted: 15 20 35 40 50; rank = ceil(p/100 * 5)
    assert percentile(values, 5) == 15  # rank 1
    assert percentile(values, 30) == 20  # rank 2 (1.5 up)
    assert percentile(values, 40) == 20  # rank 2 exactly
    assert percentile(values, 50) == 35  # rank 3 (2.5 up)
    assert percentile(values, 100) == 50


def test_nearest_rank_ranks_are_exact_not_floating() -> None:
    twenty = list(range(1, 21))
    assert percentile(twenty, 50) == 10  # rank 10
    assert percentile(twenty, 95) == 19  # rank 19: 0.95 * 20 is 19, not a hair over it
    assert percentile(twenty, 99) == 20  # rank 19.8 -> 20
    hundred = list(range(1, 101))
    assert percentile(hundred, 7) == 7  # 0.07 * 100 is 7.000000000000001 in floating point
    assert percentile([4.5], 99) == 4.5


@pytest.mark.parametrize("p", [0, -1, 100.5])
def test_a_percentile_out_of_range_is_refused(p: float) -> None:
    with pytest.raises(ValueError, match="percentile"):
        percentile([1.0, 2.0], p)
    with pytest.raises(ValueError, match="no values"):
        percentile([], 50)


# -- several processes, one result ----------------------------------------------------------------
def a_result(
    settings: LoadSettings, latencies: list[float], errors: dict[str, int], **values: Any
) -> LoadResult:
    fields: dict[str, Any] = {
        "finished": 1, "saved": 1, "elapsed": 1.0, "think_seconds": 0.5, "timed_out": False, **values
    }
    return LoadResult(
        settings=settings, errors=errors, actions=len(latencies), latencies=tuple(latencies), **fields
    )


def test_the_runs_of_several_processes_merge_into_one_result() -> None:
    settings = LoadSettings(url="http://127.0.0.1:8000", games=4, concurrency=4, processes=2)
    fast = a_result(settings, [0.001] * 9, {"refused": 1}, tester_cpu_seconds=0.2)
    slow = a_result(settings, [0.1] * 11, {"refused": 2, "http 500": 1}, elapsed=3.0, timed_out=True,
                    tester_cpu_seconds=0.3)
    result = merged(settings, [fast, slow])
    assert result.actions == 20 and sorted(result.latencies) == [0.001] * 9 + [0.1] * 11
    assert result.latency_ms()["p50"] == 100.0  # of the pooled 20: rank 10 is a slow one
    assert result.latency_ms()["p95"] == 100.0 and percentile(fast.latencies, 50) == 0.001
    assert result.errors == {"refused": 3, "http 500": 1} and result.error_count == 4
    assert (result.finished, result.saved, result.think_seconds) == (2, 2, 1.0)
    assert result.elapsed == 3.0 and result.timed_out  # the longest; one timed out
    assert result.tester_cpu_seconds == pytest.approx(0.5)
    assert result.to_json()["tester_cpu_ms_per_action"] == 25.0  # 500 ms over 20 actions
    unmeasured = merged(settings, [fast, a_result(settings, [0.1], {})])
    assert unmeasured.tester_cpu_seconds is None and unmeasured.to_json()["tester_cpu_ms_per_action"] is None


def test_games_and_concurrency_split_evenly_across_processes() -> None:
    def split(games: int, concurrency: int, processes: int) -> list[tuple[range, int]]:
        return shares(LoadSettings(url="http://127.0.0.1:8000", games=games, concurrency=concurrency,
                                   processes=processes))

    assert split(10, 5, 1) == [(range(10), 5)]
    assert split(10, 5, 2) == [(range(0, 5), 2), (range(5, 10), 3)]
    parts = split(1000, 100, 3)
    assert [len(games) for games, _ in parts] == [333, 333, 334] and sum(c for _, c in parts) == 100
    assert [index for games, _ in parts for index in games] == list(range(1000))  # each game once
    assert split(3, 10, 8) == [(range(0, 1), 3), (range(1, 2), 3), (range(2, 3), 4)]  # no more than games
    assert split(10, 2, 8) == [(range(0, 5), 1), (range(5, 10), 1)]  # nor than games at once
    with pytest.raises(ValueError, match="processes"):
        LoadSettings(url="http://127.0.0.1:8000", games=1, concurrency=1, processes=65)


# -- what the command accepts ------------------------------------------------------------------------
def test_think_times_are_min_max_or_one_number() -> None:
    assert think_range("0.5-1.5") == (0.5, 1.5)
    assert think_range("1") == (1.0, 1.0)
    assert think_range("0") == (0.0, 0.0)
    for bad in ("2-1", "-1", "nan", "1-x", "0-4000", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            think_range(bad)


@pytest.mark.parametrize("bad", ["0", "65", "two"])
def test_processes_out_of_range_are_refused_in_one_line(capsys: pytest.CaptureFixture[str], bad: str) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "en", "loadtest", "--url", "http://127.0.0.1:1", "--processes", bad])
    err = capsys.readouterr().err
    words = "is not a whole number" if bad == "two" else "must be between 1 and 64"
    assert err.count("\n") == 1 and f"argument --processes: {bad!r} {words}" in err, err
    assert load_flags.MAX_PROCESSES == loadtest.MAX_PROCESSES


def test_only_this_machine_is_loopback() -> None:
    for url in ("http://127.0.0.1:8000", "http://localhost:8000/", "http://[::1]:8000", "https://LOCALHOST"):
        assert is_loopback(url), url
    for url in ("http://10.0.0.1:8000", "http://127.0.0.1.example.com", "ws://127.0.0.1:8000",
                "http://example.com", "127.0.0.1:8000", "http://[::1"):
        assert not is_loopback(url), url


def test_every_kind_of_error_has_words() -> None:
    assert set(ERROR_WORDS) == set(loadtest.ERROR_KINDS)
    assert error_words("refused") == "refused by a rate limit"
    assert error_words("http 500") == "HTTP 500"
    assert error_words("socket-error wrong-turn") == "WebSocket error wrong-turn"
    assert error_words("connection ReadError") == "connection failed, ReadError"
    assert error_words("something new") == "something new"


@pytest.mark.parametrize("url", ["http://example.com:8000", "http://192.168.1.10:8000"])
def test_a_server_elsewhere_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], url: str) -> None:
    status, out, err = loadtest_cli(capsys, "--url", url, "--games", "1")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and url in err and "this machine only" in err, err


@pytest.mark.parametrize(
    "changes",
    [{"games": 0}, {"concurrency": 0}, {"think": (2.0, 1.0)}, {"think": (-1.0, 1.0)}, {"timeout": 0}],
)
def test_settings_that_play_nothing_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="1 game or more"):
        LoadSettings(**{"url": "http://127.0.0.1:8000", "games": 1, "concurrency": 1, **changes})


def test_the_runner_itself_refuses_a_server_elsewhere() -> None:
    with pytest.raises(ValueError, match="this machine only"):
        asyncio.run(run_load(LoadSettings(url="http://example.com", games=1, concurrency=1)))


def test_a_player_takes_only_the_step_the_room_says_is_due_at_its_seat() -> None:
    """What to send comes from the room's ``due`` (the server's step API), not from its phase."""
    player = load._Player(
        client=None, settings=LoadSettings(url="http://127.0.0.1:8000", games=1, concurrency=1),  # type: ignore[arg-type]
        rng=random.Random(1), tally=load._Tally(), headers={},
    )
    rolled = {"is_chance": False, "legal_moves": [[7], [4, 3]], "dice_options": []}
    mine = {"due": {"wait": "person", "seat": 0}, "you": [0]}
    assert player.choose({**mine, "match": {**rolled, "is_chance": True}}) == {"type": "roll"}
    assert player.choose({**mine, "match": rolled})["tiles"] in ([7], [4, 3])
    choose = {"is_chance": False, "legal_moves": [], "dice_options": [1, 2]}
    assert player.choose({**mine, "match": choose})["count"] in (1, 2)
    others = ({"wait": "bot", "seat": 0}, {"wait": "chance", "seat": 0}, {"wait": "person", "seat": 1}, None)
    for due in others:
        with pytest.raises(load._GameError, match="stuck"):
            player.choose({"due": due, "you": [0], "match": rolled})
    assert load._over({"due": {"wait": "over", "seat": None}})
    assert not load._over({"due": None}) and not load._over(mine)


# -- against a real server -----------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("transport", [[], ["--websocket"]], ids=["http", "websocket"])
def test_whole_games_are_played_finished_and_saved(
    capsys: pytest.CaptureFixture[str], server: Server, transport: list[str]
) -> None:
    status, out, err = loadtest_cli(
        capsys, "--url", server.url, "--games", "6", "--concurrency", "3", "--seed", "7", "--json", *transport
    )
    assert status == 0 and err == ""
    result = json.loads(out)  # exactly one JSON object
    assert set(result) >= KEYS and set(result["latency_ms"]) >= {"p50", "p95", "p99"}
    assert result["games"] == result["finished"] == result["saved"] == 6
    assert result["errors"] == 0 and result["error_kinds"] == {}
    assert result["actions"] >= 6 * 2  # each game rolls and moves at least once
    assert result["actions_per_second"] > 0
    latency = result["latency_ms"]
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]
    assert result["settings"]["transport"] == ("websocket" if transport else "http")
    assert result["settings"]["concurrency"] == 3 and result["settings"]["seed"] == 7
    assert set(result) >= CPU_KEYS and result["tester_cpu_ms_per_action"] > 0
    assert result["server_cpu_ms_per_action"] is None  # a server given by its URL: not ours to read


@pytest.mark.slow
def test_a_run_spreads_over_processes_and_reports_as_one(
    capsys: pytest.CaptureFixture[str], server: Server
) -> None:
    status, out, err = loadtest_cli(
        capsys, "--url", server.url, "--games", "4", "--concurrency", "2", "--processes", "2", "--seed", "3",
        "--json", "--websocket",
    )
    assert status == 0, err
    result = json.loads(out)
    assert result["games"] == result["finished"] == result["saved"] == 4 and result["errors"] == 0
    assert result["settings"]["processes"] == 2 and result["tester_cpu_ms_per_action"] > 0
    assert result["actions"] >= 4 * 2 and result["latency_ms"]["p50"] > 0


async def test_each_player_thinks_within_the_bounds_before_each_action(server: Server) -> None:
    result = await run_load(LoadSettings(url=server.url, games=1, concurrency=1, think=(0.02, 0.04)))
    assert result.finished == result.saved == 1 and not result.errors
    assert 0.02 * result.actions <= result.think_seconds <= 0.04 * result.actions
    assert result.elapsed >= 0.02 * result.actions  # one game at a time: every pause is waited


async def test_at_the_timeout_the_run_stops_and_still_reports(server: Server) -> None:
    result = await run_load(
        LoadSettings(url=server.url, games=3, concurrency=1, think=(5.0, 5.0), timeout=0.3)
    )
    assert result.timed_out and result.finished == 0 and result.unfinished == 3
    assert result.actions == 0 and result.to_json()["unfinished"] == 3  # no think time was waited out


@pytest.mark.slow
def test_rate_limit_refusals_are_counted_apart(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """One address may create 20 rooms a minute (`Settings.rate_rooms`): the two over it are 429s,
    counted as ``refused``; the run reports them and exits 1."""
    with running(tmp_path) as server:
        status, out, err = loadtest_cli(capsys, "--url", server.url, "--games", "22", "--concurrency", "4")
    assert status == 1 and err == ""
    assert "errors              2 (refused by a rate limit: 2)" in out.splitlines()
    rows = dict(line.split(None, 1) for line in out.splitlines()[:3])
    assert rows == {"games": "22", "finished": "20", "saved": "20"}
    assert out.splitlines()[-1].startswith("Settings: " + server.url)
    assert out.splitlines()[-2].startswith(  # what to do about it (it said nothing before)
        "The server's rate limits refused games: every game came from this one address. Start it with "
        "--trust-proxy 127.0.0.1 and add --many-clients"
    )
    assert ", 4 at once in 1 tester process, over HTTP, no think time, 9 tiles," in out.splitlines()[-1]


def test_the_settings_say_how_many_games_were_played_at_once() -> None:
    """Regression: two games, ten asked at once, were reported as "10 at once"; no think time as "think
    0-0 s"."""
    line = settings_line(LoadSettings(url="http://127.0.0.1:8000", games=2, concurrency=10))
    assert ", 2 games, 2 at once in 1 tester process, over HTTP, no think time," in line
    line = settings_line(
        LoadSettings(url="http://127.0.0.1:8000", games=20, concurrency=10, think=(0.5, 1.5))
    )
    assert ", 20 games, 10 at once in 1 tester process, over HTTP, think 0.5-1.5 s," in line


def test_an_address_with_no_scheme_is_refused_with_what_was_meant(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = loadtest_cli(capsys, "--url", "127.0.0.1:8000", "--games", "1")
    assert (status, out) == (2, "")
    assert err.splitlines()[-1].endswith(
        "--url '127.0.0.1:8000' names no scheme: did you mean 'http://127.0.0.1:8000'?"
    )


def test_an_address_where_no_server_answers_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: each game failed alike, and a table of errors said only "connection failed"."""
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # nobody listens there
    status, out, err = loadtest_cli(capsys, "--url", f"http://127.0.0.1:{port}", "--games", "3")
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert f"no server answers at http://127.0.0.1:{port} (ConnectionRefusedError): start one there" in err


@pytest.mark.slow
def test_spawn_plays_against_a_server_of_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = loadtest_cli(
        capsys, "--spawn", "--workers", "1", "--games", "4", "--concurrency", "2", "--websocket", "--json"
    )
    assert status == 0, err
    result: dict[str, Any] = json.loads(out)
    assert result["finished"] == result["saved"] == 4 and result["errors"] == 0
    settings = result["settings"]
    assert settings["spawn_workers"] == 1 and settings["many_clients"] is True
    assert settings["url"].startswith("http://127.0.0.1:")
    assert result["tester_cpu_seconds"] > 0 and result["tester_cpu_ms_per_action"] > 0
    if sys.platform.startswith("linux"):  # read from /proc
        assert result["server_cpu_seconds"] > 0 and result["server_cpu_ms_per_action"] > 0


def test_the_cpu_of_a_process_tree_counts_its_children() -> None:
    """A spawned server's CPU is its own and its workers': here this process and a child that spins."""
    if not sys.platform.startswith("linux"):
        assert spawning.tree_cpu_seconds(os.getpid()) is None
        return
    before = spawning.tree_cpu_seconds(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "import time\nend = time.process_time() + 0.3\n"
                              "while time.process_time() < end: pass\nimport sys; sys.stdin.read()"],
                             stdin=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while (spawning.tree_cpu_seconds(child.pid) or 0) < 0.25 and time.monotonic() < deadline:
            time.sleep(0.05)
        during = spawning.tree_cpu_seconds(os.getpid())
    finally:
        child.communicate(b"")
    assert before is not None and during is not None and during - before >= 0.25
    assert spawning.tree_cpu_seconds(child.pid) is None  # gone


def test_a_spawned_server_that_does_not_start_shows_its_log(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> list[str]:
        return [sys.executable, "-c", "import sys; print('no database here'); sys.exit(3)"]

    monkeypatch.setattr(spawning, "serve_command", broken)
    status, out, err = loadtest_cli(capsys, "--spawn", "--games", "1")
    assert status == 2 and out == ""
    assert "no database here" in err
    assert err.splitlines()[-1] == (
        "shutthebox loadtest: error: the server stopped as it started (exit status 3); "
        "the end of its log is above"
    )


def test_why_several_workers_cannot_start_here_is_said_in_the_users_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the reason (Redis or PostgreSQL missing) stayed in English in a Spanish sentence."""
    from shutthebox.ops import throwaway

    monkeypatch.setattr(throwaway, "missing_postgres", lambda: None)
    monkeypatch.setattr(throwaway, "missing_redis", lambda: throwaway.N_(
        "redis-server is not installed (Debian: apt-get install redis-server)"
    ))
    status = main(["--lang", "es", "loadtest", "--spawn", "--workers", "2", "--games", "1"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.splitlines()[-1].endswith(
        "necesitan un PostgreSQL y un Redis temporales: redis-server no está instalado "
        "(Debian: apt-get install redis-server)"
    )


# -- the game's socket ---------------------------------------------------------------------------
@contextlib.asynccontextmanager
async def a_server_that_says(then: list[bytes]) -> AsyncIterator[str]:
    """The URL of a WebSocket server on a free port that answers the handshake and writes ``then`` with
    it, in one write (a busy server's first state can come in the same packet as its answer); it
    waits for the client to close."""
    from websockets.http11 import Request
    from websockets.server import ServerProtocol

    served: list[asyncio.Future[None]] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        served.append(done := asyncio.get_running_loop().create_future())
        try:
            protocol = ServerProtocol()
            while not (events := protocol.events_received()):
                protocol.receive_data(await reader.read(65536))
            request = events[0]
            assert isinstance(request, Request)
            protocol.send_response(protocol.accept(request))
            writer.write(b"".join(protocol.data_to_send()) + b"".join(then))
            while await reader.read(65536):  # until the client closes
                pass
        finally:
            writer.close()
            await writer.wait_closed()
            done.set_result(None)

    listening = await asyncio.start_server(answer, "127.0.0.1", 0)
    async with listening:
        yield f"ws://127.0.0.1:{listening.sockets[0].getsockname()[1]}/ws"
        await asyncio.wait_for(asyncio.gather(*served), 5)


def text_frame(text: str) -> bytes:
    """A whole text message as a server sends it (unmasked)."""
    from websockets.frames import Frame, Opcode

    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


async def test_the_messages_that_come_with_the_handshakes_answer_are_read() -> None:
    """Regression: the tester's socket took the handshake's answer and dropped what came in the same
    read, and a game then waited for a first state already received, until its timeout."""
    async with a_server_that_says([text_frame('{"n": 1}'), text_frame('{"n": 2}')]) as url:
        socket = await asyncio.wait_for(load.Socket.open(url, {}), 5)
        try:
            assert [await asyncio.wait_for(socket.recv(), 5) for _ in range(2)] == [b'{"n": 1}', b'{"n": 2}']
        finally:
            socket.close()


async def test_a_message_in_fragments_is_read_whole_and_a_close_ends_the_socket() -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.frames import Close, Frame, Opcode

    fragments = [
        Frame(Opcode.TEXT, b'{"n": ', fin=False).serialize(mask=False, extensions=[]),
        Frame(Opcode.CONT, b"3}").serialize(mask=False, extensions=[]),
        Frame(Opcode.CLOSE, Close(1012, "restart").serialize()).serialize(mask=False, extensions=[]),
    ]
    async with a_server_that_says(fragments) as url:
        socket = await asyncio.wait_for(load.Socket.open(url, {}), 5)
        try:
            assert await asyncio.wait_for(socket.recv(), 5) == b'{"n": 3}'
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), 5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        finally:
            socket.close()
