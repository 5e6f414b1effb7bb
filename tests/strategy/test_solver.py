"""The vectorized solver: published values, a second method, internal consistency, the long game.

Expected values come from the literature (REFERENCES.md), from `exact_value`
(a plain Fraction recursion that shares no code with the vectorized solver), or
from `oracle`, the test suite's own recursion and Markov-chain evaluation
written from the rules (docs/rules.md) alone. Nothing is copied from the solver's output.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox import Mode, Roll, Rules, RulesError, legal_moves
from shutthebox.core.board import mask_of
from shutthebox.strategy.solver import Objective, TurnKey, solve, solve_beat_table, solve_long
from shutthebox.strategy.solver.exact import exact_value
from shutthebox.strategy.ties import tie_level
from tests.support.oracle import (
    TurnOracle,
    TurnRules,
    faces,
    long_policy_values,
    long_states,
    moves_of,
    one_die_ok,
    score_of,
)
from tests.support.strategies import rule_sets

NEVER = Rules(one_die="never")  # type: ignore[arg-type]  # "two dice always"


def approx(expected: float) -> object:
    return pytest.approx(expected, rel=1e-9, abs=1e-9)


# -- published values (REFERENCES.md) ------------------------------------------------------
def test_two_dice_always_shut() -> None:
    # Durango Bill (durangobill.com/ShutTheBox.html): 7.1432 %; exact rational from issue 3.
    assert solve(NEVER, "shut").value == pytest.approx(466473281 / 6530347008, abs=1e-12)
    assert solve(NEVER, "shut").value == pytest.approx(0.071432, abs=5e-7)


def test_two_dice_always_lowest_expected_sum() -> None:
    # Simon Tatham, shutthebox.py: 45 - 33.842 = 11.158; exact rational from issue 3.
    assert solve(NEVER, "score").value == pytest.approx(27323400707 / 2448880128, abs=1e-10)
    assert solve(NEVER, "score").value == pytest.approx(11.158, abs=5e-4)


def test_one_die_when_sum_at_most_6() -> None:
    # UnaryPlus/shut-the-box-strategy (exact) and Durango Bill (9.7614 %).
    value = solve(Rules(one_die="sum-le-6"), "shut").value  # type: ignore[arg-type]
    assert value == pytest.approx(956177159 / 9795520512, abs=1e-12)
    assert value == pytest.approx(0.097614, abs=5e-7)


def test_two_tiles_a_roll_and_one_die_forced() -> None:
    # Durango Bill, third column: at most two tiles per roll, one die forced when the
    # open tiles sum to 6 or less: 7.4194 %.
    rules = Rules(one_die="sum-le-6", max_tiles=2, one_die_forced=True)  # type: ignore[arg-type]
    assert solve(rules, "shut").value == pytest.approx(0.074194, abs=5e-7)


def test_digital_scoring() -> None:
    # Bart Massey, pdx-cs-ai/shut-the-box solve.py: min expected digital score 14762.17.
    rules = Rules(one_die="never", scoring="digits")  # type: ignore[arg-type]
    assert solve(rules, "score").value == pytest.approx(14762.17, abs=5e-3)


def test_six_tiles_one_die_always() -> None:
    # The Fiddler (Zach Wissner-Gross), 13 Sep 2024: 145/1944.
    assert solve(Rules(tiles=6, one_die_forced=True), "shut").value == pytest.approx(145 / 1944, abs=1e-12)


def test_twelve_tiles_two_dice() -> None:
    # arcini/Shut-The-Box-Simulator README: about 0.36 %.
    value = solve(Rules(tiles=12, one_die="never"), "shut").value  # type: ignore[arg-type]
    assert round(100 * value, 2) == 0.36


@pytest.mark.parametrize(
    ("tiles", "expected", "tolerance"),
    [
        # Ross Bowen, "Shut the box!" (rossbowen.github.io/blog/shut-the-box, 2025), two dice always,
        # each to the digits printed there.
        ((8,), 6.888889, 5e-7),
        ((2, 6), 5.969136, 5e-7),
        ((1, 3, 5, 7, 9), 12.3, 0.05),
        ((4, 7, 8), 14.5, 0.05),
        ((1, 5), 4.61, 5e-3),
        ((5, 6, 7, 8, 9), 24.71, 5e-3),
    ],
)
def test_bowen_positions(tiles: tuple[int, ...], expected: float, tolerance: float) -> None:
    assert solve(NEVER, "score").value_at(mask_of(tiles)) == pytest.approx(expected, abs=tolerance)


def test_bowen_worst_start_of_turn_position() -> None:
    # Bowen: {5,6,7,8,9} is the worst position to start a turn from (24.71).
    solution = solve(NEVER, "score")
    worst = max(range(1 << 9), key=solution.value_at)
    assert worst == mask_of((5, 6, 7, 8, 9))


def test_bowen_1_4_5_8_roll_9() -> None:
    # Bowen: with {1,4,5,8} and a 9, shut 4+5 (leaves {1,8}: 6.889), not 8+1 (leaves
    # {4,5}: 7.028), although {4,5} has the better chance to shut.
    board, roll = mask_of((1, 4, 5, 8)), Roll.of(4, 5)
    score = solve(NEVER, "score")
    ranked = score.move_values(board, roll)
    assert [str(m) for m, _ in ranked] == ["5+4", "8+1"]
    assert ranked[0][1] == pytest.approx(6.889, abs=5e-4)
    assert ranked[1][1] == pytest.approx(7.028, abs=5e-4)
    shut = solve(NEVER, "shut")
    assert shut.value_at(mask_of((4, 5))) > shut.value_at(mask_of((1, 8)))
    assert str(shut.best_move(board, roll)) == "8+1"


# -- a second method: the exact recursion and the oracle -----------------------------------
OBJECTIVES = st.sampled_from(
    [("score", None), ("shut", None), ("beat", 1), ("beat", 3), ("beat", 8), ("beat", 20),
     ("beat", 130), ("tie-or-beat", 0), ("tie-or-beat", 4), ("tie-or-beat", 15)]
)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(rule_sets(), OBJECTIVES)
def test_full_board_equals_exact_recursion(
    pair: tuple[Rules, TurnRules], objective: tuple[str, int | None]
) -> None:
    rules, _ = pair
    name, target = objective
    exact = float(exact_value(rules, name, target))
    assert solve(rules, name, target).value == approx(exact)


def reachable_extras(spec: TurnRules, target: int) -> range:
    """Extra turns a player can hold at ``target``: at most one per tile already done."""
    return range(spec.tiles - target.bit_count() + 1) if spec.doubles else range(1)


@settings(max_examples=80, deadline=None)
@given(rule_sets(), OBJECTIVES, st.data())
def test_every_position_equals_the_oracle(
    pair: tuple[Rules, TurnRules], objective: tuple[str, int | None], data: st.DataObject
) -> None:
    rules, spec = pair
    name, target = objective
    solution = solve(rules, name, target)
    oracle = TurnOracle(spec, name, target)
    boards = data.draw(st.lists(st.integers(0, rules.full_mask), min_size=1, max_size=12), label="boards")
    for board in boards:
        for extra in reachable_extras(spec, board):
            assert solution.value_at(board, extra) == approx(oracle.value(board, extra)), (board, extra)
            if board:
                options = solution.dice_values(board, extra)
                assert set(options) == set(spec.dice_counts(board))
                for count, value in options.items():
                    assert value == approx(oracle.option(board, extra, count)), (board, extra, count)


@settings(max_examples=80, deadline=None)
@given(rule_sets(), OBJECTIVES, st.data())
def test_choices_are_consistent(
    pair: tuple[Rules, TurnRules], objective: tuple[str, int | None], data: st.DataObject
) -> None:
    """value = best dice option; each move's value = its child's value; the best move is legal."""
    rules, spec = pair
    name, target = objective
    solution = solve(rules, name, target)
    better = min if name == "score" else max
    for _ in range(6):
        board = data.draw(st.integers(1, rules.full_mask), label="board")
        extra = data.draw(st.sampled_from(reachable_extras(spec, board)), label="extra")
        dice = solution.dice_values(board, extra)
        assert solution.value_at(board, extra) == approx(better(dice.values()))
        assert solution.best_dice(board, extra) in dice
        assert dice[solution.best_dice(board, extra)] == approx(better(dice.values()))
        roll = Roll(data.draw(st.sampled_from(faces(data.draw(st.sampled_from(sorted(dice)))))))
        ranked = solution.move_values(board, roll, extra)
        assert {m.mask for m, _ in ranked} == set(moves_of(board, roll.total, spec.max_tiles))
        up = extra + int(spec.doubles and roll.is_double)
        for move, value in ranked:
            assert value == solution.value_at(board ^ move.mask, up)
        values = [tie_level(v) for _, v in ranked]  # equal but for float noise: the tie rule orders them
        assert values == sorted(values, reverse=name != "score")
        best = solution.best_move(board, roll, extra)
        if ranked:
            assert best == ranked[0][0]
            assert best in legal_moves(rules, board, roll.total)
        else:
            assert best is None


# -- beat tables -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules",
    [
        NEVER,
        Rules(tiles=6, scoring="sum-plus-roll", doubles_extra_turn=True),  # type: ignore[arg-type]
        Rules(tiles=5, scoring="digits", one_die="sum-le-6", one_die_forced=True),  # type: ignore[arg-type]
        Rules(tiles=7, scoring="count", max_tiles=2),  # type: ignore[arg-type]
        Rules(tiles=4, one_die="sum-lt-6", max_tiles=1),  # type: ignore[arg-type]
    ],
)
def test_beat_table_equals_single_solves(rules: Rules) -> None:
    table = solve_beat_table(rules)
    spec = TurnRules(rules.tiles, str(rules.one_die), rules.one_die_forced, rules.max_tiles,
                     str(rules.scoring), rules.doubles_extra_turn)
    scores = {score_of(spec.scoring, x, t) for x in range(1, 1 << rules.tiles) for t in range(1, 13)}
    if spec.scoring != "sum-plus-roll":
        scores = {score_of(spec.scoring, x, 0) for x in range(1, 1 << rules.tiles)}
    assert set(table.targets) >= scores
    assert max(table.targets) == max(scores) + 1
    for k in table.targets:
        single = solve(rules, "beat", k)
        assert table.solution(k).value == approx(single.value)
        for board in (1, rules.full_mask >> 1, rules.full_mask):
            assert table.solution(k).value_at(board) == approx(single.value_at(board))
    # Scores are whole numbers and only a shut box scores 0:
    assert table.solution(min(table.targets)).value == approx(solve(rules, "shut").value)
    assert table.solution(max(table.targets)).value == approx(1.0)
    for k in table.targets[:5]:
        assert solve(rules, "tie-or-beat", k - 1).value == approx(table.solution(k).value)
    with pytest.raises(RulesError, match="outside"):
        table.solution(max(table.targets) + 1)


def test_beat_below_one_is_the_shut_probability_and_tie_or_beat_zero_too() -> None:
    shut = solve(NEVER, "shut").value
    assert solve(NEVER, "beat", 1).value == approx(shut)
    assert solve(NEVER, "tie-or-beat", 0).value == approx(shut)
    assert solve(NEVER, "beat", 0).value == 0.0


def test_max_tiles_at_least_the_board_is_no_limit() -> None:
    assert TurnKey.of(Rules(tiles=4, max_tiles=4)) == TurnKey.of(Rules(tiles=4))
    assert solve(Rules(tiles=4, max_tiles=4)).value == solve(Rules(tiles=4)).value
    assert TurnKey.of(Rules(tiles=4, max_tiles=3)).rules == Rules(tiles=4, max_tiles=3)


def test_mode_and_stakes_do_not_change_a_turn() -> None:
    assert solve(Rules(mode=Mode.SOLO)) is solve(Rules(stake=3, limit=20))


def test_refusals() -> None:
    with pytest.raises(RulesError, match="target"):
        solve(Rules(), "beat")
    with pytest.raises(RulesError, match="long"):
        solve(Rules(), "long")
    with pytest.raises(RulesError, match="unknown objective"):
        solve(Rules(), "lose")
    with pytest.raises(RulesError, match="beyond"):
        solve(Rules()).value_at(1 << 9)
    assert Objective.parse("tie-or-beat") is Objective.TIE_OR_BEAT


# -- the long game: exact evaluation of the solver's policy -------------------------------
LONG_RULES = [
    Rules(tiles=tiles, mode=Mode.LONG, one_die=one_die, doubles_extra_turn=doubles)  # type: ignore[arg-type]
    for tiles, one_die, doubles in itertools.product((2, 3, 4), ("high-shut", "never"), (True, False))
] + [
    Rules(tiles=4, mode=Mode.LONG, one_die="sum-le-6", one_die_forced=True),  # type: ignore[arg-type]
    Rules(tiles=5, mode=Mode.LONG, max_tiles=2, doubles_extra_turn=True),
]


def long_spec(rules: Rules) -> TurnRules:
    return TurnRules(rules.tiles, str(rules.one_die), rules.one_die_forced, rules.max_tiles,
                     str(rules.scoring), rules.doubles_extra_turn)


State = tuple[int, bool, int]


def best_deviation(spec: TurnRules, p: dict[State, float], state: State) -> float:
    """The mover's chance to win by choosing freely now and following the policy after."""
    board, opening, extra = state
    target = spec.full ^ board if opening else board
    best = 0.0
    for count in spec.dice_counts(target):
        value = 0.0
        for roll in faces(count):
            total, double = sum(roll), len(roll) == 2 and roll[0] == roll[1]
            earned = extra + int(double and spec.doubles)
            moves = moves_of(target, total, spec.max_tiles)
            if moves:
                outcomes = []
                for m in moves:
                    left = target ^ m
                    nxt = board | m if opening else board & ~m
                    outcomes.append(1.0 if left == 0 else p[(nxt, opening, min(earned, spec.tiles))])
                value += max(outcomes) / len(faces(count))
            elif earned > 0:
                value += p[(board, opening, earned - 1)] / len(faces(count))
            else:
                value += (1 - p[(board, not opening, 0)]) / len(faces(count))
        best = max(best, value)
    return best


