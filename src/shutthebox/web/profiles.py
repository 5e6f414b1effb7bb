"""Player profiles on the server: a name and a secret key (the store keeps only its hash).

A request names its profile by sending the key as ``Authorization: Bearer <key>``; names are unique
among look-alikes, and no guest or bot may take a profile's name or one like it.
"""

from __future__ import annotations

from anyio import to_thread

from shutthebox.core.names import clean_name
from shutthebox.storage import Profile, ProfileRepository
from shutthebox.web.reads import read
from shutthebox.web.refusals import Refusal, RefusedError

__all__ = ["ProfileDesk"]


class ProfileDesk:
    """The profiles of the store, as requests name them."""

    def __init__(self, kept: ProfileRepository) -> None:
        self.kept = kept

    async def find(self, key: str | None) -> Profile | None:
        """The profile whose secret key is ``key`` (None for no key); an unknown key is refused."""
        if not key:
            return None
        found = await read(self.kept, self.kept.by_key, key)
        if found is None:
            raise RefusedError(Refusal.NO_PROFILE, "no player profile has this key; create one first")
        return found

    async def holding(self, key: str | None) -> Profile | None:
        """The profile whose key is ``key``, else None: for a token that may be something else (a
        seat's), which is refused for what it was asked to be, not as a profile key."""
        return await read(self.kept, self.kept.by_key, key) if key else None

    async def mine(self, key: str | None) -> Profile:
        """The profile of ``key``, which must be given."""
        found = await self.find(key)
        if found is None:
            raise RefusedError(Refusal.NO_PROFILE, "send your profile key as Authorization: Bearer <key>")
        return found

    async def create(self, name: str) -> tuple[Profile, str]:
        """A new profile named ``name`` and its secret key."""
        return await to_thread.run_sync(self.kept.create, clean_name(name))

    async def rename(self, key: str | None, name: str) -> Profile:
        await self.mine(key)
        assert key is not None
        return await to_thread.run_sync(self.kept.rename, key, clean_name(name))

    async def is_free(self, name: str) -> bool:
        """Whether no profile holds ``name`` (or one like it)."""
        return await read(self.kept, self.kept.holder, name) is None

    async def check_free(self, name: str | None) -> None:
        """Refuse a guest's or a bot's name that a profile holds (or one like it): nobody passes for
        a player with an identity."""
        if not name:
            return
        holder = await read(self.kept, self.kept.holder, name)
        if holder is not None:
            raise RefusedError(
                Refusal.NAME_TAKEN, "the name {name!r} is a player's profile ({held!r}): play under another",
                name=name, held=holder.name,
            )
