"""The exact (Fraction) solver: published rationals, hand-worked boards, and an independent recursion.

`exact_value` is held against values printed by others, against tiny boards
worked out by hand below, and against `oracle.TurnOracle`, a recursion written
in the test suite from the rules (docs/rules.md) alone (its own move lists, its own 36 dice faces,
its own scorings), compared as exact rationals.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox import Rules, RulesError
from shutthebox.strategy.solver import solve
from shutthebox.strategy.solver.exact import exact_dice_values, exact_value, plain_value
from tests.support.oracle import TurnOracle, TurnRules
from tests.support.strategies import rule_sets

NEVER = Rules(one_die="never")  # type: ignore[arg-type]  # "two dice always"


# -- published values -----------------------------------------------------------------
def test_two_dice_always_shut_probability() -> None:
    # Durango Bill, "Shut the Box" (durangobill.com/ShutTheBox.html): max P(shut) = 7.1432 %;
    # the exact rational is the one issue 3 quotes.
    value = exact_value(NEVER, "shut")
    assert value == Fraction(466473281, 6530347008)
    assert round(100 * float(value), 4) == 7.1432


def test_two_dice_always_lowest_expected_score() -> None:
    # Simon Tatham, shutthebox.py: 33.842 tiles flipped on average, so 45 - 33.842 = 11.158;
    # the exact rational is the one issue 3 quotes.
    value = exact_value(NEVER, "score")
    assert value == Fraction(27323400707, 2448880128)
    assert round(45 - float(value), 3) == 33.842


def test_one_die_when_sum_at_most_6_shut_probability() -> None:
    # UnaryPlus/shut-the-box-strategy (exact rationals); Durango Bill: 9.7614 %.
    value = exact_value(Rules(one_die="sum-le-6"), "shut")  # type: ignore[arg-type]
    assert value == Fraction(956177159, 9795520512)
    assert round(100 * float(value), 4) == 9.7614


def test_six_tiles_one_die_always() -> None:
    # The Fiddler (Zach Wissner-Gross), 13 Sep 2024: 145/1944. On six tiles `high-shut`
    # always allows one die; forcing it makes it "one die always".
    assert exact_value(Rules(tiles=6, one_die_forced=True), "shut") == Fraction(145, 1944)


# -- tiny boards worked by hand -------------------------------------------------------
def test_one_tile() -> None:
    # Tile 1 alone: one die shows 1 with chance 1/6; two dice never total 1.
    assert exact_value(Rules(tiles=1), "shut") == Fraction(1, 6)
    assert exact_value(Rules(tiles=1), "score") == Fraction(5, 6)
    assert exact_value(Rules(tiles=1, one_die="never"), "shut") == 0  # type: ignore[arg-type]
    assert exact_value(Rules(tiles=1, one_die="never"), "score") == 1  # type: ignore[arg-type]


def test_two_tiles_by_hand() -> None:
    # Tiles 1, 2, one die allowed. One die: 3 shuts both, 1 or 2 leave one tile that a
    # single die then shuts with chance 1/6: 1/6 + 2 * 1/6 * 1/6 = 2/9. Two dice: a 3
    # (2/36) shuts both: 1/18 < 2/9 (a 2 leaves tile 1, which two dice never shut).
    assert exact_value(Rules(tiles=2), "shut") == Fraction(2, 9)
    assert exact_value(Rules(tiles=2, one_die_forced=True), "shut") == Fraction(2, 9)
    assert exact_value(Rules(tiles=2, one_die="never"), "shut") == Fraction(1, 18)  # type: ignore[arg-type]
    # Expected score with one die: {2} left scores 2 * 5/6 = 5/3, {1} left 5/6, a 3 scores
    # 0, a 4, 5 or 6 scores 3: (5/3 + 5/6 + 0 + 9) / 6 = 23/12. Two dice always: a 2
    # leaves tile 1 for good, a 3 shuts both, the rest score 3: (1 + 0 + 33 * 3) / 36 = 25/9.
    assert exact_value(Rules(tiles=2), "score") == Fraction(23, 12)
    assert exact_value(Rules(tiles=2, one_die="never"), "score") == Fraction(25, 9)  # type: ignore[arg-type]
    # Beat 3 = score at most 2; tie-or-beat 0 = shut.
    assert exact_value(Rules(tiles=2), "tie-or-beat", 0) == Fraction(2, 9)


def test_the_oracle_agrees_with_the_literature() -> None:
    """The test suite's own recursion reproduces the published rationals (so it can judge)."""
    oracle = TurnOracle(TurnRules(9, one_die="never"), "shut", exact=True)
    assert oracle.value() == Fraction(466473281, 6530347008)
    oracle = TurnOracle(TurnRules(6, forced=True), "shut", exact=True)
    assert oracle.value() == Fraction(145, 1944)


