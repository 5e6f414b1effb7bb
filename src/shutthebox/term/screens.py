"""The screens over the game: the setup form and the review of a finished game.

The setup screen turns its fields into a `PlaySetup` (the same value the
command-line flags produce) and hands it back with `dismiss`; the rules
themselves check the combination, and a refused one is shown, not started.
The review screen shows each decision of the game against the solver's best;
the help lists the keys and the rules in brief; the confirm screen asks before
a key that would lose a game in play.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Select, Static

from shutthebox.core.board import Move
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.match import DiceChoice
from shutthebox.core.rules import PRESETS, Mode, OneDie, Rules, Scoring
from shutthebox.i18n import N_, Lang, _, language_name, languages, percent, pgettext, say
from shutthebox.i18n.words import (
    ONE_DIE_WHEN,
    SCORINGS,
    dice_word,
    mode_name,
    rules_line,
    strength_name,
    verdict_name,
)
from shutthebox.strategy.names import Objective
from shutthebox.strategy.review import Decision, Review
from shutthebox.term.hints import loss_number, loss_words
from shutthebox.term.session import STRENGTH_KEYS, PlaySetup, mode_for
from shutthebox.term.widgets import KeyList

__all__ = ["ConfirmScreen", "HelpScreen", "ReviewScreen", "SetupScreen"]

_AUTO = "auto"
_STAKE, _LIMIT, _ROUNDS = N_("Stake (0: none)"), N_("Elimination limit"), N_("Rounds")
"""The number fields, named in the form and in its refusals."""
_MISFITS = {
    Mode.SOLO: N_("solo is for one player, without bots"),
    Mode.LONG: N_("the long game is for two (people or bots)"),
    Mode.ELIMINATION: N_("elimination needs two or more (people or bots)"),
}
"""Why the players do not fit the way to play."""
_ON, _OFF = "on", "off"


def _row(label: str, widget: Any) -> Horizontal:
    return Horizontal(Label(label, classes="field-label"), widget, classes="field")


class SetupScreen(Screen[PlaySetup | None]):
    """Every way to play and every rule option, as a form."""

    CSS = """
    SetupScreen { layout: vertical; }
    #setup-title { height: 1; background: $primary; text-style: bold; padding: 0 1; }
    #form { height: 1fr; padding: 0 1; }
    .field { height: 1; margin-bottom: 0; }
    .field-label { width: 26; color: $text-muted; }
    .field:focus-within { background: $boost; }
    .field:focus-within .field-label { color: $accent; text-style: bold; }
    .field:focus-within .field-label:light { color: $primary; }
    .field Select, .field Input { width: 1fr; }
    #setup-keys { height: auto; color: $text-muted; padding: 0 1; }
    #setup-error { height: auto; color: $error; padding: 0 1; }
    #setup-buttons { height: 1; padding: 0 1; }
    #setup-buttons Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("ctrl+s", "start", show=False),
    ]

    def __init__(self, lang: Lang, current: PlaySetup | None = None, *, back: bool = False) -> None:
        super().__init__()
        self.lang = lang
        self.current = current
        self.back = back  # a game lies under the form: Esc goes back to it

    def compose(self) -> ComposeResult:
        cur = self.current
        rules = cur.rules if cur else Rules()
        humans = ", ".join(cur.humans) if cur else _("Player")
        bots = ", ".join(map(strength_name, cur.bots)) if cur else ""  # "difícil", not "hard"
        automatic = cur is None or rules.mode is mode_for(len(cur.names), None)
        mode = _AUTO if automatic else rules.mode.value

        def onoff(value: bool, widget_id: str) -> Select[str]:
            return Select([(_("yes"), _ON), (_("no"), _OFF)], value=_ON if value else _OFF,
                          allow_blank=False, compact=True, id=widget_id)

        yield Static(_("Shut the Box: a new game"), id="setup-title")
        with VerticalScroll(id="form"):
            preset = next((name for name, known in PRESETS.items() if known == rules), None)
            chosen: dict[str, Any] = {"value": preset} if preset else {}
            yield _row(_("Preset (fills the rules)"), Select(  # each named by its rules, in words
                [(rules_line(known), name) for name, known in PRESETS.items()], prompt=_("custom"),
                compact=True, id="preset", **chosen))
            yield _row(_("Players (comma between)"), Input(humans, id="players", compact=True))
            bots_hint = _("none; e.g. {names}").format(names=", ".join(map(strength_name, STRENGTH_KEYS)))
            bots_input = Input(bots, id="bots", compact=True, placeholder=bots_hint)
            yield _row(_("Bots (strength or name)"), bots_input)
            yield _row(_("Way to play"), Select(
                [(_("solo for one, round for more"), _AUTO), *((mode_name(m), m.value) for m in Mode)],
                value=mode, allow_blank=False, compact=True, id="mode"))
            yield _row(_("Tiles"), Select(
                [(str(n), n) for n in range(1, 13)], value=rules.tiles, allow_blank=False,
                compact=True, id="tiles"))
            yield _row(_("One die allowed"), Select(
                [(_(ONE_DIE_WHEN[o]), o.value) for o in OneDie], value=rules.one_die.value,
                allow_blank=False, compact=True, id="one_die"))
            yield _row(_("One die forced"), onoff(rules.one_die_forced, "one_die_forced"))
            yield _row(_("Tiles per roll at most"), Select(
                [(_("no limit"), 0), *((str(n), n) for n in range(1, 7))],
                value=rules.max_tiles or 0, allow_blank=False, compact=True, id="max_tiles"))
            yield _row(_("Scoring"), Select(
                [(_(SCORINGS[s]), s.value) for s in Scoring], value=rules.scoring.value,
                allow_blank=False, compact=True, id="scoring"))
            yield _row(_("Shutting wins at once"), onoff(rules.shut_wins, "shut_wins"))
            yield _row(_(_STAKE), Input(str(rules.stake), id="stake", compact=True,
                                               type="integer"))
            yield _row(_(_LIMIT), Input(str(rules.limit), id="limit", compact=True,
                                               type="integer"))
            yield _row(_("Doubles earn a turn"), Select(
                [(_("as the way to play says"), _AUTO), (_("yes"), _ON), (_("no"), _OFF)],
                value=_AUTO, allow_blank=False, compact=True, id="doubles"))
            yield _row(_(_ROUNDS), Input(str(cur.rounds if cur else 1), id="rounds",
                                                compact=True, type="integer"))
            yield _row(_("Companion (real box)"), onoff(cur.companion if cur else False, "companion"))
            seed = "" if cur is None or cur.seed is None else str(cur.seed)
            yield _row(_("Practice seed"), Input(
                seed, id="seed", compact=True, type="integer",
                placeholder=_("blank: fair dice, ranked · a number: practice")))
            yield _row(_("Language"), Select([(language_name(lang), lang) for lang in languages()],
                                             value=self.lang, allow_blank=False, compact=True, id="lang"))
        yield Static(id="setup-error", markup=False)  # it quotes the names typed: text, not markup
        legend = (  # with no game under the form, Esc quits as Cancel does
            _("Tab, Shift+Tab: next, previous field · Enter: open a list, choose · Ctrl+S: start · "
              "Esc: back")
            if self.back
            else _("Tab, Shift+Tab: next, previous field · Enter: open a list, choose · Ctrl+S: start · "
                   "Esc: quit")
        )
        yield Static(legend, id="setup-keys", markup=False)
        with Horizontal(id="setup-buttons"):
            yield Button(_("Start"), id="start", variant="primary", compact=True)
            yield Button(_("Cancel"), id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#form", VerticalScroll).can_focus = False
        self.query_one("#players", Input).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        """A preset chosen fills in every rule field (the players stay)."""
        if event.select.id != "preset" or not isinstance(event.value, str):
            return
        rules = PRESETS[str(event.value)]
        values: dict[str, Any] = {
            "mode": _AUTO if rules.mode is Mode.ROUND else rules.mode.value,
            "tiles": rules.tiles,
            "one_die": rules.one_die.value,
            "one_die_forced": _ON if rules.one_die_forced else _OFF,
            "max_tiles": rules.max_tiles or 0,
            "scoring": rules.scoring.value,
            "shut_wins": _ON if rules.shut_wins else _OFF,
            "doubles": _AUTO,
        }
        for widget_id, value in values.items():
            self.query_one(f"#{widget_id}", Select).value = value
        self.query_one("#stake", Input).value = str(rules.stake)
        self.query_one("#limit", Input).value = str(rules.limit)

    def _value(self, widget_id: str) -> Any:
        widget = self.query_one(f"#{widget_id}")
        if isinstance(widget, Input):
            return widget.value.strip()
        assert isinstance(widget, Select)
        return widget.value

    def build(self) -> PlaySetup:
        """The setup the form describes; a `ShutTheBoxError` or `ValueError` if it is not one."""
        humans = tuple(n.strip() for n in self._value("players").split(",") if n.strip())
        bots = tuple(b.strip() for b in self._value("bots").split(",") if b.strip())
        if not humans and not bots:
            raise ValueError(_("name at least one player or bot"))
        mode_value = self._value("mode")
        mode = mode_for(len(humans) + len(bots), None if mode_value == _AUTO else Mode(mode_value))
        doubles = self._value("doubles")

        def number(widget_id: str, label: str, default: int, least: int) -> int:
            raw = self._value(widget_id)
            value = default if raw in ("", "-") else int(raw)
            if value < least:
                raise ValueError(_("{field}: at least {least}").format(field=_(label), least=least))
            return value

        count = len(humans) + len(bots)
        names = PlaySetup(rules=Rules(), humans=humans, bots=bots, lang=self.lang).names
        if len(set(names)) != len(names):
            raise ValueError(_("every player needs a different name"))
        fits = {Mode.SOLO: count == 1, Mode.LONG: count == 2, Mode.ELIMINATION: count >= 2}
        if not fits.get(mode, True):
            raise ValueError(_(_MISFITS[mode]))

        rules = Rules(
            tiles=self._value("tiles"),
            one_die=self._value("one_die"),
            one_die_forced=self._value("one_die_forced") == _ON,
            max_tiles=self._value("max_tiles") or None,
            scoring=self._value("scoring"),
            mode=mode,
            shut_wins=self._value("shut_wins") == _ON,
            stake=number("stake", _STAKE, 0, 0),
            limit=number("limit", _LIMIT, 45, 1),
            doubles_extra_turn=None if doubles == _AUTO else doubles == _ON,  # type: ignore[arg-type]
        )
        seed_text = self._value("seed")
        setup = PlaySetup(
            rules=rules,
            humans=humans,
            bots=bots,
            companion=self._value("companion") == _ON,
            seed=int(seed_text) if seed_text not in ("", "-") else None,
            rounds=number("rounds", _ROUNDS, 1, 1),
            lang=self._value("lang"),
        )
        setup.new_game()  # the engine checks the table, and an unknown bot is refused here, not mid-game
        return setup

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()

    def on_input_submitted(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        """Start the game the form describes, or say what is wrong with it."""
        try:
            setup = self.build()
        except (ShutTheBoxError, ValueError, KeyError) as error:
            self.query_one(
                "#setup-error",
                Static).update(_("Not allowed: {reason}").format(reason=say(error)),
            )
            return
        self.dismiss(setup)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_back(self) -> None:
        """Esc: back to the game under the form; with none, it quits (as its legend says), as Cancel."""
        self.dismiss(None)


class ReviewScreen(ModalScreen[None]):
    """Each decision of the finished game beside the best one, what the choice cost, and each
    player's accuracy: a table where it fits, one block a decision where it does not."""

    CSS = """
    ReviewScreen { align: center middle; }
    #review { width: 100%; height: 100%; border: round $primary; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("v", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, review: Review) -> None:
        super().__init__()
        self.review = review

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review"):
            yield Static(_FittedReview(self), id="review-table")

    def _caption(self) -> str:
        shares = self.review.accuracy.items()
        accuracy = ", ".join(f"{name} {percent(value / 100, 0)}" for name, value in shares)
        return _("Accuracy: {accuracy}").format(accuracy=accuracy or "—") + "   " + _("Esc closes")

    def _loss_header(self) -> str:
        """The cost column's name: its unit when every decision has the same, as the web review."""
        units = {_unit(d.objective) for d in self.review.decisions}
        if len(units) != 1:
            return _("Loss")
        named = {"points": _("Points lost"), "stakes": _("Stakes lost")}
        return named.get(units.pop(), _("Percentage points lost"))

    def _loss_cell(self, decision: Decision) -> str:
        if decision.loss <= _EXACT:
            return "0"
        if len({_unit(d.objective) for d in self.review.decisions}) != 1:
            return loss_words(decision.objective, decision.loss)
        return loss_number(decision.objective, decision.loss)

    def table(self) -> Table:
        """The decisions, best beside chosen, with what each cost and the accuracy of each player."""
        table = Table(
            title=_("Review of the game"),
            caption=Text(self._caption()),  # it names the players: text, not markup
            expand=True,
            box=None,
        )
        loss = self._loss_header()
        for header in (_("Player"), _("Board"), _("Roll"), _("Chosen"), _("Best"), loss, _("Verdict")):
            table.add_column(header, no_wrap=True)
        for d in self.review.decisions:
            roll = "" if d.roll is None else f"{d.roll.total}"
            chosen, best = self._short(d.chosen), self._short(d.best)
            cells = (d.player, str(d.board), roll, chosen, best, self._loss_cell(d), verdict_name(d.verdict))
            table.add_row(*map(Text, cells), style=_verdict_style(d))  # a name is text, never markup
        return table

    def blocks(self) -> Group:
        """The review for a narrow terminal: each decision in a few short lines, wrapped under their
        own indent."""
        parts: list[RenderableType] = [Text(_("Review of the game"), style="bold")]
        for number, d in enumerate(self.review.decisions, start=1):
            where = f"[{d.board}]" + (_(" roll {roll}").format(roll=d.roll.total) if d.roll else "")
            head = Text(f"{number}. ")
            head.append(d.player, style="bold")  # a name is text, never markup
            head.append(f" {where}")
            chosen = self._short(d.chosen)
            if d.loss <= _EXACT:
                said = _("chose {chosen}: {verdict}").format(chosen=chosen, verdict=verdict_name(d.verdict))
            else:
                said = _("chose {chosen}: {verdict}, {loss}; best {best}").format(
                    chosen=chosen, verdict=verdict_name(d.verdict), loss=loss_words(d.objective, d.loss),
                    best=self._short(d.best),
                )
            parts += [head, Padding(Text(said, style=_verdict_style(d)), (0, 0, 0, 3))]
        parts += [Text(""), Text(self._caption())]
        return Group(*parts)

    def _short(self, action: DiceChoice | Move) -> str:
        return dice_word(action.count) if isinstance(action, DiceChoice) else str(action)

    def action_close(self) -> None:
        self.dismiss(None)


_EXACT = 1e-9
"""A loss this small is none: the best choice."""
REVIEW_TABLE_WIDTH = 76
"""The narrowest the review's table reads at; narrower, or too narrow for its words (a longer
language, long names), each decision is a block of lines."""


def _unit(objective: Objective) -> str:
    return {Objective.SCORE: "points", Objective.STAKE: "stakes"}.get(objective, "chance")


def _verdict_style(decision: Decision) -> str:
    if decision.chosen == decision.best or decision.loss <= _EXACT:
        return ""
    return "yellow" if decision.verdict != "blunder" else "red"


class _FittedReview:
    """The review at the width it is given: the table when it fits, else the blocks."""

    def __init__(self, screen: ReviewScreen) -> None:
        self.screen = screen

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.screen.table()
        table.expand = False  # measured at its natural width: the widest cell of each column
        fits = Measurement.get(console, options.update_width(10_000), table).maximum <= options.max_width
        table.expand = True
        yield table if fits and options.max_width >= REVIEW_TABLE_WIDTH else self.screen.blocks()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question before a key that would lose a game in play; Enter is no answer."""

    CSS = """
    ConfirmScreen { align: center middle; }
    #confirm { width: auto; max-width: 90%; height: auto; border: heavy $warning; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question
        self.yes_key = pgettext("the key that answers yes", "y")  # s (sí) in Spanish
        self.no_key = pgettext("the key that answers no", "n")

    def compose(self) -> ComposeResult:
        legend = _("{yes}: yes · {no} or Esc: no").format(yes=self.yes_key, no=self.no_key)
        yield Static(f"{self.question}\n{legend}", id="confirm", markup=False)

    def on_key(self, event: events.Key) -> None:
        """The language's yes and no letters, either case (y and n answer in every language too)."""
        letter = (event.character or "").lower()
        if letter in {self.yes_key, "y"}:
            event.stop()
            self.dismiss(True)
        elif letter in {self.no_key, "n"}:
            event.stop()
            self.dismiss(False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HelpScreen(ModalScreen[None]):
    """The keys of the moment, every key, and the rules in brief, in the player's language."""

    CSS = """
    HelpScreen { align: center middle; }
    #help { width: 100%; max-width: 90; height: auto; max-height: 100%; border: round $primary;
            padding: 0 1; }
    #help Static { height: auto; }
    .help-head { text-style: bold; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("f1", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, keys_now: tuple[tuple[str, str], ...], every_key: tuple[tuple[str, str], ...],
                 rules: str) -> None:
        super().__init__()
        self.keys_now, self.every_key, self.rules = keys_now, every_key, rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(_("Keys now"), classes="help-head")
            yield KeyList(id="help-now")
            yield Static(_("Every key"), classes="help-head")
            yield KeyList(id="help-keys")
            yield Static(_("Rules in brief"), classes="help-head")
            yield Static(self.rules, id="help-rules", markup=False)
            yield Static(_("Esc closes"), classes="help-head")

    def on_mount(self) -> None:
        self.query_one("#help-now", KeyList).keys = self.keys_now
        self.query_one("#help-keys", KeyList).keys = self.every_key

    def action_close(self) -> None:
        self.dismiss(None)
