"""From a game's state to what each widget shows: pure functions, no Textual.

The controller calls these after every change to make the `Scene` the game screen
draws. Keeping them apart makes the words testable without a screen and keeps the
widgets free of game knowledge.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.core.board import Move, tiles_of
from shutthebox.core.dice import Roll
from shutthebox.core.match import Match, Phase
from shutthebox.core.rules import Mode
from shutthebox.i18n import N_, _
from shutthebox.i18n.words import dice_word, mode_name, rules_line
from shutthebox.term.model import KEY_OF_TILE, Handover, PlayerRow, Table, TileView
from shutthebox.term.narrate import outcome_lines

__all__ = ["MIN_SIZE", "Fit", "fit", "key_bar", "scoreboard", "status_line", "table", "tile_views"]

MIN_SIZE = (40, 12)
"""The smallest terminal the game is drawn in; below it a notice says so."""

_FIXED_ROWS = 16
"""Rows of the game screen besides the scoreboard's table at its usual size (title, tiles, lines, log)."""


@dataclass(frozen=True, slots=True)
class Fit:
    """How the game screen fits a terminal: a notice only, short or tall, and the tiles' size."""

    too_small: bool
    short: bool
    tall: bool
    tiles: str  # "giant", "huge", "big", "normal", "compact" or "tiny"


_BIG_ROWS = 5 + 2
"""Rows the framed box of big tiles takes besides the normal row's four (frame, padding, taller
tiles); the pip dice take five rows beside the scoreboard."""
HUGE_WIDTH, GIANT_WIDTH = 11, 15
"""A tile's width on a wide and tall window, and on a wider and taller one still (big: 8, normal: 6,
compact: 4, tiny: 3)."""


def fit(width: int, height: int, tiles: int, players: int) -> Fit:
    """The layout for a terminal of ``width`` x ``height``: the widest tiles that all fit a row,
    and the one-line scoreboard when its table would crowd the board out. The pip dice and the
    framed box come as soon as their rows fit (30 rows for two players), huge tiles when the
    window is wide and taller still."""
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        return Fit(too_small=True, short=False, tall=False, tiles="tiny")
    short = height < _FIXED_ROWS + players + 1
    big_rows = _FIXED_ROWS + max(players + 1, 5) + _BIG_ROWS
    tall = not short and height >= big_rows
    room = width - 2  # the row's padding
    boxed = not short or height >= 16  # a boxed tile takes four rows
    if tall and GIANT_WIDTH * tiles <= room - 4 and height >= big_rows + 14:  # a window to fill
        size = "giant"
    elif tall and HUGE_WIDTH * tiles <= room - 4 and height >= big_rows + 8:
        size = "huge"
    elif tall and 8 * tiles <= room - 2:  # big tiles come in a framed box
        size = "big"
    elif 6 * tiles <= room and boxed:
        size = "normal"
    elif 4 * tiles <= room and boxed:
        size = "compact"
    else:
        size = "tiny"
    return Fit(too_small=False, short=short, tall=tall, tiles=size)


