"""The solver's answers: a hint's ranked choices, and a game's review."""

from __future__ import annotations

from shutthebox.web.answers.base import Answer, Number, RuleValues

__all__ = [
    "Action", "Advice", "Bounded", "Choice", "Cost", "Decision", "Limit", "Review", "RoundSeat", "ValueTable",
]


class Choice(Answer):
    label: str
    value: Number
    loss: Number
    shut: list[int] | None = None
    dice: int | None = None


class RoundSeat(Answer):
    players: int
    seat: int
    best: int | None
    ties: int
    pot: int


class Cost(Answer):
    objective: str
    cells: int
    bytes: int


class Limit(Answer):
    cells: int
    bytes: int


class Bounded(Answer):
    """Why the choices are ranked by a cheaper objective than the one asked."""

    asked: str
    answered: str
    reason: str
    cost: Cost
    limit: Limit


class Advice(Answer):
    """A hint: every choice ranked with its value and its loss against the best."""

    objective: str
    target: int | None
    lower_is_better: bool
    value: Number
    choices: list[Choice]
    seat: RoundSeat | None = None
    bounded: Bounded | None = None


class Action(Answer):
    dice: int | None = None
    shut: list[int] | None = None


class Decision(Answer):
    index: int
    player: str
    open: list[int]
    roll: list[int] | None
    opening: bool
    objective: str
    target: int | None
    chosen: Action
    best: Action
    value_chosen: Number
    value_best: Number
    loss: Number
    verdict: str


class Review(Answer):
    """Every decision of a game against the exact solver, and each player's accuracy."""

    decisions: list[Decision]
    accuracy: dict[str, Number]


class ValueTable(Answer):
    """A solved turn for the page to rank the dice and the moves itself (`strategy.tables`):
    ``values[e][mask]``, the value before the dice are chosen with ``mask`` open and ``e`` extra turns
    held, in the objective's units (expected score, or chance to shut)."""

    format: int
    rules: RuleValues
    objective: str
    extras: int
    values: list[list[float]]
