"""The flags of ``shutthebox daily``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse
from urllib.parse import urlsplit

from shutthebox.cli.parser import named, whole
from shutthebox.core.daily import DAILY_TILES
from shutthebox.i18n import _

__all__ = ["daily_arguments", "server_url"]


def server_url(text: str) -> str:
    """A web app's address, ``http://host[:port]`` or ``https://…``: refused now, in one line, if it
    is not one (urllib would fail on it with a traceback)."""
    named(text)
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  # a port that is not a number fails here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a web address such as http://127.0.0.1:8000").format(text=text)
        )
    return text


def daily_arguments(daily: argparse.ArgumentParser) -> None:
    daily.add_argument(
        "player", nargs="?", metavar=_("PLAYER"),
        help=_("your name (default: '{name}')").format(name=_("Player")),
    )
    daily.add_argument("--tiles", type=whole, default=DAILY_TILES[0], help=_(
        "the board: {sizes} tiles ({default})"
    ).format(sizes=", ".join(map(str, DAILY_TILES)), default=DAILY_TILES[0]))
    daily.add_argument("--day", metavar="YYYY-MM-DD", help=_("the day to practise (today in UTC by default)"))
    daily.add_argument("--json", action="store_true", help=_(
        "print the day's challenges (each commitment, and each seed once the day is over) and play nothing"
    ))
    daily.add_argument("--server", metavar="URL", type=server_url, help=_(
        "play today's ranked attempt on the web app at URL (e.g. http://127.0.0.1:8000)"
    ))
    daily.add_argument(
        "--plain", action="store_true", help=_("line-by-line text (also used when not a terminal)")
    )
