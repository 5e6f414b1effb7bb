"""A game in play: the one driver of every interface (web rooms, the Textual app, the plain game).

`Game` holds the frozen `Match`, the dice that feed it, the bots seated at it
and the record of every action. Interfaces differ in how they show a state and
read an action, never in how a game advances, rolls, records or saves. An
action that raises leaves the game exactly as it was.

Dice are rolled by the game itself (`roll`): under the fair scheme by
default (`core.fair`: committed before play, revealed at the end, ranked), or
from a chosen seed for practice and replays (unranked). Only a game played at
a real wooden box (``by_hand``, companion mode) takes dice typed in (`act` with
a `Roll`); it is kept, marked, and counts for no best.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

from shutthebox.core.board import Move
from shutthebox.core.dice import Roll, SeededDice
from shutthebox.core.errors import IllegalActionError
from shutthebox.core.fair import FairDice, Fairness
from shutthebox.core.match import Action, DiceChoice, Match, Phase
from shutthebox.core.ranking import IN_TURN, Help, help_cost
from shutthebox.core.record import Event, GameRecord, result_of
from shutthebox.core.rules import Rules

__all__ = ["Chooser", "DiceSource", "Game", "Keeper"]


class DiceSource(Protocol):
    """Where a game's rolls come from: `SeededDice`, `ScriptedDice`, the fair scheme's dice."""

    def roll(self, count: int) -> Roll: ...


class Chooser(Protocol):
    """A bot: picks one die or two, or the tiles, for a state that waits on a choice."""

    def choose(self, state: Match) -> DiceChoice | Move: ...


class Keeper(Protocol):
    """Where finished games are kept (the storage's `GameRepository`); answers the id given. ``profiles``
    links seats to the player profiles who played them; a game saved again under the same
    ``origin`` is kept once; one ``sealed_until`` a moment shows its record to nobody before."""

    def save(
        self, record: GameRecord, *, source: str, profiles: Mapping[int, int] | None = None,
        origin: str | None = None, sealed_until: datetime | None = None,
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
        self.events: list[Event] = []
        self.helped: list[Help] = []
        self._helped_turns: set[tuple[int, int]] = set()  # (player, own turns over) of each mark
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

    # -- acting ----------------------------------------------------------------
    def act(self, action: Action, player: int | None = None) -> Match:
        """Apply a choice of dice, a move, or (companion mode only) the faces of dice rolled by hand."""
        if isinstance(action, Roll) and not self.by_hand:
            raise IllegalActionError(
                "typed dice are only for a game at a real box (companion mode); here the game rolls; "
                "{state}", state=self.state.describe(),
            )
        actor = self.state.actor
        self.state = self.state.apply(action, player)
        assert actor is not None
        self.events.append(Event(actor, action, typed=isinstance(action, Roll)))
        return self.state

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
        """Roll the dice the state asks for, from the game's own source."""
        self.check_roll(player)
        state = self.state
        assert self.dice is not None
        faces = self.dice.roll(state.dice_due)
        self.state = state.apply(faces, player)
        assert state.actor is not None
        self.events.append(Event(state.actor, faces))
        return faces

    # -- bots ------------------------------------------------------------------
    def bot_to_act(self) -> int | None:
        """The seat of the bot that acts now: it chooses, and rolls unless the dice are rolled by hand."""
        actor = self.state.actor
        if actor is None or actor not in self.bots or (self.state.is_chance and self.by_hand):
            return None
        return actor

    def bot_choice(self, state: Match) -> DiceChoice | Move:
        """What the bot to act in ``state`` chooses (drawing on its own generator). It changes no
        state of the game and may take a while: callers may run it in a thread, then `act` on it
        if the game is still at ``state``."""
        assert state.actor is not None
        return self.bots[state.actor].choose(state)

    def step_bot(self) -> Action:
        """The bot to act takes its action: it rolls when a roll is due, else chooses and plays."""
        seat = self.bot_to_act()
        if seat is None:
            raise IllegalActionError("no bot is to act now; {state}", state=self.state.describe())
        if self.state.is_chance:
            return self.roll(seat)
        choice = self.bot_choice(self.state)
        self.act(choice, seat)
        return choice

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
            events=list(self.events),
            seed=self.seed,
            rounds=self.state.rounds,
            result=result_of(self.state) if self.state.is_over else None,
            fairness=self.fairness,
            assisted=tuple(sorted(self.assisted)),
            helped=tuple(self.helped),
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
                self.saved_id = keeper.save(
                    record, source=source, profiles=profiles, origin=origin, sealed_until=sealed_until
                )
        return self.saved_id
