"""Hints within a budget: each solve the server runs is priced before it starts, shared, and kept.

`Advisor.advise(state)` plans the solve a hint needs (`shutthebox.strategy.budget`): within the
budget (``max_cells`` of work, ``max_bytes`` of memory) the objective of the moment; over it a
cheaper objective, saying so in the answer's ``bounded``; when even that is over, `OverBudgetError`
``busy`` (503). The solve itself goes through the server's `SolverDoor` like every other piece of
solver work: priced (a solve already made in the worker costs a call), one at a time per
requester, answers kept, identical requests sharing one computation. Positions under the same
rules share one solve in the worker.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from shutthebox.core.errors import N_, Phrase
from shutthebox.core.match import Match, Phase
from shutthebox.core.record import GameRecord, replay_states
from shutthebox.core.rules import Rules
from shutthebox.i18n import say
from shutthebox.strategy import jobs
from shutthebox.strategy.advice import ROUND_OBJECTIVES, Seat, seat_of
from shutthebox.strategy.budget import (
    CHEAPER,
    MAX_BYTES,
    MAX_CELLS,
    OverBudgetError,
    Plan,
    megabytes,
    millions,
    plan,
    ranked_by,
)
from shutthebox.strategy.solver import Objective, TurnKey
from shutthebox.web.door import CALL_PRICE, SolverDoor

__all__ = ["CHEAPER", "MAX_BYTES", "MAX_CELLS", "Advisor", "Plan"]

Answer = dict[str, Any]
WARM_KEPT = 64
"""Solves this side remembers the worker has made (and keeps, as the solver's own caches do)."""


class Advisor:
    """The server's hints, each solve bounded by ``max_cells`` and ``max_bytes``, run through ``door``
    (by default one of its own, in this process: ``cache_size`` answers kept)."""

    def __init__(
        self, *, max_cells: int = MAX_CELLS, max_bytes: int = MAX_BYTES, cache_size: int = 256,
        door: SolverDoor | None = None,
    ) -> None:
        self.max_cells = max_cells
        self.max_bytes = max_bytes
        self.door = door if door is not None else SolverDoor(processes=0, cache_size=cache_size)
        self._warm: OrderedDict[Hashable, None] = OrderedDict()

    # -- what a hint will cost ------------------------------------------------
    def plan(self, state: Match) -> Plan:
        """The solve to run for ``state`` (see `strategy.budget.plan`), or the objective asked whatever
        it would cost from nothing when the worker has made its solve already (a round solved ahead:
        `round_warmed`); `OverBudgetError` (a refusal: busy) when even the cheaper objective is over the
        budget."""
        chosen = plan(state, self.max_cells, self.max_bytes)
        if chosen.over is not None:
            asked = Plan(chosen.asked, chosen.asked_target, chosen.asked, chosen.asked_target, chosen.over)
            if self._solve_key(state, asked) in self._warm:
                return asked
        return chosen

    def bounded_json(self, chosen: Plan) -> dict[str, Any] | None:
        """Why the answer is not the objective asked, for the page (None when it is)."""
        if chosen.over is None:
            return None
        reason = Phrase(
            N_(
                "Ranking the choices by {asked} would take about {megabytes} MB and {cells} million cells"
                " of work; this server gives one hint at most {max_megabytes} MB and {max_cells}"
                " million: they are ranked by {answered} instead."
            ),
            {
                "asked": ranked_by(chosen.asked, chosen.asked_target),
                "answered": ranked_by(chosen.objective, chosen.target),
                "megabytes": megabytes(chosen.over.bytes), "cells": millions(chosen.over.cells),
                "max_megabytes": megabytes(self.max_bytes), "max_cells": millions(self.max_cells),
            },
        )
        return {
            "asked": str(chosen.asked),
            "answered": str(chosen.objective),
            "reason": say(reason),
            "cost": chosen.over.to_json(),
            "limit": {"cells": self.max_cells, "bytes": self.max_bytes},
        }

    def price(self, state: Match, chosen: Plan) -> int:
        """What the hint costs the requester: its solve, or a call when the worker has it already."""
        return CALL_PRICE if self._solve_key(state, chosen) in self._warm else chosen.cost.cells

    def review_price(self, record: GameRecord) -> int:
        """What reviewing ``record`` costs: each solve its decisions need, once, and a call each."""
        price, solves = 0, set()
        before = None
        for event, state in replay_states(record):
            if event is not None and before is not None and before.is_decision:
                try:
                    chosen = plan(before, self.max_cells, self.max_bytes)
                except OverBudgetError:
                    continue  # that decision is left unreviewed
                key = self._solve_key(before, chosen)
                if key not in solves:
                    solves.add(key)
                    price += chosen.cost.cells
                price += CALL_PRICE // 100
            before = state
        return price

    # -- answering ----------------------------------------------------------------
    async def advise(self, state: Match, requester: str = "server") -> Answer:
        """The advice for the player to act in ``state`` as JSON, within the budget (see the module)."""
        chosen = self.plan(state)
        seat = self._seat(state, chosen)
        solve = self._solve_key(state, chosen)
        answer: Answer = await self.door.run(
            requester, ("hint", solve, *_position(state), seat), self.price(state, chosen),
            jobs.hint, state, chosen.objective, chosen.target, seat, state.opening,
        )
        self._warmed(solve)
        bounded = self.bounded_json(chosen)
        if bounded is not None:
            answer["bounded"] = bounded
        return answer

    def warmed(self, state: Match, chosen: Plan) -> None:
        """Note that the worker has made the solve ``chosen`` needs for ``state``."""
        self._warmed(self._solve_key(state, chosen))

    def round_warmed(self, rules: Rules, objective: Objective, seat: Seat) -> None:
        """Note that the worker has solved the round of ``seat``'s players (and pot) for ``objective``."""
        round_ = (rules.shut_wins, seat.players, seat.pot)
        self._warmed(_round_key(rules, objective, None, round_, opening=False))

    def _warmed(self, key: Hashable) -> None:
        self._warm[key] = None
        self._warm.move_to_end(key)
        while len(self._warm) > WARM_KEPT:
            self._warm.popitem(last=False)

    @staticmethod
    def _seat(state: Match, chosen: Plan) -> Seat | None:
        return seat_of(state) if chosen.objective in ROUND_OBJECTIVES else None

    def _solve_key(self, state: Match, chosen: Plan) -> Hashable:
        """What the solve depends on: the turn's rules, the objective and its target (and, for a
        round, whether a shut box wins it, its players and the pot: one solve for every seat)."""
        seat = self._seat(state, chosen)
        round_ = (state.rules.shut_wins, seat.players, seat.pot) if seat is not None else None
        return _round_key(state.rules, chosen.objective, chosen.target, round_, opening=state.opening)

    def cached(self) -> int:
        """How many answers are kept."""
        return self.door.cached()


def _round_key(
    rules: Rules, objective: Objective, target: int | None, round_: Hashable, *, opening: bool
) -> Hashable:
    return (TurnKey.of(rules), objective, target, round_, opening)


def _position(state: Match) -> tuple[Hashable, ...]:
    """What an answer depends on besides the solve: the phase, the tiles worked on, the roll, the extra
    turns held, the role in the long game (and in a round, the seat: `Advisor._seat`)."""
    roll = state.roll.dice if state.phase is Phase.MOVE and state.roll is not None else None
    return (str(state.phase), state.target, roll, state.extra_turns, state.opening)
