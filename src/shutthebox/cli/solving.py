"""What the solver's commands share: the objective flags, the seat a round is solved for, and
one answer printed as text or, with ``--json``, as one JSON object."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from shutthebox.cli.parser import number_type, whole
from shutthebox.cli.printable import printable
from shutthebox.core.dice import Roll
from shutthebox.core.errors import RulesError
from shutthebox.i18n import _
from shutthebox.strategy.choices import Seat
from shutthebox.strategy.names import ROUND_OBJECTIVES, ROUND_PLAYERS, Objective

__all__ = ["check_memory", "emit", "machine_bytes", "objective_args", "pct", "seat_of", "two_dice"]


def emit(args: argparse.Namespace, data: dict[str, Any], lines: list[str]) -> int:
    """Print the answer: its ``lines``, or with ``--json`` its ``data`` as one JSON object; a name
    a record gave it (``review``) is anyone's text, printed as `printable` writes it."""
    if args.json:
        print(printable(json.dumps(data, ensure_ascii=False)))
    else:
        print("\n".join(map(printable, lines)))
    return 0


def pct(p: float) -> str:
    return f"{100 * p:.4f} %"


def check_target(objective: Objective, target: int | None) -> None:
    """Refuse an objective that needs ``--target K`` without one, or with a K no score can meet: every
    score is 0 or more, so scoring under K < 1 (or at most K < 0) has no chance to compute."""
    if objective not in (Objective.BEAT, Objective.TIE_OR_BEAT):
        return
    if target is None:
        raise RulesError("objective {objective} needs --target K", objective=str(objective))
    lowest = 1 if objective is Objective.BEAT else 0
    if target < lowest:
        raise RulesError(
            "--target {target}: no score is {relation} {target}, a score is 0 or more; give {lowest} or more",
            target=target, relation="<" if objective is Objective.BEAT else "<=", lowest=lowest,
        )


def machine_bytes() -> int | None:
    """This machine's memory, in bytes (None where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(needed: int) -> None:
    """Refuse, before it starts, a solve whose peak memory (``needed`` bytes, `strategy.cost`) is more
    than this machine has: it could only end killed, after minutes (a round of eight under ``digits``
    on 12 tiles wants 27 GB)."""
    total = machine_bytes()
    if total is not None and needed > total:
        raise RulesError(
            "this solve needs about {needed} GB of memory, more than this machine has ({total} GB): "
            "ask it of fewer players, fewer tiles or another objective",
            needed=-(-needed // 10**9), total=total // 10**9,
        )


def objective_args(parser: argparse.ArgumentParser) -> None:
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


def seat_of(args: argparse.Namespace, objective: Objective) -> Seat | None:
    """The round's seat the flags name (win, stake); `RulesError` when they do not fit together."""
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


def two_dice(total: int) -> Roll:
    """A roll of two dice that is not a double, where one exists (doubles only add extra turns)."""
    for a in range(1, 7):
        b = total - a
        if 1 <= b <= 6 and a != b:
            return Roll((a, b))
    return Roll((total // 2, total // 2))
