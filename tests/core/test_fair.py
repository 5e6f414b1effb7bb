"""The fair dice: known answers, uniform faces, and `verify` catching every kind of tampering."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from shutthebox import Game, Rules
from shutthebox.core.errors import ParseError
from shutthebox.core.fair import FairDice, Fairness, check_client_seed, commitment_of, die, face_of
from shutthebox.core.record import GameRecord
from shutthebox.core.verify import verify
from tests.support.drive import finish

VECTORS = json.loads((Path(__file__).parents[1] / "vectors" / "fair-dice.json").read_text())
CHI_SQUARE_5DF_999 = 20.515  # the 0.999 quantile of chi-square with 5 degrees of freedom


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["commitment"][:8])
def test_the_known_answers(case: dict[str, Any]) -> None:
    seed = bytes.fromhex(case["server_seed"])
    assert commitment_of(seed) == case["commitment"] == hashlib.sha256(seed).hexdigest()
    dice = FairDice(seed, case["client_seeds"])
    assert [dice.roll(1).dice[0] for _ in case["dice"]] == case["dice"]
    again = FairDice(seed, case["client_seeds"])  # two at a time: the same sequence
    pairs = [face for _ in range(len(case["dice"]) // 2) for face in again.roll(2).dice]
    assert pairs == case["dice"]


def test_the_vectors_exercise_the_rejected_bytes() -> None:
    assert any(case["first_byte_rejected"] for case in VECTORS["cases"])


@pytest.mark.slow
def test_six_hundred_thousand_dice_are_uniform() -> None:
    seed = hashlib.sha256(b"chi-square").digest()
    counts = Counter(die(seed, ["uniform"], k) for k in range(600_000))
    expected = 100_000
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert set(counts) == set(range(1, 7))
    assert chi_square < CHI_SQUARE_5DF_999, counts


def test_a_byte_of_252_or_more_is_skipped_even_across_digests() -> None:
    assert face_of(iter([bytes([252, 255, 7])])) == 2  # 7 % 6 + 1
    assert face_of(iter([bytes([253] * 32), bytes([0])])) == 1
    assert face_of(iter([bytes([251])])) == 6  # 251 = 6 * 41 + 5: the last face of the last full set


@pytest.mark.parametrize("seed", ["", "a,b", "a:b", "x" * 65, "ñ", "a b"])
def test_client_seeds_that_could_blur_the_message_are_refused(seed: str) -> None:
    with pytest.raises(ParseError, match="client seed"):
        check_client_seed(seed)


def test_client_seeds_join_only_before_the_first_die() -> None:
    dice = FairDice(bytes(32), ["a"])
    dice.add_client_seed("b")
    dice.roll(2)
    with pytest.raises(ParseError, match="before the first roll"):
        dice.add_client_seed("c")
    assert dice.client_seeds == ("a", "b")


def test_the_seed_stays_hidden_until_the_end() -> None:
    game = Game(Rules(mode="solo"), ["Ana"], client_seeds=["x"])  # type: ignore[arg-type]
    commitment = game.fairness.commitment if game.fairness else None
    game.roll()
    assert game.fairness is not None and game.fairness.server_seed is None
    assert game.record().fairness == game.fairness
    finish(game, random.Random(3))
    revealed = game.record().fairness
    assert revealed is not None and revealed.commitment == commitment and revealed.honest


# -- verify --------------------------------------------------------------------------------------
def fair_record(seed: int = 1) -> dict[str, Any]:
    """A finished two-player round under fair dice, as JSON."""
    server = hashlib.sha256(f"game {seed}".encode()).digest()
    game = Game(Rules(), ["Ana", "Luis"], dice=FairDice(server, ["ana-seed", "luis-seed"]))
    finish(game, random.Random(seed))
    data: dict[str, Any] = game.record().to_json()
    return data


def verdict_of(data: dict[str, Any]) -> Any:
    return verify(GameRecord.from_json(data))


def first(data: dict[str, Any], kind: str, after: int = 0) -> int:
    return next(i for i, event in enumerate(data["events"]) if kind in event and i >= after)


def test_an_untouched_record_is_proven() -> None:
    data = fair_record()
    verdict = verdict_of(data)
    rolled = sum(len(e["roll"]) for e in data["events"] if "roll" in e)
    assert verdict.proven and verdict.event is None
    assert (verdict.dice, verdict.events) == (rolled, len(data["events"]))
    assert "proven" in str(verdict.reason)


def test_a_changed_die_fails_at_its_event() -> None:
    data = fair_record()
    index = first(data, "roll", after=3)
    data["events"][index]["roll"][0] = data["events"][index]["roll"][0] % 6 + 1
    verdict = verdict_of(data)
    assert not verdict.proven and verdict.event == index
    assert "not what the fair dice give" in str(verdict.reason)


def test_an_illegal_move_fails_at_its_event() -> None:
    data = fair_record()
    index = first(data, "move")
    data["events"][index]["move"] = [data["events"][index]["move"][0], 99]
    with pytest.raises(Exception, match=f"event {index}"):  # not even a move: refused when read
        GameRecord.from_json(data)
    data = fair_record()
    index = next(i for i, e in enumerate(data["events"]) if "move" in e and e["move"] != [1])
    data["events"][index]["move"] = [1]  # the dice rolled more than 1 (or tile 1 is shut)
    verdict = verdict_of(data)
    assert not verdict.proven and verdict.event == index


def test_another_legal_move_fails_where_its_turn_ends_differently() -> None:
    for seed in range(1, 40):
        data = fair_record(seed)
        for index, event in enumerate(data["events"]):
            if "move" not in event or len(event["move"]) != 1 or event["move"][0] < 3:
                continue
            tile = event["move"][0]
            other = copy.deepcopy(data)
            other["events"][index]["move"] = [1, tile - 1]
            verdict = verdict_of(other)
            if verdict.event == index and "not" in str(verdict.reason):
                continue  # the split was illegal there: refused at once
            assert not verdict.proven and verdict.event is not None and verdict.event >= index
            return
    raise AssertionError("no game offered a second legal move to try")


def test_a_changed_seed_fails_the_commitment() -> None:
    data = fair_record()
    data["fairness"]["server_seed"] = hashlib.sha256(b"another").hexdigest()
    verdict = verdict_of(data)
    assert not verdict.proven and verdict.event is None
    assert "not the one committed to" in str(verdict.reason)


def test_a_changed_commitment_fails_too() -> None:
    data = fair_record()
    data["fairness"]["commitment"] = hashlib.sha256(b"x").hexdigest()
    assert "not the one committed to" in str(verdict_of(data).reason)


def test_a_changed_client_seed_fails_at_the_first_roll() -> None:
    data = fair_record()
    data["fairness"]["client_seeds"][1] = "someone-else"
    verdict = verdict_of(data)
    assert not verdict.proven and verdict.event == 0
    assert "not what the fair dice give" in str(verdict.reason)


def test_events_swapped_fail_at_the_first_one_moved() -> None:
    data = fair_record()
    index = first(data, "roll", after=4)
    data["events"][index], data["events"][index + 1] = data["events"][index + 1], data["events"][index]
    verdict = verdict_of(data)
    assert not verdict.proven and verdict.event == index


def test_a_practice_or_unfinished_game_is_not_proven() -> None:
    practice = Game(Rules(mode="solo"), ["Ana"], seed=4)  # type: ignore[arg-type]
    finish(practice, random.Random(0))
    verdict = verify(practice.record())
    assert not verdict.proven and "chosen for practice" in str(verdict.reason)
    playing = Game(Rules(mode="solo"), ["Ana"])  # type: ignore[arg-type]
    playing.roll()
    assert "not revealed yet" in str(verify(playing.record()).reason)


def test_fairness_of_the_wrong_shape_is_refused() -> None:
    good = fair_record()["fairness"]
    for bad in ({**good, "algorithm": "md5"}, {**good, "commitment": "12"}, {**good, "extra": 1},
                {**good, "server_seed": "zz"}, {**good, "client_seeds": ["a,b"]}):
        with pytest.raises(ParseError):
            Fairness.from_json(bad)
    assert Fairness.from_json(good).to_json() == good


@pytest.mark.parametrize("text", ['{"format": ' + "9" * 5000 + "}", "[" * 100_000])
def test_a_record_too_long_or_too_deep_is_a_record_error(text: str) -> None:
    from shutthebox.core.errors import RecordError

    with pytest.raises(RecordError, match="too long or nesting too deep"):
        GameRecord.loads(text)


def test_fairness_in_an_older_version_is_refused() -> None:
    from shutthebox.core.errors import RecordError

    data = fair_record()
    with pytest.raises(RecordError, match="came in version 3"):
        GameRecord.from_json({**data, "version": 2})
