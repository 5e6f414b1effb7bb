"""The rooms' background work, which no player asks for: clocks, rematches, bots, saving, closing.

A ticker asks the store which rooms are due (`Room.due_at`: a clock run out, a rematch to settle, a
bot to play, a game to save, an idle room to close) and looks after each under its lease (`web.hub`),
so exactly one process does each room's work. A finished game is saved under the room's origin (kept
once, whichever process saves it); a save a locked database delays is tried again, never dropped.
Now and then copies nobody needs leave memory (`sweep`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from anyio import to_thread
from sqlalchemy import Connection

from shutthebox.storage import GameRepository, RoomRepository
from shutthebox.storage.games import best_scores_on, write_game
from shutthebox.storage.rooms import KeptRoom
from shutthebox.web.botplay import LEASE_SECONDS, BotPlayer
from shutthebox.web.copies import Copies, Held
from shutthebox.web.fanout import Fanout
from shutthebox.web.hub import Hub, News
from shutthebox.web.news import Cluster, Herald
from shutthebox.web.refusals import DATABASE_ERRORS, RefusedError
from shutthebox.web.room import Room
from shutthebox.web.settings import Settings
from shutthebox.web.tables import rematch_room

__all__ = ["SWEEP_SECONDS", "TICKET_SECONDS", "Worker"]

log = logging.getLogger(__name__)
Saving = Callable[[Connection], tuple[int, list[dict[str, Any]]]]
"""A finished game's save in a given transaction: its id, and each person's result."""
SWEEP_SECONDS = 30.0
"""How often idle copies of rooms leave memory, and unclaimed commitments are dropped."""
TICKET_SECONDS = 15 * 60.0
"""How long committed dice wait for the room that claims them."""


class Worker:
    """The background work of one process's rooms (see the module)."""

    def __init__(
        self, *, settings: Settings, games: GameRepository, kept: RoomRepository, copies: Copies,
        fanout: Fanout, herald: Herald, cluster: Cluster, bots: BotPlayer, hub: Hub,
        clock: Callable[[], float],
    ) -> None:
        self.settings = settings
        self.games = games
        self.kept = kept
        self.copies = copies
        self.fanout = fanout
        self.herald = herald
        self.cluster = cluster
        self.bots = bots
        self.hub = hub
        self.clock = clock
        self._ticker: asyncio.Task[None] | None = None
        self._work: set[asyncio.Task[None]] = set()
        self._swept = 0.0

    # -- start and stop -----------------------------------------------------------
    def start(self) -> None:
        self._ticker = asyncio.create_task(self._tick_forever())

    async def stop(self) -> None:
        tasks = [t for t in [self._ticker, *self._work] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.tick()
            except Exception:  # the ticker must outlive any one room's trouble
                log.exception("the room ticker failed")

    async def tick(self) -> None:
        """Look at every room the store says is due, each by the one process that takes its lease;
        now and then, let idle copies go and drop unclaimed commitments."""
        now = self.clock()
        try:
            due = await to_thread.run_sync(self.kept.due, now)
        except DATABASE_ERRORS:
            log.exception("the rooms due could not be read")
            due = []
        for code in due:
            await self.wake(code)
        if now - self._swept >= SWEEP_SECONDS:
            self._swept = now
            await self.sweep(now)

    # -- after every change ---------------------------------------------------
    async def changed(self, held: Held) -> Held:
        """Save a finished game, tell every listener, let the bots play; a finished room nobody
        watches here leaves memory (the store holds it). The copy as it stands then."""
        held = await self.save_if_over(held)
        self.fanout.broadcast(held)
        if held.room.bots_to_play:
            await self.wake(held.code)
            held = self.copies.find(held.code) or held
        room = held.room
        if room.status == "over" and not self.fanout.watched(held.code) and room.rematch is None:
            self.copies.drop(held.code)
        return held

    async def _told(self, held: Held) -> Held:
        """What follows a bot's action: its game saved if over, every listener told."""
        held = await self.save_if_over(held)
        self.fanout.broadcast(held)
        return held

    async def wake(self, code: str) -> None:
        """Let the one process that takes the room's lease do its work (see `_look_after`): at once
        when bots do not pause, else as a task of its own, so people can follow each action."""
        key = f"room:{code}"
        if not await self.hub.lease(key, LEASE_SECONDS):
            return  # another task, here or in another process, looks after it
        work = self._look_after(code, key)
        if self.settings.bot_delay <= 0:
            await work
            return
        task = asyncio.create_task(work)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    async def _look_after(self, code: str, key: str) -> None:
        """The room's work nobody asks for, under its lease: run out its clock, settle its rematch,
        play its bots (each action kept and told), save its game, close it when idle."""
        idle = self.settings.room_idle_seconds
        try:
            held = await self.copies.fresh(code)
            async with held.lock:
                held = await self.copies.catch_up(held)  # the store has the last word on what is due
            while not held.stale:
                now = self.clock()
                if held.room.closed(now) or held.room.abandoned(now, idle):
                    held = await self._change(held, lambda room: room.abandon())
                deadline = held.room.deadline
                if deadline is not None and now >= deadline:
                    if deadline <= self.cluster.resumed:  # it ran out while its seat was refused
                        held = await self._change(held, lambda room: room.restart_clock(self.clock()))
                        continue
                    held = await self.time_out(held)  # a stand-in plays that turn: see the bots below
                    continue
                if held.room.rematch_due(now):
                    held = await self.settle_rematch(held)
                if held.room.bots_to_play:
                    held = await self.bots.play(held, key, self._told)
                break
            held = await self.save_if_over(held)
            if await self._close_if_idle(held):
                return
            due = held.room.due_at(idle)
            if due != held.due_at:
                await self.copies.reschedule(held, due)
        except RefusedError as error:  # a write failed, or the room is gone: the next tick tries again
            log.warning("room %s: its work stopped: %s", code, error.code)
        except DATABASE_ERRORS:
            log.exception("room %s: its work stopped", code)
        except Exception:  # a bot that fails must not take the server down: log it, leave the room
            log.exception("room %s: its work failed", code)
        finally:
            await self.hub.release(key)

    async def _change(self, held: Held, change: Callable[[Any], object]) -> Held:
        """Make a change of the room's own (its clock, its players leaving) and tell everyone."""
        held, _ = await self.copies.change(held, change)
        self.fanout.broadcast(held)
        return held

    async def time_out(self, held: Held) -> Held:
        """The seat to act ran out of time: a stand-in plays the rest of its turn (the bots' loop
        plays it), or after a second miss for good, or the game is adjourned."""
        deadline = held.room.deadline
        if deadline is None or self.clock() < deadline:
            return held
        return await self._change(held, lambda room: room.run_out(self.clock()))

    async def settle_rematch(self, held: Held) -> Held:
        """Start the rematch's room with the players who accepted (or close the offer): the new room
        and the old one's link to it are kept in one transaction, so a crash or a failed write
        never leaves two rooms dealt the same dice."""
        async with held.lock:
            held = await self.copies.current(held)
            room, now = held.room, self.clock()
            if not room.rematch_due(now):
                return held
            rematch = room.rematch
            assert rematch is not None
            answers = dict(rematch.answers)
            new = rematch_room(room, self.copies.new_code(), now)
            if new is not None:
                rematch.code = new.code
            else:
                rematch.answers = {s: bool(a) for s, a in answers.items()}  # unanswered: declined
                rematch.closed = True  # no game: the offer is over, never due again
            made = await self.copies.keep_with(held, new)
        await self.herald.tell(News(held.code, self.hub.name, version=held.version))
        if made is not None:
            await self.changed(made)
        self.fanout.broadcast(held)
        return held

    # -- saving and closing ------------------------------------------------------------
    def saving(self, room: Room) -> Saving | None:
        """The save of ``room``'s finished game, to run in a write's transaction: its id and each
        person's result against their best before (`core.ranking.Result`); None when there is no
        game to save. Keyed by the room's origin, so two processes saving it keep it once."""
        game = room.game
        if game is None or not game.state.is_over or game.saved_id is not None:
            return None
        record = game.record()  # one record: its replay serves the save and the results
        profiles = {seat.index: seat.profile for seat in room.seats if seat.profile is not None}
        sealed = None if room.reveal_at is None else datetime.fromtimestamp(room.reveal_at, UTC)
        people = [(seat.name, seat.profile) for seat in room.seats if seat.human and seat.name]
        origin, ended = room.origin, game.state

        def save(connection: Connection) -> tuple[int, list[dict[str, Any]]]:
            finished = self.games.finished(
                record, source="web", profiles=profiles, origin=origin, sealed_until=sealed, ended=ended,
            )
            before = best_scores_on(connection, people, rules=record.rules, source="web")
            kept = write_game(connection, finished)
            results = record.results([name for name, _profile in people], before)
            return kept, [result.to_json() for result in results]

        return save

    def finish(self, room: Room, row: KeptRoom) -> Callable[[Connection], dict[str, Any]] | None:
        """The save of the game ``room``'s change finished, in the very transaction that keeps the
        change (`Copies`: ``row.then``): the row takes the game's id and the results."""
        save = self.saving(room)
        if save is None:
            return None
        due_at = room.due_at(self.settings.room_idle_seconds, saved=True)  # its game kept: not due for it
        extra = row.extra  # not the row, which holds this save: a cycle only a collection would free

        def then(connection: Connection) -> dict[str, Any]:
            game_id, results = save(connection)
            return {"game_id": game_id, "extra": {**extra, "results": results}, "due_at": due_at}

        return then

    async def save_if_over(self, held: Held) -> Held:
        """Keep a finished game its last change did not keep (that write failed, or it is older): a
        locked database delays it (the room's log holds the game meanwhile, and the room stays due),
        never drops it."""
        room = held.room
        save = self.saving(room)
        if save is None:
            return held
        try:
            saved, results = await to_thread.run_sync(self.games.within, save)
        except DATABASE_ERRORS:
            log.exception("room %s: the finished game could not be saved yet; retried later", room.code)
            return held
        log.info("room %s: game saved as %s", room.code, saved)

        def remember(room: Any) -> None:
            if room.game is not None:
                room.game.saved_id = saved
                room.results = results

        with contextlib.suppress(RefusedError, *DATABASE_ERRORS):
            held, _ = await self.copies.change(held, remember)  # the room remembers its game's id
        return held

    async def _close_if_idle(self, held: Held) -> bool:
        """Close a room nobody acted in for `Settings.room_idle_seconds` (and nobody watches here),
        whose game, if over, is saved; its finished game stays in the store."""
        now, idle, room = self.clock(), self.settings.room_idle_seconds, held.room
        if now - room.touched < idle:
            return False
        unsaved = room.game is not None and room.game.state.is_over and room.game.saved_id is None
        if unsaved or room.abandoned(now, idle):  # a ranked game walked away from is played out first
            return False
        if self.fanout.watched(held.code):  # watched here: looked at again in a while
            await self.copies.reschedule(held, now + SWEEP_SECONDS)
            return False
        gone = await self.copies.forget([held.code], untouched_since=now - idle)
        if gone:
            log.info("closed the abandoned room %s", held.code)
            await self.herald.tell(News(held.code, self.hub.name, closed=True))
        return bool(gone)

    async def sweep(self, now: float) -> None:
        """Let copies go that nobody needs here: a finished room nobody watches at once, any room
        nobody acted in for `Settings.room_memory_seconds` (read back when asked for); tell the other
        processes again which seats have sockets here; drop unclaimed commitments."""
        for held in self.copies:
            if held.lock.locked():
                continue
            room = held.room
            finished = room.status == "over" and room.rematch is None and not self.fanout.watched(held.code)
            if finished or now - room.touched >= self.settings.room_memory_seconds:
                self.copies.drop(held.code)
        await self.fanout.announce(now)
        with contextlib.suppress(*DATABASE_ERRORS):
            expired = datetime.fromtimestamp(now - TICKET_SECONDS, UTC)
            await to_thread.run_sync(self.kept.prune_commitments, expired)
