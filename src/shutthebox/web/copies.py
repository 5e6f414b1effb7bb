"""The copies of rooms one process holds, and their unit of work: each change kept before it is told.

The store (`storage.rooms`) holds every room; a process holds copies of the rooms in use, each a
`Held`: the room, the store's version it was read at, how much of its log the store has, its lock.
A change (`Copies.change`) is made under the copy's lock and written over the version it read
(compare and set): when another process changed the room first, the change is made again over the
fresh state, so of two identical actions one applies and the other is judged again (refused). A
write that fails puts the copy back as the store holds it and the failure is the caller's refusal
(busy): nothing acknowledged is ever lost, nothing refused ever shows. A copy read back from the
store is a new `Held`, replaced whole (its lock kept); a copy another process moved on is caught up
with only the new actions. While the processes are out of touch (Redis away, `web.hub`) rooms are
refused (503 ``shared-down``): no copy can be known fresh.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from anyio import to_thread
from sqlalchemy import Connection

from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomRepository
from shutthebox.web.grouped import GroupCommit
from shutthebox.web.hub import Hub, News
from shutthebox.web.keeping import caught_up, entries, kept, restore
from shutthebox.web.reads import read
from shutthebox.web.refusals import DATABASE_ERRORS, Refusal, RefusedError
from shutthebox.web.room import Room
from shutthebox.web.tables import new_code, well_formed
from shutthebox.web.turns import PerTurn

__all__ = ["CHANGE_TRIES", "OPENED_PER_TURN", "Copies", "Held", "Tell"]

log = logging.getLogger(__name__)
Changed = TypeVar("Changed")
Tell = Callable[[News], Awaitable[None]]
"""How a change is told to the other processes (`web.news.Herald.tell`)."""
Finish = Callable[[Room, KeptRoom], Callable[[Connection], dict[str, Any]] | None]
"""What else a room's write does in its transaction (`KeptRoom.then`), if anything."""
CHANGE_TRIES = 5
"""How often a change is made again over a room another process changed first."""
OPENED_PER_TURN = 16
"""New rooms that go on per turn of the event loop once kept (`web.turns`): a burst of a thousand
is one group commit, and each then tells of its room and answers (about half a millisecond)."""


@dataclass(eq=False)
class Held:
    """A copy of a room held here: the room, and what the store knows of it."""

    room: Room
    version: int = 0  # the store's version this copy holds (0: not kept yet)
    kept_events: int = 0  # how many entries of the room's log the store holds
    due_at: float | None = None  # when the store says a server must next look at the room
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    stale: bool = False  # a write failed and the store could not be read back: reload before serving
    behind: bool = False  # another process changed it: catch up with the store before serving
    last: KeptRoom | None = None  # the room as this copy last wrote it (what needs no writing again)

    @property
    def code(self) -> str:
        return self.room.code


