"""Value tables: each value the solver's own, and the prebuilt files exactly what tools/tables.py writes."""

from __future__ import annotations

import json

import pytest

from shutthebox.core.errors import RulesError
from shutthebox.core.rules import Rules
from shutthebox.strategy.solver import solve
from shutthebox.strategy.tables import OBJECTIVES, PREBUILT, table_of, table_text
from tools.tables import FOLDER, expected, stale


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("web"),
        Rules.preset("long"),  # extra turns on doubles: one row per count held
        Rules.preset("pub", tiles=7),
        Rules.preset("sailors", tiles=6),
        Rules.preset("digits", tiles=12),
    ],
    ids=lambda rules: rules.describe(),
)
@pytest.mark.parametrize("objective", OBJECTIVES, ids=str)
def test_every_value_is_the_solutions_value_at(rules: Rules, objective: str) -> None:
    table = table_of(rules, objective)
    solution = solve(rules, objective)
    assert table["extras"] == (rules.tiles + 1 if rules.doubles_extra_turn else 1)
    assert len(table["values"]) == table["extras"]
    for extra, row in enumerate(table["values"]):
        assert len(row) == 1 << rules.tiles
        for mask, value in enumerate(row):
            assert value == solution.value_at(mask, extra)
    assert json.loads(table_text(rules, objective)) == {**table, "format": 1, "rules": rules.to_dict()}


def test_a_table_is_for_a_turns_objective_without_target() -> None:
    with pytest.raises(RulesError, match="score or shut"):
        table_of(Rules(), "beat")


def test_the_prebuilt_tables_are_current_byte_for_byte() -> None:
    assert len(expected()) == 2 * len(PREBUILT)
    assert stale() == [], "run: python tools/tables.py"
    assert {("web", tiles) for tiles in (9, 10, 12)} <= set(PREBUILT)


def test_a_twelve_tile_table_stays_small() -> None:
    for objective in OBJECTIVES:
        size = (FOLDER / f"web-12-{objective}.json").stat().st_size
        assert size < 100_000
