"""The flags of ``shutthebox train``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import number_type, whole
from shutthebox.i18n import _

__all__ = ["MOST_PUZZLES", "train_arguments"]

MOST_PUZZLES = 100
"""The most puzzles of one session: more than anyone solves at a sitting."""


def train_arguments(train: argparse.ArgumentParser) -> None:
    train.add_argument("player", nargs="?", metavar=_("PLAYER"), help=_(
        "your name, the first time (later this machine's profile answers)"
    ))
    train.add_argument("--goal", default="score", help=_("score, shut, beat-10 or long (score)"))
    train.add_argument("--preset", default="web", help=_("the rule set (web)"))
    train.add_argument("--tiles", type=whole, default=9, help=_("tiles on the board (9)"))
    train.add_argument("--seed", type=whole, default=None, help=_(
        "seed of the puzzles dealt among those as near your rating (a new one each session)"
    ))
    train.add_argument(
        "--count", type=number_type(int, 1, MOST_PUZZLES), default=10, help=_("puzzles in the session (10)")
    )
