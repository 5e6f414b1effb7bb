"""A game in play: the one driver of every interface (web rooms, the Textual app, the plain game,
the remote daily client, the Gymnasium environment, the load tester).

`Game` holds the frozen `Match`, the dice that feed it, the bots seated at it
and the record of every action. Interfaces differ in how they show a state and
read an action, never in how a game advances, rolls, records or saves: each
only schedules the one step API, as OpenSpiel's ``evaluate_bots`` does::

    due = game.due()                    # what the game waits for now, and at which state
    if due.wait is Wait.CHANCE:         # a bot's dice: the game rolls them
        game.play(due, ROLL)
    elif due.wait is Wait.BOT:          # a bot thinks (anywhere: a thread, a worker process) …
        game.play(due, game.think(due)) # … and its choice applies only at the state it was for
    elif due.wait is Wait.PERSON:       # a person rolls (ROLL), chooses dice or tiles, or types faces
        game.play(due, what_they_chose)

An action that raises leaves the game exactly as it was; one chosen for a state the game
has left is refused (`StaleActionError`). A bot that fails, or keeps its shell waiting
past its ``patience``, is replaced for that choice by its ``fallback`` (`rescue`): the
policies are composed in `shutthebox.strategy.bots` when the game is built, and no shell
looks at a bot's name.

Dice are rolled by the game itself: under the fair scheme by default (`core.fair`:
committed before play, revealed at the end, ranked), or from a chosen seed for practice
and replays (unranked). Only a game played at a real wooden box (``by_hand``, companion
mode) takes dice typed in (a `Roll` played); it is kept, marked, and counts for no best.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Final, Literal, Protocol

from shutthebox.core.board import Move
from shutthebox.core.chance import DiceSource, SeededDice
from shutthebox.core.dice import Roll
from shutthebox.core.errors import IllegalActionError, StaleActionError
from shutthebox.core.fair import FairDice, Fairness
from shutthebox.core.match import Action, DiceChoice, Match, Phase
from shutthebox.core.ranking import IN_TURN, Help, help_cost
from shutthebox.core.record import Event, GameRecord, Played, outcome_of
from shutthebox.core.rules import Rules

__all__ = ["ROLL", "Chooser", "Due", "Game", "Keeper", "Step", "Thought", "Wait"]

ROLL: Final = "roll"
"""The step that asks the game to roll the dice due, from its own source."""
Step = Action | Literal["roll"]
"""What a seat may do: ask for the roll, choose dice or tiles, or (at a real box) type the faces."""


class Chooser(Protocol):
    """A bot: thinks of one die or two, or the tiles, for a state that waits on a choice; its
    ``fallback`` chooses instead when it fails or takes longer than ``patience`` seconds (None:
    it may take its time), as `shutthebox.strategy.bots` composes them."""

    @property
    def fallback(self) -> Chooser | None: ...

    @property
    def patience(self) -> float | None: ...

    def think(self, state: Match) -> DiceChoice | Move: ...


class Wait(StrEnum):
    """What a game waits for."""

    CHANCE = "chance"  # a bot's dice: the game rolls them (`play` the ROLL)
    BOT = "bot"  # a bot's choice of dice or tiles (`think`, then `play` it)
    PERSON = "person"  # a person: to ask for the roll, choose dice or tiles, or type the faces
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Due:
    """What the game waits for, and the state it waits at: a step chosen for it applies only there."""

    wait: Wait
    state: Match

    @property
    def seat(self) -> int | None:
        return self.state.actor


@dataclass(frozen=True, slots=True)
class Thought:
    """A bot's thinking about a state, as a value: called, it gives the bot's choice. A shell may
    run it anywhere, a worker process too (it pickles when its bot does)."""

    bot: Chooser
    state: Match

    def __call__(self) -> DiceChoice | Move:
        return self.bot.think(self.state)


class Keeper(Protocol):
    """Where finished games are kept (the storage's `GameRepository`); answers the id given. ``profiles``
    links seats to the player profiles who played them; a game saved again under the same
    ``origin`` is kept once; one ``sealed_until`` a moment shows its record to nobody before."""

    def save(
        self, record: GameRecord, *, source: str, profiles: Mapping[int, int] | None = None,
        origin: str | None = None, sealed_until: datetime | None = None, ended: Match | None = None,
    ) -> int: ...


class Game:
    """A match in play with its dice, its bots and its record."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        *,
        seed: int | None = None,
        dice: DiceSource | None = None,
        rounds: int = 1,
        bots: Mapping[int, Chooser] | None = None,
        by_hand: bool = False,
        client_seeds: Sequence[str] = (),
    ) -> None:
        """The dice: ``dice`` if given; else, ``by_hand``, every roll typed in from a real box (the
        bots' too); else from ``seed`` when one is chosen (practice, unranked); else fair dice
        with these ``client_seeds``."""
        self.state = Match.new(rules, players, rounds=rounds)
        if dice is None and not by_hand:
            dice = SeededDice(seed) if seed is not None else FairDice(client_seeds=client_seeds)
        self.dice = dice
        self.seed = dice.seed if isinstance(dice, SeededDice) else None
        self.by_hand = by_hand
        self.bots: dict[int, Chooser] = dict(bots or {})
        self._standing_in: dict[int, tuple[int, Chooser]] = {}  # seat -> (its turn, the bot playing it)
        self.events: list[Event] = []
        self.helped: list[Help] = []
        self._helped_turns: set[tuple[int, int]] = set()  # (player, own turns over) of each mark
        self._helped_at: dict[int, Match] = {}  # the state at each mark's event count (`GameRecord.played`)
        self.saved_id: int | None = None

    @property
    def fairness(self) -> Fairness | None:
        """The fair dice's public facts (the seed revealed once the game is over); None otherwise."""
        if not isinstance(self.dice, FairDice):
            return None
        return self.dice.fairness(reveal=self.state.is_over)

    @property
    def ranked(self) -> bool:
        """Every die is rolled under the fair scheme, so the game can count for rankings."""
        return isinstance(self.dice, FairDice) and not self.by_hand

    @property
    def bot_seed(self) -> int | str | None:
        """What the bots' generators are seeded from: the chosen seed, or one drawn from the fair seed."""
        if isinstance(self.dice, FairDice):
            return self.dice.bot_seed
        return self.seed

    @property
    def rules(self) -> Rules:
        return self.state.rules

    # -- the step API ------------------------------------------------------------
    def due(self) -> Due:
        """What the game waits for now: the game's own roll for a bot, a bot's choice, a person."""
        state = self.state
        if state.is_over:
            return Due(Wait.OVER, state)
        if self._bot_of(state.actor) is not None and not (state.is_chance and self.by_hand):
            return Due(Wait.CHANCE if state.is_chance else Wait.BOT, state)
        return Due(Wait.PERSON, state)

    def _bot_of(self, seat: int | None) -> Chooser | None:
        """The bot that plays ``seat`` now: its own, or one standing in for the turn in play."""
        if seat is None:
            return None
        standing = self._standing_in.get(seat)
        if standing is not None:
            if standing[0] == len(self.state.history) and self.state.actor == seat:
                return standing[1]
            del self._standing_in[seat]  # what it stood in for is over: the person is back
        return self.bots.get(seat)

    def play(self, due: Due, step: Step) -> Match:
        """Take ``step`` for the seat ``due`` waits for: `ROLL` (the game rolls the dice due), the faces
        rolled at a real box, a choice of dice, or tiles. It applies only while the game is still at
        ``due.state`` (else `StaleActionError`); anything illegal raises and changes nothing."""
        if due.state is not self.state:
            raise StaleActionError(
                "{step}: the game has moved on since it was chosen; now {state}",
                step=step, state=self.state.describe(),
            )
        if step == ROLL:
            self.roll(due.seat)
        else:
            assert not isinstance(step, str)
            self.act(step, due.seat)
        return self.state

    def check(self, due: Due, step: Step) -> None:
        """Raise what `play` would raise for ``step`` at ``due``, changing nothing (a shell that notes
        something before the step, such as help, checks first)."""
        if due.state is not self.state:
            raise StaleActionError(
                "{step}: the game has moved on since it was chosen; now {state}",
                step=step, state=self.state.describe(),
            )
        if step == ROLL:
            self.check_roll(due.seat)
        else:
            assert not isinstance(step, str)
            self._check_typed(step)
            due.state.apply(step, due.seat)

    def think(self, due: Due) -> DiceChoice | Move:
        """The choice of the bot ``due`` waits for, or its fallback's when it fails. It changes nothing
        of the game and may take a while: a shell may run it in a thread (or run `thought` in a worker
        process), then `play` it if the game is still at that state."""
        try:
            return self.thought(due)()
        except Exception:
            return self.rescue(due)

    def thought(self, due: Due) -> Thought:
        """The bot's thinking about ``due`` as a value, to be run where the shell likes."""
        bot = self._bot_of(due.seat) if due.wait is Wait.BOT else None
        if bot is None:
            raise IllegalActionError("no bot is to choose now; {state}", state=due.state.describe())
        return Thought(bot, due.state)

    def patience(self, due: Due) -> float | None:
        """How long a shell waits for the bot's thinking before its fallback chooses (None: no limit)."""
        return self.thought(due).bot.patience

    def rescue(self, due: Due) -> DiceChoice | Move:
        """The choice of the bot's fallback, when the bot failed or ran out of patience (a bot with no
        fallback: its error stands)."""
        bot = self.thought(due).bot
        if bot.fallback is None:
            return bot.think(due.state)
        return bot.fallback.think(due.state)

    def seat_bot(self, seat: int, bot: Chooser) -> None:
        """A bot plays ``seat`` from now on (seated at the start, or for a player who left)."""
        self.bots[seat] = bot

    def stand_in(self, seat: int, bot: Chooser, turn: int | None = None) -> None:
        """A bot plays for ``seat``, the seat to act, until it is no longer to act or a turn ends (the
        rest of its turn, or its die of the roll-off); the person plays on after it (a player who ran
        out of time once). ``turn``: the turns over when it began (a copy read back says so)."""
        self._standing_in[seat] = (len(self.state.history) if turn is None else turn, bot)

    @property
    def standing_in(self) -> dict[int, int]:
        """The seats a bot stands in for now, each with the turns over when it began (`stand_in`)."""
        for seat in list(self._standing_in):
            self._bot_of(seat)  # a stand-in whose turn is over leaves
        return {seat: turn for seat, (turn, _bot) in self._standing_in.items()}

    @property
    def bots_seated(self) -> frozenset[int]:
        """The seats a bot plays for the whole game (from the start, or since its player left)."""
        return frozenset(self.bots)

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` now (its own, or one standing in for the turn)."""
        return self._bot_of(seat) is not None

    def unseat_bot(self, seat: int) -> None:
        """A person plays ``seat`` from now on (its bot failed, and a person at the keyboard took it)."""
        self.bots.pop(seat, None)
        self._standing_in.pop(seat, None)

    def step_bots(self) -> list[Action]:
        """Play, one after another, every step the bots are due to take now (their rolls and choices,
        thought here and now): for shells that need not wait; the actions taken (the faces rolled)."""
        taken: list[Action] = []
        while (due := self.due()).wait in (Wait.CHANCE, Wait.BOT):
            self.play(due, ROLL if due.wait is Wait.CHANCE else self.think(due))
            taken.append(self.events[-1].action)
        return taken

    # -- acting at the current state --------------------------------------------------
    def act(self, action: Action, player: int | None = None) -> Match:
        """Apply a choice of dice, a move, or (companion mode only) the faces of dice rolled by hand,
        at the current state (`play` checks the state it was chosen at first)."""
        self._check_typed(action)
        actor = self.state.actor
        self.state = self.state.apply(action, player)
        assert actor is not None
        self.events.append(Event(actor, action, typed=isinstance(action, Roll)))
        return self.state

    def _check_typed(self, action: Action) -> None:
        if isinstance(action, Roll) and not self.by_hand:
            raise IllegalActionError(
                "typed dice are only for a game at a real box (companion mode); here the game rolls; "
                "{state}", state=self.state.describe(),
            )

    def check_roll(self, player: int | None = None) -> None:
        """Raise what `roll` would raise now, changing nothing."""
        state = self.state
        if not state.dice_due:
            if state.phase is Phase.CHOOSE:
                raise IllegalActionError("roll: choose one die or two first; {state}", state=state.describe())
            raise IllegalActionError("roll: nothing is to be rolled now; {state}", state=state.describe())
        state.check_turn(player)
        if self.dice is None:
            raise IllegalActionError(
                "roll: the dice are rolled by hand here; {state}", state=state.describe()
            )

    def roll(self, player: int | None = None) -> Roll:
        """Roll the dice the state asks for, from the game's own source, at the current state."""
        self.check_roll(player)
        state = self.state
        assert self.dice is not None
        faces = self.dice.roll(state.dice_due)
        self.state = state.apply(faces, player)
        assert state.actor is not None
        self.events.append(Event(state.actor, faces))
        return faces

    def assist(self, player: int) -> bool:
        """Note that ``player`` has help from now on in their turn (a hint, a stand-in bot, leaving the
        game): for the rankings that turn counts as it stands now (`core.ranking`). Noted once a turn,
        and never during the roll-off, which is nobody's turn; whether it was noted now."""
        state = self.state
        if state.is_over or state.phase is Phase.ROLL_OFF:
            return False
        turn = (player, sum(1 for t in state.history if t.player == player))
        if turn in self._helped_turns:
            return False
        self._helped_turns.add(turn)
        self.helped.append(Help(player, len(self.events)))
        self._helped_at[len(self.events)] = state
        return True

    @property
    def assisted(self) -> frozenset[int]:
        """The players who had help in this game."""
        return frozenset(h.player for h in self.helped)

    def help_would_cost(self, player: int) -> int | None:
        """The score ``player``'s turn would count for in the rankings if help came now; None when help
        costs nothing now (an unranked game, not their turn, help had already this turn)."""
        state = self.state
        if not self.ranked or state.actor != player or state.phase not in IN_TURN:
            return None
        if (player, sum(1 for t in state.history if t.player == player)) in self._helped_turns:
            return None
        return help_cost(state, player)

    # -- record and keeping -----------------------------------------------------
    def record(self) -> GameRecord:
        """The record of the game so far (with its result once it is over)."""
        return GameRecord(
            rules=self.state.rules,
            players=self.state.players,
            events=tuple(self.events),
            seed=self.seed,
            rounds=self.state.rounds,
            result=outcome_of(self.state) if self.state.is_over else None,
            fairness=self.fairness,
            assisted=tuple(sorted(self.assisted)),
            helped=tuple(self.helped),
            played=Played(self.state, dict(self._helped_at)),  # what it counts for: no replay needed
        )

    def save(
        self, keeper: Keeper, *, source: str, profiles: Mapping[int, int] | None = None,
        origin: str | None = None, sealed_until: datetime | None = None,
    ) -> int:
        """Keep the finished game, once (``origin``: once even across processes and crashes, where a
        save may be tried again; ``sealed_until``: its record nobody's until then); its id."""
        if not self.state.is_over:
            raise IllegalActionError("only a finished game is kept; {state}", state=self.state.describe())
        if self.saved_id is None:
            record = self.record()
            if origin is None and sealed_until is None:  # a keeper of plain games may know no more
                self.saved_id = keeper.save(record, source=source, profiles=profiles)
            else:
                self.saved_id = keeper.save(  # where it ended, as the engine played it: no replay again
                    record, source=source, profiles=profiles, origin=origin, sealed_until=sealed_until,
                    ended=self.state,
                )
        return self.saved_id
