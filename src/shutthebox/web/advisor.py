"""Hints within a budget: each solve the server runs is bounded before it starts, shared, and kept.

`Advisor.advise(state)` prices the solve a hint needs (`shutthebox.strategy.cost`)
before running it. Within the budget (``max_cells`` of work, ``max_bytes`` of
memory) it runs `shutthebox.strategy.advice.advise` in a worker thread. Over it,
it answers from a cheaper objective (the lowest expected score; in the long
game the chance to clear one's tiles this turn) and says so in the answer's
``bounded``; when even that is over, it refuses with `RoomError` ``busy`` (503).

Requests for the same answer at the same time share one computation; requests
for the same solve (other positions under the same rules) wait for one solve;
at most ``workers`` solves run at once, so the server's memory for hints is at
most ``workers * max_bytes`` besides the caches. Answers are kept in a
least-recently-used cache of ``cache_size``.
"""

from __future__ import annotations

import asyncio
import copy
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from shutthebox.core.errors import N_, Phrase
from shutthebox.core.match import Match, Phase
from shutthebox.i18n import say
from shutthebox.strategy.advice import Seat
from shutthebox.strategy.cost import Cost, cost_of
from shutthebox.strategy.names import Objective
from shutthebox.web.rooms import RoomError

__all__ = ["CHEAPER", "MAX_BYTES", "MAX_CELLS", "Advisor", "Plan"]

MAX_CELLS = 3_000_000_000
"""The default work budget of one hint: at most 15 s of processor time on the machine the model was
calibrated on, 3 to 5 s in fact for the largest that fit (a 12-tile round to win under ``sum``, or the
long game, with extra turns on); a round under ``digits`` fits up to 10 tiles (9 with extra turns)."""
MAX_BYTES = 1_000_000_000
"""The default memory budget of one hint, 1 GB."""

CHEAPER: dict[Objective, Objective] = {
    Objective.WIN: Objective.SCORE,  # a later seat of a round: beat the best score posted (see `cheaper`)
    Objective.STAKE: Objective.SCORE,
    Objective.BEAT: Objective.SCORE,
    Objective.TIE_OR_BEAT: Objective.SCORE,
    Objective.LONG: Objective.SHUT,  # clearing one's tiles wins the long game at once (rules §5.4)
    Objective.SHUT: Objective.SCORE,
}
"""The objective answered instead of one over the budget: one turn of one column."""

_WORDS: dict[Objective, str] = {
    Objective.SCORE: N_("the lowest expected score"),
    Objective.SHUT: N_("the chance to clear your tiles this turn"),
    Objective.BEAT: N_("the chance to score under {target}"),
    Objective.TIE_OR_BEAT: N_("the chance to score {target} or less"),
    Objective.LONG: N_("the chance to win the game"),
    Objective.WIN: N_("the chance to win the round"),
    Objective.STAKE: N_("the stakes you can expect to win or lose"),
}
"""What each objective ranks the choices by, as a reason names it."""

Answer = dict[str, Any]
Key = TypeVar("Key", bound=Hashable)
Result = TypeVar("Result")


@dataclass(frozen=True, slots=True)
class Plan:
    """The solve a hint will run: the objective asked and the one answered, each with its target, and
    their costs."""

    asked: Objective
    asked_target: int | None
    objective: Objective
    target: int | None
    cost: Cost  # of the objective answered
    over: Cost | None = None  # of the objective asked, when it was over the budget

    @property
    def bounded(self) -> bool:
        return self.over is not None


def _words(objective: Objective, target: int | None) -> Phrase:
    return Phrase(_WORDS[objective], {"target": target})


