"""Advice: the solver's hints for the seat to act, the reviews of finished games, cheat sheets.

A hint is priced, bounded and run through the solver's door (`web.advisor`, `web.door`); in a ranked
game it is noted in the room's log before it is given (the turn then counts as it stood:
`core.ranking`), so a crash cannot undo it. A review is computed once and kept (the door keeps the
last few); a sealed room's is its player's alone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable
from typing import Any

from shutthebox.core.game import Game
from shutthebox.core.match import Match
from shutthebox.core.options import Mode
from shutthebox.core.record import GameRecord
from shutthebox.core.rules import Rules
from shutthebox.strategy import jobs
from shutthebox.strategy.advice import Seat, objective_for, seat_of
from shutthebox.strategy.cheatsheet import Sheet
from shutthebox.strategy.cost import cost_of
from shutthebox.strategy.names import ROUND_PLAYERS, Objective
from shutthebox.strategy.review import Review
from shutthebox.strategy.solver import SHELVED_PLAYERS, TurnKey
from shutthebox.web.advisor import Advisor
from shutthebox.web.copies import Copies
from shutthebox.web.door import SolverDoor
from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.room import Room

__all__ = ["AHEAD", "AdviceDesk"]

log = logging.getLogger(__name__)
AHEAD = "server:ahead"
"""The requester of the rounds solved ahead: one queue and one budget for all of them."""


class AdviceDesk:
    """Hints and reviews, through the server's advisor and its solver's door."""

    def __init__(
        self, copies: Copies, advisor: Advisor, door: SolverDoor, *, clock: Callable[[], float],
        ahead_max_cells: int, ahead_door: SolverDoor,
    ) -> None:
        self.copies = copies
        self.advisor = advisor
        self.door = door
        self.ahead_door = ahead_door
        """Where rounds are solved ahead (`web.app.ahead_door`): a worker of their own, in a server."""
        self.clock = clock
        self.ahead_max_cells = ahead_max_cells
        self._ahead: set[asyncio.Task[bool]] = set()

    def ahead(self, room: Room) -> None:
        """Start solving, in the background, the round a new room of three players or more will ask
        its hints of, so its first hint answers at once (a round of eight on 12 tiles takes the solver
        seconds). Bounded as any solver work is: the door's own requester, one such solve at a time,
        shared by every room of those rules, within `ahead_max_cells`; a refusal leaves the solve to
        the first hint (`ready`)."""
        players = len(room.seats)
        if room.rules.mode is not Mode.ROUND or players < SHELVED_PLAYERS or players not in ROUND_PLAYERS:
            return
        objective = Objective.STAKE if room.rules.stake else Objective.WIN  # as every seat plays the round
        task = asyncio.create_task(self._solve_ahead(room.rules, objective, Seat(players, 0, pot=players)))
        self._ahead.add(task)
        task.add_done_callback(self._ahead.discard)

    async def ready(self, state: Match) -> None:
        """Have the round the seat to act plays solved, when a hint could not afford it from nothing
        but a round solved ahead can (a room kept before a restart, a solve ahead refused, a tie-break
        of five or more): read back from the disk, or solved once for every room of those rules,
        while the page shows the work going on. Beyond `ahead_max_cells`, or refused, the hint is
        ranked by a cheaper objective (`Advisor.plan`)."""
        seat = seat_of(state)
        if seat is None or seat.players < SHELVED_PLAYERS or not self.advisor.plan(state).bounded:
            return
        objective, _target = objective_for(state)
        await self._solve_ahead(state.rules, objective, Seat(seat.players, 0, pot=seat.pot))

    async def _solve_ahead(self, rules: Rules, objective: Objective, seat: Seat) -> bool:
        """Solve the round of ``seat``'s players for ``objective`` in the solver's worker (kept there and
        on its shelf), under the requester of the solves ahead; whether it is made."""
        cost = cost_of(rules, objective, seat.players)
        if not cost.within(self.ahead_max_cells, self.advisor.max_bytes):
            return False
        key = ("ahead", TurnKey.of(rules), rules.shut_wins, objective, seat.players, seat.pot)
        try:
            await self.ahead_door.run(
                AHEAD, key, cost.cells, jobs.solve_ahead, rules, objective, None, seat, False
            )
        except RefusedError as refusal:  # the door is full: the first hint tries again
            log.info("the round of %s players was not solved ahead: %s", seat.players, refusal.code)
            return False
        log.info("the round of %s players on %s tiles is solved ahead", seat.players, rules.tiles)
        self.advisor.round_warmed(rules, objective, seat)
        return True

    async def hint(self, code: str, token: str | None, requester: str) -> dict[str, Any]:
        """The solver's ranked choices for the seat whose turn it is (its own token only); the help
        is noted before the advice is given."""
        held = await self.copies.fresh(code)
        room = held.room
        if not room.hints:
            raise RefusedError(Refusal.HINTS_OFF, "hints are off in room {code}", code=room.code)
        game, seat = room.check_actor(token)
        state = game.state
        if not state.is_decision:
            raise RefusedError(
                Refusal.NO_DECISION,
                "hints are for choosing dice or tiles; now {state}", state=state.describe(),
            )
        await self.ready(state)
        advice = await self.advisor.advise(state, requester)  # priced, fair, kept; a refusal is no hint taken
        await self.copies.change(held, _assisted(game, seat))
        return advice

    async def review(self, code: str, token: str | None, requester: str) -> dict[str, Any]:
        """The review of the room's finished game, computed once (kept for the last few games); a
        sealed room's for its player only."""
        room = (await self.copies.fresh(code)).room
        room.check_sight(token, self.clock())
        if room.game is None or not room.game.state.is_over:
            raise RefusedError(Refusal.NOT_OVER, "the game in room {code} is not over yet", code=room.code)
        found = await self.review_of(room.game.record(), room.origin, requester)
        answer: dict[str, Any] = found.to_json()
        return answer

    async def review_of(self, record: GameRecord, key: Hashable, requester: str) -> Review:
        """The review of ``record``, through the solver's door (kept under ``key``)."""
        found: Review = await self.door.run(
            requester, ("review", key), self.advisor.review_price(record),
            jobs.reviewed, record, self.advisor.max_cells, self.advisor.max_bytes,
        )
        return found

    async def sheet(self, rules: Rules, requester: str) -> Sheet:
        """The cheat sheet of ``rules`` (played solo for the lowest score), through the solver's door."""
        price = 2 * cost_of(rules, Objective.SCORE).cells  # the solve, and the boards it meets
        found: Sheet = await self.door.run(requester, ("sheet", rules), price, jobs.cheatsheet, rules)
        return found

    async def table(self, rules: Rules, objective: Objective, requester: str) -> str:
        """The value table of ``rules`` and ``objective`` as JSON (`strategy.tables`), through the
        solver's door (kept per rule set and objective)."""
        price = cost_of(rules, objective).cells
        found: str = await self.door.run(
            requester, ("table", rules, objective), price, jobs.value_table, rules, objective
        )
        return found


def _assisted(game: Game, seat: int) -> Callable[[Room], None]:
    """The change that notes the hint given to ``seat`` at ``game``'s state, if the game is still there."""
    events = len(game.events)

    def assist(room: Room) -> None:
        now = room.game
        if now is None or len(now.events) != events or now.state.actor != seat:
            raise RefusedError(Refusal.WRONG_TURN, "the game moved on while the hint was computed; ask again")
        room.assist(seat)  # the others see it with the next state pushed

    return assist
