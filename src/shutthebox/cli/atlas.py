"""``shutthebox atlas OUTDIR``: the strategy atlas, a static report of tables and plots.

The folder is made and tried for writing before the minutes of computing, and the
computing shows its steps on standard error (a terminal only, unless ``--no-progress``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shutthebox.cli import progress
from shutthebox.cli.parser import CliError
from shutthebox.cli.paths import check_folder, writable_file
from shutthebox.core.errors import N_
from shutthebox.i18n import _
from shutthebox.reports.atlas import write_atlas
from shutthebox.strategy.atlas import atlas, atlas_steps

__all__ = ["run_atlas"]

PART_WORDS = {
    "boards": N_("boards and one-die rules"),
    "openings": N_("opening moves"),
    "objectives": N_("objectives"),
    "edges": N_("the first player"),
    "stakes": N_("stakes"),
    "rounds": N_("rounds of two to eight"),
    "bots": N_("the bots"),
}
"""What the progress bar says of each part of the atlas (`shutthebox.strategy.atlas.PARTS`)."""


def run_atlas(args: argparse.Namespace) -> int:
    if not 2 <= args.tiles <= 12:
        raise CliError("--tiles {tiles}: the atlas covers boards of 2 to 12 tiles", tiles=args.tiles)
    folder = Path(args.folder)
    if folder.exists() and not folder.is_dir():
        raise CliError("{folder!r} is not a folder", folder=args.folder)
    check_folder(args.folder, "OUTDIR")  # made, and a file tried in it, before the minutes of work
    writable_file(str(folder / "index.html"), "OUTDIR")
    # Translators: the unit of the atlas's progress bar, as in "12/40 step".
    bar = progress.counter(atlas_steps(args.tiles), _("step"), args.no_progress)

    started = 0

    def step(part: str) -> None:
        """A step starts: the one before it is done; the bar names the part now computed."""
        nonlocal started
        if bar is None:
            return
        if started:
            bar.update(1)
        started += 1
        if bar.desc != _(PART_WORDS[part]):  # drawn as each part starts, however quick its steps
            bar.set_description_str(_(PART_WORDS[part]))

    try:
        made = atlas(args.tiles, args.games, args.seed, step=step)
        if bar is not None:
            bar.update(1)  # the last step
    finally:
        if bar is not None:
            bar.close()
    try:
        index = write_atlas(made, folder)
    except OSError as error:
        raise CliError("{folder!r}: {error}", folder=args.folder, error=error.strerror or error) from None
    print(_("The atlas is written: open {index} in a browser.").format(index=index))
    return 0
