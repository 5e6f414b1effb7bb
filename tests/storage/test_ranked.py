"""Only ranked turns count: fair dice with the seed revealed, no typed die, no hint asked; the
leaderboard lists profiles only; any name a person can type has its bests."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from sqlalchemy import select

from shutthebox import Rules
from shutthebox.core.fair import Fairness, commitment_of
from shutthebox.core.record import GameRecord
from shutthebox.storage import Database, GameRepository, ProfileRepository, StorageError
from shutthebox.storage.models import TurnRow
from storage.helpers import (
    LEFT_1,
    LEFT_3,
    SHUT,
    SOLO3,
    T0,
    fair_game,
    profiles_of,
    scripted,
    seeded_shut,
    typed_copy,
)

ROUND3 = Rules(tiles=3, shut_wins=False)
# Roll-off: Ana 5, Luis 2, so Ana starts; Ana leaves 1 open, Luis leaves 3 open.
ANA_1_LUIS_3 = f"r5 r2 {LEFT_1} {LEFT_3}"
# The same roll-off; Ana leaves 3 open, the second seat 1.
ANA_3_OTHER_1 = f"r5 r2 {LEFT_3} {LEFT_1}"


def ranked_marks(database: Database) -> list[tuple[int, str, bool]]:
    """(game, seat name, ranked) of every stored turn, as the table holds them."""
    with database.session() as session:
        turns = session.scalars(select(TurnRow).order_by(TurnRow.id))
        return [(t.game_id, t.player, t.ranked) for t in turns]


# -- what counts ---------------------------------------------------------------------------------
def hidden_seed(record: GameRecord) -> GameRecord:
    """The fair game as it looked before its end: the server seed not revealed, nothing to check."""
    assert record.fairness is not None
    return replace(record, fairness=record.fairness.hidden())


KINDS: list[tuple[str, Callable[[], GameRecord], str]] = [
    ("fair dice", lambda: scripted(SOLO3, ["Ana"], SHUT), "ranked"),
    ("scripted dice", lambda: scripted(SOLO3, ["Ana"], SHUT, practice=True), "practice"),
    ("a chosen seed", lambda: seeded_shut(SOLO3, "Ana"), "practice"),
    ("fair dice, seed never revealed", lambda: hidden_seed(scripted(SOLO3, ["Ana"], SHUT)), "practice"),
    ("typed dice", lambda: typed_copy(scripted(SOLO3, ["Ana"], SHUT)), "companion"),
    ("a hint asked", lambda: replace(scripted(SOLO3, ["Ana"], SHUT), assisted=(0,)), "assisted"),
]


@pytest.mark.parametrize(("how", "make", "kind"), KINDS, ids=[k[0] for k in KINDS])
def test_the_kind_of_a_game_is_stored_and_shown(
    database: Database, how: str, make: Callable[[], GameRecord], kind: str
) -> None:
    games, profiles = GameRepository(database), ProfileRepository(database)
    ana = profiles.create("Ana")[0]
    game_id = games.save(make(), source="web", finished_at=T0, profiles={0: ana.id})
    summary = games.game(game_id).summary
    assert summary.kind == kind, how
    assert summary.to_json()["kind"] == kind
    assert summary.to_json()["ranked"] is (kind == "ranked")
    assert [g.to_json()["kind"] for g in games.games()] == [kind]
    # The box was shut in every one of them; only the ranked game makes it a best.
    assert [(b.score, b.game_id) for b in games.bests("Ana")] == ([(0, game_id)] if kind == "ranked" else [])
    assert [e.profile for e in games.leaderboard(SOLO3)] == ([ana.id] if kind == "ranked" else [])
    assert ranked_marks(database) == [(game_id, "Ana", kind == "ranked")]
    assert [t.score for t in games.history("Ana")] == [0]  # kept in the history whatever its kind


def test_a_better_practice_or_companion_score_is_no_best(
    games: GameRepository, profiles: ProfileRepository
) -> None:
    ana = profiles.create("Ana")[0]
    mine = {0: ana.id}
    ranked = games.save(scripted(SOLO3, ["Ana"], LEFT_3), source="web", finished_at=T0, profiles=mine)
    games.save(scripted(SOLO3, ["Ana"], SHUT, practice=True), source="web", profiles=mine)
    games.save(seeded_shut(SOLO3, "Ana"), source="web", profiles=mine)
    games.save(typed_copy(scripted(SOLO3, ["Ana"], SHUT)), source="companion", profiles=mine)
    games.save(scripted(SOLO3, ["Eva"], SHUT, practice=True), source="web")  # a guest's, too
    assert [(b.score, b.game_id, b.turns, b.finished_at) for b in games.bests("Ana")] == [(3, ranked, 1, T0)]
    assert games.bests("Eva") == []
    board = games.leaderboard(SOLO3)
    assert [(e.player, e.best, e.turns, e.shut_boxes) for e in board] == [("Ana", 3, 1, 0)]
    assert sorted(t.score for t in games.history("Ana")) == [0, 0, 0, 3]
    kinds = sorted(g.kind for g in games.games())
    assert kinds == ["companion", "practice", "practice", "practice", "ranked"]


def test_an_assisted_players_turns_do_not_count_but_the_others_do(
    database: Database, games: GameRepository, profiles: ProfileRepository
) -> None:
    made = profiles_of(profiles, "Ana", "Luis")
    seats = {0: made["Ana"].id, 1: made["Luis"].id}
    record = replace(scripted(ROUND3, ["Ana", "Luis"], ANA_1_LUIS_3), assisted=(0,))  # Ana asked for a hint
    game_id = games.save(record, source="web", profiles=seats)
    summary = games.game(game_id).summary
    assert (summary.kind, summary.to_json()["ranked"]) == ("assisted", False)
    assert games.game(game_id).record.assisted == (0,)
    assert ranked_marks(database) == [(game_id, "Ana", False), (game_id, "Luis", True)]
    assert games.bests("Ana") == []
    assert [(b.score, b.game_id) for b in games.bests("Luis")] == [(3, game_id)]
    assert [(e.player, e.best) for e in games.leaderboard(SOLO3)] == [("Luis", 3)]
    # The same game unassisted: both count.
    both = games.save(scripted(ROUND3, ["Ana", "Luis"], ANA_1_LUIS_3), source="web", profiles=seats)
    assert [(b.score, b.game_id) for b in games.bests("Ana")] == [(1, both)]
    assert [(e.player, e.best, e.turns) for e in games.leaderboard(SOLO3)] == [("Ana", 1, 1), ("Luis", 3, 2)]


# -- tampered records ----------------------------------------------------------------------------
def _first_roll(data: dict[str, Any]) -> dict[str, Any]:
    return next(event for event in data["events"] if "roll" in event)


def _other_die(data: dict[str, Any]) -> None:
    roll = _first_roll(data)
    roll["roll"] = [roll["roll"][0] % 6 + 1, *roll["roll"][1:]]


def _other_seed_and_its_commitment(data: dict[str, Any]) -> None:
    other = hashlib.sha256(b"another seed").digest()
    data["fairness"] |= {"server_seed": other.hex(), "commitment": commitment_of(other)}


def _seed_not_committed(data: dict[str, Any]) -> None:
    data["fairness"]["server_seed"] = hashlib.sha256(b"another seed").hexdigest()


def _commitment(data: dict[str, Any]) -> None:
    data["fairness"]["commitment"] = hashlib.sha256(b"another commitment").hexdigest()


def _client_seed_added(data: dict[str, Any]) -> None:
    data["fairness"]["client_seeds"].append("mine")


def _client_seed_changed(data: dict[str, Any]) -> None:
    data["fairness"]["client_seeds"][0] = "Xyz"


def _two_rolls_swapped(data: dict[str, Any]) -> None:
    rolls = [event for event in data["events"] if "roll" in event]
    first, second = next((a, b) for a, b in pairwise(rolls) if a["roll"] != b["roll"])
    first["roll"], second["roll"] = second["roll"], first["roll"]


DICE_DIFFER = "is not what the fair dice give"
NOT_COMMITTED = "not the one committed to"
TAMPERING = [
    (_other_die, DICE_DIFFER),
    (_other_seed_and_its_commitment, DICE_DIFFER),
    (_seed_not_committed, NOT_COMMITTED),
    (_commitment, NOT_COMMITTED),
    (_client_seed_added, DICE_DIFFER),
    (_client_seed_changed, DICE_DIFFER),
    (_two_rolls_swapped, DICE_DIFFER),
]


@pytest.mark.parametrize(("tamper", "why"), TAMPERING, ids=[t.__name__.strip("_") for t, _ in TAMPERING])
def test_a_record_whose_fair_dice_were_tampered_is_refused(
    games: GameRepository, tamper: Callable[[dict[str, Any]], None], why: str
) -> None:
    game = fair_game(Rules(), ["Ana", "Luis"], "tampered", client_seeds=("abc", "def"))
    honest = game.record()
    games.save(honest, source="web")  # the record as it was played is stored
    data = copy.deepcopy(honest.to_json())
    tamper(data)
    forged = GameRecord.from_json(data | {"result": None})  # a result would differ: let the dice speak
    with pytest.raises(StorageError, match="does not replay") as refused:
        games.save(forged, source="web")
    assert why in str(refused.value)
    assert games.count() == 1
    assert [b.game_id for b in games.bests("Ana")] == [1]


def test_a_record_with_a_chosen_seed_and_borrowed_fairness_is_not_ranked(games: GameRepository) -> None:
    """`GameRecord.from_json` refuses a seed with fairness, but a record built in Python reaches `save`
    as it is: its dice are checked against the chosen seed, and the revealed fairness of another game
    would make them ranked."""
    chosen = seeded_shut(SOLO3, "Ana")
    borrowed = scripted(SOLO3, ["Eva"], LEFT_3).fairness
    assert borrowed is not None and borrowed.honest
    forged = replace(chosen, fairness=borrowed)
    try:
        games.save(forged, source="web")
    except StorageError:
        return
    assert games.bests("Ana") == []
    assert games.games()[0].kind != "ranked"


def test_a_forged_fairness_object_cannot_be_read_either() -> None:
    """What a client could send instead: the record's JSON, with a seed and fairness."""
    data = seeded_shut(SOLO3, "Ana").to_json()
    fairness = scripted(SOLO3, ["Eva"], LEFT_3).fairness
    assert isinstance(fairness, Fairness)
    with pytest.raises(ValueError, match="seed or fairness, not both"):
        GameRecord.from_json(data | {"fairness": fairness.to_json()})


