"""How a game at the terminal is set up: rules, who sits where, bots, dice, language.

`PlaySetup` is what the command line flags and the setup screen both produce,
so the plain game and the Textual app start a game the same way. `new_game` starts
the `Game` it describes: fair dice (ranked), dice from a chosen seed (practice,
unranked), or in companion mode every roll typed in from a real box; and the
bots seated, each with a generator drawn from the game's seed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from shutthebox.core.chance import DiceSource
from shutthebox.core.game import Game
from shutthebox.core.names import clean_name
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import SOURCE, Lang, _, languages, translations, using
from shutthebox.i18n.words import STRENGTHS, strength_name
from shutthebox.strategy.bots import seat_bots

__all__ = ["STRENGTH_KEYS", "PlaySetup", "bot_label", "mode_for", "strength_of"]

STRENGTH_KEYS: tuple[str, ...] = tuple(STRENGTHS)
"""The bot strengths offered to players, weakest first."""


def strength_of(name: str) -> str:
    """A strength typed in any language (``difícil``, ``dificil``, ``hard``) as its key; else ``name``."""
    wanted = _plain(name)
    for key, word in STRENGTHS.items():
        if wanted in {_plain(translations(lang).gettext(word)) for lang in languages()} | {key}:
            return key
    return name.strip()


def _plain(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def bot_label(bot: str) -> str:
    """The seat name of a bot: ``Bot (hard)`` / ``Robot (difícil)``, or ``Bot (NAME)``."""
    return _("Bot ({bot})").format(bot=strength_name(bot))


def mode_for(players: int, mode: Mode | None) -> Mode:
    """The way to play when none is named: solo for one player, a round for more."""
    if mode is not None:
        return mode
    return Mode.SOLO if players == 1 else Mode.ROUND


@dataclass(frozen=True)
class PlaySetup:
    """Everything needed to start a game at the terminal.

    The people's names are kept cleaned (spaces made one, composed); a name holding a control or
    invisible character, or longer than a name may be, is refused with a `ParseError`.
    """

    rules: Rules
    humans: tuple[str, ...]
    bots: tuple[str, ...] = ()
    companion: bool = False
    seed: int | None = None
    rounds: int = 1
    lang: Lang = SOURCE
    dice: Callable[[], DiceSource] | None = None  # fresh dice for each game (a daily challenge's)
    names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "humans", tuple(clean_name(name) for name in self.humans))
        object.__setattr__(self, "bots", tuple(strength_of(bot) for bot in self.bots))
        names = list(self.humans)
        for bot in self.bots:
            with using(self.lang):
                base = bot_label(bot)
            name, n = base, 2
            while name in names:
                name, n = f"{base} {n}", n + 1
            names.append(name)
        object.__setattr__(self, "names", tuple(names))

    @property
    def bot_seats(self) -> dict[int, str]:
        """Seat number -> bot name or strength; bots sit after the people."""
        return {len(self.humans) + i: bot for i, bot in enumerate(self.bots)}

    def new_game(self, seed: int | None = None, dice: DiceSource | None = None) -> Game:
        """The game this setup describes, its bots seated; an unknown bot or a bad table is refused.

        ``seed`` (else the setup's) seeds the dice and the bots of a practice game, unless other
        ``dice`` are given (scripted ones, in tests) or the setup's make them; with neither, the dice
        are fair; companion games are rolled by hand.
        """
        if dice is None and self.dice is not None:
            dice = self.dice()
        game = Game(
            self.rules, self.names, seed=self.seed if seed is None else seed, dice=dice,
            rounds=self.rounds, by_hand=self.companion,
        )
        if self.bot_seats:

            for seat, bot in seat_bots(self.bot_seats, game.bot_seed).items():
                game.seat_bot(seat, bot)
        return game

