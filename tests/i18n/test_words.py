"""Every choice a player meets has a word: the word tables follow their enums, member for member."""

from __future__ import annotations

from dataclasses import fields

import pytest

from shutthebox.cli.parser import RULE_FLAGS
from shutthebox.core.options import CLASSIC, Mode, OneDie, Scoring
from shutthebox.core.rules import Rules
from shutthebox.i18n import rulewords, words
from shutthebox.strategy.names import ROUND_OBJECTIVES, STRENGTHS, VERDICTS, Objective
from shutthebox.strategy.review import verdict


@pytest.mark.parametrize(
    ("table", "choices"),
    [
        (rulewords.MODES, list(Mode)),
        (rulewords.ONE_DIE_WHEN, list(OneDie)),
        (rulewords.SCORINGS, list(Scoring)),
        (words.OBJECTIVE_VALUES, list(Objective)),
        (words.OBJECTIVES, [o for o in Objective if o not in ROUND_OBJECTIVES]),
        (words.STRENGTHS, list(STRENGTHS)),
        (words.VERDICTS, list(VERDICTS)),
    ],
)
def test_every_member_has_a_word_in_its_order(table: dict[str, str], choices: list[str]) -> None:
    assert list(table) == [str(choice) for choice in choices]
    assert all(table.values())


def test_a_member_without_a_word_is_refused_when_the_table_is_built() -> None:
    with pytest.raises(LookupError, match="no word for never"):
        rulewords.every_word(OneDie, {"high-shut": "a", "sum-le-6": "b", "sum-lt-6": "c"})
    with pytest.raises(LookupError, match="a word for no choice: always"):
        rulewords.every_word(OneDie, {**rulewords.ONE_DIE_WHEN, "always": "d"})


def test_the_review_grades_with_the_words_listed() -> None:
    assert {verdict(loss, 10.0, Objective.SCORE) for loss in (0, 0.1, 0.5, 1.5, 5)} == set(VERDICTS)


def test_the_classic_options_and_the_rule_flags_are_the_fields_of_rules() -> None:
    names = [field.name for field in fields(Rules)]
    assert list(CLASSIC) == names
    assert list(RULE_FLAGS) == names
    assert Rules().to_dict() == {**CLASSIC, "doubles_extra_turn": False}
