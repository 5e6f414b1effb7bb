"""Hints within a budget: the cost model bounds what a solve takes, over it the cheaper objective
answers with its reason (or the server refuses), identical requests share one solve, answers are kept
in a bounded cache."""

from __future__ import annotations

import asyncio
import itertools
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import shutthebox.strategy.advice as advice_module
import shutthebox.strategy.solver.turn as turn_module
from shutthebox import Match, Phase, Roll, Rules
from shutthebox.strategy import solver
from shutthebox.strategy.advice import advise
from shutthebox.strategy.budget import OverBudgetError
from shutthebox.strategy.cost import ROUND_SWEEPS, Cost, cost_of, estimate, long_sweeps, posted_scores
from shutthebox.strategy.solver import (
    Objective,
    TurnKey,
    score_table,
    solve_key,
    solve_long_key,
    solve_round_key,
)
from shutthebox.strategy.solver.topology import Level, topology
from shutthebox.web.advisor import MAX_BYTES, MAX_CELLS, Advisor
from shutthebox.web.refusals import refused
from tests.support.drive import play

SCORINGS = ("sum", "sum-plus-roll", "count", "digits")


def decision(rules: Rules, players: int = 2, rolls: str = "3,4") -> Match:
    """The first decision of a match: the first seat wins the roll-off, then each roll of ``rolls``."""
    state = Match.new(rules, [f"P{i + 1}" for i in range(players)])
    dice = itertools.cycle(Roll.parse(roll) for roll in rolls.split())
    while not state.is_decision:
        if state.phase is Phase.ROLL_OFF:
            face = 6 if state.actor == state.contenders[0] else 1
            state = state.apply(Roll((face,)), state.actor)
        else:
            state = state.apply(next(dice), state.actor)
    return state


# -- the cost model -------------------------------------------------------------------------


@pytest.mark.parametrize("scoring", SCORINGS)
def test_a_round_to_win_has_a_column_for_every_score_that_can_be_posted(scoring: str) -> None:
    for tiles in range(1, 13):
        distinct = np.unique(score_table(tiles, scoring)).size
        assert posted_scores(tiles, scoring) >= distinct
        if scoring != "digits" or tiles < 12:  # at 12 tiles, 1+2 and 12 both read "12"
            assert posted_scores(tiles, scoring) == distinct


def test_the_estimate_grows_with_the_board_the_extra_turns_and_the_objective() -> None:
    for scoring, doubles, objective in itertools.product(SCORINGS, (False, True), Objective):
        if objective in (Objective.BEAT, Objective.TIE_OR_BEAT):
            continue  # one turn, as score
        costs = [cost_of(Rules(tiles=t, scoring=scoring, doubles_extra_turn=doubles), objective)  # type: ignore[arg-type]
                 for t in range(1, 13)]
        # Below 6 tiles a round ties often and the long game settles slowly: more repetitions of
        # tiny solves, all within the fixed cost of any solve.
        for smaller, larger in itertools.pairwise(costs[5:]):
            assert smaller.cells <= larger.cells and smaller.bytes <= larger.bytes
    for tiles, scoring in itertools.product(range(1, 13), SCORINGS):
        rules = Rules(tiles=tiles, scoring=scoring)  # type: ignore[arg-type]
        plain, extra = cost_of(rules, "win"), cost_of(rules.but(doubles_extra_turn=True), "win")
        assert plain.cells < extra.cells and plain.bytes < extra.bytes
        assert cost_of(rules, "score").cells < plain.cells
        one_turn = {(cost_of(rules, o).cells, cost_of(rules, o).bytes) for o in ("score", "shut", "beat")}
        assert len(one_turn) == 1  # one turn of one column each
    twelve = Rules(tiles=12, doubles_extra_turn=True)
    win = {scoring: cost_of(twelve.but(scoring=scoring), "win") for scoring in SCORINGS}
    assert win["count"].bytes < win["sum"].bytes < win["sum-plus-roll"].bytes < win["digits"].bytes
    assert not win["digits"].within(MAX_CELLS, MAX_BYTES)  # a 12-tile digits round: 4,096 scores to post
    rounds = [cost_of(twelve, goal, players) for players in range(2, 9) for goal in ("win", "stake")]
    for smaller, larger in itertools.pairwise(rounds[::2]):
        assert smaller.cells < larger.cells and smaller.bytes < larger.bytes  # more players, more states
    stake = cost_of(twelve, "stake")
    assert (rounds[0].cells, rounds[0].bytes) == (stake.cells, stake.bytes)  # payoffs differ, not work


