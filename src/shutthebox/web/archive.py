"""The stored games as the page reads them: lists, one game and its review, a player's turns, bests
and statistics, and the leaderboard, of the games this server rolled itself.

A game the server did not roll (``source`` other than "web": a terminal game on the same database)
counts for none of its bests nor its leaderboard: its dice prove nothing to anyone else. A sealed
game (a daily challenge's while its day lasts) is nobody's to read (`storage.SealedError`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from anyio import from_thread, to_thread

from shutthebox.core.record import GameRecord
from shutthebox.core.rules import Rules
from shutthebox.storage import GameRepository, ProfileRepository, rules_key
from shutthebox.strategy.review import Review
from shutthebox.web.advice import AdviceDesk
from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.stats import LAST_GAMES, Reviews, collect

__all__ = ["SERVER_ROLLED", "Archive"]

SERVER_ROLLED = "web"
"""The source of the games this server rolled: its bests and leaderboard count no other."""


class Archive:
    """The store's finished games, read for the page (the reads run in the server's threads)."""

    def __init__(
        self, games: GameRepository, profiles: ProfileRepository, advice: AdviceDesk, reviews: Reviews, *,
        clock: Callable[[], float],
    ) -> None:
        self.kept = games
        self.profiles = profiles
        self.advice = advice
        self.reviews = reviews
        self.clock = clock

    def games(self, *, player: str | None, source: str | None, limit: int, offset: int) -> dict[str, Any]:
        """Stored games, newest first, and how many there are of those asked (all pages)."""
        found = self.kept.games(player=player, source=source, limit=limit, offset=offset)
        return {"games": [g.to_json() for g in found], "total": self.kept.count(player=player, source=source)}

    def game(self, game_id: int) -> dict[str, Any]:
        """A stored game with its record, as anyone may read it now (not one sealed)."""
        stored = self.kept.game(game_id, now=datetime.fromtimestamp(self.clock(), UTC))
        return {**stored.summary.to_json(), "record": stored.record.to_json()}

    async def review(self, game_id: int, requester: str) -> dict[str, Any]:
        """The review of a stored game anyone may read now, through the solver's door."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        stored = await to_thread.run_sync(lambda: self.kept.game(game_id, now=now))
        found = await self.advice.review_of(stored.record, ("stored", game_id), requester)
        answer: dict[str, Any] = found.to_json()
        return answer

    def history(self, name: str, limit: int) -> dict[str, Any]:
        return {"player": name, "turns": [t.to_json() for t in self.kept.history(name, limit=limit)]}

    def bests(self, name: str, tiles: int | None) -> dict[str, Any]:
        bests = self.kept.bests(name, tiles=tiles, source=SERVER_ROLLED)
        return {"player": name, "bests": [b.to_json() for b in bests]}

    def stats(self, name: str, requester: str, last: int = LAST_GAMES) -> dict[str, Any]:
        """A player's statistics (in a worker thread of the server: each game is reviewed through the
        solver's door on the server's loop, its marks kept)."""

        def review_with(game_id: int, record: GameRecord) -> Review:
            found: Review = from_thread.run(self.advice.review_of, record, ("stored", game_id), requester)
            return found

        found = collect(
            self.kept, self.profiles, name, self.reviews, review_with, last=last, source=SERVER_ROLLED
        )
        if found is None:
            raise RefusedError(
                Refusal.NOT_FOUND,
                "no profile is named {name!r} and no game was played under that name",
                name=name,
            )
        return found

    def leaderboard(self, rules: Rules, limit: int) -> dict[str, Any]:
        entries = self.kept.leaderboard(rules, limit=limit, source=SERVER_ROLLED)
        return {
            "tiles": rules.tiles, "rules_key": rules_key(rules), "entries": [e.to_json() for e in entries]
        }