# -- the leaderboard: profiles only -------------------------------------------------------------------
def test_the_leaderboard_lists_profiles_only(games: GameRepository, profiles: ProfileRepository) -> None:
    ana, key = profiles.create("Ana")
    # Ana (a profile) against a bot that does better: the bot has no profile.
    with_bot = games.save(
        scripted(ROUND3, ["Ana", "Robo"], ANA_3_OTHER_1), source="web", profiles={0: ana.id}
    )
    games.save(scripted(SOLO3, ["Eva"], SHUT), source="web")  # a guest shuts the box
    guest_ana = games.save(scripted(SOLO3, ["Ana"], SHUT), source="web")  # a guest who took the name "Ana"
    assert all(g.kind == "ranked" for g in games.games())
    board = games.leaderboard(SOLO3)
    assert [(e.rank, e.player, e.profile, e.best, e.turns, e.shut_boxes) for e in board] == [
        (1, "Ana", ana.id, 3, 1, 0)
    ]
    assert board[0].to_json()["profile"] == ana.id
    # Bests: the name of a profile is the profile's; other names are guests'.
    assert [(b.player, b.score, b.game_id) for b in games.bests("Ana")] == [("Ana", 3, with_bot)]
    assert [(b.player, b.score) for b in games.bests("Eva")] == [("Eva", 0)]
    assert [(b.player, b.score) for b in games.bests("Robo")] == [("Robo", 1)]
    # The profile renamed: its turns follow it, and the old name is a guest's again.
    profiles.rename(key, "Ana María")
    assert [(e.player, e.profile, e.best) for e in games.leaderboard(SOLO3)] == [("Ana María", ana.id, 3)]
    assert [(b.player, b.score, b.game_id) for b in games.bests("Ana María")] == [("Ana María", 3, with_bot)]
    assert [(b.player, b.score, b.game_id) for b in games.bests("Ana")] == [("Ana", 0, guest_ana)]


