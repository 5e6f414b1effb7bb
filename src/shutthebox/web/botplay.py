"""The bots of the rooms, driven through the core's step API: think outside the room, play inside it.

For each step a game is due (``game.due()``), the bot thinks with the room unlocked: through the
solver's door (`web.door`, its work spent from the budget of the address that made the room) for a
bot that asks the solver (`strategy.bots.solves`), the solver's own bot ranking by the objective the
server's advisor plans, as a hint would (within the hint budget, or the round once it is solved
ahead), in a thread otherwise, within its patience
(``game.patience(due)``); a bot that fails, is refused or runs out of patience is replaced for that
choice by its fallback (``game.rescue(due)``), so no bot can hold the server or stop a game. Its
choice is then played under the room's lock only if the game is still at the state it was thought
for (`Room.play_bot`); else it thinks again over the new state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

from shutthebox.core.board import Move
from shutthebox.core.errors import StaleActionError
from shutthebox.core.game import ROLL, Due, Game, Step, Wait
from shutthebox.core.match import DiceChoice
from shutthebox.strategy import jobs
from shutthebox.strategy.bots import planned, solves
from shutthebox.web.advisor import Advisor
from shutthebox.web.copies import Copies, Held
from shutthebox.web.door import SolverDoor
from shutthebox.web.hub import Hub
from shutthebox.web.room import BOTS_DUE, Room

__all__ = ["LEASE_SECONDS", "BotPlayer"]

log = logging.getLogger(__name__)
LEASE_SECONDS = 30.0
"""How long a process holds a room's work without renewing it (a process that dies holding it
frees it after this)."""
THINK_TRIES = 5
"""How often a bot thinks again when the game moved on while it thought."""
After = Callable[[Held], Awaitable[Held]]


class BotPlayer:
    """Plays the bots' rolls and choices of a room, one action at a time (``delay`` seconds apart)."""

    def __init__(self, copies: Copies, door: SolverDoor, advisor: Advisor, hub: Hub, *, delay: float) -> None:
        self.copies = copies
        self.door = door
        self.advisor = advisor
        self.hub = hub
        self.delay = delay

    async def play(self, held: Held, lease: str, after: After) -> Held:
        """Play the room's bots while they are due, each action kept and then given to ``after``
        (saved, told), under the room's ``lease``, which a pause renews."""
        while held.room.bots_to_play and not held.stale:
            if self.delay > 0:
                await asyncio.sleep(self.delay)
                if not await self.hub.renew(lease, LEASE_SECONDS):
                    return held  # the lease was lost (a long pause): whoever holds it plays on
            held = await after(await self.step(held))
        return held

    async def step(self, held: Held) -> Held:
        """One bot action: its roll, or its choice thought outside the lock and played if the game is
        still where it was thought (else thought again)."""
        for _attempt in range(THINK_TRIES):
            room, game = held.room, held.room.game
            if game is None or not room.bots_to_play:
                return held
            due = game.due()
            assert due.wait in BOTS_DUE
            step: Step = ROLL if due.wait is Wait.CHANCE else await self.think(room, game, due)
            try:
                held, _ = await self.copies.change(held, _playing(due, step))
            except StaleActionError:  # someone acted, or the copy was read back, meanwhile
                held = self.copies.find(held.code) or held
                continue
            return held
        return held

    async def think(self, room: Room, game: Game, due: Due) -> DiceChoice | Move:
        """The choice of the bot ``due`` waits for in ``room``'s ``game``, thought within its patience,
        else its fallback's."""
        thought = game.thought(due)
        try:
            if not solves(thought.bot):
                return await asyncio.wait_for(asyncio.to_thread(thought), game.patience(due))
            chosen = self.advisor.plan(due.state)
            price = self.advisor.price(due.state, chosen)
            # the solver's own bot ranks by the objective a hint would: the round once solved ahead
            work: Callable[[], DiceChoice | Move] = thought
            if planned(thought.bot):
                work = partial(jobs.bot_move, due.state, chosen.objective, chosen.target)
            move: DiceChoice | Move = await asyncio.wait_for(
                self.door.run(room.requester, None, price, work), game.patience(due)
            )
        except Exception:  # whatever went wrong, the game goes on with its fallback
            log.warning("room %s: a bot's thinking failed; its fallback plays", room.code, exc_info=True)
            return game.rescue(due)
        self.advisor.warmed(due.state, chosen)
        return move


def _playing(due: Due, step: Step) -> Callable[[Room], None]:
    """The change that plays a bot's ``step`` thought for ``due``."""
    return lambda room: room.play_bot(due, step)
