"""The flags of ``shutthebox replay`` and ``shutthebox verify``: part of the parser, light to import."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import named
from shutthebox.i18n import _

__all__ = ["replay_arguments", "verify_arguments"]


def replay_arguments(replay: argparse.ArgumentParser) -> None:
    replay.add_argument(
        "file", type=named, metavar=_("FILE"), help=_("game record written by --save or the web app")
    )
    replay.add_argument("--json", action="store_true", help=_("print the replayed result as JSON"))


def verify_arguments(verify: argparse.ArgumentParser) -> None:
    verify.add_argument(
        "file", type=named, metavar=_("RECORD"), help=_("game record written by --save or the web app")
    )
    verify.add_argument(
        "--json", action="store_true",
        help=_("print the verdict as one JSON object (same exit status)"),
    )