@pytest.mark.parametrize("rules", LONG_RULES, ids=lambda r: r.describe())
def test_long_game_policy_evaluation(rules: Rules) -> None:
    """The solver's policy, evaluated exactly as a Markov chain, wins as often as it claims;
    and no single deviation by either player does better (so the policy is optimal)."""
    solved = solve_long(rules)
    spec = long_spec(rules)

    def dice(target: int, opening: bool, extra: int) -> int:
        count = solved.for_role(opening).best_dice(target, extra)
        return count if count in spec.dice_counts(target) else spec.dice_counts(target)[0]

    def move(target: int, opening: bool, extra: int, roll: tuple[int, ...]) -> int:
        best = solved.for_role(opening).best_move(target, Roll(roll), extra)
        assert best is not None
        return best.mask

    p = long_policy_values(spec, dice, move)
    assert solved.value == approx(p[(spec.full, False, 0)])
    for state in long_states(spec):
        board, opening, extra = state
        target = spec.full ^ board if opening else board
        if target == 0 or extra not in reachable_extras(spec, target):
            continue
        claimed = solved.for_role(opening).value_at(target, extra)
        assert claimed == approx(p[state]), state
        assert best_deviation(spec, p, state) <= p[state] + 1e-9, state


def test_long_game_roles_are_symmetric() -> None:
    # rules §5.4: the opener works on the shut tiles with the same rules, so an opener
    # facing shut tiles S is in the shutter's place facing open tiles S.
    solved = solve_long(Rules(mode=Mode.LONG))
    for target in range(1, 1 << 9):
        for extra in (0, 2):
            assert solved.opener.value_at(target, extra) == approx(solved.shutter.value_at(target, extra))


