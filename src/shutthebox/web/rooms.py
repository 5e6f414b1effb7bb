"""Rooms: a game in play on the server, its seats, who may act for each seat, and its clock.

A room holds a `Game` (the driver every interface shares: dice, the bots
seated, every action checked by the engine, the record) and its seats. A seat
is played *here* (by whoever holds the room's creator token: one person solo,
or several people passing one device), by a *bot* (acting on the server), or
*remote* (open until someone joins with the room's code, who then gets a token
of their own). The page never decides anything: every action goes through
`Room.act`, which checks the seat and the turn, then the engine.

Everything a room is lives in plain data the store keeps (`Room.kept`): its
setup, its seats with the SHA-256 of their tokens (never a token), and its log,
one entry per acknowledged action (``{"seat": 0, "roll": [3, 4]}``, ``"dice"``,
``"move"``, ``"assist"`` for a hint asked), replayed through the engine by
`Room.restore` after a crash: the fair dice recompute the same faces.

The dice of a room are fair (`core.fair`): the server commits to its secret
seed first (a ticket the creator then claims the room with, so the creator's
client seed reaches it only after the commitment), each joiner's client seed
joins it, and the seed is revealed when the game ends; such a game is ranked.
A room created with a chosen seed is a practice room, unranked.

The turn clock (online rooms): a seat that does not act within
``turn_seconds`` misses; a stand-in bot plays the rest of its turn, marked
``"by": "clock"``; after a second miss in a row a bot plays the seat for the
rest of the game (``on_leave`` "bot") or the game is adjourned until the seat
acts (``"adjourn"``). A finished room may offer a rematch to every seat
(`Rematch`): the players who accept play on in a new room with the same rules,
the bots and their own tokens.

Errors are `RefusedError`s carrying a short code for the page and an HTTP status::

    RoomError
      no-profile 401 · not-found 404 · wrong-seat 403 · wrong-origin 403 · hints-off 403 · sealed 403
      wrong-turn 409 · illegal 409 · waiting 409 · over 409 · not-over 409 · no-decision 409
      room-full 409 · name-taken 409 · closed 409 · played 409 · too-large 413 · malformed 422
      too-many 429
      internal 500 · busy 503
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from shutthebox.core import fair
from shutthebox.core.board import Move
from shutthebox.core.daily import REVEAL_GRACE
from shutthebox.core.dice import Roll, SeededDice
from shutthebox.core.errors import N_, ShutTheBoxError, plural_phrase
from shutthebox.core.fair import FairDice
from shutthebox.core.game import ROLL, Chooser, Game, Step
from shutthebox.core.match import Action, DiceChoice
from shutthebox.core.names import clean_name
from shutthebox.core.rules import Mode, Rules
from shutthebox.storage.rooms import KeptRoom, token_hash
from shutthebox.web.refusals import Refusal, RefusedError, within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from shutthebox.storage import Profile

__all__ = [
    "ALPHABET",
    "ClientAction",
    "Rematch",
    "Room",
    "Rooms",
    "Seat",
    "SeatKind",
    "SeatSpec",
    "check_client_seed",
]

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: codes are read aloud
CODE_LENGTH = 5
CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
TICKET_SECONDS = 15 * 60.0
"""How long committed dice wait for the room that claims them."""
STAND_IN = "medium"
"""The strength of the bot that plays for a seat whose player ran out of time or left."""
BOT_BUDGET = (3_000_000_000, 1_000_000_000)
"""The solver's work one move of a room's solver bot may take (cells, bytes): the default hint budget
(`strategy.budget`); beyond it the cheaper objective, else the bot's fallback."""

MAX_NOTICES = 8
SeatKind = Literal["here", "bot", "remote"]
OnLeave = Literal["bot", "adjourn"]
ClientAction = Literal["roll"] | DiceChoice | Move
"""What a client may ask for: roll the dice (the server rolls), choose dice, shut tiles."""



def look_alike(name: str, other: str) -> bool:
    """Two names a reader could take for one another (the same, or look-alikes)."""
    from shutthebox.storage.names import look_alike_keys

    return name == other or bool(look_alike_keys(name) & look_alike_keys(other))


def check_client_seed(seed: str | None) -> str | None:
    """A client seed as the fair dice take it (a seed they refuse is malformed)."""
    return None if seed is None else fair.check_client_seed(seed)


