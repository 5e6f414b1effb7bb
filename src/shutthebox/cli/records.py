"""``shutthebox replay`` and ``verify``: a game record read, checked action by action, and told.

``replay`` tells how the game went; ``verify`` proves its fair dice (docs/fairness.md) and names
the first event that fails.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from shutthebox.cli.printable import printable
from shutthebox.core.dice import Roll
from shutthebox.core.errors import RecordError
from shutthebox.core.match import DiceChoice, Phase
from shutthebox.core.record import Event, GameRecord, replay, replay_states, result_of
from shutthebox.core.verify import Verdict, verify
from shutthebox.i18n import _, say
from shutthebox.i18n.words import dice_word, rules_line

__all__ = ["run_replay", "run_verify"]


def show(text: str) -> None:
    """Print a line that holds what a record says: its names are anyone's text (`printable`)."""
    print(printable(text))


def run_replay(args: argparse.Namespace) -> int:
    record = GameRecord.load(Path(args.file))
    state = replay(record)
    result = result_of(state)
    if args.json:
        show(json.dumps(result, ensure_ascii=False))
        return 0
    show(_("Rules: {rules}").format(rules=rules_line(record.rules)))
    players = ", ".join(record.players)
    if record.seed is not None:
        show(_("Players: {players}; seed {seed}; {actions} actions").format(
            players=players, seed=record.seed, actions=len(record.events)
        ))
    elif record.fairness is not None:
        show(_("Players: {players}; fair dice (shutthebox verify proves them); {actions} actions").format(
            players=players, actions=len(record.events)
        ))
    else:
        show(_("Players: {players}; dice typed in; {actions} actions").format(
            players=players, actions=len(record.events)
        ))
    roll_off, plays = _turn_plays(record)
    if roll_off:
        show("  " + _("roll-off for the starting order: {rolls}").format(rolls=roll_off))
    for number, turn in enumerate(result["turns"]):
        tiles = " ".join(map(str, turn["open"]))
        shown = _("open: {tiles}").format(tiles=tiles) if tiles else _("box shut")
        score = "" if turn["score"] is None else f" -> {turn['score']}"
        tiebreak = _(" (tie-break {n})").format(n=turn["tiebreak"]) if turn["tiebreak"] else ""
        played = plays[number] if number < len(plays) else ""
        line = _("round {round}{tiebreak}: {player}: {plays}; {open}{score}").format(
            round=turn["round"], tiebreak=tiebreak, player=turn["player"], plays=played or _("no play"),
            open=shown, score=score,
        )
        show("  " + line)
    if state.is_over:
        show(_("Game over; winner: {winner}").format(winner=result["winner"] or "-"))
    else:
        show(_("Game not finished"))
    if record.rules.stake:
        ledger = ", ".join(f"{k} {v:+d}" for k, v in result["ledger"].items())
        show(_("Ledger: {ledger}").format(ledger=ledger))
    show(_("Replay matches the record."))
    return 0


def _turn_plays(record: GameRecord) -> tuple[str, list[str]]:
    """The roll-off in words (``Ana 5, Luis 3``; empty without one), then each finished turn's rolls
    and moves, in order: ``rolled 4+5, shut 9, rolled 1+2``."""
    roll_off: list[str] = []
    plays: list[str] = []
    said: list[str] = []
    before = None
    for event, state in replay_states(record):
        if event is not None and before is not None:
            action = event.action
            if before.phase is Phase.ROLL_OFF:
                roll_off.append(f"{record.players[event.player]} {action}")
            elif isinstance(action, Roll):
                said.append(_("rolled {roll}").format(roll=action))
            elif isinstance(action, DiceChoice):
                said.append(_("chose {dice}").format(dice=dice_word(action.count)))
            elif before.opening:  # the long game's opener opens tiles
                said.append(_("opened {tiles}").format(tiles=action))
            else:
                said.append(_("shut {tiles}").format(tiles=action))
            if len(state.history) > len(before.history):  # a turn is over
                plays.append(", ".join(said))
                said = []
        before = state
    return ", ".join(roll_off), plays


# -- verify ----------------------------------------------------------------------------------------


def run_verify(args: argparse.Namespace) -> int:
    """0 when every die and move is proven, 1 when not (a file that is not a game record included:
    nothing of it is proven), 2 when there is no file to read (a one-line error, like every command's)."""


    record: GameRecord | None = None
    try:
        record = GameRecord.load(Path(args.file))
    except RecordError as error:
        if isinstance(error.values.get("error"), OSError):
            raise  # no such file, a folder, no permission: not a verdict on a record
        index = error.values.get("index")
        verdict = Verdict(False, error, index if isinstance(index, int) else None)
    else:
        verdict = verify(record)
    if args.json:
        fairness = record.fairness if record is not None else None
        show(json.dumps({
            **verdict.to_json(say),
            "kind": record.kind if record is not None else None,
            "commitment": fairness.commitment if fairness is not None else None,
        }, ensure_ascii=False))
    else:
        for line in _verdict_lines(verdict, record):
            show(line)
    return 0 if verdict.proven else 1


def _verdict_lines(verdict: Verdict, record: GameRecord | None) -> list[str]:
    """The verdict in words: proven with the facts a person can check again, or what fails and where."""

    reason = say(verdict.reason)
    if not verdict.proven:
        lines = [_("Not proven: {reason}").format(reason=reason)]
        if record is not None and verdict.event is not None and verdict.event < len(record.events):
            lines.append(_("Event {index} as recorded: {event}").format(
                index=verdict.event, event=_event_words(record, record.events[verdict.event])
            ))
        return lines
    fairness = record.fairness if record is not None else None
    assert record is not None and fairness is not None  # a proven record has revealed fair dice
    lines = [
        reason[:1].upper() + reason[1:] + ".",
        _("Commitment (sha256 of the server seed, published before the first roll): {commitment}").format(
            commitment=fairness.commitment
        ),
        _("Server seed (revealed when the game ended): {seed}").format(seed=fairness.server_seed),
        _("Client seeds: {seeds}").format(seeds=", ".join(fairness.client_seeds) or _("none")),
    ]
    if record.assisted:
        names = ", ".join(record.players[p] for p in record.assisted)
        if record.kind == "assisted":  # a version 3 record: then a hint took the asker's turns out
            said = _("Hints were asked by {players}: their turns count for no best.")
        else:
            said = _("Hints were asked by {players}: each turn with a hint counts as it stood when it came.")
        lines.append(said.format(players=names))
    return lines


def _event_words(record: GameRecord, event: Event) -> str:
    """One recorded action in words, by the player the record names (a number out of range as is)."""

    players = record.players
    who = players[event.player] if 0 <= event.player < len(players) else f"#{event.player}"
    if isinstance(event.action, Roll):
        return _("{player} rolls {roll}").format(player=who, roll=event.action)
    if isinstance(event.action, DiceChoice):
        return _("{player} chooses {dice}").format(player=who, dice=dice_word(event.action.count))
    return _("{player} plays the tiles {tiles}").format(player=who, tiles=event.action)
