"""The solver's advice in words, for the plain game and the terminal app.

`advise` (the solver layer) ranks every choice open to the player; this module
turns the ranking into a few lines: the best choice and what it is worth, then
the next ones with what each gives away.
"""

from __future__ import annotations

from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.match import Match
from shutthebox.i18n import _, decimal, ngettext, percent
from shutthebox.i18n.words import OBJECTIVE_VALUES, action_words
from shutthebox.strategy.budget import MAX_BYTES, MAX_CELLS, advise_within

__all__ = ["advice_lines", "hint_lines", "hint_text", "loss_number", "loss_words"]

SHOWN = 3
"""How many choices a hint lists."""


def _number(objective: str, value: float) -> str:
    """A value alone: points of score, stakes (signed), or a percentage."""
    if objective == "score":
        return decimal(value, 2)
    if objective == "stake":
        return decimal(value, 3, signed=True)
    return percent(value)


def loss_number(objective: str, loss: float) -> str:
    """What a choice gave up against the best, as a number in its unit: points of expected score,
    stakes, or percentage points of a chance (45 % where 50 % was possible loses 5)."""
    if objective == "score":
        return decimal(loss, 2)
    if objective == "stake":
        return decimal(loss, 3)
    return decimal(loss * 100, 1)


def loss_words(objective: str, loss: float) -> str:
    """What a choice gave up, with its unit, in the web review's words: ``0.42 points lost``."""
    number = loss_number(objective, loss)
    if objective == "score":
        return _("{points} points lost").format(points=number)
    if objective == "stake":
        return _("{stakes} stakes lost").format(stakes=number)
    return _("{pct} percentage points lost").format(pct=number)


def _value(objective: str, target: int | None, value: float) -> str:
    what = _(OBJECTIVE_VALUES[objective]).format(
        target=target
    ) if objective in OBJECTIVE_VALUES else objective
    return _("{what} {value}").format(value=_number(objective, value), what=what)


TERMINAL_CELLS, TERMINAL_BYTES = 4 * MAX_CELLS, 4 * MAX_BYTES
"""A hint's budget here (a server's, four times over: the player's own machine, a minute at most):
a solve past it is ranked by the cheaper objective (`strategy.budget.plan`), as a server's hint is.
Unbounded, a hint in a round of eight under ``digits`` on 12 tiles started a solve of 27 GB that
quitting the game did not stop."""


def hint_lines(state: Match) -> list[str]:
    """The best choices for the player to act, best first; empty if there is nothing to choose."""

    advice = advise_within(state, TERMINAL_CELLS, TERMINAL_BYTES)
    if not advice.choices:
        return []
    lines = []
    for rank, choice in enumerate(advice.choices[:SHOWN]):
        words = action_words(choice.action, opening=state.opening)
        if rank == 0:
            worth = _value(advice.objective, advice.target, choice.value)
            lines.append(_("Best: {choice} ({worth})").format(choice=words, worth=worth))
        else:
            worth = _number(advice.objective, choice.value)
            loss = _number(advice.objective, choice.loss).lstrip("+")
            instead = _("or {choice} ({worth}, gives away {loss})").format(  # the next best, not a plan
                choice=words, worth=worth, loss=loss
            )
            lines.append("  " + instead)
    rest = len(advice.choices) - SHOWN
    if rest > 0:
        lines.append("  " + ngettext("and {n} more", "and {n} more", rest).format(n=rest))
    return lines


def hint_text(state: Match) -> str | None:
    """The advice as one line for the plain game, or None."""
    lines = hint_lines(state)
    return "; ".join(line.strip() for line in lines) if lines else None


def advice_lines(state: Match) -> list[str]:
    """The advice in lines for the terminal app, or why there is none (the solver may take seconds
    on the long boards of the long game: the app asks in a worker)."""
    try:
        return hint_lines(state) or [_("No hint available here.")]
    except ShutTheBoxError:
        return [_("No hint available here.")]
