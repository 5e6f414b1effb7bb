"""A room as the store keeps it (`storage.rooms.KeptRoom`), and back: its game replayed through the engine.

The row holds everything a room is but its game: the setup, the dice, the seats (token hashes), the
notices, the clock, the rematch, the turn a stand-in plays; the game is its log replayed, action by
action, through `Game.play` (the fair dice recompute the same faces, which are checked). One reader
builds a room from a row (`restore`, and `caught_up` for a copy behind: only the new actions
replayed), so no field is copied by hand from one copy to another.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from shutthebox.core.dice import Roll
from shutthebox.core.fair import FairDice
from shutthebox.core.game import ROLL, Game
from shutthebox.core.record import Event
from shutthebox.core.rules import Rules
from shutthebox.storage.rooms import KeptRoom
from shutthebox.web.rematch import Rematch
from shutthebox.web.room import Room
from shutthebox.web.roomlog import Entry
from shutthebox.web.seats import Seat, stand_in_bot

__all__ = ["caught_up", "entries", "kept", "restore"]


def kept(room: Room, *, version: int, due_at: float | None) -> KeptRoom:
    """``room`` as the store keeps it, over the store's ``version`` (its log whole: the store writes
    the entries it lacks)."""
    setup = {
        "rules": room.rules.to_dict(), "rounds": room.rounds, "seed": room.seed, "hints": room.hints,
        "turn_seconds": room.turn_seconds, "on_leave": room.on_leave, "closes_at": room.closes_at,
        "private": room.private,
    }
    game = room.game
    extra = {
        "notices": room.notices,
        "adjourned": room.adjourned,
        "rematch": room.rematch.kept() if room.rematch is not None else None,
        "next_dice": room.next_dice.server_seed.hex() if room.next_dice is not None else None,
        "clock": room.clock_mark and {"deadline": room.deadline, "mark": room.clock_mark},
        "standing_in": [list(item) for item in (game.standing_in if game else {}).items()],
        "results": room.results,
    }
    return KeptRoom(
        code=room.code, status="left" if room.left else room.status, setup=setup,
        dice=room.dice.kept() if room.dice else None, seats=[seat.kept() for seat in room.seats], extra=extra,
        game_id=game.saved_id if game is not None else None,
        created_at=datetime.fromtimestamp(room.created_at, UTC),
        touched_at=datetime.fromtimestamp(room.touched, UTC), version=version, due_at=due_at,
        owner=room.owner, player=room.player,
    )


def entries(room: Room, start: int) -> list[tuple[int, dict[str, Any]]]:
    """The log entries from place ``start`` on, with their places, as the store keeps them."""
    return [(place, entry.to_json()) for place, entry in enumerate(room.log[start:], start)]


def restore(row: KeptRoom) -> Room:
    """The room as the store last kept it: its game replayed, action by action."""
    room = _from_row(row, dice=FairDice.from_kept(row.dice) if row.dice is not None else None)
    room.start_if_ready()
    _replay(room, row)
    return room


def caught_up(room: Room, row: KeptRoom) -> Room:
    """The room as the store's newer ``row`` holds it, read from the first action ``room`` lacks: the
    row's seats and the rest, ``room``'s game with only the new actions replayed (cheaper than
    `restore` by the whole log). A `ValueError` if it does not follow on."""
    if row.first_event != len(room.log):
        raise ValueError(f"room {room.code}: the store's actions start at {row.first_event}, "
                         f"this copy holds {len(room.log)}")
    started = room.game is not None  # the game's dice are the room's: a joiner's seed came with its seat
    dice = room.dice if started or row.dice is None else FairDice.from_kept(row.dice)
    new = _from_row(row, dice=dice)
    new.game, new.log, new.by_clock = room.game, list(room.log), set(room.by_clock)
    if room.next_dice is not None:  # drawn here as the game ended: the row's, once kept
        new.next_dice = room.next_dice
    new.start_if_ready()
    if new.game is not None:
        for seat in new.seats:
            if seat.stand_in and seat.index not in new.game.bots_seated:
                new.game.seat_bot(seat.index, stand_in_bot(new.game, seat.index))
    _replay(new, row)
    return new


def _from_row(row: KeptRoom, *, dice: FairDice | None) -> Room:
    """The room ``row`` describes, but its game and log (with ``dice``)."""
    setup, extra = row.setup, row.extra
    clock = extra.get("clock")
    return Room(
        code=row.code, rules=Rules.from_dict(setup["rules"]), rounds=setup["rounds"], seed=setup["seed"],
        hints=setup["hints"], dice=dice, turn_seconds=setup["turn_seconds"], on_leave=setup["on_leave"],
        closes_at=setup.get("closes_at"), private=setup.get("private", False),
        seats=[Seat(**seat) for seat in row.seats],
        notices=list(extra.get("notices", [])), adjourned=extra.get("adjourned"),
        results=extra.get("results"),
        rematch=Rematch.restore(extra["rematch"]) if extra.get("rematch") else None,
        next_dice=FairDice(bytes.fromhex(extra["next_dice"])) if extra.get("next_dice") else None,
        deadline=clock["deadline"] if clock else None, clock_mark=tuple(clock["mark"]) if clock else None,
        created_at=row.created_at.timestamp(), touched=row.touched_at.timestamp(), owner=row.owner,
        player=row.player,
    )


def _replay(room: Room, row: KeptRoom) -> None:
    """Play the row's entries on the room's game, then what the row says of the game besides."""
    for place, data in enumerate(row.events, row.first_event):
        entry = Entry.from_json(data, place)
        if entry.event is None:
            room.assist(entry.player)
        else:
            _play(room, entry.event, place)
            if entry.by is not None:
                assert room.game is not None
                room.by_clock.add(len(room.game.events) - 1)
            room.log.append(entry)
    game = room.game
    if game is not None:
        game.saved_id = row.game_id
        for seat, turn in row.extra.get("standing_in", []):
            game.stand_in(seat, stand_in_bot(game, seat), turn=turn)


def _play(room: Room, event: Event, place: int) -> None:
    """Play a logged event through the engine: a roll is rolled again, and must show the same faces."""
    game: Game = room.playing()
    due = game.due()
    if due.seat != event.player:
        raise ValueError(f"room {room.code}: seat {event.player} acts at {place}, seat {due.seat} was to act")
    if isinstance(event.action, Roll):
        game.play(due, ROLL)
        faces = game.events[-1].action
        if faces != event.action:
            raise ValueError(f"room {room.code}: the dice at {place} replay as {faces}, not {event.action}")
    else:
        game.play(due, event.action)
