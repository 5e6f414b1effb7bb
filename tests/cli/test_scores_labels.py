"""``shutthebox scores`` labels say what each number is: a best out of how many ranked turns, and a
seat with no score says "no score" rather than a lone dash (a long game, which keeps none, names its
players once)."""

from __future__ import annotations

import random
import re

from shutthebox import Game, Mode, Rules
from shutthebox.storage import Database, GameRepository
from shutthebox.term.scores import scores_lines
from tests.support.drive import finish


def test_bests_and_recent_games_read_plainly() -> None:
    """Regression: the bests read "turns: 17" and a long game "Ana —, Luis —"."""
    with Database.open() as database:
        games = GameRepository(database)
        for n in range(2):
            solo = Game(Rules(mode=Mode.SOLO), ["Ana"])
            finish(solo, random.Random(n))
            games.save(solo.record(), source="terminal")
        # seeded so that both play: unseeded, the starter now and then shut every tile in the first
        # turn (a run of the suite met it), and the line had one seat
        long = Game(Rules(mode=Mode.LONG), ["Ana", "Luis"], seed=5)
        finish(long, random.Random(5))
        games.save(long.record(), source="terminal")
    lines = scores_lines(["Ana"])
    text = "\n".join(lines)
    assert "turns:" not in text and "—" not in text
    best = next(line for line in lines if line.startswith("  Ana: best "))
    assert " of 2 ranked turns · " in best
    long_line = next(line for line in lines if "long game" in line.lower() or "Luis" in line)
    # issue 30: a long game keeps no score; its players are named once, not "no score" at each turn
    seats = re.search(r" · (Ana|Luis), (Ana|Luis) · ", long_line)  # in the order they played
    assert seats is not None and set(seats.groups()) == {"Ana", "Luis"}, long_line
    assert "no score" not in long_line
    solo_line = next(line for line in lines if line.startswith("  #") and "Luis" not in line)
    assert "Ana: " in solo_line
