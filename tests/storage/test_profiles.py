"""Profiles: a name and a secret key, of which the store keeps only the hash; no two profiles hold
names that look alike, even when two requests claim them at once."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from shutthebox.storage import Database, NameTakenError, Profile, ProfileRepository, StorageError
from shutthebox.storage import profiles as profiles_module
from shutthebox.storage.models import ProfileNameRow, ProfileRow


def profile_count(database: Database) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(ProfileRow)) or 0


# -- creating, finding, renaming ------------------------------------------------------------------
def test_a_profile_is_created_with_a_secret_key_that_finds_it(profiles: ProfileRepository) -> None:
    profile, key = profiles.create("Ana")
    assert isinstance(profile, Profile) and profile.name == "Ana"
    assert profile.to_json() == {"id": profile.id, "name": "Ana"}
    assert len(key) >= 32
    assert profiles.by_key(key) == profile
    assert profiles.named("Ana") == profile
    assert profiles.by_key(key + "x") is None and profiles.by_key("") is None
    assert profiles.named("Nadie") is None
    other, other_key = profiles.create("Luis")
    assert other_key != key and other.id != profile.id
    assert profiles.by_key(other_key) == other


def test_a_chosen_key_is_used(profiles: ProfileRepository) -> None:
    profile, key = profiles.create("Ana", key="my own secret")
    assert key == "my own secret"
    assert profiles.by_key("my own secret") == profile


def test_only_the_hash_of_the_key_is_stored(
    database: Database, profiles: ProfileRepository, tmp_path: Path
) -> None:
    profile, key = profiles.create("Ana")
    with database.engine.connect() as connection:
        rows = connection.execute(text("SELECT * FROM profiles")).mappings().all()
        keys = connection.execute(text("SELECT key, profile_id FROM profile_names")).all()
    assert len(rows) == 1
    assert rows[0]["key_hash"] == hashlib.sha256(key.encode()).hexdigest()
    assert rows[0]["name"] == "Ana" and rows[0]["id"] == profile.id
    assert not any(key in str(value) for row in rows for value in row.values())
    assert all(key not in str(value) for row in keys for value in row)
    sqlite = database.engine.dialect.name == "sqlite"
    database.close()
    if sqlite:  # nowhere in the file either
        assert key.encode() not in (tmp_path / "games.db").read_bytes()
        wal = tmp_path / "games.db-wal"
        assert not wal.exists() or key.encode() not in wal.read_bytes()


def test_a_name_is_cleaned_before_it_is_kept(profiles: ProfileRepository) -> None:
    profile, _ = profiles.create("  Ana \u00a0  Mari\u0301a ")
    assert profile.name == "Ana María"
    assert profiles.named("Ana María") == profile


@pytest.mark.parametrize(("name", "why"), [
    ("", "at least one visible character"),
    ("   ", "at least one visible character"),
    ("Ana\x00", r"U\+0000"),
    ("\u202eanA", r"U\+202E"),
    ("A" * 25, "longer than 24"),
])
def test_a_malformed_name_is_refused_but_not_as_taken(
    database: Database, profiles: ProfileRepository, name: str, why: str
) -> None:
    with pytest.raises(StorageError, match=why) as refused:
        profiles.create(name)
    assert not isinstance(refused.value, NameTakenError)
    assert profile_count(database) == 0


def test_a_profile_is_renamed_by_its_key(profiles: ProfileRepository) -> None:
    profile, key = profiles.create("Ana")
    renamed = profiles.rename(key, "Ana María")
    assert renamed == Profile(profile.id, "Ana María")
    assert profiles.by_key(key) == renamed
    assert profiles.named("Ana María") == renamed
    assert profiles.named("Ana") is None
    luis, _ = profiles.create("ANA")  # the old name and its look-alikes are free again
    assert luis.name == "ANA"
    with pytest.raises(NameTakenError, match="'ANA'"):
        profiles.rename(key, "ana")  # now another's
    assert profiles.by_key(key) == renamed  # unchanged by the refusal


def test_a_profile_may_take_a_look_alike_of_its_own_name(
    database: Database, profiles: ProfileRepository
) -> None:
    _, key = profiles.create("Ana")
    assert profiles.rename(key, "ANA").name == "ANA"
    assert profiles.rename(key, "Ana").name == "Ana"
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(ProfileNameRow)) == 1  # old keys gone


def test_renaming_needs_a_known_key_and_a_clean_name(profiles: ProfileRepository) -> None:
    _, key = profiles.create("Ana")
    with pytest.raises(StorageError, match="no profile has this key"):
        profiles.rename("not a key", "Luis")
    with pytest.raises(StorageError, match="U\\+0007"):
        profiles.rename(key, "Lu\x07is")
    assert profiles.by_key(key) == Profile(1, "Ana")
    assert profiles.named("Luis") is None


# -- look-alike names ---------------------------------------------------------------------------------
LOOK_ALIKES = [
    ("Ana", "Ana"),
    ("Ana", "\u0410na"),  # Cyrillic capital A
    ("Ana", "An\u0430"),  # Cyrillic small a
    ("Ana", "\uff21\uff4e\uff41"),  # fullwidth
    ("Ana", "ANA"),
    ("ana", "Ana"),
    ("AI", "Al"),  # capital i, small L
    ("Al", "AI"),
    ("Ivan", "lvan"),
    ("Straße", "STRASSE"),
    ("Eva", "\u0395va"),  # Greek capital epsilon
    ("Zoé", "ZOE\u0301"),  # the accent composed or not
]


@pytest.mark.parametrize(("held", "wanted"), LOOK_ALIKES)
def test_two_profiles_cannot_hold_names_that_look_alike(
    database: Database, profiles: ProfileRepository, held: str, wanted: str
) -> None:
    holder, key = profiles.create(held)
    with pytest.raises(NameTakenError) as refused:
        profiles.create(wanted)
    assert repr(held) in str(refused.value)  # it names the holder's name
    assert profile_count(database) == 1
    other, other_key = profiles.create("Luis")
    with pytest.raises(NameTakenError, match=repr(held)):
        profiles.rename(other_key, wanted)  # nor can another take it by a new name
    assert profiles.by_key(key) == holder and profiles.by_key(other_key) == other


@pytest.mark.parametrize(("first", "second"), [
    ("Ana", "Anna"), ("Ana", "Ava"), ("Eva", "Ana"), ("Luis", "Lois"), ("Ana", "Ana María"), ("Ana", "Ana/2"),
])
def test_names_that_differ_can_both_be_held(profiles: ProfileRepository, first: str, second: str) -> None:
    one, _ = profiles.create(first)
    two, _ = profiles.create(second)
    assert (one.name, two.name) == (first, second)
    assert profiles.named(first) == one and profiles.named(second) == two


# -- two claims at once ---------------------------------------------------------------------------------
def test_the_unique_keys_refuse_a_look_alike_even_when_the_check_is_skipped(
    database: Database, profiles: ProfileRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check reads before it writes; what stops a second claim in between is the database."""
    holder, key = profiles.create("Ana")
    monkeypatch.setattr(profiles_module, "_check_free", lambda *_args: None)
    for wanted in ("\u0410na", "ANA", "\uff21\uff4e\uff41"):
        with pytest.raises(NameTakenError, match=repr(wanted)):
            profiles.create(wanted)
    luis, luis_key = profiles.create("Luis")  # its id: the refused claims may have used some
    with pytest.raises(NameTakenError):
        profiles.rename(luis_key, "ana")
    assert profile_count(database) == 2  # nothing half-written: no profile without its name keys
    assert profiles.by_key(key) == holder
    assert profiles.by_key(luis_key) == Profile(luis.id, "Luis")
    with database.session() as session:
        owners = set(session.scalars(select(ProfileNameRow.profile_id)))
    assert owners == {holder.id, luis.id}


