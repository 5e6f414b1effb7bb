"""The cheat sheet: every cell is the optimal move (held against the test suite's own recursion),
the dice the optimal choice, "end" exactly where no move exists; the rows are the boards optimal
play meets most, the full board first."""

from __future__ import annotations

import pytest

from shutthebox.core.rules import Rules
from shutthebox.strategy.cheatsheet import cheatsheet
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