# -- any name a person can type ---------------------------------------------------------------------
FAMILY = "👨\u200d👩\u200d👧\u200d👦"  # four emoji joined into one
SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # a flag and six tags
NAMES = ["AC/DC", f"{FAMILY} Fam", f"{SCOTLAND} Scot", "Zoë/Ana 👍🏽", "🇪🇸 ../x", "50% a+b?c#d"]


@pytest.mark.parametrize("name", NAMES)
def test_any_typed_name_has_its_bests_as_a_profile_and_as_a_guest(
    games: GameRepository, profiles: ProfileRepository, name: str
) -> None:
    profile = profiles.create(name)[0]
    assert profile.name == name and profiles.named(name) == profile
    mine = games.save(scripted(SOLO3, [name], LEFT_1), source="web", profiles={0: profile.id})
    games.save(scripted(SOLO3, [name], LEFT_3), source="web", profiles={0: profile.id})
    assert [(b.player, b.score, b.game_id, b.turns) for b in games.bests(name)] == [(name, 1, mine, 2)]
    assert [(e.player, e.best) for e in games.leaderboard(SOLO3)] == [(name, 1)]
    assert [t.score for t in games.history(name)] == [3, 1]
    guest = f"{name}!"  # a guest under a name as odd
    theirs = games.save(scripted(SOLO3, [guest], SHUT), source="web")
    assert [(b.player, b.score, b.game_id) for b in games.bests(guest)] == [(guest, 0, theirs)]
    assert [e.player for e in games.leaderboard(SOLO3)] == [name]  # the guest is not on it


