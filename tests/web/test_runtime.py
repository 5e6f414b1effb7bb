"""The garbage collector of a server process: full collections rare, and every pause counted."""

from __future__ import annotations

import asyncio
import gc
import re
import sys
import types
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from shutthebox.ops.loadtest import LoadSettings, run_load
from shutthebox.web.runtime import FULL_COLLECTION_EVERY, THREAD_TURN_SECONDS, PauseTimer, tune_for_serving
from tests.support.serving import running
from tests.support.web import create


def counted(metrics: str, generation: int) -> int:
    line = rf'^shutthebox_gc_pause_seconds_count{{generation="{generation}"}} (\S+)$'
    found = re.search(line, metrics, re.M)
    assert found, f"no pause of generation {generation} in the metrics"
    return int(float(found.group(1)))


def freed(metrics: str) -> int:
    found = re.search(r"^shutthebox_gc_collected_objects_total (\S+)$", metrics, re.M)
    assert found, "no count of the objects collections freed"
    return int(float(found.group(1)))


@pytest.fixture
def as_it_was() -> Iterator[None]:
    thresholds, turn = gc.get_threshold(), sys.getswitchinterval()
    yield
    gc.set_threshold(*thresholds)
    sys.setswitchinterval(turn)


def test_a_serving_process_collects_fully_once_per_thousand_and_turns_threads_fast(as_it_was: None) -> None:
    gc.set_threshold(700, 10, 10)
    sys.setswitchinterval(0.005)
    tune_for_serving()
    assert gc.get_threshold() == (700, 10, FULL_COLLECTION_EVERY) and FULL_COLLECTION_EVERY == 1000
    assert sys.getswitchinterval() == pytest.approx(THREAD_TURN_SECONDS) and THREAD_TURN_SECONDS < 0.005


def test_each_collection_is_timed_and_counted_into_its_generation() -> None:
    told: list[tuple[int, float, int]] = []
    timer = PauseTimer(lambda generation, seconds, freed: told.append((generation, seconds, freed)))
    timer.start()
    try:
        gc.collect(2)
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        gc.collect(1)
    finally:
        timer.stop()
    gc.collect(2)  # stopped: no longer told
    assert timer not in gc.callbacks
    assert [generation for generation, _, _ in told] == [2, 1]
    assert all(seconds >= 0 for _, seconds, _ in told) and told[1][2] >= 1  # the list in a cycle with itself


def test_whole_games_leave_no_garbage_in_cycles(client: TestClient) -> None:
    """A finished game's objects, its save, its rows are freed by their reference counts the moment
    they go: garbage in cycles waits for a collection, and a collection walks the process (the room
    row and the save that held each other, a recursive closure at every move listed)."""
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    table.play_while_mine()  # whatever start-up and a first game make once
    gc.collect()
    gc.disable()
    try:
        for seed in range(5):
            table, _ = create(client, seats=[{"name": "Ana"}], seed=seed)
            assert table.play_while_mine()["saved_game_id"] is not None
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        ours = Counter(
            type(thing).__qualname__ for thing in gc.garbage
            if type(thing).__module__.startswith("shutthebox")
        )
        closures = Counter(
            thing.__qualname__ for thing in gc.garbage
            if isinstance(thing, types.FunctionType) and thing.__module__.startswith("shutthebox")
        )
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert not ours and not closures, (ours, closures)


@pytest.mark.slow
def test_four_hundred_games_make_no_full_collection_and_little_garbage(tmp_path: Path) -> None:
    """With CPython's thresholds the same games made full collections (each walks every room and
    socket of the process: most of the p99 at 1,000 games); now the young generations take it all."""
    with running(tmp_path, options=["--trust-proxy", "127.0.0.1"]) as server:
        before = httpx.get(f"{server.url}/metrics").text
        result = asyncio.run(run_load(LoadSettings(
            url=server.url, games=400, concurrency=100, websocket=True, many_clients=True, seed=3,
        )))
        after = httpx.get(f"{server.url}/metrics").text
    assert result.finished == 400 and not result.errors
    young = counted(after, 0) - counted(before, 0)
    assert young > 10 * 10  # collected after, young: enough that CPython's thresholds (10, 10) make full ones
    assert counted(after, 2) == counted(before, 2)
    assert freed(after) - freed(before) < 2 * 400  # freed by their counts (it was 136 objects a game)
