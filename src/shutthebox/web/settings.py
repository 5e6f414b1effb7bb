"""What a web server is started with: where it listens, where it keeps games, how bots pace."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Settings"]


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The settings of `create_app`.

    ``database_url`` wins over ``data_dir``; with neither, the store uses
    ``$SHUTTHEBOX_DB`` or the SQLite file in the user data folder.
    ``bot_delay`` is the pause in seconds before each bot action, so people can
    follow the bots' dice; 0 makes bots answer within the request that woke them.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str | None = None
    data_dir: Path | None = None
    bot_delay: float = 0.6
    max_rooms: int = 500
    room_idle_seconds: float = 6 * 3600.0