def test_the_estimate_follows_the_objective_the_hint_asks_for() -> None:
    duel = decision(Rules(tiles=9, scoring="digits"))  # type: ignore[arg-type]
    three = decision(Rules(tiles=9, scoring="digits"), players=3)  # type: ignore[arg-type]
    assert estimate(duel) == cost_of(duel.rules, "win")
    assert estimate(three) == cost_of(three.rules, "win", 3)
    nine = decision(Rules(tiles=9), players=9)
    assert estimate(nine) == cost_of(nine.rules, "score")  # more than a round is solved for
    long = decision(Rules(tiles=9, mode="long"))  # type: ignore[arg-type]
    assert estimate(long) == cost_of(long.rules, "long")


class Meter:
    """What a solve does, counted where the solver does it: the fail tables built, the cells each
    level writes and the children it reads; the repetitions of whole turns."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cells = 0
        self.turns = 0
        real_turn, real_best = turn_module.solve_turn, turn_module.best_children

        def solve_turn(*args: Any, **kwargs: Any) -> Any:
            self.turns += 1
            self.cells += kwargs["fail"].size
            return real_turn(*args, **kwargs)

        def best_children(values: Any, level: Level, group: int = 1) -> Any:
            best = real_best(values, level, group)
            stack = values.shape[0] if values.ndim == 3 else 1
            read = values.shape[-1] // group  # a round's groups are chosen on their first column
            self.cells += best.size + level.child_flat.size * read * stack
            return best

        monkeypatch.setattr(solver, "solve_turn", solve_turn)
        monkeypatch.setattr(turn_module, "best_children", best_children)


def _solve(rules: Rules, objective: Objective, players: int = 2) -> int:
    """Solve from nothing (a round's tie-breaks too); a round's sweeps of its ties, else 0."""
    key = TurnKey.of(rules)
    if objective in (Objective.WIN, Objective.STAKE):
        solver._round_cached.cache_clear()
        solved = solve_round_key(key, players, shut_wins=rules.shut_wins, objective=objective, pot=players)
        return solved.sweeps
    if objective is Objective.LONG:
        solve_long_key(key)
    else:
        solve_key(key, objective, 20 if objective is Objective.BEAT else None)
    return 0


BOUNDED = [
    *((t, d, m, "score", "sum") for t in (4, 7, 9) for d in (False, True) for m in (None, 2)),
    *((t, d, None, "beat", "sum") for t in (5, 8) for d in (False, True)),
    *((t, d, m, "long", "sum") for t in (4, 6, 8) for d in (False, True) for m in (None, 1)),
    *((t, d, None, "win", s) for t in (4, 6, 8) for d in (False, True) for s in SCORINGS),
    *((t, False, None, objective, "sum") for t in (3, 6) for objective in ("win-3", "stake-4", "win-5")),
    (8, True, None, "win-4", "count"),
    (5, False, 2, "stake-3", "sum-plus-roll"),
]


@pytest.mark.parametrize("case", BOUNDED, ids=str)
def test_the_estimate_bounds_the_work_a_solve_does(
    monkeypatch: pytest.MonkeyPatch, case: tuple[int, bool, int | None, str, str]
) -> None:
    tiles, doubles, max_tiles, objective, scoring = case
    objective, _, players = objective.partition("-")
    mode = "long" if objective == "long" else "round"
    rules = Rules(tiles=tiles, doubles_extra_turn=doubles, max_tiles=max_tiles, mode=mode, scoring=scoring)  # type: ignore[arg-type]
    cost = cost_of(rules, objective, int(players or 2))
    meter = Meter(monkeypatch)
    sweeps = _solve(rules, Objective.parse(objective), int(players or 2))
    assert 0 < meter.cells <= cost.cells
    if objective in ("win", "stake"):
        assert sweeps <= ROUND_SWEEPS
    elif objective == "long":
        assert meter.turns <= 2 * long_sweeps(rules)


@pytest.mark.parametrize(
    ("tiles", "doubles", "scoring", "players"),
    [(8, False, "digits", 2), (8, True, "digits", 2), (9, False, "digits", 2),
     (10, False, "sum-plus-roll", 2), (10, True, "sum", 2), (9, False, "sum", 4), (10, False, "sum", 6),
     (6, False, "digits", 5), (8, True, "count", 3)],
)
def test_the_estimate_bounds_the_memory_of_a_round_to_win(
    tiles: int, doubles: bool, scoring: str, players: int
) -> None:
    """NumPy reports its arrays to tracemalloc: the peak of the solve stays within the estimate, and
    is the larger part of it (the bound is not loose by an order of magnitude)."""
    rules = Rules(tiles=tiles, doubles_extra_turn=doubles, scoring=scoring)  # type: ignore[arg-type]
    cost = cost_of(rules, "win", players)
    topology(tiles, None)
    tracemalloc.start()
    try:
        _solve(rules, Objective.WIN, players)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert cost.bytes / 3 < peak <= cost.bytes


# -- the advisor ------------------------------------------------------------------------------


def _under(cost: Cost) -> dict[str, int]:
    """A budget that just fits ``cost``."""
    return {"max_cells": cost.cells, "max_bytes": cost.bytes}


async def test_a_hint_within_the_budget_is_the_exact_advice() -> None:
    state = decision(Rules(tiles=6))
    advisor = Advisor(**_under(cost_of(state.rules, "win")))
    answer = await advisor.advise(state)
    assert answer == advise(state).to_json()
    assert answer["objective"] == "win" and "bounded" not in answer


async def test_over_the_budget_the_lowest_expected_score_answers_and_says_why() -> None:
    state = decision(Rules(tiles=6, scoring="digits"))  # type: ignore[arg-type]
    win, score = cost_of(state.rules, "win"), cost_of(state.rules, "score")
    advisor = Advisor(**_under(score))
    assert score.cells < win.cells
    answer = await advisor.advise(state)
    bounded = answer.pop("bounded")
    assert answer == advise(state, Objective.SCORE).to_json()
    assert bounded["asked"] == "win" and bounded["answered"] == "score"
    assert bounded["cost"] == {"objective": "win", "cells": win.cells, "bytes": win.bytes}
    assert bounded["limit"] == {"cells": score.cells, "bytes": score.bytes}
    assert "the chance to win the round" in bounded["reason"]
    assert "the lowest expected score instead" in bounded["reason"]


async def test_over_the_budget_the_long_game_answers_the_chance_to_clear_the_tiles() -> None:
    state = decision(Rules(tiles=5, mode="long"))  # type: ignore[arg-type]
    advisor = Advisor(**_under(cost_of(state.rules, "shut")))
    answer = await advisor.advise(state)
    assert answer.pop("bounded")["answered"] == "shut"
    assert answer == advise(state, Objective.SHUT).to_json()


async def test_over_the_budget_a_later_player_beats_the_posted_score() -> None:
    state = play(Match.new(Rules(), ["P1", "P2", "P3"]), "r6 r1 r1 r1,1 m2 r1,1 r3,4")  # P1 leaves 43
    assert state.phase is Phase.MOVE and state.round_scores == ((0, 43),)
    advisor = Advisor(**_under(cost_of(state.rules, "score")))
    answer = await advisor.advise(state)
    bounded = answer.pop("bounded")
    assert (bounded["asked"], bounded["answered"]) == ("win", "beat")
    assert "the chance to score under 43 instead" in bounded["reason"]
    assert answer["objective"] == "beat" and answer["target"] == 43
    assert answer == advise(state, Objective.BEAT, 43).to_json()
    within = Advisor(**_under(cost_of(state.rules, "win", 3)))
    assert await within.advise(state) == advise(state).to_json()  # the round of three, seat 2


async def test_when_even_the_cheaper_objective_is_over_the_budget_the_server_is_busy() -> None:
    state = decision(Rules(tiles=6))
    score = cost_of(state.rules, "score")
    advisor = Advisor(max_cells=score.cells - 1, max_bytes=score.bytes)
    with pytest.raises(OverBudgetError) as over:
        await advisor.advise(state)
    refusal = refused(over.value)  # as the server answers it
    assert refusal is not None and refusal.code == "busy" and refusal.status == 503
    assert f"{-(-score.bytes // 1_000_000)} MB" in str(over.value)


def test_the_default_budget_answers_a_12_tile_digits_round_from_the_score_and_a_sum_round_exactly() -> None:
    advisor = Advisor()
    digits = decision(Rules.preset("web-12", scoring="digits", doubles_extra_turn=True))
    plan = advisor.plan(digits)
    assert (plan.asked, plan.objective) == (Objective.WIN, Objective.SCORE) and plan.bounded
    assert plan.cost.within(advisor.max_cells, advisor.max_bytes)
    for scoring in ("sum", "sum-plus-roll", "count"):
        plain = advisor.plan(decision(Rules.preset("web-12", scoring=scoring, doubles_extra_turn=True)))
        assert plain.objective is Objective.WIN and not plain.bounded
    long = advisor.plan(decision(Rules.preset("web-12", mode="long")))
    assert long.objective is Objective.LONG and not long.bounded


class Counted:
    """A function replaced by one that counts its calls and passes them on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
        self.calls = 0
        real: Callable[..., Any] = getattr(owner, name)

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)


