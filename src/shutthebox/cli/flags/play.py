"""The flags of ``shutthebox play``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import add_rules_options, named, positive, whole
from shutthebox.i18n import _
from shutthebox.i18n.words import STRENGTHS, strength_name
from shutthebox.strategy.names import BOT_NAMES

__all__ = ["play_arguments"]


def play_arguments(play: argparse.ArgumentParser) -> None:
    play.add_argument(
        "players", nargs="*", metavar=_("PLAYER"),
        help=_("names of the people playing, in seating order (default: one, '{name}')").format(
            name=_("Player")
        ),
    )
    play.add_argument("--bot", action="append", metavar=_("STRENGTH_OR_NAME"), help=_(
        "add a bot after the people: a strength ({strengths}) or a bot name ({bots}); repeat for more bots"
    ).format(strengths=", ".join(map(strength_name, STRENGTHS)), bots=", ".join(BOT_NAMES)))
    play.add_argument(
        "--companion", action="store_true",
        help=_("playing at a real box: type the dice you rolled, and see the best move each time"),
    )
    play.add_argument("--seed", type=whole, help=_(
        "a practice game: dice and bots from this seed, so it can be played again; it counts for no best "
        "(without it the dice are fair and the game ranked, docs/fairness.md)"
    ))
    play.add_argument("--rounds", type=positive, default=1, help=_("rounds in a round game (1)"))
    play.add_argument("--save", type=named, metavar=_("FILE"), help=_(
        "write the game record (JSON) to FILE, checked before play; each further game of the sitting "
        "to its own file beside it (game-2.json, game-3.json, …)"
    ))
    play.add_argument(
        "--plain",
        action="store_true", help=_("line-by-line text (also used when not a terminal)"),
    )
    play.add_argument(
        "--setup", action="store_true", help=_("open the setup screen first (full-screen game only)")
    )
    add_rules_options(play)
