"""Hints ranked: each choice of a decision with its value and its loss against the best.

`Advice` holds the ranked choices (one die or two before a roll; each legal move after it);
`ranked` ranks them from any solved turn, a `Solution` of the vectorized solver or a `PlainTurn`.
`plain_advice` answers the one question of a process (``shutthebox hint``) on a position with few
open tiles in plain Python, so it needs neither NumPy nor a match; `strategy.advice` answers
everything else, from a match's state or through the solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.errors import IllegalActionError
from shutthebox.core.rules import Rules
from shutthebox.strategy.names import ROUND_OBJECTIVES, Objective
from shutthebox.strategy.plain import PlainTurn, plain_fits
from shutthebox.strategy.ties import tie_level

__all__ = ["Advice", "Choice", "Seat", "SolvedTurn", "plain_advice", "ranked"]


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


class SolvedTurn(Protocol):
    """What ranking asks of a solved turn: a `Solution` of the vectorized solver, or a `PlainTurn`."""

    @property
    def lower_is_better(self) -> bool: ...

    def value_at(self, target: int, extra: int = 0) -> float: ...

    def dice_values(self, target: int, extra: int = 0) -> dict[int, float]: ...

    def move_values(self, target: int, roll: Roll, extra: int = 0) -> list[tuple[Move, float]]: ...


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


def ranked(
    solution: SolvedTurn,
    target_mask: int,
    roll: Roll | None = None,
    *,
    objective: Objective = Objective.SCORE,
    target: int | None = None,
    extra: int = 0,
    seat: Seat | None = None,
) -> Advice:
    """The choices of a position ranked by ``solution``: the dice before a roll, else every legal move
    for ``roll`` (``seat`` is kept for a round's objectives only)."""
    lower = solution.lower_is_better
    value = solution.value_at(target_mask, extra)
    choices: list[tuple[DiceChoice | Move, str, float]]
    if roll is None:
        options = sorted(
            solution.dice_values(target_mask, extra).items(),
            key=lambda kv: (tie_level(kv[1] if lower else -kv[1]), -kv[0]),  # a tie: two dice
        )
        choices = [(DiceChoice(count), _dice_label(count), v) for count, v in options]
    else:
        choices = [(m, str(m), v) for m, v in solution.move_values(target_mask, roll, extra)]
    best = choices[0][2] if choices else value
    kept = tuple(
        Choice(action, label, v, max(0.0, (v - best) if lower else (best - v)))
        for action, label, v in choices
    )
    return Advice(objective, target, lower, value, kept, seat if objective in ROUND_OBJECTIVES else None)


def plain_advice(
    rules: Rules,
    target_mask: int,
    roll: Roll | None = None,
    *,
    objective: Objective = Objective.SCORE,
    target: int | None = None,
    extra: int = 0,
    opening: bool = False,
    seat: Seat | None = None,
) -> Advice | None:
    """The advice of a one-off question solved in plain Python (see `shutthebox.strategy.plain`), or
    None when the position needs the vectorized solver (`strategy.advice.advise_position`)."""
    if opening or not plain_fits(rules, objective, target_mask, extra):
        return None
    return ranked(
        PlainTurn(rules, objective, target), target_mask, roll,
        objective=objective, target=target, extra=extra, seat=seat,
    )


def _dice_label(count: int) -> str:
    return "1 die" if count == 1 else "2 dice"
