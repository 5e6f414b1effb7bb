"""Hints: every choice open to the player, ranked by the exact solver.

`advise(state)` picks the objective that fits the situation — a solo turn wants
the lowest expected score; every player of a round of two to eight the best
chance to win it from their seat (or, playing for stakes, the best expected
result in stakes); the long game the win — and values each choice (one die or
two before a roll; each legal move after it) with its loss against the best.
`advise_position` does the same for a bare position, for ``shutthebox hint``
and for players at a real box.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.errors import IllegalActionError
from shutthebox.core.rules import Mode, Rules
from shutthebox.strategy.names import ROUND_OBJECTIVES, ROUND_PLAYERS, Objective
from shutthebox.strategy.plain import PlainTurn, plain_fits

TYPE_CHECKING = False  # typing is not imported at run time: a hint starts here
if TYPE_CHECKING:
    from typing import Any

    from shutthebox.core.match import Match
    from shutthebox.strategy.solver import Solution

__all__ = [
    "ROUND_OBJECTIVES", "Advice", "Choice", "Seat", "advise", "advise_position", "objective_for", "seat_of",
    "solution_for",
]


@dataclass(frozen=True, slots=True)
class Seat:
    """A player's place in a round (rules §5.2): all a solved round needs to find the player's turn."""

    players: int = 2  # in this round: the tied only, in a tie-break
    seat: int = 0  # the place in this round's order of play, 0 first
    best: int | None = None  # the best score posted before (None for the first to play)
    ties: int = 1  # how many posted it
    pot: int | None = None  # stakes in the pot: every player's of the match (None: this round's)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "seat": self.seat, "best": self.best, "ties": self.ties,
                "pot": self.pot if self.pot is not None else self.players}


def seat_of(state: Match) -> Seat | None:
    """The mover's place in a round of two to eight, or None (solo, elimination, the long game, a round
    of more players)."""
    if state.rules.mode is not Mode.ROUND or len(state.order) not in ROUND_PLAYERS:
        return None
    posted = [score for _, score in state.round_scores]
    if not posted:
        return Seat(len(state.order), state.position, pot=len(state.players))
    best = min(posted)
    return Seat(len(state.order), state.position, best, posted.count(best), len(state.players))


@dataclass(frozen=True, slots=True)
class Choice:
    """One option with its value and what it costs against the best."""

    action: DiceChoice | Move
    label: str
    value: float
    loss: float

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"label": self.label, "value": self.value, "loss": self.loss}
        if isinstance(self.action, Move):
            data["shut"] = list(self.action.tiles)
        else:
            data["dice"] = self.action.count
        return data


@dataclass(frozen=True, slots=True)
class Advice:
    """The ranked choices of one decision, best first."""

    objective: Objective
    target: int | None
    lower_is_better: bool
    value: float  # of the position, playing on optimally
    choices: tuple[Choice, ...]
    seat: Seat | None = None  # in a round: the player's place, which the values depend on

    @property
    def best(self) -> Choice | None:
        return self.choices[0] if self.choices else None

    def loss_of(self, action: DiceChoice | Move) -> float:
        """What ``action`` costs against the best choice."""
        for choice in self.choices:
            if choice.action == action:
                return choice.loss
        raise IllegalActionError("{action} is not one of the choices advised", action=action)

    def describe(self) -> str:
        """The advice in one line, e.g. ``shut 5+4 (expected score 6.889)``."""
        if not self.choices:
            return f"{self._unit()} {self.value:.4g}"
        best = self.choices[0]
        verb = "roll" if isinstance(best.action, DiceChoice) else "shut"
        others = "; ".join(f"{c.label} {c.value:.4g}" for c in self.choices[1:4])
        tail = f"; others: {others}" if others else ""
        return f"{verb} {best.label} ({self._unit()} {best.value:.4g}{tail})"

    def _unit(self) -> str:
        return {
            Objective.SCORE: "expected score",
            Objective.SHUT: "chance to shut",
            Objective.BEAT: f"chance to score under {self.target}",
            Objective.TIE_OR_BEAT: f"chance to score {self.target} or less",
            Objective.LONG: "chance to win",
            Objective.WIN: "chance to win the round",
            Objective.STAKE: "expected result in stakes",
        }[self.objective]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "objective": str(self.objective),
            "target": self.target,
            "lower_is_better": self.lower_is_better,
            "value": self.value,
            "choices": [c.to_json() for c in self.choices],
        }
        if self.seat is not None:
            data["seat"] = self.seat.to_json()
        return data


def objective_for(state: Match) -> tuple[Objective, int | None]:
    """What an optimal player wants in this state of a match."""
    if state.rules.mode is Mode.LONG:
        return Objective.LONG, None
    if seat_of(state) is not None:  # every seat plays the round solved for its players
        return (Objective.STAKE if state.rules.stake else Objective.WIN), None
    if state.rules.mode is Mode.ROUND and state.round_scores:  # more than eight: beat the best posted
        best = min(score for _, score in state.round_scores)
        if best == 0:
            return Objective.TIE_OR_BEAT, 0  # only a shut box ties a shut box
        return Objective.BEAT, best
    return Objective.SCORE, None


def solution_for(
    rules: Rules, objective: Objective, target: int | None = None, *, opening: bool = False,
    seat: Seat | None = None,
) -> Solution:
    """The solved turn to consult: for the long game, the mover's role; for a round, the mover's seat
    (by default the first of two)."""
    from shutthebox.strategy.solver import solve, solve_long, solve_round  # NumPy: loaded when needed

    if objective is Objective.LONG:
        return solve_long(rules).for_role(opening)
    if objective in ROUND_OBJECTIVES:
        seat = seat or Seat()
        return solve_round(rules, seat.players, objective, pot=seat.pot).turn(seat.seat, seat.best, seat.ties)
    return solve(rules, objective, target)


def advise(state: Match, objective: Objective | None = None, target: int | None = None) -> Advice:
    """Ranked choices for the player to act in ``state`` (CHOOSE, ROLL or MOVE phase)."""
    from shutthebox.core.match import Phase  # `shutthebox hint` asks of a bare position: no match

    if objective is None:
        objective, target = objective_for(state)
    roll = state.roll if state.phase is Phase.MOVE else None
    if state.phase not in (Phase.CHOOSE, Phase.ROLL, Phase.MOVE):
        raise IllegalActionError("there is nothing to advise: {state}", state=state.describe())
    return advise_position(
        state.rules,
        state.target,
        roll,
        objective=objective,
        target=target,
        extra=state.extra_turns,
        opening=state.opening,
        seat=seat_of(state) if objective in ROUND_OBJECTIVES else None,
    )


def advise_position(
    rules: Rules,
    target_mask: int,
    roll: Roll | None = None,
    *,
    objective: Objective = Objective.SCORE,
    target: int | None = None,
    extra: int = 0,
    opening: bool = False,
    one_off: bool = False,
    seat: Seat | None = None,
) -> Advice:
    """Ranked choices for a bare position: the tiles to work on, and the roll if rolled (in a round,
    from the player's ``seat``: by default the first of two).

    ``one_off``: the only question of a process (``shutthebox hint``), so a position with few open
    tiles is solved in plain Python rather than waiting for NumPy (see `shutthebox.strategy.plain`);
    a process that asks again keeps the vectorized solver, whose solved turns it keeps."""
    solution: Solution | PlainTurn
    if one_off and not opening and plain_fits(rules, objective, target_mask, extra):
        solution = PlainTurn(rules, objective, target)
    else:
        if objective in ROUND_OBJECTIVES:
            seat = seat or Seat()
        solution = solution_for(rules, objective, target, opening=opening, seat=seat)
    lower = solution.lower_is_better
    value = solution.value_at(target_mask, extra)
    ranked: list[tuple[DiceChoice | Move, str, float]]
    if roll is None:
        options = sorted(
            solution.dice_values(target_mask, extra).items(),
            key=lambda kv: (kv[1] if lower else -kv[1], -kv[0]),
        )
        ranked = [(DiceChoice(count), _dice_label(count), v) for count, v in options]
    else:
        ranked = [(m, str(m), v) for m, v in solution.move_values(target_mask, roll, extra)]
    best = ranked[0][2] if ranked else value
    choices = tuple(
        Choice(action, label, v, max(0.0, (v - best) if lower else (best - v)))
        for action, label, v in ranked
    )
    return Advice(objective, target, lower, value, choices, seat if objective in ROUND_OBJECTIVES else None)


def _dice_label(count: int) -> str:
    return "1 die" if count == 1 else "2 dice"

