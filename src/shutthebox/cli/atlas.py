"""``shutthebox atlas OUTDIR``: the strategy atlas, a static report of tables and plots."""

from __future__ import annotations

import argparse
from pathlib import Path

from shutthebox.cli.parser import CliError
from shutthebox.i18n import _
from shutthebox.reports.atlas import write_atlas
from shutthebox.strategy.atlas import atlas

__all__ = ["run_atlas"]


def run_atlas(args: argparse.Namespace) -> int:
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
