"""The table ``shutthebox play`` is asked to seat, refused in one line before play when it makes no sense.

The same bounds as the web app's page (`shutthebox.web.schemas`: at most `MAX_PLAYERS` players and
`MAX_ROUNDS` rounds; a test holds them equal), and what a terminal game alone can get wrong: a stake
in a solo game (there is no pot), a seed for a companion game (its dice are typed in, none drawn), a
person whose name reads as a bot's seat (``Bot (easy)``, ``Robot (fácil) 2``) in any language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from shutthebox.cli.parser import CliError
from shutthebox.core.names import clean_name
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import languages, using
from shutthebox.i18n.words import STRENGTHS
from shutthebox.storage.names import look_alike_keys
from shutthebox.strategy.names import BOT_NAMES
from shutthebox.term.session import bot_label

__all__ = ["MAX_PLAYERS", "MAX_ROUNDS", "bot_like", "check_table"]

MAX_PLAYERS = 8
"""The most players at one table, people and bots (the web page's, `web.schemas.MAX_SEATS`)."""
MAX_ROUNDS = 20
"""The most rounds of one game (the web page's, `web.schemas.MAX_ROUNDS`)."""
_NUMBERED = re.compile(r"^(.*\S)\s+\d+$")
"""A seat name with a number after it, as a second bot of the same strength is named."""


def _keys(name: str) -> frozenset[str]:
    """``name``'s look-alike keys (`storage.names`); on the base install, without the confusables'
    table (the tui extra's), its case and width folded only: the game is played all the same."""
    try:
        return frozenset(look_alike_keys(name))
    except ModuleNotFoundError:
        return frozenset({unicodedata.normalize("NFKC", name).casefold()})


def _bot_keys() -> frozenset[str]:
    """The look-alike keys of every name a bot's seat takes, in every language."""
    keys: set[str] = set()
    for lang in languages():
        with using(lang):
            for bot in (*STRENGTHS, *BOT_NAMES):
                keys |= _keys(bot_label(bot))
    return frozenset(keys)


def bot_like(name: str) -> bool:
    """Whether a person's ``name`` reads as a bot's seat name (``Bot (hard)``, ``Robot (difícil) 2``)."""
    cleaned = clean_name(name)
    numbered = _NUMBERED.match(cleaned)
    forms = (cleaned, numbered.group(1)) if numbered else (cleaned,)
    keys = _bot_keys()
    return any(_keys(form) & keys for form in forms)


def check_table(
    rules: Rules, humans: Sequence[str], bots: Sequence[str], *, rounds: int, companion: bool,
    seed: int | None,
) -> None:
    """Refuse in one line a table the game could only play wrongly, or not at all, before it starts."""
    count = len(humans) + len(bots)
    if count > MAX_PLAYERS:
        raise CliError("a game has at most {high} players, not {count}", high=MAX_PLAYERS, count=count)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise CliError("a game has from 1 to {high} rounds", high=MAX_ROUNDS)
    if count == 1 and rounds > 1:  # the lone player would roll, alone, for the start of each round
        raise CliError("--rounds {rounds}: one player plays one turn; rounds are for two players or more",
                       rounds=rounds)
    if rules.mode is Mode.SOLO and rules.stake:
        raise CliError("--stake {stake}: a solo game has no pot; stakes need two players or more",
                       stake=rules.stake)
    if companion and seed is not None:
        raise CliError("--seed: a companion game's dice are typed in from a real box, none are drawn")
    for name in humans:
        if bot_like(name):
            raise CliError("{name!r} is a bot's name: a person needs another (add bots with --bot)",
                           name=name)
