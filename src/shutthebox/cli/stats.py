"""The ``stats`` subcommand: a player's statistics in the terminal, the numbers the web page draws.

The numbers are `storage.stats`'s, as ``GET /api/players/{name}/stats`` serves them; ``--json``
prints that same object. Two differences, both documented in ``--help``: the bests count ranked
games of every source (the web counts its own games only), and every game is reviewed with the
exact solver, unbounded (a server skips a review over its budget). `stats_lines` is pure: the
object in, the lines out.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shutthebox.cli.parser import CliError
from shutthebox.cli.printable import printable
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.i18n import _, ngettext
from shutthebox.storage import Database, GameRepository, ProfileRepository
from shutthebox.storage.location import default_url, sqlite_file
from shutthebox.storage.stats import Mark, collect, marks_of
from shutthebox.strategy.review import review
from shutthebox.term.profile import read_profile
from shutthebox.term.scores import rules_words

__all__ = ["run_stats", "stats_lines"]

BAR_WIDTH = 30
"""The longest bar of a chart, in characters."""
_COLOURS = {"S": "32", "A": "36", "B": "34", "C": "33", "F": "31"}
"""ANSI colours of the grades' bars (the scores' bars are the box's wood, yellow)."""


def _bar(count: int, most: int, glyph: str) -> str:
    """A bar as long as ``count`` is to ``most``; never empty for a count above zero."""
    if count <= 0 or most <= 0:
        return ""
    return glyph * max(1, round(count * BAR_WIDTH / most))


