"""Exact ties decided by the documented rule, never by float noise (issue 30): where two moves lead
to boards of exactly equal value (in rationals, by `strategy.solver.exact`, a second method), the
solver's policy and the hints, vectorized or in plain Python, take the highest move. Before, the
last bits of the floats chose: on 3 4 6 7 with a 10, played to shut the box, 6+4 (0.12037037037037038)
over 7+3 (...036)."""

from __future__ import annotations

from shutthebox import Rules
from shutthebox.core.dice import Roll
from shutthebox.strategy.advice import advise_position
from shutthebox.strategy.names import Objective
from shutthebox.strategy.solver import solve
from shutthebox.strategy.solver.exact import exact_value
from shutthebox.strategy.ties import tie_level

RULES = Rules()  # classic, 9 tiles
SHUT = Objective.SHUT


def near_ties() -> list[tuple[int, Roll, list[int]]]:
    """Positions whose best moves agree to the tie's digits, with those moves' masks."""
    solution = solve(RULES, SHUT)
    found = []
    for board in range(1, 1 << RULES.tiles):
        for a in range(1, 7):
            for b in range(a, 7):
                moves = solution.move_values(board, Roll((a, b)))
                if len(moves) > 1:
                    top = tie_level(moves[0][1])
                    masks = [move.mask for move, value in moves if tie_level(value) == top]
                    if len(masks) > 1:
                        found.append((board, Roll((a, b)), masks))
    return found


def test_moves_tied_in_rationals_are_decided_by_the_highest_move_not_by_noise() -> None:
    solution = solve(RULES, SHUT)
    ties = near_ties()
    noisy = 0
    for board, roll, masks in ties:
        exact = {exact_value(RULES, SHUT, board=board ^ mask) for mask in masks}
        assert len(exact) == 1, (bin(board), roll)  # a true tie, not two close values
        values = {move.mask: value for move, value in solution.move_values(board, roll)}
        noisy += len({values[mask] for mask in masks}) > 1
        best = max(masks)
        assert solution.best_move(board, roll).mask == best  # type: ignore[union-attr]
        for one_off in (True, False):  # plain Python, and the vectorized solver
            advice = advise_position(RULES, board, roll, objective=SHUT, one_off=one_off)
            assert advice.choices[0].action.mask == best  # type: ignore[union-attr]
    assert noisy  # the floats of some true ties differ: the rule, not the noise, must decide
    assert (0b1101100, Roll((4, 6))) in {(board, roll) for board, roll, _masks in ties}
