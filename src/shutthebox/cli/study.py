"""The solver's subcommands: ``solve``, ``hint``, ``simulate`` and ``review``.

Each handler turns flags into one call of the solver layer and prints the
answer as text or, with ``--json``, as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys

from shutthebox.cli.parser import CliError, add_rules_options, number_type, rules_from_args, whole
from shutthebox.core.board import Board
from shutthebox.core.dice import Roll
from shutthebox.core.errors import ParseError, RulesError
from shutthebox.core.rules import Mode, Rules, grade
from shutthebox.i18n import _
from shutthebox.i18n.words import OBJECTIVES, action_words, rules_line, verdict_name
from shutthebox.strategy.names import ROUND_PLAYERS, STRATEGIES, Objective

TYPE_CHECKING = False  # typing is not imported at run time: a hint starts here
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from shutthebox.strategy.advice import Seat

__all__ = [
    "hint_arguments",
    "review_arguments",
    "run_hint",
    "run_review",
    "run_simulate",
    "run_solve",
    "simulate_arguments",
    "solve_arguments",
]

def _emit(args: argparse.Namespace, data: dict[str, Any], lines: list[str]) -> int:
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("\n".join(lines))
    return 0


def _pct(p: float) -> str:
    return f"{100 * p:.4f} %"


def _objective_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--objective", choices=[o.value for o in Objective], default="score", help=_(
        "what to optimize (score): lowest expected score, shut the box, score below / at most a "
        "target, win the long game, win a round, the stakes won in a round"
    ))
    parser.add_argument("--target", type=whole, help=_("the score K to beat (beat: < K; tie-or-beat: <= K)"))
    parser.add_argument(
        "--players", type=number_type(int, ROUND_PLAYERS.start, ROUND_PLAYERS.stop - 1), default=2,
        help=_("win, stake: the players of the round, 2 to 8 (2)"),
    )
    parser.add_argument(
        "--seat", type=number_type(int, 1, ROUND_PLAYERS.stop - 1),
        help=_("win, stake: the player's place in the order of play, 1 first (1)"),
    )
    parser.add_argument("--best", type=whole, help=_("win, stake: the best score posted before this seat"))
    parser.add_argument(
        "--ties", type=number_type(int, 1, ROUND_PLAYERS.stop - 2), default=1,
        help=_("win, stake: how many players posted the best score (1)"),
    )


def _seat_of(args: argparse.Namespace, objective: Objective) -> Seat | None:
    """The round's seat the flags name (win, stake); `RulesError` when they do not fit together."""
    from shutthebox.strategy.advice import ROUND_OBJECTIVES, Seat

    given = args.seat is not None or args.best is not None or args.ties != 1 or args.players != 2
    if objective not in ROUND_OBJECTIVES:
        if given:
            raise RulesError("--players, --seat, --best and --ties go with --objective win or stake")
        return None
    seat = (args.seat or 1) - 1
    if seat >= args.players:
        raise RulesError(
            "--seat {seat} is not a seat of a round of {players}", seat=seat + 1, players=args.players
        )
    if seat == 0 and args.best is not None:
        raise RulesError("--best: the first seat plays before any score is posted")
    if seat > 0 and args.best is None:
        raise RulesError("--seat {seat} plays after a score is posted: give it with --best S", seat=seat + 1)
    if args.ties > max(seat, 1):
        raise RulesError(
            "--ties {ties}: only {seat} players play before seat {place}",
            ties=args.ties, seat=seat, place=seat + 1,
        )
    return Seat(args.players, seat, args.best, args.ties, args.players)