def test_long_game_converged() -> None:
    solved = solve_long(Rules(mode=Mode.LONG))
    assert solved.residual < 1e-12
    assert 0.5 < solved.value < 1  # the starter moves first on a full board


def test_one_die_rule_is_judged_on_the_tiles_worked_on() -> None:
    # The opener of {1,...,9} with only 7, 8 shut may roll one die under sum-le-6? No: 15 > 6.
    # With 1, 2 shut (sum 3) the opener may; the solver's dice options follow the target.
    opener = solve_long(Rules(mode=Mode.LONG, one_die="sum-le-6")).opener  # type: ignore[arg-type]
    assert set(opener.dice_values(mask_of((7, 8)))) == {2}
    assert set(opener.dice_values(mask_of((1, 2)))) == {1, 2}
    assert one_die_ok("sum-le-6", mask_of((1, 2)))


@pytest.mark.parametrize("tiles", [1, 6, 9, 12])
def test_the_solvers_tables_say_of_every_board_what_the_rules_say(tiles: int) -> None:
    """The one-die and score tables are built by array operations: each entry is held against
    `Rules.one_die_allowed` and `Rules.score` of that very board."""
    from shutthebox.core.rules import OneDie, Scoring
    from shutthebox.strategy.solver import allow_one_die, score_table

    for one_die in OneDie:
        rules = Rules(tiles=tiles, one_die=one_die)
        table = allow_one_die(tiles, str(one_die))
        boards = range(1 << tiles)
        assert [bool(table[x]) for x in boards] == [rules.one_die_allowed(x) for x in boards]
    for scoring in Scoring:
        rules = Rules(tiles=tiles, scoring=scoring)
        table = score_table(tiles, str(scoring))
        for total in (0, 3, 12):
            assert [table[x, total] for x in range(1 << tiles)] == [
                rules.score(x, total) if x else 0 for x in range(1 << tiles)
            ], (scoring, total)


