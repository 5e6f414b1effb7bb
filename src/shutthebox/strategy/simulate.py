"""Simulation: many turns of a strategy at once, as table look-ups in NumPy.

A strategy is compiled into one transition table over *states* — (extra turns
held, target mask) while the turn goes on, and (open mask, failed total) once it
has ended — indexed by the 36 equally likely faces of two dice (one die reads
the second face alone). The dice choice and the move are folded into the
table, so one step of a million games is one random draw and one gather.
Finished states map to themselves; a turn can take at most ``tiles + 1``
rolls, or, with extra turns on doubles, until no game is left running.

Whole matches between bots, for rounds, elimination and the long game, are
`strategy.matches`'s (`simulate_matches`, named here too).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.core.errors import RulesError
from shutthebox.core.rules import Rules
from shutthebox.strategy.matches import MatchStats, simulate_matches
from shutthebox.strategy.names import STRATEGIES, Objective
from shutthebox.strategy.solver import TurnKey, allow_one_die, score_table, solve
from shutthebox.strategy.solver.topology import TOTALS, topology
from shutthebox.strategy.ties import TIE_RELATIVE

__all__ = [
    "STRATEGIES",
    "MatchStats",
    "Simulation",
    "Strategy",
    "compile_strategy",
    "simulate",
    "simulate_matches",
]

IntArray = npt.NDArray[np.int64]
FACES = 36
MOVE_CHOICES = 360360  # lcm(1..15): `draw % n` is exactly uniform for any n <= 15 moves

@dataclass(frozen=True)
class Strategy:
    """A compiled strategy: ``table[state * 36 + face]`` is the next state times 36."""

    name: str
    rules: Rules
    table: npt.NDArray[np.int32]
    scores: npt.NDArray[np.float64]  # score of each state (meaningful once finished)
    finished_from: int  # states at or above this id have ended
    start: int  # the state of a fresh turn
    random_moves: npt.NDArray[np.int64] | None = None  # (targets, totals, width) children, for `random`
    random_counts: npt.NDArray[np.int64] | None = None  # (targets, totals): how many moves
    dice_mode: npt.NDArray[np.int8] | None = None  # per target: 0 one die, 1 two dice, 2 either
    opening: npt.NDArray[np.int32] | None = None  # the state after OPENING_ROLLS rolls, by their faces


OPENING_ROLLS = 3  # the first rolls of every turn, folded into one table of 36**3 entries


def _opening(table: npt.NDArray[np.int32], start: int) -> npt.NDArray[np.int32]:
    """Where the first rolls lead from the start, for each sequence of faces: one draw, one look-up."""
    states = np.array([start * FACES], dtype=np.int32)
    for _ in range(OPENING_ROLLS):
        states = table[(states[:, None] + np.arange(FACES, dtype=np.int32)[None, :]).reshape(-1)]
    return states


def _faces() -> tuple[IntArray, IntArray, npt.NDArray[np.bool_]]:
    a = np.repeat(np.arange(1, 7), 6)
    b = np.tile(np.arange(1, 7), 6)
    return b, a + b, a == b  # one die shows face b; two dice show a and b


def _key_order(name: str, key: TurnKey) -> Callable[[IntArray, IntArray], npt.NDArray[Any]]:
    """For rule bots: a sort key over (move masks, child targets); highest wins."""
    size = key.tiles
    topo = topology(size, key.max_tiles)
    popcount = np.array([bin(m).count("1") for m in range(1 << size)] + [0], dtype=np.int64)
    sums = np.append(topo.sums, 0)
    if name == "greedy":
        return lambda moves, children: moves
    if name == "fewest":
        return lambda moves, children: moves - popcount[moves] * (1 << 13)
    if name == "heuristic":
        cover = np.append(_coverage36(key), 0)
        return lambda moves, children: (cover[children] << 20) + ((200 - sums[children]) << 13) + moves
    raise RulesError("unknown strategy {name!r}", name=name)


def _usable36(key: TurnKey) -> npt.NDArray[np.int64]:
    """(count, 2): how many of the 36 faces a roll of one die / two dice can use."""
    face1, total2, _ = _faces()
    has = topology(key.tiles, key.max_tiles).has_move
    one = has[:, face1].sum(axis=1)
    two = has[:, total2].sum(axis=1)
    return np.stack([one, two], axis=1).astype(np.int64)


def _coverage36(key: TurnKey) -> npt.NDArray[np.int64]:
    usable = _usable36(key)
    allow = allow_one_die(key.tiles, key.one_die)
    if key.one_die_forced:
        best = np.where(allow, usable[:, 0], usable[:, 1])
    else:
        best = np.where(allow, usable.max(axis=1), usable[:, 1])
    best[0] = 72  # an empty target is done: better than any roll
    return best


def _one_die(name: str, key: TurnKey, extras: int) -> npt.NDArray[np.bool_]:
    """(extras, count): whether the strategy rolls one die, for deterministic strategies."""
    allow = allow_one_die(key.tiles, key.one_die)
    if key.one_die_forced or name in ("greedy", "fewest"):
        choice = allow
    elif name == "heuristic":
        usable = _usable36(key)
        choice = allow & (usable[:, 0] >= usable[:, 1])
    else:
        raise RulesError("unknown strategy {name!r}", name=name)
    return np.broadcast_to(choice, (extras, choice.size))


def _solution_arrays(name: str, key: TurnKey, target: int | None) -> tuple[Any, npt.NDArray[np.bool_]]:
    objective = {
        "optimal": Objective.SCORE,
        "optimal-score": Objective.SCORE,
        "optimal-shut": Objective.SHUT,
        "optimal-beat": Objective.BEAT,
    }[name]
    if objective is Objective.BEAT and target is None:
        raise RulesError("strategy optimal-beat needs a target score (--target K)")
    turn = solve(key.rules, objective, target).turn
    return turn.values[:, :, 0], turn.one_die[:, :, 0]


@cache
def compile_strategy(rules: Rules, name: str, target: int | None = None) -> Strategy:
    """The transition table of strategy ``name`` under ``rules`` (cached)."""
    if name not in STRATEGIES:
        names = ", ".join(STRATEGIES)
        raise RulesError("unknown strategy {name!r}: choose one of {names}", name=name, names=names)
    key = TurnKey.of(rules)
    size, count = key.tiles, 1 << key.tiles
    topo = topology(size, key.max_tiles)
    extras = size + 1 if key.doubles_extra_turn else 1
    active = extras * count
    finished = active
    states = active + count * TOTALS
    scores_of = np.zeros(states)
    scores_of[finished:] = score_table(size, key.scoring).reshape(-1)
    face1, total2, double2 = _faces()

    # best_child[e_used, x, t]: the target after the strategy's move, -1 when none.
    best_child = np.full((extras, count, TOTALS), -1, dtype=np.int64)
    values = None
    if name.startswith("optimal"):
        values, one_die = _solution_arrays(name, key, target)
    elif name != "random":
        order = _key_order(name, key)
        one_die = _one_die(name, key, extras)
    for level in topo.levels:
        if level.children.size == 0:
            continue
        rows = level.segment_flat // TOTALS
        boards, totals = level.boards[rows], level.segment_flat % TOTALS
        for e in range(extras):
            if name == "random":
                continue
            if values is not None:
                keyed = np.where(level.moves > 0, values[e][level.children], -np.inf)
            else:
                keyed = np.where(level.moves > 0, order(level.moves, level.children), -(1 << 40))
            # Moves are packed in ascending mask order: on equal values (beyond float noise, see
            # `strategy.ties`) take the last, the highest tiles, as `Solution.move_values` does.
            if values is not None:
                best = keyed.max(axis=1, keepdims=True)
                keyed = (keyed >= best - TIE_RELATIVE * np.maximum(1.0, np.abs(best))).astype(np.int64)
            pick = keyed.shape[1] - 1 - keyed[:, ::-1].argmax(axis=1)
            best_child[e, boards, totals] = np.take_along_axis(level.children, pick[:, None], 1)[:, 0]
            if values is None:
                best_child[1:, boards, totals] = best_child[0, boards, totals]
                break

    def state_of(e: IntArray, child: IntArray) -> IntArray:
        return np.where(child == 0, finished, e * count + child)

    e_idx, x_idx = np.divmod(np.arange(active), count)
    table = np.empty((states, FACES), dtype=np.int64)
    table[finished:] = np.arange(finished, states)[:, None]
    ended = finished + x_idx[:, None] * TOTALS

    def after(dice: int) -> IntArray:
        totals = face1 if dice == 1 else total2
        doubles = np.zeros(FACES, bool) if dice == 1 else double2
        up = np.minimum(e_idx[:, None] + (doubles[None, :] & key.doubles_extra_turn), extras - 1)
        child = best_child[up, x_idx[:, None], totals[None, :]]
        moved = state_of(up, child)
        stuck_double = doubles[None, :] & key.doubles_extra_turn
        fallback = np.where(
            stuck_double,
            e_idx[:, None] * count + x_idx[:, None],
            np.where(e_idx[:, None] > 0, (e_idx[:, None] - 1) * count + x_idx[:, None], ended + totals),
        )
        return np.where(child >= 0, moved, fallback)

    if name == "random":
        return _random_strategy(rules, key, table, scores_of, finished)
    choice = one_die.reshape(-1)[:active][:, None]
    table[:active] = np.where(choice, after(1), after(2))
    flat = (table * FACES).astype(np.int32).reshape(-1)
    return Strategy(
        name, rules, flat, scores_of, finished, count - 1, opening=_opening(flat, count - 1)
    )


def _random_strategy(
    rules: Rules, key: TurnKey, table: IntArray, scores_of: npt.NDArray[np.float64], finished: int
) -> Strategy:
    """Random play: the legal moves of every (target, total), one drawn per step."""
    count = 1 << key.tiles
    topo = topology(key.tiles, key.max_tiles)
    width = max((lv.children.shape[1] for lv in topo.levels if lv.children.size), default=1)
    kids = np.full((count, TOTALS, width), -1, dtype=np.int64)
    for level in topo.levels:
        if level.children.size:
            rows = level.segment_flat // TOTALS
            kids[level.boards[rows], level.segment_flat % TOTALS, : level.children.shape[1]] = np.where(
                level.moves > 0, level.children, -1
            )
    allow = allow_one_die(key.tiles, key.one_die)
    mode = np.where(allow, 0 if key.one_die_forced else 2, 1).astype(np.int8)
    table[:finished] = 0  # unused: each step is drawn by `_random_step`
    return Strategy(
        "random", rules, (table * FACES).astype(np.int32).reshape(-1), scores_of, finished, count - 1,
        kids, (kids >= 0).sum(axis=2), mode,
    )


@dataclass(frozen=True)
class Simulation:
    """What a simulation found, with 95% confidence intervals."""

    strategy: str
    rules: Rules
    games: int
    seed: int
    mean_score: float
    mean_ci: tuple[float, float]
    shut_rate: float
    shut_ci: tuple[float, float]
    scores: dict[int, int]  # score -> number of games
    seconds: float
    target: int | None = None
    beat_rate: float | None = None

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "strategy": self.strategy,
            "rules": self.rules.to_dict(),
            "games": self.games,
            "seed": self.seed,
            "mean_score": self.mean_score,
            "mean_score_ci95": list(self.mean_ci),
            "shut_rate": self.shut_rate,
            "shut_rate_ci95": list(self.shut_ci),
            "games_per_second": self.games_per_second,
            "scores": {str(k): v for k, v in sorted(self.scores.items())},
        }
        if self.target is not None:
            data["target"] = self.target
            data["beat_rate"] = self.beat_rate
        return data


def _play_chunk(strategy: Strategy, games: int, rng: np.random.Generator) -> npt.NDArray[np.float64]:
    """Final scores of ``games`` turns; games that end are set aside as the rest play on."""
    table = strategy.table
    limit = strategy.finished_from * FACES
    ended: list[npt.NDArray[np.int32]] = []
    if strategy.opening is not None:
        draws = rng.integers(0, FACES**OPENING_ROLLS, size=games, dtype=np.int32)
        state, steps = strategy.opening[draws], OPENING_ROLLS
    else:
        state, steps = np.full(games, strategy.start * FACES, dtype=np.int32), 0
    while state.size:
        faces = rng.integers(0, FACES, size=state.size, dtype=np.int32)
        if strategy.random_counts is None:
            state = table[state + faces]
        else:
            state = _random_step(strategy, state, faces, rng)
        steps += 1
        if steps >= 3:  # hardly any turn is over before its third roll
            going = state < limit
            still = int(np.count_nonzero(going))
            if still <= 0.6 * state.size:
                ended.append(state[~going])
                state = state[going]
    return strategy.scores[np.concatenate(ended) // FACES]


def _random_step(
    strategy: Strategy, state: npt.NDArray[np.int32], faces: npt.NDArray[np.int32], rng: np.random.Generator
) -> npt.NDArray[np.int32]:
    """One roll of uniformly random play for every game still going."""
    assert strategy.random_moves is not None and strategy.random_counts is not None
    assert strategy.dice_mode is not None
    finished = strategy.finished_from
    count = 1 << strategy.rules.tiles
    extras = finished // count
    ids = state.astype(np.int64) // FACES
    going = ids < finished
    e, x = np.divmod(np.where(going, ids, 0), count)
    mode = strategy.dice_mode[x]
    coin = rng.integers(0, 2, size=state.size, dtype=np.int8)
    one = np.where(mode == 2, coin, 1 - mode) == 1  # mode 0 forces one die, 1 forces two
    second, first = faces % 6 + 1, faces // 6 + 1
    totals = np.where(one, second, first + second)
    double = ~one & (first == second) & strategy.rules.doubles_extra_turn
    n = strategy.random_counts[x, totals]
    pick = rng.integers(0, MOVE_CHOICES, size=state.size, dtype=np.int64) % np.maximum(n, 1)
    child = strategy.random_moves[x, totals, pick]
    up = np.minimum(e + double, extras - 1)
    moved = np.where(child == 0, finished, up * count + child)
    fallback = np.where(
        double, ids, np.where(e > 0, ids - count, finished + x * TOTALS + totals)
    )
    nxt = np.where(n > 0, moved, fallback)
    return (np.where(going, nxt, ids) * FACES).astype(np.int32)


def simulate(
    rules: Rules,
    strategy: str,
    games: int,
    *,
    seed: int = 0,
    target: int | None = None,
    chunk: int = 1 << 20,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Play ``games`` turns of ``strategy`` under ``rules`` from one seeded generator."""
    if games < 1:
        raise RulesError("games must be 1 or more, not {games}", games=games)
    compiled = compile_strategy(rules, strategy, target if strategy == "optimal-beat" else None)
    rng = np.random.default_rng(seed)
    counts: dict[int, int] = {}
    total = total_sq = 0.0
    shut = beat = 0
    began = time.perf_counter()
    done = 0
    while done < games:
        size = min(chunk, games - done)
        scores = _play_chunk(compiled, size, rng)
        values, hits = np.unique(scores, return_counts=True)
        for v, h in zip(values.tolist(), hits.tolist(), strict=True):
            counts[int(v)] = counts.get(int(v), 0) + int(h)
        total += float(scores.sum())
        total_sq += float((scores * scores).sum())
        shut += int((scores == 0).sum())
        if target is not None:
            beat += int((scores < target).sum())
        done += size
        if progress:
            progress(size)
    seconds = time.perf_counter() - began
    mean = total / games
    var = max(total_sq / games - mean * mean, 0.0) * games / max(games - 1, 1)
    half = 1.96 * math.sqrt(var / games)
    rate = shut / games
    return Simulation(
        strategy=strategy,
        rules=rules,
        games=games,
        seed=seed,
        mean_score=mean,
        mean_ci=(mean - half, mean + half),
        shut_rate=rate,
        shut_ci=_wilson(shut, games),
        scores=counts,
        seconds=seconds,
        target=target,
        beat_rate=beat / games if target is not None else None,
    )


def _wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
