"""The server's game service: rooms, their listeners, bots on the server side, saving and advice.

Handlers call these coroutines; each change of a room is made under the room's
lock, then pushed to every WebSocket listening to it. A finished game is saved
to the store (committed) before anyone is told it is over.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from starlette.concurrency import run_in_threadpool

from shutthebox.core.board import Move
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.match import DiceChoice
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import SOURCE, Lang, using
from shutthebox.storage import NameTakenError, Profile, StorageError, Store
from shutthebox.web.rooms import ClientAction, Room, RoomError, Rooms, SeatSpec
from shutthebox.web.schemas import ActionIn, CreateRoom, DiceIn, JoinRoom, MoveIn
from shutthebox.web.settings import Settings
from shutthebox.web.views import room_json

__all__ = ["Listener", "Lobby", "client_action", "rules_of"]

log = logging.getLogger(__name__)
Named = TypeVar("Named")


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
    except TypeError as error:  # a value of the wrong type for dataclass replace
        raise RoomError("malformed", "rules: {error}", error=str(error)) from None


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

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.rooms = Rooms(max_rooms=settings.max_rooms, idle_seconds=settings.room_idle_seconds)

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

    async def create(self, body: CreateRoom, profile: Profile | None = None) -> tuple[Room, str]:
        """A room for ``body``; the creator's ``profile`` plays its first seat played here."""
        rules = rules_of(body)
        mine = next((i for i, s in enumerate(body.seats) if s.kind == "here"), None) if profile else None
        for index, seat in enumerate(body.seats):
            if index != mine and seat.kind != "remote":
                await self._not_a_profiles(seat.name)
        seats = [
            SeatSpec(kind=s.kind, name=s.name, bot=s.bot, profile=profile if i == mine else None)
            for i, s in enumerate(body.seats)
        ]
        room, token = self.rooms.create(
            rules, seats, rounds=body.rounds, seed=body.seed, hints=body.hints,
            ticket=body.ticket, client_seed=body.client_seed,
        )
        await self.changed(room)
        return room, token

    async def join(self, code: str, body: JoinRoom, profile: Profile | None = None) -> tuple[Room, str, int]:
        room = self.rooms.get(code)
        if profile is None:
            await self._not_a_profiles(body.name)
        async with room.lock:
            token, seat = room.join(body.name, client_seed=body.client_seed, profile=profile)
        await self.changed(room)
        return room, token, seat

    async def act(self, room: Room, token: str | None, action: ActionIn) -> None:
        """Do a client's action; a `RoomError` leaves the room as it was."""
        engine_action = client_action(action)
        async with room.lock:
            room.act(token, engine_action, action.seat)
        await self.changed(room)

    # -- after every change ---------------------------------------------------
    async def changed(self, room: Room) -> None:
        """Save a finished game, tell every listener, and let the bots play."""
        await self._save_if_over(room)
        await self.broadcast(room)
        if room.game is None or room.game.bot_to_act() is None:
            return
        if self.settings.bot_delay <= 0:
            await self.run_bots(room)
        elif room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.create_task(self.run_bots(room))

    async def run_bots(self, room: Room) -> None:
        """Play the bots' turns one action at a time, pushing each to the listeners."""
        try:
            await self._play_bots(room)
        except Exception:  # a bot that fails must not take the server down: log it, leave the room
            log.exception("room %s: a bot failed", room.code)

    async def _play_bots(self, room: Room) -> None:
        game = room.game
        while game is not None and game.bot_to_act() is not None:
            if self.settings.bot_delay > 0:
                await asyncio.sleep(self.settings.bot_delay)
            async with room.lock:
                seat, state = game.bot_to_act(), game.state
                if seat is None:
                    break
                if state.is_chance:
                    game.roll(seat)
                else:  # the solver may think for a while: off the event loop, the state held by the lock
                    game.act(await run_in_threadpool(game.bot_choice, state), seat)
            await self._save_if_over(room)
            await self.broadcast(room)

    async def _save_if_over(self, room: Room) -> None:
        async with room.lock:
            game = room.game
            if game is None or not game.state.is_over or game.saved_id is not None:
                return
            profiles = {seat.index: seat.profile for seat in room.seats if seat.profile is not None}
            await run_in_threadpool(lambda: game.save(self.store, source="web", profiles=profiles))
            log.info("room %s: game saved as %s", room.code, game.saved_id)

    async def broadcast(self, room: Room) -> None:
        for listener in list(room.listeners):
            with using(listener.lang):
                state = room_json(room, listener.token)
            if not await listener.send({"type": "state", "state": state}):
                room.listeners.discard(listener)

    # -- advice -----------------------------------------------------------------
    async def hint(self, room: Room, token: str | None) -> dict[str, Any]:
        """The solver's ranked choices for the seat whose turn it is (its own token only); the seat's
        turns of this game then count for no best."""
        if not room.hints:
            raise RoomError("hints-off", "hints are off in room {code}", code=room.code)
        game, seat = room.check_actor(token)
        state = game.state
        if not state.is_decision:
            raise RoomError(
                "no-decision", "hints are for choosing dice or tiles; now {state}", state=state.describe()
            )
        from shutthebox.strategy.advice import advise

        advice = await run_in_threadpool(advise, state)
        game.assist(seat)  # the others see it with the next state pushed
        result: dict[str, Any] = advice.to_json()
        return result

    async def review(self, room: Room) -> dict[str, Any]:
        """The review of the room's finished game, computed once."""
        if room.game is None or not room.game.state.is_over:
            raise RoomError("not-over", "the game in room {code} is not over yet", code=room.code)
        if room.review is None:
            room.review = await run_in_threadpool(review_json, room.game.record())
        return room.review


def review_json(record: Any) -> dict[str, Any]:
    """The solver's review of a record, as JSON."""
    from shutthebox.strategy.review import review

    result: dict[str, Any] = review(record).to_json()
    return result
