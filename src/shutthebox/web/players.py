"""Whom a request plays as: a profile, else a guest (a random key the page keeps and sends as
``X-Guest-Key``), else its address. Games in play are counted per player (`web.rooms`), so everyone
behind one address (a pub, a school) no longer shares one cap; the address keeps a far higher one."""

from __future__ import annotations

import hashlib
import secrets

from shutthebox.i18n import _
from shutthebox.storage.profiles import Profile

__all__ = ["GUEST_HEADER", "guest_name", "player_of"]

GUEST_HEADER = "X-Guest-Key"
"""The header a guest's page sends its key in (1 to 64 of A-Z a-z 0-9 - _), on every request."""


def player_of(profile: Profile | None, guest: str | None, address: str | None) -> str | None:
    """The player a request is, as the rooms keep it (hashed): a profile, a guest key, an address."""
    if profile is not None:
        return f"profile:{profile.id}"
    if guest is not None:
        return f"guest:{guest}"
    return f"address:{address}" if address is not None else None


def guest_name(player: str | None, choice: int = 0) -> str:
    """A guest's own default name, in the language in use: "Player 4821", its number drawn from the
    player (the same for each of their rooms; ``choice`` draws their next, for when a profile holds
    it), else at random; never one name shared by every guest, so nobody takes a stranger's bests for
    theirs, and a friend joins without a clash."""
    if player is None:
        number = 1000 + secrets.randbelow(9000)
    else:
        drawn = player if choice == 0 else f"{player}/{choice}"
        number = 1000 + int.from_bytes(hashlib.sha256(drawn.encode()).digest()[:4], "big") % 9000
    return _("Player {number}").format(number=number)
