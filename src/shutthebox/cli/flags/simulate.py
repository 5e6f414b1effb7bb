"""The flags of ``shutthebox simulate``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import add_rules_options, named, natural, number_type
from shutthebox.core.errors import N_
from shutthebox.i18n import _
from shutthebox.strategy.names import STRATEGIES

__all__ = ["MOST_GAMES", "simulate_arguments"]


def _strategies() -> str:
    shown = "; ".join(f"{name}: {_(described)}" for name, described in STRATEGIES.items())
    return _("strategies: {strategies}").format(strategies=shown)


def simulate_arguments(simulate: argparse.ArgumentParser) -> None:
    simulate.epilog = _strategies()
    simulate.add_argument("--strategy", choices=list(STRATEGIES), default="optimal", help=_("strategy"))
    simulate.add_argument("--games", type=_count, default=100_000, help=_("number of games (100000)"))
    simulate.add_argument("--seed", type=natural, default=0, help=_("seed of the dice (0)"))
    simulate.add_argument("--target", type=_target, metavar="K", help=_(
        "also report P(score < K), K 1 or more; optimal-beat aims at it"
    ))
    simulate.add_argument("--vs", metavar=_("BOT"), help=_("play matches against this bot instead"))
    simulate.add_argument(
        "--plot", type=named, metavar=_("FILE"), help=_("plot the score distribution (.png or .svg)")
    )
    simulate.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    add_rules_options(simulate)
    simulate.add_argument("--json", action="store_true", help=_("print one JSON object"))


def _games(text: str) -> int:
    """A number of games: ``100000``, ``100_000`` or ``1e5``."""
    return int(float(text)) if "e" in text.lower() else int(text.replace("_", ""))


MOST_GAMES = 10**9
"""The most games one run simulates: minutes of work at the fastest strategy, not centuries."""
_count = number_type(_games, 1, MOST_GAMES)
_target = number_type(
    int, 1, out_of_range=N_("{text!r}: no score is under {value} (a score is 0 or more): give 1 or more")
)
"""K of P(score < K): a score is 0 or more, so 1 is the least K a score is under (shutting the box)."""
