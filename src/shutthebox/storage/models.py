"""The tables: one row per finished game, one row per turn played in it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = ["Base", "GameRow", "ProfileNameRow", "ProfileRow", "TurnRow"]

NAME_LENGTH = 100
KEY_LENGTH = 200


class Base(DeclarativeBase):
    """Declarative base of the storage tables."""


class GameRow(Base):
    """A finished game: its record (JSON that replays) and what it came to."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    source: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    tiles: Mapped[int] = mapped_column(Integer)
    rules_key: Mapped[str] = mapped_column(String(KEY_LENGTH), index=True)
    players: Mapped[list[str]] = mapped_column(JSON)
    winner: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    record: Mapped[str] = mapped_column(Text)
    typed: Mapped[bool] = mapped_column(Boolean, server_default=false())  # dice typed in by hand
    kind: Mapped[str] = mapped_column(String(16), server_default="practice")  # ranked, practice, …
    turns: Mapped[list[TurnRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="TurnRow.seq"
    )


class TurnRow(Base):
    """One scored or unscored turn of a game, denormalised for bests and leaderboards."""

    __tablename__ = "turns"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(NAME_LENGTH), index=True)
    round: Mapped[int] = mapped_column(Integer)
    tiebreak: Mapped[int] = mapped_column(Integer)
    open_tiles: Mapped[list[int]] = mapped_column(JSON)
    open_sum: Mapped[int] = mapped_column(Integer)
    score: Mapped[int | None] = mapped_column(Integer)
    tiles: Mapped[int] = mapped_column(Integer)
    rules_key: Mapped[str] = mapped_column(String(KEY_LENGTH), index=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    typed: Mapped[bool] = mapped_column(Boolean, server_default=false())  # counts for no best
    ranked: Mapped[bool] = mapped_column(Boolean, server_default=false())  # fair dice, no hint asked
    profile_id: Mapped[int | None] = mapped_column(ForeignKey("profiles.id"), index=True)
    game: Mapped[GameRow] = relationship(back_populates="turns")

    def __repr__(self) -> str:
        return f"TurnRow(game={self.game_id}, player={self.player!r}, score={self.score})"


class ProfileRow(Base):
    """A player with an identity: a display name and the hash of a secret key only they hold."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the secret key, hex
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProfileNameRow(Base):
    """A look-alike key of a profile's name: unique, so no two profiles hold names that look alike."""

    __tablename__ = "profile_names"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of a look-alike key
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), index=True)
