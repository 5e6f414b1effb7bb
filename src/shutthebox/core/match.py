"""The flow of a whole game as one frozen state: turns, rounds and every way to play.

A `Match` is a value. `match.apply(action)` checks the action and returns the
next state; an illegal action raises a `ValueError` subclass naming the action
and the state, and the old state stays as it was. The three actions are
`DiceChoice` (one die or two, when the rules let the player choose), `Roll`
(a chance action: the faces shown) and `Move` (the tiles shut, or opened).

A state answers for itself, as game states do in OpenSpiel: `actor` is who
acts now; `is_chance` says the next action is a roll, `dice_due` of how many
dice, and `chance_outcomes()` gives each roll with its exact probability;
otherwise `legal_actions()` lists the choices open to the player.

Ways to play (rules §5): solo and round (§5.1, §5.2: roll-off for the starter,
``shut_wins``, tie-break rounds among the tied, stakes), elimination to the
limit (§5.3) and the long game (§5.4: one board, the starter shuts, the other
opens, extra turns on doubles).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from shutthebox.core.board import Board, Move, subsets_with_sum, tiles_of
from shutthebox.core.chance import outcomes
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.errors import (
    N_,
    IllegalActionError,
    OutOfTurnError,
    Phrase,
    RulesError,
    plural_phrase,
    quoted,
)
from shutthebox.core.rules import Mode, OneDie, Rules, Scoring

__all__ = ["Action", "DiceChoice", "Match", "Phase", "TurnResult", "legal_moves"]


class Phase(StrEnum):
    """What the match waits for."""

    ROLL_OFF = "roll-off"  # a contender rolls one die to decide who starts
    CHOOSE = "choose"  # the player chooses one die or two
    ROLL = "roll"  # the dice are to be rolled
    MOVE = "move"  # the player chooses tiles matching the roll
    OVER = "over"


Action = DiceChoice | Roll | Move


@dataclass(frozen=True, slots=True)
class TurnResult:
    """How one turn ended."""

    player: int
    round: int
    tiebreak: int
    board: Board
    last_roll: Roll | None
    score: int | None  # None in the long game, where turns are not scored
    opening: bool = False


def legal_moves(rules: Rules, target: int, total: int) -> tuple[Move, ...]:
    """Every set of tiles in ``target`` summing to ``total`` (rules §2, §7 ``max_tiles``)."""
    return _legal_moves(rules.tiles, rules.max_tiles, target, total)


@lru_cache(maxsize=8192)  # asked at every roll, and by every state drawn: the same few boards and totals
def _legal_moves(tiles: int, max_tiles: int | None, target: int, total: int) -> tuple[Move, ...]:
    return tuple(Move(mask) for mask in subsets_with_sum(tiles, total, max_tiles) if mask & target == mask)


@dataclass(frozen=True)
class Match:
    """A game in progress: who acts, on what board, and everything decided so far."""

    rules: Rules
    players: tuple[str, ...]
    rounds: int = 1
    phase: Phase = Phase.ROLL_OFF
    actor: int | None = 0
    board: Board = field(default_factory=Board.full)
    opening: bool = False
    dice_count: int | None = None
    roll: Roll | None = None
    extra_turns: int = 0
    order: tuple[int, ...] = ()
    position: int = 0
    round: int = 1
    tiebreak: int = 0
    round_scores: tuple[tuple[int, int], ...] = ()
    totals: tuple[int, ...] = ()
    alive: tuple[bool, ...] = ()
    ledger: tuple[int, ...] = ()
    pot: int = 0
    contenders: tuple[int, ...] = ()
    rolloff_faces: tuple[int, ...] = ()
    round_winners: tuple[int, ...] = ()
    history: tuple[TurnResult, ...] = ()
    winner: int | None = None

    def _but(self, **changes: object) -> Match:
        """This state with ``changes``: `dataclasses.replace` without running ``__init__`` again (a
        state is made several times in each action; its fields are values, checked as they were
        made)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__, **changes)
        return new

    # -- creation ----------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, players: Sequence[str], *, rounds: int = 1) -> Match:
        """A fresh match; with two or more players it opens with the roll-off."""
        players = tuple(players)
        count = len(players)
        if count == 0:
            raise RulesError("a game needs at least one player")
        if len(set(players)) != count:
            raise RulesError("player names must differ: {players}", players=quoted(list(players)))
        if rules.mode is Mode.SOLO and count != 1:
            raise RulesError("solo is played by one player, not {count}", count=count)
        if rules.mode is Mode.LONG and count != 2:
            raise RulesError("the long game is played by two players, not {count}", count=count)
        if rules.mode is Mode.ELIMINATION and count < 2:
            raise RulesError("elimination needs two or more players, not {count}", count=count)
        if not isinstance(rounds, int) or rounds < 1:
            raise RulesError("rounds must be 1 or more, not {rounds!r}", rounds=rounds)
        if (
            count > 1
            and rules.mode in (Mode.ROUND, Mode.ELIMINATION)
            and rules.tiles == 1
            and rules.one_die is OneDie.NEVER
            and rules.scoring is not Scoring.SUM_PLUS_ROLL
        ):
            # two dice never shut tile 1: every turn scores the same and the tie-breaks never end
            never = (
                N_("a round for {count} players on one tile can never end when one die is never allowed")
                if rules.mode is Mode.ROUND
                else N_(
                    "an elimination for {count} players on one tile can never end"
                    " when one die is never allowed"
                )
            )
            raise RulesError(never, count=count)
        state = cls(
            rules=rules,
            players=players,
            rounds=rounds,
            board=Board.full(rules.tiles),
            totals=(0,) * count,
            alive=(True,) * count,
            ledger=(0,) * count,
        )
        if rules.mode is not Mode.ROUND:
            state = state._ante(range(count))
        if count == 1:
            return state._start_round((0,))
        return state._roll_off(tuple(range(count)))

    # -- what can be done now ------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def target(self) -> int:
        """Mask of the tiles the player works on: open ones, or shut ones when opening."""
        return self.board.shut_mask if self.opening else self.board.mask

    @property
    def dice_options(self) -> tuple[int, ...]:
        """How many dice the player may roll now: the choice, or the one count a roll due takes."""
        if self.phase is Phase.CHOOSE:
            return self.rules.dice_options(self.target)
        return (self.dice_due,) if self.dice_due else ()

    @property
    def dice_due(self) -> int:
        """How many dice the roll due now takes: one in the roll-off, the count chosen, or 0 (no roll due)."""
        if self.phase is Phase.ROLL_OFF:
            return 1
        if self.phase is Phase.ROLL and self.dice_count is not None:
            return self.dice_count
        return 0

    @property
    def is_chance(self) -> bool:
        """The next action is a roll of the dice (`dice_due` of them), not a player's choice."""
        return self.phase in (Phase.ROLL, Phase.ROLL_OFF)

    @property
    def is_decision(self) -> bool:
        """The player to act chooses now: one die or two, or the tiles for the roll."""
        return self.phase in (Phase.CHOOSE, Phase.MOVE)

    def chance_outcomes(self) -> tuple[tuple[Roll, Fraction], ...]:
        """Every roll the dice due can show, with its exact probability; empty unless a roll is due."""
        return outcomes(self.dice_due) if self.dice_due else ()

    def legal_actions(self) -> tuple[DiceChoice | Move, ...]:
        """The choices open to the player to act: dice counts, or moves for the roll; empty at a roll."""
        if self.phase is Phase.CHOOSE:
            return tuple(DiceChoice(count) for count in self.dice_options)
        return self.legal_moves

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the player may make with the current roll."""
        if self.phase is not Phase.MOVE or self.roll is None:
            return ()
        return legal_moves(self.rules, self.target, self.roll.total)

    @property
    def alive_players(self) -> tuple[int, ...]:
        return tuple(i for i, alive in enumerate(self.alive) if alive)

    def describe(self) -> Phrase:
        """The state in words, for error messages: who is to do what, on which board."""
        if self.phase is Phase.OVER:
            return Phrase(N_("the game is over"))
        board = N_("opening [{board}]") if self.opening else N_("board [{board}]")
        where = Phrase(board, {"board": self.board})
        who = {"player": quoted(self.players[self.actor]) if self.actor is not None else "?", "where": where}
        if self.phase is Phase.ROLL_OFF:
            return Phrase(N_("{player} rolls one die for the starting order; {where}"), who)
        if self.phase is Phase.CHOOSE:
            return Phrase(N_("{player} chooses one die or two; {where}"), who)
        if self.phase is Phase.ROLL:
            return plural_phrase(
                "{player} rolls {count} die; {where}",
                "{player} rolls {count} dice; {where}",
                self.dice_due,
                **who,
            )
        assert self.roll is not None
        return Phrase(
            N_("{player} matches the roll {roll} = {total}; {where}"),
            {**who, "roll": self.roll, "total": self.roll.total},
        )

    # -- acting ---------------------------------------------------------------
    def apply(self, action: Action, player: int | None = None) -> Match:
        """The state after ``action``; ``player``, when given, must be the one to act."""
        self.check_turn(player, action)
        if isinstance(action, DiceChoice):
            return self._choose(action)
        if isinstance(action, Roll):
            return self._rolled(action)
        if isinstance(action, Move):
            return self._moved(action)
        raise IllegalActionError("{action!r} is not an action of this game", action=action)

    def check_turn(self, player: int | None, action: Action | None = None) -> None:
        """Raise `OutOfTurnError` unless ``player`` (when given) is the one to act."""
        if self.phase is Phase.OVER:
            if action is None:
                raise IllegalActionError("the game is over")
            raise IllegalActionError("{action}: the game is over", action=action)
        if player is not None and player != self.actor:
            name = quoted(self.players[player] if 0 <= player < len(self.players) else f"#{quoted(player)}")
            if action is None:
                raise OutOfTurnError(
                    "{player}: it is not their turn ({state})",
                    player=name, state=self.describe(),
                )
            raise OutOfTurnError(
                "{action} by {player}: it is not their turn ({state})",
                action=action, player=name, state=self.describe(),
            )

    def _choose(self, choice: DiceChoice) -> Match:
        if self.phase is not Phase.CHOOSE:
            if self.phase is Phase.ROLL and choice.count == self.dice_count:
                raise IllegalActionError(  # a choice that changes nothing is refused, never recorded
                    "{choice}: already chosen; roll the dice; {state}", choice=choice, state=self.describe()
                )
            on = ", ".join(map(str, tiles_of(self.target))) or "-"
            if self.phase is not Phase.ROLL:
                reason = N_("{choice}: there is no choice of dice now; {state}")
            elif self.dice_count == 1:
                reason = N_(
                    "{choice}: one die is forced on tiles {tiles}"
                    " (one-die rule {rule}, one die forced); {state}"
                )
            else:
                reason = N_(
                    "{choice}: one die is not allowed on tiles {tiles} (one-die rule {rule}); {state}"
                )
            raise IllegalActionError(
                reason, choice=choice, tiles=on, rule=self.rules.one_die, state=self.describe()
            )
        if choice.count not in self.dice_options:
            raise IllegalActionError(
                "{choice}: choose one die or two; {state}", choice=choice, state=self.describe()
            )
        return self._but(phase=Phase.ROLL, dice_count=choice.count)

    def _rolled(self, roll: Roll) -> Match:
        if self.phase is Phase.ROLL_OFF:
            if len(roll.dice) != 1:
                raise IllegalActionError(
                    "roll {roll}: the roll-off uses one die; {state}", roll=roll, state=self.describe()
                )
            return self._rolled_off(roll.dice[0])
        if self.phase is Phase.CHOOSE:
            raise IllegalActionError(
                "roll {roll}: choose one die or two first; {state}", roll=roll, state=self.describe()
            )
        if self.phase is not Phase.ROLL:
            raise IllegalActionError(
                "roll {roll}: the roll must be used first; {state}", roll=roll, state=self.describe()
            )
        if len(roll.dice) != self.dice_count:
            raise IllegalActionError(
                "roll {roll} shows {shown}, {due} were to be rolled; {state}",
                roll=roll, shown=DiceChoice(len(roll.dice)), due=DiceChoice(self.dice_due),
                state=self.describe(),
            )
        rolled = self._but(roll=roll, dice_count=None)
        if legal_moves(self.rules, self.target, roll.total):
            return rolled._but(phase=Phase.MOVE)
        extra = self.extra_turns + int(self.rules.doubles_extra_turn and roll.is_double)
        if extra > 0:
            return rolled._but(extra_turns=extra - 1)._await_roll()
        return rolled._end_turn()

    def _moved(self, move: Move) -> Match:
        if self.phase is not Phase.MOVE or self.roll is None:
            raise IllegalActionError(
                "move {move}: there is no roll to match; {state}", move=move, state=self.describe()
            )
        self._check_move(move, self.roll)
        board = self.board.reopen(move) if self.opening else self.board.shut(move)
        extra = self.extra_turns + int(self.rules.doubles_extra_turn and self.roll.is_double)
        moved = self._but(board=board, extra_turns=extra)
        if moved.target == 0 and self.rules.mode is Mode.LONG:
            assert self.actor is not None
            return moved._record_long_turn()._finish(self.actor)  # §5.4: shut or opened all
        if moved.target == 0:
            return moved._end_turn()
        return moved._await_roll()

    def _check_move(self, move: Move, roll: Roll) -> None:
        outside = move.mask & ~self.target
        if outside:
            bad = ", ".join(map(str, tiles_of(outside)))
            if move.mask >> self.rules.tiles:
                raise IllegalActionError(
                    "move {move}: the board has tiles 1 to {tiles}; {state}",
                    move=move, tiles=self.rules.tiles, state=self.describe(),
                )
            already = (
                N_("move {move}: tile {bad} is already open; {state}")
                if self.opening
                else N_("move {move}: tile {bad} is already shut; {state}")
            )
            raise IllegalActionError(already, move=move, bad=bad, state=self.describe())
        if move.total != roll.total:
            raise IllegalActionError(
                "move {move} adds up to {sum}, the roll {roll} is {total}; {state}",
                move=move, sum=move.total, roll=roll, total=roll.total, state=self.describe(),
            )
        if self.rules.max_tiles is not None and len(move) > self.rules.max_tiles:
            raise IllegalActionError(
                "move {move} uses {count} tiles, at most {most} per roll; {state}",
                move=move, count=len(move), most=self.rules.max_tiles, state=self.describe(),
            )

    # -- the flow ---------------------------------------------------------------
    def _await_roll(self) -> Match:
        options = self.rules.dice_options(self.target)
        if len(options) == 1:
            return self._but(phase=Phase.ROLL, dice_count=options[0])
        return self._but(phase=Phase.CHOOSE, dice_count=None)

    def _start_turn(self, player: int, board: Board, *, opening: bool = False) -> Match:
        return self._but(actor=player, board=board, opening=opening, roll=None, extra_turns=0
        )._await_roll()

    def _roll_off(self, contenders: tuple[int, ...]) -> Match:
        return self._but(phase=Phase.ROLL_OFF,
            actor=contenders[0],
            contenders=contenders,
            rolloff_faces=(),
            dice_count=1,
        )

    def _rolled_off(self, face: int) -> Match:
        faces = (*self.rolloff_faces, face)
        if len(faces) < len(self.contenders):
            return self._but(rolloff_faces=faces, actor=self.contenders[len(faces)])
        best = max(faces)
        tied = tuple(p for p, f in zip(self.contenders, faces, strict=True) if f == best)
        settled = self._but(rolloff_faces=faces)
        if len(tied) > 1:
            return settled._roll_off(tied)
        starter = tied[0]
        seated = self.alive_players
        at = seated.index(starter)
        return settled._start_round(seated[at:] + seated[:at])

    def _ante(self, players: Sequence[int]) -> Match:
        stake = self.rules.stake
        if stake == 0 or len(self.players) < 2:
            return self
        ledger = list(self.ledger)
        for p in players:
            ledger[p] -= stake
        return self._but(ledger=tuple(ledger), pot=self.pot + stake * len(players))

    def _start_round(self, order: tuple[int, ...]) -> Match:
        started = self._but(order=order, position=0, round_scores=())
        if self.rules.mode is Mode.ROUND and self.tiebreak == 0:
            started = started._ante(order)
        return started._start_turn(order[0], Board.full(self.rules.tiles))

    def _end_turn(self) -> Match:
        actor = self.actor
        assert actor is not None
        last = self.roll
        if self.rules.mode is Mode.LONG:
            passed = self._record_long_turn()
            return passed._start_turn(1 - actor, self.board, opening=not self.opening)
        score = self.rules.score(self.board.mask, last.total if last else 0)
        result = TurnResult(actor, self.round, self.tiebreak, self.board, last, score)
        ended = self._but(history=(*self.history, result),
            round_scores=(*self.round_scores, (actor, score)),
            roll=None,
            phase=Phase.ROLL,
        )
        if self.board.is_shut and self.rules.mode is Mode.ROUND:
            ended = ended._pay_shut_box(actor)
            if self.rules.shut_wins:
                return ended._win_round(actor)
        if self.position + 1 < len(self.order):
            nxt = ended._but(position=self.position + 1)
            return nxt._start_turn(self.order[self.position + 1], Board.full(self.rules.tiles))
        return ended._settle_round()

    def _record_long_turn(self) -> Match:
        assert self.actor is not None
        result = TurnResult(self.actor, self.round, 0, self.board, self.roll, None, self.opening)
        return self._but(history=(*self.history, result))

    def _pay_shut_box(self, shutter: int) -> Match:
        """Every other player of the round pays the shutter double the stake (§5.2)."""
        double = 2 * self.rules.stake
        if double == 0:
            return self
        ledger = list(self.ledger)
        for p in self.order:
            if p != shutter:
                ledger[p] -= double
                ledger[shutter] += double
        return self._but(ledger=tuple(ledger))

    def _settle_round(self) -> Match:
        scores = dict(self.round_scores)
        if self.rules.mode is Mode.ELIMINATION and self.tiebreak == 0:
            return self._settle_elimination(scores)
        best = min(scores.values())
        tied = tuple(p for p in self.order if scores[p] == best)
        if len(tied) == 1:
            return self._win_round(tied[0])
        return self._but(tiebreak=self.tiebreak + 1)._start_round(tied)

    def _settle_elimination(self, scores: dict[int, int]) -> Match:
        totals = list(self.totals)
        for p, score in scores.items():
            totals[p] += score
        alive = tuple(a and totals[p] < self.rules.limit for p, a in enumerate(self.alive))
        settled = self._but(totals=tuple(totals), alive=alive)
        survivors = [p for p in self.order if alive[p]]
        if len(survivors) == 1:
            return settled._finish(survivors[0])
        if survivors:
            return settled._but(round=self.round + 1)._start_round(tuple(survivors))
        best = min(totals[p] for p in self.order)
        tied = tuple(p for p in self.order if totals[p] == best)
        if len(tied) == 1:
            return settled._finish(tied[0])
        return settled._but(tiebreak=1)._start_round(tied)

    def _win_round(self, winner: int) -> Match:
        if self.rules.mode is Mode.ELIMINATION:
            return self._finish(winner)
        won = self._but(round_winners=(*self.round_winners, winner))._collect(winner)
        if self.round >= self.rounds:
            return won._over(won._match_winner())
        return won._but(round=self.round + 1, tiebreak=0)._roll_off(self._seated())

    def _seated(self) -> tuple[int, ...]:
        return tuple(range(len(self.players)))

    def _collect(self, winner: int) -> Match:
        if self.pot == 0:
            return self
        ledger = list(self.ledger)
        ledger[winner] += self.pot
        return self._but(ledger=tuple(ledger), pot=0)

    def _finish(self, winner: int) -> Match:
        won = self._but(round_winners=(*self.round_winners, winner))._collect(winner)
        return won._over(winner)

    def _over(self, winner: int | None) -> Match:
        return self._but(phase=Phase.OVER, winner=winner, actor=None, dice_count=None)

    def _match_winner(self) -> int | None:
        """Most rounds won; a tie for most leaves the match drawn (None)."""
        wins = [self.round_winners.count(p) for p in range(len(self.players))]
        best = max(wins)
        leaders = [p for p, w in enumerate(wins) if w == best]
        return leaders[0] if len(leaders) == 1 else None
