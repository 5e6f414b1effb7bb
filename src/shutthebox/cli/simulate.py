"""``shutthebox simulate``: many turns of a strategy (vectorized), or whole matches between two bots,
with a plot of the scores when matplotlib is installed."""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from shutthebox.cli import progress as shown_progress
from shutthebox.cli.parser import CliError, rules_from_args
from shutthebox.cli.paths import writable_file
from shutthebox.cli.solving import emit, pct
from shutthebox.core.errors import ParseError, RulesError
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import _
from shutthebox.i18n.words import rules_line
from shutthebox.strategy.bots import Bot, make_bot
from shutthebox.strategy.simulate import simulate, simulate_matches

__all__ = ["run_simulate"]


def run_simulate(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.vs:
        return _simulate_matches(args, rules)

    plot = _plot_path(args.plot) if args.plot else None  # refused before the games are played
    progress = _progress(args.games, args.no_progress or args.json)
    try:
        result = simulate(
            rules, args.strategy, args.games, seed=args.seed, target=args.target,
            progress=progress.update if progress else None,
        )
    finally:
        if progress:
            progress.close()
    data = result.to_json()
    lo, hi = result.mean_ci
    slo, shi = result.shut_ci
    lines = [
        _("{games} games of {strategy}, {rules}, seed {seed}").format(
            games=args.games, strategy=args.strategy, rules=rules_line(rules), seed=args.seed
        ),
        "  " + _("mean score  {mean}  (95% CI {lo} .. {hi})").format(
            mean=f"{result.mean_score:.4f}", lo=f"{lo:.4f}", hi=f"{hi:.4f}"
        ),
        "  " + _("shut rate   {rate}  (95% CI {lo} .. {hi})").format(
            rate=pct(result.shut_rate), lo=pct(slo), hi=pct(shi)
        ),
        "  " + _("speed       {speed} games/s").format(speed=f"{result.games_per_second:,.0f}"),
    ]
    if result.beat_rate is not None:
        lines.insert(3, "  " + _("under {k}    {rate}").format(k=args.target, rate=pct(result.beat_rate)))
    if plot:
        try:
            _plot(plot, result)
        except OSError as error:
            reason = error.strerror or error
            raise CliError("--plot {path!r}: {error}", path=args.plot, error=reason) from None
        lines.append(_("Score distribution plotted to {path}").format(path=args.plot))
    return emit(args, data, lines)


def _progress(games: int, quiet: bool) -> Any:
    if quiet or games < 5_000_000:
        return None

    # Translators: the unit of the progress bar of a long simulation, as in "2.5Mgame/s".
    return tqdm(total=games, unit=_("game"), unit_scale=True, file=sys.stderr, leave=False)


def _plot_path(text: str) -> Path:
    """The file to plot into; refused before any game is played (a wrong suffix, no matplotlib)."""

    path = Path(text)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ParseError("--plot {path!r}: the file must end in .png or .svg", path=text)


    if importlib.util.find_spec("matplotlib") is None:
        raise CliError("--plot needs matplotlib: pip install 'shutthebox[sim]'")
    return writable_file(text, "--plot")


def _plot(path: Path, result: Any) -> None:
    import matplotlib  # the sim extra, for --plot alone (checked by `_plot_path` before the games)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scores = sorted(result.scores)
    shares = [result.scores[s] / result.games for s in scores]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar([str(s) for s in scores] if len(scores) > 60 else scores, shares, color="#8b5a2b")
    ax.set_xlabel(_("final score"))
    ax.set_ylabel(_("share of games"))
    ax.set_title(_("{strategy}: {games} games, {tiles} tiles, mean {mean}, shut {shut} %").format(
        strategy=result.strategy, games=f"{result.games:,}", tiles=result.rules.tiles,
        mean=f"{result.mean_score:.3f}", shut=f"{100 * result.shut_rate:.2f}",
    ))
    if len(scores) > 60:
        ax.set_xticks([])
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _simulate_matches(args: argparse.Namespace, rules: Rules) -> int:
    if rules.mode is Mode.SOLO:
        raise RulesError("--vs plays matches: choose --mode round, elimination or long")
    names = [args.strategy, args.vs]
    if names[0] == names[1]:
        names = [f"{args.strategy}-1", f"{args.vs}-2"]
    # Translators: the unit of the progress bar of simulated matches, as in "120match/s".
    progress = shown_progress.counter(args.games, _("match"), args.no_progress or args.json)

    def first(rng: random.Random) -> Bot:
        if progress is not None:  # one first bot is made for each match: it counts the matches
            progress.update(1)
        return make_bot(args.strategy, rng)

    bots = {names[0]: first, names[1]: lambda rng: make_bot(args.vs, rng)}
    try:
        stats = simulate_matches(rules, bots, args.games, seed=args.seed, rounds=1)
    finally:
        if progress is not None:
            progress.close()
    data = {"games": stats.games, "wins": stats.wins, "draws": stats.draws, "rules": rules.to_dict()}
    lines = [
        _("{games} matches, {rules}, seed {seed}").format(
            games=args.games, rules=rules_line(rules), seed=args.seed
        )
    ]
    lines += [
        "  " + _("{name} {wins} wins  ({rate})").format(
            name=f"{name:12}", wins=f"{wins:6}", rate=pct(stats.win_rate(name))
        )
        for name, wins in stats.wins.items()
    ]
    if stats.draws:
        lines.append("  " + _("draws {draws}").format(draws=stats.draws))
    return emit(args, data, lines)


