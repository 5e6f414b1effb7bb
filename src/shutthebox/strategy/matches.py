"""Whole matches between bots, played through the engine's step API: for rounds, elimination and the
long game, where a turn's table (`strategy.simulate`) is not enough."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from shutthebox.core.game import Game
from shutthebox.core.rules import Rules
from shutthebox.strategy.bots import Bot

__all__ = ["MatchStats", "simulate_matches"]


@dataclass
class MatchStats:
    """Wins of each player over many matches."""

    games: int
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0

    def win_rate(self, player: str) -> float:
        return self.wins.get(player, 0) / self.games


def simulate_matches(
    rules: Rules,
    bots: Mapping[str, Callable[[random.Random], Bot]],
    games: int,
    *,
    seed: int = 0,
    rounds: int = 1,
) -> MatchStats:
    """Play ``games`` whole matches between bots through the engine (seeded)."""
    names: Sequence[str] = list(bots)
    stats = MatchStats(games, dict.fromkeys(names, 0))
    for index in range(games):
        players = {
            i: bots[name](random.Random(seed * 1_000_003 + index * 7 + i)) for i, name in enumerate(names)
        }
        game = Game(rules, names, seed=seed * 1_000_003 + index, rounds=rounds, bots=players)
        game.step_bots()
        winner = game.state.winner
        if winner is None:
            stats.draws += 1
        else:
            stats.wins[names[winner]] += 1
    return stats
