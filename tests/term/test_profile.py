"""The terminal player's profile: made with the first saved game, its key in the data folder."""

from __future__ import annotations

import json
import random
import stat
from pathlib import Path

import pytest

from drive import finish
from shutthebox import Game, Rules
from shutthebox.storage import Store
from shutthebox.term.profile import profile_path, read_profile
from shutthebox.term.scores import save_finished

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
    with Store.open() as store:
        assert store.profile(local.key) is not None
        raw = store.engine.raw_connection()
        try:
            stored = [row[0] for row in raw.execute("SELECT key_hash FROM profiles")]
        finally:
            raw.close()
        assert stored and local.key not in stored
        assert [e.player for e in store.leaderboard()] == ["Ana"]  # a fair game: ranked, under the profile


def test_later_games_reuse_it_and_another_database_learns_the_same_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_finished(finished("Ana"), ["Ana"])
    key = read_profile()
    lines = save_finished(finished("Ana", 1), ["Ana"])
    assert read_profile() == key and not any("created" in line for line in lines)
    monkeypatch.setenv("SHUTTHEBOX_DB", f"sqlite:///{tmp_path / 'other.db'}")
    save_finished(finished("Ana", 2), ["Ana"])
    with Store.open() as store:
        assert key is not None and store.profile(key.key) is not None
        assert [(e.player, e.turns) for e in store.leaderboard()] == [("Ana", 1)]


def test_a_name_held_by_another_profile_is_kept_without_one(tmp_path: Path) -> None:
    with Store.open() as store:
        store.create_profile("\u0410na")  # Cyrillic A: looks like Ana
    lines = save_finished(finished("Ana"), ["Ana"])
    assert any("kept without a profile" in line and "looks too much like" in line for line in lines), lines
    assert read_profile() is None
    with Store.open() as store:
        assert store.leaderboard() == []  # a guest's fair turn: a best by name, never the leaderboard
        assert [b.score for b in store.bests("Ana")]


def test_a_damaged_profile_file_is_made_anew(tmp_path: Path) -> None:
    path = profile_path()
    path.parent.mkdir(parents=True)
    path.write_text("not json")
    save_finished(finished("Eva"), ["Eva"])
    local = read_profile()
    assert local is not None and local.name == "Eva"
    assert json.loads(path.read_text())["name"] == "Eva"
