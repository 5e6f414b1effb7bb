"""The strategy atlas on a small configuration: its numbers are the solver's (and, for the boards,
the test suite's own recursion's), its report holds them, the bots' means hold their intervals."""

from __future__ import annotations

from pathlib import Path

import pytest

from shutthebox.core.rules import OneDie, Rules
from shutthebox.strategy.atlas import BOTS, PARTS, STAKE_PRESETS, atlas, atlas_steps
from shutthebox.strategy.solver import solve, solve_duel
from tests.support.oracle import TurnOracle, TurnRules
from tests.support.round_oracle import round_oracle


@pytest.mark.slow
def test_the_atlas_numbers_are_the_solvers(tmp_path: Path) -> None:
    made = atlas(tiles=5, games=4000, seed=1)
    assert len(made.boards) == 5 * len(OneDie)
    for board in made.boards:
        oracle = TurnRules(board["tiles"], board["one_die"])
        assert board["expected_score"] == pytest.approx(float(TurnOracle(oracle, "score").value()), abs=1e-9)
        assert board["shut"] == pytest.approx(float(TurnOracle(oracle, "shut").value()), abs=1e-9)
    full = solve(Rules(tiles=5))
    oracle = TurnOracle(TurnRules(5), "score")
    for opening in made.openings:  # the board each opening leaves, valued by the suite's recursion
        left = 0b11111 ^ sum(1 << (t - 1) for t in opening["shut"])
        assert opening["expected_score"] == pytest.approx(float(oracle.value(left)), abs=1e-9)
    assert [e["tiles"] for e in made.edges] == [2, 3, 4, 5]
    assert made.edges[-1]["round"] == solve_duel(Rules(tiles=5)).value
    assert [r["players"] for r in made.rounds] == list(range(2, 9))
    three = round_oracle(TurnRules(5), 3, "win")  # the brute force, for the rounds small enough
    assert made.rounds[1]["win"] == pytest.approx([float(v) for v in three.seats], abs=1e-12)
    four = round_oracle(TurnRules(5), 4, "stake")
    assert made.rounds[2]["stake"] == pytest.approx([float(v) for v in four.seats], abs=1e-12)
    for row in made.rounds:
        assert sum(row["win"]) == pytest.approx(1, abs=1e-12)
        assert sum(row["stake"]) == pytest.approx(0, abs=1e-12)
    assert [b["bot"] for b in made.bots] == list(BOTS)
    optimal = made.bots[-1]
    low, high = optimal["mean_ci95"]
    assert low - 0.05 <= full.value <= high + 0.05  # a 95 % interval, with room for its 5 %
    assert sum(optimal["scores"].values()) == 4000


def test_the_report_writes_the_same_numbers(tmp_path: Path) -> None:
    from shutthebox.reports.atlas import write_atlas

    made = atlas(tiles=4, games=2000)
    index = write_atlas(made, tmp_path / "atlas")
    page = index.read_text(encoding="utf-8")
    for board in made.boards:
        assert f"{board['expected_score']:.6f}" in page
    for edge in made.edges:
        assert f"{edge['round']:.6f}" in page and f"{edge['long']:.6f}" in page
    for row in made.rounds:
        for win, stake in zip(row["win"], row["stake"], strict=True):
            assert f"{win:.6f}" in page and f"{stake:.6f}" in page
    assert {p.name for p in index.parent.iterdir()} >= {"index.html", "boards.png", "edges.png", "bots.png"}


ORACLE_RULES = {  # each stake preset as the suite's brute force reads it
    "classic": TurnRules(4),
    "web": TurnRules(4, "sum-le-6"),
    "two-dice": TurnRules(4, "never"),
    "pub": TurnRules(4, "sum-le-6", forced=True, max_tiles=2),
}


def test_the_stakes_are_the_rounds_money_on_the_board_they_name(tmp_path: Path) -> None:
    """The Stakes table is the rounds' money (a pot each, a shut box paid double by the other, ties
    played again), not its own: its classic row is the two-player round's first seat, every row is the
    brute force's round for two played for stakes on that preset's rules, and each row names its board."""
    from shutthebox.reports.atlas import write_atlas

    made = atlas(tiles=4, games=200)
    assert [s["preset"] for s in made.stakes] == list(STAKE_PRESETS) == list(ORACLE_RULES)
    classic = next(s for s in made.stakes if s["preset"] == "classic")
    assert classic["first_player"] == made.rounds[0]["stake"][0]
    for row in made.stakes:
        assert row["tiles"] == 4
        brute = round_oracle(ORACLE_RULES[row["preset"]], 2, "stake")
        assert row["first_player"] == pytest.approx(float(brute.seats[0]), abs=1e-12), row
    page = write_atlas(made, tmp_path / "atlas").read_text(encoding="utf-8")
    for row in made.stakes:
        assert f"<td>{row['preset']}</td><td>4</td><td>{row['first_player']:.6f}</td>" in page


def test_the_atlas_says_each_step_as_it_starts() -> None:
    """Progress for the shell: one call per step, `atlas_steps` of them, the parts in order."""
    said: list[str] = []
    atlas(tiles=3, games=100, step=said.append)
    assert len(said) == atlas_steps(3)
    assert list(dict.fromkeys(said)) == list(PARTS)
