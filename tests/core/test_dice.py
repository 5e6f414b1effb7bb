"""Dice: roll values, exact distributions and seedable sources (rules §6)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from shutthebox import ParseError, Roll, ScriptedDice, SeededDice
from shutthebox.core.chance import outcomes, total_distribution


@pytest.mark.parametrize("text", ["3,1", "3+1", "3 1", " 3 , 1 ", "3&1"])
def test_roll_parse_accepts_typed_faces(text: str) -> None:
    assert Roll.parse(text) == Roll.of(3, 1) == Roll((3, 1))


def test_roll_values() -> None:
    roll = Roll.of(3, 1)
    assert roll.total == 4 and not roll.is_double
    assert str(roll) == "3+1"
    assert eval(repr(roll), {"Roll": Roll}) == roll
    assert Roll.parse("5") == Roll.of(5) and Roll.of(5).total == 5
    assert Roll.of(4, 4).is_double
    assert not Roll.of(4).is_double  # one die is never a double
    assert Roll.of(1, 3) != Roll.of(3, 1)  # the faces, in the order shown


def test_roll_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Roll.of(1, 2).dice = (6, 6)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("faces", "needle"),
    [((), "0"), ((1, 2, 3), "3"), ((0,), "0"), ((7, 7), "7"), ((3, True), "True"), ((2.0,), "2.0")],
)
def test_impossible_rolls_are_refused(faces: tuple[object, ...], needle: str) -> None:
    with pytest.raises(ParseError, match=needle):
        Roll(faces)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "x", "3,x", "7,7", "0", "1,2,3", "3.5"])
def test_roll_parse_errors(text: str) -> None:
    with pytest.raises(ParseError):
        Roll.parse(text)


def test_outcomes_are_exact_and_fair() -> None:
    one = outcomes(1)
    assert [roll for roll, _ in one] == [Roll.of(face) for face in range(1, 7)]
    assert all(p == Fraction(1, 6) for _, p in one)
    two = outcomes(2)
    assert sorted(roll.dice for roll, _ in two) == sorted(product(range(1, 7), repeat=2))
    assert sum(p for _, p in two) == 1
    with pytest.raises(ParseError):
        outcomes(3)


def test_total_distribution_counts_the_36_rolls() -> None:
    dist = total_distribution(2)
    assert sum(dist.values()) == 1
    counted = Counter((a + b, a == b) for a, b in product(range(1, 7), repeat=2))
    assert dist == {key: Fraction(n, 36) for key, n in counted.items()}
    assert dist[(7, False)] == Fraction(6, 36)
    assert dist[(4, True)] == Fraction(1, 36) and dist[(4, False)] == Fraction(2, 36)
    assert (7, True) not in dist
    assert total_distribution(1) == {(face, False): Fraction(1, 6) for face in range(1, 7)}


def test_same_seed_same_rolls() -> None:
    first, second = SeededDice(42), SeededDice(42)
    counts = [2, 1, 2, 2, 1] * 20
    rolls = [first.roll(n) for n in counts]
    assert rolls == [second.roll(n) for n in counts]
    assert [len(r.dice) for r in rolls] == counts
    assert all(1 <= face <= 6 for r in rolls for face in r.dice)
    assert rolls != [SeededDice(43).roll(n) for n in counts]


def test_seeded_dice_without_a_seed_choose_one_that_replays() -> None:
    dice = SeededDice()
    assert isinstance(dice.seed, int)
    again = SeededDice(dice.seed)
    assert [dice.roll(2) for _ in range(20)] == [again.roll(2) for _ in range(20)]


def test_seeded_dice_look_fair() -> None:
    dice = SeededDice(7)
    faces = Counter(face for _ in range(6000) for face in dice.roll(1).dice)
    assert set(faces) == set(range(1, 7))
    assert all(800 < n < 1200 for n in faces.values())


def test_scripted_dice_give_their_rolls_in_order() -> None:
    dice = ScriptedDice([Roll.of(3, 1), Roll.of(5), Roll.of(6, 6)])
    assert dice.roll(2) == Roll.of(3, 1)
    assert dice.roll(1) == Roll.of(5)
    with pytest.raises(ParseError, match="2 dice, 1 asked"):
        dice.roll(1)
    assert dice.roll(2) == Roll.of(6, 6)  # the refused roll is still there
    with pytest.raises(ParseError, match="no rolls left"):
        dice.roll(2)
