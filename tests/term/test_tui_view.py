"""What the widgets are handed, read off a state without a screen; rules keys read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from shutthebox import Mode, OneDie, Rules, Scoring
from shutthebox.i18n import _, using
from shutthebox.storage import rules_key
from shutthebox.term import view
from shutthebox.term.scores import options_of_key
from shutthebox.term.session import PlaySetup
from tests.support.tui import script_state


def test_tiles_show_open_picked_and_workable() -> None:
    state = script_state(Rules(mode=Mode.SOLO), ("Ana",), "r4,4 m8 r3,4")
    tiles = view.tile_views(state, selected=0b1000100)  # 7 and 3 picked
    assert [t.number for t in tiles] == list(range(1, 10))
    assert [t.is_open for t in tiles] == [True] * 7 + [False, True]
    assert [t.number for t in tiles if t.selected] == [3, 7]
    assert [t.number for t in tiles if t.active] == [1, 2, 3, 4, 5, 6, 7, 9]
    assert [t.number for t in tiles if t.usable] == [1, 2, 3, 4, 5, 6, 7]  # 9 makes no 7
    waiting = script_state(Rules(mode=Mode.SOLO), ("Ana",), "r4,4 m8")
    assert not any(t.active or t.usable for t in view.tile_views(waiting, 0))  # nothing before a roll


def test_the_selection_line_adds_up_the_picked_tiles() -> None:
    state = script_state(Rules(mode=Mode.SOLO), ("Ana",), "r3,4")
    assert view.selection_line(state, 0) == ""
    assert view.selection_line(state, 0b1001) == "4+1 = 5 (need 7)"
    assert view.selection_line(state, 0b1000001) == "7+1 = 8 (need 7)"
    assert view.selection_line(state, 0b1001100) == "7+4+3 = 14 (need 7)"
    assert view.selection_line(state, 0b1100) == "4+3 = 7: Enter shuts them."
    with using("es"):
        assert view.selection_line(state, 0b1100) == "4+3 = 7: Intro las cierra."


def test_the_scoreboard_has_the_columns_of_the_way_to_play() -> None:
    elimination = script_state(Rules(mode=Mode.ELIMINATION, stake=2), ("Ana", "Luis"), "r3 r1")
    headers, rows = view.scoreboard(elimination, bots={1})
    assert headers == ("Player", "Score", "Total", "Purse")
    assert rows[0].to_act and rows[0].cells == ("", "0", "-2")
    assert rows[1].name == "Luis ⚙"
    long_game = script_state(Rules(mode=Mode.LONG), ("Ana", "Luis"), "r1 r3")
    with using("es"):
        headers, rows = view.scoreboard(long_game, bots=set())
    assert headers == ("Jugador", "Papel")
    assert [r.cells for r in rows] == [("abre",), ("cierra",)]
    rounds = script_state(Rules(), ("Ana", "Luis"), "r3 r1", rounds=3)
    assert view.scoreboard(rounds, bots=set())[0] == ("Player", "Score", "Rounds")
    out_at = script_state(Rules(mode=Mode.ELIMINATION), ("Ana", "Luis"), "r3 r1", rounds=3)
    assert view.scoreboard(out_at, bots=set())[0] == ("Player", "Score", "Total")


@pytest.mark.parametrize(
    ("script", "keys"),
    [
        ("", ["⏎", "?", "q"]),
        ("r3,4", ["1-9", "⏎", "⌫", "h", "?", "q"]),
        ("r6,6 m9+3 r4,4 m8 r3,4 m7", ["1", "2", "h", "?", "q"]),
    ],
)
def test_the_key_bar_shows_the_keys_of_the_phase(script: str, keys: list[str]) -> None:
    state = script_state(Rules(mode=Mode.SOLO), ("Ana",), script)
    bar = view.key_bar(state, bot=False, companion=False, reviewable=False)
    assert [key for key, _ in bar] == keys


def test_companion_and_bot_turns_change_the_keys_and_the_status() -> None:
    state = script_state(Rules(mode=Mode.SOLO), ("Ana",), "")
    bar = view.key_bar(state, bot=False, companion=True, reviewable=False)
    assert [key for key, _ in bar] == ["1-6", "⌫", "?", "q"]
    assert view.status_line(state, bot=False, companion=True, typed=(5,)) == (
        "Ana: roll two dice and type the faces: 5 _"
    )
    assert view.status_line(state, bot=True, companion=False, typed=()) == "Ana is thinking…"


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(tiles=12, one_die=OneDie.SUM_LE_6, one_die_forced=True, max_tiles=2),
        Rules(scoring=Scoring.DIGITS, mode=Mode.LONG, doubles_extra_turn=False),
    ],
)
def test_a_storage_rules_key_reads_back_as_the_rules_that_score_a_turn(rules: Rules) -> None:
    options = options_of_key(rules_key(rules))
    assert options is not None
    assert rules_key(Rules(mode=Mode.SOLO).but(**options)) == rules_key(rules)
    assert options_of_key("tiles=nine") == {"tiles": "nine"}  # read as written; Rules would refuse it
    assert options_of_key("tiles") is None


def test_bot_strengths_can_be_typed_in_spanish() -> None:
    setup = PlaySetup(rules=Rules(), humans=("Ana",), bots=("difícil", "Facil", "greedy"), lang="es")
    assert setup.bots == ("hard", "easy", "greedy")
    assert setup.names == ("Ana", "Robot (difícil)", "Robot (fácil)", "Robot (greedy)")
    assert setup.bot_seats == {1: "hard", 2: "easy", 3: "greedy"}


@pytest.mark.parametrize(("lang", "document"), [("en", "rules.md"), ("es", "reglas.md")])
def test_the_helps_rules_in_brief_are_the_rules_documents_own_words(lang: str, document: str) -> None:
    """The help quotes the rules page: its "In brief" lines, and the "In short" column of §5's table
    of modes, in the player's language (so the two cannot drift apart)."""
    text = (Path(__file__).parents[2] / "docs" / document).read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `").split("`")[0]: line for line in text.splitlines()
            if line.startswith("| `") and "(§5." in line}
    with using(lang):  # type: ignore[arg-type]
        for mode in Mode:
            brief = view.rules_in_brief(mode, "").splitlines()
            for line in brief[:-1]:
                assert f"\n- {line}\n" in text, line
            in_short = view.MODE_IN_SHORT[mode]
            assert f"| {_(in_short)} (§" in rows[mode.value], (mode, rows[mode.value])
            assert brief[-1].endswith(f": {_(in_short)}.")
