"""Rules: one frozen value with every option of rules §1-§7, presets, scores and grades."""

from __future__ import annotations

import dataclasses
from itertools import product
from typing import Any

import pytest

from shutthebox import PRESETS, Mode, OneDie, Rules, RulesError, Scoring, grade
from shutthebox.core.board import mask_of


def test_the_defaults_are_the_classic_game() -> None:
    rules = Rules()
    assert rules.tiles == 9
    assert rules.one_die is OneDie.HIGH_SHUT and not rules.one_die_forced
    assert rules.max_tiles is None
    assert rules.scoring is Scoring.SUM
    assert rules.mode is Mode.ROUND
    assert rules.shut_wins and rules.stake == 0 and rules.limit == 45
    assert rules.doubles_extra_turn is False
    assert PRESETS["classic"] == rules == Rules.preset("classic")


def test_doubles_extra_turn_defaults_on_in_the_long_game_only() -> None:
    assert Rules(mode=Mode.LONG).doubles_extra_turn is True
    for mode in (Mode.SOLO, Mode.ROUND, Mode.ELIMINATION):
        assert Rules(mode=mode).doubles_extra_turn is False
    assert Rules(mode=Mode.LONG, doubles_extra_turn=False).doubles_extra_turn is False
    assert Rules(doubles_extra_turn=True).doubles_extra_turn is True
    # changing the mode re-derives the default, unless it is given
    assert Rules().but(mode=Mode.LONG).doubles_extra_turn is True
    assert Rules(mode=Mode.LONG).but(mode=Mode.ROUND).doubles_extra_turn is False
    assert Rules().but(mode=Mode.LONG, doubles_extra_turn=False).doubles_extra_turn is False


def test_options_accept_their_names() -> None:
    rules = Rules(one_die="sum-le-6", scoring="digits", mode="long")  # type: ignore[arg-type]
    assert rules.one_die is OneDie.SUM_LE_6
    assert rules.scoring is Scoring.DIGITS
    assert rules.mode is Mode.LONG


def test_the_web_preset_follows_003() -> None:
    assert Rules.preset("web").one_die is OneDie.SUM_LE_6
    assert Rules.preset("web-10").tiles == 10 and Rules.preset("web-12").tiles == 12
    assert Rules.preset("web", tiles=12) == Rules.preset("web-12")
    assert Rules.preset("long").mode is Mode.LONG
    pub = Rules.preset("pub")
    assert pub.one_die_forced and pub.max_tiles == 2


def test_unknown_preset_is_named() -> None:
    with pytest.raises(RulesError, match=r"'nope'.*classic"):
        Rules.preset("nope")


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"tiles": 0}, "tiles must be between 1 and 12, not 0"),
        ({"tiles": 13}, "not 13"),
        ({"tiles": "9"}, "'9'"),
        ({"tiles": True}, "True"),
        ({"one_die": "sometimes"}, "'sometimes'.*high-shut"),
        ({"scoring": "golf"}, "'golf'"),
        ({"mode": "tournament"}, "'tournament'"),
        ({"max_tiles": 0}, "max_tiles"),
        ({"max_tiles": True}, "max_tiles"),
        ({"max_tiles": 2.5}, "max_tiles"),
        ({"stake": -1}, "stake"),
        ({"limit": 0}, "limit"),
        ({"shut_wins": "yes"}, "shut_wins"),
        ({"one_die_forced": 1}, "one_die_forced"),
        ({"mode": "long", "one_die": "never", "tiles": 1}, "never end"),
    ],
)
def test_invalid_options_are_refused_with_a_clear_message(options: dict[str, Any], needle: str) -> None:
    with pytest.raises(RulesError, match=needle):
        Rules(**options)


def test_but_refuses_unknown_options() -> None:
    with pytest.raises(RulesError, match="'colour'"):
        Rules().but(colour="red")
    with pytest.raises(RulesError, match="'colour'"):
        Rules.preset("classic", colour="red")


def test_rules_are_a_frozen_hashable_value() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.tiles = 10  # type: ignore[misc]
    assert hash(Rules()) == hash(rules)
    assert Rules(tiles=10) != rules
    assert rules.but(tiles=12).tiles == 12 and rules.tiles == 9


def test_every_combination_round_trips_through_json_values() -> None:
    for one_die, scoring, mode, forced, max_tiles in product(
        OneDie, Scoring, Mode, (False, True), (None, 1, 2)
    ):
        rules = Rules(one_die=one_die, scoring=scoring, mode=mode, one_die_forced=forced, max_tiles=max_tiles)
        data = rules.to_dict()
        assert data["one_die"] == one_die.value and isinstance(data["one_die"], str)
        assert type(data["scoring"]) is str and type(data["mode"]) is str
        assert Rules.from_dict(data) == rules


def test_from_dict_refuses_what_is_not_rules() -> None:
    with pytest.raises(RulesError, match="object"):
        Rules.from_dict([1, 2])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="'dice'"):
        Rules.from_dict({"dice": 3})


def test_describe_names_what_differs_from_classic() -> None:
    assert Rules().describe() == "9 tiles, mode round"
    text = Rules(tiles=12, scoring=Scoring.DIGITS, stake=2, max_tiles=2).describe()
    assert "12 tiles" in text and "scoring digits" in text and "stake 2" in text and "max-tiles 2" in text
    assert "doubles" not in Rules(mode=Mode.LONG).describe()  # on by default in the long game


# -- §4 scoring and grade -------------------------------------------------------------
def test_scores_by_each_rule() -> None:
    open_mask = mask_of([2, 7, 11])
    assert Rules(tiles=12).score(open_mask, 5) == 20
    assert Rules(tiles=12, scoring=Scoring.SUM_PLUS_ROLL).score(open_mask, 5) == 25
    assert Rules(tiles=12, scoring=Scoring.DIGITS).score(open_mask, 5) == 2711
    assert Rules(tiles=12, scoring=Scoring.COUNT).score(open_mask, 5) == 3


def test_grade_covers_every_open_sum() -> None:
    bands = {"S": range(0, 1), "A": range(1, 6), "B": range(6, 13), "C": range(13, 26), "F": range(26, 79)}
    for letter, sums in bands.items():
        assert {grade(s) for s in sums} == {letter}
    with pytest.raises(RulesError):
        grade(-1)


# -- §3 one die -------------------------------------------------------------------------
def test_one_die_allowed_against_the_definitions_for_every_board() -> None:
    for tiles in (6, 9, 12):
        for mask in range(1 << tiles):
            open_ = [t for t in range(1, tiles + 1) if mask >> (t - 1) & 1]
            expected = {
                OneDie.HIGH_SHUT: all(t < 7 for t in open_),
                OneDie.SUM_LE_6: sum(open_) <= 6,
                OneDie.SUM_LT_6: sum(open_) < 6,
                OneDie.NEVER: False,
            }
            for one_die, allowed in expected.items():
                rules = Rules(tiles=tiles, one_die=one_die)
                assert rules.one_die_allowed(mask) is allowed
                assert rules.dice_options(mask) == ((1, 2) if allowed else (2,))
                forced = rules.but(one_die_forced=True)
                assert forced.dice_options(mask) == ((1,) if allowed else (2,))
