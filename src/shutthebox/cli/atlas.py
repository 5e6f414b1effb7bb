"""``shutthebox atlas OUTDIR``: the strategy atlas, a static report of tables and plots."""

from __future__ import annotations

import argparse
from pathlib import Path

from shutthebox.cli.parser import CliError, positive, whole
from shutthebox.i18n import _

__all__ = ["atlas_arguments", "run_atlas"]


def atlas_arguments(atlas: argparse.ArgumentParser) -> None:
    atlas.add_argument(
        "folder", metavar="OUTDIR", help=_("the folder to write index.html and its plots into")
    )
    atlas.add_argument("--tiles", type=whole, default=12, help=_("boards of 1 to N tiles (12)"))
    atlas.add_argument(
        "--games", type=positive, default=200_000, help=_("games simulated for each bot (200000)")
    )
    atlas.add_argument("--seed", type=whole, default=0, help=_("seed of the bots' dice (0)"))


def run_atlas(args: argparse.Namespace) -> int:
    from shutthebox.reports.atlas import write_atlas
    from shutthebox.strategy.atlas import atlas

    if not 2 <= args.tiles <= 12:
        raise CliError("--tiles {tiles}: the atlas covers boards of 2 to 12 tiles", tiles=args.tiles)
    folder = Path(args.folder)
    if folder.exists() and not folder.is_dir():
        raise CliError("{folder!r} is not a folder", folder=args.folder)
    try:
        index = write_atlas(atlas(args.tiles, args.games, args.seed), folder)
    except OSError as error:
        raise CliError("{folder!r}: {error}", folder=args.folder, error=error.strerror or error) from None
    print(_("The atlas is written: open {index} in a browser.").format(index=index))
    return 0
