"""Verifying a game record: every die recomputed from the revealed seed, every move replayed.

`verify` answers what a player can check alone, with the record and nothing
else: the revealed server seed is the one committed to before play, each die
is the one the fair scheme gives for the client seeds, each action is legal
for the player who took it, and each turn ends as the record says. It names
the first event that fails, so a tampered record says where.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shutthebox.core.dice import Roll
from shutthebox.core.errors import N_, Phrase, RecordError, ShutTheBoxError, quoted
from shutthebox.core.record import GameRecord, outcome_of, replay_states, shown

__all__ = ["Verdict", "verify"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What `verify` found: proven, or the first event (None: the record as a whole) that fails, and why."""

    proven: bool
    reason: ShutTheBoxError | Phrase
    event: int | None = None
    dice: int = 0
    events: int = 0

    def to_json(self, say: Any = str) -> dict[str, Any]:
        return {
            "proven": self.proven,
            "event": self.event,
            "reason": say(self.reason),
            "dice": self.dice,
            "events": self.events,
        }


def _refused(template: str, event: int | None = None, **values: object) -> Verdict:
    return Verdict(False, RecordError(template, **values), event)


def verify(record: GameRecord) -> Verdict:
    """Recompute every die and replay every move of ``record``; the verdict names what fails first."""
    fairness = record.fairness
    if fairness is None:
        if record.seed is not None:
            return _refused(N_("the dice come from seed {seed}, chosen for practice: nothing proves them"),
                            seed=shown(record.seed))
        return _refused(N_("the record has no fair dice to verify (typed in by hand)"))
    if not fairness.revealed:
        return _refused(N_("the server seed is not revealed yet: the game is not over"))
    if not fairness.honest:
        return _refused(N_("fairness: the server seed is not the one committed to (sha256 differs)"))
    if record.result is None:
        return _refused(N_("the record states no result to check"))
    stated_turns = record.result.turns
    index, dice, turns_seen, state = -1, 0, 0, None
    try:
        for event, state in replay_states(record):
            if event is None:
                continue
            index += 1
            if isinstance(event.action, Roll):
                if event.typed:
                    return _refused(N_("event {index}: the dice were typed in, not rolled by the server"),
                                    index, index=index)
                dice += len(event.action.dice)
            if len(state.history) > turns_seen:  # a turn ended here: it must end as the record says
                replayed = outcome_of(state).turns
                for turn in range(turns_seen, len(replayed)):
                    stated = stated_turns[turn] if turn < len(stated_turns) else None
                    if replayed[turn] != stated:
                        return _refused(
                            "event {index}: turn {turn} ({player}) ends with {open} open and score "
                            "{score}, not as the record says",
                            index, index=index, turn=turn + 1, player=quoted(replayed[turn].player),
                            open=" ".join(map(str, replayed[turn].open)) or "-",
                            score=replayed[turn].score,
                        )
                turns_seen = len(replayed)
    except RecordError as error:
        return Verdict(False, error, index + 1, dice, index + 1)
    assert state is not None
    if not state.is_over:
        return _refused(N_("the events end before the game does"), len(record.events))
    if record.result != outcome_of(state):
        return _refused(N_("the record's result differs from the result of replaying its events"))
    proven = Phrase(
        "proven: {dice} dice recomputed from the revealed seed, {events} events replayed",
        {"dice": dice, "events": len(record.events)},
    )
    return Verdict(True, proven, None, dice, len(record.events))
