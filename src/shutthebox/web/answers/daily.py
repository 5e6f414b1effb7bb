"""The daily challenge: the days' commitments, an attempt, leaderboards and results."""

from __future__ import annotations

from shutthebox.web.answers.base import Answer, RuleValues
from shutthebox.web.answers.record import GameRecord
from shutthebox.web.answers.room import RoomState

__all__ = [
    "BoardEntry",
    "CalendarEntry",
    "Challenge",
    "DailyAttempt",
    "DailyBoard",
    "DailyCalendar",
    "DailyMine",
    "DailyResult",
    "DayChallenge",
    "Optimal",
]


class Challenge(Answer):
    day: str
    tiles: int
    client_seed: str
    commitment: str
    server_seed: str | None


class DayChallenge(Challenge):
    rules: RuleValues
    players: int


class DailyCalendar(Answer):
    today: str
    day: str
    challenges: list[DayChallenge]
    ahead: list[Challenge]


class DailyAttempt(Answer):
    code: str
    token: str
    state: RoomState
    day: str


class CalendarEntry(Answer):
    day: str
    tiles: int
    room: str
    over: bool
    score: int | None = None
    rolls: int | None = None


class DailyMine(Answer):
    today: str
    streak: int
    attempts: list[CalendarEntry]


class BoardEntry(Answer):
    rank: int
    player: str
    score: int
    rolls: int
    finished_at: str


class DailyBoard(Answer):
    day: str
    tiles: int
    entries: list[BoardEntry]
    finished: int
    playing: int


class Optimal(Answer):
    score: int
    rolls: int
    record: GameRecord | None = None


class DailyResult(Answer):
    day: str
    tiles: int
    room: str
    over: bool
    score: int | None = None
    rolls: int | None = None
    rank: int | None = None
    of: int | None = None
    optimal: Optimal | None = None
