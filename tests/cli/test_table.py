"""The table ``play`` seats: the web page's bounds, and no person under a bot's seat name (issue 30)."""

from __future__ import annotations

import pytest

from shutthebox.cli.table import MAX_PLAYERS, MAX_ROUNDS, bot_like
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import languages
from shutthebox.i18n.words import STRENGTHS
from shutthebox.strategy.names import BOT_NAMES
from shutthebox.term.session import PlaySetup


def test_the_bounds_are_the_web_pages() -> None:
    schemas = pytest.importorskip("shutthebox.web.schemas")
    assert (MAX_PLAYERS, MAX_ROUNDS) == (schemas.MAX_SEATS, schemas.MAX_ROUNDS)


@pytest.mark.parametrize("lang", languages())
def test_every_name_the_game_gives_a_bot_is_a_bots(lang: str) -> None:
    """The seat names the game itself gives its bots (a second of a kind numbered), in each language,
    and the same typed in capitals or with stray spaces."""
    bots = (*STRENGTHS, *BOT_NAMES)
    setup = PlaySetup(rules=Rules(mode=Mode.ROUND), humans=("Ana",), bots=bots[:4] * 2, lang=lang)
    seated = setup.names[1:]
    assert len(set(seated)) == 8 and any(name[-1] == "2" for name in seated)
    for name in seated:
        assert bot_like(name) and bot_like(name.upper()) and bot_like(f"  {name}  "), name
    for bot in bots:
        assert bot_like(PlaySetup(rules=Rules(), humans=("Ana",), bots=(bot,), lang=lang).names[1])


@pytest.mark.parametrize(
    "name", ["Ana", "Bo Peep", "Bot", "Robot", "Bot (Ana)", "Botín (fácil)", "easy", "7"]
)
def test_a_person_may_be_called_what_no_bot_is(name: str) -> None:
    assert not bot_like(name)