def _millions(cells: int) -> int:
    return -(-cells // 1_000_000)


def _megabytes(size: int) -> int:
    return -(-size // 1_000_000)


class Advisor:
    """The server's hints, each solve bounded by ``max_cells`` and ``max_bytes``, shared and cached."""

    def __init__(
        self,
        *,
        max_cells: int = MAX_CELLS,
        max_bytes: int = MAX_BYTES,
        cache_size: int = 256,
        workers: int = 2,
    ) -> None:
        if cache_size < 0 or workers < 1:
            raise ValueError(f"cache_size must be 0 or more ({cache_size}), workers 1 or more ({workers})")
        self.max_cells = max_cells
        self.max_bytes = max_bytes
        self.cache_size = cache_size
        self.workers = workers
        self._answers: OrderedDict[Hashable, Answer] = OrderedDict()
        self._answering: dict[Hashable, asyncio.Future[Answer]] = {}
        self._solving: dict[Hashable, asyncio.Future[None]] = {}
        self._slots: asyncio.Semaphore | None = None

    # -- what a hint will cost ------------------------------------------------
    def plan(self, state: Match) -> Plan:
        """The solve to run for ``state``: the objective it asks if within the budget, else the
        cheaper one; `RoomError` ``busy`` when even that is over."""
        from shutthebox.strategy.advice import objective_for, seat_of

        asked, target = objective_for(state)
        seat = seat_of(state)
        cost = cost_of(state.rules, asked, seat.players if seat is not None else 2)
        if self._fits(cost):
            return Plan(asked, target, asked, target, cost)
        cheaper, cheaper_target = CHEAPER.get(asked, asked), None
        if asked in (Objective.WIN, Objective.STAKE) and seat is not None and seat.best is not None:
            # a later seat: beat the best score posted (only a shut box ties a shut box)
            beat = (Objective.TIE_OR_BEAT, 0) if seat.best == 0 else (Objective.BEAT, seat.best)
            cheaper, cheaper_target = beat
        fallback = cost_of(state.rules, cheaper)
        if cheaper is asked or not self._fits(fallback):
            raise RoomError(
                "busy",
                "this hint would need about {megabytes} MB and {cells} million cells of work even ranked by"
                " {answered}, more than this server gives one hint ({max_megabytes} MB, {max_cells} million"
                " cells)",
                megabytes=_megabytes(fallback.bytes), cells=_millions(fallback.cells),
                answered=_words(cheaper, None),
                max_megabytes=_megabytes(self.max_bytes), max_cells=_millions(self.max_cells),
            )
        return Plan(asked, target, cheaper, cheaper_target, fallback, over=cost)

    def _fits(self, cost: Cost) -> bool:
        return cost.within(self.max_cells, self.max_bytes)

    def bounded_json(self, plan: Plan) -> dict[str, Any] | None:
        """Why the answer is not the objective asked, for the page (None when it is)."""
        if plan.over is None:
            return None
        asked = _words(plan.asked, plan.asked_target)
        reason = Phrase(
            N_(
                "Ranking the choices by {asked} would take about {megabytes} MB and {cells} million cells"
                " of work, more than this server gives one hint ({max_megabytes} MB, {max_cells}"
                " million): they are ranked by {answered} instead."
            ),
            {
                "asked": asked, "answered": _words(plan.objective, plan.target),
                "megabytes": _megabytes(plan.over.bytes), "cells": _millions(plan.over.cells),
                "max_megabytes": _megabytes(self.max_bytes), "max_cells": _millions(self.max_cells),
            },
        )
        return {
            "asked": str(plan.asked),
            "answered": str(plan.objective),
            "reason": say(reason),
            "cost": plan.over.to_json(),
            "limit": {"cells": self.max_cells, "bytes": self.max_bytes},
        }

    # -- answering ----------------------------------------------------------------
    async def advise(self, state: Match) -> Answer:
        """The advice for the player to act in ``state`` as JSON, within the budget (see the module)."""
        plan = self.plan(state)
        key = (self._solve_key(state, plan), *_position(state), self._seat(state, plan))
        answer = self._answers.get(key)
        if answer is not None:
            self._answers.move_to_end(key)
        else:
            answer = await self._once(self._answering, key, lambda: self._answer(state, plan), self._keep)
        result = copy.deepcopy(answer)
        bounded = self.bounded_json(plan)
        if bounded is not None:
            result["bounded"] = bounded
        return result

    async def _answer(self, state: Match, plan: Plan) -> Answer:
        from shutthebox.strategy.advice import advise

        await self._once(self._solving, self._solve_key(state, plan), lambda: self._solve(state, plan))
        advice = await asyncio.to_thread(advise, state, plan.objective, plan.target)
        result: Answer = advice.to_json()
        return result

    async def _solve(self, state: Match, plan: Plan) -> None:
        """Fill the solver's cache for the plan, one of at most ``workers`` solves at a time."""
        from shutthebox.strategy.advice import solution_for

        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        async with self._slots:
            await asyncio.to_thread(
                solution_for, state.rules, plan.objective, plan.target, opening=state.opening,
                seat=self._seat(state, plan),
            )

    @staticmethod
    async def _once(
        running: dict[Any, asyncio.Future[Result]],
        key: Hashable,
        start: Callable[[], Awaitable[Result]],
        done: Callable[[Hashable, Result], None] | None = None,
    ) -> Result:
        """``start()``'s result, shared by everyone asking for ``key`` while it runs."""
        future = running.get(key)
        if future is None:
            future = asyncio.ensure_future(start())
            running[key] = future
            future.add_done_callback(partial(_landed, running, key, done))
        return await asyncio.shield(future)  # one asker cancelled does not cancel the others

    def _keep(self, key: Hashable, answer: Answer) -> None:
        if self.cache_size == 0:
            return
        self._answers[key] = answer
        self._answers.move_to_end(key)
        while len(self._answers) > self.cache_size:
            self._answers.popitem(last=False)

    @staticmethod
    def _seat(state: Match, plan: Plan) -> Seat | None:
        from shutthebox.strategy.advice import ROUND_OBJECTIVES, seat_of

        return seat_of(state) if plan.objective in ROUND_OBJECTIVES else None

    def _solve_key(self, state: Match, plan: Plan) -> Hashable:
        """What the solve depends on: the turn's rules, the objective and its target (and, for a
        round, whether a shut box wins it, its players and the pot: one solve for every seat)."""
        from shutthebox.strategy.solver import TurnKey

        seat = self._seat(state, plan)
        round_ = (state.rules.shut_wins, seat.players, seat.pot) if seat is not None else None
        return (TurnKey.of(state.rules), plan.objective, plan.target, round_)

    def cached(self) -> int:
        """How many answers are kept."""
        return len(self._answers)


def _position(state: Match) -> tuple[Hashable, ...]:
    """What an answer depends on besides the solve: the phase, the tiles worked on, the roll, the extra
    turns held, the role in the long game (and in a round, the seat: `Advisor._seat`)."""
    roll = state.roll.dice if state.phase is Phase.MOVE and state.roll is not None else None
    return (str(state.phase), state.target, roll, state.extra_turns, state.opening)


def _landed(
    running: dict[Any, asyncio.Future[Any]],
    key: Hashable,
    done: Callable[[Hashable, Any], None] | None,
    future: asyncio.Future[Any],
) -> None:
    running.pop(key, None)
    if future.cancelled() or future.exception() is not None:  # retrieved: nobody left may be waiting
        return
    if done is not None:
        done(key, future.result())
