"""What the strategy answers to, by name: objectives, bots, strengths and simulated strategies.

These names are all the command line and the setup screens need to list the
choices, so they live apart from the solver and import no NumPy.
"""

from __future__ import annotations

from shutthebox.core.errors import N_, RulesError
from shutthebox.core.options import Choice

__all__ = [
    "BOT_NAMES", "ROUND_OBJECTIVES", "ROUND_PLAYERS", "STRATEGIES", "STRENGTHS", "VERDICTS", "Objective",
    "bot_key",
]

ROUND_PLAYERS = range(2, 9)
"""The rounds the solver plays to win (objectives ``win`` and ``stake``): two to eight players, as a room
seats."""


class Objective(Choice):
    """What the player wants from a turn or a game."""

    SCORE = "score"  # lowest expected final score
    SHUT = "shut"  # highest probability of shutting the box
    BEAT = "beat"  # highest probability of scoring strictly below the target
    TIE_OR_BEAT = "tie-or-beat"  # highest probability of scoring at most the target
    LONG = "long"  # highest probability of winning the long game
    WIN = "win"  # highest probability of winning the round (two players, playing first, by default)
    STAKE = "stake"  # highest expected result of the round in stakes: the pot and a shut box's double

    @classmethod
    def unknown(cls) -> str:
        return N_("unknown objective {value!r}: choose one of {names}")

    @property
    def lower_is_better(self) -> bool:
        return self is Objective.SCORE

    @property
    def is_chance(self) -> bool:
        """Whether values are probabilities (the others: a score, or stakes won or lost)."""
        return self not in (Objective.SCORE, Objective.STAKE)


ROUND_OBJECTIVES = (Objective.WIN, Objective.STAKE)
"""The objectives of a whole round, solved from a seat among the other players."""

VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The review's grades of a decision, best to worst (`shutthebox.strategy.review`)."""


BOT_NAMES: tuple[str, ...] = (
    "random", "greedy", "fewest", "heuristic", "optimal", "optimal-score", "optimal-shut",
)
"""Every bot (`shutthebox.strategy.bots`)."""

STRENGTHS: dict[str, str] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "heuristic",
    "expert": "optimal",
}
"""The strengths offered to players, weakest first, and the bot behind each."""


def bot_key(name: str) -> str:
    """The bot called ``name``, or behind the strength ``name``; `RulesError` naming the choices."""
    key = STRENGTHS.get(name, name)
    if key not in BOT_NAMES:
        names = ", ".join([*STRENGTHS, *BOT_NAMES])
        raise RulesError("unknown bot {name!r}: choose one of {names}", name=name, names=names)
    return key

STRATEGIES: dict[str, str] = {
    "random": N_("any legal choice, uniformly"),
    "greedy": N_("highest tiles first, one die when allowed"),
    "fewest": N_("fewest tiles, then highest; one die when allowed"),
    "heuristic": N_("keep the board likeliest to use the next roll"),
    "optimal": N_("the exact solver, lowest expected score"),
    "optimal-score": N_("the exact solver, lowest expected score"),
    "optimal-shut": N_("the exact solver, most chances to shut the box"),
    "optimal-beat": N_("the exact solver, most chances to score under --target"),
}
"""The strategies `simulate` compiles, each described (a message of the catalog)."""
