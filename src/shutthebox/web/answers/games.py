"""The stored games: lists, one game, a player's turns, bests and statistics, the leaderboard."""

from __future__ import annotations

from shutthebox.web.answers.base import Answer, Number
from shutthebox.web.answers.record import GameRecord

__all__ = [
    "Accuracy",
    "Bar",
    "Best",
    "GameSummary",
    "Games",
    "GradeCount",
    "Group",
    "History",
    "HistoryTurn",
    "LastGame",
    "Leaderboard",
    "Mark",
    "MarkedGame",
    "PlayerBests",
    "PlayerScore",
    "PlayerStats",
    "Standing",
    "StoredGame",
]


class PlayerScore(Answer):
    player: str
    score: int | None


class GameSummary(Answer):
    id: int
    finished_at: str
    source: str
    mode: str
    tiles: int
    rules_key: str
    players: list[str]
    winner: str | None
    scores: list[PlayerScore]
    typed: bool
    kind: str
    ranked: bool


class Games(Answer):
    games: list[GameSummary]
    total: int


class StoredGame(GameSummary):
    record: GameRecord


class HistoryTurn(Answer):
    game_id: int
    player: str
    finished_at: str
    source: str
    mode: str
    tiles: int
    rules_key: str
    round: int
    score: int | None
    open: list[int]
    grade: str
    counted: int | None


class History(Answer):
    player: str
    turns: list[HistoryTurn]


class Best(Answer):
    player: str
    tiles: int
    rules_key: str
    score: int
    grade: str
    game_id: int
    finished_at: str
    turns: int


class PlayerBests(Answer):
    player: str
    bests: list[Best]


class GradeCount(Answer):
    grade: str
    count: int


class Bar(Answer):
    low: int
    high: int
    count: int


class Group(Answer):
    tiles: int
    rules_key: str
    games: int
    turns: int
    average: Number | None
    lowest: int | None
    highest: int | None
    histogram: list[Bar]
    grades: list[GradeCount]
    best: Best | None


class Mark(Answer):
    accuracy: Number
    decisions: int
    best: int


class LastGame(Answer):
    id: int
    finished_at: str
    tiles: int
    rules_key: str
    mode: str
    kind: str
    players: int
    score: int | None
    grade: str | None
    accuracy: Mark | None
    review: str


class MarkedGame(Answer):
    id: int
    finished_at: str
    accuracy: Number
    decisions: int
    best: int


class Accuracy(Answer):
    games: list[MarkedGame]
    reviewed_most: int
    mean: Number | None
    decisions: int
    best: int


class PlayerStats(Answer):
    """A player's statistics (`storage.stats.player_stats`)."""

    player: str
    games: int
    turns: int
    truncated: bool
    grades: list[GradeCount]
    groups: list[Group]
    last_games: list[LastGame]
    accuracy: Accuracy


class Standing(Answer):
    rank: int
    player: str
    profile: int
    best: int
    average: Number
    turns: int
    shut_boxes: int


class Leaderboard(Answer):
    tiles: int
    rules_key: str
    entries: list[Standing]
