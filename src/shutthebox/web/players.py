"""Whom a request plays as: a profile, else a guest (a random key the page keeps and sends as
``X-Guest-Key``), else its address. Games in play are counted per player (`web.rooms`), so everyone
behind one address (a pub, a school) no longer shares one cap; the address keeps a far higher one."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shutthebox.storage import Profile

__all__ = ["GUEST_HEADER", "player_of"]

GUEST_HEADER = "X-Guest-Key"
"""The header a guest's page sends its key in (1 to 64 of A-Z a-z 0-9 - _), on every request."""


def player_of(profile: Profile | None, guest: str | None, address: str | None) -> str | None:
    """The player a request is, as the rooms keep it (hashed): a profile, a guest key, an address."""
    if profile is not None:
        return f"profile:{profile.id}"
    if guest is not None:
        return f"guest:{guest}"
    return f"address:{address}" if address is not None else None
