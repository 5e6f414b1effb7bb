"""The trainer: a puzzle dealt, and what an answer to it was worth."""

from __future__ import annotations

from shutthebox.web.answers.advice import Choice
from shutthebox.web.answers.base import Answer, Number, RuleValues

__all__ = [
    "Moved",
    "Puzzle",
    "PuzzleAnswer",
    "PuzzleRated",
    "PuzzleShown",
    "RankedAnswer",
    "Rating",
    "TrainerStanding",
]


class PuzzleAnswer(Answer):
    shut: list[int] | None = None
    dice: int | None = None
    label: str


class Puzzle(Answer):
    key: str
    rules: RuleValues
    goal: str
    objective: str
    target: int | None
    open: list[int]
    roll: list[int] | None
    answers: list[PuzzleAnswer]
    habit: str


class Rating(Answer):
    rating: Number
    deviation: Number
    volatility: Number


class TrainerStanding(Rating):
    answered: int
    right: int


class PuzzleShown(Answer):
    puzzle: Puzzle
    again: bool
    difficulty: Rating
    standing: TrainerStanding
    seen: int
    pool: int


class RankedAnswer(Choice):
    best: bool


class Moved(Answer):
    before: Rating
    after: Rating


class PuzzleRated(Answer):
    right: bool
    loss: Number
    objective: str
    lower_is_better: bool
    ranking: list[RankedAnswer]
    why: str
    rating: Moved
    difficulty: Moved
    streak: int
    due: str
