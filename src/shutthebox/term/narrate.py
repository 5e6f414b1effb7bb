"""What happened between two states of a match, told in sentences for a person.

The plain game prints these lines and the terminal app shows them in its log,
so both tell a game the same way, in the language in use. Nothing here decides a
rule: every sentence is read off the states the engine produced.
"""

from __future__ import annotations

from shutthebox.core.board import Move
from shutthebox.core.dice import Roll
from shutthebox.core.match import Action, DiceChoice, Match, Phase
from shutthebox.core.rules import Mode, grade
from shutthebox.i18n import N_, _
from shutthebox.i18n.words import dice_word

__all__ = [
    "assisted_line",
    "hint_warning",
    "narrate",
    "outcome_lines",
    "practice_line",
    "turn_begins",
    "turn_header",
]


def _name(state: Match, player: int | None) -> str:
    return state.players[player] if player is not None else "?"


def practice_line(seed: int) -> str:
    """Said when a game on a chosen seed starts: whoever knows the seed knows every die, so it is
    practice, and the players should know before they play that it counts for no best."""
    return _("Practice game: the dice come from seed {seed}, so this game counts for no best.").format(
        seed=seed
    )


def assisted_line(player: str, score: int) -> str:
    """Said when a player of a ranked game takes the first hint of a turn: for the rankings that turn
    now counts as it stood (`core.ranking`)."""
    return _("{player} asked for a hint: this turn counts {score} in the rankings, as it stood.").format(
        player=player, score=score
    )


def hint_warning(player: str, score: int) -> str:
    """Said when a player of a ranked game first asks for a hint in a turn, before it is shown: the
    turn would count as it stands, so the hint is asked for again to be seen."""
    warning = _("A hint now makes {player}'s turn count {score} in the rankings. Press h again to see it.")
    return warning.format(player=player, score=score)


def turn_begins(before: Match | None, after: Match) -> bool:
    """Whether a player's turn begins at ``after``: the first state of a game, another player
    to act, or the start after the roll-off; never while the game is over or still rolling off."""
    if after.is_over or after.phase is Phase.ROLL_OFF:
        return False
    return before is None or after.actor != before.actor or before.phase is Phase.ROLL_OFF


def turn_header(state: Match) -> str:
    """``Ana's turn`` (or the opener's turn of the long game)."""
    turn = N_("{player}'s turn, opening shut tiles") if state.opening else N_("{player}'s turn")
    return _(turn).format(player=_name(state, state.actor))


def narrate(before: Match, action: Action, after: Match) -> list[str]:
    """The sentences telling what ``action`` did to ``before``, giving ``after``."""
    lines: list[str] = []
    who = _name(before, before.actor)
    if isinstance(action, DiceChoice):
        lines.append(_("{player} chooses {dice}.").format(player=who, dice=dice_word(action.count)))
    elif isinstance(action, Roll) and before.phase is Phase.ROLL_OFF:
        lines.append(_("{player} rolls one die to decide who starts: {roll}").format(player=who, roll=action))
        if after.phase is Phase.ROLL_OFF and not after.rolloff_faces:
            tied = ", ".join(_name(after, p) for p in after.contenders)
            lines.append(_("Tie for the start: {players} roll again.").format(players=tied))
        elif after.phase is not Phase.ROLL_OFF:
            lines.append(_("{player} starts.").format(player=_name(after, after.order[0])))
    elif isinstance(action, Roll):
        lines.append(_("{player} rolls {roll} = {total}").format(player=who, roll=action, total=action.total))
        if after.phase is not Phase.MOVE:
            no_move = (
                N_("No shut tiles make {total}: the turn is over.")
                if before.opening
                else N_("No open tiles make {total}: the turn is over.")
            )
            lines.append(_(no_move).format(total=action.total))
            same_turn = after.actor == before.actor and after.history == before.history
            if same_turn and not after.is_over:
                lines.append(_("{player} spends an extra turn and rolls again.").format(player=who))
    elif isinstance(action, Move):
        moved = N_("{player} opens {move}.") if before.opening else N_("{player} shuts {move}.")
        lines.append(_(moved).format(player=who, move=action))
    lines.extend(_consequences(before, after))
    return lines


def _consequences(before: Match, after: Match) -> list[str]:
    """Turn scores, round winners, tie-breaks, retirements and the end of the game."""
    lines: list[str] = []
    for result in after.history[len(before.history) :]:
        if result.score is None:
            continue
        who = _name(after, result.player)
        if result.board.is_shut:
            lines.append(_("{player} shuts the box! Score 0, grade S.").format(player=who))
        else:
            lines.append(
                _("{player} scores {score} (open: {open}), grade {grade}.").format(
                    player=who,
                    score=result.score,
                    open=", ".join(map(str, result.board.open_tiles)),
                    grade=grade(result.board.open_sum),
                )
            )
    for p, (was, now) in enumerate(zip(before.alive, after.alive, strict=True)):
        if was and not now:
            who = _name(after, p)
            lines.append(_("{player} reaches {total} and retires.").format(player=who, total=after.totals[p]))
    if after.rules.mode is Mode.ELIMINATION and after.totals != before.totals:
        lines.append(_("Totals: {totals}").format(totals=_pairs(after, after.totals)))
    won = after.round_winners[len(before.round_winners) :]
    if after.rules.mode is Mode.ROUND and len(after.players) > 1:
        for number, p in enumerate(won, start=len(before.round_winners) + 1):
            lines.append(_("{player} wins round {round}.").format(player=_name(after, p), round=number))
    if after.tiebreak > before.tiebreak and not after.is_over:
        tied = ", ".join(_name(after, p) for p in after.order)
        lines.append(_("Tie between {players}: a tie-break round.").format(players=tied))
    if after.is_over and not before.is_over:
        lines.extend(outcome_lines(after))
    return lines


def _pairs(state: Match, values: tuple[int, ...], signed: bool = False) -> str:
    return ", ".join(
        f"{name} {value:+d}" if signed else f"{name} {value}"
        for name, value in zip(state.players, values, strict=True)
    )


def outcome_lines(state: Match) -> list[str]:
    """How a finished match ended: the winner (or draw) and the ledger of stakes."""
    lines: list[str] = []
    rules = state.rules
    if rules.mode is Mode.LONG and state.winner is not None:
        won = (
            N_("{player} shuts every tile and wins!")
            if state.board.is_shut
            else N_("{player} opens every tile and wins!")
        )
        lines.append(_(won).format(player=_name(state, state.winner)))
    if len(state.players) == 1:
        last = state.history[-1]
        lines.append(
            _("Final score {score}, grade {grade}.").format(
                score=last.score, grade=grade(last.board.open_sum)
            )
        )
    elif state.winner is None:
        lines.append(_("The game is drawn."))
    else:
        lines.append(_("{player} wins the game!").format(player=_name(state, state.winner)))
    if rules.stake and len(state.players) > 1:
        lines.append(_("Ledger: {ledger}").format(ledger=_pairs(state, state.ledger, signed=True)))
    return lines
