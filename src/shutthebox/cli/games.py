"""The game subcommands: ``play`` (in the terminal), ``scores``, ``replay``, ``verify`` and ``serve``.

Each has an ``arguments`` function that adds its flags and a ``run`` function
that does its work; the heavy parts (Textual, the storage, the web server, the
solver) are imported only by the command that needs them.
"""

from __future__ import annotations

import argparse
import sys

from shutthebox.cli.parser import (
    RULE_FLAGS,
    CliError,
    add_rules_options,
    number_type,
    positive,
    rules_from_args,
    whole,
)
from shutthebox.core.errors import N_
from shutthebox.i18n import _
from shutthebox.i18n.words import STRENGTHS, rules_line, strength_name

TYPE_CHECKING = False
if TYPE_CHECKING:  # `scores` and `--help` start without typing, socket and the rest
    import socket
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any

    from shutthebox.core.game import Game
    from shutthebox.core.record import Event, GameRecord
    from shutthebox.core.verify import Verdict
    from shutthebox.term.session import PlaySetup
    from shutthebox.web.settings import Settings

__all__ = [
    "play_arguments",
    "replay_arguments",
    "run_play",
    "run_replay",
    "run_scores",
    "run_serve",
    "run_verify",
    "scores_arguments",
    "serve_arguments",
    "serve_settings",
    "verify_arguments",
]


# -- play ------------------------------------------------------------------------------------------
def play_arguments(play: argparse.ArgumentParser) -> None:
    from shutthebox.strategy.names import BOT_NAMES

    play.add_argument(
        "players", nargs="*", metavar="PLAYER",
        help=_("names of the people playing, in seating order (default: one, '{name}')").format(
            name=_("Player")
        ),
    )
    play.add_argument("--bot", action="append", metavar="STRENGTH_OR_NAME", help=_(
        "add a bot after the people: a strength ({strengths}) or a bot name ({bots}); repeat for more bots"
    ).format(strengths=", ".join(map(strength_name, STRENGTHS)), bots=", ".join(BOT_NAMES)))
    play.add_argument(
        "--companion", action="store_true",
        help=_("playing at a real box: type the dice you rolled, and see the best move each time"),
    )
    play.add_argument("--seed", type=whole, help=_(
        "a practice game: dice and bots from this seed, so it can be played again; it counts for no best "
        "(without it the dice are fair and the game ranked, docs/fairness.md)"
    ))
    play.add_argument("--rounds", type=positive, default=1, help=_("rounds in a round game (1)"))
    play.add_argument("--save", metavar="FILE", help=_(
        "write the game record (JSON) to FILE, checked before play; each further game of the sitting "
        "to its own file beside it (game-2.json, game-3.json, …)"
    ))
    play.add_argument(
        "--plain",
        action="store_true", help=_("line-by-line text (also used when not a terminal)"),
    )
    play.add_argument(
        "--setup", action="store_true", help=_("open the setup screen first (full-screen game only)")
    )
    add_rules_options(play)


def _setup_from_args(args: argparse.Namespace) -> PlaySetup:
    """The game the ``play`` flags describe: people, bots, rules and dice."""
    from shutthebox.core.rules import Mode
    from shutthebox.term.session import PlaySetup, mode_for

    humans = tuple(args.players) or (_("Player"),)
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


def run_play(args: argparse.Namespace) -> int:
    from shutthebox.cli.paths import check_database, writable_file

    save_to = writable_file(args.save, "--save") if args.save else None  # not after a whole game
    check_database(create=True)
    return play_setup(_setup_from_args(args), args, save_to, setup_first=_wants_setup_screen(args))


def play_setup(setup: PlaySetup, args: argparse.Namespace, save_to: Path | None, *, setup_first: bool) -> int:
    """Play ``setup`` full screen (or line by line with ``--plain``, or off a terminal), keep each
    finished game in the history, and write the records to ``save_to`` if given."""
    from shutthebox.term.scores import save_finished

    plain = args.plain or not sys.stdout.isatty()
    if not plain:
        try:
            from shutthebox.term.app import ShutTheBoxApp
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
            return save_finished(game, played.humans)

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
    from shutthebox.cli.paths import numbered

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


