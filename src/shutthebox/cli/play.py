"""``shutthebox play``: a game in the terminal, full screen or line by line, kept in the history.

Textual, the storage and the solver are imported only once the game starts, so ``--help`` starts
at once; `play_setup` is also how ``shutthebox daily`` plays the day's challenge.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from shutthebox.cli.parser import RULE_FLAGS, rules_from_args
from shutthebox.cli.paths import check_database, numbered, writable_file
from shutthebox.cli.table import check_table
from shutthebox.core.game import Game
from shutthebox.core.record import GameRecord
from shutthebox.core.rules import Mode
from shutthebox.i18n import _, say
from shutthebox.term.hints import hint_text
from shutthebox.term.plain import PlainGame
from shutthebox.term.session import PlaySetup, mode_for

__all__ = ["play_setup", "run_play"]


def _setup_from_args(args: argparse.Namespace) -> PlaySetup:
    """The game the ``play`` flags describe: people, bots, rules and dice."""

    humans = tuple(args.players) or (_("Player"),)
    bots = tuple(args.bot or ())
    rules = rules_from_args(args)
    if args.mode is None and rules.mode is Mode.ROUND:
        rules = rules.but(mode=mode_for(len(humans) + len(bots), None))
    check_table(rules, humans, bots, rounds=args.rounds, companion=args.companion, seed=args.seed)
    setup = PlaySetup(
        rules=rules,
        humans=humans,
        bots=bots,
        companion=args.companion,
        seed=args.seed,
        rounds=args.rounds,
        lang=args.lang,
    )
    setup.new_game()  # refuse a bad table (a long game for three, an unknown bot) before play
    return setup


def _wants_setup_screen(args: argparse.Namespace) -> bool:
    """``play`` with no players, bots or rule flags opens the setup screen (or ``--setup``)."""
    given = [getattr(args, name) for name in (*RULE_FLAGS, "preset", "seed")]
    return args.setup or not (args.players or args.bot or args.companion or any(
        value is not None for value in given
    ))


def run_play(args: argparse.Namespace) -> int:
    save_to = writable_file(args.save, "--save") if args.save else None  # not after a whole game
    check_database(create=True)
    return play_setup(_setup_from_args(args), args, save_to, setup_first=_wants_setup_screen(args))


def play_setup(setup: PlaySetup, args: argparse.Namespace, save_to: Path | None, *, setup_first: bool) -> int:
    """Play ``setup`` full screen (or line by line with ``--plain``, or off a terminal), keep each
    finished game in the history, and write the records to ``save_to`` if given."""

    plain = args.plain or not sys.stdout.isatty()
    if not plain:
        try:
            from shutthebox.term.app import (
                ShutTheBoxApp,  # the tui extra: else the game is played line by line
            )
        except ImportError:
            warning = _(
                "the full-screen game needs Textual: pip install 'shutthebox[tui]'; playing line by line"
            )
            print(f"shutthebox: {warning}", file=sys.stderr)
            plain = True
    records: list[GameRecord] = []
    if plain:
        record = _play_plain(setup)
        records = [record] if record is not None else []
    else:
        def keep(game: Game, played: PlaySetup) -> list[str]:
            return _saved(game, played.humans)

        app = ShutTheBoxApp(setup, lang=args.lang, save=keep, setup_first=setup_first)
        record = app.run()
        records = list(app.saved)  # every game finished, not only the last (`n` starts another)
        if record is not None and not any(r.dumps() == record.dumps() for r in records):
            records.append(record)  # the game left unfinished
    if save_to is not None:
        _save_records(save_to, records)
    return 0


def _save_records(path: Path, records: Sequence[GameRecord]) -> None:
    """Each game to a file of its own: ``path`` for the first, ``name-2.json`` and on for more."""

    for number, record in enumerate(records, start=1):
        where = numbered(path, number)
        try:
            record.save(where)
        except OSError as error:  # the folder went away during the game: say so, keep the others
            print(_("shutthebox: error: {reason}").format(reason=_(
                "the game record could not be written to {path!r}: {error}"
            ).format(path=str(where), error=error.strerror or error)), file=sys.stderr)
            continue
        print(_("Game record saved to {path}").format(path=where))
        if record.fairness is not None and record.fairness.revealed:
            print(_("Anyone can check its dice: shutthebox verify {path}").format(path=where))


def _saved(game: Game, humans: Sequence[str]) -> list[str]:
    """Keep a finished game in the history (`term.saving.save_finished`): without SQLAlchemy (the tui
    extra) the game was played all the same, and only its saving is refused, in a line."""
    try:
        from shutthebox.term.saving import save_finished  # the tui extra: SQLAlchemy, only to save
    except ImportError as error:
        return [_("The game could not be saved to the history: {reason}").format(reason=say(error))]
    return save_finished(game, humans)


def _play_plain(setup: PlaySetup) -> GameRecord | None:
    """The line-by-line game on standard input and output; the record if it began."""

    game = setup.new_game()
    final = PlainGame(game, stdin=sys.stdin, stdout=sys.stdout, hint=hint_text).run()
    if final is not None:
        for line in _saved(game, setup.humans):
            print(line)
    return game.record() if game.events else None