def tile_views(state: Match, selected: int, cursor: int | None = None) -> tuple[TileView, ...]:
    """Each tile of the board: open or shut, picked, whether it can be picked now, and whether
    some move that makes the roll uses it; the arrows' ``cursor`` shows while there is a roll to match."""
    working = state.target if state.phase is Phase.MOVE else 0
    usable = 0
    if state.phase is Phase.MOVE:
        for move in state.legal_moves:
            usable |= move.mask
    return tuple(
        TileView(
            number=tile,
            is_open=tile in state.board,
            selected=bool(selected >> (tile - 1) & 1),
            active=bool(working >> (tile - 1) & 1),
            usable=bool(usable >> (tile - 1) & 1),
            cursor=tile == cursor and state.phase is Phase.MOVE,
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
    state: Match | None, *, bot: bool, companion: bool, reviewable: bool, handover: bool = False
) -> tuple[tuple[str, str], ...]:
    """The keys that do something now, with their labels (at a turn's end, Enter hands over)."""
    keys: list[tuple[str, str]] = []
    if state is None:
        return (("s", _("setup")), ("q", _("quit")))
    if handover and not state.is_over:
        keys.append(("⏎", _("next player")))
    elif state.is_over:
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
    keys += [("?", _("help")), ("q", _("quit"))]
    return tuple(keys)


_ALL_KEYS: tuple[tuple[str, str], ...] = (
    ("? F1", N_("this help")),
    ("1-9 0 - =", N_("pick tiles")),
    ("← → ␣", N_("move over the tiles; Space picks the one under the cursor")),
    ("1 2", N_("one die or two, when asked")),
    ("⏎", N_("roll, or shut the picked tiles")),
    ("⌫", N_("clear")),
    ("h", N_("hint")),
    ("v", N_("review")),
    ("n", N_("new game")),
    ("s", N_("setup")),
    ("q", N_("quit")),
)
"""Every key of the game screen, for the help."""

RULES_IN_BRIEF = (
    N_("Roll the dice, then shut open tiles that add up to the roll."),
    N_("When no open tiles make the roll, the turn ends and the tiles left open are scored."),
    N_("Shut every tile and you have shut the box."),
)


def every_key() -> tuple[tuple[str, str], ...]:
    """Every key of the game screen with what it does, for the help."""
    return tuple((key, _(label)) for key, label in _ALL_KEYS)


MODE_IN_SHORT = {  # the "In short" column of the table of modes in docs/rules.md §5
    Mode.SOLO: N_("one turn; beat your own best"),
    Mode.ROUND: N_("one turn each; shutting the box or the lowest score wins"),
    Mode.ELIMINATION: N_("scores add up; reaching 45 retires you; the last player left wins"),
    Mode.LONG: N_("one board: one player shuts, the other reopens"),
}


def rules_in_brief(mode: Mode | None, rules: str) -> str:
    """The rules in a few lines, as docs/rules.md gives them "In brief", the game's mode in short
    as its table of modes does, and the options of the game at hand."""
    lines = [_(line) for line in RULES_IN_BRIEF]
    if mode is not None:
        name = mode_name(mode.value)
        in_short = _(MODE_IN_SHORT[mode])
        lines.append(_("{mode}: {in_short}.").format(mode=name[:1].upper() + name[1:], in_short=in_short))
    if rules:
        lines.append(_("This game: {rules}").format(rules=rules))
    return "\n".join(lines)


def handover_line(before: Match, after: Match) -> str:
    """Between two people's turns: how the turn ended and who plays next, once they press Enter."""
    ended = before.players[before.actor] if before.actor is not None else ""
    following = after.players[after.actor] if after.actor is not None else ""
    result = after.history[-1] if after.history else None
    if result is not None and result.player == before.actor and result.score is not None:
        over = _("{player}'s turn is over: {score}.").format(player=ended, score=result.score)
    else:
        over = _("{player}'s turn is over.").format(player=ended)
    return over + " " + _("{player}: press Enter when ready.").format(player=following)


def table(
    state: Match, *, bots: set[int], selected: int, typed: tuple[int, ...], companion: bool, bot: bool,
    last_roll: Roll | None, handover: Handover | None, hint: tuple[str, ...], cursor: int | None = None,
    kept: tuple[str, ...] = (),
) -> Table:
    """Everything the game screen shows of ``state``: at a turn's end between two people (``handover``),
    the board that turn ended on and its score, until the next player presses Enter."""
    pot = " · " + _("pot {pot}").format(pot=state.pot) if state.pot else ""
    headers, rows = scoreboard(state, bots)
    tiles = tile_views(state, selected, None if bot else cursor)
    faces: tuple[int | None, ...] = ()
    caption = ""
    if state.phase is Phase.MOVE and state.roll is not None:
        faces, caption = state.roll.dice, f"= {state.roll.total}"
    elif companion and state.is_chance:
        faces = (*typed, *([None] * (state.dice_due - len(typed))))
    elif last_roll is not None:  # the last roll stays on the table until the next
        faces, caption = last_roll.dice, f"({last_roll.total})"
    if handover is not None:
        before, after = handover.before, handover.after
        result = after.history[-1] if after.history else None
        if result is not None and result.player == before.actor:
            tiles = tuple(TileView(t, is_open=t in result.board) for t in range(1, before.rules.tiles + 1))
        status = handover_line(before, after)
    else:
        status = status_line(state, bot=bot, companion=companion, typed=typed)
        picked = selection_line(state, selected) if not bot else ""
        status += "  " + picked if picked else ""
    return Table(
        title=_("Shut the Box") + " · " + rules_line(state.rules) + pot, headers=headers, rows=rows,
        tiles=tiles, faces=faces, caption=caption, status=status, hint="\n".join(hint),
        summary=summary(state, headers, rows, kept) if state.is_over else (),
    )


def summary(
    state: Match, headers: tuple[str, ...], rows: tuple[PlayerRow, ...], kept: tuple[str, ...]
) -> tuple[str, ...]:
    """The panel at the end of a game: how it ended, each player's line of the scoreboard, and what
    keeping it said (saved, a new best, why it counts for none)."""
    width = max(len(row.name) for row in rows)
    lines = [*outcome_lines(state), ""]
    for row in rows:
        named = zip(headers[1:], row.cells, strict=False)
        cells = " · ".join(f"{header} {cell}" for header, cell in named if cell)
        star = "★" if _won(state, row) else " "
        lines.append(f"{star} {row.name:<{width}}  {cells}".rstrip())
    if kept:
        lines += ["", *kept]
    return tuple(lines)


def _won(state: Match, row: PlayerRow) -> bool:
    return state.winner is not None and state.players[state.winner] == row.name.removesuffix(" ⚙")
