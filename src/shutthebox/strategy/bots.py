"""Bots: players that think of an action for a state, each with the generator it is given.

A bot is anything with ``think(state) -> DiceChoice | Move``, called when the
state waits for a choice of dice (CHOOSE) or a move (MOVE); rolling is the
game's business. Bots never print and never roll. A bot seated at a game
(`seat_bots`) is a composed policy: its own rule, a ``fallback`` that chooses
instead when it fails or takes longer than its ``patience`` (the heuristic,
which answers at once). Every shell treats them alike (see `core.game`); a bot
pickles, so a server may think in a worker process, and a server plans the
objective of its ``optimal`` bots as it plans a hint's, within its budget (`planned`).

- ``random``: any legal choice, uniformly.
- ``greedy``: the highest tiles first (8 before 7+1 before 6+2…); one die when allowed.
- ``fewest``: the fewest tiles, then the highest; one die when allowed.
- ``heuristic``: keeps the board most likely to use the next roll, then the
  lowest open sum; rolls the number of dice that is likelier to be usable.
- ``optimal``: the exact solver, with the objective that fits the match (the lowest
  expected score alone; the round from its seat, to win it or for the stakes; the
  win in the long game).
- ``optimal-score``, ``optimal-shut``: the solver with a fixed objective.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Protocol

from shutthebox.core.board import Move, mask_sum, subsets_with_sum
from shutthebox.core.errors import IllegalActionError
from shutthebox.core.match import DiceChoice, Match, Phase
from shutthebox.core.rules import Rules
from shutthebox.strategy.advice import advise
from shutthebox.strategy.names import BOT_NAMES, STRENGTHS, Objective, bot_key

__all__ = [
    "BOT_NAMES", "PATIENCE", "STRENGTHS", "Bot", "Seated", "greedy_move", "heuristic_dice", "heuristic_move",
    "make_bot", "planned", "seat_bots", "solves", "usable",
]

PATIENCE = 20.0
"""Seconds a shell waits for a solver's bot to think before its fallback chooses."""
SOLVERS = frozenset({"optimal", "optimal-score", "optimal-shut"})
"""The bots that ask the exact solver (the others answer at once)."""


class Bot(Protocol):
    """Thinks of the action for a state waiting on a choice (see `core.game.Chooser`)."""

    @property
    def name(self) -> str: ...

    @property
    def fallback(self) -> Bot | None: ...

    @property
    def patience(self) -> float | None: ...

    def think(self, state: Match) -> DiceChoice | Move: ...


Rule = Callable[[Match, random.Random], DiceChoice | Move]


@dataclass
class RuleBot:
    """A bot defined by a function of the state and its generator; no fallback, no limit."""

    name: str
    rule: Rule
    rng: random.Random

    @property
    def fallback(self) -> Bot | None:
        return None

    @property
    def patience(self) -> float | None:
        return None

    def think(self, state: Match) -> DiceChoice | Move:
        if not state.is_decision:
            raise IllegalActionError(
                "bot {name} has nothing to choose: {state}", name=self.name, state=state.describe()
            )
        return self.rule(state, self.rng)


@dataclass
class Seated:
    """A bot as seated at a game: its own thinking, and the ``fallback`` that chooses instead when
    it fails or takes longer than ``patience`` seconds."""

    own: Bot
    fallback: Bot
    patience: float | None = None

    @property
    def name(self) -> str:
        return self.own.name

    def think(self, state: Match) -> DiceChoice | Move:
        return self.own.think(state)


def solves(bot: object) -> bool:
    """Whether ``bot`` asks the exact solver (so a server prices its thinking and runs it apart)."""
    return getattr(bot, "name", None) in SOLVERS


def planned(bot: object) -> bool:
    """Whether ``bot`` ranks by the objective that fits the match (``optimal``), which a server may
    plan for it as for a hint: the cheaper objective over its budget, the round once solved ahead."""
    return getattr(bot, "name", None) == "optimal"


def _random(state: Match, rng: random.Random) -> DiceChoice | Move:
    return rng.choice(state.legal_actions())


def _prefer_one_die(state: Match) -> DiceChoice:
    return DiceChoice(min(state.dice_options))


