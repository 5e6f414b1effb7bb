"""``shutthebox play``: a game in the terminal, full screen or line by line, kept in the history.

Textual, the storage and the solver are imported only once the game starts, so ``--help`` starts
at once; `play_setup` is also how ``shutthebox daily`` plays the day's challenge.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import partial
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
from shutthebox.term.records import RecordFiles
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
    finished game in the history, and write the records to ``save_to`` if given: each game's as it
    ends (`RecordFiles`), the game left unfinished on leaving; 1 if a record could not be written."""

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
            print(f"shutthebox {args.command}: {warning}", file=sys.stderr)
            plain = True
    files = RecordFiles(partial(numbered, save_to)) if save_to is not None else None
    records: list[GameRecord] = []
    status = 0  # 143 when the full-screen game ended on a SIGTERM
    if plain:
        record, status = _play_plain(setup)
        records = [record] if record is not None else []
    else:
        def keep(game: Game, played: PlaySetup) -> list[str]:
            lines = _saved(game, played.humans)
            written = files.write(game.record()) if files is not None else None
            return lines + (written.lines() if written is not None else [])

        app = ShutTheBoxApp(setup, lang=args.lang, save=keep, setup_first=setup_first)
        record = app.run()
        status = app.return_code or 0
        records = list(app.saved)  # every game finished, not only the last (`n` starts another)
        if record is not None:
            records.append(record)  # the game left unfinished (a finished one is not written twice)
    if files is None:
        return status
    for record in records:
        files.write(record)
    _say_written(files)
    return status or (1 if files.failed else 0)


def _say_written(files: RecordFiles) -> None:
    """Each game's file, once the screen is gone: where it was written, or why it could not be."""
    for written in files.written:
        if written.error is not None:
            print(_("{prog}: error: {reason}").format(prog="shutthebox play", reason=_(
                "the game record could not be written to {path!r}: {error}"
            ).format(path=str(written.path), error=written.error)), file=sys.stderr)
            continue
        print(_("Game record saved to {path}").format(path=written.path))
        if written.verifiable:
            print(_("Anyone can check its dice: shutthebox verify {path}").format(path=written.path))


def _saved(game: Game, humans: Sequence[str]) -> list[str]:
    """Keep a finished game in the history (`term.saving.save_finished`): without SQLAlchemy (the tui
    extra) the game was played all the same, and only its saving is refused, in a line."""
    try:
        from shutthebox.term.saving import save_finished  # the tui extra: SQLAlchemy, only to save
    except ImportError as error:
        return [_("The game could not be saved to the history: {reason}").format(reason=say(error))]
    return save_finished(game, humans)


def _play_plain(setup: PlaySetup) -> tuple[GameRecord | None, int]:
    """The line-by-line game on standard input and output; the record if it began, and the exit
    status (1 when the input ended in the middle of the game)."""

    game = setup.new_game()
    plain = PlainGame(game, stdin=sys.stdin, stdout=sys.stdout, hint=hint_text)
    if plain.run() is not None:
        for line in _saved(game, setup.humans):
            print(line)
    return (game.record() if game.events else None), plain.status
