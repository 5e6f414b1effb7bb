"""The seats of a table: who plays each (here, a bot, a remote player), and the token that acts for it.

A seat keeps the SHA-256 of its token, never the token (`storage.rooms.token_hash`): a copied
database holds none. A seat played *here* acts with the creator's token (one person solo, or
several passing one device); a *remote* seat is open until someone joins with the room's code and
gets a token of their own; a *bot* acts on the server.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from shutthebox.core import fair
from shutthebox.core.game import Chooser, Game
from shutthebox.storage import Profile
from shutthebox.storage.names import look_alike_keys
from shutthebox.storage.rooms import token_hash
from shutthebox.strategy.bots import seat_bots
from shutthebox.strategy.names import bot_key

__all__ = [
    "STAND_IN", "TOKEN", "Seat", "SeatKind", "SeatSpec", "check_client_seed", "hash_of", "held_by",
    "look_alike", "resolve_bot", "stand_in_bot",
]

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""The shape of every token the server gives (and so of every one a seat may hold)."""
STAND_IN = "medium"
"""The strength of the bot that plays for a seat whose player ran out of time or left."""
SeatKind = Literal["here", "bot", "remote"]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for when creating a room."""

    kind: SeatKind
    name: str | None = None
    bot: str | None = None  # a bot name or a strength (easy, medium, hard, expert)
    profile: Profile | None = None  # the creator's profile plays this seat


@dataclass(slots=True)
class Seat:
    """A place at the table; ``token_hash`` is the SHA-256 of the token that acts for it."""

    index: int
    kind: SeatKind
    name: str | None
    bot: str | None = None
    token_hash: str | None = None
    profile: int | None = None
    missed: int = 0  # actions missed in a row on the clock
    stand_in: bool = False  # a bot plays it for the rest of the game: its player left

    @property
    def human(self) -> bool:
        return self.kind != "bot"

    def to_json(self, connected: bool) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "profile": self.profile,
            "joined": self.name is not None,
            "connected": connected,
            "missed": self.missed,
            "stand_in": self.stand_in,
        }

    def kept(self) -> dict[str, Any]:
        return {
            "index": self.index, "kind": self.kind, "name": self.name, "bot": self.bot,
            "token_hash": self.token_hash, "profile": self.profile, "missed": self.missed,
            "stand_in": self.stand_in,
        }


@lru_cache(maxsize=8192)  # a socket's token is asked for at each message and each state drawn
def hash_of(token: str | None) -> str | None:
    """What a seat keeps of ``token``; None for no token or one no seat could hold (wrong shape)."""
    return token_hash(token) if token and TOKEN.fullmatch(token) else None


def held_by(seats: list[Seat], token: str | None) -> tuple[int, ...]:
    """The seats ``token`` acts for (none for a spectator)."""
    wanted = hash_of(token)
    if wanted is None:
        return ()
    return tuple(
        s.index for s in seats if s.token_hash is not None and secrets.compare_digest(s.token_hash, wanted)
    )


def look_alike(name: str, other: str) -> bool:
    """Two names a reader could take for one another (the same, or look-alikes)."""

    return name == other or bool(look_alike_keys(name) & look_alike_keys(other))


def check_client_seed(seed: str | None) -> str | None:
    """A client seed as the fair dice take it (a seed they refuse is malformed)."""
    return None if seed is None else fair.check_client_seed(seed)


def resolve_bot(name: str) -> str:
    """The bot name for a bot name or a strength (an error naming the choices otherwise)."""

    return bot_key(name)


def stand_in_bot(game: Game, seat: int) -> Chooser:
    """The bot that plays ``seat`` for its player (out of time, or gone)."""

    return seat_bots({seat: resolve_bot(STAND_IN)}, f"{game.bot_seed}/stand-in")[seat]