@pytest.mark.parametrize(("tiles", "max_tiles"), [(4, None), (9, None), (10, 2), (12, None)])
def test_every_pair_of_the_move_graph_is_the_rules_moves_and_its_best_child_the_largest(
    tiles: int, max_tiles: int | None
) -> None:
    """The graph is built by array operations and its pairs reordered (the most moves first); each
    pair's moves are held against `legal_moves`, and the best child against a plain ``max``, for
    value arrays of one column, of many (move by move) and stacked."""
    import numpy as np

    from shutthebox.strategy.solver.topology import TOTALS, WIDE, topology

    graph = topology(tiles, max_tiles)
    rules = Rules(tiles=tiles, max_tiles=max_tiles)
    rng = np.random.default_rng(tiles)
    seen = set()
    for level in graph.levels:
        lengths = np.diff(np.append(level.starts, level.child_flat.size))
        assert list(lengths) == sorted(lengths, reverse=True)
        narrow, wide = rng.random((graph.count + 1, 1)), rng.random((2, graph.count + 1, WIDE + 3))
        best_narrow, best_wide = level.best_of(narrow), level.best_of(wide)
        for pair, (start, length) in enumerate(zip(level.starts, lengths, strict=True)):
            board = int(level.boards[level.segment_flat[pair] // TOTALS])
            total = int(level.segment_flat[pair] % TOTALS)
            seen.add((board, total))
            moves = [int(m) for m in level.move_flat[start : start + length]]
            legal = [move.mask for move in legal_moves(rules, board, total)]
            assert sorted(moves) == sorted(legal), (board, total)
            children = level.child_flat[start : start + length]
            assert list(children) == [board ^ m for m in moves]
            assert best_narrow[pair, 0] == narrow[children, 0].max()
            assert (best_wide[:, pair] == wide[:, children].max(axis=1)).all()
    everywhere = {(x, t) for x in range(1 << tiles) for t in range(1, TOTALS) if legal_moves(rules, x, t)}
    assert seen == everywhere
