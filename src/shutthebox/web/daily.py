"""The daily challenge on the server: the days' commitments, one ranked attempt each, the boards.

An attempt is a solo room on the day's dice (counted by roll, see
`shutthebox.core.daily`), with hints off so that it counts as ranked; the room
is the same as any other (durable, verifiable), and its game, once over, is what
the leaderboard reads. The day's seed is revealed once no attempt of the day can be
played (`Challenge.revealed`): until then every game on those dice is sealed (an
attempt's room shows itself to its player alone, its record and its stored game to
nobody) and the optimal player's game is told only by its score and its rolls (a
record would show rolls a player who has not played yet could use). An attempt takes
no action after midnight UTC; one still in play then is played out by a bot and
counts as it stood (see `core.ranking`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, timedelta
from typing import Any, Protocol

from anyio import to_thread

from shutthebox.core.daily import DAILY_TILES, Challenge, Entry, ranked, streak, today
from shutthebox.core.fair import FairDice
from shutthebox.core.rules import Rules
from shutthebox.storage import Profile
from shutthebox.storage.daily import AlreadyPlayedError, Attempt, DailyRepository
from shutthebox.strategy import jobs
from shutthebox.strategy.cost import cost_of
from shutthebox.strategy.daily import Outcome, outcome_of
from shutthebox.strategy.names import Objective
from shutthebox.web.copies import Held
from shutthebox.web.door import Solver
from shutthebox.web.players import player_of
from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.seats import SeatSpec

__all__ = ["AHEAD", "DailyDesk", "DailyRooms"]

AHEAD = 7
"""Days ahead whose commitments are published: each is public a week before it is played."""


class DailyRooms(Protocol):
    """Where an attempt is played: a room like any other (`web.rooms.RoomDesk`)."""

    async def check_space(self, owner: str | None, player: str | None = None) -> None: ...

    async def open(
        self, rules: Rules, seats: Sequence[SeatSpec], *, owner: str | None, hints: bool = True,
        dice: FairDice | None = None, closes_at: float | None = None, player: str | None = None,
    ) -> tuple[Held, str]: ...

    async def discard(self, held: Held) -> None: ...



class DailyDesk:
    """The daily challenge of one server process (the store is shared with the others)."""

    def __init__(
        self, kept: DailyRepository, rooms: DailyRooms, solver: Solver, *, clock: Callable[[], float]
    ) -> None:
        self.kept = kept
        self.rooms = rooms
        self.solver = solver
        self.clock = clock

    @property
    def today(self) -> date:
        return today(self.clock())

    async def _seeds(self, challenges: list[Challenge]) -> dict[Challenge, bytes]:
        """The seeds of today's or the week ahead's challenges, made where there are none yet."""
        return await to_thread.run_sync(self.kept.seeds, challenges)

    async def calendar(self, day: date | None) -> dict[str, Any]:
        """A day's challenges (today's by default): each commitment, each seed once the day is over,
        how many have played; and the commitments of the days ahead. Only today and the week ahead
        are ever dealt (a past day is read, and one never dealt is not found), so no request can
        make the store keep seeds for days nobody will play."""
        now = self.today
        day = day or now
        if day > now + timedelta(days=AHEAD):
            raise RefusedError(
                Refusal.NOT_FOUND, "the challenges of {day} are not committed to yet", day=day.isoformat()
            )
        ahead = [Challenge(now + timedelta(days=d), t) for d in range(1, AHEAD + 1) for t in DAILY_TILES]
        shown = [Challenge(day, t) for t in DAILY_TILES]
        if day >= now:
            seeds = await self._seeds([*shown, *ahead])
        else:
            seeds = await to_thread.run_sync(self.kept.known_seeds, [*shown, *ahead])
            shown = [c for c in shown if c in seeds]
            if not shown:
                raise await self._never_dealt(day)
        challenges = []
        moment = self.clock()
        for challenge in shown:
            attempts = await to_thread.run_sync(self.kept.attempts, challenge)
            challenges.append({
                **challenge.to_json(seeds[challenge], reveal=challenge.revealed(moment)),
                "rules": challenge.rules.to_dict(),
                "players": len(attempts),
            })
        return {
            "today": now.isoformat(),
            "day": day.isoformat(),
            "challenges": challenges,
            "ahead": [c.to_json(seeds[c], reveal=False) for c in ahead if c in seeds],
        }

    async def _never_dealt(self, day: date) -> RefusedError:
        """The refusal of a past day without challenges: before the first this server dealt, or a
        day whose week before it nobody asked for the calendar."""
        first = await to_thread.run_sync(self.kept.first_day)
        if first is None:
            return RefusedError(
                Refusal.NOT_FOUND, "there was no daily challenge on {day}: the first is today's ({today})",
                day=day.isoformat(), today=self.today.isoformat(),
            )
        if day < first:
            return RefusedError(
                Refusal.NOT_FOUND, "there was no daily challenge on {day}: the first was on {first}",
                day=day.isoformat(), first=first.isoformat(),
            )
        return RefusedError(
            Refusal.NOT_FOUND, "there was no daily challenge on {day}: its dice were never dealt",
            day=day.isoformat(),
        )

    async def play(self, tiles: int, profile: Profile, owner: str | None) -> tuple[Held, str, date]:
        """Today's ranked attempt for ``profile``, in a new room (and its day); refused if it has one."""
        challenge = Challenge(self.today, tiles)
        if await to_thread.run_sync(self.kept.attempt, challenge, profile.id) is not None:
            raise self._played(challenge)
        player = player_of(profile, None, owner)
        await self.rooms.check_space(owner, player)
        seed = (await self._seeds([challenge]))[challenge]
        held, token = await self.rooms.open(
            challenge.rules, [SeatSpec(kind="here", name=profile.name, profile=profile)], owner=owner,
            hints=False, dice=challenge.dice(seed), closes_at=challenge.closes_at, player=player,
        )
        try:
            await to_thread.run_sync(
                self.kept.start, challenge, profile.id, held.code, held.room.origin
            )
        except AlreadyPlayedError:  # another request of the same profile was first
            await self.rooms.discard(held)
            raise self._played(challenge) from None
        return held, token, challenge.day

    @staticmethod
    def _played(challenge: Challenge) -> RefusedError:
        return RefusedError(
            Refusal.PLAYED,
            "you have played the {tiles}-tile challenge of {day} already: one ranked attempt a day",
            tiles=challenge.tiles, day=challenge.day.isoformat(),
        )

    async def board(self, challenge: Challenge, limit: int = 100) -> dict[str, Any]:
        """The challenge's leaderboard: finished attempts by score, then fewer rolls, then the
        earlier finish."""
        attempts = await to_thread.run_sync(self.kept.attempts, challenge)
        entries = ranked([e for e in map(_entry, attempts) if e is not None])
        return {
            "day": challenge.day.isoformat(),
            "tiles": challenge.tiles,
            "entries": [
                {"rank": rank, "player": e.player, "score": e.score, "rolls": e.rolls,
                 "finished_at": e.finished_at.isoformat()}
                for rank, e in enumerate(entries[:limit], start=1)
            ],
            "finished": len(entries),
            "playing": len(attempts) - len(entries),
        }

    async def result(self, challenge: Challenge, profile: Profile, requester: str) -> dict[str, Any]:
        """The profile's attempt beside the optimal player's game on the very same dice."""
        attempt = await to_thread.run_sync(self.kept.attempt, challenge, profile.id)
        if attempt is None:
            raise RefusedError(Refusal.NOT_FOUND, "you have not played the {tiles}-tile challenge of {day}",
                            tiles=challenge.tiles, day=challenge.day.isoformat())
        answer: dict[str, Any] = {"day": challenge.day.isoformat(), "tiles": challenge.tiles,
                                  "room": attempt.room_code, "over": attempt.record is not None}
        if attempt.record is None:
            return answer
        mine = outcome_of(attempt.record)
        seed = (await to_thread.run_sync(self.kept.known_seeds, [challenge]))[challenge]  # it was played
        price = cost_of(challenge.rules, Objective.SCORE).cells
        optimal: Outcome = await self.solver.run(
            requester, ("optimal", challenge), price, jobs.daily_optimal, challenge, seed
        )
        board = await self.board(challenge, limit=10**6)
        rank = next(e["rank"] for e in board["entries"] if e["player"] == attempt.player)
        answer |= {
            "score": mine.score, "rolls": mine.rolls, "rank": rank, "of": board["finished"],
            "optimal": {"score": optimal.score, "rolls": optimal.rolls},
        }
        if challenge.revealed(self.clock()):  # the day is over: its dice are public
            answer["optimal"]["record"] = optimal.record.to_json()
        return answer

    async def mine(self, profile: Profile) -> dict[str, Any]:
        """The profile's calendar: each day's attempts with their scores, and the streak."""
        history = await to_thread.run_sync(self.kept.history, profile.id)
        days = {a.challenge.day for a in history}
        return {
            "today": self.today.isoformat(),
            "streak": streak(days, self.today),
            "attempts": [_calendar_entry(a) for a in history],
        }


def _entry(attempt: Attempt) -> Entry | None:
    if attempt.record is None or attempt.finished_at is None:
        return None
    outcome = outcome_of(attempt.record)
    return Entry(attempt.player, outcome.score, outcome.rolls, attempt.finished_at)


def _calendar_entry(attempt: Attempt) -> dict[str, Any]:
    entry: dict[str, Any] = {"day": attempt.challenge.day.isoformat(), "tiles": attempt.challenge.tiles,
                             "room": attempt.room_code, "over": attempt.record is not None}
    if attempt.record is not None:
        outcome = outcome_of(attempt.record)
        entry |= {"score": outcome.score, "rolls": outcome.rolls}
    return entry