@pytest.fixture
def fresh_duels() -> Iterator[None]:
    """The solver's cache of rounds emptied, so the first hint solves."""
    solver._round_cached.cache_clear()
    yield
    solver._round_cached.cache_clear()


@pytest.mark.usefixtures("fresh_duels")
async def test_identical_requests_at_the_same_time_share_one_computation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solves = Counted(monkeypatch, solver, "solve_round_key")
    advices = Counted(monkeypatch, advice_module, "advise")
    state = decision(Rules(tiles=7))
    advisor = Advisor()
    first, second = await asyncio.gather(advisor.advise(state), advisor.advise(state))
    assert first == second == advise(state).to_json()
    assert (solves.calls, advices.calls) == (1, 1)
    await advisor.advise(state)  # kept: nothing computed again
    assert (solves.calls, advices.calls) == (1, 1)


@pytest.mark.usefixtures("fresh_duels")
async def test_requests_for_the_same_solve_at_the_same_time_solve_it_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solves = Counted(monkeypatch, solver, "solve_round_key")
    advices = Counted(monkeypatch, advice_module, "advise")
    states = [decision(Rules(tiles=7), rolls=rolls) for rolls in ("3,4", "6,5", "2,1")]
    advisor = Advisor()
    answers = await asyncio.gather(*(advisor.advise(state) for state in states))
    assert answers == [advise(state).to_json() for state in states]
    assert (solves.calls, advices.calls) == (1, 3)  # one solve, then each position read from it


