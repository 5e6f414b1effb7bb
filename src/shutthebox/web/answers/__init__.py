"""The API's answers as pydantic models, so `/openapi.json` documents every answer the page reads.

Each route declares its answer (``response_model``) and its JSON is that model's, the keys the
services give in their order, a key present only when it is given (the routes serialize with
``exclude_unset``): nothing is added, nothing is dropped (a key no model names is refused, as
``extra="forbid"`` says). A number is an ``int`` or a ``float`` as it was computed, never made the
other (`Number`).
"""

from __future__ import annotations

from shutthebox.web.answers.advice import Advice, Review, ValueTable
from shutthebox.web.answers.daily import DailyAttempt, DailyBoard, DailyCalendar, DailyMine, DailyResult
from shutthebox.web.answers.games import Games, History, Leaderboard, PlayerBests, PlayerStats, StoredGame
from shutthebox.web.answers.record import Commitment, GameRecord
from shutthebox.web.answers.room import GamesInPlay, Joined, NewRoom, Privacy, Resigned, RoomState
from shutthebox.web.answers.trainer import PuzzleRated, PuzzleShown
from shutthebox.web.answers.words import Catalog, Languages, NewProfile, Profile, RulesCatalog

__all__ = [
    "Advice",
    "Catalog",
    "Commitment",
    "DailyAttempt",
    "DailyBoard",
    "DailyCalendar",
    "DailyMine",
    "DailyResult",
    "GameRecord",
    "Games",
    "GamesInPlay",
    "History",
    "Joined",
    "Languages",
    "Leaderboard",
    "NewProfile",
    "NewRoom",
    "PlayerBests",
    "PlayerStats",
    "Privacy",
    "Profile",
    "PuzzleRated",
    "PuzzleShown",
    "Resigned",
    "Review",
    "RoomState",
    "RulesCatalog",
    "StoredGame",
    "ValueTable",
]