def greedy_move(moves: Sequence[Move]) -> Move:
    """The highest tiles first: 8 before 7+1 before 6+2 (the habit the trainer sets traps for)."""
    return max(moves, key=lambda m: m.tiles)


def _greedy(state: Match, rng: random.Random) -> DiceChoice | Move:
    if state.phase is Phase.CHOOSE:
        return _prefer_one_die(state)
    return greedy_move(state.legal_moves)


def _fewest(state: Match, rng: random.Random) -> DiceChoice | Move:
    if state.phase is Phase.CHOOSE:
        return _prefer_one_die(state)
    return min(state.legal_moves, key=lambda m: (len(m), [-t for t in m.tiles]))


@lru_cache(maxsize=65_536)  # keyed by whole rule sets, so a server seeing many stakes stays bounded
def _usable(rules: Rules, target: int, count: int) -> float:
    """Probability that a roll of ``count`` dice can be matched from ``target``."""
    faces = range(1, 7)
    totals = list(faces) if count == 1 else [a + b for a in faces for b in faces]
    hits = sum(
        1
        for total in totals
        if any(m & target == m for m in subsets_with_sum(rules.tiles, total, rules.max_tiles))
    )
    return hits / len(totals)


def _coverage(rules: Rules, target: int) -> float:
    if target == 0:
        return 2.0  # done: better than any chance
    return max(_usable(rules, target, count) for count in rules.dice_options(target))


def heuristic_dice(rules: Rules, target: int) -> int:
    """The number of dice likelier to make a move (the fewer on a tie)."""
    return max(rules.dice_options(target), key=lambda c: (_usable(rules, target, c), -c))


def heuristic_move(rules: Rules, target: int, moves: Sequence[Move]) -> Move:
    """The move that keeps the board most likely to use the next roll, then the lowest open sum."""

    def keep(move: Move) -> tuple[float, int, tuple[int, ...]]:
        left = target & ~move.mask
        return (_coverage(rules, left), -mask_sum(left), move.tiles)

    return max(moves, key=keep)


def usable(rules: Rules, target: int, count: int) -> float:
    """The chance that a roll of ``count`` dice can be played on ``target``."""
    return _usable(rules, target, count)


def _heuristic(state: Match, rng: random.Random) -> DiceChoice | Move:
    if state.phase is Phase.CHOOSE:
        return DiceChoice(heuristic_dice(state.rules, state.target))
    return heuristic_move(state.rules, state.target, state.legal_moves)


def _optimal(objective: Objective | None, state: Match, rng: random.Random) -> DiceChoice | Move:
    """The solver's best choice (by the objective that fits the match when none is given)."""
    best = (advise(state) if objective is None else advise(state, objective)).best
    assert best is not None
    return best.action


_RULES: dict[str, Rule] = {
    "random": _random,
    "greedy": _greedy,
    "fewest": _fewest,
    "heuristic": _heuristic,
    "optimal": partial(_optimal, None),
    "optimal-score": partial(_optimal, Objective.SCORE),
    "optimal-shut": partial(_optimal, Objective.SHUT),
}


def make_bot(name: str, rng: random.Random | None = None) -> Bot:
    """The bot called ``name`` (or a strength such as ``expert``), with its generator."""
    key = bot_key(name)
    return RuleBot(key, _RULES[key], rng if rng is not None else random.Random(0))


def seat_bots(seats: Mapping[int, str], seed: int | str | None) -> dict[int, Bot]:
    """A seated bot for each seat (a bot name or a strength): its own generator drawn from the game's
    ``seed`` and its seat, so a seeded game replays with the same bot choices; the heuristic as its
    fallback; a solver's bot waits `PATIENCE` at most."""
    bots: dict[int, Bot] = {}
    for seat, name in seats.items():
        rng = random.Random(f"{seed}/{seat}") if seed is not None else random.Random()
        own = make_bot(name, rng)
        fallback = make_bot("heuristic", random.Random(f"{seed}/{seat}/fallback"))
        bots[seat] = Seated(own, fallback, PATIENCE if own.name in SOLVERS else None)
    return bots
