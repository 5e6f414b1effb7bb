"""Hints: every choice open to the player, ranked by the exact solver.

`advise(state)` picks the objective that fits the situation — a solo turn (or
the first turn of a round of three or more) wants the lowest expected score,
the first player of a two-player round the best chance to win it, a later
player of a round to beat the best score posted, the long game the win — and
values each choice (one die or two before a roll; each legal move after it)
with its loss against the best. `advise_position` does the same for a bare
position, for ``shutthebox hint`` and for players at a real box.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.errors import IllegalActionError
from shutthebox.core.rules import Mode, Rules
from shutthebox.strategy.names import Objective
from shutthebox.strategy.plain import PlainTurn, plain_fits

TYPE_CHECKING = False  # typing is not imported at run time: a hint starts here
if TYPE_CHECKING:
    from typing import Any

    from shutthebox.core.match import Match
    from shutthebox.strategy.solver import Solution

__all__ = ["Advice", "Choice", "advise", "advise_position", "objective_for", "solution_for"]


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
        }[self.objective]

    def to_json(self) -> dict[str, Any]:
        return {
            "objective": str(self.objective),
            "target": self.target,
            "lower_is_better": self.lower_is_better,
            "value": self.value,
            "choices": [c.to_json() for c in self.choices],
        }


def objective_for(state: Match) -> tuple[Objective, int | None]:
    """What an optimal player wants in this state of a match."""
    if state.rules.mode is Mode.LONG:
        return Objective.LONG, None
    if state.rules.mode is Mode.ROUND and state.round_scores:
        best = min(score for _, score in state.round_scores)
        if best == 0:
            return Objective.TIE_OR_BEAT, 0  # only a shut box ties a shut box
        return Objective.BEAT, best
    if state.rules.mode is Mode.ROUND and len(state.order) == 2:
        return Objective.WIN, None  # the round-optimal first turn against one opponent
    return Objective.SCORE, None


def solution_for(
    rules: Rules, objective: Objective, target: int | None = None, *, opening: bool = False
) -> Solution:
    """The solved turn to consult: for the long game, the mover's role."""
    from shutthebox.strategy.solver import solve, solve_long  # NumPy: loaded when a solve needs it

    if objective is Objective.LONG:
        return solve_long(rules).for_role(opening)
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
) -> Advice:
    """Ranked choices for a bare position: the tiles to work on, and the roll if rolled.

    ``one_off``: the only question of a process (``shutthebox hint``), so a position with few open
    tiles is solved in plain Python rather than waiting for NumPy (see `shutthebox.strategy.plain`);
    a process that asks again keeps the vectorized solver, whose solved turns it keeps."""
    solution: Solution | PlainTurn
    if one_off and not opening and plain_fits(rules, objective, target_mask, extra):
        solution = PlainTurn(rules, objective, target)
    else:
        solution = solution_for(rules, objective, target, opening=opening)
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
    return Advice(objective, target, lower, value, choices)


def _dice_label(count: int) -> str:
    return "1 die" if count == 1 else "2 dice"

