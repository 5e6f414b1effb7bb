"""Work that comes in a crowd, let through a few at a time per turn of the event loop.

asyncio runs, in one turn, every callback that became ready in the last: when a thousand people
open rooms in the same second, or one group commit answers a thousand writers, that turn lasts
half a second here, and every game in play, whose next message waits for the turn to end, waits
with it. `PerTurn` lets the crowd through in the order it came, a few to a turn, so the games in
play are served between them; it costs nothing while no crowd waits. The work is the same; it is
spread. Who waits here: the ways into a game (`web.arrivals`), and the new rooms of a group commit
once on disk (`web.copies`).

An arrival also holds one of a few places in the app until it is answered, or until it waits for
the disk (`waiting_for_disk`, told by the group commit): then it lets the next one in.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from contextvars import ContextVar

__all__ = ["PerTurn", "hold_place", "waiting_for_disk"]

_leave: ContextVar[Callable[[], None] | None] = ContextVar("leave_place", default=None)
"""How the task being served gives back the place it holds, if it holds one."""


def hold_place(leave: Callable[[], None]) -> None:
    """The task being served holds a place until ``leave`` (a task's context is its own copy)."""
    _leave.set(leave)


def waiting_for_disk() -> None:
    """The task being served now waits for its group commit: a place it holds goes to the next one,
    so a crowd of new rooms goes to disk in one group instead of place by place."""
    leave = _leave.get()
    if leave is not None:
        leave()


class PerTurn:
    """Callers of `wait` go on about ``per_turn`` to a turn of the running loop, first come first
    served; the others wait for a later turn. (A caller let go in one turn runs in the next, and is
    counted there; one that a turn runs before the count is made may go on beside them.)"""

    def __init__(self, per_turn: int) -> None:
        if per_turn < 1:
            raise ValueError(f"per_turn must be at least 1, not {per_turn}")
        self.per_turn = per_turn
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: deque[asyncio.Future[None]] = deque()
        self._passed = 0  # going on in this turn
        self._released = 0  # let go in this turn: they go on in the next
        self._turning = False  # the next turn's count is scheduled

    async def wait(self) -> None:
        """Return in this turn if it has room and nobody waits; otherwise in a later one."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (a test's, a worker's): the last one's count is void
            self._loop, self._queue, self._passed, self._released, self._turning = loop, deque(), 0, 0, False
        if not self._queue and self._passed < self.per_turn:
            self._passed += 1
            self._count_next_turn(loop)
            return
        turn = loop.create_future()
        self._queue.append(turn)
        self._count_next_turn(loop)
        await turn  # cancelled while waiting: `_next_turn` skips it

    def _count_next_turn(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self._turning:
            self._turning = True
            loop.call_soon(self._next_turn)

    def _next_turn(self) -> None:
        """A new turn: those let go in the last go on in this one; let the next ones go."""
        self._turning = False
        self._passed, self._released = self._released, 0
        if self._loop is not None and (self._passed or self._queue):
            self._count_next_turn(self._loop)  # before the wake-ups: the next count comes first
        while self._queue and self._released < self.per_turn:
            turn = self._queue.popleft()
            if not turn.done():
                turn.set_result(None)
                self._released += 1
