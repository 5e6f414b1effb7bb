"""The trainer on the server: the next puzzle for a profile, and what its answer was worth.

A pool is one rule set and one goal (`shutthebox.strategy.trainer.puzzles`). The
next puzzle is one of the profile's missed or otherwise due puzzles of the pool,
the one due longest first; else the unseen puzzle whose difficulty is nearest
the profile's rating. An answer is a rated game between the two (Glicko-2): the
profile wins when its answer is the best (a tie with the best counts too).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import say
from shutthebox.storage.trainer import TrainerStore
from shutthebox.strategy.review import Review, review
from shutthebox.strategy.trainer import (
    EXACT,
    Goal,
    Puzzle,
    explain,
    mistakes,
    pick,
    pool_key,
    puzzles,
    rate,
    schedule,
    training_rules,
)
from shutthebox.web.rooms import RoomError

if TYPE_CHECKING:
    from shutthebox.storage import Profile
    from shutthebox.web.lobby import Lobby

__all__ = ["TrainerDesk", "pool_rules"]

OWN_GAMES = 10
"""The newest games of a profile whose mistakes come back as puzzles."""
KEPT_REVIEWS = 200
"""Reviews kept in memory (a review costs a solve per decision)."""


def pool_rules(preset: str, tiles: int, goal: Goal) -> Rules:
    """The rule set a pool is mined under: the preset on ``tiles``, solo (or the long game)."""
    try:
        return training_rules(Rules.preset(preset, tiles=tiles, mode=Mode.SOLO), goal)
    except ShutTheBoxError as error:
        raise RoomError("malformed", "{error}", error=error) from None


@dataclass
class TrainerDesk:
    """The trainer of one server process (the store is shared with the others)."""

    lobby: Lobby

    def __post_init__(self) -> None:
        self.kept = TrainerStore(self.lobby.store.engine)
        self._reviews: OrderedDict[int, Review] = OrderedDict()

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.lobby.clock(), UTC)

    async def next(self, profile: Profile, rules: Rules, goal: Goal) -> dict[str, Any]:
        pool = await run_in_threadpool(puzzles, rules, goal)
        if not pool:
            raise RoomError("not-found", "no position of these rules fools a common habit: try more tiles")
        key = pool_key(rules, goal)
        seen = await run_in_threadpool(self.kept.reviews, profile.id, key)
        standing = await run_in_threadpool(self.kept.standing, profile.id)
        ratings = await run_in_threadpool(self.kept.difficulties, [p.key for p in pool])
        own = await run_in_threadpool(self._own_mistakes, profile, rules, goal)
        chosen, again = pick(pool, seen, ratings, standing.rating, self._now(), own=own)
        difficulty = await run_in_threadpool(self.kept.difficulty, chosen.key)
        return {
            "puzzle": chosen.to_json(),
            "again": again,
            "difficulty": difficulty.to_json(),
            "standing": standing.to_json(),
            "seen": len(seen),
            "pool": len(pool),
        }

    def _own_mistakes(self, profile: Profile, rules: Rules, goal: Goal) -> tuple[Puzzle, ...]:
        """The mistakes of the profile's newest games under these rules, reviewed (and kept)."""
        found: list[Puzzle] = []
        for summary in self.lobby.store.games(player=profile.name, limit=OWN_GAMES):
            if summary.tiles != rules.tiles or summary.typed:
                continue
            record = self.lobby.store.game(summary.id).record
            if training_rules(record.rules.but(mode=Mode.SOLO), goal) != rules:
                continue
            if summary.id not in self._reviews:
                self._reviews[summary.id] = review(record)
                while len(self._reviews) > KEPT_REVIEWS:
                    self._reviews.popitem(last=False)
            found.extend(mistakes(self._reviews[summary.id], profile.name, rules, goal))
        return tuple(found)

    async def answer(self, profile: Profile, key: str, given: dict[str, Any]) -> dict[str, Any]:
        try:
            puzzle = Puzzle.from_key(key)
        except ShutTheBoxError as error:
            raise RoomError("malformed", "{error}", error=error) from None
        advice = await run_in_threadpool(puzzle.advice)
        chosen = _answer_of(puzzle, given)
        loss = advice.loss_of(chosen)
        right = loss <= EXACT
        standing = await run_in_threadpool(self.kept.standing, profile.id)
        difficulty = await run_in_threadpool(self.kept.difficulty, key)
        player, position = rate(standing.rating, difficulty, right)
        streak, due = schedule(await run_in_threadpool(self.kept.streak, profile.id, key), right, self._now())
        await self.lobby.write(
            lambda: self.kept.answer(profile.id, key, pool_key(puzzle.rules, puzzle.goal), right=right,
                                     player=player, puzzle=position, streak=streak, due=due)
        )
        return {
            "right": right,
            "loss": loss,
            "objective": str(advice.objective),
            "lower_is_better": advice.lower_is_better,
            "ranking": [choice.to_json() | {"best": choice.loss <= EXACT} for choice in advice.choices],
            "why": say(await run_in_threadpool(explain, puzzle, chosen)),
            "rating": {"before": standing.rating.to_json(), "after": player.to_json()},
            "difficulty": {"before": difficulty.to_json(), "after": position.to_json()},
            "streak": streak,
            "due": due.isoformat(),
        }


def _answer_of(puzzle: Puzzle, given: dict[str, Any]) -> DiceChoice | Move:
    """The answer sent (``{"dice": n}`` or ``{"shut": [tiles]}``), if it is one of the puzzle's."""
    for answer in puzzle.answers:
        if isinstance(answer, DiceChoice) and given.get("dice") == answer.count:
            return answer
        if isinstance(answer, Move) and sorted(given.get("shut") or ()) == sorted(answer.tiles):
            return answer
    raise RoomError("malformed", "{given} is not one of this puzzle's answers", given=given)