def hash_of(token: str | None) -> str | None:
    """What a seat keeps of ``token``; None for no token or one no seat could hold (wrong shape)."""
    return token_hash(token) if token and TOKEN.fullmatch(token) else None


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for when creating a room."""

    kind: SeatKind
    name: str | None = None
    bot: str | None = None  # a bot name or a strength (easy, medium, hard, expert)
    profile: Profile | None = None  # the creator's profile plays this seat


@dataclass(slots=True)
class Seat:
    """A place at the table; ``token_hash`` is the SHA-256 of the token that acts for it."""

    index: int
    kind: SeatKind
    name: str | None
    bot: str | None = None
    token_hash: str | None = None
    profile: int | None = None
    missed: int = 0  # actions missed in a row on the clock
    stand_in: bool = False  # a bot plays it for the rest of the game: its player left

    @property
    def human(self) -> bool:
        return self.kind != "bot"

    def to_json(self, connected: bool) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "profile": self.profile,
            "joined": self.name is not None,
            "connected": connected,
            "missed": self.missed,
            "stand_in": self.stand_in,
        }

    def kept(self) -> dict[str, Any]:
        return {
            "index": self.index, "kind": self.kind, "name": self.name, "bot": self.bot,
            "token_hash": self.token_hash, "profile": self.profile, "missed": self.missed,
            "stand_in": self.stand_in,
        }


def resolve_bot(name: str) -> str:
    """The bot name for a bot name or a strength (an error naming the choices otherwise)."""
    from shutthebox.strategy.names import bot_key

    return bot_key(name)


def stand_in_bot(game: Game, seat: int) -> Chooser:
    from shutthebox.strategy.bots import seat_bots

    return seat_bots({seat: resolve_bot(STAND_IN)}, f"{game.bot_seed}/stand-in")[seat]


@dataclass(slots=True)
class Rematch:
    """A new game offered to every seat of a finished room; its dice are committed at the offer."""

    offered_by: int
    answers: dict[int, bool | None]  # per seat: accepted, declined, not yet (bots accept)
    deadline: float
    dice: FairDice = field(default_factory=FairDice)
    code: str | None = None  # the new room, once it starts

    @property
    def settled(self) -> bool:
        return self.code is not None or None not in self.answers.values()

    def to_json(self, now: float) -> dict[str, Any]:
        return {
            "offered_by": self.offered_by,
            "answers": [self.answers.get(i) for i in range(max(self.answers) + 1)],
            "remaining": max(0.0, round(self.deadline - now, 1)),
            "code": self.code,
            "commitment": self.dice.fairness(reveal=False).commitment,
        }

    def kept(self) -> dict[str, Any]:
        return {
            "offered_by": self.offered_by,
            "answers": [[seat, answer] for seat, answer in self.answers.items()],
            "deadline": self.deadline,
            **self.dice.kept(),
            "code": self.code,
        }

    @classmethod
    def restore(cls, kept: dict[str, Any]) -> Rematch:
        dice = FairDice.from_kept(kept)
        answers = {int(seat): answer for seat, answer in kept["answers"]}
        return cls(kept["offered_by"], answers, kept["deadline"], dice, kept["code"])


@dataclass(eq=False)
class Room:
    """A game being played by its seats, with the hashes of the tokens that act for them."""

    code: str
    rules: Rules
    seats: list[Seat]
    rounds: int = 1
    seed: int | None = None  # chosen: a practice room
    hints: bool = True
    dice: FairDice | None = None  # committed at creation; None in a practice room
    turn_seconds: int | None = None  # the clock: seconds for each action of a seat; None: no clock
    on_leave: OnLeave = "bot"
    closes_at: float | None = None  # a daily challenge's: no action after it (the end of its day, UTC)
    game: Game | None = None
    log: list[dict[str, Any]] = field(default_factory=list)  # every acknowledged action, in order
    kept_events: int = 0  # how many of `log` the store holds
    by_clock: set[int] = field(default_factory=set)  # game events a stand-in played for an absent seat
    notices: list[dict[str, Any]] = field(default_factory=list)
    adjourned: int | None = None  # the seat the game waits for
    rematch: Rematch | None = None
    next_dice: FairDice | None = None  # a rematch's dice, committed to as the game ends
    deadline: float | None = None  # when the seat to act runs out of time (epoch seconds)
    clock_mark: tuple[int, int] | None = None  # (seat, events) the deadline was set for
    created_at: float = field(default_factory=time.time)
    touched: float = field(default_factory=time.time)
    review: dict[str, Any] | None = None
    results: list[dict[str, Any]] | None = None  # how each person did against their best, once kept
    stale: bool = False  # a write failed: reload from the store before serving
    behind: bool = False  # another process changed it: catch up with the store before serving
    version: int = 0  # the store's version this copy holds (0: not kept yet)
    due_at: float | None = None  # when the store says a server must next look at it
    owner: str | None = None  # the address that created it (the store keeps its hash)
    owner_hash: str | None = None  # that hash, as read back from the store
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    # -- seats and tokens ---------------------------------------------------
    def seats_of(self, token: str | None) -> tuple[int, ...]:
        """The seats ``token`` acts for (none for a spectator)."""
        wanted = hash_of(token)
        if wanted is None:
            return ()
        return tuple(
            s.index for s in self.seats
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, wanted)
        )

    @property
    def kind(self) -> Literal["ranked", "practice"]:
        return "practice" if self.dice is None else "ranked"

    @property
    def origin(self) -> str:
        """What names this room's game in the store, so a save tried again keeps it once."""
        return f"room/{self.code}/{round(self.created_at * 1000)}"

    @property
    def online(self) -> bool:
        return any(s.kind == "remote" for s in self.seats)

    @property
    def requester(self) -> str:
        """Whom the solver's work for the room's bots is counted against: the address that made it."""
        kept = self.owner_hash or (token_hash(self.owner) if self.owner is not None else None)
        return f"owner:{kept}" if kept is not None else f"room:{self.code}"

    @property
    def reveal_at(self) -> float | None:
        """When the dice of a room that closes (a daily challenge's, shared by everyone that day) may
        be seen by anyone: once no attempt of that day can be played any more."""
        return None if self.closes_at is None else self.closes_at + REVEAL_GRACE

    def sealed(self, now: float) -> bool:
        """The room's dice, and so its record, are nobody's business yet (see `reveal_at`)."""
        return self.reveal_at is not None and now < self.reveal_at

    def closed(self, now: float) -> bool:
        """Nobody may act in the room any more: its day is over (a daily challenge's)."""
        return self.closes_at is not None and now >= self.closes_at

    def join(
        self, name: str | None, *, client_seed: str | None = None, profile: Profile | None = None
    ) -> tuple[str, int]:
        """Take the first open remote seat as ``name`` (a profile plays under its own name), adding
        the joiner's client seed to the dice; the new token and the seat."""
        if profile is not None:
            name = profile.name
        elif name is None:
            raise RefusedError(Refusal.MALFORMED, "a name is needed to join room {code}", code=self.code)
        name = clean_name(name)
        client_seed = check_client_seed(client_seed)
        open_seats = [s for s in self.seats if s.kind == "remote" and s.name is None]
        if not open_seats:
            raise RefusedError(Refusal.ROOM_FULL, "room {code} has no open seat left", code=self.code)
        if any(look_alike(name, s.name) for s in self.seats if s.name is not None):
            raise RefusedError(
                Refusal.NAME_TAKEN,
                "the name {name!r} is already taken in room {code}", name=name, code=self.code
            )
        if profile is not None and profile.id in {s.profile for s in self.seats}:
            raise RefusedError(
                Refusal.NAME_TAKEN, "your profile already plays in room {code}", code=self.code,
            )
        if client_seed is not None and self.dice is not None:
            self.dice.add_client_seed(client_seed)
        seat, token = open_seats[0], secrets.token_urlsafe(18)
        seat.name, seat.token_hash = name, token_hash(token)
        seat.profile = profile.id if profile is not None else None
        self.start_if_ready()
        return token, seat.index

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
        self.game = Game(self.rules, names, dice=dice, rounds=self.rounds)
        bots = {seat.index: seat.bot for seat in self.seats if seat.kind == "bot" and seat.bot is not None}
        if bots:
            from shutthebox.strategy.bots import seat_bots

            for index, bot in seat_bots(bots, self.game.bot_seed, budget=BOT_BUDGET).items():
                self.game.seat_bot(index, bot)
        for seat in self.seats:
            if seat.stand_in:
                self.game.seat_bot(seat.index, stand_in_bot(self.game, seat.index))

    # -- acting -------------------------------------------------------------
    def playing(self) -> Game:
        """The game, or `RefusedError` when it has not started or is over."""
        if self.game is None:
            waiting = sum(1 for s in self.seats if s.name is None)
            players = plural_phrase("{count} more player to join", "{count} more players to join", waiting)
            raise RefusedError(
                Refusal.WAITING, "room {code} waits for {players}", code=self.code, players=players,
            )
        if self.game.state.is_over:
            raise RefusedError(Refusal.OVER, "the game in room {code} is over", code=self.code)
        return self.game

    def check_open(self, now: float) -> None:
        """Refuse any action in a room that is closed (a daily challenge whose day is over)."""
        if self.closed(now):
            raise RefusedError(
                Refusal.CLOSED,
                "the daily challenge of room {code} closed at midnight UTC: its game counts as it"
                " stood then", code=self.code,
            )

    def check_actor(self, token: str | None, seat: int | None = None) -> tuple[Game, int]:
        """The game and the acting seat, if ``token`` may act now (for ``seat``, when named)."""
        game = self.playing()
        held = self.seats_of(token)
        if not held:
            raise RefusedError(Refusal.WRONG_SEAT, "this token holds no seat in room {code}", code=self.code)
        if seat is not None and seat not in held:
            who = self.seats[seat].name if 0 <= seat < len(self.seats) else None
            raise RefusedError(
                Refusal.WRONG_SEAT, "seat {seat} ({name}) is not yours in room {code}",
                seat=seat, name=who or "-", code=self.code,
            )
        actor = game.state.actor
        assert actor is not None
        if actor not in held or (seat is not None and seat != actor):
            raise RefusedError(
                Refusal.WRONG_TURN, "it is not your turn: {state}", state=game.state.describe(),
            )
        if self.seats[actor].stand_in:
            raise RefusedError(
                Refusal.WRONG_TURN, "a bot plays seat {seat} ({name}) since its player left",
                seat=actor, name=self.seats[actor].name or "-",
            )
        return game, actor

    def act(self, token: str | None, action: ClientAction, seat: int | None = None, *, now: float) -> None:
        """Do ``action`` for the token's seat whose turn it is; nothing changes if it raises."""
        self.check_open(now)
        _game, actor = self.check_actor(token, seat)
        self.apply(actor, action)
        self.seats[actor].missed = 0
        if self.adjourned == actor:
            self.adjourned = None
            self.notify("resumed", actor)

    def apply(self, seat: int, action: Step, *, by: str | None = None) -> None:
        """Play ``action`` for ``seat`` through the engine and log it; nothing changes if it raises."""
        game = self.playing()
        due = game.due()
        due.state.check_turn(seat)
        if by is not None:  # a bot plays for the seat's player: help, from where the turn stands
            if action == ROLL:
                game.check_roll(seat)
            else:
                due.state.apply(action, seat)
            self.assist(seat)
            due = game.due()  # the same state, the help noted
        game.play(due, action)
        played = game.events[-1].action
        entry: dict[str, Any] = {"seat": seat, **_logged(played)}
        if by is not None:
            entry["by"] = by
            self.by_clock.add(len(game.events) - 1)
        self.log.append(entry)
        self.touched = time.time()
        self.review = None
        if game.state.is_over and self.next_dice is None:
            self.next_dice = FairDice()  # shown before anyone offers a rematch or sends a seed for it

    def assist(self, seat: int) -> None:
        """Note that ``seat`` had help (a hint, a stand-in bot): for the rankings its turn counts as it
        stands now (`core.ranking`), noted in the log where it came, once a turn."""
        game = self.game
        if game is not None and game.assist(seat):
            self.log.append({"seat": seat, "assist": True})

    def abandon(self) -> list[int]:
        """Every player still seated leaves the game (walked away, or its day closed): a bot plays each
        seat to the end, and the game counts as it stood (see `assist`); the seats left."""
        game = self.game
        if game is None or game.state.is_over:
            return []
        left = [s.index for s in self.seats if s.human and not s.stand_in]
        for seat in left:
            self.seats[seat].stand_in = True
            game.seat_bot(seat, stand_in_bot(game, seat))
            self.notify("abandoned", seat)
        self.adjourned = None
        return left

    def notify(self, kind: str, seat: int) -> None:
        """Tell every seat what the clock did to ``seat`` (missed, stand-in, adjourned, resumed)."""
        events = len(self.game.events) if self.game is not None else 0
        notice = {"kind": kind, "seat": seat, "name": self.seats[seat].name, "event": events}
        self.notices = [*self.notices, notice][-MAX_NOTICES:]

    # -- the clock ------------------------------------------------------------
    def clock_seat(self) -> int | None:
        """The human seat whose time runs now (none without a clock, for bots, when adjourned)."""
        game = self.game
        if self.turn_seconds is None or game is None or game.state.is_over or self.adjourned is not None:
            return None
        actor = game.state.actor
        if actor is None or actor in game.bots:
            return None
        return actor

    def arm_clock(self, now: float) -> None:
        """Give the seat to act its full time whenever the game moved on; stop the clock otherwise."""
        seat = self.clock_seat()
        if seat is None or self.turn_seconds is None or self.game is None:
            self.deadline = self.clock_mark = None
            return
        mark = (seat, len(self.game.events))
        if mark != self.clock_mark:
            self.clock_mark, self.deadline = mark, now + self.turn_seconds

    def restart_clock(self, now: float) -> None:
        """Give the seat to act its full time again from ``now``: its time ran while it could not act."""
        if self.deadline is not None and self.turn_seconds is not None:
            self.deadline = now + self.turn_seconds

    def run_out(self, now: float) -> int | None:
        """If the seat to act ran out of time: count the miss and what follows; the seat, which a
        stand-in plays until its turn ends (None when nothing ran out, or the game is adjourned)."""
        seat = self.clock_seat()
        if seat is None or self.deadline is None or now < self.deadline:
            return None
        assert self.game is not None
        if self.clock_mark != (seat, len(self.game.events)):
            return None  # the seat acted in time (its action and the timer crossed): no miss
        place = self.seats[seat]
        place.missed += 1
        self.deadline = self.clock_mark = None  # the stand-in's actions are help (see `apply`)
        if place.missed < 2:
            self.notify("missed", seat)
            self.game.stand_in(seat, stand_in_bot(self.game, seat))  # the bots' loop plays the turn
            return seat
        if self.on_leave == "adjourn":
            self.adjourned = seat
            self.notify("adjourned", seat)
            return None
        place.stand_in = True
        self.game.seat_bot(seat, stand_in_bot(self.game, seat))
        self.notify("stand-in", seat)
        return None  # the bots' loop plays it from now on

    # -- rematch --------------------------------------------------------------
    def answer_rematch(self, token: str | None, accept: bool, client_seed: str | None, *,
                       now: float, seconds: float) -> None:
        """Offer a rematch (the first accept) or answer one, for every seat ``token`` holds."""
        if self.game is None or not self.game.state.is_over:
            raise RefusedError(Refusal.NOT_OVER, "the game in room {code} is not over yet", code=self.code)
        held = [seat for seat in self.seats_of(token) if self.seats[seat].human]
        if not held:
            raise RefusedError(Refusal.WRONG_SEAT, "this token holds no seat in room {code}", code=self.code)
        client_seed = check_client_seed(client_seed)
        if self.rematch is not None and self.rematch.settled:
            raise RefusedError(Refusal.OVER, "the rematch of room {code} is settled already", code=self.code)
        if self.rematch is not None and all(self.rematch.answers.get(seat) is not None for seat in held):
            raise RefusedError(
                Refusal.OVER, "you answered the rematch of room {code} already", code=self.code,
            )
        if self.rematch is None:
            if not accept:
                raise RefusedError(
                    Refusal.MALFORMED, "nobody offered a rematch in room {code}", code=self.code,
                )
            # Bots play again; every player is asked, one who left too: they may be back by now.
            answers: dict[int, bool | None] = {s.index: None if s.human else True for s in self.seats}
            self.rematch = Rematch(held[0], answers, now + seconds, self.next_dice or FairDice())
        for seat in held:
            self.rematch.answers[seat] = accept
        if accept and client_seed is not None:
            self.rematch.dice.add_client_seed(client_seed)
        self.touched = time.time()

    def rematch_due(self, now: float) -> bool:
        """The rematch can be settled: everyone answered, or its time ran out."""
        rematch = self.rematch
        return rematch is not None and rematch.code is None and (rematch.settled or now >= rematch.deadline)

    # -- keeping --------------------------------------------------------------
    def kept(self) -> KeptRoom:
        """The room as the store keeps it (its log too: `unkept` says which entries are new)."""
        setup = {
            "rules": self.rules.to_dict(), "rounds": self.rounds, "seed": self.seed, "hints": self.hints,
            "turn_seconds": self.turn_seconds, "on_leave": self.on_leave, "closes_at": self.closes_at,
        }
        dice = None
        if self.dice is not None:
            dice = self.dice.kept()
        extra = {
            "notices": self.notices,
            "adjourned": self.adjourned,
            "rematch": self.rematch.kept() if self.rematch is not None else None,
            "next_dice": self.next_dice.server_seed.hex() if self.next_dice is not None else None,
            "clock": self.clock_mark and {"deadline": self.deadline, "mark": self.clock_mark},
            "standing_in": [list(item) for item in (self.game.standing_in if self.game else {}).items()],
            "results": self.results,
        }
        return KeptRoom(
            code=self.code, status=self.status, setup=setup, dice=dice,
            seats=[seat.kept() for seat in self.seats], extra=extra,
            game_id=self.game.saved_id if self.game is not None else None,
            created_at=datetime.fromtimestamp(self.created_at, UTC),
            touched_at=datetime.fromtimestamp(self.touched, UTC), version=self.version, due_at=self.due_at,
            owner=self.owner_hash or (token_hash(self.owner) if self.owner is not None else None),
        )

    def unkept(self) -> list[tuple[int, dict[str, Any]]]:
        """The log entries the store does not hold yet, with their places."""
        return list(enumerate(self.log))[self.kept_events:]

    @classmethod
    def restore(cls, kept: KeptRoom) -> Room:
        """The room as it was when the store last kept it: its game replayed, action by action."""
        setup = kept.setup
        dice = None
        if kept.dice is not None:
            dice = FairDice.from_kept(kept.dice)
        extra = kept.extra
        room = cls(
            code=kept.code, rules=Rules.from_dict(setup["rules"]), rounds=setup["rounds"], seed=setup["seed"],
            hints=setup["hints"], dice=dice, turn_seconds=setup["turn_seconds"], on_leave=setup["on_leave"],
            closes_at=setup.get("closes_at"),
            seats=[Seat(**seat) for seat in kept.seats],
            notices=list(extra.get("notices", [])), adjourned=extra.get("adjourned"),
            results=extra.get("results"),
            rematch=Rematch.restore(extra["rematch"]) if extra.get("rematch") else None,
            next_dice=FairDice(bytes.fromhex(extra["next_dice"])) if extra.get("next_dice") else None,
            created_at=kept.created_at.timestamp(), touched=kept.touched_at.timestamp(),
            owner_hash=kept.owner,
        )
        room.start_if_ready()
        for entry in kept.events:
            room._replay(entry)
        room._took(kept)
        return room

    def catch_up(self, kept: KeptRoom) -> None:
        """Become the store's newer state ``kept`` of this room, read from the first action this copy
        lacks: its seats and the rest from the row, the new actions replayed through the engine
        (cheaper than `restore` by the whole log). A `ValueError` if it does not follow on."""
        if kept.first_event != len(self.log):
            raise ValueError(f"room {self.code}: the store's actions start at {kept.first_event}, "
                             f"this copy holds {len(self.log)}")
        self.seats = [Seat(**seat) for seat in kept.seats]
        if self.game is None and kept.dice is not None:  # a joiner's client seed came with its seat
            self.dice = FairDice.from_kept(kept.dice)
        extra = kept.extra
        self.notices, self.adjourned = list(extra.get("notices", [])), extra.get("adjourned")
        self.results = extra.get("results")
        self.rematch = Rematch.restore(extra["rematch"]) if extra.get("rematch") else None
        if extra.get("next_dice") and self.next_dice is None:
            self.next_dice = FairDice(bytes.fromhex(extra["next_dice"]))
        self.start_if_ready()
        for entry in kept.events:
            self._replay(entry)
        if self.game is not None:
            for seat in self.seats:
                if seat.stand_in and seat.index not in self.game.bots_seated:
                    self.game.seat_bot(seat.index, stand_in_bot(self.game, seat.index))
        self.touched = kept.touched_at.timestamp()
        self.review = None if kept.events else self.review
        self._took(kept)

    def _took(self, kept: KeptRoom) -> None:
        """What a copy takes of the store's row besides the game: its place, version, clock, and the
        turn a stand-in plays."""
        self.kept_events, self.version, self.due_at = len(self.log), kept.version, kept.due_at
        if self.game is not None:
            self.game.saved_id = kept.game_id
            for seat, turn in kept.extra.get("standing_in", []):
                self.game.stand_in(seat, stand_in_bot(self.game, seat), turn=turn)
        clock = kept.extra.get("clock")
        self.deadline, self.clock_mark = (clock["deadline"], tuple(clock["mark"])) if clock else (None, None)
        self.stale = self.behind = False

    def _replay(self, entry: dict[str, Any]) -> None:
        game = self.playing() if "assist" not in entry else self.game
        assert game is not None
        seat = entry["seat"]
        if "assist" in entry:
            self.assist(seat)
            return
        due = game.due()
        if due.seat != seat:
            raise ValueError(f"room {self.code}: seat {seat} acts in the log, seat {due.seat} was to act")
        if "roll" in entry:
            game.play(due, ROLL)
            faces = game.events[-1].action
            if not isinstance(faces, Roll) or list(faces.dice) != entry["roll"]:
                raise ValueError(f"room {self.code}: the dice replay as {faces}, not {entry['roll']}")
        else:
            game.play(due, DiceChoice(entry["dice"]) if "dice" in entry else Move.of(entry["move"]))
        if "by" in entry:
            self.by_clock.add(len(game.events) - 1)
        self.log.append(entry)

    def take_state_of(self, other: Room) -> None:
        """Become ``other`` (the same room as the store holds it), keeping listeners and lock."""
        for name in ("rules", "seats", "rounds", "seed", "hints", "dice", "turn_seconds", "on_leave",
                     "closes_at", "game", "log", "kept_events", "by_clock", "notices", "adjourned", "results",
                     "rematch",
                     "next_dice", "touched", "version", "due_at", "deadline", "clock_mark"):
            setattr(self, name, getattr(other, name))
        self.review, self.stale, self.behind = None, False, False


