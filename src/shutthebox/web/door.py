"""The one door all the server's solver work goes through: priced, fair, bounded, out of the way.

Every hint, bot move, review, cheat sheet, trainer pool or answer, and the daily challenge's
optimal game is a job of `shutthebox.strategy.jobs`, and `SolverDoor.run` runs it:

- **Out of the way.** Jobs run in a worker process (``processes`` of them, started when first
  needed), so the solver never holds the server's own interpreter: the other players' actions are
  answered meanwhile as if no solve ran. The worker keeps the solver's caches between jobs. With
  ``processes`` 0 jobs run in a thread of the server instead.
- **Already computed costs nothing.** Answers are kept (``cache_size``); a job asked for while the
  same one runs waits for it rather than running twice.
- **Priced before it starts.** Each job comes with its price in cells of solver work (see
  `shutthebox.strategy.cost`); a requester (a client address, or the address that made a room for
  its bots) may spend ``cells_per_minute`` in any minute, beyond which it is refused (429, with the
  seconds to wait) before anything runs.
- **Fair.** A requester's jobs run one at a time, in the order they came, at most ``waiting`` of them
  queued; the worker takes the next job of whichever requester has waited longest. A flood from one
  address waits behind itself: anyone else's job waits for at most the one job running.

A worker that dies (killed, out of memory) is replaced; the job it held is refused as busy (503).
"""

from __future__ import annotations

import asyncio
import atexit
import copy
import logging
import math
import multiprocessing
import multiprocessing.util
import os
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar

from shutthebox.strategy import jobs
from shutthebox.strategy.solver.shelf import MAX_BYTES as SHELF_BYTES
from shutthebox.web.refusals import Refusal, RefusedError

__all__ = ["CALL_PRICE", "Solver", "SolverDoor"]

log = logging.getLogger(__name__)
Result = TypeVar("Result")
CALL_PRICE = 20_000_000
"""What any job costs at least, in cells: a call into a worker with the solve already made."""
WINDOW = 60.0
"""The budget's window, in seconds."""

_pools: dict[tuple[str, int], ProcessPoolExecutor] = {}
"""The worker processes of this server process, by name and count: shared by every door of that name
(a test runs many)."""


def _pool(name: str, processes: int) -> ProcessPoolExecutor:
    pool = _pools.get((name, processes))
    if pool is None:
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing of the server's state
        pool = _pools[name, processes] = ProcessPoolExecutor(
            processes, mp_context=context, initializer=jobs.warm, initargs=(os.getpid(),)
        )
    return pool


def _replace(name: str, processes: int, broken: Executor) -> None:
    if _pools.get((name, processes)) is broken:
        del _pools[name, processes]
        broken.shutdown(wait=False, cancel_futures=True)


class Solver(Protocol):
    """What a service asks of the door: run a job for a requester, at its price, kept under its key."""

    async def run(
        self, requester: str, key: Hashable | None, price: int, job: Callable[..., Result], *args: Any
    ) -> Result: ...


@atexit.register
def _stop_pools() -> None:
    for pool in _pools.values():
        pool.shutdown(wait=False, cancel_futures=True)


def stop_pools() -> None:
    """End the solver's worker processes now, their work dropped (the server is stopping), and close
    their pools' queues. For the process's one server (`shutthebox serve`): uvicorn ends its process
    by the signal that stopped it, so no exit handler runs, and workers left behind would wait for
    work forever. Its only multiprocessing children are these workers."""
    pools = list(_pools.values())
    _pools.clear()
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)
    for child in multiprocessing.active_children():
        child.terminate()
    for pool in pools:
        pool.shutdown(wait=True)
    # What the interpreter's exit would do for multiprocessing, which the signal skips: the pools'
    # semaphores unlinked (else the resource tracker warns of them, "leaked", as the server stops).
    multiprocessing.util._exit_function()  # type: ignore[attr-defined]


