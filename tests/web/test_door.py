"""The solver's door: every job priced and counted against its requester's budget, a requester's jobs
one at a time, the worker free for whoever waited longest, answers kept and shared, a worker that
dies replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Callable

import pytest

from shutthebox.web.door import CALL_PRICE, SolverDoor
from shutthebox.web.rooms import RoomError


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def labelled(label: str, seconds: float = 0.02) -> str:
    """A job that takes ``seconds`` and answers ``label``."""
    time.sleep(seconds)
    return label


async def test_a_flood_waits_behind_itself_and_anyone_else_goes_next() -> None:
    door = SolverDoor(processes=0, cells_per_minute=10**15)
    done: list[str] = []

    async def ask(requester: str, label: str, job: Callable[[str], str] = labelled) -> None:
        done.append(await door.run(requester, None, 0, job, label))

    started, release = threading.Event(), threading.Event()

    def first(label: str) -> str:
        started.set()
        release.wait(5)
        return label

    flood = [asyncio.create_task(ask("flood", "f0", first))]
    flood += [asyncio.create_task(ask("flood", f"f{i}")) for i in range(1, 6)]
    await asyncio.to_thread(started.wait, 5)  # the first of the flood is running, the rest queued
    other = asyncio.create_task(ask("other", "o"))
    await asyncio.sleep(0.01)  # "other" is queued too
    release.set()
    await asyncio.gather(*flood, other)
    assert done[:2] == ["f0", "o"] and done[2:] == ["f1", "f2", "f3", "f4", "f5"]  # in its own order


async def test_a_requester_may_spend_its_budget_in_a_minute_then_waits_for_the_oldest_to_expire() -> None:
    clock = FakeClock()
    door = SolverDoor(processes=0, cells_per_minute=10 * CALL_PRICE, clock=clock)
    assert await door.run("ana", None, 6 * CALL_PRICE, labelled, "a", 0) == "a"
    clock.now += 20
    assert await door.run("ana", None, 4 * CALL_PRICE, labelled, "b", 0) == "b"  # the budget, exactly
    with pytest.raises(RoomError) as refused:
        await door.run("ana", None, CALL_PRICE, labelled, "c", 0)
    assert refused.value.code == "too-many" and refused.value.status == 429
    assert "try again in 40 s" in str(refused.value)  # when the first job leaves the minute
    assert await door.run("luis", None, CALL_PRICE, labelled, "d", 0) == "d"  # another's budget is its own
    clock.now += 40
    assert await door.run("ana", None, CALL_PRICE, labelled, "c", 0) == "c"


async def test_every_job_costs_at_least_a_call_and_one_dearer_than_the_budget_runs_alone() -> None:
    clock = FakeClock()
    door = SolverDoor(processes=0, cells_per_minute=3 * CALL_PRICE, clock=clock)
    for label in "abc":
        await door.run("ana", None, 0, labelled, label, 0)  # priced as a call each
    with pytest.raises(RoomError):
        await door.run("ana", None, 0, labelled, "d", 0)
    clock.now += 61
    assert await door.run("ana", None, 100 * CALL_PRICE, labelled, "e", 0) == "e"  # the minute was empty


async def test_a_requester_has_a_few_jobs_waiting_at_most_the_rest_refused_at_once() -> None:
    door = SolverDoor(processes=0, cells_per_minute=10**15, waiting=3)
    asked = [asyncio.create_task(door.run("flood", None, 0, labelled, str(i), 0.05)) for i in range(5)]
    answers = await asyncio.gather(*asked, return_exceptions=True)
    refused = [a for a in answers if isinstance(a, RoomError)]
    assert answers[:3] == ["0", "1", "2"] and len(refused) == 2
    assert all(r.code == "too-many" and "try again in 1 s" in str(r) for r in refused)


async def test_answers_are_kept_and_one_running_is_shared_costing_nothing_more() -> None:
    clock = FakeClock()
    door = SolverDoor(processes=0, cells_per_minute=2 * CALL_PRICE, cache_size=2, clock=clock)
    first, second = await asyncio.gather(
        door.run("ana", "k", CALL_PRICE, labelled, "x"), door.run("luis", "k", 10**12, labelled, "y")
    )
    assert first == second == "x"  # Luis shared Ana's job: his price was never asked
    for _ in range(5):
        assert await door.run("ana", "k", CALL_PRICE, labelled, "z") == "x"  # kept: free
    assert await door.run("ana", "other", CALL_PRICE, labelled, "o") == "o"
    assert door.cached() == 2


async def test_a_failed_job_is_not_kept_and_refuses_nothing_else() -> None:
    door = SolverDoor(processes=0, cells_per_minute=10**15)
    with pytest.raises(ZeroDivisionError):
        await door.run("ana", "k", 0, divide, 1)
    assert door.cached() == 0 and await door.run("ana", "k", 0, labelled, "after") == "after"


def divide(by: int) -> float:
    return 1 / (by - 1)


async def test_jobs_run_in_a_worker_process_and_a_worker_that_dies_is_replaced() -> None:
    door = SolverDoor(processes=1, cells_per_minute=10**15)
    worker = await door.run("ana", None, 0, os.getpid)
    assert worker != os.getpid()  # not in the server's own interpreter
    assert await door.run("ana", None, 0, os.getpid) == worker  # the same worker, its caches kept
    os.kill(worker, signal.SIGKILL)
    await asyncio.sleep(0.2)
    with pytest.raises(RoomError) as refused:
        await door.run("ana", None, 0, os.getpid)
    assert refused.value.code == "busy" and refused.value.status == 503
    fresh = await door.run("ana", None, 0, os.getpid)
    assert fresh not in (worker, os.getpid())