def _logged(action: Action) -> dict[str, Any]:
    if isinstance(action, Roll):
        return {"roll": list(action.dice)}
    if isinstance(action, DiceChoice):
        return {"dice": action.count}
    return {"move": sorted(action.tiles)}


class Rooms:
    """The rooms this process holds a copy of, by code: a cache of the store, which holds them all
    (see `Lobby`). A room leaves it when its game is over or it sat idle; it is read back on demand."""

    def __init__(self) -> None:
        self._rooms: dict[str, Room] = {}

    def __len__(self) -> int:
        return len(self._rooms)

    def __iter__(self) -> Any:
        return iter(list(self._rooms.values()))

    def __contains__(self, code: str) -> bool:
        return code in self._rooms

    def find(self, code: str) -> Room | None:
        """The copy of room ``code`` held here (None: ask the store); a code of the wrong shape is
        refused (`RefusedError` not-found) before anyone looks."""
        return self._rooms.get(well_formed(code))

    def get(self, code: str) -> Room:
        """The copy of room ``code`` held here; `RefusedError` not-found if there is none."""
        room = self.find(code)
        if room is None:
            raise RefusedError(Refusal.NOT_FOUND, "there is no room {code!r}", code=well_formed(code))
        return room

    def add(self, room: Room) -> Room:
        """Hold ``room``, unless a copy is held already (read meanwhile): the one held."""
        return self._rooms.setdefault(room.code, room)

    def drop(self, code: str) -> None:
        self._rooms.pop(code, None)

    def build(
        self,
        rules: Rules,
        seats: Iterable[SeatSpec],
        *,
        rounds: int = 1,
        seed: int | None = None,
        hints: bool = True,
        dice: FairDice | None = None,
        turn_seconds: int | None = None,
        on_leave: OnLeave = "bot",
        closes_at: float | None = None,
        taken: Iterable[str] = (),
    ) -> tuple[Room, str]:
        """A new room (not yet started, kept nor listed) and the creator's token, which acts for every
        seat played here. ``dice``: the fair dice (None with a chosen ``seed``: a practice room)."""
        token = secrets.token_urlsafe(18)
        held = token_hash(token)
        placed: list[Seat] = []
        for index, spec in enumerate(seats):
            if spec.kind == "remote":
                placed.append(Seat(index, "remote", None))  # named by whoever joins
                continue
            if spec.profile is not None:
                profile = spec.profile
                with within(N_("seat {seat}: {error}"), seat=index):
                    name = clean_name(profile.name)
                placed.append(Seat(index, "here", name, token_hash=held, profile=profile.id))
                continue
            with within(N_("seat {seat}: {error}"), seat=index):
                name = clean_name(spec.name or (f"Bot {index + 1}" if spec.kind == "bot" else ""))
            if spec.kind == "bot":
                placed.append(Seat(index, "bot", name, bot=resolve_bot(spec.bot or "medium")))
            else:
                placed.append(Seat(index, "here", name, token_hash=held))
        if not placed:
            raise RefusedError(Refusal.MALFORMED, "a room needs at least one seat")
        if not any(s.kind == "here" for s in placed):
            raise RefusedError(
                Refusal.MALFORMED, "at least one seat must be played here by the room's creator",
            )
        named = [s.name for s in placed if s.name is not None]
        if any(look_alike(a, b) for i, a in enumerate(named) for b in named[:i]):
            raise RefusedError(
                Refusal.NAME_TAKEN, "player names must differ: {names}", names=", ".join(named),
            )
        room = Room(
            self.new_code(taken), rules, placed, rounds=rounds, seed=seed, hints=hints,
            dice=dice if seed is None else None, turn_seconds=turn_seconds, on_leave=on_leave,
            closes_at=closes_at,
        )
        check_startable(room)
        return room, token

    def new_code(self, taken: Iterable[str] = ()) -> str:
        """A code no room held here holds (nor one in ``taken``; the store has the last word)."""
        used = set(taken)
        while True:
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._rooms and code not in used:
                return code


