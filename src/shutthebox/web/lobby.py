"""The server's game service: rooms kept durably, their listeners, bots and clocks, saving, advice.

Handlers call these coroutines. Each change of a room is made under the room's
lock and committed to the store (`storage.rooms`) before anyone is told: the
caller's answer, then every WebSocket listening. A write that fails puts the
room back as the store holds it and refuses the action (503), so nothing
acknowledged is ever lost and nothing refused ever shows. At start every room
the store holds is replayed (`Lobby.resume`); a ticker plays the clocks, the
rematches, the bots that were interrupted, closes abandoned rooms and saves any
finished game a locked database delayed. While the processes of a server are out
of touch (Redis away, see `web.hub`) rooms are refused with 503 ``shared-down``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from shutthebox.core.board import Move
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.fair import FairDice
from shutthebox.core.game import ROLL, Due, Game, Step, Wait
from shutthebox.core.match import DiceChoice
from shutthebox.core.record import GameRecord
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import SOURCE, Lang, using
from shutthebox.storage import Database, GameRepository, NameTakenError, Profile, StorageError
from shutthebox.storage.database import StorageBusyError
from shutthebox.storage.profiles import ProfileRepository
from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomRepository, token_hash
from shutthebox.strategy import jobs
from shutthebox.strategy.bots import solves
from shutthebox.strategy.review import Review
from shutthebox.web.advisor import Advisor
from shutthebox.web.daily import DailyDesk
from shutthebox.web.door import SolverDoor
from shutthebox.web.hub import Hub, News, hub_for
from shutthebox.web.rooms import (
    TICKET_SECONDS,
    ClientAction,
    Room,
    RoomError,
    Rooms,
    SeatSpec,
    check_client_seed,
    rematch_room,
    well_formed,
)
from shutthebox.web.schemas import ActionIn, CreateRoom, DiceIn, JoinRoom, MoveIn
from shutthebox.web.settings import Settings
from shutthebox.web.trainer import TrainerDesk
from shutthebox.web.views import room_json

__all__ = ["Listener", "Lobby", "client_action", "rules_of"]

log = logging.getLogger(__name__)
Named = TypeVar("Named")
WRITE_ERRORS = (StorageBusyError, ConflictError, SQLAlchemyError)
SWEEP_SECONDS = 30.0
"""How often idle copies of rooms leave memory, and unclaimed commitments are dropped."""
LEASE_SECONDS = 30.0
"""How long a process holds a room's work without renewing it (a process that dies holding it
frees it after this)."""
CHANGE_TRIES = 5
"""How often a change is made again over a room another process changed first."""
BOTS_DUE = (Wait.CHANCE, Wait.BOT)
"""What a room's background work plays: the bots' rolls and choices."""


class Sender(Protocol):
    async def send_json(self, data: Any, mode: str = "text") -> None: ...


@dataclass(eq=False)
class Listener:
    """A WebSocket listening to a room: the token it came with (or none), the seats that token
    holds, its reader's language, the messages waiting for it (bounded: see `push`), its address."""

    token: str | None
    seats: tuple[int, ...] = ()
    lang: Lang = SOURCE
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(64))
    dropped: asyncio.Event = field(default_factory=asyncio.Event)
    address: str = "unknown"  # the client's, whom its solver work is counted against

    def push(self, message: dict[str, Any]) -> bool:
        """Queue ``message`` without waiting; a socket whose queue is full is too slow: it is
        dropped (its client may reconnect) rather than waited for. False when dropped."""
        if self.dropped.is_set():
            return False
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped.set()
            return False
        return True

    async def pump(self, socket: Sender) -> None:
        """Send the queued messages in order, until the socket closes."""
        while True:
            await socket.send_json(await self.queue.get())


def rules_of(body: CreateRoom) -> Rules:
    """The rules a create request asks for: the preset with each option over it."""
    options = dict(body.rules)
    try:
        rules = Rules.preset(body.preset, **options)
        if "mode" not in options and len(body.seats) == 1 and rules.mode is Mode.ROUND:
            rules = rules.but(mode=Mode.SOLO)  # one player alone plays solo (rules §5.1)
        return rules
    except ShutTheBoxError as error:
        raise RoomError("malformed", "{error}", error=error) from None
    except TypeError:  # an option that is no rule option (dataclass replace says which, in English)
        raise RoomError(
            "malformed", "rules: unknown option; the options are {names}", names=", ".join(Rules().to_dict())
        ) from None


def client_action(action: ActionIn) -> ClientAction:
    """The engine action for a request body; tiles outside 1-12 or repeated are malformed."""
    if isinstance(action, DiceIn):
        return DiceChoice(action.count)
    if isinstance(action, MoveIn):
        try:
            return Move.of(action.tiles)
        except ShutTheBoxError as error:
            raise RoomError("malformed", "tiles {tiles}: {error}", tiles=action.tiles, error=error) from None
    return "roll"


