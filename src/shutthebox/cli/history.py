"""The history's database folder, checked before a command plays or reads the history.

Apart from `shutthebox.cli.paths` (pathlib) so that ``shutthebox scores`` starts at once.
"""

from __future__ import annotations

import os

from shutthebox.cli.parser import CliError
from shutthebox.storage.location import default_url, sqlite_file

__all__ = ["check_database", "check_history_file"]

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file (an empty file is one too: SQLite makes it one)."""


def check_history_file(file: str) -> None:
    """Refuse a history file that is there but is not a SQLite database: a folder, another kind of
    file, or one that cannot be read. Found now, not after a game is played or when the scores fail."""
    if not os.path.lexists(file):
        return
    if os.path.isdir(file):
        raise CliError("the history at {path!r} is a folder, not a database", path=file)
    try:
        with open(file, "rb") as held:
            head = held.read(len(SQLITE_HEADER))
    except OSError as error:
        raise CliError("the history at {path!r} cannot be read: {error}",
                       path=file, error=error.strerror or error) from None
    if head and head != SQLITE_HEADER:
        raise CliError("the history at {path!r} is not a database (not a SQLite file)", path=file)


def check_database(create: bool) -> None:
    """Refuse a history that cannot be reached: the data folder (``create``: made now, as playing
    would) or the folder of ``$SHUTTHEBOX_DB``'s SQLite file not a folder one can use, or the file
    itself not a SQLite database (`check_history_file`)."""
    try:
        url = default_url()
    except OSError as error:
        raise CliError("the history's folder {folder!r} cannot be created: {error}",
                       folder=error.filename, error=error.strerror or error) from None
    file = sqlite_file(url)
    if file is None:
        return
    folder = os.path.dirname(os.path.abspath(file))  # os.path, not pathlib: `scores` starts light
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise CliError("the history's database {path!r} cannot be made: {folder!r} is not a folder",
                       path=file, folder=folder)
    check_history_file(file)
    if not create:
        return
    if not os.path.isdir(folder):
        raise CliError("the history's database {path!r} cannot be made: the folder {folder!r} does not exist",
                       path=file, folder=folder)
    if not os.access(file if os.path.exists(file) else folder, os.W_OK):
        raise CliError("the history's database {path!r}: no permission to write there", path=file)
