"""From the app's state to what each widget shows: pure functions, no Textual.

The app calls these after every change and hands the results down to the
widgets. Keeping them apart makes the words testable without a screen and
keeps the widgets free of game knowledge.
"""

from __future__ import annotations

from shutthebox.core.board import Move, tiles_of
from shutthebox.core.match import Match, Phase
from shutthebox.core.rules import Mode
from shutthebox.i18n import N_, _
from shutthebox.i18n.words import dice_word
from shutthebox.term.keys import KEY_OF_TILE
from shutthebox.term.narrate import outcome_lines
from shutthebox.term.widgets import PlayerRow, TileView

__all__ = ["key_bar", "scoreboard", "status_line", "tile_views"]


def tile_views(state: Match, selected: int) -> tuple[TileView, ...]:
    """Each tile of the board: open or shut, picked, and whether it can be picked now."""
    working = state.target if state.phase is Phase.MOVE else 0
    return tuple(
        TileView(
            number=tile,
            is_open=tile in state.board,
            selected=bool(selected >> (tile - 1) & 1),
            active=bool(working >> (tile - 1) & 1),
        )
        for tile in range(1, state.rules.tiles + 1)
    )


def _last_score(state: Match, player: int) -> str:
    for result in reversed(state.history):
        if result.player == player and result.round == state.round:
            return "—" if result.score is None else str(result.score)
    return ""


def scoreboard(state: Match, bots: set[int]) -> tuple[tuple[str, ...], tuple[PlayerRow, ...]]:
    """The scoreboard's headers and one row per player, for the way being played."""
    rules = state.rules
    headers = [_("Player")]
    long_game = rules.mode is Mode.LONG
    headers.append(_("Role") if long_game else _("Score"))
    if rules.mode is Mode.ELIMINATION:
        headers.append(_("Total"))
    wins = rules.mode is Mode.ROUND and state.rounds > 1
    if wins:
        headers.append(_("Rounds"))
    if rules.stake and len(state.players) > 1:
        headers.append(_("Purse"))
    rows = []
    for p, name in enumerate(state.players):
        cells: list[str] = []
        if long_game:
            shuts = (p == state.actor) != state.opening if state.actor is not None else None
            cells.append("" if shuts is None else (_("shuts") if shuts else _("opens")))
        else:
            cells.append(_last_score(state, p))
        if rules.mode is Mode.ELIMINATION:
            out = "" if state.alive[p] else " " + _("(out)")
            cells.append(f"{state.totals[p]}{out}")
        if wins:
            cells.append(str(state.round_winners.count(p)))
        if rules.stake and len(state.players) > 1:
            cells.append(f"{state.ledger[p]:+d}")
        shown = f"{name} ⚙" if p in bots else name
        rows.append(
            PlayerRow(shown, tuple(cells), to_act=p == state.actor, out=not state.alive[p])
        )
    return tuple(headers), tuple(rows)


def selection_line(state: Match, selected: int) -> str:
    """What the picked tiles add up to, against the roll to match."""
    if state.phase is not Phase.MOVE or state.roll is None:
        return ""
    total = state.roll.total
    if not selected:
        return ""
    move = Move(selected)
    picked = sum(tiles_of(selected))
    if move in state.legal_moves:
        done = (
            N_("{tiles} = {total}: Enter opens them.")
            if state.opening
            else N_("{tiles} = {total}: Enter shuts them.")
        )
        return _(done).format(tiles=move, total=total)
    return _("{tiles} = {sum} (need {total})").format(tiles=move, sum=picked, total=total)


def status_line(state: Match, *, bot: bool, companion: bool, typed: tuple[int, ...]) -> str:
    """Who is to act and what they are to do, in a line."""
    who = state.players[state.actor] if state.actor is not None else ""
    if state.is_over:
        outcome = outcome_lines(state)
        return outcome[0] if outcome else _("The game is over.")
    if bot:
        return _("{player} is thinking…").format(player=who)
    if state.phase is Phase.ROLL_OFF:
        rolloff = (
            N_("{player}: roll one die to see who starts, and type it: {faces}")
            if companion
            else N_("{player}: roll one die to see who starts.")
        )
        return _(rolloff).format(player=who, faces=_typed(typed, 1))
    if state.phase is Phase.CHOOSE:
        return _("{player}: roll one die or two?").format(player=who)
    if state.phase is Phase.ROLL:
        count = state.dice_due
        roll = (
            N_("{player}: roll {dice} and type the faces: {faces}")
            if companion
            else N_("{player}: roll {dice}.")
        )
        return _(roll).format(player=who, dice=dice_word(count), faces=_typed(typed, count))
    assert state.roll is not None
    move = (
        N_("{player}: open shut tiles that make {total}.")
        if state.opening
        else N_("{player}: shut tiles that make {total}.")
    )
    return _(move).format(player=who, total=state.roll.total)


def _typed(typed: tuple[int, ...], count: int) -> str:
    return " ".join([*(str(f) for f in typed), *("_" for _ in range(count - len(typed)))])


def key_bar(
    state: Match | None, *, bot: bool, companion: bool, reviewable: bool
) -> tuple[tuple[str, str], ...]:
    """The keys that do something now, with their labels."""
    keys: list[tuple[str, str]] = []
    if state is None:
        return (("s", _("setup")), ("q", _("quit")))
    if state.is_over:
        if reviewable:
            keys.append(("v", _("review")))
        keys += [("n", _("new game")), ("s", _("setup"))]
    elif bot:
        pass
    elif state.is_chance:
        if companion:
            keys += [("1-6", _("type dice")), ("⌫", _("clear"))]
        else:
            keys.append(("⏎", _("roll")))
    elif state.phase is Phase.CHOOSE:
        keys += [("1", _("one die")), ("2", _("two dice")), ("h", _("hint"))]
    elif state.phase is Phase.MOVE:
        size = state.rules.tiles
        tile_keys = f"1-{min(size, 9)}" + "".join(f" {KEY_OF_TILE[t]}" for t in range(10, size + 1))
        keys += [
            (tile_keys, _("pick tiles")),
            ("⏎", (_("open") if state.opening else _("shut"))),
            ("⌫", _("clear")),
            ("h", _("hint")),
        ]
    keys.append(("q", _("quit")))
    return tuple(keys)
