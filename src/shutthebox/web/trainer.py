"""The trainer on the server: the next puzzle for a profile, and what its answer was worth.

A pool is one rule set and one goal (`shutthebox.strategy.trainer.puzzles`). The
next puzzle is one of the profile's missed or otherwise due puzzles of the pool,
the one due longest first; else the unseen puzzle whose difficulty is nearest
the profile's rating. An answer is a rated game between the two (Glicko-2): the
profile wins when its answer is the best (a tie with the best counts too).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import say
from shutthebox.storage.trainer import NotDealtError, TrainerRepository
from shutthebox.strategy import jobs
from shutthebox.strategy.advice import Advice
from shutthebox.strategy.cost import cost_of
from shutthebox.strategy.trainer import (
    EXACT,
    Goal,
    Puzzle,
    mistakes,
    pick,
    pool_key,
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
        self.kept = TrainerRepository(self.lobby.database)

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.lobby.clock(), UTC)

    def _price(self, rules: Rules, goal: Goal, solves: int = 1) -> int:
        """What mining or answering costs under ``rules``: ``solves`` solves of its goal (`RoomError`
        busy beyond the server's budget for one)."""
        cost = cost_of(rules, goal.objective)
        if not cost.within(self.lobby.advisor.max_cells, self.lobby.advisor.max_bytes):
            raise RoomError(
                "busy", "this rule set is too large for the trainer on this server: try fewer tiles"
            )
        return solves * cost.cells

    async def next(self, profile: Profile, rules: Rules, goal: Goal, requester: str) -> dict[str, Any]:
        door = self.lobby.door
        pool, shown = await door.run(
            requester, ("pool", rules, goal), self._price(rules, goal, 3), jobs.trainer_pool, rules, goal
        )
        if not pool:
            raise RoomError("not-found", "no position of these rules fools a common habit: try more tiles")
        key = pool_key(rules, goal)
        seen = await run_in_threadpool(self.kept.reviews, profile.id, key)
        standing = await run_in_threadpool(self.kept.standing, profile.id)
        ratings = await run_in_threadpool(self.kept.difficulties, [p.key for p in pool])
        own = await self._own_mistakes(profile, rules, goal, requester)
        chosen, again = pick(pool, seen, ratings, standing.rating, self._now(), own=own)
        await self.lobby.write(self.kept.deal, profile.id, chosen.key, self._now())
        difficulty = await run_in_threadpool(self.kept.difficulty, chosen.key)
        puzzle = shown.get(chosen.key)
        if puzzle is None or puzzle["habit"] != chosen.habit:  # one's own mistake, or one due again
            puzzle = await door.run(
                requester, ("puzzle", chosen.key, chosen.habit), self._price(rules, goal), jobs.puzzle_json,
                chosen,
            )
        return {
            "puzzle": puzzle,
            "again": again,
            "difficulty": difficulty.to_json(),
            "standing": standing.to_json(),
            "seen": len(seen),
            "pool": len(pool),
        }

    async def _own_mistakes(
        self, profile: Profile, rules: Rules, goal: Goal, requester: str
    ) -> tuple[Puzzle, ...]:
        """The mistakes of the profile's newest games under these rules, reviewed through the door."""
        found: list[Puzzle] = []
        games = self.lobby.games
        summaries = await run_in_threadpool(lambda: games.games(player=profile.name, limit=OWN_GAMES))
        for summary in summaries:
            if summary.tiles != rules.tiles or summary.typed:
                continue
            record = (await run_in_threadpool(games.game, summary.id)).record
            if training_rules(record.rules.but(mode=Mode.SOLO), goal) != rules:
                continue
            reviewed = await self.lobby.review_of(record, ("stored", summary.id), requester)
            found.extend(mistakes(reviewed, profile.name, rules, goal))
        return tuple(found)

    async def answer(
        self, profile: Profile, key: str, given: dict[str, Any], requester: str
    ) -> dict[str, Any]:
        """Rate an answer to a puzzle dealt to the profile (a position of its own choosing is no
        puzzle: the trainer is no free hint for a game in play)."""
        try:
            puzzle = Puzzle.from_key(key)
        except ShutTheBoxError as error:
            raise RoomError("malformed", "{error}", error=error) from None
        if not await run_in_threadpool(self.kept.dealt, profile.id, key):
            raise _not_dealt()
        advice, reasons = await self.lobby.door.run(
            requester, ("answers", key), self._price(puzzle.rules, puzzle.goal), jobs.puzzle_answers, puzzle
        )
        chosen = _answer_of(puzzle, advice, given)
        loss = advice.loss_of(chosen)
        right = loss <= EXACT
        standing = await run_in_threadpool(self.kept.standing, profile.id)
        difficulty = await run_in_threadpool(self.kept.difficulty, key)
        player, position = rate(standing.rating, difficulty, right)
        streak, due = schedule(await run_in_threadpool(self.kept.streak, profile.id, key), right, self._now())
        try:
            await self.lobby.write(
                lambda: self.kept.answer(profile.id, key, pool_key(puzzle.rules, puzzle.goal), right=right,
                                         player=player, puzzle=position, streak=streak, due=due)
            )
        except NotDealtError:  # another answer to the same dealing was first
            raise _not_dealt() from None
        return {
            "right": right,
            "loss": loss,
            "objective": str(advice.objective),
            "lower_is_better": advice.lower_is_better,
            "ranking": [choice.to_json() | {"best": choice.loss <= EXACT} for choice in advice.choices],
            "why": say(reasons[str(chosen)]),
            "rating": {"before": standing.rating.to_json(), "after": player.to_json()},
            "difficulty": {"before": difficulty.to_json(), "after": position.to_json()},
            "streak": streak,
            "due": due.isoformat(),
        }


def _not_dealt() -> RoomError:
    return RoomError(
        "not-found", "this puzzle was not dealt to you, or you answered it already: ask GET /api/train"
    )


def _answer_of(puzzle: Puzzle, advice: Advice, given: dict[str, Any]) -> DiceChoice | Move:
    """The answer sent (``{"dice": n}`` or ``{"shut": [tiles]}``), if it is one of the puzzle's."""
    for choice in advice.choices:
        answer = choice.action
        if isinstance(answer, DiceChoice) and puzzle.roll is None and given.get("dice") == answer.count:
            return answer
        if isinstance(answer, Move) and sorted(given.get("shut") or ()) == sorted(answer.tiles):
            return answer
    raise RoomError("malformed", "{given} is not one of this puzzle's answers", given=given)
