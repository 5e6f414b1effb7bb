"""The ``shutthebox`` command: play, replay, and the tools built on the solver.

Every subcommand that takes rules uses the same flags, named after the rule
options (``--tiles``, ``--one-die``, …, ``--preset``). Bad arguments exit with
status 2 and one line naming what is wrong, in the user's language, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from shutthebox import __version__
from shutthebox.cli.parser import (
    RULE_FLAGS,
    CliError,
    Parser,
    add_rules_options,
    h,
    number_type,
    positive,
    rules_from_args,
)
from shutthebox.cli.study import add_solver_commands
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.rules import Mode
from shutthebox.i18n import LANGUAGES, Lang, detect_language, error_text, text

if TYPE_CHECKING:
    from shutthebox.core.game import Game
    from shutthebox.core.record import GameRecord
    from shutthebox.term.session import PlaySetup

__all__ = ["build_parser", "main"]


def _setup_from_args(args: argparse.Namespace) -> PlaySetup:
    """The game the ``play`` flags describe: people, bots, rules and dice."""
    from shutthebox.term.session import PlaySetup, mode_for

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
    setup.new_game()  # refuse a bad table (a long game for three, an unknown bot) before play
    return setup


def _wants_setup_screen(args: argparse.Namespace) -> bool:
    """``play`` with no players, bots or rule flags opens the setup screen (or ``--setup``)."""
    given = [getattr(args, name) for name in (*RULE_FLAGS, "preset", "seed")]
    return args.setup or not (args.players or args.bot or args.companion or any(
        value is not None for value in given
    ))


def _cmd_play(args: argparse.Namespace) -> int:
    from shutthebox.term.scores import save_finished

    setup = _setup_from_args(args)
    plain = args.plain or not sys.stdout.isatty()
    if not plain:
        try:
            from shutthebox.term.app import ShutTheBoxApp
        except ImportError:
            print("shutthebox: the full-screen game needs Textual: pip install 'shutthebox[tui]'; "
                  "playing line by line", file=sys.stderr)
            plain = True
    record: GameRecord | None
    if plain:
        record = _play_plain(setup)
    else:
        def keep(game: Game, played: PlaySetup) -> list[str]:
            return save_finished(game, played.humans, lang=played.lang)

        app = ShutTheBoxApp(setup, lang=args.lang, save=keep, setup_first=_wants_setup_screen(args))
        record = app.run()
    if args.save and record is not None:
        record.save(Path(args.save))
        print(text(args.lang, "saved", path=args.save))
    return 0


def _play_plain(setup: PlaySetup) -> GameRecord | None:
    """The line-by-line game on standard input and output; the record if it began."""
    from shutthebox.term.hints import hint_text
    from shutthebox.term.plain import PlainGame
    from shutthebox.term.scores import save_finished

    game = setup.new_game()
    lang = setup.lang
    plain = PlainGame(
        game, stdin=sys.stdin, stdout=sys.stdout, lang=lang, hint=lambda state: hint_text(lang, state)
    )
    final = plain.run()
    record = game.record()
    if final is not None:
        for line in save_finished(game, setup.humans, lang=lang):
            print(line)
    return record if game.events else None


def _cmd_scores(args: argparse.Namespace) -> int:
    from shutthebox.term.scores import scores_json, scores_lines

    if args.json:
        print(json.dumps(scores_json(args.players, limit=args.limit), ensure_ascii=False))
        return 0
    for line in scores_lines(args.lang, args.players, limit=args.limit):
        print(line)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from shutthebox.core.record import GameRecord, replay, result_of

    record = GameRecord.load(Path(args.file))
    state = replay(record)
    result = result_of(state)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    from shutthebox.term.narrate import rules_line

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
    parser = Parser(
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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

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
    play.add_argument("--rounds", type=positive, default=1, help=h(
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
    scores.add_argument("--limit", type=positive, default=10, help=h(
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

    add_solver_commands(sub, lang)
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