def _paint(text: str, code: str, colour: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if colour and text else text


def _number(value: object) -> str:
    return "—" if value is None else str(value)


def _trimmed(bars: list[dict[str, int]]) -> list[dict[str, int]]:
    """The bars of a histogram from the first score to the last, each run of empty bars between made one
    (one score of 47 is one row, not sixteen)."""
    full = [i for i, bar in enumerate(bars) if bar["count"]]
    if not full:
        return []
    rows: list[dict[str, int]] = []
    for bar in bars[full[0]:full[-1] + 1]:
        if not bar["count"] and rows and not rows[-1]["count"]:
            rows[-1] = {**rows[-1], "high": bar["high"]}
        else:
            rows.append(dict(bar))
    return rows


def stats_lines(found: dict[str, Any], *, colour: bool = False, glyph: str = "#") -> list[str]:
    """The statistics object of `storage.stats.player_stats` as lines of plain text: per board and
    rules the games, average, lowest and highest, a bar chart of the scores and of the grades, the
    best; then the accuracy. ANSI colour only with ``colour``; the text the history holds (a name, a
    rules key, a date) as `printable` writes it."""

    games, turns = found["games"], found["turns"]
    lines = [_("Statistics of {player}: {games}, {turns}").format(
        player=printable(found["player"]),
        games=ngettext("{n} game", "{n} games", games).format(n=games),
        turns=ngettext("{n} scored turn", "{n} scored turns", turns).format(n=turns),
    )]
    if found["truncated"]:
        lines.append(_("(only the newest {n} turns are counted)").format(n=turns))
    if not found["groups"]:
        lines.append(_("No games on these boards yet."))
    for group in found["groups"]:
        lines.append("")
        key = group["rules_key"]
        rules = rules_words(key)  # its words name the board size, unless the key is unknown
        unknown = ngettext("{tiles} tile, {rules}", "{tiles} tiles, {rules}", group["tiles"]).format(
            tiles=group["tiles"], rules=key
        )
        lines.append(printable(rules if rules != key else unknown))
        lines.append("  " + _("games {games} · turns {turns} · average {average} · lowest {lowest} · "
                              "highest {highest}").format(
            games=group["games"], turns=group["turns"], average=_number(group["average"]),
            lowest=_number(group["lowest"]), highest=_number(group["highest"]),
        ))
        best = group["best"]
        if best is not None:
            lines.append("  " + _("best {score} ({grade}) on {date}").format(
                score=best["score"], grade=best["grade"], date=printable(best["finished_at"][:10]),
            ))
        bars = _trimmed(group["histogram"])
        if bars:
            lines.append("  " + _("Scores"))
            most = max(bar["count"] for bar in bars)
            labels = [str(b["low"]) if b["low"] == b["high"] else f"{b['low']}-{b['high']}" for b in bars]
            wide = max(len(label) for label in labels)
            for label, bar in zip(labels, bars, strict=True):
                drawn = _paint(_bar(bar["count"], most, glyph), "33", colour)
                lines.append(f"    {label:>{wide}} {drawn} {bar['count']}")
        if group["turns"]:
            lines.append("  " + _("Grades"))
            most = max(row["count"] for row in group["grades"])
            for row in group["grades"]:
                drawn = _paint(_bar(row["count"], most, glyph), _COLOURS.get(row["grade"], "0"), colour)
                lines.append(f"    {row['grade']} {drawn} {row['count']}".rstrip())
    accuracy = found["accuracy"]
    if accuracy["mean"] is not None:
        reviewed = len(accuracy["games"])
        lines.append("")
        said = _("Accuracy {percent} over {games}; best move in {best} of {decisions} decisions")
        lines.append(said.format(
            percent=f"{accuracy['mean']} %",
            games=ngettext("{n} reviewed game", "{n} reviewed games", reviewed).format(n=reviewed),
            best=accuracy["best"], decisions=accuracy["decisions"],
        ))
    return lines


def _name_of(args: argparse.Namespace) -> str:
    if args.name is not None:
        name: str = args.name
        return name

    profile = read_profile()
    if profile is None:
        raise CliError("name a player: this machine has no profile yet")
    return profile.name


def _mark_of(games: GameRepository) -> Callable[[int, str], Mark | None]:
    """Each game's review mark, by the exact solver (the command line has no budget to keep)."""

    shown = sys.stderr.isatty()  # the reviews can take seconds: say which one runs, on a terminal
    reviewed = 0

    def mark_of(game_id: int, seat: str) -> Mark | None:
        nonlocal reviewed
        reviewed += 1
        if shown:
            said = _("Reviewing game {n} with the solver…").format(n=reviewed)
            print(f"\r{said}\x1b[K", end="", file=sys.stderr, flush=True)
        return marks_of(review(games.game(game_id).record)).get(seat)

    return mark_of


def _collect(url: str | None, name: str) -> dict[str, Any] | None:
    try:

        url = url if url is not None else default_url()
        file = sqlite_file(url)
        if file is not None and not Path(file).is_file():  # read, never create
            raise CliError("no games are stored in {file!r}", file=file)
        with Database.open(url) as database:
            games = GameRepository(database)
            try:
                return collect(games, ProfileRepository(database), name, _mark_of(games))
            finally:
                if sys.stderr.isatty():
                    print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    except ShutTheBoxError:
        raise
    except Exception as error:  # a database that cannot be opened or read: one line, not a traceback
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise CliError("the history cannot be read: {reason}", reason=reason) from None


def run_stats(args: argparse.Namespace) -> int:
    name = _name_of(args)
    found = _collect(args.db, name)
    if found is None:
        raise CliError("no profile is named {name!r} and no game was played under that name", name=name)
    if args.tiles is not None:
        found["groups"] = [g for g in found["groups"] if g["tiles"] == args.tiles]
    if args.json:
        print(printable(json.dumps(found, ensure_ascii=False)))
        return 0
    terminal = sys.stdout.isatty()
    try:
        "█".encode(sys.stdout.encoding or "ascii")
        glyph = "█"
    except (UnicodeEncodeError, LookupError):
        glyph = "#"
    colour = terminal and not os.environ.get("NO_COLOR")
    for line in stats_lines(found, colour=colour, glyph=glyph):
        print(line)
    return 0
