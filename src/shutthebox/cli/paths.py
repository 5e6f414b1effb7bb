"""Paths a command will write, checked before any work starts.

A game played to the end, a million games simulated or a long game solved must
not be lost to a folder that does not exist: every file a command writes
(``--save``, ``--plot``, ``--table``) and the history's database folder are
checked first, and a bad one is refused in one line (exit status 2).
"""

from __future__ import annotations

import os
from pathlib import Path

from shutthebox.cli.history import check_database
from shutthebox.cli.parser import CliError

__all__ = ["check_database", "check_folder", "numbered", "writable_file"]


def writable_file(text: str, flag: str) -> Path:
    """The file ``flag`` names, refused now if it could not be written later: its folder missing,
    not a folder or not writable, or the file itself a folder or read-only."""
    path = Path(text)
    folder = path.parent
    if not text or path.name in ("", ".", ".."):
        raise CliError("{flag} {path!r}: not a file name", flag=flag, path=text)
    if not folder.exists():
        raise CliError("{flag} {path!r}: the folder {folder!r} does not exist",
                       flag=flag, path=text, folder=str(folder))
    if not folder.is_dir():
        raise CliError("{flag} {path!r}: {folder!r} is not a folder",
                       flag=flag, path=text, folder=str(folder))
    if path.is_dir():
        raise CliError("{flag} {path!r}: that is a folder, not a file", flag=flag, path=text)
    target = path if path.exists() else folder
    if not os.access(target, os.W_OK):
        raise CliError("{flag} {path!r}: no permission to write there", flag=flag, path=text)
    _probe(path, flag, text)
    return path


def _probe(path: Path, flag: str, text: str) -> None:
    """Open ``path`` for writing now, as the write will (a file there: kept as it is; none: made and
    removed): what permissions do not tell (a read-only file system, /proc, root's rights) fails here,
    not after the work."""
    try:
        if path.exists():
            with path.open("r+b"):
                pass
        else:
            with path.open("xb"):
                pass
            path.unlink()
    except OSError as error:
        raise CliError("{flag} {path!r}: cannot be written: {error}",
                       flag=flag, path=text, error=error.strerror or error) from None


def numbered(path: Path, number: int) -> Path:
    """The file of the ``number``-th game saved to ``path``: the first ``game.json``, then
    ``game-2.json``, ``game-3.json``…, side by side in the same folder."""
    return path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")


def check_folder(text: str, flag: str) -> Path:
    """The folder ``flag`` names, made now if missing; refused in one line if it cannot be."""
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CliError("{flag} {path!r}: the folder cannot be made: {error}",
                       flag=flag, path=text, error=error.strerror or error) from None
    return path
