"""New tables: a room's code, its seats checked and named, its game sure to start; a rematch's room.

A code is five characters read aloud without doubt (no 0/O, no 1/I/L); the store has the last word
on whether one is free (`web.copies` draws another when two rooms meet).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Container, Iterable

from shutthebox.core.errors import N_, ShutTheBoxError
from shutthebox.core.fair import FairDice
from shutthebox.core.game import Game
from shutthebox.core.names import clean_name
from shutthebox.core.rules import Mode, Rules
from shutthebox.storage.rooms import token_hash
from shutthebox.web.refusals import Refusal, RefusedError, within
from shutthebox.web.room import OnLeave, Room
from shutthebox.web.seats import Seat, SeatSpec, look_alike, resolve_bot

__all__ = ["ALPHABET", "CODE_LENGTH", "new_code", "new_room", "rematch_room", "well_formed"]

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: codes are read aloud
CODE_LENGTH = 5
CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")


def well_formed(code: str) -> str:
    """``code`` as codes are written (upper case); refused (not-found) if no room could hold it."""
    key = code.strip().upper()
    if not CODE.fullmatch(key):
        raise RefusedError(Refusal.NOT_FOUND, "a room code is {count} letters and digits", count=CODE_LENGTH)
    return key


def new_code(taken: Container[str] = ()) -> str:
    """A code that is none of ``taken`` (the rooms held here; the store has the last word)."""
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def new_room(
    code: str,
    rules: Rules,
    seats: Iterable[SeatSpec],
    *,
    now: float,
    rounds: int = 1,
    seed: int | None = None,
    hints: bool = True,
    dice: FairDice | None = None,
    turn_seconds: int | None = None,
    on_leave: OnLeave = "bot",
    closes_at: float | None = None,
    owner: str | None = None,
    player: str | None = None,
    private: bool = False,
) -> tuple[Room, str]:
    """A new room (not yet started nor kept) and the creator's token, which acts for every seat played
    here. ``dice``: the fair dice (None with a chosen ``seed``: a practice room); ``owner``: the
    creator's address, ``player`` whom the creator plays as (the room keeps the hash of each)."""
    token = secrets.token_urlsafe(18)
    held = token_hash(token)
    placed: list[Seat] = []
    for index, spec in enumerate(seats):
        if spec.kind == "remote":
            placed.append(Seat(index, "remote", None))  # named by whoever joins
            continue
        with within(N_("seat {seat}: {error}"), seat=index):
            name = clean_name(spec.profile.name if spec.profile is not None else (
                spec.name or (f"Bot {index + 1}" if spec.kind == "bot" else "")
            ))
        if spec.profile is not None:
            placed.append(Seat(index, "here", name, token_hash=held, profile=spec.profile.id))
        elif spec.kind == "bot":
            placed.append(Seat(index, "bot", name, bot=resolve_bot(spec.bot or "medium")))
        else:
            placed.append(Seat(index, "here", name, token_hash=held))
    if not placed:
        raise RefusedError(Refusal.MALFORMED, "a room needs at least one seat")
    if not any(s.kind == "here" for s in placed):
        raise RefusedError(Refusal.MALFORMED, "at least one seat must be played here by the room's creator")
    if len(placed) == 1 and rounds > 1:  # alone, the player would roll for the start of each round
        raise RefusedError(
            Refusal.MALFORMED,
            "rounds {rounds}: one player plays one turn; rounds are for two players or more", rounds=rounds,
        )
    named = [s.name for s in placed if s.name is not None]
    if any(look_alike(a, b) for i, a in enumerate(named) for b in named[:i]):
        raise RefusedError(Refusal.NAME_TAKEN, "player names must differ: {names}", names=", ".join(named))
    room = Room(
        code, rules, placed, rounds=rounds, seed=seed, hints=hints, dice=dice if seed is None else None,
        turn_seconds=turn_seconds, on_leave=on_leave, closes_at=closes_at, created_at=now, touched=now,
        owner=token_hash(owner) if owner is not None else None,
        player=token_hash(player) if player is not None else None, private=private,
    )
    check_startable(room)
    return room, token


def check_startable(room: Room) -> None:
    """Refuse at once a table the engine would refuse when the last player joins."""
    Game(room.rules, [f"seat {s.index}" for s in room.seats], by_hand=True, rounds=room.rounds)


def rematch_room(old: Room, code: str, now: float) -> Room | None:
    """The room of a settled rematch: the same rules, the bots and the players who accepted (with
    their tokens), dealt the rematch's committed dice; None when no player accepted."""
    rematch = old.rematch
    assert rematch is not None
    staying = [s for s in old.seats if rematch.answers.get(s.index) and s.name is not None]
    staying_humans = sum(s.human for s in staying)
    if not staying_humans or (staying_humans == 1 and sum(s.human for s in old.seats) > 1):
        return None  # nobody left to play, or one player alone whom the others turned down: no game
    seats = [
        Seat(index, s.kind, s.name, bot=s.bot, token_hash=s.token_hash, profile=s.profile)
        for index, s in enumerate(staying)
    ]
    rules, turn_seconds = old.rules, old.turn_seconds
    if len(seats) == 1 and rules.mode is not Mode.SOLO:
        rules = rules.but(mode=Mode.SOLO)  # one player alone plays solo (rules §5.1)
    if sum(seat.human for seat in seats) == 1:
        turn_seconds = None  # nobody waits for a player alone with bots: no clock, as in any such room
    room = Room(
        code, rules, seats, rounds=old.rounds, hints=old.hints, dice=rematch.dice, turn_seconds=turn_seconds,
        on_leave=old.on_leave, created_at=now, touched=now, owner=old.owner,
        player=old.player, private=old.private,
    )
    try:
        check_startable(room)
        room.start_if_ready()
    except ShutTheBoxError:  # a table that cannot start: no rematch
        return None
    return room
