"""Game review: each decision of a finished game graded against optimal play.

For every dice choice and move in a record, the solver values each option in
the objective that fitted the moment (see `advise`); the decision's *loss* is
how much worse the chosen option was than the best. Verdicts scale with the
objective: expected points relative to the best expected score, probability
points for the chance objectives, and for a round played for stakes the stakes
lost over the pot (what a probability point of winning it is worth). A
player's *accuracy* is the mean, over the decisions that had a real choice, of
the share of the best option's value that the chosen one kept (expected scores:
best / chosen; chances: chosen / best; stakes, which can be negative: how far
the chosen one went from the worst towards the best), as a percentage: 100 for
perfect play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shutthebox.core.board import Board, Move
from shutthebox.core.dice import Roll
from shutthebox.core.match import DiceChoice, Match
from shutthebox.core.record import GameRecord, replay_states
from shutthebox.strategy.advice import Advice, advise
from shutthebox.strategy.names import VERDICTS, Objective

__all__ = ["VERDICTS", "Decision", "Review", "review", "verdict"]

_PROBABILITY_STEPS = (0.01, 0.03, 0.08)  # probability points lost
_SCORE_STEPS = (0.02, 0.08, 0.20)  # share of the best expected score lost
_EXACT = 1e-9


def verdict(loss: float, best: float, objective: Objective, pot: int = 1) -> str:
    """The word for a loss: best, good, inaccuracy, mistake or blunder (``pot``: the stakes a round for
    stakes is played for)."""
    if loss <= _EXACT:
        return "best"
    if objective is Objective.SCORE:
        size, steps = loss / max(abs(best), 1.0), _SCORE_STEPS
    elif objective is Objective.STAKE:
        size, steps = loss / pot, _PROBABILITY_STEPS
    else:
        size, steps = loss, _PROBABILITY_STEPS
    for word, step in zip(VERDICTS[1:], steps, strict=False):
        if size < step:
            return word
    return "blunder"


@dataclass(frozen=True, slots=True)
class Decision:
    """One graded decision."""

    index: int  # position of the event in the record
    player: str
    board: Board
    roll: Roll | None
    opening: bool
    objective: Objective
    target: int | None
    chosen: DiceChoice | Move
    best: DiceChoice | Move
    value_chosen: float
    value_best: float
    value_worst: float
    loss: float
    verdict: str

    @property
    def had_choice(self) -> bool:
        return abs(self.value_best - self.value_worst) > _EXACT

    def to_json(self) -> dict[str, Any]:
        def action(a: DiceChoice | Move) -> dict[str, Any]:
            return {"dice": a.count} if isinstance(a, DiceChoice) else {"shut": list(a.tiles)}

        return {
            "index": self.index,
            "player": self.player,
            "open": list(self.board.open_tiles),
            "roll": list(self.roll.dice) if self.roll else None,
            "opening": self.opening,
            "objective": str(self.objective),
            "target": self.target,
            "chosen": action(self.chosen),
            "best": action(self.best),
            "value_chosen": self.value_chosen,
            "value_best": self.value_best,
            "loss": self.loss,
            "verdict": self.verdict,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """Every decision of a game, graded, and each player's accuracy."""

    decisions: tuple[Decision, ...]
    accuracy: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": [d.to_json() for d in self.decisions],
            "accuracy": self.accuracy,
        }


def review(record: GameRecord, advise_with: Callable[[Match], Advice] = advise) -> Review:
    """Grade every decision of ``record`` against the exact solver (``advise_with``: a server bounds
    the work of each decision with its own)."""
    decisions: list[Decision] = []
    before = None
    for index, (event, state) in enumerate(replay_states(record)):
        if event is not None and before is not None and isinstance(event.action, (DiceChoice, Move)):
            advice = advise_with(before)
            chosen = next(c for c in advice.choices if c.action == event.action)
            best, worst = advice.choices[0], advice.choices[-1]
            decisions.append(
                Decision(
                    index=index - 1,
                    player=record.players[event.player],
                    board=before.board,
                    roll=before.roll if isinstance(event.action, Move) else None,
                    opening=before.opening,
                    objective=advice.objective,
                    target=advice.target,
                    chosen=event.action,
                    best=best.action,
                    value_chosen=chosen.value,
                    value_best=best.value,
                    value_worst=worst.value,
                    loss=chosen.loss,
                    verdict=verdict(chosen.loss, best.value, advice.objective, _pot(advice)),
                )
            )
        before = state
    return Review(tuple(decisions), _accuracy(record.players, decisions))


def _pot(advice: Advice) -> int:
    seat = advice.seat
    return (seat.pot or seat.players) if seat is not None else 1


def _kept(decision: Decision) -> float:
    """The share of the best option's value the chosen option kept, 0 to 1."""
    if decision.objective is Objective.STAKE:  # results can be negative: the way from worst to best
        spread = decision.value_best - decision.value_worst
        return (decision.value_chosen - decision.value_worst) / spread if spread > 0 else 1.0
    if decision.objective.lower_is_better:  # expected scores: best / chosen
        kept, whole = decision.value_best, decision.value_chosen
    else:  # chances: chosen / best
        kept, whole = decision.value_chosen, decision.value_best
    return kept / whole if whole > 0 else 1.0


def _accuracy(players: tuple[str, ...], decisions: list[Decision]) -> dict[str, float]:
    result: dict[str, float] = {}
    for player in players:
        marks = [_kept(d) for d in decisions if d.player == player and d.had_choice]
        if marks:
            result[player] = round(100 * sum(marks) / len(marks), 1)
    return result
