"""Games to store: scripted ones (fair dice that give the script's rolls, or practice dice), random
fair ones, and the same games made practice, companion or assisted."""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace
from datetime import UTC, datetime
from functools import cache

from shutthebox import DiceChoice, Game, Move, Roll, Rules, ScriptedDice
from shutthebox.core.fair import FairDice
from shutthebox.core.game import ROLL, Step, Wait
from shutthebox.core.record import Event, GameRecord
from shutthebox.storage import Profile, ProfileRepository
from tests.support.drive import fair_dice_for, finish, random_action

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


SOLO3 = Rules(tiles=3, mode="solo")
# Tiles 1-3, one die allowed from the start (high-shut): 3 then 2+1 shuts the box.
SHUT = "d1 r3 m3 d1 r3 m2+1"
# 3 shut, then a 6 on one die: 1 and 2 stay open, score 3.
LEFT_3 = "d1 r3 m3 d1 r6"
# Nothing fits a 4 after shutting 3 then 2: tile 1 stays open, score 1.
LEFT_1 = "d1 r3 m3 d1 r2 m2 d1 r4"


@cache
def _server_seed(rolls: tuple[Roll, ...]) -> bytes:
    """A fair server seed whose first dice are ``rolls`` (searched once per script)."""
    return fair_dice_for(rolls).server_seed


def scripted(rules: Rules, players: list[str], script: str, *, practice: bool = False) -> GameRecord:
    """Play ``script``: ``d1``/``d2`` chooses dice, ``r3,1`` rolls, ``m2+1`` moves.

    The rolls come from the fair dice of a server seed that gives them, so the game is
    ranked; ``practice``: from scripted dice, as a practice game (it counts for no best).
    """
    rolls = tuple(Roll.parse(tok[1:]) for tok in script.split() if tok[0] == "r")
    dice = ScriptedDice(list(rolls)) if practice else FairDice(_server_seed(rolls))
    game = Game(rules, players, dice=dice)
    for token in script.split():
        kind, arg = token[0], token[1:]
        step: Step = DiceChoice(int(arg)) if kind == "d" else ROLL if kind == "r" else Move.parse(arg)
        game.play(game.due(), step)
    return game.record()


def fair_game(rules: Rules, players: list[str], name: str, client_seeds: tuple[str, ...] = ()) -> Game:
    """A finished game on the fair dice of the server seed sha256(``name``), random legal choices."""
    rng = random.Random(name)
    game = Game(rules, players, dice=FairDice(hashlib.sha256(name.encode()).digest(), client_seeds))
    while (due := game.due()).wait is not Wait.OVER:
        game.play(due, ROLL if due.state.is_chance else random_action(due.state, rng))
    return game


def typed_copy(record: GameRecord) -> GameRecord:
    """The same game, its rolls typed in at a real box (companion mode: no seed, no fair dice)."""
    events = [Event(e.player, e.action, typed=isinstance(e.action, Roll)) for e in record.events]
    return replace(record, events=events, seed=None, fairness=None)


def seeded_shut(rules: Rules, player: str) -> GameRecord:
    """A practice game on a chosen seed in which ``player`` shuts the box (the first legal move each time)."""
    for seed in range(1000):
        game = Game(rules, [player], seed=seed)
        while (due := game.due()).wait is not Wait.OVER:
            game.play(due, ROLL if due.state.is_chance else due.state.legal_actions()[0])
        if game.state.history[0].score == 0:
            return game.record()
    raise AssertionError("no seed below 1000 shuts the box")


def seeded_game(rules: Rules, players: list[str], seed: int) -> GameRecord:
    """A finished practice game on the chosen ``seed``, random legal choices."""
    game = Game(rules, players, seed=seed)
    finish(game, random.Random(seed))
    return game.record()


@cache
def revisions() -> tuple[str, ...]:
    """Every migration's revision, oldest first."""
    from alembic.script import ScriptDirectory

    from shutthebox.storage.database import alembic_config

    script = ScriptDirectory.from_config(alembic_config(None))
    return tuple(revision.revision for revision in reversed(list(script.walk_revisions())))


def newest_revision() -> str:
    """The revision a database is migrated to when opened (Alembic's head)."""
    return revisions()[-1]


def profiles_of(profiles: ProfileRepository, *names: str) -> dict[str, Profile]:
    """A new profile for each name."""
    return {name: profiles.create(name)[0] for name in names}
