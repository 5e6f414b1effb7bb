"""Game records: every roll, dice choice and move of a game, as JSON that replays.

A record holds the rules, the players, where the dice came from, each action
with the player who took it, and the result. The dice of a ranked game come
from the fair scheme (``fairness``: the commitment, the client seeds and, once
the game is over, the server seed; see `core.fair`); a practice game names the
``seed`` its dice were drawn from; a roll typed in from a real box is marked
``"typed": true``. Every roll not typed must be the next one its source gives.
``helped`` marks each help a player had (a hint, a stand-in bot, leaving the game) by the
number of events before it, and ``assisted`` lists those players. `replay`
rebuilds the game and refuses a record whose actions are illegal, whose rolls
do not come from their source, or whose stated result differs from the
replayed one. Only a game whose every die was rolled under the fair scheme is
ranked, and each turn counts as played, or as it stood when help came (`core.ranking`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from shutthebox.core.board import Move
from shutthebox.core.chance import DiceSource, SeededDice
from shutthebox.core.dice import Roll
from shutthebox.core.errors import N_, QUOTED, Phrase, RecordError, ShutTheBoxError, plural_phrase
from shutthebox.core.fair import Fairness
from shutthebox.core.match import Action, DiceChoice, Match
from shutthebox.core.outcome import Outcome, outcome_of, result_of
from shutthebox.core.ranking import Help, Result, turns_counted, why_unranked
from shutthebox.core.rules import Rules

__all__ = [
    "FORMAT", "MOST_BYTES", "Event", "GameRecord", "Outcome", "Played", "outcome_of", "replay", "result_of",
    "shown", "what",
]

FORMAT = "shutthebox-record"
VERSION = 4
READABLE = (1, 2, 3, 4)
"""Version 1 had no ``typed`` mark: its rolls were typed exactly when its seed was null.
Version 3 added ``fairness`` and ``assisted`` (whose every turn then counted for no best);
version 4 ``helped``, where each help came (a turn counts as it stood then)."""


MOST_BYTES = 32 << 20
"""The largest record file read: 32 MB. The largest a game of the rules makes is far smaller: 8
players, 20 rounds (the most `play` gives) on 12 tiles take 130 kB; the long game on 12 tiles at most
200 kB in a thousand played at random; an elimination of 8 on 12 tiles to the highest limit (10000)
1.1 MB, and counting open tiles (``count``) some 16,000 turns and 9 MB."""

_SHOWN = QUOTED
"""The longest value a message quotes whole; a longer one is cut (a record may hold anything)."""

_KINDS = (
    (bool, N_("true or false")), (int, N_("a number")), (float, N_("a number")), (str, N_("text")),
    (list, N_("a list")), (dict, N_("an object")),
)


def what(value: Any) -> Phrase:
    """What kind of JSON value ``value`` is, in words (``a number``, ``nothing (null)``), for a message
    that says what was found where something else was due."""
    if value is None:
        return Phrase(N_("nothing (null)"))
    return next((Phrase(word) for kind, word in _KINDS if isinstance(value, kind)), Phrase(N_("a value")))


def shown(value: Any) -> str | Phrase:
    """A value of a record as its JSON says it, cut when long: ``{"player": 0, "rol…``; a long number
    by its first digits and its length (``12345678… (400 digits)``), never whole."""
    if isinstance(value, int) and not isinstance(value, bool):
        digits = str(value)
        if len(digits) <= 20:
            return digits
        return plural_phrase("{start}… ({count} digit)", "{start}… ({count} digits)",
                             len(digits.lstrip("-")), start=digits[:12])
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    if len(text) > _SHOWN:
        text = _cut_numbers(text)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _cut_numbers(text: str) -> str:
    """Long runs of digits cut to their first ones (a value quoted in part may hold a long number)."""
    return re.sub(r"\d{21,}", lambda m: m.group()[:12] + "…", text)


@dataclass(frozen=True, slots=True)
class Event:
    """One action of a game and the player who took it; a roll may have been typed in by hand."""

    player: int
    action: Action
    typed: bool = False

    def to_json(self) -> dict[str, Any]:
        if isinstance(self.action, Roll):
            data: dict[str, Any] = {"player": self.player, "roll": list(self.action.dice)}
            if self.typed:
                data["typed"] = True
            return data
        if isinstance(self.action, DiceChoice):
            return {"player": self.player, "dice": self.action.count}
        return {"player": self.player, "move": list(self.action.tiles)}

    @classmethod
    def from_json(cls, data: Any, index: int) -> Event:
        player = data.get("player") if isinstance(data, dict) else None
        if not isinstance(player, int) or isinstance(player, bool):
            raise RecordError(
                "event {index}: {data} is not an object with a player number", index=index, data=shown(data)
            )
        kinds = [key for key in ("roll", "dice", "move") if key in data]
        typed = data.get("typed", False)
        allowed = {"player", *kinds[:1], *(("typed",) if kinds[:1] == ["roll"] else ())}
        if len(kinds) != 1 or not set(data) <= allowed or not isinstance(typed, bool):
            raise RecordError(
                "event {index}: {data} needs a player and one of roll, dice, move (a roll may be typed)",
                index=index, data=shown(data),
            )
        value = data[kinds[0]]
        try:
            if kinds[0] == "roll":
                return cls(data["player"], Roll(tuple(_ints(value))), typed=typed)
            if kinds[0] == "dice":
                if not isinstance(value, int) or value not in (1, 2):
                    raise RecordError(
                        "event {index}: dice is 1 or 2, not {value}",
                        index=index, value=shown(value),
                    )
                return cls(data["player"], DiceChoice(value))
            return cls(data["player"], Move.of(_ints(value)))
        except RecordError:
            raise
        except ShutTheBoxError as error:
            raise RecordError("event {index}: {error}", index=index, error=error) from None


def _ints(value: Any) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise RecordError("{value} is not a list of whole numbers", value=shown(value))
    return value


@dataclass(frozen=True, slots=True)
class Played:
    """What a game played here knows of itself without a replay: where it stands (``final``), and its
    state at each event count where help came (``at``), all `GameRecord.counted` reads."""

    final: Match
    at: Mapping[int, Match]


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game, and what it came to (a value: a changed copy is `replace`'s)."""

    rules: Rules
    players: tuple[str, ...]
    events: tuple[Event, ...] = ()
    seed: int | None = None
    rounds: int = 1
    result: Outcome | None = None
    fairness: Fairness | None = None
    assisted: tuple[int, ...] = ()
    helped: tuple[Help, ...] = ()
    played: Played | None = field(default=None, compare=False, repr=False)
    """Set by the game that made the record as it played (`Game.record`): what it counts for is known
    without replaying it. Never written: a record read from a file is replayed (`counted`)."""

    @cached_property
    def typed(self) -> bool:
        """Some roll was typed in by hand (at a real box): the game counts for no best (asked of a
        finished game several times over as it is kept: looked at once)."""
        return any(event.typed for event in self.events)

    @property
    def kind(self) -> str:
        """``ranked`` (fair dice, revealed: help or none, every turn counts, see `counted`),
        ``companion`` (typed dice), ``practice`` (dice from a chosen or unproven seed), or
        ``assisted`` (a version 3 record whose hinted players' turns count for nothing)."""
        if self.typed:
            return "companion"
        if self.fairness is None or not self.fairness.revealed:
            return "practice"
        return "assisted" if self._voided else "ranked"

    @property
    def _voided(self) -> frozenset[int]:
        """The players of a version 3 record who asked for a hint: then, their every turn counted for
        none (a version 4 record says where each help came instead)."""
        return frozenset(self.assisted) - {h.player for h in self.helped}

    @property
    def fair(self) -> bool:
        """Every die was rolled under the fair scheme, whose seed is revealed: the game can count."""
        return not self.typed and self.fairness is not None and self.fairness.revealed

    def counted(self) -> tuple[int | None, ...]:
        """For each turn of the game, the score it counts for in bests and rankings, or None
        (`core.ranking`); a record read from elsewhere must `replay`, which also checks every die."""
        return self._counted[1]

    @cached_property
    def _counted(self) -> tuple[Match, tuple[int | None, ...]]:
        """The game's end and what each turn counts for: as the game that made the record played it
        (`played`), else from one replay however often asked (a save and its results ask both)."""
        played = self.played
        if played is None:
            marked = {mark.event for mark in self.helped}
            at: dict[int, Match] = {}
            for index, (_event, state) in enumerate(replay_states(self)):
                if index in marked:
                    at[index] = state
            played = Played(state, at)
        counted = turns_counted(
            played.final, played.at, self.helped, ranked=self.fair, unranked_players=self._voided
        )
        return played.final, counted

    def results(self, people: Iterable[str], best_before: Mapping[str, int | None]) -> tuple[Result, ...]:
        """How each of ``people`` (players of the game, by name) did against ``best_before`` (their
        best under these rules before it, by name): the one rule of what is a new best (`Result`)."""
        final, counted = self._counted
        unranked = why_unranked(self.typed, self.seed, self.fair)
        found = []
        for name in people:
            player = self.players.index(name)
            turns = zip(final.history, counted, strict=True)
            scores = [score for turn, score in turns if turn.player == player and score is not None]
            found.append(Result(
                name, min(scores) if scores else None, best_before.get(name), player in self.assisted,
                unranked,
            ))
        return tuple(found)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "rounds": self.rounds,
            "seed": self.seed,
            "fairness": self.fairness.to_json() if self.fairness is not None else None,
            "assisted": list(self.assisted),
            "helped": [help_.to_json() for help_ in self.helped],
            "events": [event.to_json() for event in self.events],
            "result": self.result.to_json() if self.result is not None else None,
        }

    def dumps(self, *, compact: bool = False) -> str:
        """The record as JSON text: indented for a person's file; ``compact`` for a store, which only
        a program reads (a third the size, and written by the C encoder)."""
        if compact:
            return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def save(self, path: Path) -> None:
        path.write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record, checking its shape (not yet its play: see `replay`)."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object, not {type}", type=what(data))
        if data.get("format") != FORMAT:
            if "format" not in data:
                raise RecordError('not a game record: it has no "format": "{expected}"', expected=FORMAT)
            raise RecordError(
                'not a game record: its format is {format}, not "{expected}"',
                format=shown(data["format"]), expected=FORMAT,
            )
        version = data.get("version")
        if version in READABLE and version < 3 and ({"fairness", "assisted"} & set(data)):
            raise RecordError("record version {version} has no fairness or assisted: they came in version 3",
                              version=version)
        if version in READABLE and version < 4 and "helped" in data:
            raise RecordError("record version {version} has no helped: it came in version 4", version=version)
        if version not in READABLE:
            supported = ", ".join(map(str, READABLE))
            if "version" not in data:
                raise RecordError("record has no version ({supported})", supported=supported)
            raise RecordError(
                "record version {version} is not supported ({supported})",
                version=shown(version), supported=supported,
            )
        missing = {"rules", "players", "events"} - set(data)
        if missing:
            lacking = ", ".join(sorted(missing))
            raise RecordError("record lacks {keys}", keys=lacking)
        players = data["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("players must be a list of names, not {players}", players=shown(players))
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError("seed must be a whole number or null, not {seed}", seed=shown(seed))
        rounds = data.get("rounds", 1)
        if not isinstance(rounds, int) or isinstance(rounds, bool):
            raise RecordError("rounds must be a whole number, not {rounds}", rounds=shown(rounds))
        events = data["events"]
        if not isinstance(events, list):
            raise RecordError("events must be a list of actions, not {type}", type=what(events))
        result = None if data.get("result") is None else Outcome.from_json(data["result"])
        try:
            rules = Rules.from_dict(data["rules"])
        except ShutTheBoxError as error:
            raise RecordError("record rules: {error}", error=error) from None
        fairness = None
        if data.get("fairness") is not None:
            try:
                fairness = Fairness.from_json(data["fairness"])
            except ShutTheBoxError as error:
                raise RecordError("record fairness: {error}", error=error) from None
            if seed is not None:
                raise RecordError("a record has a seed or fairness, not both")
        assisted = data.get("assisted", [])
        if not isinstance(assisted, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) and 0 <= p < len(players) for p in assisted
        ):
            raise RecordError("assisted must be a list of player numbers, not {value}", value=shown(assisted))
        read = [Event.from_json(e, i) for i, e in enumerate(events)]
        helped = _helped(data.get("helped", []), len(players), len(read))
        if helped and set(assisted) != {h.player for h in helped}:
            raise RecordError("assisted must list the players helped, {players}, not {value}",
                              players=shown(sorted({h.player for h in helped})), value=shown(assisted))
        if version == 1 and seed is None:
            read = [Event(e.player, e.action, typed=isinstance(e.action, Roll)) for e in read]
        return cls(
            rules=rules,
            players=tuple(players),
            events=tuple(read),
            seed=seed,
            rounds=rounds,
            result=result,
            fairness=fairness,
            assisted=tuple(sorted(set(assisted))),
            helped=helped,
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(
                "record is not valid JSON: {detail}: line {line} column {column} (char {char})",
                detail=error.msg,
                line=error.lineno,
                column=error.colno,
                char=error.pos,
            ) from None
        except (ValueError, RecursionError):  # a number of thousands of digits, arrays nested deep
            raise RecordError(
                "record is not a JSON game record: a number too long or nesting too deep"
            ) from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        """The record in the file ``path``, read up to `MOST_BYTES` (``/dev/zero`` is not read forever)."""
        try:
            with path.open("rb") as file:
                data = file.read(MOST_BYTES + 1)
        except OSError as error:
            raise RecordError("cannot read record {path!r}: {error}", path=str(path), error=error) from None
        if len(data) > MOST_BYTES:
            raise RecordError(
                "record {path!r} is over {most} MB, larger than any game record: it is not read",
                path=str(path), most=MOST_BYTES >> 20,
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(
                "record {path!r} is not UTF-8 text (a JSON game record)", path=str(path)
            ) from None
        return cls.loads(text)


def _helped(value: Any, players: int, events: int) -> tuple[Help, ...]:
    """The ``helped`` marks of a record: ``[player, event]`` pairs, each within the game."""
    if not isinstance(value, list) or not all(
        isinstance(mark, list) and len(mark) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in mark)
        and 0 <= mark[0] < players and 0 <= mark[1] <= events
        for mark in value
    ):
        raise RecordError(
            "helped must be a list of [player, event] pairs within the game, not {value}", value=shown(value)
        )
    return tuple(Help(player, event) for player, event in value)


def dice_of(record: GameRecord) -> DiceSource | None:
    """The dice the record's rolls must come from: its seed's, or its revealed fair seed's
    (which must be the one committed to); None when nothing can be checked."""
    if record.seed is not None and record.fairness is not None:  # `from_json` refuses it too
        raise RecordError("a record has a seed or fairness, not both")
    if record.seed is not None:
        return SeededDice(record.seed)
    fairness = record.fairness
    if fairness is None or not fairness.revealed:
        return None
    if not fairness.honest:
        raise RecordError("fairness: the server seed is not the one committed to (sha256 differs)")
    return fairness.dice()


def replay_states(record: GameRecord) -> Iterable[tuple[Event | None, Match]]:
    """Each state of the game in turn, with the event that led to it."""
    try:
        state = Match.new(record.rules, record.players, rounds=record.rounds)
    except ShutTheBoxError as error:
        raise RecordError("record cannot start: {error}", error=error) from None
    yield None, state
    dice = dice_of(record)
    for index, event in enumerate(record.events):
        # A roll where none is due is left to `apply`, which names the real problem.
        due = state.dice_due
        if isinstance(event.action, Roll) and not event.typed and dice is not None and due:
            expected = dice.roll(due)
            if expected != event.action:
                if record.fairness is not None:
                    raise RecordError(
                        "event {index}: roll {roll} is not what the fair dice give ({expected})",
                        index=index, roll=event.action, expected=expected,
                    )
                raise RecordError(
                    "event {index}: roll {roll} is not what seed {seed} gives ({expected})",
                    index=index, roll=event.action, seed=shown(record.seed), expected=expected,
                )
        try:
            state = state.apply(event.action, event.player)
        except ShutTheBoxError as error:
            raise RecordError("event {index}: {error}", index=index, error=error) from None
        yield event, state


def replay(record: GameRecord) -> Match:
    """The final state of the recorded game; the record's result must agree with it."""
    *_, (_, state) = replay_states(record)
    if record.result is not None and record.result != outcome_of(state):
        raise RecordError("the record's result differs from the result of replaying its events")
    return state
