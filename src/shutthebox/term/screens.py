"""The screens over the game: the setup form and the review of a finished game.

The setup screen turns its fields into a `PlaySetup` (the same value the
command-line flags produce) and hands it back with `dismiss`; the rules
themselves check the combination, and a refused one is shown, not started.
The review screen shows each decision of the game against the solver's best.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Select, Static

from shutthebox.core.board import Move
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.match import DiceChoice
from shutthebox.core.rules import Mode, OneDie, Rules, Scoring
from shutthebox.i18n import LANGUAGES, Lang, text
from shutthebox.term.narrate import dice_word
from shutthebox.term.session import STRENGTH_KEYS, PlaySetup, mode_for

if TYPE_CHECKING:
    from shutthebox.strategy.review import Review

__all__ = ["ReviewScreen", "SetupScreen"]

_AUTO = "auto"
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
    .field Select, .field Input { width: 1fr; }
    #setup-error { height: auto; color: $error; padding: 0 1; }
    #setup-buttons { height: 1; padding: 0 1; }
    #setup-buttons Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
        Binding("ctrl+s", "start", show=False),
    ]

    def __init__(self, lang: Lang, current: PlaySetup | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.current = current

    def _t(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def compose(self) -> ComposeResult:
        t = self._t
        cur = self.current
        rules = cur.rules if cur else Rules()
        humans = ", ".join(cur.humans) if cur else t("default_player")
        bots = ", ".join(cur.bots) if cur else ""
        automatic = cur is None or rules.mode is mode_for(len(cur.names), None)
        mode = _AUTO if automatic else rules.mode.value

        def onoff(value: bool, widget_id: str) -> Select[str]:
            return Select([(t("opt_on"), _ON), (t("opt_off"), _OFF)], value=_ON if value else _OFF,
                          allow_blank=False, compact=True, id=widget_id)

        yield Static(t("setup_title"), id="setup-title")
        with VerticalScroll(id="form"):
            yield _row(t("setup_players"), Input(humans, id="players", compact=True))
            bots_hint = t("setup_bots_hint", names=", ".join(t(f"strength_{k}") for k in STRENGTH_KEYS))
            yield _row(t("setup_bots"), Input(bots, id="bots", compact=True, placeholder=bots_hint))
            yield _row(t("setup_mode"), Select(
                [(t("opt_auto_mode"), _AUTO), *((t(f"mode_{m.value}"), m.value) for m in Mode)],
                value=mode, allow_blank=False, compact=True, id="mode"))
            yield _row(t("setup_tiles"), Select(
                [(str(n), n) for n in range(1, 13)], value=rules.tiles, allow_blank=False,
                compact=True, id="tiles"))
            yield _row(t("setup_one_die"), Select(
                [(t(f"one_die_{o.value}"), o.value) for o in OneDie], value=rules.one_die.value,
                allow_blank=False, compact=True, id="one_die"))
            yield _row(t("setup_forced"), onoff(rules.one_die_forced, "one_die_forced"))
            yield _row(t("setup_max_tiles"), Select(
                [(t("opt_no_limit"), 0), *((str(n), n) for n in range(1, 7))],
                value=rules.max_tiles or 0, allow_blank=False, compact=True, id="max_tiles"))
            yield _row(t("setup_scoring"), Select(
                [(t(f"scoring_{s.value}"), s.value) for s in Scoring], value=rules.scoring.value,
                allow_blank=False, compact=True, id="scoring"))
            yield _row(t("setup_shut_wins"), onoff(rules.shut_wins, "shut_wins"))
            yield _row(t("setup_stake"), Input(str(rules.stake), id="stake", compact=True,
                                               type="integer"))
            yield _row(t("setup_limit"), Input(str(rules.limit), id="limit", compact=True,
                                               type="integer"))
            yield _row(t("setup_doubles"), Select(
                [(t("opt_auto_doubles"), _AUTO), (t("opt_on"), _ON), (t("opt_off"), _OFF)],
                value=_AUTO, allow_blank=False, compact=True, id="doubles"))
            yield _row(t("setup_rounds"), Input(str(cur.rounds if cur else 1), id="rounds",
                                                compact=True, type="integer"))
            yield _row(t("setup_companion"), onoff(cur.companion if cur else False, "companion"))
            yield _row(t("setup_seed"), Input("" if cur is None or cur.seed is None else str(cur.seed),
                                              id="seed", compact=True, type="integer"))
            yield _row(t("setup_lang"), Select([(lang, lang) for lang in LANGUAGES], value=self.lang,
                                               allow_blank=False, compact=True, id="lang"))
        yield Static(id="setup-error")
        with Horizontal(id="setup-buttons"):
            yield Button(t("setup_start"), id="start", variant="primary", compact=True)
            yield Button(t("setup_cancel"), id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#form", VerticalScroll).can_focus = False
        self.query_one("#players", Input).focus()

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
            raise ValueError(self._t("setup_err_players"))
        mode_value = self._value("mode")
        mode = mode_for(len(humans) + len(bots), None if mode_value == _AUTO else Mode(mode_value))
        doubles = self._value("doubles")

        def number(widget_id: str, default: int, least: int) -> int:
            raw = self._value(widget_id)
            value = default if raw in ("", "-") else int(raw)
            if value < least:
                field = self._t(f"setup_{widget_id}")
                raise ValueError(self._t("setup_err_number", field=field, least=least))
            return value

        count = len(humans) + len(bots)
        names = PlaySetup(rules=Rules(), humans=humans, bots=bots, lang=self.lang).names
        if len(set(names)) != len(names):
            raise ValueError(self._t("setup_err_twins"))
        fits = {Mode.SOLO: count == 1, Mode.LONG: count == 2, Mode.ELIMINATION: count >= 2}
        if not fits.get(mode, True):
            raise ValueError(self._t(f"setup_err_{mode.value}"))

        rules = Rules(
            tiles=self._value("tiles"),
            one_die=self._value("one_die"),
            one_die_forced=self._value("one_die_forced") == _ON,
            max_tiles=self._value("max_tiles") or None,
            scoring=self._value("scoring"),
            mode=mode,
            shut_wins=self._value("shut_wins") == _ON,
            stake=number("stake", 0, 0),
            limit=number("limit", 45, 1),
            doubles_extra_turn=None if doubles == _AUTO else doubles == _ON,  # type: ignore[arg-type]
        )
        seed_text = self._value("seed")
        setup = PlaySetup(
            rules=rules,
            humans=humans,
            bots=bots,
            companion=self._value("companion") == _ON,
            seed=int(seed_text) if seed_text not in ("", "-") else None,
            rounds=number("rounds", 1, 1),
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
            self.query_one("#setup-error", Static).update(self._t("invalid", reason=error))
            return
        self.dismiss(setup)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReviewScreen(ModalScreen[None]):
    """Each decision of the finished game beside the best one, and each player's accuracy."""

    CSS = """
    ReviewScreen { align: center middle; }
    #review { width: 100%; height: 100%; border: round $primary; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("v", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, lang: Lang, review: Review) -> None:
        super().__init__()
        self.lang = lang
        self.review = review

    def _t(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review"):
            yield Static(self.table(), id="review-table")

    def table(self) -> Table:
        """The decisions, best beside chosen, with the accuracy of each player."""
        t = self._t
        result = self.review
        accuracy = ", ".join(f"{name} {value:.0f}%" for name, value in result.accuracy.items())
        table = Table(
            title=t("review_title"),
            caption=t("review_accuracy", accuracy=accuracy or "—") + "   " + t("review_close"),
            expand=True,
            box=None,
        )
        for key in ("rv_player", "rv_board", "rv_roll", "rv_chosen", "rv_best", "rv_verdict"):
            table.add_column(t(key), no_wrap=True)
        for d in result.decisions:
            roll = "" if d.roll is None else f"{d.roll.total}"
            chosen, best = self._short(d.chosen), self._short(d.best)
            style = "" if d.chosen == d.best else ("yellow" if d.verdict != "blunder" else "red")
            table.add_row(d.player, str(d.board), roll, chosen, best, t(f"verdict_{d.verdict}"), style=style)
        return table

    def _short(self, action: DiceChoice | Move) -> str:
        return dice_word(self.lang, action.count) if isinstance(action, DiceChoice) else str(action)

    def action_close(self) -> None:
        self.dismiss(None)