class Copies:
    """The rooms this process holds a copy of, by code (a cache of the store), and their changes."""

    def __init__(
        self, kept: RoomRepository, hub: Hub, *, clock: Callable[[], float], idle_seconds: float, tell: Tell,
        writes: GroupCommit | None = None,
    ) -> None:
        self.kept = kept
        self.writes = writes or GroupCommit(kept)
        """Where a change is kept: with the others of its moment, in one commit."""
        self._opened = PerTurn(OPENED_PER_TURN)
        self.finish: Finish = lambda _room, _row: None
        """The save of the game a change finished, made in the change's own transaction (the
        worker's `Worker.finish`)."""
        self.hub = hub
        self.clock = clock
        self.idle_seconds = idle_seconds
        self._tell = tell
        self.started = clock()
        self._held: dict[str, Held] = {}

    def __len__(self) -> int:
        return len(self._held)

    def __iter__(self) -> Iterator[Held]:
        return iter(list(self._held.values()))

    def __contains__(self, code: str) -> bool:
        return code in self._held

    def find(self, code: str) -> Held | None:
        """The copy of room ``code`` held here (None: ask the store); a code of the wrong shape is
        refused (not-found) before anyone looks."""
        return self._held.get(well_formed(code))

    def get(self, code: str) -> Held:
        """The copy of room ``code`` held here; refused (not-found) if there is none."""
        held = self.find(code)
        if held is None:
            raise RefusedError(Refusal.NOT_FOUND, "there is no room {code!r}", code=well_formed(code))
        return held

    def drop(self, code: str) -> None:
        self._held.pop(code, None)

    def new_code(self) -> str:
        return new_code(self._held)

    # -- reading ---------------------------------------------------------------------------
    def check_in_touch(self) -> None:
        """Refuse rooms (503 ``shared-down``) while this process cannot hear the others (Redis away):
        nothing is changed, and play resumes by itself once they are in touch again."""
        if not self.hub.in_touch:
            raise RefusedError(
                Refusal.SHARED_DOWN,
                "the server cannot reach Redis, which its processes share: rooms wait until it answers "
                "again; try again in a moment",
            )

    async def fresh(self, code: str, version: int = 0) -> Held:
        """The room ``code`` as the store holds it (at least at ``version``, a version a client saw):
        the copy held here, caught up first if it is behind, else read from the store."""
        self.check_in_touch()
        held = self.find(code)
        if held is None:
            return await self._load(code)
        if held.stale or held.behind or held.version < version:
            async with held.lock:
                held = await self.current(held, version)
            if held.stale:
                raise RefusedError(
                    Refusal.BUSY, "room {code} is being restored; try again in a moment", code=held.code
                )
        return held

    async def current(self, held: Held, version: int = 0) -> Held:
        """The copy as the store holds it (under its lock): read back if stale, caught up if behind."""
        held = self._newest(held)
        if held.stale:
            return await self.reload(held)
        if held.behind or held.version < version:
            return await self.catch_up(held)
        return held

    def _newest(self, held: Held) -> Held:
        """The copy that replaced ``held`` whole (read back after a refused write) while a task waited
        for their lock, else ``held``: the old one may hold the refused change."""
        newer = self._held.get(held.code)
        return newer if newer is not None and newer.lock is held.lock else held

    async def _load(self, code: str) -> Held:
        row = await read(self.kept, self.kept.get, well_formed(code))
        if row is None:
            raise RefusedError(Refusal.NOT_FOUND, "there is no room {code!r}", code=well_formed(code))
        room = self._restored(row)
        return self._held.setdefault(room.code, Held(room, row.version, len(room.log), row.due_at))

    def _restored(self, row: KeptRoom) -> Room:
        """The room ``row`` replayed; when one process serves alone, a clock armed before it started
        starts over (the seat to act has its full time again: the server was down, not the player)."""
        try:
            room = restore(row)
        except Exception:  # a room that no longer replays must not take the server down
            log.exception("room %s does not replay; left in the store", row.code)
            raise RefusedError(
                Refusal.BUSY, "room {code} cannot be restored; try again later", code=row.code
            ) from None
        if not self.hub.shared and room.deadline is not None and room.turn_seconds is not None \
                and room.deadline - room.turn_seconds < self.started:
            room.deadline = room.clock_mark = None
            room.arm_clock(self.clock())
        return room

    async def reload(self, held: Held) -> Held:
        """The copy as the store holds it, read back whole (after a write that failed: the copy holds a
        change nobody was told of); the old copy stays stale if the store cannot be read."""
        held.stale = True
        try:
            row = await to_thread.run_sync(self.kept.get, held.code)
        except DATABASE_ERRORS:
            return held  # still stale: served again once the store answers (`fresh`)
        if row is None:
            self.drop(held.code)
            raise RefusedError(Refusal.NOT_FOUND, "there is no room {code!r}", code=held.code)
        room = self._restored(row)
        return self._replace(held, Held(room, row.version, len(room.log), row.due_at, held.lock))

    async def catch_up(self, held: Held) -> Held:
        """The copy another process moved on, brought to the store's state (under its lock): only the
        new actions replayed (the whole log when they do not follow on)."""
        held = self._newest(held)
        if held.stale:
            return await self.reload(held)
        try:
            row = await to_thread.run_sync(self.kept.get, held.code, held.kept_events)
        except DATABASE_ERRORS:
            log.exception("room %s could not be read", held.code)
            return held
        if row is None:
            self.drop(held.code)
            raise RefusedError(Refusal.NOT_FOUND, "there is no room {code!r}", code=held.code)
        if row.version == held.version:
            held.behind = False
            return held
        try:
            room = caught_up(held.room, row)
        except Exception:  # it does not follow on (the copy was behind more than it knew): whole
            log.warning("room %s: caught up by a whole replay", held.code)
            return await self.reload(held)
        return self._replace(held, Held(room, row.version, len(room.log), row.due_at, held.lock))

    def _replace(self, old: Held, new: Held) -> Held:
        if self._held.get(old.code) in (old, None):
            self._held[new.code] = new
        return new

    # -- writing ---------------------------------------------------------------------------
    async def change(self, held: Held, change: Callable[[Room], Changed]) -> tuple[Held, Changed]:
        """Make ``change`` to the room under its lock and keep it; when another process changed the
        room first, made again over the fresh state. The copy as kept, and what ``change`` gave; a
        refusal raised by ``change`` changed nothing."""
        for _attempt in range(CHANGE_TRIES):
            async with held.lock:
                held = await self.current(held)
                if held.stale:
                    raise RefusedError(
                        Refusal.BUSY, "room {code} is being restored; try again in a moment", code=held.code
                    )
                result = change(held.room)
                try:
                    await self._keep(held)
                except ConflictError:
                    continue  # read back whole: made again over the new state
                return held, result
        raise RefusedError(Refusal.BUSY, "room {code} is changing fast: try again", code=held.code)

    def snapshot(self, held: Held) -> KeptRoom:
        """The copy as the store is to keep it now: its clock armed, when it is due next."""
        room = held.room
        room.arm_clock(self.clock())
        return kept(room, version=held.version, due_at=room.due_at(self.idle_seconds))

    async def _keep(self, held: Held) -> None:
        """Commit the room's change over the version this copy holds. If that fails the copy goes back
        to what the store holds, and the failure is raised (`ConflictError` when another process
        changed the room first): nothing of a refused change was told to anyone."""
        held.room.touched = self.clock()
        row = self.snapshot(held).settled_since(held.last)
        row.then = self.finish(held.room, row)
        try:
            version = await self.writes.keep(row, entries(held.room, held.kept_events))
        except DATABASE_ERRORS as error:
            if not isinstance(error, ConflictError):
                log.exception("room %s: a change could not be kept; it is undone", held.code)
            await self.reload(held)
            raise
        saved_with_it, row.then = row.then is not None, None  # done: the copy's last row holds no save
        self._kept(held, version, row)
        game = held.room.game
        if saved_with_it and row.game_id is not None and game is not None:
            game.saved_id, held.room.results = row.game_id, row.extra.get("results")
        newer = self._held.get(held.code)
        if newer is not None and newer is not held:
            newer.behind = True  # another copy here (read while this one was busy) is behind now
        await self._tell(News(held.code, self.hub.name, version=version))

    def _kept(self, held: Held, version: int, row: KeptRoom) -> None:
        held.version, held.kept_events, held.due_at = version, len(held.room.log), row.due_at
        held.last = row

    async def add(self, room: Room) -> Held:
        """Keep a new room (under a code no room in the store holds: another is drawn when two meet),
        then hold it."""
        held = Held(room)
        for _attempt in range(CHANGE_TRIES):
            room.touched = self.clock()
            row = self.snapshot(held)
            try:
                version = await self.writes.keep(row, entries(room, 0))
            except ConflictError:
                room.code = self.new_code()
                continue
            await self._opened.wait()  # a crowd's new rooms, kept in one group, go on a few to a turn
            self._kept(held, version, row)
            return self._held.setdefault(room.code, held)
        raise RefusedError(Refusal.BUSY, "the server could not keep this; nothing changed: try again")

    async def keep_with(self, held: Held, new: Room | None) -> Held | None:
        """Keep the copy's change and a ``new`` room with it, in one transaction (a rematch's: no crash
        nor failed write leaves two rooms dealt the same dice), under the copy's lock; the new copy.
        If it fails the copy is read back and the failure raised."""
        held.room.touched = self.clock()
        made = Held(new) if new is not None else None
        if made is not None:
            made.room.touched = held.room.touched
        rows = [self.snapshot(held)] + ([self.snapshot(made)] if made is not None else [])
        writes = [(rows[0], entries(held.room, held.kept_events))]
        if made is not None:
            writes.append((rows[1], entries(made.room, 0)))
        try:
            versions = await to_thread.run_sync(self.kept.keep_all, writes)
        except DATABASE_ERRORS:  # a conflict too: the ticker settles it later, over the fresh state
            log.exception("room %s: the rematch could not be kept; tried again later", held.code)
            await self.reload(held)
            raise
        self._kept(held, versions[0], rows[0])
        if made is None:
            return None
        self._kept(made, versions[1], rows[1])
        return self._held.setdefault(made.code, made)

    async def reschedule(self, held: Held, due_at: float) -> None:
        """Say when the room is next due, if the store still holds this copy's version."""
        await to_thread.run_sync(self.kept.reschedule, held.code, held.version, due_at)
        held.due_at = due_at

    async def forget(self, codes: list[str], untouched_since: float | None = None) -> list[str]:
        """Drop rooms from the store and from here (with ``untouched_since``, only those nobody changed
        since); the codes dropped. Their finished games stay in the store."""
        since = None if untouched_since is None else datetime.fromtimestamp(untouched_since, UTC)
        gone: list[str] = await to_thread.run_sync(self.kept.forget, codes, since)
        for code in gone:
            self.drop(code)
        return gone