def _play_plain(setup: PlaySetup) -> GameRecord | None:
    """The line-by-line game on standard input and output; the record if it began."""
    from shutthebox.term.hints import hint_text
    from shutthebox.term.plain import PlainGame
    from shutthebox.term.scores import save_finished

    game = setup.new_game()
    final = PlainGame(game, stdin=sys.stdin, stdout=sys.stdout, hint=hint_text).run()
    if final is not None:
        for line in save_finished(game, setup.humans):
            print(line)
    return game.record() if game.events else None


# -- scores ----------------------------------------------------------------------------------------
def scores_arguments(scores: argparse.ArgumentParser) -> None:
    scores.add_argument("players", nargs="*", metavar="PLAYER", help=_("only these players (default: all)"))
    scores.add_argument("--limit", type=positive, default=10, help=_("how many recent games to list (10)"))
    scores.add_argument("--json", action="store_true", help=_("print bests and games as JSON"))


def run_scores(args: argparse.Namespace) -> int:
    from shutthebox.cli.paths import check_database
    from shutthebox.term.scores import scores_json, scores_lines

    check_database(create=False)

    if args.json:
        import json

        print(json.dumps(scores_json(args.players, limit=args.limit), ensure_ascii=False))
        return 0
    for line in scores_lines(args.players, limit=args.limit):
        print(line)
    return 0


# -- replay ----------------------------------------------------------------------------------------
def replay_arguments(replay: argparse.ArgumentParser) -> None:
    replay.add_argument("file", metavar="FILE", help=_("game record written by --save or the web app"))
    replay.add_argument("--json", action="store_true", help=_("print the replayed result as JSON"))


def run_replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from shutthebox.core.record import GameRecord, replay, result_of

    record = GameRecord.load(Path(args.file))
    state = replay(record)
    result = result_of(state)
    if args.json:
        import json

        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(_("Rules: {rules}").format(rules=rules_line(record.rules)))
    players = ", ".join(record.players)
    if record.seed is not None:
        print(_("Players: {players}; seed {seed}; {actions} actions").format(
            players=players, seed=record.seed, actions=len(record.events)
        ))
    elif record.fairness is not None:
        print(_("Players: {players}; fair dice (shutthebox verify proves them); {actions} actions").format(
            players=players, actions=len(record.events)
        ))
    else:
        print(_("Players: {players}; dice typed in; {actions} actions").format(
            players=players, actions=len(record.events)
        ))
    for turn in result["turns"]:
        shown = ", ".join(map(str, turn["open"])) or _("box shut")
        score = "" if turn["score"] is None else f" -> {turn['score']}"
        tiebreak = _(" (tie-break {n})").format(n=turn["tiebreak"]) if turn["tiebreak"] else ""
        line = _("round {round}{tiebreak}: {player}: {open}{score}").format(
            round=turn["round"], tiebreak=tiebreak, player=turn["player"], open=shown, score=score
        )
        print("  " + line)
    if state.is_over:
        print(_("Game over; winner: {winner}").format(winner=result["winner"] or "-"))
    else:
        print(_("Game not finished"))
    if record.rules.stake:
        ledger = ", ".join(f"{k} {v:+d}" for k, v in result["ledger"].items())
        print(_("Ledger: {ledger}").format(ledger=ledger))
    print(_("Replay matches the record."))
    return 0


# -- verify ----------------------------------------------------------------------------------------
def verify_arguments(verify: argparse.ArgumentParser) -> None:
    verify.add_argument("file", metavar="RECORD", help=_("game record written by --save or the web app"))
    verify.add_argument(
        "--json", action="store_true",
        help=_("print the verdict as one JSON object (same exit status)"),
    )


def run_verify(args: argparse.Namespace) -> int:
    """0 when every die and move is proven, 1 when not (a record that cannot be read included: nothing
    of it is proven), 2 when there is no file to read (a one-line error, like every command's)."""
    from pathlib import Path

    from shutthebox.core.errors import RecordError
    from shutthebox.core.record import GameRecord
    from shutthebox.core.verify import Verdict, verify
    from shutthebox.i18n import say

    record: GameRecord | None = None
    try:
        record = GameRecord.load(Path(args.file))
    except RecordError as error:
        if isinstance(error.values.get("error"), OSError):
            raise  # no such file, a folder, no permission: not a verdict on a record
        index = error.values.get("index")
        verdict = Verdict(False, error, index if isinstance(index, int) else None)
    else:
        verdict = verify(record)
    if args.json:
        import json

        fairness = record.fairness if record is not None else None
        print(json.dumps({
            **verdict.to_json(say),
            "kind": record.kind if record is not None else None,
            "commitment": fairness.commitment if fairness is not None else None,
        }, ensure_ascii=False))
    else:
        for line in _verdict_lines(verdict, record):
            print(line)
    return 0 if verdict.proven else 1


