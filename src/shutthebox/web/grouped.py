"""Group commit: the rooms' writes of one process, queued while the last flush ran, kept in one
transaction (`RoomRepository.keep_group`), so one wait for the disk serves them all.

A write waits for its group to be on disk before it returns (the action is acknowledged only then),
and the database keeps its full durability (SQLite's ``synchronous=FULL``): what a change told to
anyone was kept, as before, but a busy process pays one commit per flush instead of one per action.
One flush runs at a time, in a worker thread; a write that comes during it goes in the next.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from anyio import from_thread, to_thread

from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomRepository, Run, Write

__all__ = ["GroupCommit"]


class GroupCommit:
    """The one writer of a process's room writes: each `keep` waits for its group's commit."""

    def __init__(self, kept: RoomRepository, *, grouped: Callable[[int], None] = lambda _size: None) -> None:
        self.kept = kept
        self._grouped = grouped  # told each group's size (`web.metrics`)
        self._waiting: list[tuple[Write, asyncio.Future[int]]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._run: Run | None = from_thread.run_sync if kept.local else None
        """SQLite's statements run in the server's thread, the commit in the worker's (`keep_group`)."""

    async def keep(self, room: KeptRoom, new_events: Sequence[tuple[int, dict[str, Any]]]) -> int:
        """Write ``room`` and its new actions with the group that flushes next; its new version once
        on disk. `ConflictError` if another writer changed the room first; the store's error if the
        group could not be written (then nothing of it was)."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append(((room, new_events), done))
        if self._flushing is None:
            self._flushing = asyncio.create_task(self._flush())
        return await done

    async def _flush(self) -> None:
        """Write the groups that queue up, one after the other, until none waits."""
        try:
            while self._waiting:
                group, self._waiting = self._waiting, []
                self._grouped(len(group))
                try:
                    writes = [write for write, _done in group]
                    results = await to_thread.run_sync(self.kept.keep_group, writes, self._run)
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
