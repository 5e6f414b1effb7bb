"""Solved rounds kept on disk (`strategy.solver.shelf`): read back bit for bit as solved, never solved
again once kept, and a folder that cannot be read is solved again rather than trusted."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from shutthebox import Rules
from shutthebox.strategy import solver
from shutthebox.strategy.solver import keep_rounds_in, solve_round
from shutthebox.strategy.solver.shelf import RoundShelf

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


def folder_bytes(place: Path) -> int:
    return sum(path.stat().st_size for path in place.iterdir())


def test_a_full_shelf_makes_room_by_dropping_the_rounds_read_least_recently(tmp_path: Path) -> None:
    """Regression: the shelf grew without bound, a rule set at a time (about 250 MB each on 12 tiles),
    as fast as a client could make rooms of new rule sets."""
    rounds = {name: solved_fresh(players, objective)
              for name, (players, objective) in {"a": (3, "win"), "b": (4, "win"), "c": (3, "stake")}.items()}
    measuring = RoundShelf(tmp_path / "measure", max_bytes=10**12)
    sizes = {}
    for name, solved in rounds.items():
        measuring.put(name, solved)
        sizes[name] = folder_bytes(measuring._place(name))
    shelf = RoundShelf(tmp_path / "solved", max_bytes=sizes["a"] + sizes["b"] + min(sizes.values()) // 2)
    shelf.put("a", rounds["a"])
    shelf.put("b", rounds["b"])
    past = time.time() - 100
    for name in "ab":
        os.utime(shelf._place(name), (past, past))
    assert shelf.get("a", turn_of) is not None  # read now: "b" is the one read least recently
    shelf.put("c", rounds["c"])
    assert [shelf.get(name, turn_of) is not None for name in "abc"] == [True, False, True]
    assert sum(folder_bytes(place) for place in (tmp_path / "solved").glob("round-*")) <= shelf.max_bytes


def test_a_round_larger_than_the_whole_shelf_is_not_kept(tmp_path: Path) -> None:
    shelf = RoundShelf(tmp_path / "solved", max_bytes=1000)
    shelf.put("a", solved_fresh(3, "win"))
    assert not list((tmp_path / "solved").glob("round-*"))


def turn_of(values: np.ndarray, one_die: np.ndarray, fail: np.ndarray) -> solver.TurnValues:
    return solver._shelved_turn(solver.TurnKey.of(RULES), values, one_die, fail)
