"""A room's turn clock (online rooms): a seat that does not act within ``turn_seconds`` misses; a
stand-in bot plays the rest of its turn, its events marked ``"by": "clock"``; after a second miss in
a row a bot plays the seat for the rest of the game (``on_leave`` "bot") or the game is adjourned
until the seat acts (``"adjourn"``)."""

from __future__ import annotations

from typing import Literal

from shutthebox.core.game import Game
from shutthebox.web.seats import Seat, stand_in_bot

__all__ = ["OnLeave", "TurnClock"]

OnLeave = Literal["bot", "adjourn"]
"""What follows a seat's second miss in a row: a bot plays it, or the game waits for it."""


class TurnClock:
    """The clock of a `web.room.Room`, which holds these fields (the room's own, as it keeps them)."""

    turn_seconds: int | None
    game: Game | None
    adjourned: int | None
    deadline: float | None
    clock_mark: tuple[int, int] | None
    seats: list[Seat]
    on_leave: OnLeave

    def notify(self, kind: str, seat: int) -> None:
        raise NotImplementedError  # the room says it to its seats

    def clock_seat(self) -> int | None:
        """The human seat whose time runs now (none without a clock, for bots, when adjourned)."""
        game = self.game
        if self.turn_seconds is None or game is None or game.state.is_over or self.adjourned is not None:
            return None
        actor = game.state.actor
        if actor is None or actor in game.bots:
            return None
        return actor

    def arm_clock(self, now: float) -> None:
        """Give the seat to act its full time whenever the game moved on; stop the clock otherwise."""
        seat = self.clock_seat()
        if seat is None or self.turn_seconds is None or self.game is None:
            self.deadline = self.clock_mark = None
            return
        mark = (seat, len(self.game.events))
        if mark != self.clock_mark:
            self.clock_mark, self.deadline = mark, now + self.turn_seconds

    def restart_clock(self, now: float) -> None:
        """Give the seat to act its full time again from ``now``: its time ran while it could not act."""
        if self.deadline is not None and self.turn_seconds is not None:
            self.deadline = now + self.turn_seconds

    def run_out(self, now: float) -> int | None:
        """If the seat to act ran out of time: count the miss and what follows; the seat, which a
        stand-in plays until its turn ends (None when nothing ran out, or the game is adjourned)."""
        seat = self.clock_seat()
        if seat is None or self.deadline is None or now < self.deadline:
            return None
        assert self.game is not None
        if self.clock_mark != (seat, len(self.game.events)):
            return None  # the seat acted in time (its action and the timer crossed): no miss
        place = self.seats[seat]
        place.missed += 1
        self.deadline = self.clock_mark = None  # the stand-in's actions are help (see `apply`)
        if place.missed < 2:
            self.notify("missed", seat)
            self.game.stand_in(seat, stand_in_bot(self.game, seat))  # the bots' loop plays the turn
            return seat
        if self.on_leave == "adjourn":
            self.adjourned = seat
            self.notify("adjourned", seat)
            return None
        place.stand_in = True
        self.game.seat_bot(seat, stand_in_bot(self.game, seat))
        self.notify("stand-in", seat)
        return None  # the bots' loop plays it from now on
