"""A room: a game in play on the server, its seats, who may act for each, its clock and its rematch.

A room holds a `Game` (the driver every interface shares: dice, the bots seated, every action
checked by the engine, the record), its seats (`web.seats`) and its log (`web.roomlog`: the
record's events and where help came). The page never decides anything: every action goes through
`Room.act`, which checks the seat and the turn, then the engine. A method that raises changes
nothing; its error is a refusal as it stands (`web.refusals`). What the store knows of a copy (its
version, whether it is behind) is the held copy's (`web.copies`), never the room's.

An online room has a turn clock (`web.roomclock`). A finished room may offer a rematch to every seat
(`web.rematch`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Literal

from shutthebox.core.board import Move
from shutthebox.core.chance import SeededDice
from shutthebox.core.daily import REVEAL_GRACE
from shutthebox.core.errors import StaleActionError, plural_phrase
from shutthebox.core.fair import FairDice
from shutthebox.core.game import Due, Game, Step, Wait
from shutthebox.core.match import DiceChoice
from shutthebox.core.names import clean_name
from shutthebox.core.rules import Rules
from shutthebox.storage import Profile
from shutthebox.storage.rooms import token_hash
from shutthebox.strategy.bots import seat_bots
from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.rematch import Rematch
from shutthebox.web.roomclock import OnLeave, TurnClock
from shutthebox.web.roomlog import By, Entry
from shutthebox.web.seats import Seat, check_client_seed, held_by, look_alike, stand_in_bot

__all__ = ["BOTS_DUE", "ClientAction", "OnLeave", "Room"]

BOTS_DUE = (Wait.CHANCE, Wait.BOT)
"""What a room's background work plays: the bots' rolls and choices."""
MAX_NOTICES = 8
ClientAction = Literal["roll"] | DiceChoice | Move
"""What a client may ask for: roll the dice (the server rolls), choose dice, shut tiles."""


@dataclass(eq=False)
class Room(TurnClock):
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
    log: list[Entry] = field(default_factory=list)  # every acknowledged action, and help, in order
    by_clock: set[int] = field(default_factory=set)  # game events a stand-in played for an absent seat
    notices: list[dict[str, Any]] = field(default_factory=list)
    adjourned: int | None = None  # the seat the game waits for
    rematch: Rematch | None = None
    next_dice: FairDice | None = None  # a rematch's dice, committed to as the game ends
    deadline: float | None = None  # when the seat to act runs out of time (epoch seconds)
    clock_mark: tuple[int, int] | None = None  # (seat, events) the deadline was set for
    created_at: float = 0.0
    touched: float = 0.0  # when anyone last changed it (epoch seconds)
    results: list[dict[str, Any]] | None = None  # how each person did against their best, once kept
    owner: str | None = None  # the hash of the address that created it
    player: str | None = None  # the hash of whom its creator plays as (`web.players`)
    private: bool = False  # only its seats see it: nobody watches it by its link

    # -- what it is -----------------------------------------------------------
    def seats_of(self, token: str | None) -> tuple[int, ...]:
        """The seats ``token`` acts for (none for a spectator)."""
        return held_by(self.seats, token)

    @property
    def kind(self) -> Literal["ranked", "practice"]:
        return "practice" if self.dice is None else "ranked"

    @property
    def origin(self) -> str:
        """What names this room's game in the store, so a save tried again keeps it once."""
        return f"room/{self.code}/{round(self.created_at * 1000)}"

    @property
    def requester(self) -> str:
        """Whom the solver's work for the room's bots is counted against: the address that made it."""
        return f"owner:{self.owner}" if self.owner is not None else f"room:{self.code}"

    @property
    def status(self) -> Literal["waiting", "playing", "over"]:
        if self.game is None:
            return "waiting"
        return "over" if self.game.state.is_over else "playing"

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

    def check_sight(self, token: str | None, now: float) -> None:
        """Refuse to show a sealed room (a daily challenge's, while its day lasts) to anyone but its
        player: its board and rolls are the day's dice, which everyone that day plays; and a private
        room to anyone without a seat once it has none open (until then the invited see the table)."""
        if self.private and not self.seats_of(token) and self.game is not None:
            raise RefusedError(
                Refusal.PRIVATE, "room {code} is private: only its players see it", code=self.code
            )
        if self.sealed(now) and not self.seats_of(token):
            raise RefusedError(
                Refusal.SEALED,
                "room {code} is a daily challenge's: only its player sees it until the day is over",
                code=self.code,
            )

    def record_json(self, now: float) -> dict[str, Any]:
        """The game record (the fair seed once the game is over); nobody's while sealed."""
        if self.game is None:
            raise RefusedError(Refusal.WAITING, "the game in room {code} has not started", code=self.code)
        if self.sealed(now):
            raise RefusedError(
                Refusal.SEALED,
                "the record of room {code} shows the daily challenge's dice: it is sealed until the"
                " day is over", code=self.code,
            )
        record: dict[str, Any] = self.game.record().to_json()
        return record

    # -- joining and starting ----------------------------------------------------
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
                "the name {name!r} is already taken in room {code}", name=name, code=self.code,
            )
        if profile is not None and profile.id in {s.profile for s in self.seats}:
            raise RefusedError(
                Refusal.NAME_TAKEN, "your profile already plays in room {code}", code=self.code
            )
        if client_seed is not None and self.dice is not None:
            self.dice.add_client_seed(client_seed)
        seat, token = open_seats[0], secrets.token_urlsafe(18)
        seat.name, seat.token_hash = name, token_hash(token)
        seat.profile = profile.id if profile is not None else None
        self.start_if_ready()
        return token, seat.index

    def start_if_ready(self) -> None:
        """Start the game once every seat has a player (immediately without remote seats)."""
        if self.game is not None or any(s.name is None for s in self.seats):
            return
        names = [s.name for s in self.seats if s.name is not None]
        dice = self.dice if self.dice is not None else SeededDice(self.seed)
        game = Game(self.rules, names, dice=dice, rounds=self.rounds)
        bots = {seat.index: seat.bot for seat in self.seats if seat.kind == "bot" and seat.bot is not None}
        if bots:

            for index, bot in seat_bots(bots, game.bot_seed).items():
                game.seat_bot(index, bot)
        for seat in self.seats:
            if seat.stand_in:
                game.seat_bot(seat.index, stand_in_bot(game, seat.index))
        self.game = game

    # -- acting -------------------------------------------------------------
    def playing(self) -> Game:
        """The game, refused (waiting, over) when it has not started or is over."""
        if self.game is None:
            waiting = sum(1 for s in self.seats if s.name is None)
            players = plural_phrase("{count} more player to join", "{count} more players to join", waiting)
            raise RefusedError(
                Refusal.WAITING, "room {code} waits for {players}", code=self.code, players=players
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
                Refusal.WRONG_TURN, "it is not your turn: {state}", state=game.state.describe()
            )
        if self.seats[actor].stand_in:
            raise RefusedError(
                Refusal.WRONG_TURN, "a bot plays seat {seat} ({name}) since its player left",
                seat=actor, name=self.seats[actor].name or "-",
            )
        return game, actor

    def act(self, token: str | None, action: ClientAction, seat: int | None = None, *, now: float) -> None:
        """Do ``action`` for the token's seat whose turn it is."""
        self.check_open(now)
        _game, actor = self.check_actor(token, seat)
        self.apply(actor, action)
        self.seats[actor].missed = 0
        if self.adjourned == actor:
            self.adjourned = None
            self.notify("resumed", actor)

    def play_bot(self, due: Due, step: Step) -> None:
        """Play the bot's ``step``, thought for ``due``, if the game is still there (else
        `StaleActionError`: it is thought again); a stand-in's step is help for its player."""
        assert due.seat is not None
        game = self.playing()
        if due.state is not game.state:
            raise StaleActionError(
                "{step}: the game has moved on since it was chosen; now {state}",
                step=step, state=game.state.describe(),
            )
        self.apply(due.seat, step, by="clock" if self.seats[due.seat].human else None, at=due)

    def apply(self, seat: int, action: Step, *, by: By | None = None, at: Due | None = None) -> None:
        """Play ``action`` for ``seat`` through the engine (at ``at``, when it was chosen for it) and
        log it."""
        game = self.playing()
        due = game.due() if at is None else at
        due.state.check_turn(seat)
        if by is not None:  # a bot plays for the seat's player: help, from where the turn stands
            game.check(due, action)
            self.assist(seat)  # the same state: help noted only
        game.play(due, action)
        if by is not None:
            self.by_clock.add(len(game.events) - 1)
        self.log.append(Entry(seat, game.events[-1], by))
        if game.state.is_over and self.next_dice is None:
            self.next_dice = FairDice()  # shown before anyone offers a rematch or sends a seed for it

    def assist(self, seat: int) -> None:
        """Note that ``seat`` had help (a hint, a stand-in bot): for the rankings its turn counts as it
        stands now (`core.ranking`), noted in the log where it came, once a turn."""
        game = self.game
        if game is not None and game.assist(seat):
            self.log.append(Entry(seat))

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

    def make_private(self, token: str | None, private: bool) -> None:
        """The creator (who holds the seats played at its device) makes the room private or not."""
        if not any(self.seats[seat].kind == "here" for seat in self.seats_of(token)):
            raise RefusedError(
                Refusal.WRONG_SEAT, "only the creator of room {code} decides who may watch it", code=self.code
            )
        self.private = private

    def resign(self, seats: tuple[int, ...]) -> None:
        """The players of ``seats`` resign: a bot plays each to the end, and the game counts as it
        stood (as `abandon`: a ranked game is played to its end, never dropped with a bad score)."""
        game = self.playing()
        for seat in seats:
            place = self.seats[seat]
            if place.human and not place.stand_in:
                place.stand_in = True
                game.seat_bot(seat, stand_in_bot(game, seat))
                self.notify("abandoned", seat)
        if self.adjourned in seats:
            self.adjourned = None

    def leave(self, seats: tuple[int, ...]) -> None:
        """The players of ``seats`` leave: before the game begins a joiner's seat is open again for
        another (the room is its creator's: only they close it); after, they `resign`."""
        if self.game is not None:
            self.resign(seats)
            return
        for place in (self.seats[seat] for seat in seats):
            if place.kind == "remote":  # the creator's own seats close the room (`RoomDesk.resign`)
                place.name = place.token_hash = None
                place.profile, place.missed = None, 0

    @property
    def left(self) -> bool:
        """Every player of a game in play has left it (bots play it out): nobody's game in play."""
        return self.status == "playing" and not any(s.human and not s.stand_in for s in self.seats)

    def notify(self, kind: str, seat: int) -> None:
        """Tell every seat what the clock did to ``seat`` (missed, stand-in, adjourned, resumed)."""
        events = len(self.game.events) if self.game is not None else 0
        notice = {"kind": kind, "seat": seat, "name": self.seats[seat].name, "event": events}
        self.notices = [*self.notices, notice][-MAX_NOTICES:]

    # -- what is due ------------------------------------------------------------
    @property
    def bots_to_play(self) -> bool:
        """A bot's roll or choice is due (and the game is not adjourned)."""
        return self.game is not None and self.game.due().wait in BOTS_DUE and self.adjourned is None

    def abandoned(self, now: float, idle_seconds: float) -> bool:
        """A ranked game nobody acted in for ``idle_seconds``: walked away from. It is played to the end
        and counts as it stood (`abandon`), never dropped with a bad score."""
        game = self.game
        return (
            self.kind == "ranked" and game is not None and not game.state.is_over
            and any(s.human and not s.stand_in for s in self.seats)
            and now - self.touched >= idle_seconds
        )

    def due_at(self, idle_seconds: float, *, saved: bool = False) -> float:
        """When a server must next look at the room: now for a bot to play or a game to save (unless
        ``saved``: the write that says when keeps the game too), its clock, its rematch, its closing,
        else when it will have been idle ``idle_seconds``."""
        times = [self.touched + idle_seconds]
        if self.deadline is not None:
            times.append(self.deadline)
        if self.rematch is not None and self.rematch.pending:  # due at once when all answered
            times.append(0.0 if self.rematch.settled else self.rematch.deadline)
        game = self.game
        if self.bots_to_play:
            times.append(0.0)
        if game is not None and not game.state.is_over and self.closes_at is not None:
            times.append(self.closes_at)
        if game is not None and game.state.is_over and game.saved_id is None and not saved:
            times.append(0.0)
        return min(times)

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
                Refusal.OVER, "you answered the rematch of room {code} already", code=self.code
            )
        if self.rematch is None:
            if not accept:
                raise RefusedError(
                    Refusal.MALFORMED, "nobody offered a rematch in room {code}", code=self.code
                )
            # Bots play again; every player is asked, one who left too: they may be back by now.
            answers: dict[int, bool | None] = {s.index: None if s.human else True for s in self.seats}
            self.rematch = Rematch(held[0], answers, now + seconds, self.next_dice or FairDice())
        for seat in held:
            self.rematch.answers[seat] = accept
        if accept and client_seed is not None:
            self.rematch.dice.add_client_seed(client_seed)

    def rematch_due(self, now: float) -> bool:
        """The rematch can be settled: everyone answered, or its time ran out."""
        rematch = self.rematch
        return rematch is not None and rematch.pending and (rematch.settled or now >= rematch.deadline)
