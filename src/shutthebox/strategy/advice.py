"""Hints: every choice open to the player, ranked by the exact solver.

`advise(state)` picks the objective that fits the situation — a solo turn wants
the lowest expected score; every player of a round of two to eight the best
chance to win it from their seat (or, playing for stakes, the best expected
result in stakes); the long game the win — and values each choice (one die or
two before a roll; each legal move after it) with its loss against the best.
`advise_position` does the same for a bare position, for ``shutthebox hint``
and for players at a real box. The ranked choices themselves (`Advice`, `Choice`, a round's
`Seat`) are in `strategy.choices`, which answers a position of few open tiles without NumPy.
"""

from __future__ import annotations

from shutthebox.core.dice import Roll
from shutthebox.core.errors import IllegalActionError
from shutthebox.core.match import Match, Phase
from shutthebox.core.rules import Mode, Rules
from shutthebox.strategy.choices import Advice, Choice, Seat, plain_advice, ranked
from shutthebox.strategy.names import ROUND_OBJECTIVES, ROUND_PLAYERS, Objective
from shutthebox.strategy.solver import Solution, solve, solve_long, solve_round

__all__ = [
    "ROUND_OBJECTIVES", "Advice", "Choice", "Seat", "advise", "advise_position", "objective_for", "seat_of",
    "solution_for",
]


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
    if objective is Objective.LONG:
        return solve_long(rules).for_role(opening)
    if objective in ROUND_OBJECTIVES:
        seat = seat or Seat()
        return solve_round(rules, seat.players, objective, pot=seat.pot).turn(seat.seat, seat.best, seat.ties)
    return solve(rules, objective, target)


def advise(state: Match, objective: Objective | None = None, target: int | None = None) -> Advice:
    """Ranked choices for the player to act in ``state`` (CHOOSE, ROLL or MOVE phase)."""
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
    if one_off:
        advice = plain_advice(
            rules, target_mask, roll, objective=objective, target=target, extra=extra, opening=opening,
            seat=seat,
        )
        if advice is not None:
            return advice
    if objective in ROUND_OBJECTIVES:
        seat = seat or Seat()
    solution = solution_for(rules, objective, target, opening=opening, seat=seat)
    return ranked(solution, target_mask, roll, objective=objective, target=target, extra=extra, seat=seat)
