"""The ``shutthebox`` command: play, replay, and the tools built on the solver.

Every subcommand that takes rules uses the same flags, named after the rule
options (``--tiles``, ``--one-die``, …, ``--preset``). Bad arguments exit with
status 2 and one line naming what is wrong, in the user's language, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from shutthebox import __version__
from shutthebox.errors import ShutTheBoxError
from shutthebox.i18n import LANGUAGES, Lang, detect_language, error_text, text
from shutthebox.rules import PRESETS, Mode, OneDie, Rules, Scoring

if TYPE_CHECKING:
    from shutthebox.record import GameRecord
    from shutthebox.session import PlaySetup

__all__ = ["build_parser", "h", "main", "number_type", "rules_from_args"]

_N = TypeVar("_N", int, float)


class CliError(Exception):
    """A problem with the command line, reported in one line."""


def h(lang: Lang, en: str, es: str) -> str:
    """A help text in ``lang``: ``en`` in English, ``es`` in Spanish."""
    return es if lang == "es" else en


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, with the usage line's prefix in the parser's language."""

    usage_prefix = "usage: "

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, self.usage_prefix if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in one line, without the usage block, and helps in ``lang``.

    argparse's own words (``usage:``, the section titles, ``-h``) follow ``lang`` too;
    ``lang`` defaults to the locale's language.
    """

    def __init__(self, *, lang: Lang | None = None, add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(add_help=False, **kwargs)
        self.lang: Lang = lang or detect_language(None)
        self._positionals.title = h(self.lang, "positional arguments", "argumentos posicionales")
        self._optionals.title = h(self.lang, "options", "opciones")
        if add_help:
            self.add_argument(
                "-h", "--help", action="help", default=argparse.SUPPRESS,
                help=h(self.lang, "show this help message and exit", "mostrar esta ayuda y salir"),
            )

    def _get_formatter(self) -> argparse.HelpFormatter:
        formatter = super()._get_formatter()
        if isinstance(formatter, _Formatter):
            formatter.usage_prefix = h(self.lang, "usage: ", "uso: ")
        return formatter

    def error(self, message: str) -> NoReturn:
        if self.lang == "es":
            message = _usage_error_es(message)
        see = h(self.lang, "see --help", "consulta --help")
        self.exit(2, f"{self.prog}: error: {message} ({see})\n")


_USAGE_ERRORS_ES: tuple[tuple[str, str], ...] = (
    (r"invalid choice: (.*) \(choose from (.*)\)", r"valor no válido: \1 (elige entre \2)"),
    (r"invalid int value: (.*)", r"\1 no es un número entero"),
    (r"invalid float value: (.*)", r"\1 no es un número"),
    (r"the following arguments are required: (.*)", r"faltan argumentos obligatorios: \1"),
    (r"unrecognized arguments: (.*)", r"argumentos no reconocidos: \1"),
    (r"expected one argument", "falta su valor"),
    (r"not allowed with argument (.*)", r"no se puede usar junto con \1"),
    (r"ambiguous option: (\S+) could match (.*)", r"opción ambigua: \1 puede ser \2"),
    (r"(.*) is not a whole number", r"\1 no es un número entero"),
    (r"(.*) is not a port number", r"\1 no es un número de puerto"),
    (r"(.*) is not a number of seconds", r"\1 no es un número de segundos"),
    (r"port (\S+) is not between (\S+) and (\S+)", r"el puerto \1 no está entre \2 y \3"),
    (r"(.*) must be between (\S+) and (\S+) seconds", r"\1 debe estar entre \2 y \3 segundos"),
    (r"(.*) must be between (\S+) and (\S+)", r"\1 debe estar entre \2 y \3"),
    (r"(.*) must be (\S+) or more", r"\1 debe ser \2 o más"),
)
"""argparse's usage errors (and those of `number_type`) in Spanish; others stay as they are."""


def _usage_error_es(message: str) -> str:
    """A usage error of argparse in Spanish: ``argument --tiles: invalid …`` → ``argumento --tiles: …``."""
    prefix, body = "", message
    named = re.fullmatch(r"argument (\S+): (.*)", message, re.DOTALL)
    if named:
        prefix, body = f"argumento {named[1]}: ", named[2]
    for pattern, spanish in _USAGE_ERRORS_ES:
        if re.fullmatch(pattern, body, re.DOTALL):
            body = re.sub(pattern, spanish, body, count=1, flags=re.DOTALL)
            break
    return prefix + body