# -- the independent recursion, exactly -----------------------------------------------
OBJECTIVES = st.sampled_from([("score", None), ("shut", None), ("beat", 1), ("beat", 4), ("beat", 9),
                              ("beat", 30), ("tie-or-beat", 0), ("tie-or-beat", 5), ("tie-or-beat", 12)])


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(rule_sets(max_size=6), OBJECTIVES, st.data())
def test_exact_value_equals_the_oracle(
    pair: tuple[Rules, TurnRules], objective: tuple[str, int | None], data: st.DataObject
) -> None:
    rules, spec = pair
    name, target = objective
    oracle = TurnOracle(spec, name, target, exact=True)
    assert exact_value(rules, name, target) == oracle.value()
    board = data.draw(st.integers(0, rules.full_mask), label="board")
    assert exact_value(rules, name, target, board=board) == oracle.value(board)


@pytest.mark.parametrize(
    "rules",
    [NEVER, Rules(), Rules(tiles=7, scoring="digits", doubles_extra_turn=True),  # type: ignore[arg-type]
     Rules(one_die="sum-le-6", one_die_forced=True, max_tiles=2, scoring="sum-plus-roll")],  # type: ignore[arg-type]
)
def test_plain_value_is_the_same_recursion_in_floats(rules: Rules) -> None:
    for objective, target in (("score", None), ("shut", None), ("beat", 10)):
        exact = exact_value(rules, objective, target)
        assert plain_value(rules, objective, target) == pytest.approx(float(exact), rel=1e-12, abs=1e-12)


def test_exact_mode_refuses_what_it_cannot_do() -> None:
    with pytest.raises(RulesError, match="long game"):
        exact_value(Rules(), "long")
    with pytest.raises(RulesError, match="target"):
        exact_value(Rules(), "beat")
    with pytest.raises(RulesError, match="two-player round"):
        exact_value(Rules(), "win")
    with pytest.raises(RulesError, match="unknown objective"):
        exact_value(Rules(), "lose")


# -- the dice choice under extra turns on doubles (issue 14) --------------------------------
DOUBLES = Rules(mode="solo", doubles_extra_turn=True)  # type: ignore[arg-type]


def test_a_failed_double_lets_the_player_choose_the_dice_again_worked_by_hand() -> None:
    """Tile 1 alone, lowest score, extra turns on doubles. One die: a 1 shuts it (1/6), else 1 is
    scored: 5/6, the best. Two dice never make 1: 30/36 of the rolls end the turn with 1 scored, and a
    double (6/36) earns and spends a turn, after which the dice are chosen again, at best (5/6):
    30/36 + 6/36 * 5/6 = 35/36. Keeping two dice after it would give 1."""
    assert exact_dice_values(DOUBLES, "score", board=0b1) == {1: Fraction(5, 6), 2: Fraction(35, 36)}
    assert exact_value(DOUBLES, "score", board=0b1) == Fraction(5, 6)
    shown = solve(DOUBLES, "score").dice_values(0b1)
    assert shown == {1: pytest.approx(5 / 6, abs=1e-12), 2: pytest.approx(35 / 36, abs=1e-12)}


def test_the_worse_dice_choice_on_one_two_three_is_valued_as_the_issue_computed() -> None:
    """Open {1, 2, 3}: two dice were shown as 3.6857 (two dice kept after a failed double)."""
    exact = exact_dice_values(DOUBLES, "score", board=0b111)
    assert round(float(exact[2]), 4) == 3.5198
    assert solve(DOUBLES, "score").dice_values(0b111)[2] == pytest.approx(float(exact[2]), abs=1e-12)


@pytest.mark.parametrize(("objective", "target"), [("score", None), ("shut", None), ("beat", 4)])
@pytest.mark.parametrize("extra", [0, 1, 2])
def test_every_dice_choice_of_a_small_board_equals_the_fraction_recursion(
    objective: str, target: int | None, extra: int
) -> None:
    rules = Rules(tiles=5, mode="solo", doubles_extra_turn=True, one_die="sum-le-6")  # type: ignore[arg-type]
    solution = solve(rules, objective, target)
    for board in range(1, rules.full_mask + 1):
        if extra > rules.tiles - board.bit_count():
            continue  # a turn holds at most one extra turn per tile shut so far
        exact = exact_dice_values(rules, objective, board, extra, target)
        shown = solution.dice_values(board, extra)
        assert set(shown) == set(exact), board
        for count, value in exact.items():
            assert shown[count] == pytest.approx(float(value), abs=1e-12), (board, count)


def test_the_review_charges_the_worse_dice_choice_what_it_costs() -> None:
    """Two dice on tile 1 alone with extra turns on doubles costs 35/36 - 5/6 = 5/36 points."""
    from shutthebox.strategy.advice import advise_position

    advice = advise_position(DOUBLES, 0b1)
    two = next(choice for choice in advice.choices if choice.label == "2 dice")
    assert two.loss == pytest.approx(5 / 36, abs=1e-12)
