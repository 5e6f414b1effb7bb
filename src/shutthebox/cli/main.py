"""The ``shutthebox`` command: play, replay, verify, serve, and the tools built on the solver.

Bad arguments exit with status 2 and one line naming what is wrong, in the
user's language (``--lang``, else the locale), never a traceback. Only the
subcommand being run gets its flags built, so ``shutthebox --help`` and
``shutthebox scores`` start at once: the solver, the storage, the terminal
and web apps are imported only by the commands that need them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from shutthebox import __version__
from shutthebox.cli.parser import CliError, Parser
from shutthebox.cli.printable import printable
from shutthebox.core.errors import N_, ShutTheBoxError
from shutthebox.i18n import _, activate, detect_language, languages, say

__all__ = ["COMMANDS", "Command", "build_parser", "main"]


class Command:
    """A subcommand: its name, its help line and description (catalog messages), the module holding
    its ``run_<name>(args)``, imported (with all it needs) only when it runs, and the extra
    (``pip install 'shutthebox[extra]'``) whose libraries it may need beyond the base. Its flags,
    ``<name>_arguments(parser)``, are in the light module of the same name in `shutthebox.cli.flags`,
    imported only when its flags are built."""

    __slots__ = ("description", "extra", "help", "module", "name")

    def __init__(self, name: str, help: str, description: str, module: str, extra: str | None = None) -> None:
        self.name, self.help, self.description, self.module = name, help, description, module
        self.extra = extra

    @property
    def flags(self) -> str:
        """The module of its flags: ``shutthebox.cli.flags.<module's last name>``."""
        return "shutthebox.cli.flags." + self.module.rpartition(".")[2]

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        getattr(import_module(self.flags), f"{self.name}_arguments")(parser)

    def run(self, args: argparse.Namespace) -> int:
        """Run the command; a library of its extra that is not installed (met as its module is imported,
        or later) is refused in one line."""
        try:
            return int(getattr(import_module(self.module), f"run_{self.name}")(args))
        except ModuleNotFoundError as error:
            library = (error.name or "").partition(".")[0]
            if self.extra is None or library in {"", "shutthebox"}:
                raise  # a module of the package itself, or one the base should hold: a bug
            raise CliError(
                "'shutthebox {command}' needs {library}: pip install 'shutthebox[{extra}]'",
                command=self.name, library=library, extra=self.extra,
            ) from None


