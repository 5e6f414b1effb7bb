"""Simulation: Monte Carlo against exact values, compiled tables against the engine, determinism.

Every Monte Carlo check compares a seeded run with an exact value (the solver's,
or `oracle.random_play`, written from the rules (docs/rules.md)) through a 99.9% interval, so a
fixed seed passes by a wide margin unless something is wrong.
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from shutthebox import Board, DiceChoice, Match, Mode, Move, Phase, Roll, Rules, RulesError
from shutthebox.strategy.bots import make_bot
from shutthebox.strategy.simulate import FACES, compile_strategy, simulate
from shutthebox.strategy.solver import solve, solve_long
from shutthebox.strategy.solver.topology import TOTALS
from tests.support.oracle import TurnRules, random_play

Z999 = 3.2905  # two-sided 99.9% normal quantile
NEVER = Rules(one_die="never")  # type: ignore[arg-type]


def spec_of(rules: Rules) -> TurnRules:
    return TurnRules(rules.tiles, str(rules.one_die), rules.one_die_forced, rules.max_tiles,
                     str(rules.scoring), rules.doubles_extra_turn)


def wide(ci: tuple[float, float], centre: float) -> tuple[float, float]:
    """A 95% interval widened to 99.9%."""
    half = (ci[1] - ci[0]) / 2 * Z999 / 1.96
    return centre - half, centre + half


def proportion_interval(p: float, n: int) -> tuple[float, float]:
    half = Z999 * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


# -- against published and exact values ---------------------------------------------------
def test_random_play_matches_tatham() -> None:
    # Simon Tatham, shutthebox.py (random play, two dice always): P(shut) about 2.0 %, expected
    # sum about 20.4. `random_play` gives the exact values of uniformly random play.
    mean, shut = random_play(spec_of(NEVER))
    assert round(mean, 1) == 20.4
    assert round(100 * shut, 1) == 2.0
    sim = simulate(NEVER, "random", 400_000, seed=11)
    low, high = wide(sim.mean_ci, sim.mean_score)
    assert low < mean < high
    low, high = proportion_interval(sim.shut_rate, sim.games)
    assert low < shut < high


RULE_SETS = [
    Rules(),
    NEVER,
    Rules(tiles=12, one_die="sum-le-6"),  # type: ignore[arg-type]
    Rules(scoring="sum-plus-roll", doubles_extra_turn=True),  # type: ignore[arg-type]
    Rules(tiles=6, one_die_forced=True, max_tiles=2, scoring="digits"),  # type: ignore[arg-type]
    Rules(tiles=10, scoring="count", one_die="sum-lt-6", doubles_extra_turn=True),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_optimal_play_matches_the_solver(rules: Rules) -> None:
    score = simulate(rules, "optimal", 300_000, seed=5)
    low, high = wide(score.mean_ci, score.mean_score)
    assert low < solve(rules, "score").value < high
    shut = simulate(rules, "optimal-shut", 300_000, seed=6)
    low, high = proportion_interval(shut.shut_rate, shut.games)
    assert low < solve(rules, "shut").value < high
    target = 10 if rules.scoring != "count" else 3
    beat = simulate(rules, "optimal-beat", 300_000, seed=7, target=target)
    assert beat.beat_rate is not None
    low, high = proportion_interval(beat.beat_rate, beat.games)
    assert low < solve(rules, "beat", target).value < high


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(tiles=7, doubles_extra_turn=True, scoring="sum-plus-roll", one_die="sum-le-6"),  # type: ignore[arg-type]
     Rules(tiles=5, one_die_forced=True, max_tiles=2)],
    ids=lambda r: r.describe(),
)
def test_random_play_matches_its_exact_value(rules: Rules) -> None:
    mean, shut = random_play(spec_of(rules))
    sim = simulate(rules, "random", 300_000, seed=9)
    low, high = wide(sim.mean_ci, sim.mean_score)
    assert low < mean < high
    low, high = proportion_interval(sim.shut_rate, sim.games)
    assert low < shut < high


def test_strategies_rank_as_expected() -> None:
    """In single turns the optimal mean score is lowest, then heuristic, then random."""
    sims = {name: simulate(Rules(), name, 200_000, seed=3) for name in ("optimal", "heuristic", "random")}
    assert sims["optimal"].mean_ci[1] < sims["heuristic"].mean_ci[0]
    assert sims["heuristic"].mean_ci[1] < sims["random"].mean_ci[0]


# -- the result's arithmetic ----------------------------------------------------------------
def test_distribution_and_intervals() -> None:
    sim = simulate(Rules(scoring="sum-plus-roll"), "heuristic", 50_000, seed=4, chunk=7_000)  # type: ignore[arg-type]
    assert sum(sim.scores.values()) == sim.games == 50_000
    n = sim.games
    mean = sum(s * c for s, c in sim.scores.items()) / n
    var = sum(c * (s - mean) ** 2 for s, c in sim.scores.items()) / (n - 1)
    assert sim.mean_score == pytest.approx(mean, rel=1e-12)
    half = 1.96 * math.sqrt(var / n)
    assert sim.mean_ci == pytest.approx((mean - half, mean + half), rel=1e-9)
    assert sim.shut_rate == sim.scores.get(0, 0) / n
    assert sim.shut_ci[0] < sim.shut_rate < sim.shut_ci[1]
    data = sim.to_json()
    assert data["games"] == n and data["mean_score"] == sim.mean_score
    assert sum(data["scores"].values()) == n


def test_same_seed_same_result_other_seed_differs() -> None:
    for name in ("random", "optimal", "greedy"):
        a = simulate(Rules(), name, 20_000, seed=42)
        b = simulate(Rules(), name, 20_000, seed=42, chunk=20_000)
        c = simulate(Rules(), name, 20_000, seed=43)
        assert (a.scores, a.mean_score, a.shut_rate) == (b.scores, b.mean_score, b.shut_rate)
        assert a.scores != c.scores


def test_refusals() -> None:
    with pytest.raises(RulesError, match="games"):
        simulate(Rules(), "optimal", 0)
    with pytest.raises(RulesError, match="unknown strategy"):
        simulate(Rules(), "clever", 10)
    with pytest.raises(RulesError, match="target"):
        simulate(Rules(), "optimal-beat", 10)


# -- compiled tables against the engine and the Python bots -------------------------------------
def position(rules: Rules, target: int, extra: int) -> Match:
    """A solo turn in progress with ``target`` open and ``extra`` turns held, before the dice."""
    solo = rules.but(mode=Mode.SOLO, doubles_extra_turn=rules.doubles_extra_turn)
    state = Match.new(solo, ["P"])
    options = solo.dice_options(target)
    return dataclasses.replace(
        state,
        board=Board(rules.tiles, target),
        extra_turns=extra,
        phase=Phase.CHOOSE if len(options) == 2 else Phase.ROLL,
        dice_count=None if len(options) == 2 else options[0],
    )


def engine_next(rules: Rules, bot_name: str, target: int, extra: int, face: int) -> int:
    """The strategy-table state the engine reaches when the Python bot plays face ``face``."""
    count_states = 1 << rules.tiles
    extras = rules.tiles + 1 if rules.doubles_extra_turn else 1
    finished = extras * count_states
    bot = make_bot(bot_name, random.Random(0))
    state = position(rules, target, extra)
    if state.phase is Phase.CHOOSE:
        choice = bot.think(state)
        assert isinstance(choice, DiceChoice)
        state = state.apply(choice)
    a, b = face // 6 + 1, face % 6 + 1  # one die reads the second face
    roll = Roll((b,)) if state.dice_count == 1 else Roll((a, b))
    state = state.apply(roll)
    if state.phase is Phase.MOVE:
        move = bot.think(state)
        assert isinstance(move, Move) and move in state.legal_moves
        state = state.apply(move)
    if state.is_over:
        last = state.history[-1]
        if last.board.is_shut:
            return finished
        assert last.last_roll is not None
        return finished + last.board.mask * TOTALS + last.last_roll.total
    return state.extra_turns * count_states + state.target


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(tiles=6, one_die="sum-le-6", max_tiles=2),  # type: ignore[arg-type]
     Rules(tiles=5, doubles_extra_turn=True, one_die_forced=True),
     Rules(tiles=7, scoring="sum-plus-roll", doubles_extra_turn=True, one_die="sum-lt-6")],  # type: ignore[arg-type]
    ids=lambda r: r.describe(),
)
@pytest.mark.parametrize("name", ["greedy", "fewest", "heuristic", "optimal", "optimal-shut"])
def test_compiled_strategy_follows_the_python_bot(rules: Rules, name: str) -> None:
    strategy = compile_strategy(rules, name)
    count_states = 1 << rules.tiles
    rng = random.Random(f"{name}{rules}")
    for _ in range(25):
        target = rng.randrange(1, count_states)
        done = rules.tiles - target.bit_count()
        extra = rng.randint(0, done) if rules.doubles_extra_turn else 0
        state_id = extra * count_states + target
        for face in range(FACES):
            compiled = int(strategy.table[state_id * FACES + face]) // FACES
            assert compiled == engine_next(rules, name, target, extra, face), (target, extra, face)


def test_compiled_scores_are_the_rules_scores() -> None:
    rules = Rules(tiles=5, scoring="sum-plus-roll")  # type: ignore[arg-type]
    strategy = compile_strategy(rules, "greedy")
    finished = strategy.finished_from
    for mask in range(1 << 5):
        for total in range(1, 13):
            expected = 0 if mask == 0 else sum(t for t in range(1, 6) if mask >> (t - 1) & 1) + total
            assert strategy.scores[finished + mask * TOTALS + total] == expected


# -- the long game through the engine -------------------------------------------------------------
def play_long(rules: Rules, games: int, seed: int) -> int:
    """Optimal against optimal through the engine; how many games the starter won."""
    solved = solve_long(rules)
    rng = random.Random(seed)
    wins = 0
    for _ in range(games):
        state = Match.new(rules, ["A", "B"])
        starter = None
        while not state.is_over:
            if state.phase in (Phase.ROLL, Phase.ROLL_OFF):
                count = state.dice_count or 1
                state = state.apply(Roll(tuple(rng.randint(1, 6) for _ in range(count))))
                continue
            if starter is None:
                starter = state.actor  # the roll-off's winner makes the first choice
                assert not state.opening and state.board.is_full
            solution = solved.for_role(state.opening)
            action: DiceChoice | Move | None
            if state.phase is Phase.CHOOSE:
                action = DiceChoice(solution.best_dice(state.target, state.extra_turns))
            else:
                assert state.roll is not None
                action = solution.best_move(state.target, state.roll, state.extra_turns)
            assert action is not None
            state = state.apply(action)
        wins += state.winner == starter
    return wins


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "games"),
    [(Rules(mode=Mode.LONG), 1000), (Rules(mode=Mode.LONG, tiles=4, doubles_extra_turn=False), 2000),
     (Rules(mode=Mode.LONG, tiles=5, one_die="sum-le-6"), 1500)],  # type: ignore[arg-type]
    ids=lambda r: r.describe() if isinstance(r, Rules) else str(r),
)
def test_long_game_monte_carlo(rules: Rules, games: int) -> None:
    value = solve_long(rules).value
    wins = play_long(rules, games, seed=rules.tiles)
    low, high = proportion_interval(value, games)
    assert low < wins / games < high
