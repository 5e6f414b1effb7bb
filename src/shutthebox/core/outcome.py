"""What a game came to, as a frozen value: each turn's end, the winner, round winners, totals and
money. A record states it (`GameRecord.result`) and a replay recomputes it (`outcome_of`); the two
compare as values, so an edited record is caught whatever field was edited.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from shutthebox.core.errors import RecordError
from shutthebox.core.match import Match

__all__ = ["Outcome", "TurnOutcome", "outcome_of", "result_of"]


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """How one turn ended: who played it, in which round and tie-break (0: none), the tiles left, and
    its score (None in the long game, where turns are not scored)."""

    player: str
    round: int
    tiebreak: int
    open: tuple[int, ...]
    score: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player, "round": self.round, "tiebreak": self.tiebreak,
            "open": list(self.open), "score": self.score,
        }

    @classmethod
    def from_json(cls, data: Any, index: int) -> TurnOutcome:
        if not isinstance(data, dict):
            raise RecordError("result: turn {turn} is not an object", turn=index + 1)
        player, round_, tiebreak, open_, score = (
            data.get(key) for key in ("player", "round", "tiebreak", "open", "score")
        )
        if not (
            isinstance(player, str) and isinstance(round_, int) and isinstance(tiebreak, int)
            and (score is None or isinstance(score, int))
            and isinstance(open_, list) and all(_whole(tile) for tile in open_)
        ):
            raise RecordError(
                "result: turn {turn} needs a player, a round, a tie-break mark, its open tiles and a score",
                turn=index + 1,
            )
        return cls(player, round_, tiebreak, tuple(open_), score)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A game's result: over or not, the winner (None: none yet, or a draw), every turn's end, each
    round's winner, and each player's total and money (by name, in seat order)."""

    over: bool
    winner: str | None
    turns: tuple[TurnOutcome, ...]
    round_winners: tuple[str, ...]
    totals: tuple[tuple[str, int], ...]
    ledger: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "over": self.over,
            "winner": self.winner,
            "turns": [turn.to_json() for turn in self.turns],
            "round_winners": list(self.round_winners),
            "totals": dict(self.totals),
            "ledger": dict(self.ledger),
        }

    @classmethod
    def from_json(cls, data: Any) -> Outcome:
        """A stated result read with its shape checked (whether it is true is `replay`'s to say)."""
        if not isinstance(data, dict):
            raise RecordError("result must be an object or null")
        over, winner, turns = data.get("over"), data.get("winner"), data.get("turns")
        round_winners, totals, ledger = data.get("round_winners"), data.get("totals"), data.get("ledger")
        if not isinstance(over, bool) or not (winner is None or isinstance(winner, str)):
            raise RecordError("result: over must be true or false, and the winner a name or null")
        if not isinstance(turns, list):
            raise RecordError("the record's result lists no turns")
        if not (isinstance(round_winners, list) and all(isinstance(name, str) for name in round_winners)):
            raise RecordError("result: round_winners must be a list of names")
        if not (_by_name(totals) and _by_name(ledger)):
            raise RecordError("result: totals and ledger must give each player a whole number")
        return cls(
            over, winner, tuple(TurnOutcome.from_json(turn, i) for i, turn in enumerate(turns)),
            tuple(round_winners), tuple(totals.items()), tuple(ledger.items()),
        )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _by_name(value: object) -> TypeGuard[dict[str, int]]:
    return isinstance(value, dict) and all(isinstance(k, str) and _whole(v) for k, v in value.items())


def outcome_of(state: Match) -> Outcome:
    """What the match at ``state`` has come to."""
    names = state.players
    return Outcome(
        over=state.is_over,
        winner=names[state.winner] if state.winner is not None else None,
        turns=tuple(
            TurnOutcome(names[t.player], t.round, t.tiebreak, tuple(t.board.open_tiles), t.score)
            for t in state.history
        ),
        round_winners=tuple(names[p] for p in state.round_winners),
        totals=tuple(zip(names, state.totals, strict=True)),
        ledger=tuple(zip(names, state.ledger, strict=True)),
    )


def result_of(state: Match) -> dict[str, Any]:
    """The outcome of a match as JSON: winner, scores of each turn, totals and ledger."""
    return outcome_of(state).to_json()
