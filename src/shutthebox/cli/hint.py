"""``shutthebox hint``: every choice of a position ranked by the exact solver."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from shutthebox.cli.parser import rules_from_args
from shutthebox.cli.solving import check_memory, check_target, emit, seat_of, two_dice
from shutthebox.core.board import Board
from shutthebox.core.dice import Roll
from shutthebox.core.errors import ParseError, RulesError
from shutthebox.core.rules import Mode, Rules, grade
from shutthebox.i18n import _
from shutthebox.i18n.words import OBJECTIVE_VALUES, action_words, loss_words, rules_line, value_words
from shutthebox.strategy.choices import Choice, plain_advice
from shutthebox.strategy.names import Objective

__all__ = ["run_hint"]


def run_hint(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    objective = Objective.parse(args.objective)
    if objective is Objective.SCORE and rules.mode is Mode.LONG:
        objective = Objective.LONG
    check_target(objective, args.target)
    if args.opening and rules.mode is not Mode.LONG:
        raise RulesError("--opening is the long game's: give --mode long (or --preset long)")
    if args.extra and not rules.doubles_extra_turn:
        raise RulesError(
            "--extra {extra}: extra turns come from doubles, which these rules do not give "
            "(--doubles-extra-turn, on in the long game)", extra=args.extra,
        )
    board = Board.parse(args.open, rules.tiles)
    opening = args.opening
    target_mask = board.shut_mask if opening else board.mask
    if not target_mask:  # nothing left to work on: no roll comes, no choice to rank (§2, §5.4)
        if opening:
            raise RulesError(
                "--open {tiles} --opening: every tile is already open, so the opener's turn is over: "
                "there is no choice left to rank", tiles=args.open,
            )
        raise RulesError(
            "--open {tiles}: the box is already shut, so the turn is over: there is no choice left to rank",
            tiles=args.open,
        )
    roll = _roll_of(args)
    if roll is not None:
        _check_dice(rules, target_mask, len(roll.dice))
    seat = seat_of(args, objective)
    advice = plain_advice(  # a few open tiles: answered in plain Python, at once
        rules, target_mask, roll, objective=objective, target=args.target,
        extra=args.extra, opening=opening, seat=seat,
    )
    if advice is None:
        from shutthebox.strategy.advice import advise_position  # the solver, NumPy: a bigger position
        from shutthebox.strategy.cost import cost_of

        check_memory(cost_of(rules, objective, seat.players if seat is not None else 2).bytes)

        advice = advise_position(
            rules, target_mask, roll, objective=objective, target=args.target,
            extra=args.extra, opening=opening, seat=seat,
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
        lines += _ranked(advice.choices, objective, args.target, opening=False)
        return emit(args, data, lines)
    lines[0] += _("; roll {roll} = {total}").format(roll=roll, total=roll.total)
    if not advice.choices:
        score = rules.score(board.mask, roll.total)
        data.update({"moves": [], "turn_over": True, "score": score, "grade": grade(board.open_sum)})
        over = _("No move: the turn is over with score {score} (grade {grade}).")
        lines.append(over.format(score=score, grade=grade(board.open_sum)))
        return emit(args, data, lines)
    data["turn_over"] = False
    data["moves"] = [
        {"shut": list(c.action.tiles), "value": c.value, "loss": c.loss}  # type: ignore[union-attr]
        for c in advice.choices
    ]
    lines += _ranked(advice.choices, objective, args.target, opening=opening)
    return emit(args, data, lines)


def _ranked(
    choices: Sequence[Choice], objective: Objective, target: int | None, *, opening: bool
) -> list[str]:
    """The choices as a ranking, best first: each with its value in its unit and what it gives up
    against the best one (the list is no plan: one of them is played)."""
    what = _(OBJECTIVE_VALUES[str(objective)]).format(target=target)
    lines = [_("Ranked best first, by {what}:").format(what=what)]
    for i, c in enumerate(choices, start=1):
        lost = _("best") if i == 1 else loss_words(objective, c.loss)
        lines.append(f"  {i}. " + _("{label} {value}  ({loss})").format(
            label=f"{action_words(c.action, opening=opening):15}",
            value=f"{value_words(objective, c.value):>7}", loss=lost,
        ))
    return lines


def _check_dice(rules: Rules, target: int, count: int) -> None:
    """Refuse a roll of ``count`` dice the rules forbid on the tiles worked on (§3): one die where it is
    not allowed, two where one is forced. A hint for a roll that cannot happen would mislead."""
    allowed = rules.dice_options(target)
    if count in allowed:
        return
    if count == 1:
        raise RulesError(
            "one die may not be rolled with these tiles under these rules (one die: {rule}): roll two",
            rule=str(rules.one_die),
        )
    raise RulesError("one die must be rolled here (--one-die-forced): two dice may not be")


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
    return two_dice(args.roll)