def _verdict_lines(verdict: Verdict, record: GameRecord | None) -> list[str]:
    """The verdict in words: proven with the facts a person can check again, or what fails and where."""
    from shutthebox.i18n import say

    reason = say(verdict.reason)
    if not verdict.proven:
        lines = [_("Not proven: {reason}").format(reason=reason)]
        if record is not None and verdict.event is not None and verdict.event < len(record.events):
            lines.append(_("Event {index} as recorded: {event}").format(
                index=verdict.event, event=_event_words(record, record.events[verdict.event])
            ))
        return lines
    fairness = record.fairness if record is not None else None
    assert record is not None and fairness is not None  # a proven record has revealed fair dice
    lines = [
        reason[:1].upper() + reason[1:] + ".",
        _("Commitment (sha256 of the server seed, published before the first roll): {commitment}").format(
            commitment=fairness.commitment
        ),
        _("Server seed (revealed when the game ended): {seed}").format(seed=fairness.server_seed),
        _("Client seeds: {seeds}").format(seeds=", ".join(fairness.client_seeds) or _("none")),
    ]
    if record.assisted:
        names = ", ".join(record.players[p] for p in record.assisted)
        if record.kind == "assisted":  # a version 3 record: then a hint took the asker's turns out
            said = _("Hints were asked by {players}: their turns count for no best.")
        else:
            said = _("Hints were asked by {players}: each turn with a hint counts as it stood when it came.")
        lines.append(said.format(players=names))
    return lines


def _event_words(record: GameRecord, event: Event) -> str:
    """One recorded action in words, by the player the record names (a number out of range as is)."""
    from shutthebox.core.dice import Roll
    from shutthebox.core.match import DiceChoice
    from shutthebox.i18n.words import dice_word

    players = record.players
    who = players[event.player] if 0 <= event.player < len(players) else f"#{event.player}"
    if isinstance(event.action, Roll):
        return _("{player} rolls {roll}").format(player=who, roll=event.action)
    if isinstance(event.action, DiceChoice):
        return _("{player} chooses {dice}").format(player=who, dice=dice_word(event.action.count))
    return _("{player} plays the tiles {tiles}").format(player=who, tiles=event.action)


# -- serve -----------------------------------------------------------------------------------------
_port = number_type(
    int, 0, 65535, not_a=N_("{text!r} is not a port number"),
    out_of_range=N_("port {value} is not between 0 and 65535"),
)
_seconds = number_type(
    float, 0, 10, not_a=N_("{text!r} is not a number of seconds"),
    out_of_range=N_("{text!r} must be between 0 and 10 seconds"),
)
_NO_CLOCK = N_("{text!r} must be 0 (no clock) or 5 to 3600 seconds")
_clock_seconds = number_type(int, 0, 3600, out_of_range=_NO_CLOCK)


def _turn_seconds(text: str) -> int:
    """Seconds of the turn clock: 0 for none, else 5 to 3600 (as a room may ask)."""
    seconds = _clock_seconds(text)
    if 0 < seconds < 5:
        raise argparse.ArgumentTypeError(_(_NO_CLOCK).format(text=text))
    return seconds


_workers = number_type(
    int, 1, 64, not_a=N_("{text!r} is not a number of processes"),
    out_of_range=N_("{text!r} must be between 1 and 64 processes"),
)
_solver_processes = number_type(
    int, 0, 64, not_a=N_("{text!r} is not a number of processes"),
    out_of_range=N_("{text!r} must be between 0 and 64 processes"),
)
_idle_seconds = number_type(
    int, 60, None, out_of_range=N_("{text!r} must be at least 60 seconds"),
)
_timeout = number_type(
    float, 0.5, 600, not_a=N_("{text!r} is not a number of seconds"),
    out_of_range=N_("{text!r} must be between 0.5 and 600 seconds"),
)