class SolverDoor:
    """The server's solver work: see the module."""

    def __init__(
        self, *, processes: int = 1, cells_per_minute: int = 12_000_000_000, waiting: int = 8,
        cache_size: int = 512, clock: Callable[[], float] = time.monotonic, shelf: Path | None = None,
        shelf_bytes: int = SHELF_BYTES, pool: str = "",
    ) -> None:
        if processes < 0 or waiting < 1 or cache_size < 0:
            raise ValueError(f"processes ({processes}) and cache_size ({cache_size}) must be 0 or more, "
                             f"waiting ({waiting}) 1 or more")
        self.processes = processes
        self.pool = pool
        """The name of its worker processes: doors of one name share them, doors of two never wait for
        each other's work."""
        self.cells_per_minute = cells_per_minute
        self.waiting = waiting
        self.cache_size = cache_size
        self._clock = clock
        self.shelf = shelf
        """Where the workers keep the large rounds they solve (`strategy.solver.shelf`); None: nowhere."""
        self.shelf_bytes = shelf_bytes
        """The most the shelf holds: the rounds read least recently make room for a new one."""
        self._answers: OrderedDict[Hashable, Any] = OrderedDict()
        self._running: dict[Hashable, asyncio.Future[Any]] = {}
        self._turns: dict[str, asyncio.Lock] = {}
        self._queued: dict[str, int] = {}
        self._spent: dict[str, deque[tuple[float, int]]] = {}
        self._slots = asyncio.Semaphore(max(processes, 1))
        self.jobs = 0
        """Jobs admitted to run (answers kept or shared cost none)."""

    async def run(
        self, requester: str, key: Hashable | None, price: int, job: Callable[..., Result], *args: Any
    ) -> Result:
        """``job(*args)``'s answer (kept under ``key``; None: not kept), for ``requester``, at ``price``
        cells; `RefusedError` too-many when the requester's budget or queue is full, busy when the worker
        failed."""
        if key is not None and key in self._answers:
            self._answers.move_to_end(key)
            answer: Result = copy.deepcopy(self._answers[key])
            return answer
        running = self._running.get(key) if key is not None else None
        if running is None:
            self._admit(requester, max(price, CALL_PRICE))
            running = asyncio.ensure_future(self._turn(requester, job, args))
            if key is not None:
                self._running[key] = running
                running.add_done_callback(partial(self._landed, key))
        shared: Result = copy.deepcopy(await asyncio.shield(running))  # one asker gone does not stop it
        return shared

    def cached(self) -> int:
        return len(self._answers)

    def queued(self) -> int:
        """Jobs admitted and not yet done (waiting their turn or running)."""
        return sum(self._queued.values())

    # -- the budget and the queue ---------------------------------------------------------
    def _admit(self, requester: str, price: int) -> None:
        """Spend ``price`` from the requester's budget, or refuse (nothing is spent then)."""
        now = self._clock()
        spent = self._spent.setdefault(requester, deque())
        while spent and spent[0][0] <= now - WINDOW:
            spent.popleft()
        total = sum(cells for _, cells in spent)
        if spent and total + price > self.cells_per_minute:
            freed, wait = total + price - self.cells_per_minute, WINDOW
            for moment, cells in spent:
                freed -= cells
                if freed <= 0:
                    wait = moment + WINDOW - now
                    break
            raise RefusedError(
                Refusal.TOO_MANY, "too much solver work asked from your address: try again in {seconds} s",
                seconds=max(1, math.ceil(wait)),
            )
        if self._queued.get(requester, 0) >= self.waiting:
            raise RefusedError(
                Refusal.TOO_MANY, "too much solver work asked from your address: try again in {seconds} s",
                seconds=1,
            )
        spent.append((now, price))
        self.jobs += 1
        self._queued[requester] = self._queued.get(requester, 0) + 1  # counted now: its task starts later
        if len(self._spent) > 10_000:
            self._forget(now)

    def _forget(self, now: float) -> None:
        """Drop requesters whose spending has all left the window (a server meets many addresses)."""
        gone = [name for name, spent in self._spent.items() if not spent or spent[-1][0] <= now - WINDOW]
        for name in gone:
            del self._spent[name]

    async def _turn(self, requester: str, job: Callable[..., Result], args: tuple[Any, ...]) -> Result:
        """Run the job when the requester's earlier jobs are done and a worker is free."""
        turn = self._turns.setdefault(requester, asyncio.Lock())
        try:
            async with turn, self._slots:
                return await self._execute(job, args)
        finally:
            self._queued[requester] -= 1
            if not self._queued[requester]:
                del self._queued[requester]
                if not turn.locked():
                    self._turns.pop(requester, None)

    async def _execute(self, job: Callable[..., Result], args: tuple[Any, ...]) -> Result:
        pool = _pool(self.pool, self.processes) if self.processes else None
        shelf = str(self.shelf) if self.shelf is not None else None
        work = partial(jobs.shelved, shelf, self.shelf_bytes, job, *args)
        try:
            if pool is None:
                return await asyncio.to_thread(work)
            return await asyncio.get_running_loop().run_in_executor(pool, work)
        except BrokenProcessPool:
            assert pool is not None
            log.exception("a solver worker died; it is replaced")
            _replace(self.pool, self.processes, pool)
            raise RefusedError(Refusal.BUSY, "the server's solver failed on this; try again") from None

    def _landed(self, key: Hashable, future: asyncio.Future[Any]) -> None:
        self._running.pop(key, None)
        if future.cancelled() or future.exception() is not None or self.cache_size == 0:
            return
        self._answers[key] = future.result()
        self._answers.move_to_end(key)
        while len(self._answers) > self.cache_size:
            self._answers.popitem(last=False)
