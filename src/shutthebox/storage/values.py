"""What the games repository answers: frozen values, each with the JSON the page and the commands read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from shutthebox.core.record import GameRecord

__all__ = ["Best", "GameSummary", "LeaderboardEntry", "StoredGame", "TurnEntry"]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One stored game, in a line."""

    id: int
    finished_at: datetime
    source: str
    mode: str
    tiles: int
    rules_key: str
    players: tuple[str, ...]
    winner: str | None
    scores: tuple[tuple[str, int | None], ...]  # (player, score) per turn, in play order
    typed: bool = False  # the dice were typed in by hand: the game counts for no best
    kind: str = "practice"  # ranked, practice (chosen seed), companion (typed dice), assisted (hints, v3)
    sealed_until: datetime | None = None  # a daily challenge's game: its record is nobody's until then

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "finished_at": self.finished_at.isoformat(),
            "source": self.source,
            "mode": self.mode,
            "tiles": self.tiles,
            "rules_key": self.rules_key,
            "players": list(self.players),
            "winner": self.winner,
            "scores": [{"player": p, "score": s} for p, s in self.scores],
            "typed": self.typed,
            "kind": self.kind,
            "ranked": self.kind == "ranked",
        }


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A stored game with its full record."""

    summary: GameSummary
    record: GameRecord


@dataclass(frozen=True, slots=True)
class TurnEntry:
    """One turn of a player's history."""

    game_id: int
    finished_at: datetime
    source: str
    mode: str
    tiles: int
    rules_key: str
    round: int
    score: int | None
    open_tiles: tuple[int, ...]
    grade: str
    player: str  # the seat's name in that game (a profile may have played under another name)
    counted: int | None = None  # the score it counts for in the rankings (None: it counts for none)

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "player": self.player,
            "finished_at": self.finished_at.isoformat(),
            "source": self.source,
            "mode": self.mode,
            "tiles": self.tiles,
            "rules_key": self.rules_key,
            "round": self.round,
            "score": self.score,
            "open": list(self.open_tiles),
            "grade": self.grade,
            "counted": self.counted,
        }


@dataclass(frozen=True, slots=True)
class Best:
    """A player's best (lowest) turn score on one board size under one rule set."""

    player: str
    tiles: int
    rules_key: str
    score: int
    grade: str
    game_id: int
    finished_at: datetime
    turns: int

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "tiles": self.tiles,
            "rules_key": self.rules_key,
            "score": self.score,
            "grade": self.grade,
            "game_id": self.game_id,
            "finished_at": self.finished_at.isoformat(),
            "turns": self.turns,
        }


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """A player's standing for one board size and rule set."""

    rank: int
    player: str
    profile: int
    best: int
    average: float
    turns: int
    shut_boxes: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "profile": self.profile,
            "best": self.best,
            "average": round(self.average, 2),
            "turns": self.turns,
            "shut_boxes": self.shut_boxes,
        }