def run_solve(args: argparse.Namespace) -> int:
    from shutthebox.cli.paths import writable_file
    from shutthebox.cli.progress import working
    from shutthebox.strategy.solver import solve, solve_long
    from shutthebox.strategy.solver.exact import exact_value

    table = writable_file(args.table, "--table") if args.table else None  # not after the solve
    objective = Objective.parse(args.objective)
    if objective is Objective.LONG:  # the long game under its own rules (extra turns on doubles)
        if args.mode not in (None, Mode.LONG.value):
            raise RulesError("--objective long solves the long game: leave out --mode or give --mode long")
        args.mode = Mode.LONG.value
    rules = rules_from_args(args)
    # Translators: shown on standard error, followed by the seconds spent, while a solve runs.
    busy = _("solving…")
    if objective in (Objective.BEAT, Objective.TIE_OR_BEAT) and args.target is None:
        raise RulesError("objective {objective} needs --target K", objective=str(objective))
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
            raise RulesError("--exact covers the single-turn objectives; the long game is solved to 1e-12")
        with working(busy, args.json):
            long = solve_long(rules)
        data["value"] = long.value
        data["sweeps"] = long.iterations
        data["residual"] = long.residual
        lines = [_("Long game, {rules}: the starter wins with probability {value}").format(
            rules=rules_line(rules), value=f"{long.value:.12f}"
        )]
        if table is not None:
            _write_table_file(table, rules, None)
            lines.append(_("Policy table written to {path}").format(path=args.table))
        return _emit(args, data, lines)
    seat = _seat_of(args, objective)
    if seat is not None:
        if args.exact:  # refused before the round is solved
            raise RulesError("--exact covers the single-turn objectives, not a round")
        if table is not None and seat.seat > 0:
            raise RulesError(
                "--table writes the first seat's policy: a later seat's depends on the scores posted"
            )
        return _solve_round(args, rules, objective, seat, data=data, table=table)
    with working(busy, args.json):
        solution = solve(rules, objective, args.target)
    data["value"] = solution.value
    what = _(OBJECTIVES[objective]).format(target=args.target)
    shown = f"{solution.value:.12f}"
    if objective is not Objective.SCORE:
        shown += f" ({_pct(solution.value)})"
    lines = [_("{rules}: optimal {what} = {value}").format(rules=rules_line(rules), what=what, value=shown)]
    if args.exact:
        with working(busy, args.json):
            exact = exact_value(rules, objective, args.target)
        data["exact"] = f"{exact.numerator}/{exact.denominator}"
        lines.append(_("exactly {value}").format(value=data["exact"]))
    if table is not None:
        _write_table_file(table, rules, solution)
        lines.append(_("Policy table written to {path}").format(path=args.table))
    return _emit(args, data, lines)


def _solve_round(
    args: argparse.Namespace, rules: Rules, objective: Objective, seat: Seat, *, data: dict[str, Any],
    table: Path | None,
) -> int:
    """``solve --objective win|stake``: every seat's value from the start, and the asked seat's."""
    from shutthebox.cli.progress import working
    from shutthebox.strategy.solver import solve_round

    # Translators: shown on standard error, followed by the seconds spent, while a solve runs.
    with working(_("solving…"), args.json):
        solved = solve_round(rules, seat.players, objective)
        turn = solved.turn(seat.seat, seat.best, seat.ties)
    chance = objective is Objective.WIN

    def shown(value: float) -> str:
        if chance:
            return f"{value:.12f} ({_pct(value)})"
        return _("{value} stakes").format(value=f"{value:+.12f}")

    data.update({
        "shut_wins": rules.shut_wins, "players": seat.players, "seat": seat.seat + 1, "best": seat.best,
        "ties": seat.ties, "value": turn.value, "seats": list(solved.seats),
    })
    if objective is Objective.WIN and seat.players == 2:
        data["tie"] = solved.seats[1]  # what a tie is worth to the second player: the round again
    what = _("each seat's chance to win the round") if chance else _("each seat's expected result in stakes")
    lines = [_("{rules}, {players} players: {what}").format(
        rules=rules_line(rules), players=seat.players, what=what
    )]
    lines += [
        "  " + _("seat {seat}: {value}").format(seat=i, value=shown(v))
        for i, v in enumerate(solved.seats, start=1)
    ]
    if seat.seat > 0:
        lines.append(_("Seat {seat}, after a best score of {best} posted by {ties}: {value}").format(
            seat=seat.seat + 1, best=seat.best, ties=seat.ties, value=shown(turn.value)
        ))
    if table is not None:
        _write_table_file(table, rules, turn)
        lines.append(_("Policy table written to {path}").format(path=args.table))
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
    import csv  # only ``--table`` writes one; a hint should not wait for it

    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(_header(False))
        writer.writerows(_policy_rows(rules, solution))


def _write_long_table(path: Path, rules: Rules) -> None:
    import csv

    from shutthebox.strategy.solver import solve_long

    long = solve_long(rules)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(_header(True))
        writer.writerows(_policy_rows(rules, long.shutter, "shutter"))
        writer.writerows(_policy_rows(rules, long.opener, "opener"))


def _write_table_file(path: Path, rules: Rules, solution: Any) -> None:
    """The policy table to ``path`` (checked before the solve); a failure now is one line too."""
    try:
        if solution is None:
            _write_long_table(path, rules)
        else:
            _write_table(path, rules, solution)
    except OSError as error:
        raise CliError("--table {path!r}: {error}", path=str(path), error=error.strerror or error) from None


