"""The cheat sheet: every cell is the optimal move (held against the test suite's own recursion),
the dice the optimal choice, "end" exactly where no move exists; the rows are the boards optimal
play meets most, the full board first."""

from __future__ import annotations

import random

import pytest

from shutthebox.core.dice import Roll
from shutthebox.core.errors import RulesError
from shutthebox.core.rules import Rules
from shutthebox.strategy.cheatsheet import cheatsheet
from shutthebox.strategy.solver import solve
from tests.support.oracle import TurnOracle, TurnRules, moves_of

RULE_SETS = [Rules.preset("web", tiles=7), Rules.preset("classic", tiles=8), Rules.preset("pub", tiles=7)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_every_cell_is_the_optimal_move(rules: Rules) -> None:
    sheet = cheatsheet(rules)
    oracle = TurnOracle(TurnRules(rules.tiles, str(rules.one_die), rules.one_die_forced, rules.max_tiles,
                                  str(rules.scoring)), "score")
    assert sheet.rows[0].open == (1 << rules.tiles) - 1 and sheet.rows[0].chance == 1.0
    assert [r.chance for r in sheet.rows] == sorted((r.chance for r in sheet.rows), reverse=True)
    assert sheet.expected == pytest.approx(float(oracle.value()), abs=1e-9)
    for row in sheet.rows:
        assert row.expected == pytest.approx(float(oracle.value(row.open)), abs=1e-9)
        options = rules.dice_options(row.open)
        values = {count: oracle.option(row.open, 0, count) for count in options}
        assert values[row.dice] == pytest.approx(min(values.values()), abs=1e-12)
        assert row.choice == (len(options) > 1)
        totals = range(1, 7) if row.dice == 1 else range(2, 13)
        assert set(row.moves) == set(totals)
        for total, tiles in row.moves.items():
            legal = moves_of(row.open, total, rules.max_tiles)
            if tiles is None:
                assert not legal
                continue
            mask = sum(1 << (t - 1) for t in tiles)
            assert mask in legal
            best = min(oracle.value(row.open ^ m) for m in legal)
            assert oracle.value(row.open ^ mask) == pytest.approx(best, abs=1e-12)


def test_a_shut_box_is_no_row() -> None:
    assert all(row.open for row in cheatsheet(Rules.preset("web")).rows)


DOUBLES = [Rules.preset("classic", tiles=7, doubles_extra_turn=True),
           Rules.preset("web", tiles=6, doubles_extra_turn=True, mode="round")]


@pytest.mark.parametrize("rules", DOUBLES, ids=str)
def test_a_sheet_with_an_extra_roll_on_doubles_is_that_rules_solve(rules: Rules) -> None:
    """A double's extra roll is honoured: the values are the suite's recursion under that rule (not the
    classic turn's), and every move is optimal for the roll the sheet means (a double only for 2 and
    12, which earns an extra roll)."""
    sheet = cheatsheet(rules)
    assert sheet.rules.doubles_extra_turn
    oracle = TurnOracle(TurnRules(rules.tiles, str(rules.one_die), doubles=True), "score")
    plain = TurnOracle(TurnRules(rules.tiles, str(rules.one_die)), "score")
    assert sheet.expected == pytest.approx(float(oracle.value()), abs=1e-9)
    assert abs(sheet.expected - float(plain.value())) > 0.1  # not the classic turn's value
    assert sheet.rows[0].chance == 1.0
    for row in sheet.rows:
        assert row.expected == pytest.approx(float(oracle.value(row.open)), abs=1e-9)
        options = rules.dice_options(row.open)
        values = {count: oracle.option(row.open, 0, count) for count in options}
        assert values[row.dice] == pytest.approx(min(values.values()), abs=1e-12)
        for total, tiles in row.moves.items():
            legal = moves_of(row.open, total, None)
            if tiles is None:
                assert not legal
                continue
            earned = int(row.dice == 2 and total in (2, 12))
            mask = sum(1 << (t - 1) for t in tiles)
            best = min(oracle.value(row.open ^ m, earned) for m in legal)
            assert oracle.value(row.open ^ mask, earned) == pytest.approx(best, abs=1e-12)


def test_the_boards_met_with_an_extra_roll_on_doubles_are_those_played() -> None:
    """How often each board is met under the doubles rule, against turns played by the sheet's own
    policy with real dice (a double that misses rolls again; one that moves holds an extra roll)."""
    rules = Rules.preset("classic", tiles=5, doubles_extra_turn=True)
    sheet = cheatsheet(rules, rows=31)
    solution = solve(sheet.rules)
    rng = random.Random(30)
    turns = 40_000
    seen: dict[int, int] = {}
    for _ in range(turns):
        board, extra, met = 0b11111, 0, {0b11111}
        while board:
            options = rules.dice_options(board)
            dice = solution.best_dice(board, extra) if len(options) > 1 else options[0]
            roll = Roll(tuple(rng.randint(1, 6) for _ in range(dice)))
            move = solution.best_move(board, roll, extra)
            if move is not None:
                board, extra = board ^ move.mask, min(extra + int(roll.is_double), solution.turn.max_extra)
                met.add(board)
            elif roll.is_double:
                continue
            elif extra:
                extra -= 1
            else:
                break
        for board in met:
            seen[board] = seen.get(board, 0) + 1
    for row in sheet.rows:
        share = seen.get(row.open, 0) / turns
        sigma = (row.chance * (1 - row.chance) / turns) ** 0.5
        assert abs(share - row.chance) <= 5 * sigma + 1e-9, (row.open, share, row.chance)


@pytest.mark.parametrize("mode", ["long", "elimination"])
def test_a_way_to_play_a_sheet_cannot_describe_is_refused(mode: str) -> None:
    with pytest.raises(RulesError, match=f"the {mode} mode is not supported"):
        cheatsheet(Rules.preset("classic", tiles=5, mode=mode))
