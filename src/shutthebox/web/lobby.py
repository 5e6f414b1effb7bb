"""The server's game service: rooms kept durably, their listeners, bots and clocks, saving, advice.

Handlers call these coroutines. Each change of a room is made under the room's
lock and committed to the store (`storage.rooms`) before anyone is told: the
caller's answer, then every WebSocket listening. A write that fails puts the
room back as the store holds it and refuses the action (503), so nothing
acknowledged is ever lost and nothing refused ever shows. At start every room
the store holds is replayed (`Lobby.resume`); a ticker plays the clocks, the
rematches, the bots that were interrupted, closes abandoned rooms and saves any
finished game a locked database delayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from shutthebox.core.board import Move
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.fair import FairDice
from shutthebox.core.match import DiceChoice, Match
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import SOURCE, Lang, using
from shutthebox.storage import NameTakenError, Profile, StorageError, Store
from shutthebox.storage.rooms import ConflictError, RoomStore, StorageBusyError
from shutthebox.web.advisor import Advisor
from shutthebox.web.rooms import (
    TICKET_SECONDS,
    ClientAction,
    Room,
    RoomError,
    Rooms,
    SeatSpec,
    check_client_seed,
    rematch_room,
)
from shutthebox.web.schemas import ActionIn, CreateRoom, DiceIn, JoinRoom, MoveIn
from shutthebox.web.settings import Settings
from shutthebox.web.views import room_json

__all__ = ["Listener", "Lobby", "client_action", "rules_of"]

if TYPE_CHECKING:
    from shutthebox.strategy.advice import Advice

log = logging.getLogger(__name__)
Named = TypeVar("Named")
WRITE_ERRORS = (StorageBusyError, ConflictError, SQLAlchemyError)
SWEEP_SECONDS = 30.0
"""How often abandoned rooms are closed, and delayed saves retried."""


class Sender(Protocol):
    async def send_json(self, data: Any, mode: str = "text") -> None: ...


@dataclass(eq=False)
class Listener:
    """A WebSocket listening to a room, with the token it came with (or none) and its reader's language."""

    socket: Sender
    token: str | None
    lang: Lang = SOURCE

    async def send(self, data: dict[str, Any]) -> bool:
        try:
            await self.socket.send_json(data)
        except Exception:  # a closed socket: drop it
            return False
        return True


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
    """Rooms, the store and the settings of one server."""

    def __init__(self, settings: Settings, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.store = store
        self.kept = RoomStore(store.engine)
        self.rooms = Rooms(max_rooms=settings.max_rooms)
        self.advisor = Advisor(max_cells=settings.hint_max_cells, max_bytes=settings.hint_max_bytes)
        self.clock = clock
        self._ticker: asyncio.Task[None] | None = None
        self._swept = 0.0

    # -- start and stop -----------------------------------------------------------
    def resume(self) -> int:
        """Bring back every room the store holds, as it was; how many."""
        for kept in self.kept.open_rooms():
            try:
                room = Room.restore(kept)
            except Exception:  # one room that no longer replays must not keep the server down
                log.exception("room %s does not replay; left in the store", kept.code)
                continue
            room.arm_clock(self.clock())  # the seat to act gets its full time again
            self.rooms.add(room)
        return len(self.rooms)

    def start(self) -> None:
        """Run the ticker (clocks, rematches, bots, sweeping) on the running event loop."""
        self._ticker = asyncio.create_task(self._tick_forever())

    async def stop(self) -> None:
        tasks = [t for t in [self._ticker, *(room.bot_task for room in self.rooms)] if t is not None]
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
        """Run out clocks, settle rematches, restart interrupted bots; now and then sweep."""
        now = self.clock()
        for room in self.rooms:
            if room.stale:
                continue
            room.arm_clock(now)  # a clock some failed change left unarmed runs again
            if room.deadline is not None and now >= room.deadline:
                await self._background(room, self.time_out(room))
            if room.rematch_due(now):
                with contextlib.suppress(RoomError):  # a full server or a failed write: next tick
                    await self.settle_rematch(room)
            if room.game is not None and room.game.bot_to_act() is not None and not room.adjourned \
                    and (room.bot_task is None or room.bot_task.done()):
                await self._wake_bots(room)
        if now - self._swept >= SWEEP_SECONDS:
            self._swept = now
            await self.sweep(now)

    # -- keeping ---------------------------------------------------------------------
    async def _keep(self, room: Room) -> None:
        """Commit the room's change to the store; if that fails, the room goes back to what the
        store holds and the change is refused (nothing of it was acknowledged)."""
        kept, new = room.kept(), room.unkept()
        try:
            await run_in_threadpool(self.kept.keep, kept, new)
        except WRITE_ERRORS:
            log.exception("room %s: a change could not be kept; it is undone", room.code)
            await self._reload(room)
            raise RoomError("busy", "the server could not keep this action; nothing changed: try again") \
                from None
        room.kept_events = len(room.log)

    async def _reload(self, room: Room) -> None:
        room.stale = True
        try:
            kept = await run_in_threadpool(self.kept.get, room.code)
        except WRITE_ERRORS:
            return  # still stale: served again once the store answers (`fresh`)
        if kept is not None:
            room.take_state_of(Room.restore(kept))
            room.arm_clock(self.clock())  # the seat to act has its time again
        room.stale = False

    async def fresh(self, code: str) -> Room:
        """The room ``code``, reloaded from the store first if a write of it failed."""
        room = self.rooms.get(code)
        if room.stale:
            async with room.lock:
                if room.stale:
                    await self._reload(room)
            if room.stale:
                raise RoomError(
                    "busy", "room {code} is being restored; try again in a moment", code=room.code
                )
        return room

    # -- profiles ---------------------------------------------------------------
    async def profile(self, key: str | None) -> Profile | None:
        """The profile whose secret key is ``key`` (None for no key); an unknown key is refused."""
        if not key:
            return None
        found = await run_in_threadpool(self.store.profile, key)
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
        return await self._naming(lambda: self.store.create_profile(name))

    async def rename_profile(self, key: str | None, name: str) -> Profile:
        await self.my_profile(key)
        assert key is not None
        return await self._naming(lambda: self.store.rename_profile(key, name))

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
        holder = await run_in_threadpool(self.store.holder, name)
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

    async def create(
        self, body: CreateRoom, profile: Profile | None = None, owner: str | None = None
    ) -> tuple[Room, str]:
        """A room for ``body``, kept before it is told; the creator's ``profile`` plays its first
        seat played here; ``owner`` is the creator's address (a cap on rooms in play each)."""
        rules = rules_of(body)
        mine = next((i for i, s in enumerate(body.seats) if s.kind == "here"), None) if profile else None
        for index, seat in enumerate(body.seats):
            if index != mine and seat.kind != "remote":
                await self._not_a_profiles(seat.name)
        seats = [
            SeatSpec(kind=s.kind, name=s.name, bot=s.bot, profile=profile if i == mine else None)
            for i, s in enumerate(body.seats)
        ]
        self.rooms.check_space(owner, self.settings.max_rooms_per_client)
        room, token = self.rooms.build(  # every refusal of the setup comes before a ticket is spent
            rules, seats, rounds=body.rounds, seed=body.seed, hints=body.hints,
            turn_seconds=self._turn_seconds(body), on_leave=body.on_leave,
        )
        room.owner = owner
        room.dice = await self._dice_for(body)
        room.start_if_ready()
        await self._add(room)
        await self.changed(room)
        return room, token

    async def _add(self, room: Room) -> None:
        """Keep a new room, then list it."""
        while await run_in_threadpool(self.kept.has, room.code):
            room.code = self.rooms.new_code()  # a room only the store still holds
        await self._write(self.kept.keep, room.kept(), room.unkept())
        room.kept_events = len(room.log)
        self.rooms.add(room)

    async def join(self, code: str, body: JoinRoom, profile: Profile | None = None) -> tuple[Room, str, int]:
        room = await self.fresh(code)
        if profile is None:
            await self._not_a_profiles(body.name)
        async with room.lock:
            token, seat = room.join(body.name, client_seed=body.client_seed, profile=profile)
            await self._keep(room)
        await self.changed(room)
        return room, token, seat

    async def act(self, room: Room, token: str | None, action: ActionIn) -> None:
        """Do a client's action, kept before it is told; a `RoomError` leaves the room as it was."""
        engine_action = client_action(action)
        async with room.lock:
            room.act(token, engine_action, action.seat)
            await self._keep(room)
        await self.changed(room)

    async def rematch(self, room: Room, token: str | None, accept: bool, client_seed: str | None) -> None:
        """Offer a rematch, or answer one, for the token's seats."""
        async with room.lock:
            room.answer_rematch(token, accept, client_seed, now=self.clock(),
                                seconds=self.settings.rematch_seconds)
            await self._keep(room)
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
            if not room.rematch_due(self.clock()):
                return
            rematch = room.rematch
            assert rematch is not None
            answers = dict(rematch.answers)
            self.rooms.check_space()
            code = self.rooms.new_code()
            while await run_in_threadpool(self.kept.has, code):
                code = self.rooms.new_code()
            new = rematch_room(room, code)
            if new is not None:
                rematch.code = new.code
            else:
                rematch.answers = {s: bool(a) for s, a in answers.items()}  # unanswered: declined
            writes = [(room.kept(), room.unkept())]
            if new is not None:
                writes.append((new.kept(), new.unkept()))
            try:
                await run_in_threadpool(self.kept.keep_all, writes)
            except WRITE_ERRORS:
                log.exception("room %s: the rematch could not be kept; tried again later", room.code)
                rematch.code, rematch.answers = None, answers
                raise RoomError("busy", "the server could not keep this; nothing changed: try again") \
                    from None
            room.kept_events = len(room.log)
            if new is not None:
                new.kept_events = len(new.log)
                self.rooms.add(new)
        if new is not None:
            await self.changed(new)
        await self.broadcast(room)

    # -- after every change ---------------------------------------------------
    async def changed(self, room: Room) -> None:
        """Save a finished game, arm the clock, tell every listener, and let the bots play."""
        await self._save_if_over(room)
        room.arm_clock(self.clock())
        await self.broadcast(room)
        await self._wake_bots(room)

    async def _wake_bots(self, room: Room) -> None:
        if room.game is None or room.game.bot_to_act() is None or room.adjourned is not None:
            return
        await self._background(room, self.run_bots(room))

    async def _background(self, room: Room, work: Coroutine[Any, Any, None]) -> None:
        """Let the room's bots (or a stand-in) play: at once when bots do not pause (tests), else as
        the room's one task, so people can follow each action."""
        if self.settings.bot_delay <= 0:
            await work
        elif room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.create_task(work)
        else:
            work.close()  # one is playing already

    async def run_bots(self, room: Room) -> None:
        """Play the bots' turns one action at a time, pushing each to the listeners."""
        try:
            await self._play_bots(room)
        except RoomError as error:  # a write failed: the ticker wakes the bots again later
            log.warning("room %s: the bots stopped: %s", room.code, error.code)
        except Exception:  # a bot that fails must not take the server down: log it, leave the room
            log.exception("room %s: a bot failed", room.code)

    async def _play_bots(self, room: Room) -> None:
        game = room.game
        while game is not None and game.bot_to_act() is not None and not room.stale:
            if self.settings.bot_delay > 0:
                await asyncio.sleep(self.settings.bot_delay)
            async with room.lock:
                if room.game is not game:
                    return  # reloaded meanwhile: the ticker starts over
                seat, state = game.bot_to_act(), game.state
                if seat is None:
                    break
                by = "clock" if room.seats[seat].stand_in else None
                if state.is_chance:
                    room.apply(seat, "roll", by=by)
                else:  # the solver may think for a while: off the event loop, the state held by the lock
                    room.apply(seat, await run_in_threadpool(self._bot_choice, room, state), by=by)
                await self._keep(room)
            await self._save_if_over(room)
            room.arm_clock(self.clock())
            await self.broadcast(room)

    def _bot_choice(self, room: Room, state: Match) -> DiceChoice | Move:
        """What the bot to act chooses; the solver's bot within the hint budget (the cheaper objective
        beyond it, the heuristic when even that is over), so no bot can hold the server for minutes."""
        game = room.game
        assert game is not None and state.actor is not None
        if room.seats[state.actor].bot != "optimal" or room.seats[state.actor].stand_in:
            return game.bot_choice(state)
        try:
            best = self.bounded_advice(state).best
        except RoomError:
            from shutthebox.strategy.bots import make_bot

            return make_bot("heuristic", random.Random(0)).choose(state)
        assert best is not None
        return best.action

    def bounded_advice(self, state: Match) -> Advice:
        """The solver's advice for ``state`` within the hint budget (see `Advisor.plan`); `RoomError`
        ``busy`` when even the cheaper objective is over it."""
        from shutthebox.strategy.advice import advise

        plan = self.advisor.plan(state)
        return advise(state, plan.objective, plan.target)

    async def time_out(self, room: Room) -> None:
        """The seat to act ran out of time: a stand-in plays the rest of its turn (or, after a second
        miss, for good or the game is adjourned)."""
        async with room.lock:
            seat = room.run_out(self.clock())
            if seat is None and room.deadline is not None:
                return  # not out of time after all (an action came first)
            await self._keep(room)
        await self.broadcast(room)
        if seat is not None:
            await self._stand_in(room, seat)
        await self.changed(room)

    async def _stand_in(self, room: Room, seat: int) -> None:
        """A bot plays ``seat``'s turn until it ends, each action marked as the clock's."""
        from shutthebox.web.rooms import stand_in_bot

        game = room.game
        assert game is not None
        bot = stand_in_bot(game, seat)
        async with room.lock:
            turn = room.turn_of()
        while not room.stale and room.game is game and room.turn_of() == turn and not game.state.is_over:
            if self.settings.bot_delay > 0:
                await asyncio.sleep(self.settings.bot_delay)
            async with room.lock:
                if room.game is not game or room.turn_of() != turn or game.state.is_over:
                    break
                state = game.state
                if state.is_chance:
                    room.apply(seat, "roll", by="clock")
                else:
                    room.apply(seat, await run_in_threadpool(bot.choose, state), by="clock")
                await self._keep(room)
            await self._save_if_over(room)
            await self.broadcast(room)

    async def _save_if_over(self, room: Room) -> None:
        """Keep a finished game in the store; a locked database delays it (the room's log holds the
        game meanwhile, and the sweep tries again), never drops it."""
        async with room.lock:
            game = room.game
            if game is None or not game.state.is_over or game.saved_id is not None:
                return
            profiles = {seat.index: seat.profile for seat in room.seats if seat.profile is not None}
            try:
                await run_in_threadpool(
                    lambda: game.save(self.store, source="web", profiles=profiles, origin=room.origin)
                )
            except WRITE_ERRORS:
                log.exception("room %s: the finished game could not be saved yet; retried later", room.code)
                return
            log.info("room %s: game saved as %s", room.code, game.saved_id)
            with contextlib.suppress(RoomError):
                await self._keep(room)  # the room remembers its game's id

    async def sweep(self, now: float) -> None:
        """Save finished games a locked database delayed; close rooms nobody touched for
        `Settings.room_idle_seconds` and nobody watches; drop unclaimed commitments."""
        idle = self.settings.room_idle_seconds
        closing = []
        for room in self.rooms:
            await self._save_if_over(room)
            unsaved = room.game is not None and room.game.state.is_over and room.game.saved_id is None
            if now - room.touched > idle and not room.listeners and not unsaved:
                closing.append(room)
        if closing:
            with contextlib.suppress(*WRITE_ERRORS):
                await run_in_threadpool(self.kept.forget, [room.code for room in closing])
                for room in closing:
                    self.rooms.drop(room.code)
                    if room.bot_task is not None:
                        room.bot_task.cancel()
                log.info("closed %d abandoned rooms", len(closing))
        with contextlib.suppress(*WRITE_ERRORS):
            expired = datetime.fromtimestamp(now - TICKET_SECONDS, UTC)
            await run_in_threadpool(self.kept.prune_commitments, expired)

    async def broadcast(self, room: Room) -> None:
        if room.stale:
            return
        for listener in list(room.listeners):
            with using(listener.lang):
                state = room_json(room, listener.token, self.clock())
            if not await listener.send({"type": "state", "state": state}):
                room.listeners.discard(listener)

    # -- advice -----------------------------------------------------------------
    async def hint(self, room: Room, token: str | None) -> dict[str, Any]:
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
        advice = await self.advisor.advise(state)  # bounded, shared, cached; a refusal is no hint taken
        async with room.lock:
            if room.game is not game or game.state is not state:
                raise RoomError("wrong-turn", "the game moved on while the hint was computed; ask again")
            room.assist(seat)  # the others see it with the next state pushed
            await self._keep(room)
        return advice

    async def review(self, room: Room) -> dict[str, Any]:
        """The review of the room's finished game, computed once."""
        if room.game is None or not room.game.state.is_over:
            raise RoomError("not-over", "the game in room {code} is not over yet", code=room.code)
        if room.review is None:
            room.review = await run_in_threadpool(review_json, room.game.record(), self.bounded_advice)
        return room.review


def review_json(record: Any, advise_with: Callable[[Match], Advice]) -> dict[str, Any]:
    """The solver's review of a record, as JSON, each decision advised by ``advise_with``."""
    from shutthebox.strategy.review import review

    result: dict[str, Any] = review(record, advise_with).to_json()
    return result
