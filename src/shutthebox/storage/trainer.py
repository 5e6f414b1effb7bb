"""The trainer kept: each profile's rating, each puzzle's difficulty, when each answered puzzle
comes back, and the puzzles dealt and not answered yet. A puzzle is named by the SHA-256 of its key
(its rules, goal, position and roll), a pool (one rule set and goal) by that of the key's first two
parts. One answer is one transaction: it spends the puzzle's dealing (a puzzle is rated once per
time it is dealt, and only if it was: the trainer rates its own puzzles, never any position asked),
and the two ratings and the schedule change with it, or nothing does.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import CursorResult, delete, select
from sqlalchemy.orm import Session

from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.glicko import Rating
from shutthebox.storage.database import Database
from shutthebox.storage.models import PuzzleRatingRow, TrainerDealtRow, TrainerRatingRow, TrainerReviewRow

__all__ = ["NotDealtError", "Standing", "TrainerRepository", "digest"]


class NotDealtError(ShutTheBoxError):
    """An answer to a puzzle the trainer did not deal to the profile (or whose answer it has)."""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Standing:
    """A profile's rating and its record of answers."""

    rating: Rating
    answered: int
    right: int

    def to_json(self) -> dict[str, object]:
        return {**self.rating.to_json(), "answered": self.answered, "right": self.right}


class TrainerRepository:
    """The trainer's tables, in a `Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def standing(self, profile_id: int) -> Standing:
        with self._database.session() as session:
            row = session.get(TrainerRatingRow, profile_id)
        if row is None:
            return Standing(Rating(), 0, 0)
        return Standing(Rating(row.rating, row.deviation, row.volatility), row.answered, row.right)

    def difficulty(self, key: str) -> Rating:
        """The puzzle's rating: a newcomer's until someone answers it."""
        with self._database.session() as session:
            row = session.get(PuzzleRatingRow, digest(key))
        return Rating() if row is None else Rating(row.rating, row.deviation, row.volatility)

    def difficulties(self, keys: list[str]) -> dict[str, Rating]:
        names = {digest(key): key for key in keys}
        with self._database.session() as session:
            rows = session.scalars(select(PuzzleRatingRow).where(PuzzleRatingRow.puzzle.in_(names))).all()
        found = {names[row.puzzle]: Rating(row.rating, row.deviation, row.volatility) for row in rows}
        return {key: found.get(key, Rating()) for key in keys}

    def reviews(self, profile_id: int, pool: str) -> dict[str, datetime]:
        """The puzzles of the pool the profile answered, with when each comes back."""
        with self._database.session() as session:
            rows = session.scalars(select(TrainerReviewRow).where(
                TrainerReviewRow.profile_id == profile_id, TrainerReviewRow.pool == digest(pool)
            )).all()
        return {row.key: row.due_at for row in rows}

    def deal(self, profile_id: int, key: str, now: datetime) -> None:
        """Note that the puzzle of ``key`` was dealt to the profile: it may answer it once."""
        with self._database.session() as session:
            row = session.get(TrainerDealtRow, (profile_id, digest(key)))
            if row is None:
                session.add(TrainerDealtRow(profile_id=profile_id, puzzle=digest(key), dealt_at=now))
            else:
                row.dealt_at = now

    def dealt(self, profile_id: int, key: str) -> bool:
        """Whether the puzzle of ``key`` was dealt to the profile and waits for its answer."""
        with self._database.session() as session:
            return session.get(TrainerDealtRow, (profile_id, digest(key))) is not None

    def streak(self, profile_id: int, key: str) -> int:
        with self._database.session() as session:
            row = session.get(TrainerReviewRow, (profile_id, digest(key)))
        return 0 if row is None else row.streak

    def answer(
        self, profile_id: int, key: str, pool: str, *, right: bool, player: Rating, puzzle: Rating,
        streak: int, due: datetime,
    ) -> None:
        """Keep one answer: the profile's new rating, the puzzle's, and when it comes back; spends the
        puzzle's dealing (`NotDealtError` if it was not dealt, or is answered already: nothing kept).
        The dealing's removal comes first and decides: of answers sent at once, only the one whose
        removal finds the row is kept (when a read of it came first, each answer found it, and each
        was counted)."""

        def work(session: Session) -> None:
            spent = session.execute(delete(TrainerDealtRow).where(
                TrainerDealtRow.profile_id == profile_id, TrainerDealtRow.puzzle == digest(key)
            ))
            assert isinstance(spent, CursorResult)  # a DELETE's
            if spent.rowcount != 1:
                raise NotDealtError("this puzzle was not dealt to you, or you answered it already")
            mine = session.get(TrainerRatingRow, profile_id) or _new_standing(session, profile_id)
            mine.rating, mine.deviation, mine.volatility = player.rating, player.deviation, player.volatility
            mine.answered += 1
            mine.right += int(right)
            name = digest(key)
            its = session.get(PuzzleRatingRow, name) or _new_puzzle(session, name)
            its.rating, its.deviation, its.volatility = puzzle.rating, puzzle.deviation, puzzle.volatility
            its.answered += 1
            review = session.get(TrainerReviewRow, (profile_id, name))
            if review is None:
                review = TrainerReviewRow(profile_id=profile_id, puzzle=name, pool=digest(pool), key=key)
                session.add(review)
            review.streak, review.due_at = streak, due

        self._database.write(work)


def _new_standing(session: Session, profile_id: int) -> TrainerRatingRow:
    fresh = Rating()
    row = TrainerRatingRow(profile_id=profile_id, rating=fresh.rating, deviation=fresh.deviation,
                           volatility=fresh.volatility, answered=0, right=0)
    session.add(row)
    return row


def _new_puzzle(session: Session, name: str) -> PuzzleRatingRow:
    fresh = Rating()
    row = PuzzleRatingRow(puzzle=name, rating=fresh.rating, deviation=fresh.deviation,
                          volatility=fresh.volatility, answered=0)
    session.add(row)
    return row

