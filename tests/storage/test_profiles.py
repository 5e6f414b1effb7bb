"""Profiles: a name and a secret key, of which the store keeps only the hash; no two profiles hold
names that look alike, even when two requests claim them at once."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from shutthebox.storage import NameTakenError, Profile, StorageError, Store
from shutthebox.storage import profiles as profiles_module
from shutthebox.storage.models import ProfileNameRow, ProfileRow


def profile_count(store: Store) -> int:
    with store._session() as session:
        return session.scalar(select(func.count()).select_from(ProfileRow)) or 0


# -- creating, finding, renaming ------------------------------------------------------------------
def test_a_profile_is_created_with_a_secret_key_that_finds_it(store: Store) -> None:
    profile, key = store.profiles.create("Ana")
    assert isinstance(profile, Profile) and profile.name == "Ana"
    assert profile.to_json() == {"id": profile.id, "name": "Ana"}
    assert len(key) >= 32
    assert store.profiles.by_key(key) == profile
    assert store.profiles.named("Ana") == profile
    assert store.profiles.by_key(key + "x") is None and store.profiles.by_key("") is None
    assert store.profiles.named("Nadie") is None
    other, other_key = store.profiles.create("Luis")
    assert other_key != key and other.id != profile.id
    assert store.profiles.by_key(other_key) == other


def test_a_chosen_key_is_used(store: Store) -> None:
    profile, key = store.profiles.create("Ana", key="my own secret")
    assert key == "my own secret"
    assert store.profiles.by_key("my own secret") == profile


def test_only_the_hash_of_the_key_is_stored(store: Store, tmp_path: Path) -> None:
    profile, key = store.profiles.create("Ana")
    with store.engine.connect() as connection:
        rows = connection.execute(text("SELECT * FROM profiles")).mappings().all()
        keys = connection.execute(text("SELECT key, profile_id FROM profile_names")).all()
    assert len(rows) == 1
    assert rows[0]["key_hash"] == hashlib.sha256(key.encode()).hexdigest()
    assert rows[0]["name"] == "Ana" and rows[0]["id"] == profile.id
    assert not any(key in str(value) for row in rows for value in row.values())
    assert all(key not in str(value) for row in keys for value in row)
    sqlite = store.engine.dialect.name == "sqlite"
    store.close()
    if sqlite:  # nowhere in the file either
        assert key.encode() not in (tmp_path / "games.db").read_bytes()
        wal = tmp_path / "games.db-wal"
        assert not wal.exists() or key.encode() not in wal.read_bytes()


def test_a_name_is_cleaned_before_it_is_kept(store: Store) -> None:
    profile, _ = store.profiles.create("  Ana \u00a0  Mari\u0301a ")
    assert profile.name == "Ana María"
    assert store.profiles.named("Ana María") == profile


@pytest.mark.parametrize(("name", "why"), [
    ("", "at least one visible character"),
    ("   ", "at least one visible character"),
    ("Ana\x00", r"U\+0000"),
    ("\u202eanA", r"U\+202E"),
    ("A" * 25, "longer than 24"),
])
def test_a_malformed_name_is_refused_but_not_as_taken(store: Store, name: str, why: str) -> None:
    with pytest.raises(StorageError, match=why) as refused:
        store.profiles.create(name)
    assert not isinstance(refused.value, NameTakenError)
    assert profile_count(store) == 0


def test_a_profile_is_renamed_by_its_key(store: Store) -> None:
    profile, key = store.profiles.create("Ana")
    renamed = store.profiles.rename(key, "Ana María")
    assert renamed == Profile(profile.id, "Ana María")
    assert store.profiles.by_key(key) == renamed
    assert store.profiles.named("Ana María") == renamed
    assert store.profiles.named("Ana") is None
    luis, _ = store.profiles.create("ANA")  # the old name and its look-alikes are free again
    assert luis.name == "ANA"
    with pytest.raises(NameTakenError, match="'ANA'"):
        store.profiles.rename(key, "ana")  # now another's
    assert store.profiles.by_key(key) == renamed  # unchanged by the refusal


def test_a_profile_may_take_a_look_alike_of_its_own_name(store: Store) -> None:
    _, key = store.profiles.create("Ana")
    assert store.profiles.rename(key, "ANA").name == "ANA"
    assert store.profiles.rename(key, "Ana").name == "Ana"
    with store._session() as session:
        assert session.scalar(select(func.count()).select_from(ProfileNameRow)) == 1  # old keys gone


def test_renaming_needs_a_known_key_and_a_clean_name(store: Store) -> None:
    _, key = store.profiles.create("Ana")
    with pytest.raises(StorageError, match="no profile has this key"):
        store.profiles.rename("not a key", "Luis")
    with pytest.raises(StorageError, match="U\\+0007"):
        store.profiles.rename(key, "Lu\x07is")
    assert store.profiles.by_key(key) == Profile(1, "Ana")
    assert store.profiles.named("Luis") is None


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
def test_two_profiles_cannot_hold_names_that_look_alike(store: Store, held: str, wanted: str) -> None:
    holder, key = store.profiles.create(held)
    with pytest.raises(NameTakenError) as refused:
        store.profiles.create(wanted)
    assert repr(held) in str(refused.value)  # it names the holder's name
    assert profile_count(store) == 1
    other, other_key = store.profiles.create("Luis")
    with pytest.raises(NameTakenError, match=repr(held)):
        store.profiles.rename(other_key, wanted)  # nor can another take it by a new name
    assert store.profiles.by_key(key) == holder and store.profiles.by_key(other_key) == other


@pytest.mark.parametrize(("first", "second"), [
    ("Ana", "Anna"), ("Ana", "Ava"), ("Eva", "Ana"), ("Luis", "Lois"), ("Ana", "Ana María"), ("Ana", "Ana/2"),
])
def test_names_that_differ_can_both_be_held(store: Store, first: str, second: str) -> None:
    one, _ = store.profiles.create(first)
    two, _ = store.profiles.create(second)
    assert (one.name, two.name) == (first, second)
    assert store.profiles.named(first) == one and store.profiles.named(second) == two


# -- two claims at once ---------------------------------------------------------------------------------
def test_the_unique_keys_refuse_a_look_alike_even_when_the_check_is_skipped(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check reads before it writes; what stops a second claim in between is the database."""
    holder, key = store.profiles.create("Ana")
    monkeypatch.setattr(profiles_module, "_check_free", lambda *_args: None)
    for wanted in ("\u0410na", "ANA", "\uff21\uff4e\uff41"):
        with pytest.raises(NameTakenError, match=repr(wanted)):
            store.profiles.create(wanted)
    luis, luis_key = store.profiles.create("Luis")  # its id: the refused claims may have used some
    with pytest.raises(NameTakenError):
        store.profiles.rename(luis_key, "ana")
    assert profile_count(store) == 2  # nothing half-written: no profile without its name keys
    assert store.profiles.by_key(key) == holder
    assert store.profiles.by_key(luis_key) == Profile(luis.id, "Luis")
    with store._session() as session:
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
    with Store.open(database_url) as store:

        def claim(name: str) -> None:
            try:
                made.append(store.profiles.create(name)[0])
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
        assert profile_count(store) == 1
        assert store.profiles.named(made[0].name) == made[0]


