"""``shutthebox solve``: the value of a full board under optimal play, and the whole policy as CSV."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Any

from shutthebox.cli.parser import CliError, rules_from_args
from shutthebox.cli.paths import writable_file
from shutthebox.cli.progress import working
from shutthebox.cli.solving import check_memory, check_target, emit, pct, seat_of, two_dice
from shutthebox.core.board import Board
from shutthebox.core.dice import Roll
from shutthebox.core.errors import RulesError
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import _
from shutthebox.i18n.words import OBJECTIVES, rules_line
from shutthebox.strategy.choices import Seat
from shutthebox.strategy.cost import cost_of
from shutthebox.strategy.names import Objective
from shutthebox.strategy.solver import solve, solve_long, solve_round
from shutthebox.strategy.solver.exact import exact_value

__all__ = ["run_solve"]


def run_solve(args: argparse.Namespace) -> int:
    table = writable_file(args.table, "--table") if args.table else None  # not after the solve
    objective = Objective.parse(args.objective)
    if objective is Objective.LONG:  # the long game under its own rules (extra turns on doubles)
        if args.mode not in (None, Mode.LONG.value):
            raise RulesError("--objective long solves the long game: leave out --mode or give --mode long")
        args.mode = Mode.LONG.value
    rules = rules_from_args(args)
    # Translators: shown on standard error, followed by the seconds spent, while a solve runs.
    busy = _("solving…")
    check_target(objective, args.target)
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
        check_memory(cost_of(rules, objective).bytes)
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
        return emit(args, data, lines)
    seat = seat_of(args, objective)
    check_memory(cost_of(rules, objective, seat.players if seat is not None else 2).bytes)
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
        shown += f" ({pct(solution.value)})"
    lines = [_("{rules}: optimal {what} = {value}").format(rules=rules_line(rules), what=what, value=shown)]
    if args.exact:
        with working(busy, args.json):
            exact = exact_value(rules, objective, args.target)
        data["exact"] = f"{exact.numerator}/{exact.denominator}"
        lines.append(_("exactly {value}").format(value=data["exact"]))
    if table is not None:
        _write_table_file(table, rules, solution)
        lines.append(_("Policy table written to {path}").format(path=args.table))
    return emit(args, data, lines)


def _solve_round(
    args: argparse.Namespace, rules: Rules, objective: Objective, seat: Seat, *, data: dict[str, Any],
    table: Path | None,
) -> int:
    """``solve --objective win|stake``: every seat's value from the start, and the asked seat's."""

    # Translators: shown on standard error, followed by the seconds spent, while a solve runs.
    with working(_("solving…"), args.json):
        solved = solve_round(rules, seat.players, objective)
        turn = solved.turn(seat.seat, seat.best, seat.ties)
    chance = objective is Objective.WIN

    def shown(value: float) -> str:
        if chance:
            return f"{value:.12f} ({pct(value)})"
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
    return emit(args, data, lines)


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
                roll = Roll((total,)) if count == 1 else two_dice(total)
                best = solution.best_move(target, roll)
                row.append(str(best) if best else "-")
        rows.append(row)
    return rows


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