COMMANDS: tuple[Command, ...] = (
    Command(
        "play",
        N_("play in the terminal"),
        N_(
            "Play a game in the terminal: solo, a round, elimination or the long game, against people "
            "at the same keyboard and bots. Full screen in a terminal, line by line with --plain or when "
            "standard output is not a terminal. One player plays solo and more play a round, unless "
            "--mode (or the long or elimination preset) names another way. With no players, bots or rule "
            "flags the full-screen game opens on its setup screen. Finished games are kept in the history "
            "($SHUTTHEBOX_DB, or a SQLite file in the user data folder); see 'shutthebox scores'."
        ),
        "shutthebox.cli.play",
        "tui",
    ),
    Command(
        "daily",
        N_("practise the day's challenge"),
        N_(
            "Practise the day's challenge in the terminal: the web preset, solo, on the day's dice, which "
            "everyone meets in the same order whatever they choose (9, 10 or 12 tiles). The seeds are "
            "the ones the web app of this machine deals its ranked challenges from, kept in the history "
            "database; the practice counts for no best. --json prints the day's challenges: each "
            "commitment, and each seed once the day is over."
        ),
        "shutthebox.cli.daily",
        "tui",
    ),
    Command(
        "train",
        N_("positions where the obvious move is wrong"),
        N_(
            "Train on positions where a common habit (the highest tiles first, or the board likeliest "
            "to use the next roll) is wrong, found by the exact solver among the positions optimal play "
            "meets, for a goal (the lowest score, shutting the box, scoring under 10, the long game), a "
            "rule set and a board. Each answer is ranked against the others with its value and why; "
            "your rating and each puzzle's difficulty are Glicko-2, kept in the history database under "
            "this machine's profile, and a missed puzzle comes back later."
        ),
        "shutthebox.cli.train",
        "tui",
    ),
    Command(
        "cheatsheet",
        N_("a page to print: the best move for every roll"),
        N_(
            "Write a page to print and keep beside a real box: for the positions optimal play meets "
            "most often under the rules given, the dice to roll and the tiles to shut for every total, "
            "played for the lowest expected score. The web app serves the same page at /api/cheatsheet."
        ),
        "shutthebox.cli.cheatsheet",
    ),
    Command(
        "atlas",
        N_("a report of the game's numbers, with plots"),
        N_(
            "Write the strategy atlas into OUTDIR: a static page (index.html) with the expected score and "
            "the chance to shut the box by board size and one-die rule, the value of every opening "
            "move, where the objective changes the first move, the first player's edge in a round and "
            "in the long game, the stakes per rule set, each seat's chance and stakes in rounds of two "
            "to eight, and each bot's score distribution; every "
            "number computed by the exact solver but the bots', which are simulated. The plots need "
            "matplotlib (pip install 'shutthebox[sim]')."
        ),
        "shutthebox.cli.atlas",
    ),
    Command(
        "scores",
        N_("personal bests and the history of games"),
        N_(
            "Show personal bests per board size and rules, and the recent games, from the history kept "
            "by 'shutthebox play' and the web app."
        ),
        "shutthebox.cli.scores",
        "tui",
    ),
    Command(
        "stats",
        N_("a player's score chart and grade counts"),
        N_(
            "Show a player's statistics per board size and rules, the ones the web page draws: games, "
            "average, lowest and highest score, charts of the scores and of the grades, the best, and "
            "the accuracy of the newest games reviewed by the exact solver. --json prints the web "
            "endpoint's object (/api/players/NAME/stats); here the bests count ranked games of every "
            "source, the web's only its own."
        ),
        "shutthebox.cli.stats",
        "tui",
    ),
    Command(
        "replay",
        N_("check and replay a game record"),
        N_("Load a game record (JSON), check every action, and print how it went."),
        "shutthebox.cli.records",
    ),
    Command(
        "verify",
        N_("prove a game's dice were fair"),
        N_(
            "Check a game record of fair dice (docs/fairness.md): the revealed server seed is the one "
            "committed to before play, every die is the one the seeds give, every move is legal and "
            "every turn ends as recorded. Exit status 0 when all is proven; 1 when not: the first event "
            "that fails is named, and a file that is not a game record (not JSON, not UTF-8 text, larger "
            "than any record) is not proven either; 2 when there is no file to read (none by that name, a "
            "folder, no permission) or the command line is refused."
        ),
        "shutthebox.cli.records",
    ),
    Command(
        "solve",
        N_("value of the full board under optimal play"),
        N_("Solve the game exactly: the value of a full board under optimal play."),
        "shutthebox.cli.solve",
    ),
    Command(
        "hint",
        N_("rank the choices of a position"),
        N_(
            "Rank every choice of a position by the exact solver: one die or two before a roll, or every "
            "legal move for a roll."
        ),
        "shutthebox.cli.hint",
    ),
    Command(
        "simulate",
        N_("simulate many games of a strategy"),
        N_("Simulate many turns of a strategy (vectorized), or with --vs whole matches between two bots."),
        "shutthebox.cli.simulate",
    ),
    Command(
        "review",
        N_("grade every decision of a recorded game"),
        N_(
            "Review a game record: each decision graded by what it cost against optimal play, and each "
            "player's accuracy."
        ),
        "shutthebox.cli.review",
    ),
    Command(
        "serve",
        N_("play in the browser: start the web app"),
        N_(
            "Start the web app (solo, pass-and-play, bots, online rooms) and its JSON API. Finished games "
            "go to the database: $SHUTTHEBOX_DB, or a SQLite file in the data folder."
        ),
        "shutthebox.cli.serve",
        "web",
    ),
    Command(
        "loadtest",
        N_("play many games against the web app and measure it"),
        N_(
            "Play many whole solo games through the web app's public API (HTTP, or the room WebSocket), "
            "a number at once, and report the games finished and saved, the errors, the actions per "
            "second and each action's latency (nearest-rank percentiles). Only a server on this "
            "machine is loaded: --url names one, or --spawn starts one of its own for the test. Exit "
            "status 0 when every game finished without an error, 1 when not, 2 for a refused command "
            "line or a server that did not start."
        ),
        "shutthebox.cli.load",
        "web",
    ),
)
"""Every subcommand, in the order ``--help`` lists them."""


def build_parser(only: str | None = None) -> Parser:
    """The command line, in the language in use; with ``only``, the flags of that subcommand alone."""
    lang_help = _("language of the text (from the locale)")
    parser = Parser(
        prog="shutthebox",
        description=_("Shut the Box (Cerrar la Caja, Canoga): play, solve and study the dice game."),
    )
    parser.add_argument(
        "--version", action="version", version=f"shutthebox {__version__}",
        help=_("show the version number and exit"),
    )
    parser.add_argument("--lang", choices=languages(), help=lang_help)
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"), parser_class=Parser)
    for command in COMMANDS:
        child = sub.add_parser(command.name, help=_(command.help), description=_(command.description))
        if only is None or only == command.name:
            command.arguments(child)
            child.add_argument("--lang", choices=languages(), default=argparse.SUPPRESS, help=lang_help)
            child.set_defaults(run=command.run)
    return parser


def _lang_asked(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang X`` or ``--lang=X`` in ``argv``, without parsing it."""
    asked = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif arg.startswith("--lang="):
            asked = arg.partition("=")[2]
    return asked


def _command_asked(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names ("" when none), or None when it is not one (argparse will say so)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--lang":
            skip = True
        elif not arg.startswith("-"):
            return arg if arg in {command.name for command in COMMANDS} else None
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    activate(detect_language(_lang_asked(argv)))
    parser = build_parser(_command_asked(argv))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    args.lang = detect_language(getattr(args, "lang", None))
    activate(args.lang)
    prog = error_prog(args)  # the parser's style: every error of a command is named by it
    try:
        return int(args.run(args))
    except ShutTheBoxError as error:
        print(printable(_("{prog}: error: {reason}").format(prog=prog, reason=say(error))), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as error:  # a file or folder that failed after the checks: one line, no traceback
        where = f"{error.filename!r}: " if error.filename is not None else ""
        reason = f"{where}{error.strerror or error}"
        print(printable(_("{prog}: error: {reason}").format(prog=prog, reason=reason)), file=sys.stderr)
        return 2


def error_prog(args: argparse.Namespace) -> str:
    """The name an error of a command starts with, as its parser says it: ``shutthebox solve``."""
    return f"shutthebox {args.command}" if getattr(args, "command", None) else "shutthebox"


if __name__ == "__main__":
    raise SystemExit(main())