def number_type(
    convert: Callable[[str], _N],
    low: float,
    high: float | None = None,
    *,
    kind: str = "a whole number",
    refusal: str | None = None,
) -> Callable[[str], _N]:
    """An argparse type: ``convert`` the text, refused in one line outside ``low``..``high``.

    ``refusal`` words the out-of-range message (``{text}`` and ``{value}`` are filled in).
    """

    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
        if not (low <= value if high is None else low <= value <= high):
            if refusal is not None:
                message = refusal.format(text=text, value=value)
            elif high is None:
                message = f"{text!r} must be {low} or more"
            else:
                message = f"{text!r} must be between {low} and {high}"
            raise argparse.ArgumentTypeError(message)
        return value

    return parse


_positive = number_type(int, 1)
_natural = number_type(int, 0)


def add_rules_options(parser: argparse.ArgumentParser, lang: Lang | None = None) -> None:
    """The rule flags shared by every subcommand that takes rules, helped in ``lang``."""
    lang = lang or detect_language(None)
    group = parser.add_argument_group(h(
        lang,
        "rules (SPEC.md; a preset first, then each flag over it)",
        "reglas (SPEC.md; primero un conjunto predefinido, y luego cada opción lo cambia)",
    ))
    group.add_argument("--preset", choices=list(PRESETS), help=h(
        lang, "start from a named rule set", "partir de un conjunto de reglas con nombre"
    ))
    group.add_argument("--tiles", type=_positive, help=h(
        lang, "tiles 1..N on the board, 1-12 (9)", "fichas 1..N del tablero, de 1 a 12 (9)"
    ))
    group.add_argument("--one-die", choices=[o.value for o in OneDie], help=h(
        lang, "when one die may be rolled (high-shut)", "cuándo se puede tirar un solo dado (high-shut)"
    ))
    group.add_argument("--one-die-forced", action=argparse.BooleanOptionalAction, help=h(
        lang,
        "one die must be rolled whenever it is allowed (off)",
        "hay que tirar un solo dado siempre que se permita (desactivado)",
    ))
    group.add_argument("--max-tiles", type=_positive, help=h(
        lang, "at most this many tiles per roll", "como mucho tantas fichas por tirada"
    ))
    group.add_argument("--scoring", choices=[s.value for s in Scoring], help=h(
        lang, "how open tiles score (sum)", "cómo puntúan las fichas abiertas (sum)"
    ))
    group.add_argument("--mode", choices=[m.value for m in Mode], help=h(
        lang, "way to play (round)", "modalidad de juego (round)"
    ))
    group.add_argument("--shut-wins", action=argparse.BooleanOptionalAction, help=h(
        lang,
        "shutting the box wins the round at once (on)",
        "cerrar la caja gana la ronda en el acto (activado)",
    ))
    group.add_argument("--stake", type=_natural, help=h(
        lang, "stake each player puts in the pot (0)", "apuesta que cada jugador pone en el bote (0)"
    ))
    group.add_argument("--limit", type=_positive, help=h(
        lang,
        "elimination total that retires (45)",
        "total con el que un jugador queda eliminado (45)",
    ))
    group.add_argument("--doubles-extra-turn", action=argparse.BooleanOptionalAction, help=h(
        lang,
        "a double earns an extra roll after a miss (on in the long game only)",
        "un doble da una tirada extra tras fallar (activado solo en el juego largo)",
    ))


