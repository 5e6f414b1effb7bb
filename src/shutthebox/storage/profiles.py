"""Profiles: players with an identity, each a name and a secret key of which only the hash is kept.

No two profiles hold names that look alike (`storage.names`): each profile's look-alike keys are
unique in the database, so even two requests claiming one name at once cannot both have it.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.names import clean_name
from shutthebox.storage.database import Database, StorageError
from shutthebox.storage.models import ProfileNameRow, ProfileRow
from shutthebox.storage.names import look_alike_keys
from shutthebox.storage.prepared import Prepared

__all__ = ["NameTakenError", "Profile", "ProfileRepository", "as_kept"]


class NameTakenError(StorageError):
    """A profile name that another profile holds, or one that looks like it."""


@dataclass(frozen=True, slots=True)
class Profile:
    """A player with an identity: only the holder of its secret key plays as it."""

    id: int
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


def as_kept(name: str) -> str:
    """A name typed to look one up, as names are kept: composed (NFC), its spaces made one."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


def _key_hash(key: str) -> str:
    """What is kept of a profile's secret key: its SHA-256, so a stolen database holds no key."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class ProfileRepository:
    """The profiles of a `Database`: made, renamed, found by key or by name."""

    def __init__(self, database: Database) -> None:
        self._database = database

    @property
    def local(self) -> bool:
        """Its reads answer from a file of this machine (`Database.local`)."""
        return self._database.local

    def create(self, name: str, *, key: str | None = None) -> tuple[Profile, str]:
        """A new profile named ``name``, and its secret key (``key``, or a new one): only its hash is kept."""
        name = _profile_name(name)
        key = key if key is not None else secrets.token_urlsafe(32)
        row = ProfileRow(name=name, key_hash=_key_hash(key), created_at=datetime.now(UTC))
        with _claiming(name), self._database.session() as session:
            if session.scalar(select(ProfileRow.id).where(ProfileRow.key_hash == row.key_hash)) is not None:
                raise StorageError("this key already belongs to a profile")
            _check_free(session, name, None)
            session.add(row)
            session.flush()
            session.add_all(ProfileNameRow(key=k, profile_id=row.id) for k in look_alike_keys(name))
        return Profile(row.id, name), key

    def rename(self, key: str, name: str) -> Profile:
        """Give the profile of ``key`` another name (free, and like no other profile's)."""
        name = _profile_name(name)
        with _claiming(name), self._database.session() as session:
            row = session.scalar(select(ProfileRow).where(ProfileRow.key_hash == _key_hash(key)))
            if row is None:
                raise StorageError("no profile has this key")
            _check_free(session, name, row.id)
            for old in session.scalars(select(ProfileNameRow).where(ProfileNameRow.profile_id == row.id)):
                session.delete(old)
            session.flush()
            row.name = name
            session.add_all(ProfileNameRow(key=k, profile_id=row.id) for k in look_alike_keys(name))
            return Profile(row.id, name)

    def by_key(self, key: str) -> Profile | None:
        """The profile whose secret key is ``key``, if any."""
        with self._database.session() as session:
            row = session.scalar(select(ProfileRow).where(ProfileRow.key_hash == _key_hash(key)))
            return Profile(row.id, row.name) if row is not None else None

    def named(self, name: str) -> Profile | None:
        """The profile shown as ``name`` (as typed: composed and its spaces made one, as names are kept)."""
        with self._database.session() as session:
            row = session.scalar(select(ProfileRow).where(ProfileRow.name == as_kept(name)).limit(1))
            return Profile(row.id, row.name) if row is not None else None

    def holder(self, name: str) -> Profile | None:
        """The profile holding ``name`` or a name that looks like it, if any."""
        with self._database.reading() as connection:
            row = _HOLDER_OF_ROOM.first(connection, _holder_keys(name))
            return Profile(row[0], row[1]) if row is not None else None


_HOLDER = (
    select(ProfileRow.id, ProfileRow.name)
    .join(ProfileNameRow, ProfileNameRow.profile_id == ProfileRow.id)
    .where(ProfileNameRow.key.in_([bindparam("key"), bindparam("other")]))  # a name has one or two keys
    .limit(1)
)
_HOLDER_OF_ROOM = Prepared(_HOLDER)
"""Built once: asked of every name a new room seats (`ProfileRepository.holder`)."""


def _holder_keys(name: str) -> dict[str, str]:
    key, *others = sorted(look_alike_keys(name))
    return {"key": key, "other": others[0] if others else key}


def _holder(reader: Session | Connection, name: str) -> Profile | None:
    row = reader.execute(_HOLDER, _holder_keys(name)).first()
    return Profile(row[0], row[1]) if row is not None else None


def _profile_name(name: str) -> str:
    try:
        return clean_name(name)
    except ShutTheBoxError as error:
        raise StorageError("{error}", error=error) from None


def _check_free(session: Session, name: str, mine: int | None) -> None:
    """Refuse ``name`` if a profile other than ``mine`` holds it or a name like it."""
    holder = _holder(session, name)
    if holder is not None and holder.id != mine:
        if holder.name == name:
            raise NameTakenError("the name {name!r} is taken by another player", name=name)
        raise NameTakenError(
            "the name {name!r} looks too much like {held!r}, another player's", name=name, held=holder.name,
        )


@contextmanager
def _claiming(name: str) -> Iterator[None]:
    """A name taken by another request in the meantime: the unique keys refuse it."""
    try:
        yield
    except IntegrityError:
        raise NameTakenError("the name {name!r} is taken by another player", name=name) from None
