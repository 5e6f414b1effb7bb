"""The vectors the page's engine is checked on (tests/js/engine.test.js) are what tools/vectors.py draws
from the Python engine and the solver today: the file is current, and it covers what it says."""

from __future__ import annotations

import json

from tools.vectors import PATH, text


def test_the_vectors_are_current() -> None:
    assert PATH.read_text() == text(), "run: python tools/vectors.py"


def test_the_vectors_cover_every_rule_and_stay_small() -> None:
    data = json.loads(PATH.read_text())
    assert PATH.stat().st_size < 2_000_000
    assert {group["tiles"] for group in data["moves"]} == set(range(1, 13))
    assert {group["max_tiles"] for group in data["moves"]} == {None, 1, 2, 3}
    assert {group["scoring"] for group in data["scores"]} == {"sum", "sum-plus-roll", "count", "digits"}
    turned = [turn["rules"] for turn in data["turns"]]
    assert {rules["one_die"] for rules in turned} == {"high-shut", "sum-le-6", "sum-lt-6", "never"}
    assert any(rules["doubles_extra_turn"] for rules in turned) and any(r["one_die_forced"] for r in turned)
    steps = [step for turn in data["turns"] for step in turn["steps"]]
    assert any(step[2] is not None and step[2]["extra"] > 0 for step in steps)  # extra turns earned
    assert any(step[2] is None for step in steps)  # refused steps
    assert any(turn["steps"][-1][2]["shut"] for turn in data["turns"])
    rankings = [case for group in data["rankings"] for case in group["cases"]]
    assert any(case["dice"] is None for case in rankings) and any(case["extra"] > 0 for case in rankings)
    assert any(len(c["ranked"]) > 1 and c["ranked"][0][1] == c["ranked"][1][1] for c in rankings)  # ties
