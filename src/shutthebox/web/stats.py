"""A player's statistics, for the page's "Your statistics" view (``GET /api/players/{name}/stats``).

The numbers are `storage.stats`'s, which ``shutthebox stats`` prints too; this is the web's part:
`Reviews` keeps each stored game's marks, since a stored game never changes and its review costs
the solver, and `collect` reviews through the server's solver door (a review it refuses leaves that
game without a mark).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from threading import Lock
from typing import Any

from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.record import GameRecord
from shutthebox.storage import GameRepository, ProfileRepository
from shutthebox.storage import stats as shared
from shutthebox.storage.stats import (
    GRADES,
    LAST_GAMES,
    MOST_BARS,
    REVIEWED_GAMES,
    TURNS_READ,
    Mark,
    histogram,
    marks_of,
    player_stats,
)
from shutthebox.strategy.review import Review

ReviewWith = Callable[[int, GameRecord], "Review"]
"""How a stored game (its id and record) is reviewed."""

__all__ = [
    "GRADES", "LAST_GAMES", "MOST_BARS", "REVIEWED_GAMES", "TURNS_READ", "Mark", "Reviews", "collect",
    "histogram", "marks_of", "player_stats",
]

REVIEWS_KEPT = 1024
"""Stored games whose review marks a server keeps."""


class Reviews:
    """The review marks of stored games by id, the most recently used kept (a stored game never changes)."""

    def __init__(self, kept: int = REVIEWS_KEPT) -> None:
        self._kept = kept
        self._marks: OrderedDict[int, dict[str, Mark]] = OrderedDict()
        self._lock = Lock()  # the server's threads share one cache

    def marks(self, games: GameRepository, game_id: int, review_with: ReviewWith) -> dict[str, Mark]:
        """The marks of game ``game_id``, reviewed with ``review_with`` the first time they are asked."""
        with self._lock:
            found = self._marks.get(game_id)
            if found is not None:
                self._marks.move_to_end(game_id)
                return found
        found = marks_of(review_with(game_id, games.game(game_id).record))
        with self._lock:
            self._marks[game_id] = found
            while len(self._marks) > self._kept:
                self._marks.popitem(last=False)
        return found


def collect(
    games: GameRepository,
    profiles: ProfileRepository,
    name: str,
    reviews: Reviews,
    review_with: ReviewWith,
    *,
    last: int = LAST_GAMES,
    source: str | None = None,
) -> dict[str, Any] | None:
    """`storage.stats.collect` of ``name``, each game reviewed with ``review_with`` (the server's solver
    door) through ``reviews``; None when no profile has that name and no game that player."""

    def mark_of(game_id: int, seat: str) -> Mark | None:
        try:
            return reviews.marks(games, game_id, review_with).get(seat)
        except ShutTheBoxError:  # a review refused (over the budget, too much asked): that game has no mark
            return None

    return shared.collect(games, profiles, name, mark_of, last=last, source=source)
