"""The flags of ``shutthebox atlas``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.flags.simulate import MOST_GAMES
from shutthebox.cli.parser import named, natural, number_type, whole
from shutthebox.i18n import _

__all__ = ["atlas_arguments"]


def atlas_arguments(atlas: argparse.ArgumentParser) -> None:
    atlas.add_argument(
        "folder", type=named, metavar=_("OUTDIR"), help=_("the folder to write index.html and its plots into")
    )
    atlas.add_argument("--tiles", type=whole, default=12, help=_("boards of 1 to N tiles (12)"))
    atlas.add_argument(
        "--games", type=number_type(int, 1, MOST_GAMES), default=200_000,
        help=_("games simulated for each bot (200000)"),
    )
    atlas.add_argument("--seed", type=natural, default=0, help=_("seed of the bots' dice (0)"))
    atlas.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
