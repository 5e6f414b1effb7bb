"""Rooms: a game in play on the server, its seats, and who may act for each seat.

A room holds a `Game` (the driver every interface shares: seeded dice, the
bots seated, every action checked by the engine, the record) and its seats.
A seat is played *here* (by whoever holds the room's creator token: one person
solo, or several people passing one device), by a *bot* (acting on the
server), or *remote* (open until someone joins with the room's code, who then
gets a token of their own). The page never decides anything: every action
goes through `Room.act`, which checks the seat and the turn, then the engine.

The dice of a room are fair (`core.fair`): the server commits to its secret
seed first (`Rooms.commit`, a ticket the creator then claims the room with, so
the creator's client seed reaches it only after the commitment), each joiner's
client seed joins it, and the seed is revealed when the game ends; such a game
is ranked. A room created with a
chosen seed is a practice room, unranked, and says so to every seat. A seat
may be played by a profile (its name is the profile's), whose ranked turns
reach the leaderboard.

Errors are `RoomError`s carrying a short code for the page and an HTTP status::

    RoomError
      no-profile 401 · not-found 404 · wrong-seat 403 · hints-off 403 · wrong-turn 409
      illegal 409 · waiting 409 · over 409 · not-over 409 · no-decision 409
      room-full 409 · name-taken 409 · malformed 422 · busy 503
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from shutthebox.core import fair
from shutthebox.core.board import Move
from shutthebox.core.dice import SeededDice
from shutthebox.core.errors import IllegalActionError, OutOfTurnError, ShutTheBoxError, plural_phrase
from shutthebox.core.fair import FairDice
from shutthebox.core.game import Game
from shutthebox.core.match import DiceChoice
from shutthebox.core.names import clean_name
from shutthebox.core.rules import Rules
from shutthebox.i18n import say

TYPE_CHECKING = False
if TYPE_CHECKING:
    from shutthebox.storage import Profile

__all__ = [
    "ALPHABET",
    "ClientAction",
    "Room",
    "RoomError",
    "Rooms",
    "Seat",
    "SeatKind",
    "SeatSpec",
    "check_client_seed",
    "check_name",
]

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: codes are read aloud
CODE_LENGTH = 5
TICKET_SECONDS = 15 * 60.0
"""How long committed dice wait for the room that claims them."""
MAX_TICKETS = 10_000
SeatKind = Literal["here", "bot", "remote"]
ClientAction = Literal["roll"] | DiceChoice | Move
"""What a client may ask for: roll the dice (the server rolls), choose dice, shut tiles."""

_STATUS = {
    "no-profile": 401,
    "not-found": 404,
    "wrong-seat": 403,
    "hints-off": 403,
    "malformed": 422,
    "busy": 503,
}


class RoomError(ShutTheBoxError):
    """A request the room refuses; ``code`` names the kind, the message (a catalog template) says why."""

    def __init__(self, code: str, template: str, /, **values: object) -> None:
        super().__init__(template, **values)
        self.code = code

    @property
    def status(self) -> int:
        return _STATUS.get(self.code, 409)

    def to_json(self) -> dict[str, str]:
        """The refusal as the page reads it, said in the language in use."""
        return {"error": self.code, "detail": say(self)}


def check_name(name: str, seat: int | None = None) -> str:
    """A player name (of ``seat``, when one is named) as `core.names.clean_name` keeps it."""
    try:
        return clean_name(name)
    except ShutTheBoxError as error:
        if seat is None:
            raise RoomError("malformed", "{error}", error=error) from None
        raise RoomError("malformed", "seat {seat}: {error}", seat=seat, error=error) from None


def look_alike(name: str, other: str) -> bool:
    """Two names a reader could take for one another (the same, or look-alikes)."""
    from shutthebox.storage.names import look_alike_keys

    return name == other or bool(look_alike_keys(name) & look_alike_keys(other))


def check_client_seed(seed: str | None) -> str | None:
    """A client seed as the fair dice take it, or `RoomError`."""
    try:
        return None if seed is None else fair.check_client_seed(seed)
    except ShutTheBoxError as error:
        raise RoomError("malformed", "{error}", error=error) from None


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for when creating a room."""

    kind: SeatKind
    name: str | None = None
    bot: str | None = None  # a bot name or a strength (easy, medium, hard, expert)
    profile: Profile | None = None  # the creator's profile plays this seat


@dataclass(slots=True)
class Seat:
    """A place at the table."""

    index: int
    kind: SeatKind
    name: str | None
    bot: str | None = None
    token: str | None = None
    profile: int | None = None

    def to_json(self, connected: bool) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "profile": self.profile,
            "joined": self.name is not None,
            "connected": connected,
        }


def resolve_bot(name: str) -> str:
    """The bot name for a bot name or a strength; `RoomError` naming the choices."""
    from shutthebox.strategy.names import bot_key

    try:
        return bot_key(name)
    except ShutTheBoxError as error:
        raise RoomError("malformed", "{error}", error=error) from None