def well_formed(code: str) -> str:
    """``code`` as codes are written (upper case); `RefusedError` not-found if no room could hold it."""
    key = code.strip().upper()
    if not CODE.fullmatch(key):
        raise RefusedError(Refusal.NOT_FOUND, "a room code is {count} letters and digits", count=CODE_LENGTH)
    return key


def check_startable(room: Room) -> None:
    """Refuse at once a table the engine would refuse when the last player joins."""
    names = [f"seat {s.index}" for s in room.seats]
    Game(room.rules, names, by_hand=True, rounds=room.rounds)


def rematch_room(old: Room, code: str) -> Room | None:
    """The room of a settled rematch: the same rules, the bots and the players who accepted (with
    their tokens), dealt the rematch's committed dice; None when no player accepted."""
    rematch = old.rematch
    assert rematch is not None
    staying = [s for s in old.seats if rematch.answers.get(s.index) and s.name is not None]
    if not any(s.human for s in staying):
        return None
    seats = [
        Seat(index, s.kind, s.name, bot=s.bot, token_hash=s.token_hash, profile=s.profile)
        for index, s in enumerate(staying)
    ]
    rules, turn_seconds = old.rules, old.turn_seconds
    if len(seats) == 1 and rules.mode is not Mode.SOLO:
        rules = rules.but(mode=Mode.SOLO)  # one player alone plays solo (rules §5.1)
    if sum(seat.human for seat in seats) == 1:
        turn_seconds = None  # nobody waits for a player alone with bots: no clock, as in any such room
    room = Room(
        code, rules, seats, rounds=old.rounds, hints=old.hints, dice=rematch.dice,
        turn_seconds=turn_seconds, on_leave=old.on_leave, owner=old.owner, owner_hash=old.owner_hash,
    )
    try:
        check_startable(room)
        room.start_if_ready()
    except ShutTheBoxError:  # a table that cannot start: no rematch
        return None
    return room


def now_utc(moment: float) -> datetime:
    return datetime.fromtimestamp(moment, UTC)