def run_hint(args: argparse.Namespace) -> int:
    from shutthebox.strategy.advice import advise_position

    rules = rules_from_args(args)
    objective = Objective.parse(args.objective)
    if objective is Objective.SCORE and rules.mode is Mode.LONG:
        objective = Objective.LONG
    if objective in (Objective.BEAT, Objective.TIE_OR_BEAT) and args.target is None:
        raise RulesError("objective {objective} needs --target K", objective=str(objective))
    board = Board.parse(args.open, rules.tiles)
    opening = args.opening
    target_mask = board.shut_mask if opening else board.mask
    roll = _roll_of(args)
    seat = _seat_of(args, objective)
    advice = advise_position(
        rules, target_mask, roll, objective=objective, target=args.target,
        extra=args.extra, opening=opening, one_off=True, seat=seat,
    )
    data: dict[str, Any] = {
        "open": list(board.open_tiles),
        "roll": list(roll.dice) if roll else None,
        "objective": str(objective),
        "target": args.target,
        "lower_is_better": advice.lower_is_better,
        "value": advice.value,
    }
    if seat is not None:
        data["seat"] = {**seat.to_json(), "seat": seat.seat + 1}
    head = _("Board [{board}], {rules}; objective {objective}").format(
        board=board, rules=rules_line(rules), objective=objective
    )
    lines = [head]
    if roll is None:
        data["dice"] = [
            {"dice": c.action.count, "value": c.value, "loss": c.loss}  # type: ignore[union-attr]
            for c in advice.choices
        ]
        lines.append(_("Before rolling:"))
        lines += [
            "  " + _("{label} {value}  (loss {loss})").format(
                label=f"{action_words(c.action):9}", value=f"{c.value:.6f}", loss=f"{c.loss:.6f}"
            )
            for c in advice.choices
        ]
        return _emit(args, data, lines)
    lines[0] += _("; roll {roll} = {total}").format(roll=roll, total=roll.total)
    if not advice.choices:
        score = rules.score(board.mask, roll.total)
        data.update({"moves": [], "turn_over": True, "score": score, "grade": grade(board.open_sum)})
        over = _("No move: the turn is over with score {score} (grade {grade}).")
        lines.append(over.format(score=score, grade=grade(board.open_sum)))
        return _emit(args, data, lines)
    data["turn_over"] = False
    data["moves"] = [
        {"shut": list(c.action.tiles), "value": c.value, "loss": c.loss}  # type: ignore[union-attr]
        for c in advice.choices
    ]
    lines += [
        f"  {i}. " + _("{label} {value}  (loss {loss})").format(
            label=f"{action_words(c.action, opening=opening):15}",
            value=f"{c.value:.6f}",
            loss=f"{c.loss:.6f}",
        )
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
            raise ParseError("--roll {roll}: one die shows 1 to 6", roll=args.roll)
        return Roll((args.roll,))
    if not 2 <= args.roll <= 12:
        raise ParseError("--roll {roll}: two dice total 2 to 12", roll=args.roll)
    return _two_dice(args.roll)


def run_simulate(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
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
        _("{games} games of {strategy}, {rules}, seed {seed}").format(
            games=args.games, strategy=args.strategy, rules=rules_line(rules), seed=args.seed
        ),
        "  " + _("mean score  {mean}  (95% CI {lo} .. {hi})").format(
            mean=f"{result.mean_score:.4f}", lo=f"{lo:.4f}", hi=f"{hi:.4f}"
        ),
        "  " + _("shut rate   {rate}  (95% CI {lo} .. {hi})").format(
            rate=_pct(result.shut_rate), lo=_pct(slo), hi=_pct(shi)
        ),
        "  " + _("speed       {speed} games/s").format(speed=f"{result.games_per_second:,.0f}"),
    ]
    if result.beat_rate is not None:
        lines.insert(3, "  " + _("under {k}    {rate}").format(k=args.target, rate=_pct(result.beat_rate)))
    if plot:
        try:
            _plot(plot, result)
        except OSError as error:
            reason = error.strerror or error
            raise CliError("--plot {path!r}: {error}", path=args.plot, error=reason) from None
        lines.append(_("Score distribution plotted to {path}").format(path=args.plot))
    return _emit(args, data, lines)


def _progress(games: int, quiet: bool) -> Any:
    if quiet or games < 5_000_000:
        return None
    from tqdm import tqdm

    # Translators: the unit of the progress bar of a long simulation, as in "2.5Mgame/s".
    return tqdm(total=games, unit=_("game"), unit_scale=True, file=sys.stderr, leave=False)


def _plot_path(text: str) -> Path:
    """The file to plot into; refused before any game is played (a wrong suffix, no matplotlib)."""
    from pathlib import Path  # not at the top: `shutthebox hint` answers sooner without it

    path = Path(text)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ParseError("--plot {path!r}: the file must end in .png or .svg", path=text)
    from importlib.util import find_spec

    from shutthebox.cli.paths import writable_file

    if find_spec("matplotlib") is None:
        raise CliError("--plot needs matplotlib: pip install 'shutthebox[sim]'")
    return writable_file(text, "--plot")


def _plot(path: Path, result: Any) -> None:
    import matplotlib

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
    import random

    from shutthebox.cli.progress import counter
    from shutthebox.strategy.bots import Bot, make_bot
    from shutthebox.strategy.simulate import simulate_matches

    if rules.mode is Mode.SOLO:
        raise RulesError("--vs plays matches: choose --mode round, elimination or long")
    names = [args.strategy, args.vs]
    if names[0] == names[1]:
        names = [f"{args.strategy}-1", f"{args.vs}-2"]
    # Translators: the unit of the progress bar of simulated matches, as in "120match/s".
    progress = counter(args.games, _("match"), args.no_progress or args.json)

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
            name=f"{name:12}", wins=f"{wins:6}", rate=_pct(stats.win_rate(name))
        )
        for name, wins in stats.wins.items()
    ]
    if stats.draws:
        lines.append("  " + _("draws {draws}").format(draws=stats.draws))
    return _emit(args, data, lines)


