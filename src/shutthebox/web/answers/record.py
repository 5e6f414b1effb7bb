"""The fair dice's public facts and a game record (`core.record.GameRecord.to_json`), which replays."""

from __future__ import annotations

from shutthebox.web.answers.base import Answer, RuleValues

__all__ = ["Commitment", "Fairness", "GameRecord", "GameResult", "RecordEvent", "TurnResult"]


class Fairness(Answer):
    algorithm: str
    commitment: str
    client_seeds: list[str]
    server_seed: str | None


class Commitment(Answer):
    ticket: str
    algorithm: str
    commitment: str
    client_seeds: list[str]
    server_seed: str | None


class TurnResult(Answer):
    player: str
    round: int
    tiebreak: int
    open: list[int]
    score: int | None


class GameResult(Answer):
    over: bool
    winner: str | None
    turns: list[TurnResult]
    round_winners: list[str]
    totals: dict[str, int]
    ledger: dict[str, int]


class RecordEvent(Answer):
    """One event of a record (`core.record.Event.to_json`)."""

    player: int
    roll: list[int] | None = None
    typed: bool | None = None
    dice: int | None = None
    move: list[int] | None = None


class GameRecord(Answer):
    """A game record (`core.record.GameRecord.to_json`): it replays, and its dice verify."""

    format: str
    version: int
    rules: RuleValues
    players: list[str]
    rounds: int
    seed: int | None
    fairness: Fairness | None
    assisted: list[int]
    helped: list[list[int]]
    events: list[RecordEvent]
    result: GameResult | None