def serve_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--host", default="127.0.0.1", help=_("address to listen on (127.0.0.1)"))
    serve.add_argument("--port", type=_port, default=8000, help=_("port to listen on (8000)"))
    serve.add_argument("--db", metavar="URL", help=_("database URL: sqlite:///FILE or postgresql://…"))
    serve.add_argument("--data", metavar="DIR", help=_("folder of the default SQLite database"))
    serve.add_argument(
        "--workers", type=_workers, default=1, metavar="N",
        help=_("server processes behind the one address (1); more than one share their rooms through "
               "--redis, best over PostgreSQL (--db postgresql://…)"),
    )
    serve.add_argument(
        "--solver-processes", type=_solver_processes, default=1, metavar="N",
        help=_("worker processes for the solver (hints, bots, reviews, the trainer), each server process's"
               " own, so its work never slows the players' actions (1; 0: in the server process)"),
    )
    serve.add_argument(
        "--redis", metavar="URL",
        help=_("Redis shared by the processes of the server (redis://host:6379/0): news of rooms, "
               "leases of their work, rate limits"),
    )
    serve.add_argument(
        "--bot-delay", type=_seconds, default=0.6, metavar="SECONDS",
        help=_("pause before each bot action, so people can follow it (0.6)"),
    )
    serve.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"],
        help=_("server log level (info)"),
    )
    serve.add_argument(
        "--turn-seconds", type=_turn_seconds, default=60, metavar="SECONDS",
        help=_("the turn clock of online rooms: seconds for each action before a bot plays it (60; 0: none)"),
    )
    serve.add_argument(
        "--room-idle", type=_idle_seconds, default=7200, metavar="SECONDS",
        help=_("close a room nobody played nor watched for this long (7200)"),
    )
    serve.add_argument(
        "--room-memory", type=_idle_seconds, default=600, metavar="SECONDS",
        help=_("let a room nobody acted in for this long leave memory, polled or not: it is read back "
               "from the database when asked for (600)"),
    )
    serve.add_argument(
        "--trust-proxy", metavar="ADDRESSES",
        help=_("addresses of a reverse proxy whose X-Forwarded-For names the client (none: the rate "
               "limits count the connecting address)"),
    )
    serve.add_argument(
        "--allow-origin", action="append", default=[], metavar="ORIGIN", dest="allowed_origins",
        help=_("a page origin (https://example.com) whose WebSockets are welcome too; repeatable"),
    )
    serve.add_argument(
        "--allowed-host", action="append", default=[], metavar="NAME", dest="allowed_hosts",
        help=_("a name the server answers to, as a browser's address gives it (games.example.com; "
               "its port aside); repeatable; * for any. Others are refused, so a page whose name was "
               "pointed at this server (DNS rebinding) reaches nothing. By default 127.0.0.1, "
               "localhost and [::1] on loopback; on 0.0.0.0 or :: any address of this machine, and "
               "localhost; else the --host"),
    )
    serve.add_argument(
        "--header-timeout", type=_timeout, default=10.0, metavar="SECONDS",
        help=_("close a connection that has not sent a whole request's headers this long after it "
               "opened or its request began (10)"),
    )
    serve.add_argument(
        "--idle-timeout", type=_timeout, default=5.0, metavar="SECONDS",
        help=_("close a connection idle this long after an answer (5)"),
    )


def serve_processes(settings: Any, workers: int, options: dict[str, Any]) -> None:
    """``workers`` processes on one listening socket, each building the app from ``settings``."""
    import os

    from sqlalchemy.exc import SQLAlchemyError
    from uvicorn import Config
    from uvicorn.supervisors import Multiprocess

    from shutthebox.storage import Database
    from shutthebox.web.app import SETTINGS_VARIABLE, database_url

    try:
        Database.open(database_url(settings)).close()  # migrated once here, not by workers racing
    except SQLAlchemyError as error:
        reason = getattr(error, "orig", None) or error  # the driver's words, without SQLAlchemy's SQL
        raise CliError("the database cannot be opened: {error}", error=str(reason).strip()) from None
    os.environ[SETTINGS_VARIABLE] = settings.to_json()
    config = Config("shutthebox.web.app:app_from_environment", factory=True, workers=workers, **options)
    Multiprocess(config, sockets=[with_tcp_protocol(config.bind_socket())]).run()


