"""The terminal player's profile: a name and its secret key, kept in the user's data folder.

The page keeps its profile key in the browser; the terminal keeps it in
``profile.json`` in the user data folder, readable by its owner alone. The
first finished game creates it for the first person at the table, if no other
profile holds that name or one like it; after that, the seat played under the
profile's name is saved as the profile's, so its ranked turns count on the
leaderboard of the same database. The database keeps only the key's hash.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shutthebox.core.errors import ShutTheBoxError
from shutthebox.i18n import _, say
from shutthebox.storage.location import data_folder
from shutthebox.storage.profiles import ProfileRepository

__all__ = ["LocalProfile", "link_profile", "profile_path", "read_profile", "write_profile"]

FILE = "profile.json"


@dataclass(frozen=True, slots=True)
class LocalProfile:
    """This machine's player: the profile's name and secret key."""

    name: str
    key: str


def profile_path() -> Path:
    return Path(data_folder()) / FILE


def read_profile() -> LocalProfile | None:
    """The profile kept here, or None (none yet, or a file that is not one: it is made anew)."""
    try:
        data = json.loads(profile_path().read_text(encoding="utf-8"))
        return LocalProfile(str(data["name"]), str(data["key"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_profile(profile: LocalProfile) -> None:
    """Keep the profile where only its owner can read it."""
    path = profile_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump({"name": profile.name, "key": profile.key}, file, ensure_ascii=False)


def link_profile(
    profiles: ProfileRepository, players: Sequence[str], humans: Sequence[str]
) -> tuple[dict[int, int], str | None]:
    """The seats this machine's profile played (``{seat: profile id}``), creating the profile for
    the first person on first use; and a line to tell the player, if there is news."""
    if not humans:
        return {}, None
    local = read_profile()
    aside = _set_aside() if local is None else None
    said = "" if aside is None else _(
        "Your profile file {path} could not be read: it is set aside as {aside} and not used."
    ).format(path=profile_path(), aside=aside.name)
    try:
        if local is None:
            made, key = profiles.create(humans[0])
            write_profile(LocalProfile(made.name, key))
            news = _("Your player profile {name} was created; its secret key stays in your data folder.")
            return _seats(players, humans, made), " ".join(filter(None, [said, news.format(name=made.name)]))
        found = profiles.by_key(local.key)
        if found is None:  # another database: the profile is made there with the same key
            found, _key = profiles.create(local.name, key=local.key)
        return _seats(players, humans, found), None
    except ShutTheBoxError as error:
        kept = _("The game is kept without a profile: {reason}").format(reason=say(error))
        return {}, " ".join(filter(None, [said, kept]))


def _set_aside() -> Path | None:
    """A profile file that is there but cannot be read, renamed out of the way (``profile.json.unreadable``)
    so that a new one can be kept; None when there is no such file."""
    path = profile_path()
    if not path.exists():
        return None
    aside = path.with_name(path.name + ".unreadable")
    try:
        path.replace(aside)
    except OSError:
        return path  # left where it is: still not used
    return aside


def _seats(players: Sequence[str], humans: Sequence[str], profile: Any) -> dict[int, int]:
    return {seat: profile.id for seat, name in enumerate(players) if name in humans and name == profile.name}
