"""The solver's subcommands: ``solve``, ``hint``, ``simulate`` and ``review``.

Each handler turns flags into one call of the solver layer and prints the
answer as text or, with ``--json``, as one JSON object.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from shutthebox.cli.parser import add_rules_options, h, number_type, rules_from_args
from shutthebox.core.board import Board, Move
from shutthebox.core.dice import Roll
from shutthebox.core.errors import ParseError, RulesError
from shutthebox.core.rules import Mode, Rules, grade
from shutthebox.i18n import Lang, text
from shutthebox.term.narrate import rules_line

__all__ = ["add_solver_commands"]

def _emit(args: argparse.Namespace, data: dict[str, Any], lines: list[str]) -> int:
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("\n".join(lines))
    return 0


def _pct(p: float) -> str:
    return f"{100 * p:.4f} %"


def _objective_args(parser: argparse.ArgumentParser, lang: Lang, default: str = "score") -> None:
    from shutthebox.strategy.solver import Objective

    parser.add_argument("--objective", choices=[o.value for o in Objective], default=default, help=h(
        lang,
        f"what to optimize ({default}): lowest expected score, shut the box, "
        "score below / at most a target, win the long game, win a two-player round",
        f"qué optimizar ({default}): la menor puntuación esperada, cerrar la caja, "
        "quedar por debajo de un objetivo / no pasar de él, ganar el juego largo, "
        "ganar una ronda a dos jugadores",
    ))
    parser.add_argument("--target", type=int, help=h(
        lang,
        "the score K to beat (beat: < K; tie-or-beat: <= K)",
        "la puntuación K que hay que batir (beat: < K; tie-or-beat: <= K)",
    ))


def _cmd_solve(args: argparse.Namespace) -> int:
    from shutthebox.strategy.solver import Objective, solve, solve_duel, solve_long
    from shutthebox.strategy.solver.exact import exact_value

    rules, lang = rules_from_args(args), args.lang
    objective = Objective.parse(args.objective)
    if objective in (Objective.BEAT, Objective.TIE_OR_BEAT) and args.target is None:
        raise RulesError(
            f"objective {objective} needs --target K",
            key="objective_needs_target", values={"objective": str(objective)},
        )
    data: dict[str, Any] = {
        "tiles": rules.tiles,
        "one_die": str(rules.one_die),
        "one_die_forced": rules.one_die_forced,
        "max_tiles": rules.max_tiles,
        "scoring": str(rules.scoring),
        "doubles_extra_turn": rules.doubles_extra_turn,
        "objective": str(objective),
        "target": args.target,
    }
    if objective is Objective.LONG:
        if args.exact:
            raise RulesError(
                "--exact covers the single-turn objectives; the long game is solved to 1e-12",
                key="exact_not_long",
            )
        long = solve_long(rules)
        data["value"] = long.value
        data["sweeps"] = long.iterations
        data["residual"] = long.residual
        lines = [text(lang, "cs_long", rules=rules_line(lang, rules), value=f"{long.value:.12f}")]
        if args.table:
            _write_long_table(Path(args.table), rules)
            lines.append(text(lang, "cs_table", path=args.table))
        return _emit(args, data, lines)
    solution = solve(rules, objective, args.target)
    data["value"] = solution.value
    if objective is Objective.WIN:
        data["tie"] = solve_duel(rules).tie
    what = text(lang, f"cs_what_{objective.value}", k=args.target)
    shown = f"{solution.value:.12f}"
    if objective is not Objective.SCORE:
        shown += f" ({_pct(solution.value)})"
    lines = [text(lang, "cs_value", rules=rules_line(lang, rules), what=what, value=shown)]
    if args.exact and objective is Objective.WIN:
        raise RulesError(
            "--exact covers the single-turn objectives, not a two-player round", key="exact_not_win"
        )
    if args.exact:
        exact = exact_value(rules, objective, args.target)
        data["exact"] = f"{exact.numerator}/{exact.denominator}"
        lines.append(text(lang, "cs_exactly", value=data["exact"]))
    if args.table:
        _write_table(Path(args.table), rules, solution)
        lines.append(text(lang, "cs_table", path=args.table))
    return _emit(args, data, lines)


def _policy_rows(rules: Rules, solution: Any, role: str | None = None) -> list[list[str]]:
    rows = []
    full = (1 << rules.tiles) - 1
    for mask in range(1, full + 1):
        target = full ^ mask if role == "opener" else mask
        board = Board(rules.tiles, mask)
        row = [role] if role else []
        row += [
            " ".join(map(str, board.open_tiles)),
            str(board.open_sum),
            f"{solution.value_at(target):.12g}",
            str(solution.best_dice(target)),
        ]
        for count, totals in ((1, range(1, 7)), (2, range(2, 13))):
            for total in totals:
                roll = Roll((total,)) if count == 1 else _two_dice(total)
                best = solution.best_move(target, roll)
                row.append(str(best) if best else "-")
        rows.append(row)
    return rows


def _two_dice(total: int) -> Roll:
    """A roll of two dice that is not a double, where one exists (doubles only add extra turns)."""
    for a in range(1, 7):
        b = total - a
        if 1 <= b <= 6 and a != b:
            return Roll((a, b))
    return Roll((total // 2, total // 2))


def _header(role: bool) -> list[str]:
    head = ["role"] if role else []
    return [
        *head, "open", "open_sum", "value", "dice",
        *(f"one_die_{t}" for t in range(1, 7)),
        *(f"two_dice_{t}" for t in range(2, 13)),
    ]


def _write_table(path: Path, rules: Rules, solution: Any) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(_header(False))
        writer.writerows(_policy_rows(rules, solution))


def _write_long_table(path: Path, rules: Rules) -> None:
    from shutthebox.strategy.solver import solve_long

    long = solve_long(rules)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(_header(True))
        writer.writerows(_policy_rows(rules, long.shutter, "shutter"))
        writer.writerows(_policy_rows(rules, long.opener, "opener"))


def _cmd_hint(args: argparse.Namespace) -> int:
    from shutthebox.strategy.advice import advise_position
    from shutthebox.strategy.solver import Objective

    rules, lang = rules_from_args(args), args.lang
    objective = Objective.parse(args.objective)
    if objective is Objective.SCORE and rules.mode is Mode.LONG:
        objective = Objective.LONG
    if objective in (Objective.BEAT, Objective.TIE_OR_BEAT) and args.target is None:
        raise RulesError(
            f"objective {objective} needs --target K",
            key="objective_needs_target", values={"objective": str(objective)},
        )
    board = Board.parse(args.open, rules.tiles)
    opening = args.opening
    target_mask = board.shut_mask if opening else board.mask
    roll = _roll_of(args)
    advice = advise_position(
        rules, target_mask, roll, objective=objective, target=args.target,
        extra=args.extra, opening=opening,
    )
    data: dict[str, Any] = {
        "open": list(board.open_tiles),
        "roll": list(roll.dice) if roll else None,
        "objective": str(objective),
        "target": args.target,
        "lower_is_better": advice.lower_is_better,
        "value": advice.value,
    }
    head = text(lang, "cs_position", board=board, rules=rules_line(lang, rules), objective=objective)
    lines = [head]
    if roll is None:
        data["dice"] = [
            {"dice": c.action.count, "value": c.value, "loss": c.loss}  # type: ignore[union-attr]
            for c in advice.choices
        ]
        lines.append(text(lang, "cs_before_roll"))
        lines += [
            "  " + text(lang, "cs_choice", label=f"{_action_text(lang, c.action):9}",
                        value=f"{c.value:.6f}", loss=f"{c.loss:.6f}")
            for c in advice.choices
        ]
        return _emit(args, data, lines)
    lines[0] += text(lang, "cs_roll", roll=roll, total=roll.total)
    if not advice.choices:
        score = rules.score(board.mask, roll.total)
        data.update({"moves": [], "turn_over": True, "score": score, "grade": grade(board.open_sum)})
        lines.append(text(lang, "cs_turn_over", score=score, grade=grade(board.open_sum)))
        return _emit(args, data, lines)
    data["turn_over"] = False
    data["moves"] = [
        {"shut": list(c.action.tiles), "value": c.value, "loss": c.loss}  # type: ignore[union-attr]
        for c in advice.choices
    ]
    lines += [
        f"  {i}. " + text(lang, "cs_choice", label=f"{_action_text(lang, c.action, opening):15}",
                          value=f"{c.value:.6f}", loss=f"{c.loss:.6f}")
        for i, c in enumerate(advice.choices, start=1)
    ]
    return _emit(args, data, lines)


def _roll_of(args: argparse.Namespace) -> Roll | None:
    """The roll from ``--dice`` faces, or from a ``--roll`` total (two dice unless 1 or told)."""
    if args.dice is not None:
        return Roll.parse(args.dice)
    if args.roll is None:
        return None
    if args.one_die_roll or args.roll == 1:
        if not 1 <= args.roll <= 6:
            raise ParseError(
                f"--roll {args.roll}: one die shows 1 to 6", key="roll_one_die", values={"roll": args.roll}
            )
        return Roll((args.roll,))
    if not 2 <= args.roll <= 12:
        raise ParseError(
            f"--roll {args.roll}: two dice total 2 to 12", key="roll_two_dice", values={"roll": args.roll}
        )
    return _two_dice(args.roll)


def _cmd_simulate(args: argparse.Namespace) -> int:
    rules, lang = rules_from_args(args), args.lang
    if args.vs:
        return _simulate_matches(args, rules)
    from shutthebox.strategy.simulate import simulate

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
        text(lang, "cs_sim_head", games=args.games, strategy=args.strategy,
             rules=rules_line(lang, rules), seed=args.seed),
        text(lang, "cs_mean", mean=f"{result.mean_score:.4f}", lo=f"{lo:.4f}", hi=f"{hi:.4f}"),
        text(lang, "cs_shut_rate", rate=_pct(result.shut_rate), lo=_pct(slo), hi=_pct(shi)),
        text(lang, "cs_speed", speed=f"{result.games_per_second:,.0f}"),
    ]
    if result.beat_rate is not None:
        lines.insert(3, text(lang, "cs_under", k=args.target, rate=_pct(result.beat_rate)))
    if plot:
        _plot(plot, result, lang)
        lines.append(text(lang, "cs_plotted", path=args.plot))
    return _emit(args, data, lines)


def _progress(games: int, quiet: bool) -> Any:
    if quiet or games < 5_000_000:
        return None
    from tqdm import tqdm

    return tqdm(total=games, unit="game", unit_scale=True, file=sys.stderr, leave=False)


def _plot_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ParseError(
            f"--plot {text!r}: the file must end in .png or .svg", key="plot_suffix", values={"path": text}
        )
    return path


def _plot(path: Path, result: Any, lang: Lang) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scores = sorted(result.scores)
    shares = [result.scores[s] / result.games for s in scores]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar([str(s) for s in scores] if len(scores) > 60 else scores, shares, color="#8b5a2b")
    ax.set_xlabel(text(lang, "cs_plot_x"))
    ax.set_ylabel(text(lang, "cs_plot_y"))
    ax.set_title(text(
        lang, "cs_plot_title", strategy=result.strategy, games=f"{result.games:,}",
        tiles=result.rules.tiles, mean=f"{result.mean_score:.3f}", shut=f"{100 * result.shut_rate:.2f}",
    ))
    if len(scores) > 60:
        ax.set_xticks([])
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _simulate_matches(args: argparse.Namespace, rules: Rules) -> int:
    from shutthebox.strategy.bots import make_bot
    from shutthebox.strategy.simulate import simulate_matches

    if rules.mode is Mode.SOLO:
        raise RulesError("--vs plays matches: choose --mode round, elimination or long", key="vs_mode")
    names = [args.strategy, args.vs]
    if names[0] == names[1]:
        names = [f"{args.strategy}-1", f"{args.vs}-2"]
    bots = {
        names[0]: lambda rng: make_bot(args.strategy, rng),
        names[1]: lambda rng: make_bot(args.vs, rng),
    }
    stats = simulate_matches(rules, bots, args.games, seed=args.seed, rounds=1)
    data = {"games": stats.games, "wins": stats.wins, "draws": stats.draws, "rules": rules.to_dict()}
    lang = args.lang
    lines = [text(lang, "cs_matches", games=args.games, rules=rules_line(lang, rules), seed=args.seed)]
    lines += [
        text(lang, "cs_wins", name=f"{name:12}", wins=f"{wins:6}", rate=_pct(stats.win_rate(name)))
        for name, wins in stats.wins.items()
    ]
    if stats.draws:
        lines.append(text(lang, "cs_draws", draws=stats.draws))
    return _emit(args, data, lines)


def _cmd_review(args: argparse.Namespace) -> int:
    from shutthebox.core.record import GameRecord
    from shutthebox.strategy.review import review

    record = GameRecord.load(Path(args.file))
    result = review(record)
    data = result.to_json()
    lang = args.lang
    lines = [text(lang, "cs_review", file=args.file, rules=rules_line(lang, record.rules))]
    for d in result.decisions:
        where = f"[{d.board}]" + (text(lang, "cs_rolled", roll=d.roll) if d.roll else "")
        chosen = _action_text(lang, d.chosen, d.opening)
        verdict = text(lang, f"verdict_{d.verdict}")
        note = "" if d.verdict == "best" else text(
            lang, "cs_better", best=_action_text(lang, d.best, d.opening),
            value=f"{d.value_best:.4f}", loss=f"{d.loss:.4f}",
        )
        lines.append(f"  {d.player:10} {where:34} {chosen:12} {verdict:12} {d.value_chosen:.4f}{note}")
    for player, accuracy in result.accuracy.items():
        lines.append(text(lang, "cs_accuracy", player=player, accuracy=f"{accuracy:.1f}"))
    return _emit(args, data, lines)


def _action_text(lang: Lang, action: Any, opening: bool = False) -> str:
    """A choice in words: ``shut 5+3`` (``open`` for the long game's opener) or ``2 dice``."""
    if isinstance(action, Move):
        return text(lang, "cs_open" if opening else "cs_shut", move=action)
    return text(lang, "one_die" if action.count == 1 else "two_dice")


_STRATEGIES_ES: dict[str, str] = {
    "random": "cualquier opción legal, todas igual de probables",
    "greedy": "las fichas más altas primero; un dado cuando se permite",
    "fewest": "el menor número de fichas y luego las más altas; un dado cuando se permite",
    "heuristic": "dejar el tablero con más probabilidades de aprovechar la siguiente tirada",
    "optimal": "el solucionador exacto, menor puntuación esperada",
    "optimal-score": "el solucionador exacto, menor puntuación esperada",
    "optimal-shut": "el solucionador exacto, más probabilidades de cerrar la caja",
    "optimal-beat": "el solucionador exacto, más probabilidades de quedar por debajo de --target",
}
"""The strategies of ``simulate`` in Spanish (``STRATEGIES`` holds them in English)."""


def _strategies(lang: Lang) -> str:
    from shutthebox.strategy.simulate import STRATEGIES

    shown = {k: h(lang, v, _STRATEGIES_ES.get(k, v)) for k, v in STRATEGIES.items()}
    return h(lang, "strategies: ", "estrategias: ") + "; ".join(f"{k}: {v}" for k, v in shown.items())


def add_solver_commands(sub: Any, lang: Lang) -> None:
    """Register solve, hint, simulate and review on the ``shutthebox`` parser, helped in ``lang``."""
    from shutthebox.strategy.simulate import STRATEGIES

    json_help = h(lang, "print one JSON object", "imprimir un objeto JSON")
    solve = sub.add_parser(
        "solve",
        lang=lang,
        help=h(lang, "value of the full board under optimal play",
               "valor del tablero completo con juego óptimo"),
        description=h(
            lang,
            "Solve the game exactly: the value of a full board under optimal play.",
            "Resuelve el juego de forma exacta: el valor del tablero completo con juego óptimo.",
        ),
    )
    add_rules_options(solve, lang)
    _objective_args(solve, lang)
    solve.add_argument("--exact", action="store_true", help=h(
        lang, "also print the exact rational value", "mostrar también el valor racional exacto"
    ))
    solve.add_argument("--table", metavar="FILE", help=h(
        lang, "write the whole optimal policy as CSV", "escribir en CSV toda la estrategia óptima"
    ))
    solve.add_argument("--json", action="store_true", help=json_help)
    solve.set_defaults(handler=_cmd_solve)

    hint = sub.add_parser(
        "hint",
        lang=lang,
        help=h(lang, "rank the choices of a position", "ordenar las opciones de una posición"),
        description=h(
            lang,
            "Rank every choice of a position by the exact solver: one die or two before "
            "a roll, or every legal move for a roll.",
            "Ordena cada opción de una posición con el solucionador exacto: uno o dos dados antes "
            "de la tirada, o cada jugada legal para una tirada.",
        ),
    )
    hint.add_argument("--open", required=True, metavar="TILES", help=h(
        lang, "open tiles, e.g. 1,5,9 (- for none)", "fichas abiertas, p. ej. 1,5,9 (- si no queda ninguna)"
    ))
    rolled = hint.add_mutually_exclusive_group()
    rolled.add_argument("--dice", metavar="FACES", help=h(
        lang,
        "the dice rolled, e.g. 3,1 (or 5 for one die)",
        "los dados que salieron, p. ej. 3,1 (o 5 con un solo dado)",
    ))
    rolled.add_argument("--roll", type=int, metavar="TOTAL", help=h(
        lang, "the total rolled, e.g. 4", "el total de la tirada, p. ej. 4"
    ))
    hint.add_argument("--one-die-roll", action="store_true", help=h(
        lang, "with --roll: the total came from one die", "con --roll: el total salió de un solo dado"
    ))
    hint.add_argument("--extra", type=number_type(int, 0), default=0, help=h(
        lang, "extra turns held from doubles (0)", "turnos extra ganados con dobles y sin usar (0)"
    ))
    hint.add_argument("--opening", action="store_true", help=h(
        lang, "long game: the player opens shut tiles", "juego largo: el jugador abre fichas cerradas"
    ))
    add_rules_options(hint, lang)
    _objective_args(hint, lang)
    hint.add_argument("--json", action="store_true", help=json_help)
    hint.set_defaults(handler=_cmd_hint)

    simulate = sub.add_parser(
        "simulate",
        lang=lang,
        help=h(lang, "simulate many games of a strategy", "simular muchas partidas de una estrategia"),
        description=h(
            lang,
            "Simulate many turns of a strategy (vectorized), or with --vs whole matches "
            "between two bots.",
            "Simula muchos turnos de una estrategia (vectorizado) o, con --vs, partidas completas "
            "entre dos robots.",
        ),
        epilog=_strategies(lang),
    )
    simulate.add_argument("--strategy", choices=list(STRATEGIES), default="optimal", help=h(
        lang, "strategy", "estrategia"
    ))
    simulate.add_argument("--games", type=_count, default=100_000, help=h(
        lang, "number of games (100000)", "número de partidas (100000)"
    ))
    simulate.add_argument("--seed", type=int, default=0, help=h(
        lang, "seed of the dice (0)", "semilla de los dados (0)"
    ))
    simulate.add_argument("--target", type=int, help=h(
        lang,
        "also report P(score < K); optimal-beat aims at it",
        "informar también de P(puntuación < K); optimal-beat busca quedar por debajo",
    ))
    simulate.add_argument("--vs", metavar="BOT", help=h(
        lang, "play matches against this bot instead", "jugar en su lugar partidas contra este robot"
    ))
    simulate.add_argument("--plot", metavar="FILE", help=h(
        lang,
        "plot the score distribution (.png or .svg)",
        "dibujar la distribución de las puntuaciones (.png o .svg)",
    ))
    simulate.add_argument("--no-progress", action="store_true", help=h(
        lang, "no progress bar", "sin barra de progreso"
    ))
    add_rules_options(simulate, lang)
    simulate.add_argument("--json", action="store_true", help=json_help)
    simulate.set_defaults(handler=_cmd_simulate)

    rev = sub.add_parser(
        "review",
        lang=lang,
        help=h(lang, "grade every decision of a recorded game",
               "calificar cada decisión de una partida registrada"),
        description=h(
            lang,
            "Review a game record: each decision graded by what it cost against optimal "
            "play, and each player's accuracy.",
            "Revisa el registro de una partida: cada decisión se califica por lo que costó frente "
            "al juego óptimo, con la precisión de cada jugador.",
        ),
    )
    rev.add_argument("file", metavar="RECORD", help=h(
        lang, "a game record (JSON)", "el registro de una partida (JSON)"
    ))
    rev.add_argument("--json", action="store_true", help=json_help)
    rev.set_defaults(handler=_cmd_review)


def _games(text: str) -> int:
    """A number of games: ``100000``, ``100_000`` or ``1e5``."""
    return int(float(text)) if "e" in text.lower() else int(text.replace("_", ""))


_count = number_type(_games, 1)
