"""Helpers for the tests: drive a match with a short script, and brute-force references.

A script is a list of actions separated by spaces: ``r3,1`` a roll (``r5`` one
die), ``m5+3`` a move, ``d1`` a dice choice. The brute-force helpers know nothing
of the engine: they enumerate every subset of the tiles.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from itertools import combinations

from shutthebox import DiceChoice, Game, Match, Move, Roll
from shutthebox.core.fair import FairDice, die
from shutthebox.core.game import ROLL, Wait
from shutthebox.core.match import Action


def action(token: str) -> Action:
    """One script token as an action."""
    kind, rest = token[0], token[1:]
    if kind == "r":
        return Roll(tuple(int(face) for face in rest.split(",")))
    if kind == "m":
        return Move.parse(rest)
    if kind == "d":
        return DiceChoice(int(rest))
    raise AssertionError(f"bad script token {token!r}")


def play(state: Match, script: str) -> Match:
    """Apply every action of ``script`` in turn, each by the player whose turn it is."""
    for token in script.split():
        state = state.apply(action(token), state.actor)
    return state


def brute_moves(
    tiles: int, target: tuple[int, ...], total: int, max_tiles: int | None
) -> set[frozenset[int]]:
    """Every set of tiles from ``target`` (on a board of ``tiles``) summing to ``total``."""
    assert all(1 <= t <= tiles for t in target)
    limit = len(target) if max_tiles is None else max_tiles
    return {
        frozenset(combo)
        for size in range(1, len(target) + 1)
        if size <= limit
        for combo in combinations(target, size)
        if sum(combo) == total
    }


def open_tiles(mask: int) -> tuple[int, ...]:
    """Tile numbers of a mask, computed without the engine."""
    return tuple(tile for tile in range(1, 13) if mask & (1 << (tile - 1)))


def random_action(state: Match, rng: random.Random) -> Action:
    """A uniformly random legal action: the faces of a roll, a dice choice or a move."""
    if state.dice_due:
        return Roll(tuple(rng.randint(1, 6) for _ in range(state.dice_due)))
    return rng.choice(state.legal_actions())


def finish(game: Game, rng: random.Random, cap: int = 200_000) -> int:
    """Play ``game`` to its end through its step API: seeded random decisions for its people, its
    bots' own for its bots; the dice roll themselves (or, in a game rolled by hand, random faces are
    typed in)."""
    for step in range(cap):
        due = game.due()
        if due.wait is Wait.OVER:
            return step
        if due.wait is Wait.BOT:
            game.play(due, game.think(due))
        elif due.state.is_chance and not game.by_hand:
            game.play(due, ROLL)
        else:
            game.play(due, random_action(due.state, rng))
    raise AssertionError(f"no end after {cap} actions")


def fair_dice_for(rolls: Sequence[Roll], client_seeds: Sequence[str] = ()) -> FairDice:
    """Fair dice whose first rolls are ``rolls``: the first server seed (sha256 of "0", "1", ...)
    that gives them. A search, so keep the rolls short (about 6**dice tries)."""
    faces = [face for roll in rolls for face in roll.dice]
    for attempt in range(10 * 6 ** len(faces) + 100):
        seed = hashlib.sha256(str(attempt).encode()).digest()
        if all(die(seed, client_seeds, k) == face for k, face in enumerate(faces)):
            return FairDice(seed, client_seeds)
    raise AssertionError(f"no server seed found for {faces}")
