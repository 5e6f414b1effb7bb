"""The terminal player's profile: made with the first saved game, its key in the data folder."""

from __future__ import annotations

import json
import random
import stat
from pathlib import Path

import pytest

from shutthebox import Game, Rules
from shutthebox.storage import Database, GameRepository, ProfileRepository
from shutthebox.term.profile import profile_path, read_profile
from shutthebox.term.saving import save_finished
from tests.support.drive import finish

SOLO = Rules(mode="solo")  # type: ignore[arg-type]


def finished(name: str, seed: int = 0) -> Game:
    game = Game(SOLO, [name])
    finish(game, random.Random(seed))
    return game


def test_the_first_saved_game_makes_the_profile_and_keeps_only_its_hash(tmp_path: Path) -> None:
    lines = save_finished(finished("Ana"), ["Ana"])
    assert any("profile Ana was created" in line for line in lines), lines
    local = read_profile()
    assert local is not None and local.name == "Ana"
    assert stat.S_IMODE(profile_path().stat().st_mode) == 0o600  # readable by its owner alone
    with Database.open() as database:
        games, profiles = GameRepository(database), ProfileRepository(database)
        assert profiles.by_key(local.key) is not None
        raw = database.engine.raw_connection()
        try:
            stored = [row[0] for row in raw.execute("SELECT key_hash FROM profiles")]
        finally:
            raw.close()
        assert stored and local.key not in stored
        assert [e.player for e in games.leaderboard()] == ["Ana"]  # a fair game: ranked, under the profile


def test_later_games_reuse_it_and_another_database_learns_the_same_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_finished(finished("Ana"), ["Ana"])
    key = read_profile()
    lines = save_finished(finished("Ana", 1), ["Ana"])
    assert read_profile() == key and not any("created" in line for line in lines)
    monkeypatch.setenv("SHUTTHEBOX_DB", f"sqlite:///{tmp_path / 'other.db'}")
    save_finished(finished("Ana", 2), ["Ana"])
    with Database.open() as database:
        games, profiles = GameRepository(database), ProfileRepository(database)
        assert key is not None and profiles.by_key(key.key) is not None
        assert [(e.player, e.turns) for e in games.leaderboard()] == [("Ana", 1)]


def test_a_name_held_by_another_profile_is_kept_without_one(tmp_path: Path) -> None:
    with Database.open() as database:
        ProfileRepository(database).create("\u0410na")  # Cyrillic A: looks like Ana
    lines = save_finished(finished("Ana"), ["Ana"])
    assert any("kept without a profile" in line and "looks too much like" in line for line in lines), lines
    assert read_profile() is None
    with Database.open() as database:
        games = GameRepository(database)
        assert games.leaderboard() == []  # a guest's fair turn: a best by name, never the leaderboard
        assert [b.score for b in games.bests("Ana")]


def test_a_damaged_profile_file_is_made_anew(tmp_path: Path) -> None:
    path = profile_path()
    path.parent.mkdir(parents=True)
    path.write_text("not json")
    save_finished(finished("Eva"), ["Eva"])
    local = read_profile()
    assert local is not None and local.name == "Eva"
    assert json.loads(path.read_text())["name"] == "Eva"


def fair_finished(name: str, n: int) -> Game:
    """A finished ranked solo game for ``name``: fair dice from a server seed of its own."""
    from shutthebox.core.fair import FairDice

    game = Game(SOLO, [name], dice=FairDice(bytes([n]) * 32))
    finish(game, random.Random(n))
    return game


def score_of(game: Game) -> int:
    score = game.state.history[-1].score
    assert score is not None
    return score


def test_a_guest_named_like_another_players_profile_is_told_of_the_guests_own_best(tmp_path: Path) -> None:
    """Regression: a guest named "Ana" was told "New personal best" (or not) against the best of the
    profile Ana, another person's."""
    games = sorted((fair_finished("Ana", n) for n in range(12)), key=score_of)
    theirs, mine, worse = games[0], games[-2], games[-1]
    assert score_of(theirs) < score_of(mine) <= score_of(worse)
    with Database.open() as database:  # someone else's profile Ana, with a better ranked turn
        kept = GameRepository(database)
        profile, _key = ProfileRepository(database).create("Ana")
        kept.save(theirs.record(), source="web", profiles={0: profile.id})
        assert kept.best("Ana", SOLO).score == score_of(theirs)  # type: ignore[union-attr]
    lines = save_finished(mine, ["Ana"])  # this machine has no profile, and Ana is taken: a guest
    assert any("kept without a profile" in line for line in lines), lines
    assert f"New personal best for Ana on 9 tiles: {score_of(mine)}!" in lines, lines
    lines = save_finished(worse, ["Ana"])
    assert f"Ana's best on 9 tiles with these rules: {score_of(mine)}." in lines, lines


def test_the_profiles_seat_is_told_of_the_profiles_best_not_a_guests(tmp_path: Path) -> None:
    games = sorted((fair_finished("Ana", n) for n in range(12)), key=score_of)
    guest, first, mine = games[0], games[-1], games[-2]
    assert score_of(guest) < score_of(mine) < score_of(first)
    with Database.open() as database:  # a guest Ana played here once, with a better turn
        GameRepository(database).save(guest.record(), source="web")
    save_finished(first, ["Ana"])  # the profile Ana is made with this game
    assert read_profile() is not None
    lines = save_finished(mine, ["Ana"])
    assert f"New personal best for Ana on 9 tiles: {score_of(mine)}!" in lines, lines
