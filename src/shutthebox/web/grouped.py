"""Group commit: the rooms' writes of one process, queued while the last flush ran, kept in one
transaction (`RoomRepository.keep_group`), so one wait for the disk serves them all.

A write waits for its group to be on disk before it returns (the action is acknowledged only then),
and the database keeps its full durability (SQLite's ``synchronous=FULL``): what a change told to
anyone was kept, as before, but a busy process pays one commit per flush instead of one per action.
One flush runs at a time, in a worker thread; a write that comes during it goes in the next. On
SQLite the flush's statements run in the server's own thread (`in_loop`), its commit in the worker.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Any

from anyio import to_thread

from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomRepository, Run, Write
from shutthebox.web.turns import waiting_for_disk

__all__ = ["LOOP_CHECK_SECONDS", "GroupCommit", "in_loop"]

LOOP_CHECK_SECONDS = 0.5
"""How often a worker waiting for the server's thread to run its statements checks that the loop
still runs."""


def in_loop(loop: asyncio.AbstractEventLoop) -> Run:
    """A `Run` for a worker thread: the statements run in ``loop``'s thread, and the worker waits.
    Once the loop has stopped (a forced exit skips the last group's drain) the worker gets an error
    instead of a wait without end: the group is rolled back and the write lock let go; none of its
    writers was answered. (anyio's ``from_thread.run_sync`` waits for good there.)"""

    def run(statements: Callable[[], list[int | ConflictError]]) -> list[int | ConflictError]:
        done: concurrent.futures.Future[list[int | ConflictError]] = concurrent.futures.Future()

        def call() -> None:
            if done.set_running_or_notify_cancel():
                try:
                    done.set_result(statements())
                except BaseException as error:  # handed to the worker, which rolls back
                    done.set_exception(error)

        loop.call_soon_threadsafe(call)  # a RuntimeError once the loop is closed
        while True:
            try:
                return done.result(timeout=LOOP_CHECK_SECONDS)
            except TimeoutError:
                if not loop.is_running() and done.cancel():
                    raise RuntimeError("the server's event loop stopped before the group was written") \
                        from None

    return run


class GroupCommit:
    """The one writer of a process's room writes: each `keep` waits for its group's commit."""

    def __init__(self, kept: RoomRepository, *, grouped: Callable[[int], None] = lambda _size: None) -> None:
        self.kept = kept
        self._grouped = grouped  # told each group's size (`web.metrics`)
        self._waiting: list[tuple[Write, asyncio.Future[int]]] = []
        self._flushing: asyncio.Task[None] | None = None

    async def keep(self, room: KeptRoom, new_events: Sequence[tuple[int, dict[str, Any]]]) -> int:
        """Write ``room`` and its new actions with the group that flushes next; its new version once
        on disk. `ConflictError` if another writer changed the room first; the store's error if the
        group could not be written (then nothing of it was)."""
        waiting_for_disk()  # a new room's creation lets the next arrival in
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append(((room, new_events), done))
        if self._flushing is None:
            self._flushing = asyncio.create_task(self._flush())
        return await done

    async def _flush(self) -> None:
        """Write the groups that queue up, one after the other, until none waits."""
        try:
            run = in_loop(asyncio.get_running_loop()) if self.kept.local else None
            while self._waiting:
                group, self._waiting = self._waiting, []
                self._grouped(len(group))
                try:
                    writes = [write for write, _done in group]
                    results = await to_thread.run_sync(self.kept.keep_group, writes, run)
                except Exception as error:
                    for _write, done in group:
                        if not done.done():
                            done.set_exception(error)
                    continue
                for (_write, done), result in zip(group, results, strict=True):
                    if done.done():  # its writer stopped waiting (a closed socket): kept all the same
                        continue
                    if isinstance(result, ConflictError):
                        done.set_exception(result)
                    else:
                        done.set_result(result)
        finally:
            self._flushing = None

    async def drain(self) -> None:
        """Wait until every write queued so far is on disk (a shutdown's last group)."""
        while self._flushing is not None:
            await asyncio.shield(self._flushing)