def with_tcp_protocol(made: socket.socket) -> socket.socket:
    """The listening socket ``made``, saying it is TCP. uvicorn makes it with protocol 0, so asyncio
    never sets TCP_NODELAY on its connections and every answer waits for a delayed ACK: 44 ms for a
    request 1 ms serves (measured with two workers)."""
    import socket

    listening = socket.socket(made.family, made.type, socket.IPPROTO_TCP, fileno=made.detach())
    listening.set_inheritable(True)
    return listening


def check_redis(url: str) -> None:
    """Refuse a Redis URL that cannot be used before the server starts: the driver, the URL's form."""
    try:
        from redis import Redis
    except ImportError:
        raise CliError("Redis needs its driver: pip install 'shutthebox[redis]'") from None
    from redis.exceptions import RedisError

    try:
        Redis.from_url(url).ping()
    except ValueError as error:
        raise CliError("--redis {url!r}: {error}", url=url, error=error) from None
    except RedisError as error:  # nobody answers there: say so now, not in a worker's traceback
        raise CliError("Redis at {url!r} does not answer: {error}", url=url, error=error) from None


def serve_settings(args: argparse.Namespace) -> Settings:
    """The app's settings from ``serve``'s options: what each worker process is handed, too."""
    from pathlib import Path

    from shutthebox.web.settings import Settings, default_hosts

    return Settings(
        redis_url=args.redis,
        host=args.host,
        port=args.port,
        database_url=args.db,
        data_dir=Path(args.data) if args.data else None,
        bot_delay=args.bot_delay,
        turn_seconds=args.turn_seconds or None,
        room_idle_seconds=float(args.room_idle),
        room_memory_seconds=float(args.room_memory),
        allowed_origins=tuple(args.allowed_origins),
        allowed_hosts=tuple(args.allowed_hosts) or default_hosts(args.host),
        header_timeout=args.header_timeout,
        idle_timeout=args.idle_timeout,
        solver_processes=args.solver_processes,
    )


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from shutthebox.storage import engine_url
        from shutthebox.web import create_app
        from shutthebox.web.connections import http_protocol
        from shutthebox.web.guard import install_log_filter
    except ImportError as error:
        raise CliError(
            "the web app needs {module}: pip install 'shutthebox[web]'",
            module=error.name,
        ) from None
    if args.db:
        url = engine_url(args.db)  # a bad URL, or a missing driver, is reported before the server starts
        from importlib.util import find_spec

        if url.get_backend_name() == "postgresql" and find_spec("psycopg") is None:
            raise CliError("PostgreSQL needs the psycopg driver: pip install 'shutthebox[postgres]'")
    if args.data:
        from shutthebox.cli.paths import check_folder

        check_folder(args.data, "--data")
    if args.workers > 1 and not args.redis:
        raise CliError("several processes share their rooms through Redis: add --redis redis://HOST:6379/0")
    if args.redis:
        check_redis(args.redis)
    settings = serve_settings(args)
    address = f"http://{args.host}:{args.port}/"
    print(_("Shut the Box: {address} (Ctrl+C stops the server)").format(address=address), flush=True)
    install_log_filter()  # the request lines name WebSockets with their ?token=: it is written as …
    options: dict[str, Any] = {
        "host": args.host, "port": args.port, "log_level": args.log_level,
        "ws_max_size": settings.max_frame_bytes,  # a bigger message closes the socket (1009)
        # Only a proxy named here may say whom a request is from: anyone else could pick an
        # address per request and walk around every rate limit.
        "proxy_headers": args.trust_proxy is not None, "forwarded_allow_ips": args.trust_proxy or "",
        # A connection is closed when idle after an answer, and when slow to send its headers.
        "timeout_keep_alive": settings.idle_timeout, "http": http_protocol(settings.header_timeout),
    }
    if args.workers > 1:
        serve_processes(settings, args.workers, options)
    else:
        uvicorn.run(create_app(settings), **options)
    return 0
