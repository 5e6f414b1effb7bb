"""How a game at the terminal is set up: rules, who sits where, bots, dice, language.

`PlaySetup` is what the command line flags and the setup screen both produce,
so the plain game and the Textual app start a game the same way. It also knows
how to seat the bots (each with its own seeded generator, so a seeded game
replays with the same bot choices) and where rolls come from: seeded dice, or
in companion mode the faces typed in from a real box.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from shutthebox.core.match import Action, Match, Phase
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import LANGUAGES, Lang, text

__all__ = [
    "STRENGTH_KEYS", "Chooser", "PlaySetup", "bot_label", "dice_to_roll", "make_choosers", "mode_for",
    "strength_of",
]

Chooser = Callable[[Match], Action]
"""Anything that picks an action for a state: a bot's ``choose``."""

STRENGTH_KEYS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
"""The bot strengths of the solver layer, weakest first."""


def strength_of(name: str) -> str:
    """A strength typed in either language (``difícil``, ``dificil``, ``hard``) as its key; else ``name``."""
    wanted = _plain(name)
    for key in STRENGTH_KEYS:
        if wanted in {_plain(text(lang, f"strength_{key}")) for lang in LANGUAGES} | {key}:
            return key
    return name.strip()


def _plain(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def bot_label(lang: Lang, bot: str) -> str:
    """The seat name of a bot: ``Bot (hard)`` / ``Robot (difícil)``, or ``Bot (NAME)``."""
    shown = text(lang, f"strength_{bot}") if bot in STRENGTH_KEYS else bot
    return text(lang, "bot_name", bot=shown)


def dice_to_roll(state: Match) -> int:
    """How many dice the roll due now takes: one in the roll-off, else the count chosen."""
    return 1 if state.phase is Phase.ROLL_OFF else (state.dice_count or 2)


def mode_for(players: int, mode: Mode | None) -> Mode:
    """The way to play when none is named: solo for one player, a round for more."""
    if mode is not None:
        return mode
    return Mode.SOLO if players == 1 else Mode.ROUND


@dataclass(frozen=True)
class PlaySetup:
    """Everything needed to start a game at the terminal."""

    rules: Rules
    humans: tuple[str, ...]
    bots: tuple[str, ...] = ()
    companion: bool = False
    seed: int | None = None
    rounds: int = 1
    lang: Lang = "en"
    names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", tuple(strength_of(bot) for bot in self.bots))
        names = list(self.humans)
        for bot in self.bots:
            base = bot_label(self.lang, bot)
            name, n = base, 2
            while name in names:
                name, n = f"{base} {n}", n + 1
            names.append(name)
        object.__setattr__(self, "names", tuple(names))

    @property
    def bot_seats(self) -> dict[int, str]:
        """Seat number -> bot name or strength; bots sit after the people."""
        return {len(self.humans) + i: bot for i, bot in enumerate(self.bots)}

    def new_match(self) -> Match:
        """The first state of the game this setup describes."""
        return Match.new(self.rules, self.names, rounds=self.rounds)


def make_choosers(setup: PlaySetup, seed: int | None) -> dict[int, Chooser]:
    """A bot for every bot seat, each with its own generator seeded from ``seed``."""
    if not setup.bot_seats:
        return {}
    from shutthebox.strategy.bots import make_bot

    choosers: dict[int, Chooser] = {}
    for seat, bot in setup.bot_seats.items():
        rng = random.Random(f"{seed}/{seat}") if seed is not None else random.Random()
        choosers[seat] = make_bot(bot, rng).choose  # make_bot takes a strength or a bot name
    return choosers