def test_a_name_typed_decomposed_is_kept_composed(games: GameRepository, profiles: ProfileRepository) -> None:
    profile = profiles.create("  Zoe\u0301   Ana ")[0]
    assert profile.name == "Zoé Ana"
    games.save(scripted(SOLO3, ["Zoé Ana"], LEFT_1), source="web", profiles={0: profile.id})
    assert [b.score for b in games.bests("Zoé Ana")] == [1]


def test_a_seat_linked_to_a_profile_counts_for_it_whatever_the_seat_was_called(
    games: GameRepository, profiles: ProfileRepository
) -> None:
    ana = profiles.create("Ana")[0]
    game_id = games.save(scripted(SOLO3, ["Ani"], LEFT_1), source="web", profiles={0: ana.id})
    assert [(b.player, b.game_id) for b in games.bests("Ana")] == [("Ana", game_id)]
    assert games.bests("Ani") == []  # not a guest's: the turn is the profile's
    assert games.history("Ani") == []  # the history is the profile's too, not the seat name's
    assert [t.game_id for t in games.history("Ana")] == [game_id]
    assert [g.id for g in games.games(player="Ana")] == [game_id] and games.games(player="Ani") == []


def test_turns_of_seats_not_linked_are_guests_even_in_a_linked_game(
    database: Database, games: GameRepository, profiles: ProfileRepository
) -> None:
    ana = profiles.create("Ana")[0]
    games.save(scripted(ROUND3, ["Ana", "Luis"], ANA_1_LUIS_3), source="web", profiles={0: ana.id})
    with database.session() as session:
        links = [(t.player, t.profile_id) for t in session.scalars(select(TurnRow).order_by(TurnRow.seq))]
    assert links == [("Ana", ana.id), ("Luis", None)]
    assert [b.score for b in games.bests("Luis")] == [3]
    assert [e.player for e in games.leaderboard(SOLO3)] == ["Ana"]


@pytest.mark.parametrize("seats", ["no such profile", "no such seat"])
def test_a_seat_is_linked_only_to_a_known_profile(
    games: GameRepository, profiles: ProfileRepository, seats: str
) -> None:
    ana = profiles.create("Ana")[0]
    profiles = {0: ana.id + 1} if seats == "no such profile" else {0: ana.id, 1: ana.id}
    with pytest.raises(StorageError):
        games.save(scripted(SOLO3, ["Ana"], LEFT_1), source="web", profiles=profiles)
    assert games.count() == 0
