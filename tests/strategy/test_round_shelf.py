"""Solved rounds kept on disk (`strategy.solver.shelf`): read back bit for bit as solved, never solved
again once kept, and a folder that cannot be read is solved again rather than trusted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from shutthebox import Rules
from shutthebox.strategy import solver
from shutthebox.strategy.solver import keep_rounds_in, solve_round

RULES = Rules(tiles=6, one_die="sum-le-6", doubles_extra_turn=True)


@pytest.fixture
def shelf(tmp_path: Path) -> Iterator[Path]:
    keep_rounds_in(tmp_path / "solved")
    yield tmp_path / "solved"
    keep_rounds_in(None)


def solved_fresh(players: int, objective: str) -> solver.Round:
    keep_rounds_in(None)
    return solver.solve_round_key(
        solver.TurnKey.of(RULES), players, shut_wins=RULES.shut_wins, objective=solver.Objective(objective),
        pot=players if objective == "stake" else 0,
    )


@pytest.mark.parametrize(("players", "objective"), [(3, "win"), (4, "stake")])
def test_a_shelved_round_reads_back_bit_for_bit_and_is_not_solved_again(
    shelf: Path, monkeypatch: pytest.MonkeyPatch, players: int, objective: str
) -> None:
    fresh = solved_fresh(players, objective)
    keep_rounds_in(shelf)
    first = solve_round(RULES, players, objective)  # solved here, then kept
    assert list(shelf.glob("round-*/round.json"))
    solver._round_cached.cache_clear()  # a new process: nothing in memory

    def no_solving(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a shelved round was solved again")

    monkeypatch.setattr(solver, "solve_round_key", no_solving)
    read = solve_round(RULES, players, objective)
    assert read.seats == first.seats == fresh.seats
    assert (read.sweeps, read.residual, read.posted) == (fresh.sweeps, fresh.residual, fresh.posted)
    for mine, theirs in zip(read.turns, fresh.turns, strict=True):
        assert np.array_equal(mine.values, theirs.values) and np.array_equal(mine.one_die, theirs.one_die)
        assert np.array_equal(mine.fail.table, theirs.fail.table)
    mine, theirs = read.turn(players - 1, fresh.posted[2], 2), fresh.turn(players - 1, fresh.posted[2], 2)
    for target in (0b111111, 0b101101, 0b000110):
        assert mine.value_at(target) == theirs.value_at(target)
        assert mine.dice_values(target) == theirs.dice_values(target)


def test_a_folder_that_cannot_be_read_is_solved_again(shelf: Path) -> None:
    solve_round(RULES, 3)
    (kept,) = shelf.glob("round-*")
    (kept / "seat1.values.npy").write_bytes(b"not an array")
    solver._round_cached.cache_clear()
    assert solve_round(RULES, 3).seats == solved_fresh(3, "win").seats
