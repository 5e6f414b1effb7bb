"""The plain-Python turn (`PlainTurn`) answers a position as the vectorized solver does, and a
one-off hint on a few open tiles takes it, so ``shutthebox hint`` never waits for NumPy to load."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox import Roll, Rules
from shutthebox.strategy.advice import advise_position
from shutthebox.strategy.names import Objective
from shutthebox.strategy.plain import PLAIN_MOST_TILES, PlainTurn, plain_fits
from shutthebox.strategy.solver import solve
from tests.support.oracle import TurnRules
from tests.support.strategies import rule_sets

OBJECTIVES = st.sampled_from(
    [("score", None), ("shut", None), ("beat", 3), ("beat", 9), ("tie-or-beat", 0), ("tie-or-beat", 6)]
)
ROLLS = [Roll((a, b)) for a in range(1, 7) for b in range(a, 7)] + [Roll((a,)) for a in range(1, 7)]


@settings(max_examples=80, deadline=None)
@given(rule_sets(max_size=9), OBJECTIVES, st.data())
def test_every_answer_equals_the_vectorized_solvers(
    pair: tuple[Rules, TurnRules], objective: tuple[str, int | None], data: st.DataObject
) -> None:
    rules, _spec = pair
    name, target = objective
    plain, solved = PlainTurn(rules, Objective.parse(name), target), solve(rules, name, target)
    boards = data.draw(st.lists(st.integers(1, rules.full_mask), min_size=1, max_size=6), label="boards")
    for board in boards:
        for extra in range(rules.tiles - board.bit_count() + 1 if rules.doubles_extra_turn else 1):
            assert plain.value_at(board, extra) == close(solved.value_at(board, extra))
            mine, theirs = plain.dice_values(board, extra), solved.dice_values(board, extra)
            assert mine.keys() == theirs.keys()
            for count in mine:
                assert mine[count] == close(theirs[count]), (board, extra, count)
            for roll in ROLLS:  # the same moves, the same values (ties may come in either order)
                moves = dict(plain.move_values(board, roll, extra))
                expected = dict(solved.move_values(board, roll, extra))
                assert moves.keys() == expected.keys(), (board, roll)
                assert all(moves[m] == close(v) for m, v in expected.items()), (board, roll)


def close(value: float) -> object:
    """Equal to 1e-12, relative for the large expected scores of the digits scoring."""
    return pytest.approx(value, rel=1e-12, abs=1e-12)


def test_a_hint_on_few_open_tiles_is_answered_in_plain_python_and_agrees() -> None:
    rules = Rules(tiles=12)
    board = 0b100010011001  # 1, 4, 5, 8, 12 open
    assert plain_fits(rules, Objective.SCORE, board)
    assert not plain_fits(rules, Objective.SCORE, rules.full_mask)  # a whole board: the vectorized solver
    assert not plain_fits(rules, Objective.LONG, board)  # the long game spans turns
    assert not plain_fits(rules, Objective.SCORE, (1 << (PLAIN_MOST_TILES + 1)) - 1)
    advice = advise_position(rules, board, Roll((3, 6)), one_off=True)
    expected = solve(rules, "score").move_values(board, Roll((3, 6)))
    assert [c.action for c in advice.choices] == [m for m, _ in expected]
    assert [c.value for c in advice.choices] == pytest.approx([v for _, v in expected], abs=1e-12)


def test_a_target_is_needed_for_beat() -> None:
    from shutthebox import RulesError

    with pytest.raises(RulesError, match="needs a target"):
        PlainTurn(Rules(), Objective.BEAT)
    with pytest.raises(RulesError, match="more than one turn"):
        PlainTurn(Rules(), Objective.LONG)