class Lobby:
    """The rooms, the database and the settings of one server process (one of several, with a shared
    `Hub`)."""

    def __init__(
        self, settings: Settings, database: Database, *, clock: Callable[[], float] = time.time,
        hub: Hub | None = None,
    ) -> None:
        self.settings = settings
        self.database = database
        self.games = GameRepository(database)
        self.profiles = ProfileRepository(database)
        self.kept = RoomRepository(database)
        self.hub: Hub = hub if hub is not None else hub_for(settings.redis_url)
        self.rooms = Rooms()
        self.listeners: dict[str, set[Listener]] = {}
        self.elsewhere: dict[str, dict[str, tuple[tuple[int, ...], float]]] = {}
        """Seats with a socket in other processes: room code → process → (seats, when heard)."""
        self.door = SolverDoor(
            processes=settings.solver_processes, cells_per_minute=settings.solver_cells_per_minute,
            waiting=settings.solver_queue,
        )
        self.advisor = Advisor(
            max_cells=settings.hint_max_cells, max_bytes=settings.hint_max_bytes, door=self.door
        )
        self.clock = clock
        self.started = clock()
        self._ticker: asyncio.Task[None] | None = None
        self._work: set[asyncio.Task[None]] = set()
        self._swept = 0.0
        self._away = False
        """The hub was out of touch when it last said news was missed (see `missed`)."""
        self.resumed = 0.0
        """When the processes were last in touch again after being out of touch: a turn clock that
        ran out before then ran out while its seat was refused, so it starts over."""
        self.daily = DailyDesk(self)
        self.trainer = TrainerDesk(self)

    # -- start and stop -----------------------------------------------------------
    async def start(self) -> None:
        """Join the other processes (if any) and run the ticker (clocks, rematches, bots, closing)."""
        from shutthebox.storage.names import look_alike_keys

        await run_in_threadpool(look_alike_keys, "")  # its table is read once, now, not in a request
        await self.hub.start(self.hear, self.missed)
        self._ticker = asyncio.create_task(self._tick_forever())

    async def stop(self) -> None:
        tasks = [t for t in [self._ticker, *self._work] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.hub.stop()

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.tick()
            except Exception:  # the ticker must outlive any one room's trouble
                log.exception("the room ticker failed")

    async def tick(self) -> None:
        """Look at every room the store says is due (a clock run out, a rematch to settle, a bot to
        play, a game to save, an idle room to close): each by the one process that takes its lease.
        Now and then, let idle copies go and drop unclaimed commitments."""
        now = self.clock()
        try:
            due = await run_in_threadpool(self.kept.due, now)
        except WRITE_ERRORS:
            log.exception("the rooms due could not be read")
            due = []
        for code in due:
            await self._wake(code)
        if now - self._swept >= SWEEP_SECONDS:
            self._swept = now
            await self.sweep(now)

    # -- the copies of rooms this process holds ---------------------------------------
    async def fresh(self, code: str, version: int = 0) -> Room:
        """The room ``code`` as the store holds it (at least at ``version``, a version a client saw):
        the copy held here, caught up first if it is behind, else read from the store. Refused while
        the processes are out of touch: no copy can be known fresh, nor a change told to the others."""
        self.check_in_touch()
        room = self.rooms.find(code)
        if room is None:
            return await self._load(code)
        if room.stale or room.behind or room.version < version:
            async with room.lock:
                if room.stale:
                    await self._reload(room)
                elif room.behind or room.version < version:
                    await self._catch_up(room)
            if room.stale:
                raise RoomError(
                    "busy", "room {code} is being restored; try again in a moment", code=room.code
                )
        return room

    def check_in_touch(self) -> None:
        """Refuse rooms (503 ``shared-down``) while this process cannot hear the others (Redis away):
        nothing is changed, and play resumes by itself once they are in touch again."""
        if not self.hub.in_touch:
            raise RoomError(
                "shared-down",
                "the server cannot reach Redis, which its processes share: rooms wait until it answers "
                "again; try again in a moment",
            )

    async def _load(self, code: str) -> Room:
        try:
            kept = await run_in_threadpool(self.kept.get, well_formed(code))
        except WRITE_ERRORS:
            log.exception("room %s could not be read", code)
            raise RoomError("busy", "the server could not read room {code}; try again", code=code) from None
        if kept is None:
            raise RoomError("not-found", "there is no room {code!r}", code=well_formed(code))
        return self.rooms.add(self._restored(kept))

    def _restored(self, kept: KeptRoom) -> Room:
        """The room ``kept`` replayed; when one process serves alone, a clock armed before it started
        starts over (the seat to act has its full time again: the server was down, not the player)."""
        try:
            room = Room.restore(kept)
        except Exception:  # a room that no longer replays must not take the server down
            log.exception("room %s does not replay; left in the store", kept.code)
            raise RoomError("busy", "room {code} cannot be restored; try again later", code=kept.code) \
                from None
        if not self.hub.shared and room.deadline is not None and room.turn_seconds is not None \
                and room.deadline - room.turn_seconds < self.started:
            room.deadline = room.clock_mark = None
            room.arm_clock(self.clock())
        return room

    async def _reload(self, room: Room) -> None:
        """Put the copy back to what the store holds, whole (after a write that failed: the copy holds
        a change nobody was told of)."""
        room.stale = True
        try:
            kept = await run_in_threadpool(self.kept.get, room.code)
        except WRITE_ERRORS:
            return  # still stale: served again once the store answers (`fresh`)
        if kept is None:
            self._closed(room.code)
            raise RoomError("not-found", "there is no room {code!r}", code=room.code)
        room.take_state_of(self._restored(kept))

    async def _catch_up(self, room: Room) -> None:
        """Bring a copy another process moved on to the store's state: only the new actions replayed."""
        try:
            kept = await run_in_threadpool(self.kept.get, room.code, room.kept_events)
        except WRITE_ERRORS:
            log.exception("room %s could not be read", room.code)
            return
        if kept is None:
            self._closed(room.code)
            raise RoomError("not-found", "there is no room {code!r}", code=room.code)
        if kept.version == room.version:
            room.behind = False
            return
        try:
            room.catch_up(kept)
        except Exception:  # it does not follow on (the copy was behind more than it knew): whole
            log.warning("room %s: caught up by a whole replay", room.code)
            await self._reload(room)

    def _closed(self, code: str) -> None:
        self.rooms.drop(code)

    # -- news from the other processes ------------------------------------------------
    async def hear(self, news: News) -> None:
        """Another process changed a room, closed it, or has sockets on new seats of it."""
        if news.seats is not None:
            held = self.elsewhere.setdefault(news.code, {})
            if news.seats:
                held[news.sender] = (news.seats, self.clock())
            else:
                held.pop(news.sender, None)
        room = self.rooms.find(news.code)
        if news.closed:
            self.rooms.drop(news.code)
            return
        if room is None:
            return
        if news.version is not None and news.version > room.version:
            if not self.listeners.get(room.code):
                room.behind = True  # caught up when someone asks for it
                return
            async with room.lock:
                await self._catch_up(room)
        await self.broadcast(room)

    async def missed(self) -> None:
        """News may have been lost (the hub reconnected, lost Redis, or has it back): every copy here
        may be behind, all marked so before anything else (no request comes between). Those with
        sockets catch up now and tell them; the others when next asked for. Back in touch after being
        out of it, the clocks that ran out meanwhile start over (see `resumed`)."""
        for room in self.rooms:
            room.behind = True
        if not self.hub.in_touch:
            self._away = True
        elif self._away:
            self._away, self.resumed = False, self.clock()
        for room in list(self.rooms):
            if self.listeners.get(room.code):
                try:
                    async with room.lock:
                        await self._catch_up(room)
                except RoomError:  # closed meanwhile
                    continue
                await self.broadcast(room)

    async def _tell(self, news: News) -> None:
        """Tell the other processes; news that does not get there leaves their copies behind until a
        write of theirs is refused as stale: never wrong, only later."""
        if not self.hub.shared:
            return
        try:
            await self.hub.publish(news)
        except Exception:
            log.exception("room %s: the news could not be published", news.code)

    # -- keeping ---------------------------------------------------------------------
    def _due(self, room: Room) -> float:
        """When a server must next look at the room: now for a bot to play or a game to save, its
        clock, its rematch, else when it will have been idle long enough to close."""
        times = [room.touched + self.settings.room_idle_seconds]
        if room.deadline is not None:
            times.append(room.deadline)
        if room.rematch is not None and room.rematch.code is None:  # due at once when all answered
            times.append(0.0 if room.rematch.settled else room.rematch.deadline)
        game = room.game
        if game is not None and room.adjourned is None and game.due().wait in BOTS_DUE:
            times.append(0.0)
        if game is not None and not game.state.is_over and room.closes_at is not None:
            times.append(room.closes_at)
        if game is not None and game.state.is_over and game.saved_id is None:
            times.append(0.0)
        return min(times)

    def _snapshot(self, room: Room) -> KeptRoom:
        room.arm_clock(self.clock())
        room.due_at = self._due(room)
        return room.kept()

    async def _keep(self, room: Room) -> None:
        """Commit the room's change to the store over the version this copy holds. If that fails the
        copy goes back to what the store holds and the change is refused: `ConflictError` when
        another process changed the room first (the change may be made again over its state),
        `RoomError` busy otherwise. Nothing of a refused change was told to anyone."""
        room.touched = self.clock()
        kept, new = self._snapshot(room), room.unkept()
        try:
            room.version = await run_in_threadpool(self.kept.keep, kept, new)
        except ConflictError:
            await self._reload(room)
            raise
        except WRITE_ERRORS:
            log.exception("room %s: a change could not be kept; it is undone", room.code)
            await self._reload(room)
            raise RoomError("busy", "the server could not keep this action; nothing changed: try again") \
                from None
        room.kept_events = len(room.log)
        held = self.rooms.find(room.code)
        if held is not None and held is not room:
            held.behind = True  # another copy here (read while this one was busy) is behind now
        await self._tell(News(room.code, self.hub.name, version=room.version))

    async def _change(self, room: Room, change: Callable[[Room], Awaitable[Named]]) -> Named:
        """Make ``change`` to the room under its lock and keep it; when another process changed the
        room first, made again over the fresh state (so of two identical actions racing from two
        processes, one applies and the other is judged against the new state: refused)."""
        for _attempt in range(CHANGE_TRIES):
            async with room.lock:
                if room.stale:
                    await self._reload(room)
                elif room.behind:
                    await self._catch_up(room)
                result = await change(room)  # a `RoomError` here changed nothing
                try:
                    await self._keep(room)
                except ConflictError:
                    continue
                return result
        raise RoomError("busy", "room {code} is changing fast: try again", code=room.code)

    # -- profiles ---------------------------------------------------------------
    async def profile(self, key: str | None) -> Profile | None:
        """The profile whose secret key is ``key`` (None for no key); an unknown key is refused."""
        if not key:
            return None
        found = await run_in_threadpool(self.profiles.by_key, key)
        if found is None:
            raise RoomError("no-profile", "no player profile has this key; create one first")
        return found

    async def my_profile(self, key: str | None) -> Profile:
        """The profile of ``key``, which must be given."""
        found = await self.profile(key)
        if found is None:
            raise RoomError("no-profile", "send your profile key as Authorization: Bearer <key>")
        return found

    async def create_profile(self, name: str) -> tuple[Profile, str]:
        return await self._naming(lambda: self.profiles.create(name))

    async def rename_profile(self, key: str | None, name: str) -> Profile:
        await self.my_profile(key)
        assert key is not None
        return await self._naming(lambda: self.profiles.rename(key, name))

    @staticmethod
    async def _naming(call: Callable[[], Named]) -> Named:
        """Run a store call that names a profile; its refusals as the page reads them."""
        try:
            return await run_in_threadpool(call)
        except NameTakenError as error:
            raise RoomError("name-taken", "{error}", error=error) from None
        except StorageError as error:
            raise RoomError("malformed", "{error}", error=error) from None

    # -- rooms ----------------------------------------------------------------
    async def commit(self) -> tuple[str, FairDice]:
        """Fair dice committed to before anyone's client seed is known, kept under the ticket that
        claims them for a new room (once, within `TICKET_SECONDS`)."""
        import secrets

        ticket, dice = secrets.token_urlsafe(18), FairDice()
        now = datetime.fromtimestamp(self.clock(), UTC)
        await self._write(self.kept.commit, ticket, dice.server_seed, now)
        return ticket, dice

    async def _dice_for(self, body: CreateRoom) -> FairDice | None:
        """The room's dice: committed under the ticket with the creator's client seed added now,
        fresh ones, or none for a practice room (a chosen seed)."""
        client_seed = check_client_seed(body.client_seed)
        if body.seed is not None:
            if body.ticket is not None or client_seed is not None:
                raise RoomError(
                    "malformed", "a practice room rolls from its chosen seed: no ticket, no client seed"
                )
            return None
        if body.ticket is None:
            if client_seed is not None:
                raise RoomError(
                    "malformed",
                    "a client seed comes after the server commits: first ask POST /api/commitments",
                )
            return FairDice()
        since = datetime.fromtimestamp(self.clock() - TICKET_SECONDS, UTC)
        server_seed = await self._write(self.kept.claim, body.ticket, since)
        if server_seed is None:
            raise RoomError("malformed", "the commitment ticket is unknown or expired: ask for a new one")
        return FairDice(server_seed, [client_seed] if client_seed is not None else [])

    async def _write(self, call: Callable[..., Named], *args: Any) -> Named:
        try:
            return await run_in_threadpool(call, *args)
        except WRITE_ERRORS:
            log.exception("a write to the store failed")
            raise RoomError("busy", "the server could not keep this; nothing changed: try again") from None

    async def _not_a_profiles(self, name: str | None) -> None:
        """Refuse a guest's or a bot's name that a profile holds (or one like it): nobody passes for
        a player with an identity."""
        if not name:
            return
        holder = await run_in_threadpool(self.profiles.holder, name)
        if holder is not None:
            raise RoomError(
                "name-taken", "the name {name!r} is a player's profile ({held!r}): play under another",
                name=name, held=holder.name,
            )

    def _turn_seconds(self, body: CreateRoom) -> int | None:
        """The room's clock: as asked (0: none), else the server's default for online rooms."""
        if body.turn_seconds is not None:
            return body.turn_seconds or None
        online = any(seat.kind == "remote" for seat in body.seats)
        return self.settings.turn_seconds if online and self.settings.turn_seconds else None

    async def check_space(self, owner: str | None) -> None:
        """Refuse a new room to an address that holds `Settings.max_rooms_per_client` games in play
        (in every process: the store counts them)."""
        if owner is None:
            return
        held = await self._write(self.kept.in_play_by, token_hash(owner))
        if held >= self.settings.max_rooms_per_client:
            raise RoomError(
                "too-many", "you have {count} games in play on this server already: finish one first",
                count=self.settings.max_rooms_per_client,
            )

    async def create(
        self, body: CreateRoom, profile: Profile | None = None, owner: str | None = None
    ) -> tuple[Room, str]:
        """A room for ``body``, kept before it is told; the creator's ``profile`` plays its first
        seat played here; ``owner`` is the creator's address (a cap on rooms in play each)."""
        self.check_in_touch()  # before a commitment is spent: a room nobody could play yet
        rules = rules_of(body)
        mine = next((i for i, s in enumerate(body.seats) if s.kind == "here"), None) if profile else None
        for index, seat in enumerate(body.seats):
            if index != mine and seat.kind != "remote":
                await self._not_a_profiles(seat.name)
        seats = [
            SeatSpec(kind=s.kind, name=s.name, bot=s.bot, profile=profile if i == mine else None)
            for i, s in enumerate(body.seats)
        ]
        room, token = self.rooms.build(  # every refusal of the setup comes before a ticket is spent
            rules, seats, rounds=body.rounds, seed=body.seed, hints=body.hints,
            turn_seconds=self._turn_seconds(body), on_leave=body.on_leave,
        )
        await self.check_space(owner)
        room.dice = await self._dice_for(body)
        await self.open_room(room, owner)
        return room, token

    async def open_room(self, room: Room, owner: str | None) -> None:
        """Start a room that is built, keep it, then tell of it (``owner``: the creator's address,
        checked with `check_space` first)."""
        self.check_in_touch()
        room.owner = owner
        room.start_if_ready()
        await self._add(room)
        await self.changed(room)

    async def discard(self, room: Room) -> None:
        """Drop a room just opened whose reason to be fell through (nothing was played in it)."""
        await self._write(self.kept.forget, [room.code])
        self._closed(room.code)

    async def write(self, call: Callable[..., Named], *args: Any) -> Named:
        """A call that writes to the store, in a thread, a failure of the store said as "busy"."""
        return await self._write(call, *args)

    async def _add(self, room: Room) -> None:
        """Keep a new room (under a code no room in the store holds), then hold it."""
        for _attempt in range(CHANGE_TRIES):
            try:
                await self._write_new(room)
                self.rooms.add(room)
                return
            except ConflictError:
                room.code = self.rooms.new_code()
        raise RoomError("busy", "the server could not keep this; nothing changed: try again")

    async def _write_new(self, room: Room) -> None:
        room.touched = self.clock()
        kept = self._snapshot(room)
        try:
            room.version = await run_in_threadpool(self.kept.keep, kept, room.unkept())
        except ConflictError:
            raise
        except WRITE_ERRORS:
            log.exception("room %s could not be kept", room.code)
            raise RoomError("busy", "the server could not keep this; nothing changed: try again") from None
        room.kept_events = len(room.log)

    async def join(self, code: str, body: JoinRoom, profile: Profile | None = None) -> tuple[Room, str, int]:
        room = await self.fresh(code)
        if profile is None:
            await self._not_a_profiles(body.name)

        async def take_a_seat(room: Room) -> tuple[str, int]:
            return room.join(body.name, client_seed=body.client_seed, profile=profile)

        token, seat = await self._change(room, take_a_seat)
        await self.changed(room)
        return room, token, seat

    async def act(self, room: Room, token: str | None, action: ActionIn) -> None:
        """Do a client's action, kept before it is told; a `RoomError` leaves the room as it was."""
        engine_action = client_action(action)

        async def play(room: Room) -> None:
            room.act(token, engine_action, action.seat, now=self.clock())

        await self._change(room, play)
        await self.changed(room)

    async def rematch(self, room: Room, token: str | None, accept: bool, client_seed: str | None) -> None:
        """Offer a rematch, or answer one, for the token's seats."""

        async def answer(room: Room) -> None:
            room.answer_rematch(token, accept, client_seed, now=self.clock(),
                                seconds=self.settings.rematch_seconds)

        await self._change(room, answer)
        if room.rematch_due(self.clock()):
            try:
                await self.settle_rematch(room)
            except RoomError:  # the answer is kept: the ticker settles the rematch when it can
                log.warning("room %s: the rematch waits to be settled", room.code)
        await self.broadcast(room)

    async def settle_rematch(self, room: Room) -> None:
        """Start the rematch's room with the players who accepted (or close the offer): the new room
        and the old one's link to it are kept in one transaction, so a crash or a failed write
        never leaves two rooms dealt the same dice."""
        async with room.lock:
            if room.behind:
                await self._catch_up(room)
            if not room.rematch_due(self.clock()):
                return
            rematch = room.rematch
            assert rematch is not None
            answers = dict(rematch.answers)
            code = self.rooms.new_code()
            new = rematch_room(room, code)
            if new is not None:
                rematch.code = new.code
                new.touched = self.clock()
            else:
                rematch.answers = {s: bool(a) for s, a in answers.items()}  # unanswered: declined
            room.touched = self.clock()
            writes = [(self._snapshot(room), room.unkept())]
            if new is not None:
                writes.append((self._snapshot(new), new.unkept()))
            try:
                versions = await run_in_threadpool(self.kept.keep_all, writes)
            except WRITE_ERRORS:  # a conflict too: the ticker settles it later, over the fresh state
                log.exception("room %s: the rematch could not be kept; tried again later", room.code)
                await self._reload(room)
                raise RoomError("busy", "the server could not keep this; nothing changed: try again") \
                    from None
            room.version, room.kept_events = versions[0], len(room.log)
            if new is not None:
                new.version, new.kept_events = versions[1], len(new.log)
                self.rooms.add(new)
        await self._tell(News(room.code, self.hub.name, version=room.version))
        if new is not None:
            await self.changed(new)
        await self.broadcast(room)

    # -- after every change ---------------------------------------------------
    async def changed(self, room: Room) -> None:
        """Save a finished game, tell every listener, let the bots play; a finished room nobody
        watches here leaves memory (the store holds it)."""
        await self._save_if_over(room)
        await self.broadcast(room)
        if self._bots_to_play(room):
            await self._wake(room.code)
        if room.status == "over" and not self.listeners.get(room.code) and room.rematch is None:
            self.rooms.drop(room.code)

    @staticmethod
    def _bots_to_play(room: Room) -> bool:
        return room.game is not None and room.game.due().wait in BOTS_DUE and room.adjourned is None

    async def _wake(self, code: str) -> None:
        """Let the one process that takes the room's lease do its work (see `_look_after`): at once
        when bots do not pause (tests), else as a task of its own, so people can follow each action."""
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
        try:
            room = await self.fresh(code)
            async with room.lock:
                await self._catch_up(room)  # the store has the last word on what is due
            while not room.stale:
                now = self.clock()
                if room.closed(now) or self._abandoned(room, now):
                    await self._abandon(room)
                if room.deadline is not None and now >= room.deadline:
                    if room.deadline <= self.resumed:  # it ran out while its seat was refused
                        await self._restart_clock(room)
                        continue
                    await self.time_out(room)  # a stand-in plays that turn: see the bots below
                    continue
                if room.rematch_due(now):
                    await self.settle_rematch(room)
                if self._bots_to_play(room):
                    await self._play_bots(room, key)
                break
            await self._save_if_over(room)
            if await self._close_if_idle(room):
                return
            due = self._due(room)
            if due != room.due_at:
                await run_in_threadpool(self.kept.reschedule, room.code, room.version, due)
                room.due_at = due
        except RoomError as error:  # a write failed, or the room is gone: the next tick tries again
            log.warning("room %s: its work stopped: %s", code, error.code)
        except WRITE_ERRORS:
            log.exception("room %s: its work stopped", code)
        except Exception:  # a bot that fails must not take the server down: log it, leave the room
            log.exception("room %s: its work failed", code)
        finally:
            await self.hub.release(key)

    def _abandoned(self, room: Room, now: float) -> bool:
        """A ranked game nobody acted in for `Settings.room_idle_seconds`: walked away from. It is played
        to the end and counts as it stood (`Room.abandon`), never dropped with a bad score."""
        game = room.game
        return (
            room.kind == "ranked" and game is not None and not game.state.is_over
            and any(s.human and not s.stand_in for s in room.seats)
            and now - room.touched >= self.settings.room_idle_seconds
        )

    async def _abandon(self, room: Room) -> None:
        """Everyone still seated leaves the game (its day closed, or it was walked away from)."""

        async def leave(room: Room) -> None:
            room.abandon()

        await self._change(room, leave)
        await self.broadcast(room)

    async def _play_bots(self, room: Room, key: str) -> None:
        """Play the bots' turns one action at a time, pushing each to the listeners."""
        while self._bots_to_play(room) and not room.stale:
            if self.settings.bot_delay > 0:
                await asyncio.sleep(self.settings.bot_delay)
                if not await self.hub.renew(key, LEASE_SECONDS):
                    return  # the lease was lost (a long pause): whoever holds it plays on

            async def bot_plays(room: Room) -> None:
                game = room.game
                assert game is not None
                due = game.due()
                if due.wait not in BOTS_DUE or room.adjourned is not None:
                    return
                assert due.seat is not None
                step: Step = ROLL if due.wait is Wait.CHANCE else await self._think(room, game, due)
                room.apply(due.seat, step, by="clock" if room.seats[due.seat].human else None)

            await self._change(room, bot_plays)
            await self._save_if_over(room)
            await self.broadcast(room)

    async def _think(self, room: Room, game: Game, due: Due) -> DiceChoice | Move:
        """The choice of the bot ``due`` waits for. A solver's bot thinks through the solver's door
        (its work spent from the budget of the address that made the room); any bot that fails, is
        refused, or takes longer than its patience is replaced by its fallback (`Game.rescue`), so no
        bot can hold the server or stop a game."""
        thought = game.thought(due)
        try:
            if not solves(thought.bot):
                return await run_in_threadpool(thought)
            chosen = self.advisor.plan(due.state)
            price = self.advisor.price(due.state, chosen)
            move: DiceChoice | Move = await asyncio.wait_for(
                self.door.run(room.requester, None, price, thought), game.patience(due)
            )
        except Exception:  # whatever went wrong, the game goes on with its fallback
            log.warning("room %s: a bot's thinking failed; its fallback plays", room.code, exc_info=True)
            return game.rescue(due)
        self.advisor.warmed(due.state, chosen)
        return move

    async def review_of(self, record: GameRecord, key: Hashable, requester: str) -> Review:
        """The review of ``record``, through the solver's door (kept under ``key``)."""
        found: Review = await self.door.run(
            requester, ("review", key), self.advisor.review_price(record),
            jobs.reviewed, record, self.advisor.max_cells, self.advisor.max_bytes,
        )
        return found

    async def time_out(self, room: Room) -> int | None:
        """The seat to act ran out of time: a stand-in plays the rest of its turn (the seat, which
        `_stand_in` plays), or after a second miss for good, or the game is adjourned."""
        ran_out: list[int | None] = [None]

        async def run_out(room: Room) -> None:
            ran_out[0] = room.run_out(self.clock())

        if room.deadline is None or self.clock() < room.deadline:
            return None
        await self._change(room, run_out)
        await self.broadcast(room)
        return ran_out[0]

    async def _restart_clock(self, room: Room) -> None:
        """The seat's time ran out while its requests were refused (the processes out of touch): it
        has its full time again, every process told."""

        async def restart(room: Room) -> None:
            room.restart_clock(self.clock())

        await self._change(room, restart)
        await self.broadcast(room)

    async def _save_if_over(self, room: Room) -> None:
        """Keep a finished game in the store; a locked database delays it (the room's log holds the
        game meanwhile, and the room stays due), never drops it. The save is keyed by the room's
        origin, so two processes saving it keep it once."""
        game = room.game
        if game is None or not game.state.is_over or game.saved_id is not None:
            return
        profiles = {seat.index: seat.profile for seat in room.seats if seat.profile is not None}
        sealed = None if room.reveal_at is None else datetime.fromtimestamp(room.reveal_at, UTC)
        people = [(seat.name, seat.profile is None) for seat in room.seats if seat.human and seat.name]

        def keep() -> tuple[int, list[dict[str, Any]]]:
            before = {name: self._best_before(name, game.rules, guest=guest) for name, guest in people}
            kept = game.save(
                self.games, source="web", profiles=profiles, origin=room.origin, sealed_until=sealed
            )
            results = game.record().results([name for name, _guest in people], before)
            return kept, [result.to_json() for result in results]

        try:
            saved, results = await run_in_threadpool(keep)
        except WRITE_ERRORS:
            log.exception("room %s: the finished game could not be saved yet; retried later", room.code)
            return
        log.info("room %s: game saved as %s", room.code, saved)

        async def remember(room: Room) -> None:
            if room.game is not None:
                room.game.saved_id = saved
                room.results = results

        with contextlib.suppress(RoomError):
            await self._change(room, remember)  # the room remembers its game's id

    def _best_before(self, name: str, rules: Rules, *, guest: bool) -> int | None:
        """The best a person had under ``rules`` on this server before a game is kept (a profile's, or
        a guest's of that name): the game's `core.ranking.Result` compares with it."""
        found = self.games.bests(name, rules=rules, guest=guest, source="web")
        return found[0].score if found else None

    async def _close_if_idle(self, room: Room) -> bool:
        """Close a room nobody acted in for `Settings.room_idle_seconds` (and nobody watches here),
        whose game, if over, is saved; its finished game stays in the store."""
        now = self.clock()
        if now - room.touched < self.settings.room_idle_seconds:
            return False
        unsaved = room.game is not None and room.game.state.is_over and room.game.saved_id is None
        if unsaved or self._abandoned(room, now):  # a ranked game walked away from is played out first
            return False
        if self.listeners.get(room.code):  # watched here: looked at again in a while
            await run_in_threadpool(self.kept.reschedule, room.code, room.version, now + SWEEP_SECONDS)
            room.due_at = now + SWEEP_SECONDS
            return False
        since = datetime.fromtimestamp(now - self.settings.room_idle_seconds, UTC)
        gone = await run_in_threadpool(self.kept.forget, [room.code], since)
        if gone:
            self.rooms.drop(room.code)
            log.info("closed the abandoned room %s", room.code)
            await self._tell(News(room.code, self.hub.name, closed=True))
        return bool(gone)

    async def sweep(self, now: float) -> None:
        """Let copies go that nobody needs here: a finished room nobody watches at once, any room
        nobody acted in for `Settings.room_memory_seconds` (read back when asked for); tell the other
        processes again which seats have sockets here; drop unclaimed commitments."""
        for room in self.rooms:
            if room.lock.locked():
                continue
            watched = bool(self.listeners.get(room.code))
            finished = room.status == "over" and room.rematch is None and not watched
            if finished or now - room.touched >= self.settings.room_memory_seconds:
                self.rooms.drop(room.code)
        for code, listeners in list(self.listeners.items()):  # sockets may come and go meanwhile
            await self._tell(News(code, self.hub.name, seats=self._seats_here(listeners)))
        for held in self.elsewhere.values():
            for sender, (_seats, heard) in list(held.items()):
                if now - heard > 3 * SWEEP_SECONDS:
                    del held[sender]  # a process that stopped telling: gone
        with contextlib.suppress(*WRITE_ERRORS):
            expired = datetime.fromtimestamp(now - TICKET_SECONDS, UTC)
            await run_in_threadpool(self.kept.prune_commitments, expired)

    # -- who listens ------------------------------------------------------------
    @staticmethod
    def _seats_here(listeners: set[Listener]) -> tuple[int, ...]:
        return tuple(sorted({seat for listener in listeners for seat in listener.seats}))

    def connected(self, code: str) -> set[int]:
        """The seats with a socket open, in this process or another."""
        seats = set(self._seats_here(self.listeners.get(code, set())))
        for held, _heard in self.elsewhere.get(code, {}).values():
            seats.update(held)
        return seats

    async def listen(self, room: Room, listener: Listener) -> None:
        """A socket starts listening: it gets the state; everyone does if it brought a seat online."""
        listeners = self.listeners.setdefault(room.code, set())
        before = self._seats_here(listeners)
        listeners.add(listener)
        await self._presence(room, before)
        if listener.queue.empty():  # nobody else was told: tell it
            with using(listener.lang):
                listener.push({"type": "state", "state": self.view(room, listener.token)})

    async def leave(self, code: str, listener: Listener) -> None:
        listeners = self.listeners.get(code, set())
        before = self._seats_here(listeners)
        listeners.discard(listener)
        if not listeners:
            self.listeners.pop(code, None)
        room = self.rooms.find(code)
        if room is not None:
            await self._presence(room, before)
            if room.status == "over" and room.rematch is None and not listeners:
                self.rooms.drop(code)

    async def _presence(self, room: Room, before: tuple[int, ...]) -> None:
        now = self._seats_here(self.listeners.get(room.code, set()))
        if now != before:
            await self._tell(News(room.code, self.hub.name, seats=now))
            await self.broadcast(room)

    def check_sight(self, room: Room, token: str | None) -> None:
        """Refuse to show a sealed room (a daily challenge's, while its day lasts) to anyone but its
        player: its board and rolls are the day's dice, which everyone that day plays."""
        if room.sealed(self.clock()) and not room.seats_of(token):
            raise RoomError(
                "sealed", "room {code} is a daily challenge's: only its player sees it until the day is over",
                code=room.code,
            )

    def record(self, room: Room) -> dict[str, Any]:
        """The room's game record (the fair seed once the game is over); nobody's while sealed."""
        if room.game is None:
            raise RoomError("waiting", "the game in room {code} has not started", code=room.code)
        if room.sealed(self.clock()):
            raise RoomError(
                "sealed", "the record of room {code} shows the daily challenge's dice: it is sealed until the"
                " day is over", code=room.code,
            )
        record: dict[str, Any] = room.game.record().to_json()
        return record

    def view(self, room: Room, token: str | None) -> dict[str, Any]:
        """The room as ``token``'s seats see it now."""
        return room_json(room, token, self.clock(), self.connected(room.code))

    async def broadcast(self, room: Room) -> None:
        """Queue the room's state for every socket listening here: drawn once per seat and language
        (every spectator alike), queued without waiting (a slow socket is dropped, see `Listener`)."""
        listeners = self.listeners.get(room.code)
        if not listeners or room.stale:
            return
        now, connected = self.clock(), self.connected(room.code)
        drawn: dict[tuple[str | None, str], dict[str, Any]] = {}
        for listener in list(listeners):
            token = listener.token if listener.seats else None
            message = drawn.get((token, listener.lang))
            if message is None:
                with using(listener.lang):
                    message = {"type": "state", "state": room_json(room, token, now, connected)}
                drawn[token, listener.lang] = message
            if not listener.push(message):
                listeners.discard(listener)

    # -- advice -----------------------------------------------------------------
    async def hint(self, room: Room, token: str | None, requester: str) -> dict[str, Any]:
        """The solver's ranked choices for the seat whose turn it is (its own token only); the seat's
        turns of this game then count for no best, kept before the advice is given."""
        if not room.hints:
            raise RoomError("hints-off", "hints are off in room {code}", code=room.code)
        game, seat = room.check_actor(token)
        state = game.state
        if not state.is_decision:
            raise RoomError(
                "no-decision", "hints are for choosing dice or tiles; now {state}", state=state.describe()
            )
        advice = await self.advisor.advise(state, requester)  # priced, fair, kept; a refusal is no hint taken

        async def assisted(room: Room) -> None:
            now = room.game
            if now is None or len(now.events) != len(game.events) or now.state.actor != seat:
                raise RoomError("wrong-turn", "the game moved on while the hint was computed; ask again")
            room.assist(seat)  # the others see it with the next state pushed

        await self._change(room, assisted)
        return advice

    async def review(self, room: Room, token: str | None, requester: str) -> dict[str, Any]:
        """The review of the room's finished game, computed once (kept for the last few games); a
        sealed room's for its player only."""
        self.check_sight(room, token)
        if room.game is None or not room.game.state.is_over:
            raise RoomError("not-over", "the game in room {code} is not over yet", code=room.code)
        found = await self.review_of(room.game.record(), room.origin, requester)
        answer: dict[str, Any] = found.to_json()
        return answer
