"""Advice within a budget: the solve a decision needs, priced before it starts, cheaper when too dear.

`plan(state, max_cells, max_bytes)` prices the solve the objective of the moment needs
(`shutthebox.strategy.cost`). Within the budget it is that solve; over it, the
answer comes from a cheaper objective (the lowest expected score; in the long game
the chance to clear one's tiles this turn; a later seat of a round, the chance to
beat the best score posted); when even that is over, `OverBudgetError`. A server
bounds every hint, bot move and review decision so (`advise_within`).
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.core.errors import N_, Phrase, ShutTheBoxError
from shutthebox.core.match import Match
from shutthebox.strategy.advice import Advice, advise, objective_for, seat_of
from shutthebox.strategy.cost import Cost, cost_of
from shutthebox.strategy.names import Objective

__all__ = [
    "CHEAPER", "MAX_BYTES", "MAX_CELLS", "OverBudgetError", "Plan", "advise_within", "megabytes", "millions",
    "plan", "ranked_by",
]

MAX_CELLS = 3_000_000_000
"""The default work budget of one solve: at most 15 s of processor time on the machine the model was
calibrated on, 3 to 5 s in fact for the largest that fit (a 12-tile round to win under ``sum``, or the
long game, with extra turns on); a round under ``digits`` fits up to 10 tiles (9 with extra turns)."""
MAX_BYTES = 1_000_000_000
"""The default memory budget of one solve, 1 GB."""

CHEAPER: dict[Objective, Objective] = {
    Objective.WIN: Objective.SCORE,  # a later seat of a round: beat the best score posted (see `plan`)
    Objective.STAKE: Objective.SCORE,
    Objective.BEAT: Objective.SCORE,
    Objective.TIE_OR_BEAT: Objective.SCORE,
    Objective.LONG: Objective.SHUT,  # clearing one's tiles wins the long game at once (rules §5.4)
    Objective.SHUT: Objective.SCORE,
}
"""The objective answered instead of one over the budget: one turn of one column."""

_WORDS: dict[Objective, str] = {
    Objective.SCORE: N_("the lowest expected score"),
    Objective.SHUT: N_("the chance to clear your tiles this turn"),
    Objective.BEAT: N_("the chance to score under {target}"),
    Objective.TIE_OR_BEAT: N_("the chance to score {target} or less"),
    Objective.LONG: N_("the chance to win the game"),
    Objective.WIN: N_("the chance to win the round"),
    Objective.STAKE: N_("the stakes you can expect to win or lose"),
}
"""What each objective ranks the choices by, as a reason names it."""


def ranked_by(objective: Objective, target: int | None) -> Phrase:
    """What ``objective`` ranks the choices by, in words."""
    return Phrase(_WORDS[objective], {"target": target})


def millions(cells: int) -> int:
    return -(-cells // 1_000_000)


def megabytes(size: int) -> int:
    return -(-size // 1_000_000)


class OverBudgetError(ShutTheBoxError):
    """A decision whose advice would cost more than the budget, even ranked by the cheaper objective."""


@dataclass(frozen=True, slots=True)
class Plan:
    """The solve advice will run: the objective asked and the one answered, each with its target, and
    their costs."""

    asked: Objective
    asked_target: int | None
    objective: Objective
    target: int | None
    cost: Cost  # of the objective answered
    over: Cost | None = None  # of the objective asked, when it was over the budget

    @property
    def bounded(self) -> bool:
        return self.over is not None


def plan(state: Match, max_cells: int = MAX_CELLS, max_bytes: int = MAX_BYTES) -> Plan:
    """The solve to run for ``state``: the objective of the moment if within the budget, else the
    cheaper one; `OverBudgetError` when even that is over."""
    asked, target = objective_for(state)
    seat = seat_of(state)
    cost = cost_of(state.rules, asked, seat.players if seat is not None else 2)
    if cost.within(max_cells, max_bytes):
        return Plan(asked, target, asked, target, cost)
    cheaper, cheaper_target = CHEAPER.get(asked, asked), None
    if asked in (Objective.WIN, Objective.STAKE) and seat is not None and seat.best is not None:
        # a later seat: beat the best score posted (only a shut box ties a shut box)
        beat = (Objective.TIE_OR_BEAT, 0) if seat.best == 0 else (Objective.BEAT, seat.best)
        cheaper, cheaper_target = beat
    fallback = cost_of(state.rules, cheaper)
    if cheaper is asked or not fallback.within(max_cells, max_bytes):
        raise OverBudgetError(
            "this hint would need about {megabytes} MB and {cells} million cells of work even ranked by"
            " {answered}; this server gives one hint at most {max_megabytes} MB and {max_cells} million"
            " cells",
            megabytes=megabytes(fallback.bytes), cells=millions(fallback.cells),
            answered=ranked_by(cheaper, None), max_megabytes=megabytes(max_bytes),
            max_cells=millions(max_cells),
        )
    return Plan(asked, target, cheaper, cheaper_target, fallback, over=cost)


def advise_within(state: Match, max_cells: int = MAX_CELLS, max_bytes: int = MAX_BYTES) -> Advice:
    """The advice for ``state`` from the solve `plan` allows."""
    chosen = plan(state, max_cells, max_bytes)
    return advise(state, chosen.objective, chosen.target)