_RULE_FLAGS = (
    "tiles", "one_die", "one_die_forced", "max_tiles", "scoring", "mode",
    "shut_wins", "stake", "limit", "doubles_extra_turn",
)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the flags describe: the preset (or classic) with each given flag over it."""
    changes = {name: getattr(args, name) for name in _RULE_FLAGS if getattr(args, name) is not None}
    return Rules.preset(args.preset or "classic", **changes)


def _setup_from_args(args: argparse.Namespace) -> PlaySetup:
    """The game the ``play`` flags describe: people, bots, rules and dice."""
    from shutthebox.session import PlaySetup, mode_for

    humans = tuple(args.players) or (text(args.lang, "default_player"),)
    bots = tuple(args.bot or ())
    rules = rules_from_args(args)
    if args.mode is None and rules.mode is Mode.ROUND:
        rules = rules.but(mode=mode_for(len(humans) + len(bots), None))
    setup = PlaySetup(
        rules=rules,
        humans=humans,
        bots=bots,
        companion=args.companion,
        seed=args.seed,
        rounds=args.rounds,
        lang=args.lang,
    )
    setup.new_match()  # refuse a bad combination (e.g. a long game for three) before play
    return setup


def _wants_setup_screen(args: argparse.Namespace) -> bool:
    """``play`` with no players, bots or rule flags opens the setup screen (or ``--setup``)."""
    given = [getattr(args, name) for name in (*_RULE_FLAGS, "preset", "seed")]
    return args.setup or not (args.players or args.bot or args.companion or any(
        value is not None for value in given
    ))


def _cmd_play(args: argparse.Namespace) -> int:
    from shutthebox.scores import save_finished

    setup = _setup_from_args(args)
    if setup.bots:
        from shutthebox.session import make_choosers

        make_choosers(setup, setup.seed)  # an unknown bot is refused before the game starts
    plain = args.plain or not sys.stdout.isatty()
    if not plain:
        try:
            from shutthebox.tui import ShutTheBoxApp
        except ImportError:
            print("shutthebox: the full-screen game needs Textual: pip install 'shutthebox[tui]'; "
                  "playing line by line", file=sys.stderr)
            plain = True
    record: GameRecord | None
    if plain:
        record = _play_plain(setup)
    else:
        def keep(record: GameRecord, played: PlaySetup) -> list[str]:
            return save_finished(record, played.humans, source=_source(played), lang=played.lang)

        app = ShutTheBoxApp(setup, lang=args.lang, save=keep, setup_first=_wants_setup_screen(args))
        record = app.run()
    if args.save and record is not None:
        record.save(Path(args.save))
        print(text(args.lang, "saved", path=args.save))
    return 0


def _source(setup: PlaySetup) -> str:
    return "companion" if setup.companion else "terminal"


def _play_plain(setup: PlaySetup) -> GameRecord | None:
    """The line-by-line game on standard input and output; the record if it began."""
    from shutthebox.game import Game
    from shutthebox.hints import hint_text
    from shutthebox.plain import PlainGame
    from shutthebox.scores import save_finished
    from shutthebox.session import make_choosers

    game = Game(setup.rules, setup.names, seed=setup.seed, rounds=setup.rounds)
    bots = make_choosers(setup, game.seed)
    lang = setup.lang
    plain = PlainGame(
        game,
        stdin=sys.stdin,
        stdout=sys.stdout,
        lang=lang,
        bots=bots,
        hint=lambda state: hint_text(lang, state),
        companion=setup.companion,
    )
    final = plain.run()
    record = game.record()
    if final is not None:
        for line in save_finished(record, setup.humans, source=_source(setup), lang=lang):
            print(line)
    return record if game.events else None


def _cmd_scores(args: argparse.Namespace) -> int:
    from shutthebox.scores import scores_json, scores_lines

    if args.json:
        print(json.dumps(scores_json(args.players, limit=args.limit), ensure_ascii=False))
        return 0
    for line in scores_lines(args.lang, args.players, limit=args.limit):
        print(line)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from shutthebox.record import GameRecord, replay, result_of

    record = GameRecord.load(Path(args.file))
    state = replay(record)
    result = result_of(state)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    from shutthebox.narrate import rules_line

    lang = args.lang
    print(text(lang, "rp_rules", rules=rules_line(lang, record.rules)))
    print(text(lang, "rp_players", players=", ".join(record.players), seed=record.seed,
               actions=len(record.events)))
    for turn in result["turns"]:
        shown = ", ".join(map(str, turn["open"])) or text(lang, "rp_box_shut")
        score = "" if turn["score"] is None else f" -> {turn['score']}"
        tiebreak = text(lang, "rp_tiebreak", n=turn["tiebreak"]) if turn["tiebreak"] else ""
        print(text(lang, "rp_turn", round=turn["round"], tiebreak=tiebreak, player=turn["player"],
                   open=shown, score=score))
    if state.is_over:
        print(text(lang, "rp_over", winner=result["winner"] or "-"))
    else:
        print(text(lang, "rp_unfinished"))
    if record.rules.stake:
        ledger = ", ".join(f"{k} {v:+d}" for k, v in result["ledger"].items())
        print(text(lang, "rp_ledger", ledger=ledger))
    print(text(lang, "rp_ok"))
    return 0


_port = number_type(
    int, 0, 65535, kind="a port number", refusal="port {value} is not between 0 and 65535"
)
_seconds = number_type(
    float, 0, 10, kind="a number of seconds", refusal="{text!r} must be between 0 and 10 seconds"
)


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from shutthebox.storage import engine_url
        from shutthebox.web import Settings, create_app
    except ImportError as error:
        raise CliError(f"the web app needs {error.name}: pip install 'shutthebox[web]'") from None
    if args.db:
        engine_url(args.db)  # a bad URL is reported before the server starts
    settings = Settings(
        host=args.host,
        port=args.port,
        database_url=args.db,
        data_dir=Path(args.data) if args.data else None,
        bot_delay=args.bot_delay,
    )
    print(f"Shut the Box: http://{args.host}:{args.port}/ (Ctrl+C stops the server)", flush=True)
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level)
    return 0


def build_parser(lang: Lang | None = None) -> argparse.ArgumentParser:
    """The full command-line interface, its help in ``lang`` (else the locale's language)."""
    lang = lang or detect_language(None)
    parser = _Parser(
        prog="shutthebox",
        lang=lang,
        description=h(
            lang,
            "Shut the Box (Cerrar la Caja, Canoga): play, solve and study the dice game.",
            "Cerrar la Caja (Shut the Box, Canoga): juega, resuelve y estudia el juego de dados.",
        ),
    )
    parser.add_argument("--version", action="version", version=f"shutthebox {__version__}", help=h(
        lang, "show program's version number and exit", "mostrar la versión y salir"
    ))
    lang_help = h(lang, "language of the text (from the locale)",
                  "idioma de los textos (por defecto, el de la configuración regional)")
    parser.add_argument("--lang", choices=LANGUAGES, help=lang_help)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = sub.add_parser(
        "play",
        lang=lang,
        help=h(lang, "play in the terminal", "jugar en la terminal"),
        description=h(
            lang,
            "Play a game in the terminal: solo, a round, elimination or the long game, against "
            "people at the same keyboard and bots. Full screen in a terminal, line by line with "
            "--plain or when standard output is not a terminal. One player plays solo and more "
            "play a round, unless --mode (or the long or elimination preset) names another way. "
            "With no players, bots or rule flags the full-screen game opens on its setup screen. "
            "Finished games are kept in "
            "the history ($SHUTTHEBOX_DB, or a SQLite file in the user data folder); see "
            "'shutthebox scores'.",
            "Juega una partida en la terminal: en solitario, a una ronda, por eliminación o al juego "
            "largo, contra personas en el mismo teclado y contra robots. A pantalla completa en una "
            "terminal; línea a línea con --plain o cuando la salida estándar no es una terminal. "
            "Con un jugador se juega en solitario y con varios, una ronda, salvo que --mode (o el "
            "conjunto long o elimination) indique otra modalidad. Sin jugadores, robots ni opciones "
            "de reglas, el juego a pantalla completa se abre en su pantalla de configuración. Las "
            "partidas terminadas se guardan en el historial ($SHUTTHEBOX_DB, o un archivo SQLite en "
            "la carpeta de datos del usuario); consulta 'shutthebox scores'.",
        ),
    )
    play.add_argument("players", nargs="*", metavar="PLAYER", help=h(
        lang,
        "names of the people playing, in seating order (default: one, '{name}')",
        "nombres de las personas que juegan, en el orden en que se sientan (por defecto, una: "
        "'{name}')",
    ).format(name=text(lang, "default_player")))
    play.add_argument("--bot", action="append", metavar="STRENGTH_OR_NAME", help=h(
        lang,
        "add a bot after the people: easy, medium, hard, expert (or in Spanish), or a bot name "
        "(random, greedy, fewest, heuristic, optimal, ...); repeat for more bots",
        "añadir un robot después de las personas: fácil, medio, difícil, experto (o en inglés), "
        "o el nombre de un robot (random, greedy, fewest, heuristic, optimal, ...); repetir para "
        "más robots",
    ))
    play.add_argument("--companion", action="store_true", help=h(
        lang,
        "playing at a real box: type the dice you rolled, and see the best move each time",
        "jugar con una caja de verdad: escribe los dados que sacaste y mira la mejor jugada cada vez",
    ))
    play.add_argument("--seed", type=int, help=h(
        lang,
        "seed for the dice and bots, so the game can be replayed",
        "semilla de los dados y los robots, para poder repetir la partida",
    ))
    play.add_argument("--rounds", type=_positive, default=1, help=h(
        lang, "rounds in a round game (1)", "número de rondas de una partida por rondas (1)"
    ))
    play.add_argument("--save", metavar="FILE", help=h(
        lang, "write the game record (JSON) to FILE", "guardar el registro de la partida (JSON) en FILE"
    ))
    play.add_argument("--plain", action="store_true", help=h(
        lang,
        "line-by-line text (also used when not a terminal)",
        "texto línea a línea (también cuando la salida no es una terminal)",
    ))
    play.add_argument("--setup", action="store_true", help=h(
        lang,
        "open the setup screen first (full-screen game only)",
        "abrir primero la pantalla de configuración (solo en el juego a pantalla completa)",
    ))
    play.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=lang_help)
    add_rules_options(play, lang)
    play.set_defaults(handler=_cmd_play)

    scores = sub.add_parser(
        "scores",
        lang=lang,
        help=h(lang, "personal bests and the history of games",
               "mejores marcas personales e historial de partidas"),
        description=h(
            lang,
            "Show personal bests per board size and rules, and the recent games, "
            "from the history kept by 'shutthebox play' and the web app.",
            "Muestra las mejores marcas personales por tamaño de tablero y reglas, y las partidas "
            "recientes, del historial que guardan 'shutthebox play' y la aplicación web.",
        ),
    )
    scores.add_argument("players", nargs="*", metavar="PLAYER", help=h(
        lang, "only these players (default: all)", "solo estos jugadores (por defecto, todos)"
    ))
    scores.add_argument("--limit", type=_positive, default=10, help=h(
        lang, "how many recent games to list (10)", "cuántas partidas recientes mostrar (10)"
    ))
    scores.add_argument("--json", action="store_true", help=h(
        lang, "print bests and games as JSON", "imprimir las marcas y las partidas en JSON"
    ))
    scores.set_defaults(handler=_cmd_scores)

    rep = sub.add_parser(
        "replay",
        lang=lang,
        help=h(lang, "check and replay a game record",
               "comprobar y repetir el registro de una partida"),
        description=h(
            lang,
            "Load a game record (JSON), check every action, and print how it went.",
            "Carga el registro de una partida (JSON), comprueba cada acción y muestra cómo fue.",
        ),
    )
    rep.add_argument("file", metavar="FILE", help=h(
        lang,
        "game record written by --save or the web app",
        "registro de partida guardado con --save o por la aplicación web",
    ))
    rep.add_argument("--json", action="store_true", help=h(
        lang, "print the replayed result as JSON", "imprimir en JSON el resultado de la repetición"
    ))
    rep.set_defaults(handler=_cmd_replay)

    from shutthebox.cli_solver import add_solver_commands

    add_solver_commands(sub, add_rules_options, rules_from_args, lang)
    serve = sub.add_parser(
        "serve",
        lang=lang,
        help=h(lang, "play in the browser: start the web app",
               "jugar en el navegador: arrancar la aplicación web"),
        description=h(
            lang,
            "Start the web app (solo, pass-and-play, bots, online rooms) and its JSON API. "
            "Finished games go to the database: $SHUTTHEBOX_DB, or a SQLite file in the data folder.",
            "Arranca la aplicación web (solitario, varios en un mismo dispositivo, robots, salas en "
            "línea) y su API JSON. Las partidas terminadas van a la base de datos: $SHUTTHEBOX_DB, "
            "o un archivo SQLite en la carpeta de datos.",
        ),
    )
    serve.add_argument("--host", default="127.0.0.1", help=h(
        lang, "address to listen on (127.0.0.1)", "dirección en la que escuchar (127.0.0.1)"
    ))
    serve.add_argument("--port", type=_port, default=8000, help=h(
        lang, "port to listen on (8000)", "puerto en el que escuchar (8000)"
    ))
    serve.add_argument("--db", metavar="URL", help=h(
        lang,
        "database URL: sqlite:///FILE or postgresql://…",
        "URL de la base de datos: sqlite:///FILE o postgresql://…",
    ))
    serve.add_argument("--data", metavar="DIR", help=h(
        lang, "folder of the default SQLite database", "carpeta de la base de datos SQLite por defecto"
    ))
    serve.add_argument("--bot-delay", type=_seconds, default=0.6, metavar="SECONDS", help=h(
        lang,
        "pause before each bot action, so people can follow it (0.6)",
        "pausa antes de cada acción de un robot, para que se pueda seguir (0.6)",
    ))
    serve.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"],
        help=h(lang, "server log level (info)", "nivel de registro del servidor (info)"),
    )
    serve.set_defaults(handler=_cmd_serve)

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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(detect_language(_lang_asked(argv)))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    args.lang = detect_language(args.lang)
    try:
        return int(args.handler(args))
    except (ShutTheBoxError, CliError) as error:
        print(f"shutthebox: error: {error_text(args.lang, error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