def run_review(args: argparse.Namespace) -> int:
    from pathlib import Path

    from shutthebox.core.record import GameRecord
    from shutthebox.strategy.review import review

    record = GameRecord.load(Path(args.file))
    result = review(record)
    data = result.to_json()
    lines = [_("Review of {file}: {rules}").format(file=args.file, rules=rules_line(record.rules))]
    for d in result.decisions:
        where = f"[{d.board}]" + (_(" roll {roll}").format(roll=d.roll) if d.roll else "")
        chosen = action_words(d.chosen, opening=d.opening)
        verdict = verdict_name(d.verdict)
        note = "" if d.verdict == "best" else _("; best {best} ({value}), loss {loss}").format(
            best=action_words(d.best, opening=d.opening), value=f"{d.value_best:.4f}", loss=f"{d.loss:.4f}"
        )
        lines.append(f"  {d.player:10} {where:34} {chosen:12} {verdict:12} {d.value_chosen:.4f}{note}")
    for player, accuracy in result.accuracy.items():
        lines.append(_("Accuracy of {player}: {accuracy} %").format(
            player=player, accuracy=f"{accuracy:.1f}"
        ))
    return _emit(args, data, lines)


def _strategies() -> str:
    shown = "; ".join(f"{name}: {_(described)}" for name, described in STRATEGIES.items())
    return _("strategies: {strategies}").format(strategies=shown)


def solve_arguments(solve: argparse.ArgumentParser) -> None:
    add_rules_options(solve)
    _objective_args(solve)
    solve.add_argument("--exact", action="store_true", help=_("also print the exact rational value"))
    solve.add_argument("--table", metavar="FILE", help=_("write the whole optimal policy as CSV"))
    solve.add_argument("--json", action="store_true", help=_("print one JSON object"))


def hint_arguments(hint: argparse.ArgumentParser) -> None:
    hint.add_argument("--open", required=True, metavar="TILES", help=_("open tiles, e.g. 1,5,9 (- for none)"))
    rolled = hint.add_mutually_exclusive_group()
    rolled.add_argument("--dice", metavar="FACES", help=_("the dice rolled, e.g. 3,1 (or 5 for one die)"))
    rolled.add_argument("--roll", type=whole, metavar="TOTAL", help=_("the total rolled, e.g. 4"))
    hint.add_argument(
        "--one-die-roll",
        action="store_true", help=_("with --roll: the total came from one die"),
    )
    hint.add_argument(
        "--extra", type=number_type(int, 0), default=0, help=_("extra turns held from doubles (0)")
    )
    hint.add_argument("--opening", action="store_true", help=_("long game: the player opens shut tiles"))
    add_rules_options(hint)
    _objective_args(hint)
    hint.add_argument("--json", action="store_true", help=_("print one JSON object"))


def simulate_arguments(simulate: argparse.ArgumentParser) -> None:
    simulate.epilog = _strategies()
    simulate.add_argument("--strategy", choices=list(STRATEGIES), default="optimal", help=_("strategy"))
    simulate.add_argument("--games", type=_count, default=100_000, help=_("number of games (100000)"))
    simulate.add_argument("--seed", type=whole, default=0, help=_("seed of the dice (0)"))
    simulate.add_argument("--target", type=whole, help=_("also report P(score < K); optimal-beat aims at it"))
    simulate.add_argument("--vs", metavar="BOT", help=_("play matches against this bot instead"))
    simulate.add_argument("--plot", metavar="FILE", help=_("plot the score distribution (.png or .svg)"))
    simulate.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    add_rules_options(simulate)
    simulate.add_argument("--json", action="store_true", help=_("print one JSON object"))


def review_arguments(review: argparse.ArgumentParser) -> None:
    review.add_argument("file", metavar="RECORD", help=_("a game record (JSON)"))
    review.add_argument("--json", action="store_true", help=_("print one JSON object"))


def _games(text: str) -> int:
    """A number of games: ``100000``, ``100_000`` or ``1e5``."""
    return int(float(text)) if "e" in text.lower() else int(text.replace("_", ""))


_count = number_type(_games, 1)
