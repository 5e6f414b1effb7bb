"""Where the games are kept: ``$SHUTTHEBOX_DB``, or a SQLite file in the user data folder.

Read by every command that touches the history, so it imports neither
SQLAlchemy nor, on Linux, platformdirs (each a start-up of its own): there the
folder follows the XDG rule platformdirs itself applies (a test holds the two
together); elsewhere platformdirs answers.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["ENV_VAR", "data_folder", "default_url", "sqlite_file"]

ENV_VAR = "SHUTTHEBOX_DB"


def data_folder() -> str:
    """The user data folder of shutthebox (not created here)."""
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser("~/.local/share")
        return os.path.join(base, "shutthebox")
    import platformdirs

    return platformdirs.user_data_dir("shutthebox")


def default_url(data_dir: Path | str | None = None) -> str:
    """``$SHUTTHEBOX_DB`` if set, else a SQLite file ``shutthebox.db`` in ``data_dir``.

    ``data_dir`` defaults to the user data folder; it is created.
    """
    env = os.environ.get(ENV_VAR)
    if env and data_dir is None:
        return env
    folder = os.fspath(data_dir) if data_dir is not None else data_folder()
    os.makedirs(folder, exist_ok=True)
    return f"sqlite:///{os.path.abspath(os.path.join(folder, 'shutthebox.db'))}"


def sqlite_file(url: str) -> str | None:
    """The file of a plain SQLite URL (``sqlite:///games.db``, ``sqlite:////abs/games.db``), its
    ``%XX`` escapes decoded as SQLAlchemy decodes them; None for anything else (another engine, a
    driver, options, a database in memory)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or "?" in url or len(url) == len(prefix) or url.endswith(":memory:"):
        return None
    path = url[len(prefix):]
    if "%" in path:  # urllib.parse only then: it costs a start-up of its own
        from urllib.parse import unquote

        path = unquote(path)
    return path
