"""Value tables: a solved turn as the page needs it to rank the dice and the moves exactly, offline.

For a rule set and an objective (``score``: the lowest expected score; ``shut``: the best chance to
shut the box), the value of every position before its dice are chosen: ``values[e][mask]`` is
`Solution.value_at` ``(mask, e)``, for each board mask and each count ``e`` of extra turns held
(one count without extra turns on doubles; with them ``tiles + 1``, the solver's own bound: a player
holds at most one per tile already shut). From it the page's engine (``web/static/engine.js``)
recomputes what `Solution.dice_values` and `Solution.move_values` give, outcome by outcome, as the
hints rank them.

The JSON is written one way only (`table_text`), so a prebuilt file (``web/static/tables/``,
``tools/tables.py``) and the server's answer (``GET /api/tables``) are the same bytes. Numbers are
float64 written exactly (the shortest text that reads back the same number).
"""

from __future__ import annotations

import json
from typing import Any

from shutthebox.core.errors import RulesError
from shutthebox.core.rules import PRESETS, Rules
from shutthebox.strategy.names import Objective
from shutthebox.strategy.solver import solve

__all__ = ["FORMAT", "OBJECTIVES", "PREBUILT", "objective_of", "prebuilt_name", "table_of", "table_text"]

FORMAT = 1
"""The table's format: its keys and what they mean (the page refuses one it does not know)."""
OBJECTIVES = (Objective.SCORE, Objective.SHUT)
"""The objectives a table is made for: those of one turn with no target."""


PREBUILT: tuple[tuple[str, int], ...] = (
    *((name, rules.tiles) for name, rules in PRESETS.items()),
    *(("web", tiles) for tiles in (10, 12)),
)
"""The (preset, tiles) whose tables ship with the page, for each objective: every preset at its own
board, and the web preset at 10 and 12 tiles too."""


def objective_of(name: str | Objective) -> Objective:
    """The table objective called ``name``; `RulesError` naming the two."""
    objective = Objective.parse(name)
    if objective not in OBJECTIVES:
        raise RulesError(
            "a value table is for the objective score or shut, not {objective}", objective=objective
        )
    return objective


def table_of(rules: Rules, objective: str | Objective) -> dict[str, Any]:
    """The value table of ``rules`` and ``objective`` as plain JSON values."""
    objective = objective_of(objective)
    solution = solve(rules, objective)
    extras = solution.turn.max_extra + 1
    values = [
        [solution.value_at(mask, extra) + 0.0 for mask in range(1 << rules.tiles)]  # + 0.0: no -0.0
        for extra in range(extras)
    ]
    return {
        "format": FORMAT,
        "rules": rules.to_dict(),
        "objective": str(objective),
        "extras": extras,
        "values": values,
    }


def table_text(rules: Rules, objective: str | Objective) -> str:
    """The table's JSON, the one way it is written (compact, exact numbers, a final newline)."""
    return json.dumps(table_of(rules, objective), separators=(",", ":"), allow_nan=False) + "\n"


def prebuilt_name(preset: str, tiles: int, objective: str | Objective) -> str:
    """The file a prebuilt table is kept in, e.g. ``web-9-score.json``."""
    return f"{preset}-{tiles}-{objective_of(objective)}.json"