@pytest.mark.parametrize("names", [("Ana", "\u0410na"), ("AI", "Al"), ("Zoé", "ZOÉ")])
def test_two_threads_claiming_look_alikes_at_once_get_one_profile(
    database_url: str, monkeypatch: pytest.MonkeyPatch, names: tuple[str, str]
) -> None:
    """Both claims pass the check before either writes (a barrier holds them): one profile is made,
    the other claim is refused as taken."""
    check = profiles_module._check_free
    both_checked = threading.Barrier(2, timeout=10)

    def check_then_wait(session: object, name: str, mine: int | None) -> None:
        check(session, name, mine)  # type: ignore[arg-type]
        both_checked.wait()

    monkeypatch.setattr(profiles_module, "_check_free", check_then_wait)
    made: list[Profile] = []
    refused: list[Exception] = []
    with Database.open(database_url) as database:
        profiles = ProfileRepository(database)

        def claim(name: str) -> None:
            try:
                made.append(profiles.create(name)[0])
            except Exception as error:  # kept, and checked below
                refused.append(error)

        threads = [threading.Thread(target=claim, args=(name,)) for name in names]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert not any(thread.is_alive() for thread in threads)
        assert len(made) == 1, refused
        assert len(refused) == 1 and isinstance(refused[0], NameTakenError), refused
        assert profile_count(database) == 1
        assert profiles.named(made[0].name) == made[0]


# -- invisible characters ---------------------------------------------------------------------------------
@pytest.mark.parametrize("wanted", [
    "An\u200da",  # zero-width joiner between letters
    "Ana\u200c",  # zero-width non-joiner
    "Ana\ufe0f",  # a variation selector after a letter
    "Ana\u034f",  # combining grapheme joiner
    "Ana\U000e0061",  # a tag character, not after a flag
])
def test_a_name_with_invisible_characters_added_looks_like_the_name(
    profiles: ProfileRepository, wanted: str
) -> None:
    profiles.create("Ana")
    with pytest.raises(StorageError):  # refused as malformed or as taken: not a second "Ana" on screen
        profiles.create(wanted)


@pytest.mark.parametrize(("held", "like"), [("me", "rne"), ("Mimi", "rnirni"), ("Ana", "Ana\u200d")])
def test_a_letter_drawn_like_two_is_a_look_alike(profiles: ProfileRepository, held: str, like: str) -> None:
    profiles.create(held)
    with pytest.raises(NameTakenError):
        profiles.create(like)


def test_look_alike_keys_are_kept_as_hashes_that_fit_any_column(
    database: Database, profiles: ProfileRepository
) -> None:
    long = "\ufdfa" * 24  # one character whose compatibility form is eighteen letters
    profiles.create(long)
    with database.session() as session:
        keys = [row.key for row in session.scalars(select(ProfileNameRow))]
    assert keys and all(len(key) == 64 for key in keys)
