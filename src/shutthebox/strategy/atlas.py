"""The strategy atlas: the game's numbers in one place, each computed by the exact solver.

`atlas` gathers, for board sizes 1 to ``tiles``:

- **boards**: the expected score and the chance to shut the box under optimal
  play, for each one-die rule;
- **openings**: every legal first move of a full board for each roll total,
  with the expected score it leads to;
- **objectives**: the first roll's best move when playing for the lowest score,
  for shutting the box, or for beating 10, where they differ;
- **edges**: the first player's chance to win a two-player round and the long
  game, by board size;
- **stakes**: the first player's expected result in stakes of a two-player
  round played for the money, for each preset on the largest board: the same
  money and the same solver as the rounds (each puts a stake in the pot, the
  winner takes it, a shut box is paid double the stake by the other player, a
  tie is played again);
- **rounds**: each seat's chance to win a round of two to eight players, every
  seat playing to win, and its expected result in stakes, every seat playing
  for the money (a shut box paid double, a tie replayed), on the largest board;
- **bots**: each bot's score distribution over simulated games (the only
  numbers here drawn from dice, with their 95 % intervals).

Pictures and pages are the shell's (`shutthebox.reports.atlas`); here are numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shutthebox.core.board import Move
from shutthebox.core.dice import Roll
from shutthebox.core.rules import PRESETS, Mode, OneDie, Rules
from shutthebox.strategy.advice import advise_position
from shutthebox.strategy.names import ROUND_PLAYERS, Objective
from shutthebox.strategy.simulate import simulate
from shutthebox.strategy.solver import solve, solve_duel, solve_long, solve_round

__all__ = ["BOTS", "PARTS", "STAKE_PRESETS", "Atlas", "atlas", "atlas_steps"]

BOTS = ("random", "greedy", "heuristic", "optimal")
STAKE_PRESETS = ("classic", "web", "two-dice", "pub")


@dataclass(frozen=True, slots=True)
class Atlas:
    tiles: int
    boards: list[dict[str, Any]]
    openings: list[dict[str, Any]]
    objectives: list[dict[str, Any]]
    edges: list[dict[str, Any]]
    stakes: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    bots: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": self.tiles, "boards": self.boards, "openings": self.openings,
            "objectives": self.objectives, "edges": self.edges, "stakes": self.stakes,
            "rounds": self.rounds, "bots": self.bots,
        }


def _two_dice(total: int) -> Roll:
    low = max(1, total - 6)
    return Roll((low, total - low))


PARTS = ("boards", "openings", "objectives", "edges", "stakes", "rounds", "bots")
"""The atlas's parts, in the order they are computed (the names `atlas` gives its ``step``)."""


def atlas_steps(tiles: int) -> int:
    """How many times `atlas` calls its ``step`` for boards up to ``tiles``: a progress bar's total."""
    return (tiles * len(OneDie) + 2 + (tiles - 1) + len(STAKE_PRESETS) + len(ROUND_PLAYERS) + len(BOTS))


def atlas(
    tiles: int = 12, games: int = 200_000, seed: int = 0, step: Callable[[str], None] | None = None
) -> Atlas:
    """The atlas for boards up to ``tiles``, the bots simulated over ``games`` turns each. ``step``
    (a progress bar's) is called with the part's name (`PARTS`) as each of `atlas_steps` starts: the
    whole takes minutes at 12 tiles."""

    def starts(part: str) -> None:
        if step is not None:
            step(part)

    boards = []
    for n in range(1, tiles + 1):
        for rule in OneDie:
            starts("boards")
            boards.append({"tiles": n, "one_die": str(rule),
                           "expected_score": solve(Rules(tiles=n, one_die=rule)).value,
                           "shut": solve(Rules(tiles=n, one_die=rule), Objective.SHUT).value})
    rules = Rules(tiles=tiles)
    full = (1 << tiles) - 1
    openings = []
    starts("openings")
    for total in range(2, 13):
        for move, value in solve(rules).move_values(full, _two_dice(total)):
            openings.append({"total": total, "shut": list(move.tiles), "expected_score": value})
    objectives = []
    starts("objectives")
    for total in range(2, 13):
        best: dict[str, Move | None] = {}
        for name, objective, target in (("score", Objective.SCORE, None), ("shut", Objective.SHUT, None),
                                        ("beat-10", Objective.BEAT, 10)):
            advice = advise_position(rules, full, _two_dice(total), objective=objective, target=target)
            action = advice.best.action if advice.best is not None else None
            best[name] = action if isinstance(action, Move) else None
        if len({m.mask if m else None for m in best.values()}) > 1:
            objectives.append({"total": total, **{k: list(m.tiles) if m else None for k, m in best.items()}})
    edges = []
    for n in range(2, tiles + 1):
        starts("edges")
        edges.append({"tiles": n, "round": solve_duel(Rules(tiles=n)).value,
                      "long": solve_long(Rules(tiles=n, mode=Mode.LONG)).value})
    stakes = []
    for name in STAKE_PRESETS:  # the rounds' money and solver: the classic row is the rounds' first seat
        starts("stakes")
        played = PRESETS[name].but(tiles=tiles)
        stakes.append({"preset": name, "tiles": tiles,
                       "first_player": solve_round(played, 2, Objective.STAKE).seats[0]})
    rounds = []
    for players in ROUND_PLAYERS:
        starts("rounds")
        rounds.append({"players": players, "win": list(solve_round(rules, players).seats),
                       "stake": list(solve_round(rules, players, Objective.STAKE).seats)})
    bots = []
    for bot in BOTS:
        starts("bots")
        played_bot = simulate(rules, bot, games, seed=seed)
        bots.append({"bot": bot, "games": games, "mean_score": played_bot.mean_score,
                     "mean_ci95": list(played_bot.mean_ci), "shut": played_bot.shut_rate,
                     "scores": {str(k): v for k, v in sorted(played_bot.scores.items())}})
    return Atlas(tiles, boards, openings, objectives, edges, stakes, rounds, bots)
