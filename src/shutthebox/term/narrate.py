"""What happened between two states of a match, told in sentences for a person.

The plain game prints these lines and the terminal app shows them in its log,
so both tell a game the same way, in Spanish or English. Nothing here decides a
rule: every sentence is read off the states the engine produced.
"""

from __future__ import annotations

from shutthebox.core.board import Move
from shutthebox.core.dice import Roll
from shutthebox.core.match import Action, DiceChoice, Match, Phase
from shutthebox.core.rules import Mode, Rules, grade
from shutthebox.i18n import Lang, text

__all__ = ["dice_word", "narrate", "outcome_lines", "rules_line", "turn_header"]


def dice_word(lang: Lang, count: int) -> str:
    """``one die`` / ``two dice`` in ``lang``."""
    return text(lang, "one_die" if count == 1 else "two_dice")


def _name(state: Match, player: int | None) -> str:
    return state.players[player] if player is not None else "?"


def turn_header(lang: Lang, state: Match) -> str:
    """``Ana's turn`` (or the opener's turn of the long game)."""
    key = "opening_turn_of" if state.opening else "turn_of"
    return text(lang, key, player=_name(state, state.actor))


def narrate(lang: Lang, before: Match, action: Action, after: Match) -> list[str]:
    """The sentences telling what ``action`` did to ``before``, giving ``after``."""
    lines: list[str] = []
    who = _name(before, before.actor)
    if isinstance(action, DiceChoice):
        lines.append(text(lang, "chose_dice", player=who, dice=dice_word(lang, action.count)))
    elif isinstance(action, Roll) and before.phase is Phase.ROLL_OFF:
        lines.append(text(lang, "rolloff", player=who, roll=action))
        if after.phase is Phase.ROLL_OFF and not after.rolloff_faces:
            tied = ", ".join(_name(after, p) for p in after.contenders)
            lines.append(text(lang, "rolloff_tie", players=tied))
        elif after.phase is not Phase.ROLL_OFF:
            lines.append(text(lang, "starts", player=_name(after, after.order[0])))
    elif isinstance(action, Roll):
        lines.append(text(lang, "rolled", player=who, roll=action, total=action.total))
        if after.phase is not Phase.MOVE:
            key = "no_open_move" if before.opening else "no_move"
            lines.append(text(lang, key, total=action.total))
            same_turn = after.actor == before.actor and after.history == before.history
            if same_turn and not after.is_over:
                lines.append(text(lang, "extra_turn", player=who))
    elif isinstance(action, Move):
        key = "opened" if before.opening else "shut_tiles"
        lines.append(text(lang, key, player=who, move=action))
    lines.extend(_consequences(lang, before, after))
    return lines


def _consequences(lang: Lang, before: Match, after: Match) -> list[str]:
    """Turn scores, round winners, tie-breaks, retirements and the end of the game."""
    lines: list[str] = []
    for result in after.history[len(before.history) :]:
        if result.score is None:
            continue
        who = _name(after, result.player)
        if result.board.is_shut:
            lines.append(text(lang, "shut_box", player=who))
        else:
            lines.append(
                text(
                    lang,
                    "turn_score",
                    player=who,
                    score=result.score,
                    open=", ".join(map(str, result.board.open_tiles)),
                    grade=grade(result.board.open_sum),
                )
            )
    for p, (was, now) in enumerate(zip(before.alive, after.alive, strict=True)):
        if was and not now:
            lines.append(text(lang, "retired", player=_name(after, p), total=after.totals[p]))
    if after.rules.mode is Mode.ELIMINATION and after.totals != before.totals:
        lines.append(text(lang, "totals", totals=_pairs(after, after.totals)))
    won = after.round_winners[len(before.round_winners) :]
    if after.rules.mode is Mode.ROUND and len(after.players) > 1:
        for number, p in enumerate(won, start=len(before.round_winners) + 1):
            lines.append(text(lang, "round_won", player=_name(after, p), round=number))
    if after.tiebreak > before.tiebreak and not after.is_over:
        tied = ", ".join(_name(after, p) for p in after.order)
        lines.append(text(lang, "tiebreak", players=tied))
    if after.is_over and not before.is_over:
        lines.extend(outcome_lines(lang, after))
    return lines


def _pairs(state: Match, values: tuple[int, ...], signed: bool = False) -> str:
    return ", ".join(
        f"{name} {value:+d}" if signed else f"{name} {value}"
        for name, value in zip(state.players, values, strict=True)
    )


def outcome_lines(lang: Lang, state: Match) -> list[str]:
    """How a finished match ended: the winner (or draw) and the ledger of stakes."""
    lines: list[str] = []
    rules = state.rules
    if rules.mode is Mode.LONG and state.winner is not None:
        key = "long_won_shut" if state.board.is_shut else "long_won_open"
        lines.append(text(lang, key, player=_name(state, state.winner)))
    if len(state.players) == 1:
        last = state.history[-1]
        lines.append(
            text(lang, "solo_result", score=last.score, grade=grade(last.board.open_sum))
        )
    elif state.winner is None:
        lines.append(text(lang, "draw"))
    else:
        lines.append(text(lang, "winner", player=_name(state, state.winner)))
    if rules.stake and len(state.players) > 1:
        lines.append(text(lang, "ledger", ledger=_pairs(state, state.ledger, signed=True)))
    return lines


def rules_line(lang: Lang, rules: Rules) -> str:
    """The rules in a short line: board, way to play, and each option off the classic."""
    parts = [
        text(lang, "rl_tiles", tiles=rules.tiles),
        text(lang, f"mode_{rules.mode.value}"),
    ]
    default = Rules(mode=rules.mode)
    if rules.one_die is not default.one_die:
        parts.append(text(lang, "rl_one_die", when=text(lang, f"one_die_{rules.one_die.value}")))
    if rules.one_die_forced:
        parts.append(text(lang, "rl_forced"))
    if rules.max_tiles is not None:
        parts.append(text(lang, "rl_max_tiles", n=rules.max_tiles))
    if rules.scoring is not default.scoring:
        parts.append(text(lang, "rl_scoring", scoring=text(lang, f"scoring_{rules.scoring.value}")))
    if rules.mode is Mode.ROUND and not rules.shut_wins:
        parts.append(text(lang, "rl_no_shut_wins"))
    if rules.stake:
        parts.append(text(lang, "rl_stake", stake=rules.stake))
    if rules.mode is Mode.ELIMINATION:
        parts.append(text(lang, "rl_limit", limit=rules.limit))
    if rules.doubles_extra_turn != default.doubles_extra_turn:
        parts.append(text(lang, "rl_doubles_on" if rules.doubles_extra_turn else "rl_doubles_off"))
    return " · ".join(parts)