# -- invisible characters ---------------------------------------------------------------------------------
@pytest.mark.parametrize("wanted", [
    "An\u200da",  # zero-width joiner between letters
    "Ana\u200c",  # zero-width non-joiner
    "Ana\ufe0f",  # a variation selector after a letter
    "Ana\u034f",  # combining grapheme joiner
    "Ana\U000e0061",  # a tag character, not after a flag
])
def test_a_name_with_invisible_characters_added_looks_like_the_name(store: Store, wanted: str) -> None:
    store.profiles.create("Ana")
    with pytest.raises(StorageError):  # refused as malformed or as taken: not a second "Ana" on screen
        store.profiles.create(wanted)


@pytest.mark.parametrize(("held", "like"), [("me", "rne"), ("Mimi", "rnirni"), ("Ana", "Ana\u200d")])
def test_a_letter_drawn_like_two_is_a_look_alike(store: Store, held: str, like: str) -> None:
    store.profiles.create(held)
    with pytest.raises(NameTakenError):
        store.profiles.create(like)


def test_look_alike_keys_are_kept_as_hashes_that_fit_any_column(store: Store) -> None:
    long = "\ufdfa" * 24  # one character whose compatibility form is eighteen letters
    store.profiles.create(long)
    with store._session() as session:
        keys = [row.key for row in session.scalars(select(ProfileNameRow))]
    assert keys and all(len(key) == 64 for key in keys)