@dataclass
class Room:
    """A game being played by its seats, with the tokens that act for them."""

    code: str
    rules: Rules
    seats: list[Seat]
    rounds: int = 1
    seed: int | None = None  # chosen: a practice room
    hints: bool = True
    dice: FairDice | None = None  # committed at creation; None in a practice room
    game: Game | None = None
    review: dict[str, Any] | None = None
    touched: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    listeners: set[Any] = field(default_factory=set)

    # -- seats and tokens ---------------------------------------------------
    def seats_of(self, token: str | None) -> tuple[int, ...]:
        """The seats ``token`` acts for (none for a spectator)."""
        if not token:
            return ()
        return tuple(s.index for s in self.seats if s.token is not None and secrets.compare_digest(
            s.token, token))

    @property
    def kind(self) -> Literal["ranked", "practice"]:
        return "practice" if self.dice is None else "ranked"

    def join(
        self, name: str | None, *, client_seed: str | None = None, profile: Profile | None = None
    ) -> tuple[str, int]:
        """Take the first open remote seat as ``name`` (a profile plays under its own name), adding
        the joiner's client seed to the dice; the new token and the seat."""
        if profile is not None:
            name = profile.name
        elif name is None:
            raise RoomError("malformed", "a name is needed to join room {code}", code=self.code)
        name = check_name(name)
        client_seed = check_client_seed(client_seed)
        open_seats = [s for s in self.seats if s.kind == "remote" and s.name is None]
        if not open_seats:
            raise RoomError("room-full", "room {code} has no open seat left", code=self.code)
        if any(look_alike(name, s.name) for s in self.seats if s.name is not None):
            raise RoomError(
                "name-taken", "the name {name!r} is already taken in room {code}", name=name, code=self.code
            )
        if profile is not None and profile.id in {s.profile for s in self.seats}:
            raise RoomError("name-taken", "your profile already plays in room {code}", code=self.code)
        if client_seed is not None and self.dice is not None:
            self.dice.add_client_seed(client_seed)
        seat = open_seats[0]
        seat.name, seat.token = name, secrets.token_urlsafe(18)
        seat.profile = profile.id if profile is not None else None
        self.start_if_ready()
        return seat.token, seat.index

    @property
    def status(self) -> Literal["waiting", "playing", "over"]:
        if self.game is None:
            return "waiting"
        return "over" if self.game.state.is_over else "playing"

    def start_if_ready(self) -> None:
        """Start the game once every seat has a player (immediately without remote seats)."""
        if self.game is not None or any(s.name is None for s in self.seats):
            return
        names = [s.name for s in self.seats if s.name is not None]
        dice = self.dice if self.dice is not None else SeededDice(self.seed)
        try:
            self.game = Game(self.rules, names, dice=dice, rounds=self.rounds)
        except ShutTheBoxError as error:
            raise RoomError("malformed", "{error}", error=error) from None
        bots = {seat.index: seat.bot for seat in self.seats if seat.kind == "bot" and seat.bot is not None}
        if bots:
            from shutthebox.strategy.bots import seat_bots

            self.game.bots.update(seat_bots(bots, self.game.bot_seed))

    # -- acting -------------------------------------------------------------
    def playing(self) -> Game:
        """The game, or `RoomError` when it has not started or is over."""
        if self.game is None:
            waiting = sum(1 for s in self.seats if s.name is None)
            players = plural_phrase("{count} more player to join", "{count} more players to join", waiting)
            raise RoomError("waiting", "room {code} waits for {players}", code=self.code, players=players)
        if self.game.state.is_over:
            raise RoomError("over", "the game in room {code} is over", code=self.code)
        return self.game

    def check_actor(self, token: str | None, seat: int | None = None) -> tuple[Game, int]:
        """The game and the acting seat, if ``token`` may act now (for ``seat``, when named)."""
        game = self.playing()
        held = self.seats_of(token)
        if not held:
            raise RoomError("wrong-seat", "this token holds no seat in room {code}", code=self.code)
        if seat is not None and seat not in held:
            who = self.seats[seat].name if 0 <= seat < len(self.seats) else None
            raise RoomError(
                "wrong-seat", "seat {seat} ({name}) is not yours in room {code}",
                seat=seat, name=who or "-", code=self.code,
            )
        actor = game.state.actor
        assert actor is not None
        if actor not in held or (seat is not None and seat != actor):
            raise RoomError("wrong-turn", "it is not your turn: {state}", state=game.state.describe())
        return game, actor

    def act(self, token: str | None, action: ClientAction, seat: int | None = None) -> None:
        """Do ``action`` for the token's seat whose turn it is; nothing changes if it raises."""
        game, actor = self.check_actor(token, seat)
        self.touched = time.monotonic()
        try:
            if action == "roll":
                game.roll(actor)
            else:
                game.act(action, actor)
        except OutOfTurnError as error:
            raise RoomError("wrong-turn", "{error}", error=error) from None
        except IllegalActionError as error:
            raise RoomError("illegal", "{error}", error=error) from None
        except ShutTheBoxError as error:
            raise RoomError("malformed", "{error}", error=error) from None
        self.review = None


