"""A room as one seat (or a spectator) sees it (`web.views.room_json`), and a room made or joined."""

from __future__ import annotations

from typing import Literal

from shutthebox.web.answers.base import Answer, Number, RuleValues
from shutthebox.web.answers.record import Fairness, GameResult

__all__ = [
    "Board",
    "Due",
    "GameInPlay",
    "GamesInPlay",
    "Joined",
    "MatchState",
    "NewRoom",
    "Notice",
    "PersonResult",
    "PostedScore",
    "Privacy",
    "RecentEvent",
    "RematchState",
    "Resigned",
    "RollOff",
    "RoomState",
    "Seat",
    "SeatNamed",
    "Turn",
    "TurnClock",
]


class Board(Answer):
    size: int
    open: list[int]


class RollOff(Answer):
    contenders: list[int]
    faces: list[int]


class PostedScore(Answer):
    player: int
    score: int


class Turn(Answer):
    player: int
    round: int
    tiebreak: int
    open: list[int]
    open_sum: int
    score: int | None
    grade: str
    opening: bool
    last_roll: list[int] | None


class MatchState(Answer):
    """The engine's state as the page needs it (`web.views.match_json`): nothing decided there."""

    phase: str
    actor: int | None
    actor_name: str | None
    describe: str
    board: Board
    opening: bool
    dice_options: list[int]
    dice_count: int | None
    dice_due: int
    is_chance: bool
    is_decision: bool
    roll: list[int] | None
    legal_moves: list[list[int]]
    extra_turns: int
    round: int
    rounds: int
    tiebreak: int
    order: list[int]
    totals: list[int]
    alive: list[bool]
    ledger: list[int]
    pot: int
    rolloff: RollOff
    round_scores: list[PostedScore]
    history: list[Turn]
    round_winners: list[int]
    winner: int | None
    winner_name: str | None
    over: bool
    result: GameResult | None


class Seat(Answer):
    index: int
    kind: Literal["here", "bot", "remote"]
    name: str | None
    bot: str | None
    profile: int | None
    joined: bool
    connected: bool
    missed: int
    stand_in: bool


class RecentEvent(Answer):
    """One of the room's recent events (``dice`` of a roll, ``count`` of a choice, ``tiles`` of a
    move; ``by`` the clock's stand-in)."""

    seq: int
    player: int
    kind: Literal["roll", "dice", "move"]
    dice: list[int] | None = None
    count: int | None = None
    tiles: list[int] | None = None
    by: Literal["clock"] | None = None


class TurnClock(Answer):
    seat: int
    deadline: Number
    remaining: Number


class SeatNamed(Answer):
    seat: int
    name: str | None


class Notice(Answer):
    kind: str
    seat: int
    name: str | None
    event: int


class RematchState(Answer):
    offered_by: int
    answers: list[bool | None]
    remaining: Number
    code: str | None
    commitment: str


class PersonResult(Answer):
    """How a person did against their best (`core.ranking.Result.to_json`)."""

    player: str
    counted: int | None
    best_before: int | None
    grade: str | None
    new_best: bool
    helped: bool
    unranked: str | None


class Due(Answer):
    wait: Literal["chance", "bot", "person", "over"]
    seat: int | None


class RoomState(Answer):
    """A room as one seat (or a spectator) sees it (`web.views.room_json`)."""

    code: str
    version: int
    status: Literal["waiting", "playing", "over"]
    rules: RuleValues
    rules_key: str
    hints: bool
    private: bool
    watchers: int
    kind: Literal["ranked", "practice"]
    ranked: bool
    seed: int | None
    fairness: Fairness | None
    assisted: list[int]
    hint_cost: int | None
    seats: list[Seat]
    you: list[int]
    events: int
    recent: list[RecentEvent]
    turn_seconds: int | None
    on_leave: Literal["bot", "adjourn"]
    closes_at: Number | None
    clock: TurnClock | None
    adjourned: SeatNamed | None
    notices: list[Notice]
    rematch: RematchState | None
    rematch_commitment: str | None
    stood_in: list[int]
    saved_game_id: int | None
    results: list[PersonResult] | None
    due: Due | None
    match: MatchState | None


class NewRoom(Answer):
    code: str
    token: str
    state: RoomState


class Joined(Answer):
    code: str
    token: str
    seat: int
    state: RoomState


class GameInPlay(Answer):
    """A game a player created that is not over (`web.rooms.in_play_json`): its room's code finds it
    again; the seat token that plays it stays with the page that holds it."""

    code: str
    status: Literal["waiting", "playing"]
    kind: Literal["ranked", "practice"]
    tiles: int
    mode: str
    players: list[str]
    open_seats: int
    created_at: str
    touched_at: str


class GamesInPlay(Answer):
    games: list[GameInPlay]
    limit: int


class Resigned(Answer):
    """A game resigned: played to its end by bots (its state), or closed before it began (none)."""

    code: str
    state: RoomState | None


class Privacy(Answer):
    code: str
    private: bool
