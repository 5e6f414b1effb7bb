"""The exact solver: optimal play for any position, rules and objective.

- `solve(rules, objective, target)` solves one turn for every target mask by
  backward induction (objectives ``score``, ``shut``, ``beat``,
  ``tie-or-beat``), vectorized with NumPy over the boards of each level.
- `solve_beat_table(rules)` solves ``beat`` for every target score at once.
- `solve_duel(rules)` solves a two-player round (objective ``win``): the first
  turn valued by the second player's best answer to each posted score.
- `solve_round(rules, players, objective)` solves a round of two to eight
  players (objectives ``win`` and ``stake``): every seat's turn in every state of
  the best score posted and the players tied at it (see `rounds`).
- `solve_long(rules)` solves the long game (rules §5.4), where tiles reopen and
  positions repeat, by value iteration over whole turns (with Anderson mixing)
  until a sweep moves no value by more than 1e-14.
- `shutthebox.strategy.solver.exact` recomputes the turn objectives in exact rationals.

The dice choice (one die or two) is part of every policy. Results are cached
per turn-relevant rules, so hints and bots pay for a solve once; each cache
keeps its most recently used solves only (a server sees any number of rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache, partial
from pathlib import Path

import numpy as np
import numpy.typing as npt

from shutthebox.core.errors import RulesError
from shutthebox.core.rules import OneDie, Rules, Scoring
from shutthebox.strategy.solver.duel import Duel, solve_duel_turns
from shutthebox.strategy.solver.rounds import Payout, Round, solve_round_turns
from shutthebox.strategy.solver.shelf import MAX_BYTES as SHELF_BYTES
from shutthebox.strategy.solver.shelf import RoundShelf
from shutthebox.strategy.solver.solution import Objective, Solution
from shutthebox.strategy.solver.topology import TOTALS, tile_counts, topology
from shutthebox.strategy.solver.turn import BoolArray, Payoffs, TurnValues, solve_turn

__all__ = [
    "BeatTable",
    "Duel",
    "LongSolution",
    "Objective",
    "Round",
    "Solution",
    "TurnKey",
    "solve",
    "solve_beat_table",
    "solve_duel",
    "solve_long",
    "solve_round",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TurnKey:
    """The rule options that shape a single turn (mode, stakes and limits do not)."""

    tiles: int
    one_die: str
    one_die_forced: bool
    max_tiles: int | None
    scoring: str
    doubles_extra_turn: bool

    @classmethod
    def of(cls, rules: Rules) -> TurnKey:
        return cls(
            rules.tiles,
            str(rules.one_die),
            rules.one_die_forced,
            rules.max_tiles if rules.max_tiles is None or rules.max_tiles < rules.tiles else None,
            str(rules.scoring),
            rules.doubles_extra_turn,
        )

    @property
    def rules(self) -> Rules:
        return Rules(
            tiles=self.tiles,
            one_die=self.one_die,  # type: ignore[arg-type]
            one_die_forced=self.one_die_forced,
            max_tiles=self.max_tiles,
            scoring=self.scoring,  # type: ignore[arg-type]
            doubles_extra_turn=self.doubles_extra_turn,
        )


@cache
def allow_one_die(tiles: int, one_die: str) -> npt.NDArray[np.bool_]:
    """For each target mask, whether the rules allow one die (rules §3, as `Rules.one_die_allowed`
    says of each mask; forcing it is the caller's)."""
    masks = np.arange(1 << tiles)
    _counts, sums = tile_counts(tiles)
    rule = OneDie(one_die)
    if rule is OneDie.HIGH_SHUT:
        return np.asarray(masks >> 6 == 0)
    if rule is OneDie.SUM_LE_6:
        return np.asarray(sums <= 6)
    if rule is OneDie.SUM_LT_6:
        return np.asarray(sums < 6)
    return np.zeros(1 << tiles, dtype=np.bool_)


@cache
def score_table(tiles: int, scoring: str) -> FloatArray:
    """``score[x, t]``: the score of ending a turn with ``x`` open after a failed total ``t`` (rules
    §4, as `Rules.score` says of each mask)."""
    masks = np.arange(1 << tiles)
    rule = Scoring(scoring)
    counts, sums = tile_counts(tiles)
    if rule in (Scoring.SUM, Scoring.SUM_PLUS_ROLL):
        base = sums.astype(np.float64)
    elif rule is Scoring.COUNT:
        base = counts.astype(np.float64)
    else:  # the open tiles' numbers written one after another, lowest first
        digits = np.zeros(1 << tiles, dtype=np.int64)
        for tile in range(1, tiles + 1):
            open_ = (masks >> (tile - 1)) & 1 == 1
            digits = np.where(open_, digits * 10 ** len(str(tile)) + tile, digits)
        base = digits.astype(np.float64)
    if rule is Scoring.SUM_PLUS_ROLL:
        table = base[:, None] + np.arange(TOTALS)[None, :]
        table[0] = 0
        return table
    return np.repeat(base[:, None], TOTALS, axis=1)


@cache
def score_ranks(tiles: int, scoring: str) -> tuple[FloatArray, npt.NDArray[np.intp]]:
    """The scores a turn can end on, ascending, and the rank of each (target, total)'s score among
    them: a turn's payoffs are then a row per score (see `Payoffs`)."""
    scores = score_table(tiles, scoring)
    distinct = scores if Scoring(scoring) is Scoring.SUM_PLUS_ROLL else scores[:, :1]  # else one per board
    posted, rank = np.unique(distinct, return_inverse=True)
    return posted, np.broadcast_to(rank.reshape(distinct.shape), scores.shape)


def _turn(key: TurnKey, fail: Payoffs, done: FloatArray, group: int = 1) -> TurnValues:
    return solve_turn(
        topology(key.tiles, key.max_tiles),
        allow_one=allow_one_die(key.tiles, key.one_die),
        forced=key.one_die_forced,
        doubles=key.doubles_extra_turn,
        fail=fail,
        done=done,
        group=group,
    )


def solve_key(key: TurnKey, objective: Objective, target: int | None = None) -> Solution:
    """Solve one turn without the cache (what the benchmarks time)."""
    posted, rank = score_ranks(key.tiles, key.scoring)
    if objective is Objective.SCORE:
        turn = _turn(key, Payoffs(rank, -posted[:, None]), np.zeros(1))
    elif objective is Objective.SHUT:
        turn = _turn(key, Payoffs(rank, np.zeros((posted.size, 1))), np.ones(1))
    elif objective in (Objective.BEAT, Objective.TIE_OR_BEAT):
        if target is None:
            raise RulesError("objective {objective} needs a target score (--target K)", objective=objective)
        below = target + (1 if objective is Objective.TIE_OR_BEAT else 0)
        fail = Payoffs(rank, (posted < below).astype(np.float64)[:, None])
        turn = _turn(key, fail, np.array([1.0 if below > 0 else 0.0]))
    else:
        raise RulesError(
            "{objective} is not a single-turn objective: use solve_long or solve_round", objective=objective
        )
    return Solution(turn, objective, target)


@lru_cache(maxsize=64)  # one column: up to 1 MB each at 12 tiles
def _solve_cached(key: TurnKey, objective: Objective, target: int | None) -> Solution:
    return solve_key(key, objective, target)


def solve(rules: Rules, objective: str | Objective = Objective.SCORE, target: int | None = None) -> Solution:
    """The optimal play of one turn under ``rules`` for ``objective`` (cached)."""
    objective = Objective.parse(objective)
    if objective is Objective.LONG:
        raise RulesError("the long game has two players: use solve_long(rules)")
    if objective is Objective.WIN:
        return solve_duel(rules).first
    if objective is Objective.STAKE:
        return solve_round(rules, 2, objective).turn(0)  # the first of two, as for ``win``
    if objective in (Objective.SCORE, Objective.SHUT):
        target = None
    return _solve_cached(TurnKey.of(rules), objective, target)


@dataclass(frozen=True)
class BeatTable:
    """``beat`` solved for every target score at once (one column per target)."""

    turn: TurnValues
    targets: tuple[int, ...]

    def solution(self, target: int) -> Solution:
        """The `beat` solution for ``target`` (probability of scoring below it)."""
        if target not in self.targets:
            raise RulesError(
                "target {target} is outside this table ({low}..{high})",
                target=target, low=self.targets[0], high=self.targets[-1],
            )
        return Solution(self.turn, Objective.BEAT, target, self.targets.index(target))


def beat_targets(key: TurnKey) -> tuple[int, ...]:
    """Every target that makes a difference: each possible score, plus one past the highest."""
    scores = np.unique(score_table(key.tiles, key.scoring))
    return (*(int(s) for s in scores if s > 0), int(scores.max()) + 1)


def solve_beat_key(key: TurnKey) -> BeatTable:
    targets = beat_targets(key)
    posted, rank = score_ranks(key.tiles, key.scoring)
    thresholds = np.array(targets, dtype=np.float64)
    fail = Payoffs(rank, (posted[:, None] < thresholds[None, :]).astype(np.float64))
    turn = _turn(key, fail, np.ones(len(targets)))
    return BeatTable(turn, targets)


@lru_cache(maxsize=4)  # a column per target: up to 0.3 GB kept (1.7 GB while solved) at 12 tiles under digits
def _beat_cached(key: TurnKey) -> BeatTable:
    return solve_beat_key(key)


def solve_beat_table(rules: Rules) -> BeatTable:
    """P(score < K) under optimal play for K, for every K that matters (cached)."""
    return _beat_cached(TurnKey.of(rules))


def solve_duel_key(
    key: TurnKey,
    *,
    shut_wins: bool = True,
    win: float = 1.0,
    lose: float = 0.0,
    shut_bonus: float = 0.0,
    tie: float | None = None,
) -> Duel:
    """A two-player round with any payoffs (see `shutthebox.strategy.solver.duel`), uncached."""
    return solve_duel_turns(
        lambda fail, done: _turn(key, fail, done),
        *score_ranks(key.tiles, key.scoring),
        shut_wins=shut_wins, win=win, lose=lose, shut_bonus=shut_bonus, tie=tie,
    )


@lru_cache(maxsize=4)  # a column per posted score: as large as the beat table
def _duel_cached(key: TurnKey, shut_wins: bool) -> Duel:
    return solve_duel_key(key, shut_wins=shut_wins)


def solve_duel(rules: Rules) -> Duel:
    """The two-player round played to win, a tie replaying the round (cached)."""
    return _duel_cached(TurnKey.of(rules), rules.shut_wins)


def solve_round_key(key: TurnKey, players: int, *, shut_wins: bool, objective: Objective, pot: int) -> Round:
    """A round of ``players`` (see `shutthebox.strategy.solver.rounds`), its tie-breaks from the cache."""
    if objective is Objective.WIN:
        payout = Payout(win=1.0, lose=0.0, bonus=0.0, shut_wins=shut_wins)
    elif objective is Objective.STAKE:
        payout = Payout(win=pot - 1.0, lose=-1.0, bonus=2.0, shut_wins=shut_wins)
    else:
        raise RulesError("a round is played to win or for stakes, not for {objective}", objective=objective)
    return solve_round_turns(
        lambda fail, done, group: _turn(key, fail, done, group),
        *score_ranks(key.tiles, key.scoring),
        players=players, payout=payout, objective=objective,
        tie_break=lambda tied: _round_cached(key, tied, shut_wins, objective, pot).seats,
    )


SHELVED_PLAYERS = 3
"""Rounds of this many players or more are kept on the shelf, if one is set (a duel solves at once)."""


@dataclass
class _Shelving:
    shelf: RoundShelf | None = None  # where this process keeps its solved rounds (None: nowhere)


_SHELVING = _Shelving()


def keep_rounds_in(folder: Path | None, max_bytes: int = SHELF_BYTES) -> None:
    """Keep the rounds this process solves in ``folder``, at most ``max_bytes`` of them, and read
    them back from it (None: solve every round here, keep none): a server solves a large round once
    per rule set (`shelf`)."""
    now = _SHELVING.shelf
    kept_as = None if now is None else (now.folder, now.max_bytes)
    if kept_as != (None if folder is None else (folder, max_bytes)):
        _SHELVING.shelf = None if folder is None else RoundShelf(folder, max_bytes)
        _round_cached.cache_clear()


@lru_cache(maxsize=8)  # the mover's columns of every seat: up to 72 MB for 8 players at 12 tiles
def _round_cached(key: TurnKey, players: int, shut_wins: bool, objective: Objective, pot: int) -> Round:
    shelf = _SHELVING.shelf if players >= SHELVED_PLAYERS else None
    name = f"{key}|players={players}|shut_wins={shut_wins}|objective={objective}|pot={pot}"
    if shelf is not None and (kept := shelf.get(name, partial(_shelved_turn, key))) is not None:
        return kept
    solved = solve_round_key(key, players, shut_wins=shut_wins, objective=objective, pot=pot)
    if shelf is not None:
        shelf.put(name, solved)
    return solved


def _shelved_turn(key: TurnKey, values: FloatArray, one_die: BoolArray, fail: FloatArray) -> TurnValues:
    """A seat's turn of a shelved round: its arrays, and what the round's rules give of the rest."""
    return TurnValues(
        topology(key.tiles, key.max_tiles), values, one_die, allow_one_die(key.tiles, key.one_die),
        key.one_die_forced, key.doubles_extra_turn, Payoffs(score_ranks(key.tiles, key.scoring)[1], fail),
    )


def solve_round(
    rules: Rules, players: int, objective: str | Objective = Objective.WIN, *, pot: int | None = None
) -> Round:
    """A round of ``players`` played to win (``win``) or for the money (``stake``, in stakes, with a pot
    of ``pot`` stakes: every player's, unless a tie-break plays for a larger round's), cached."""
    objective = Objective.parse(objective)
    if rules.tiles == 1 and rules.one_die is OneDie.NEVER and rules.scoring is not Scoring.SUM_PLUS_ROLL:
        # two dice never shut tile 1: every turn scores the same and the tie-breaks never end
        raise RulesError("a round on one tile can never end when one die is never allowed")
    if objective is Objective.WIN:
        pot = 0  # the chance to win does not depend on the pot
    elif pot is None:
        pot = players
    elif pot < players:
        raise RulesError(
            "the pot of {pot} stakes is smaller than the round's {players} players", pot=pot, players=players
        )
    return _round_cached(TurnKey.of(rules), players, rules.shut_wins, objective, pot)


ANDERSON = 12
"""Sweeps the long game's Anderson mixing looks back on: 12 took a third of the sweeps 5 did with
one tile per roll (58 for 169 at 12 tiles), 20 for 25 with the defaults."""


@dataclass(frozen=True)
class LongSolution:
    """The long game solved: each role's turn, valued as the mover's chance to win."""

    shutter: Solution
    opener: Solution
    iterations: int
    residual: float

    @property
    def value(self) -> float:
        """The starter's chance to win (the starter shuts first on a full board)."""
        return self.shutter.value

    def for_role(self, opening: bool) -> Solution:
        return self.opener if opening else self.shutter


def solve_long_key(key: TurnKey, tolerance: float = 1e-14, max_sweeps: int = 10_000) -> LongSolution:
    """Value iteration over whole turns, sped up by Anderson mixing.

    A sweep ``T`` solves a shutter's turn against the opener's start-of-turn
    values, then an opener's turn against the shutter's new ones (Gauss-Seidel).
    ``T`` is a contraction whose fixed point is the game's value; instead of
    ``x <- T(x)`` each step mixes the last few sweeps (Anderson acceleration,
    `ANDERSON` of them), which needs a tenth of the sweeps on the long boards. It stops
    when a sweep moves no value by more than ``tolerance``; the distance to the
    fixed point is then at most that over one minus the contraction factor.
    """
    count = 1 << key.tiles
    full = count - 1
    complement = full ^ np.arange(count)
    ones = np.ones(1)

    def handover(other: FloatArray, own_full: float) -> Payoffs:
        """Value of failing: the other player starts on the same board."""
        nxt = other[complement].copy()
        nxt[complement == 0] = 1 - own_full  # the other has nothing to move: hands back at once
        return Payoffs.per_target(1 - nxt)

    def sweep(x: FloatArray) -> tuple[FloatArray, TurnValues, TurnValues]:
        starts_s, starts_o = x[:count], x[count:]
        turn_s = _turn(key, handover(starts_o, float(starts_s[full])), ones)
        new_s = turn_s.values[0, :count, 0]
        turn_o = _turn(key, handover(new_s, float(starts_o[full])), ones)
        return np.concatenate([new_s, turn_o.values[0, :count, 0]]), turn_s, turn_o

    x = np.full(2 * count, 0.5)
    points: list[FloatArray] = []
    steps: list[FloatArray] = []
    sweeps = 0
    while True:
        sweeps += 1
        mapped, turn_s, turn_o = sweep(x)
        step = mapped - x
        residual = float(np.abs(step).max())
        if residual < tolerance or sweeps == max_sweeps:
            break
        points, steps = [*points[-ANDERSON:], x], [*steps[-ANDERSON:], step]
        if len(steps) < 2:
            x = mapped
            continue
        d_steps = np.diff(np.stack(steps, axis=1), axis=1)
        d_points = np.diff(np.stack(points, axis=1), axis=1)
        mix, *_ = np.linalg.lstsq(d_steps, step, rcond=None)
        x = np.clip(mapped - (d_points + d_steps) @ mix, 0.0, 1.0)
    return LongSolution(
        Solution(turn_s, Objective.LONG), Solution(turn_o, Objective.LONG), sweeps, residual
    )


@lru_cache(maxsize=16)  # two turns of one column
def _long_cached(key: TurnKey) -> LongSolution:
    return solve_long_key(key)


def solve_long(rules: Rules) -> LongSolution:
    """The long game's optimal play for both roles (cached)."""
    return _long_cached(TurnKey.of(rules))