class Rooms:
    """Every room of the server, by code; old rooms are dropped to make space."""

    def __init__(self, *, max_rooms: int = 500, idle_seconds: float = 6 * 3600.0) -> None:
        self.max_rooms = max_rooms
        self.idle_seconds = idle_seconds
        self._rooms: dict[str, Room] = {}
        self._committed: dict[str, tuple[FairDice, float]] = {}  # ticket -> dice, when committed

    def commit(self) -> tuple[str, FairDice]:
        """Fair dice committed to before anyone's client seed is known, and the ticket that claims
        them for a new room (once, within `TICKET_SECONDS`)."""
        now = time.monotonic()
        for ticket, (_dice, when) in list(self._committed.items()):
            if now - when > TICKET_SECONDS:
                del self._committed[ticket]
        while len(self._committed) >= MAX_TICKETS:
            del self._committed[next(iter(self._committed))]  # the oldest
        ticket, dice = secrets.token_urlsafe(18), FairDice()
        self._committed[ticket] = (dice, now)
        return ticket, dice

    def _claim(self, ticket: str | None, client_seed: str | None, seed: int | None) -> FairDice | None:
        """The room's dice: committed under ``ticket`` with the creator's ``client_seed`` added now,
        fresh ones, or none for a practice room."""
        if seed is not None:
            if ticket is not None or client_seed is not None:
                raise RoomError(
                    "malformed", "a practice room rolls from its chosen seed: no ticket, no client seed"
                )
            return None
        if ticket is None:
            if client_seed is not None:
                raise RoomError(
                    "malformed",
                    "a client seed comes after the server commits: first ask POST /api/commitments",
                )
            return FairDice()
        claimed = self._committed.pop(ticket, None)
        if claimed is None or time.monotonic() - claimed[1] > TICKET_SECONDS:
            raise RoomError("malformed", "the commitment ticket is unknown or expired: ask for a new one")
        dice = claimed[0]
        if client_seed is not None:
            dice.add_client_seed(client_seed)
        return dice

    def __len__(self) -> int:
        return len(self._rooms)

    def __iter__(self) -> Any:
        return iter(list(self._rooms.values()))

    def get(self, code: str) -> Room:
        room = self._rooms.get(code.strip().upper())
        if room is None:
            raise RoomError("not-found", "there is no room {code!r}", code=code)
        room.touched = time.monotonic()
        return room

    def create(
        self,
        rules: Rules,
        seats: Iterable[SeatSpec],
        *,
        rounds: int = 1,
        seed: int | None = None,
        hints: bool = True,
        ticket: str | None = None,
        client_seed: str | None = None,
    ) -> tuple[Room, str]:
        """A new room and the creator's token (which acts for every seat played here). Its fair dice
        are the ones committed under ``ticket`` (then the creator's ``client_seed`` joins them) or
        fresh ones; a chosen ``seed`` makes a practice room."""
        client_seed = check_client_seed(client_seed)
        self._prune()
        if len(self._rooms) >= self.max_rooms:
            raise RoomError(
                "busy", "the server holds {count} rooms already; try again later", count=self.max_rooms
            )
        token = secrets.token_urlsafe(18)
        placed: list[Seat] = []
        for index, spec in enumerate(seats):
            if spec.kind == "remote":
                placed.append(Seat(index, "remote", None))  # named by whoever joins
                continue
            if spec.profile is not None:
                profile = spec.profile
                name = check_name(profile.name, index)
                placed.append(Seat(index, "here", name, token=token, profile=profile.id))
                continue
            name = check_name(spec.name or "", index)
            if spec.kind == "bot":
                placed.append(Seat(index, "bot", name, bot=resolve_bot(spec.bot or "medium")))
            else:
                placed.append(Seat(index, "here", name, token=token))
        if not placed:
            raise RoomError("malformed", "a room needs at least one seat")
        if not any(s.kind == "here" for s in placed):
            raise RoomError("malformed", "at least one seat must be played here by the room's creator")
        named = [s.name for s in placed if s.name is not None]
        if any(look_alike(a, b) for i, a in enumerate(named) for b in named[:i]):
            raise RoomError("name-taken", "player names must differ: {names}", names=", ".join(named))
        dice = self._claim(ticket, client_seed, seed)
        room = Room(self._new_code(), rules, placed, rounds=rounds, seed=seed, hints=hints, dice=dice)
        self._check_startable(room)
        room.start_if_ready()
        self._rooms[room.code] = room
        return room, token

    def _check_startable(self, room: Room) -> None:
        """Refuse at once a table the engine would refuse when the last player joins."""
        names = [f"seat {s.index}" for s in room.seats]
        try:
            Game(room.rules, names, by_hand=True, rounds=room.rounds)
        except ShutTheBoxError as error:
            raise RoomError("malformed", "{error}", error=error) from None

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._rooms:
                return code

    def _prune(self) -> None:
        now = time.monotonic()
        for code, room in list(self._rooms.items()):
            if now - room.touched > self.idle_seconds:
                del self._rooms[code]
