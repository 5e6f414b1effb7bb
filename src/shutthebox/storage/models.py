"""The tables: finished games and their turns, profiles, and the rooms in play with their events.

Every moment is a `UTCDateTime`: written in UTC, read back aware in UTC, whatever the engine.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, Text, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from shutthebox.storage.columns import UTCDateTime

__all__ = [
    "Base", "CommitmentRow", "DailyAttemptRow", "DailySeedRow", "GameRow", "ProfileNameRow", "ProfileRow",
    "PuzzleRatingRow", "RoomEventRow", "RoomRow", "TrainerDealtRow", "TrainerRatingRow", "TrainerReviewRow",
    "TurnRow",
]

NAME_LENGTH = 100
KEY_LENGTH = 200


class Base(DeclarativeBase):
    """Declarative base of the storage tables."""


class GameRow(Base):
    """A finished game: its record (JSON that replays) and what it came to."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    source: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    tiles: Mapped[int] = mapped_column(Integer)
    rules_key: Mapped[str] = mapped_column(String(KEY_LENGTH), index=True)
    players: Mapped[list[str]] = mapped_column(JSON)
    winner: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    record: Mapped[str] = mapped_column(Text)
    typed: Mapped[bool] = mapped_column(Boolean, server_default=false())  # dice typed in by hand
    kind: Mapped[str] = mapped_column(String(16), server_default="practice")  # ranked, practice, …
    origin: Mapped[str | None] = mapped_column(String(64), unique=True)  # a room's game: saved once
    sealed_until: Mapped[datetime | None] = mapped_column(UTCDateTime())  # a daily's: its day
    turns: Mapped[list[TurnRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="TurnRow.seq"
    )


class TurnRow(Base):
    """One scored or unscored turn of a game, denormalised for bests and leaderboards."""

    __tablename__ = "turns"
    __table_args__ = (  # a player's best under a rule set, asked as each game is kept (migration 0010)
        Index("ix_turns_player_rules_key", "player", "rules_key"),
        Index("ix_turns_profile_rules_key", "profile_id", "rules_key"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(NAME_LENGTH))
    round: Mapped[int] = mapped_column(Integer)
    tiebreak: Mapped[int] = mapped_column(Integer)
    open_tiles: Mapped[list[int]] = mapped_column(JSON)
    open_sum: Mapped[int] = mapped_column(Integer)
    score: Mapped[int | None] = mapped_column(BigInteger)
    tiles: Mapped[int] = mapped_column(Integer)
    rules_key: Mapped[str] = mapped_column(String(KEY_LENGTH), index=True)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime())
    typed: Mapped[bool] = mapped_column(Boolean, server_default=false())  # counts for no best
    ranked: Mapped[bool] = mapped_column(Boolean, server_default=false())  # counts: ranked_score is set
    ranked_score: Mapped[int | None] = mapped_column(BigInteger)  # what it counts for (core.ranking)
    profile_id: Mapped[int | None] = mapped_column(ForeignKey("profiles.id"))
    game: Mapped[GameRow] = relationship(back_populates="turns")

    def __repr__(self) -> str:
        return f"TurnRow(game={self.game_id}, player={self.player!r}, score={self.score})"


class ProfileRow(Base):
    """A player with an identity: a display name and the hash of a secret key only they hold."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the secret key, hex
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ProfileNameRow(Base):
    """A look-alike key of a profile's name: unique, so no two profiles hold names that look alike."""

    __tablename__ = "profile_names"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of a look-alike key
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), index=True)


class RoomRow(Base):
    """A room of the web server in play (or finished, until it is closed): enough to resume it
    after a crash. Seats keep the hash of their token, never the token."""

    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))  # waiting, playing, over
    setup: Mapped[dict[str, object]] = mapped_column(JSON)  # rules, rounds, seed, hints, clock
    dice: Mapped[dict[str, object] | None] = mapped_column(JSON)  # the fair dice: server seed, client seeds
    seats: Mapped[list[dict[str, object]]] = mapped_column(JSON)
    extra: Mapped[dict[str, object]] = mapped_column(JSON)  # notices, rematch, adjournment
    game_id: Mapped[int | None] = mapped_column(Integer)  # the stored game, once saved
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    touched_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    version: Mapped[int] = mapped_column(Integer, server_default="1")  # bumped by every write
    due_at: Mapped[float | None] = mapped_column(Float, index=True)  # epoch seconds: look at it then
    owner: Mapped[str | None] = mapped_column(String(64), index=True)  # sha256 of the creator's address
    player: Mapped[str | None] = mapped_column(String(64), index=True)  # sha256 of the creator's player key
    events: Mapped[list[RoomEventRow]] = relationship(
        back_populates="room", cascade="all, delete-orphan", order_by="RoomEventRow.seq"
    )


class RoomEventRow(Base):
    """One acknowledged action of a room, in order: replayed through the engine to resume it.
    The key (room, seq) lets only one action take each place in a room's history."""

    __tablename__ = "room_events"

    room_code: Mapped[str] = mapped_column(
        ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    body: Mapped[dict[str, object]] = mapped_column(JSON)
    room: Mapped[RoomRow] = relationship(back_populates="events")


class CommitmentRow(Base):
    """Fair dice committed to and waiting for the room that claims them with the ticket."""

    __tablename__ = "commitments"

    ticket_hash: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the ticket, hex
    server_seed: Mapped[str] = mapped_column(String(64))  # hex, secret until the game ends
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class DailySeedRow(Base):
    """The server seed of one day's challenge on one board: committed to before the day, revealed
    after it."""

    __tablename__ = "daily_seeds"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)  # YYYY-MM-DD, in UTC
    tiles: Mapped[int] = mapped_column(Integer, primary_key=True)
    server_seed: Mapped[str] = mapped_column(String(64))  # hex, secret until the day is over
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class DailyAttemptRow(Base):
    """A profile's one ranked attempt at a day's challenge: the room it plays in, whose game is
    kept under ``origin`` once over."""

    __tablename__ = "daily_attempts"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    tiles: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    room_code: Mapped[str] = mapped_column(String(8))
    origin: Mapped[str] = mapped_column(String(64), index=True)  # the room's game's origin in `games`
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())


class TrainerRatingRow(Base):
    """A profile's trainer rating (Glicko-2) and how many puzzles it answered, how many right."""

    __tablename__ = "trainer_ratings"

    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    answered: Mapped[int] = mapped_column(Integer)
    right: Mapped[int] = mapped_column(Integer)


class PuzzleRatingRow(Base):
    """A puzzle's difficulty (Glicko-2): it wins when a player misses it."""

    __tablename__ = "puzzle_ratings"

    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the puzzle's key, hex
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    answered: Mapped[int] = mapped_column(Integer)


class TrainerReviewRow(Base):
    """A puzzle a profile has answered: its answers right in a row, and when it comes back."""

    __tablename__ = "trainer_reviews"

    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    pool: Mapped[str] = mapped_column(String(64), index=True)  # sha256 of the rules and goal, hex
    key: Mapped[str] = mapped_column(Text)  # the puzzle's key: its rules, goal, position and roll
    streak: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class TrainerDealtRow(Base):
    """A puzzle the trainer dealt to a profile and the profile has not answered yet: only such a
    puzzle is rated (the trainer rates its own puzzles, not any position asked)."""

    __tablename__ = "trainer_dealt"

    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the puzzle's key, hex
    dealt_at: Mapped[datetime] = mapped_column(UTCDateTime())