async def test_the_cache_keeps_the_most_recently_used_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    advices = Counted(monkeypatch, advice_module, "advise")
    rules = Rules(tiles=9, mode="solo")  # type: ignore[arg-type]
    one, two, three = (decision(rules, players=1, rolls=rolls) for rolls in ("3,4", "6,5", "2,1"))
    advisor = Advisor(cache_size=2)
    for state in (one, two, one, three):  # `one` used again, so `two` is the least recent
        await advisor.advise(state)
    assert advices.calls == 3 and advisor.cached() == 2
    await advisor.advise(one)
    await advisor.advise(three)
    assert advices.calls == 3
    await advisor.advise(two)  # evicted: computed again
    assert advices.calls == 4 and advisor.cached() == 2


async def test_a_failed_computation_fails_every_request_sharing_it_and_is_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        raise RuntimeError("solver down")

    monkeypatch.setattr(advice_module, "advise", failing)
    state = decision(Rules(tiles=5))
    advisor = Advisor()
    results = await asyncio.gather(advisor.advise(state), advisor.advise(state), return_exceptions=True)
    assert [str(r) for r in results] == ["solver down", "solver down"] and len(calls) == 1
    assert advisor.cached() == 0
    with pytest.raises(RuntimeError):
        await advisor.advise(state)
    assert len(calls) == 2


async def test_seats_at_the_same_position_get_their_own_answers() -> None:
    """The first and the second of a round on the same board with the same roll: a round's answer
    depends on the seat and the scores posted, so the second is not served the first's."""
    first = play(Match.new(Rules(tiles=5), ["P1", "P2"]), "r6 r1 d2 r3,4")
    second = play(Match.new(Rules(tiles=5), ["P1", "P2"]), "r6 r1 d2 r1,1 m2 d2 r1,1 d2 r3,4")  # P1: 13
    assert first.target == second.target and first.roll == second.roll and second.round_scores == ((0, 13),)
    advisor = Advisor()
    assert await advisor.advise(first) == advise(first).to_json()
    answer = await advisor.advise(second)
    assert answer == advise(second).to_json() and answer["seat"]["best"] == 13
    assert answer["value"] != advise(first).value
