"""The JSON bodies the API accepts, checked by Pydantic before any engine call.

Their numbers and switches are strict: a person's page sends ``1`` and ``true``, never ``"1"``,
``1.0`` or ``true`` for a tile, so anything else is refused rather than read as one (a
``{"type": "move", "tiles": [true]}`` shut tile 1). Query parameters are text and stay lax."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

__all__ = [
    "MAX_ROUNDS",
    "MAX_SEATS",
    "ActionIn",
    "CreateRoom",
    "DiceIn",
    "HintIn",
    "JoinRoom",
    "MoveIn",
    "PingIn",
    "PrivacyIn",
    "ProfileIn",
    "RematchIn",
    "RollIn",
    "RulesQuery",
    "SeatIn",
    "SocketIn",
]


MIN_TURN_SECONDS = 5
MAX_SEATS = 8
MAX_ROUNDS = 20
Short = Annotated[str, Field(max_length=32)]
SEAT = Field(
    default=None, ge=0, le=7, description="the seat acting (one of yours); default: whose turn it is"
)
Tile = Annotated[StrictInt, Field(ge=-999, le=999)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatIn(_Strict):
    """A seat: played here (``here``), by a bot, or open to a remote player."""

    kind: Literal["here", "bot", "remote"] = "here"
    name: str | None = Field(
        default=None, max_length=200,
        description="player name; remote seats take the joiner's, the creator's profile plays under its own",
    )
    bot: str | None = Field(
        default=None, max_length=32, description="bot name or strength: easy, medium, hard, expert"
    )


class CreateRoom(_Strict):
    """A new game: the rules (a preset with options over it), the seats, the rounds."""

    preset: str = Field(default="classic", max_length=32, description="named rule set, see GET /api/rules")
    rules: dict[Short, StrictBool | StrictInt | Short | None] = Field(
        default_factory=dict, max_length=16, description="rule options over the preset"
    )
    seats: list[SeatIn] = Field(min_length=1, max_length=MAX_SEATS)
    rounds: StrictInt = Field(default=1, ge=1, le=MAX_ROUNDS)
    seed: StrictInt | None = Field(
        default=None, ge=0, le=2**63 - 1,
        description="seed of the dice, to replay a game: a practice room, unranked",
    )
    hints: StrictBool = True
    ticket: str | None = Field(
        default=None, max_length=64, description="from POST /api/commitments: the dice committed to before"
    )
    client_seed: str | None = Field(
        default=None, max_length=64,
        description="your own seed for the fair dice (1 to 64 of A-Z a-z 0-9 - _); needs a ticket",
    )
    turn_seconds: StrictInt | None = Field(
        default=None, ge=0, le=3600,
        description="seconds for each action before a bot plays for the seat: 0 for no clock, 5 to 3600; "
        "by default 60 in online rooms, none otherwise",
    )
    on_leave: Literal["bot", "adjourn"] = Field(
        default="bot", description="after a seat's second miss in a row: a bot plays it, or the game waits"
    )
    private: StrictBool = Field(
        default=False,
        description="nobody without a seat may watch the room by its link while it is played (403 private)",
    )

    @field_validator("turn_seconds")
    @classmethod
    def _a_real_clock(cls, seconds: int | None) -> int | None:
        if seconds is not None and 0 < seconds < MIN_TURN_SECONDS:
            raise ValueError(f"a turn clock gives at least {MIN_TURN_SECONDS} seconds (or 0 for none)")
        return seconds


class JoinRoom(_Strict):
    """Take an open seat: a name (a profile plays under its own) and your own seed for the fair dice."""

    name: str | None = Field(default=None, max_length=200)
    client_seed: str | None = Field(default=None, max_length=64)


class PrivacyIn(_Strict):
    """Make a room private (nobody without a seat watches it) or open to watchers again."""

    private: StrictBool


class ProfileIn(_Strict):
    """A profile's display name."""

    name: str = Field(max_length=200)


class RulesQuery(BaseModel):
    """A rule set in query parameters: a preset and the options that change a turn's score."""

    preset: str = Field(default="classic", max_length=32)
    tiles: int | None = Field(default=None, ge=1, le=12)
    one_die: str | None = Field(default=None, max_length=32)
    one_die_forced: bool | None = None
    max_tiles: int | None = Field(default=None, ge=1, le=12)
    scoring: str | None = Field(default=None, max_length=32)
    doubles_extra_turn: bool | None = None


class RematchIn(_Strict):
    """Offer a rematch (the first accept), accept one, or decline it."""

    type: Literal["rematch"] = "rematch"
    accept: StrictBool = True
    client_seed: str | None = Field(default=None, max_length=64, description="your seed for its fair dice")


class RollIn(_Strict):
    """Roll the dice the state asks for (the server rolls)."""

    type: Literal["roll"]
    seat: StrictInt | None = SEAT


class DiceIn(_Strict):
    """Choose one die or two."""

    type: Literal["dice"]
    count: StrictInt = Field(ge=-99, le=99)
    seat: StrictInt | None = SEAT


class MoveIn(_Strict):
    """Shut (or, opening, open) these tiles."""

    type: Literal["move"]
    tiles: list[Tile] = Field(max_length=12)
    seat: StrictInt | None = SEAT


class HintIn(_Strict):
    """Ask the solver for ranked choices (WebSocket only)."""

    type: Literal["hint"]


class PingIn(_Strict):
    type: Literal["ping"]


ActionIn = Annotated[RollIn | DiceIn | MoveIn, Field(discriminator="type")]
SocketIn = Annotated[RollIn | DiceIn | MoveIn | HintIn | PingIn | RematchIn, Field(discriminator="type")]


class TrainAnswer(_Strict):
    """An answer to a trainer puzzle: its key (as the puzzle came), and one die or two, or the tiles."""

    key: str = Field(max_length=1000, description="the puzzle's key, from GET /api/train")
    dice: StrictInt | None = Field(default=None, ge=1, le=2, description="the number of dice, before a roll")
    shut: list[Tile] | None = Field(
        default=None, max_length=12, description="the tiles to shut, after a roll"
    )
