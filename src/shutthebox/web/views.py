"""The JSON the page renders: a room's seats and the engine's state, nothing decided here."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any
from weakref import WeakKeyDictionary

from shutthebox.core.game import Due, Game
from shutthebox.core.match import Match
from shutthebox.core.record import Event, result_of
from shutthebox.core.rules import MAX_LIMIT, MAX_STAKE, PRESETS, Mode, OneDie, Rules, Scoring, grade
from shutthebox.i18n import say
from shutthebox.storage import rules_key
from shutthebox.strategy.names import BOT_NAMES, STRENGTHS
from shutthebox.web.room import Room
from shutthebox.web.schemas import MAX_ROUNDS, MAX_SEATS

__all__ = ["event_json", "match_json", "recent_json", "room_json", "rules_catalog"]

RECENT_EVENTS = 16


def match_json(state: Match) -> dict[str, Any]:
    """The engine state as the page needs it: board, phase, the legal moves and dice options."""
    names = state.players
    return {
        "phase": str(state.phase),
        "actor": state.actor,
        "actor_name": names[state.actor] if state.actor is not None else None,
        "describe": say(state.describe()),
        "board": {"size": state.board.size, "open": list(state.board.open_tiles)},
        "opening": state.opening,
        "dice_options": list(state.dice_options),
        "dice_count": state.dice_count,
        "dice_due": state.dice_due,
        "is_chance": state.is_chance,
        "is_decision": state.is_decision,
        "roll": list(state.roll.dice) if state.roll else None,
        "legal_moves": [sorted(move.tiles) for move in state.legal_moves],
        "extra_turns": state.extra_turns,
        "round": state.round,
        "rounds": state.rounds,
        "tiebreak": state.tiebreak,
        "order": list(state.order),
        "totals": list(state.totals),
        "alive": list(state.alive),
        "ledger": list(state.ledger),
        "pot": state.pot,
        "rolloff": {"contenders": list(state.contenders), "faces": list(state.rolloff_faces)},
        "round_scores": [{"player": p, "score": s} for p, s in state.round_scores],
        "history": [
            {
                "player": t.player,
                "round": t.round,
                "tiebreak": t.tiebreak,
                "open": list(t.board.open_tiles),
                "open_sum": t.board.open_sum,
                "score": t.score,
                "grade": grade(t.board.open_sum),
                "opening": t.opening,
                "last_roll": list(t.last_roll.dice) if t.last_roll else None,
            }
            for t in state.history
        ],
        "round_winners": list(state.round_winners),
        "winner": state.winner,
        "winner_name": names[state.winner] if state.winner is not None else None,
        "over": state.is_over,
        "result": result_of(state) if state.is_over else None,
    }


RECENT_FIELDS = {"roll": "dice", "dice": "count", "move": "tiles"}
"""What the page calls the value of each kind of event (the record's ``roll`` is its ``dice``…)."""


def event_json(seq: int, event: Event, by_clock: bool) -> dict[str, Any]:
    """One of the room's recent events as the page reads it, from the record's own `Event`."""
    kind, value = next((key, value) for key, value in event.to_json().items() if key in RECENT_FIELDS)
    shown: dict[str, Any] = {"seq": seq, "player": event.player, "kind": kind, RECENT_FIELDS[kind]: value}
    if kind == "move":
        shown["tiles"] = sorted(value)
    if by_clock:
        shown["by"] = "clock"  # a stand-in bot played it for a player who ran out of time
    return shown


_DRAWN: WeakKeyDictionary[Game, tuple[int, list[dict[str, Any]]]] = WeakKeyDictionary()
"""Each game's last `RECENT_EVENTS` events as the page reads them, and how many it has drawn: each
drawn once (a game's events are only added to, and whether a stand-in played one is known as it is
played), shared by every state after."""


def recent_json(room: Room, game: Game) -> list[dict[str, Any]]:
    """The room's last `RECENT_EVENTS` events as the page reads them (`event_json`): read, never changed."""
    events = game.events
    drawn, recent = _DRAWN.get(game, (0, []))
    if drawn < len(events):
        start = max(drawn, len(events) - RECENT_EVENTS)
        recent = [*recent, *(event_json(i, events[i], i in room.by_clock) for i in range(start, len(events)))]
        recent = recent[-RECENT_EVENTS:]
        _DRAWN[game] = (len(events), recent)
    return recent[:]  # each state its own list, of the shared events


def room_json(
    room: Room, token: str | None, now: float, connected: Collection[int] = (), *, version: int,
    watchers: int = 0,
) -> dict[str, Any]:
    """Everything one seat (or a spectator) sees of a room at ``now`` (epoch seconds), ``connected``
    naming the seats that have a socket open, ``version`` the store's version of it, ``watchers``
    how many sockets with no seat watch it."""
    game = room.game
    clock = None
    if room.deadline is not None and room.clock_mark is not None:
        remaining = max(0.0, round(room.deadline - now, 1))
        clock = {"seat": room.clock_mark[0], "deadline": room.deadline, "remaining": remaining}
    adjourned = room.adjourned
    return {
        "code": room.code,
        "version": version,  # grows with every change kept: a client resumes from the last it saw
        "status": room.status,
        "rules": room.rules.to_dict(),
        "rules_key": rules_key(room.rules),
        "hints": room.hints,
        "private": room.private,  # nobody without a seat watches it
        "watchers": watchers,
        "kind": room.kind,
        "ranked": room.kind == "ranked",
        "seed": room.seed,  # chosen for practice: known to its creator, so shown to every seat
        "fairness": _fairness(room, now),
        "assisted": sorted(game.assisted) if game is not None else [],
        "hint_cost": _hint_cost(room),
        "seats": [seat.to_json(seat.index in connected) for seat in room.seats],
        "you": list(room.seats_of(token)),
        "events": len(game.events) if game is not None else 0,
        "recent": recent_json(room, game) if game is not None else [],
        "turn_seconds": room.turn_seconds,
        "on_leave": room.on_leave,
        "closes_at": room.closes_at,  # a daily challenge's room takes no action after it (epoch seconds)
        "clock": clock,
        "adjourned": None if adjourned is None else {"seat": adjourned, "name": room.seats[adjourned].name},
        "notices": room.notices,
        "rematch": room.rematch.to_json(now) if room.rematch is not None else None,
        "rematch_commitment": _next_commitment(room),
        "stood_in": sorted({game.events[i].player for i in room.by_clock}) if game is not None else [],
        "saved_game_id": game.saved_id if game is not None else None,
        "results": room.results,  # each person's game against their best, once kept (core.ranking.Result)
        "due": _due(game.due()) if game is not None else None,
        "match": match_json(game.state) if game is not None else None,
    }


def _due(due: Due) -> dict[str, Any]:
    """What the game waits for (`core.game.Due`), as a client schedules its part by it: a person's
    roll, dice or tiles (``person``), a bot's (``bot``, ``chance``), nothing (``over``)."""
    return {"wait": str(due.wait), "seat": due.seat}


def _hint_cost(room: Room) -> int | None:
    """What a hint asked now would make the turn of the seat to act count for in the rankings (the
    score of its tiles as they stand); None when a hint costs nothing (see `Game.help_would_cost`)."""
    game = room.game
    if game is None or not room.hints or game.state.actor is None:
        return None
    return game.help_would_cost(game.state.actor)


def _next_commitment(room: Room) -> str | None:
    """The commitment of a rematch's dice, published as the game ends: before anyone offers one."""
    if room.next_dice is None or room.status != "over":
        return None
    return room.next_dice.fairness(reveal=False).commitment


def _fairness(room: Room, now: float) -> dict[str, Any] | None:
    """The fair dice's public facts: the commitment from the start, the seed once the game is over
    (a daily challenge's once its day is: everyone that day plays those dice)."""
    if room.dice is None:
        return None
    over = room.game is not None and room.game.state.is_over
    return room.dice.fairness(reveal=over and not room.sealed(now)).to_json()


def rules_catalog() -> dict[str, Any]:
    """Every rule option with its allowed values and the presets, for the setup panel."""

    default = Rules()
    return {
        "defaults": default.to_dict(),
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "options": {
            "tiles": {"type": "int", "min": 1, "max": 12, "common": [9, 10, 12]},
            "one_die": {"type": "choice", "values": [o.value for o in OneDie]},
            "one_die_forced": {"type": "bool"},
            "max_tiles": {"type": "int-or-null", "min": 1, "max": 12},
            "scoring": {"type": "choice", "values": [s.value for s in Scoring]},
            "mode": {"type": "choice", "values": [m.value for m in Mode]},
            "shut_wins": {"type": "bool"},
            "stake": {"type": "int", "min": 0, "max": MAX_STAKE},
            "limit": {"type": "int", "min": 1, "max": MAX_LIMIT},
            "doubles_extra_turn": {"type": "bool-or-null"},
        },
        "players": {"min": 1, "max": MAX_SEATS},
        "rounds": {"min": 1, "max": MAX_ROUNDS},
        "bots": list(BOT_NAMES),
        "strengths": dict(STRENGTHS),
    }
