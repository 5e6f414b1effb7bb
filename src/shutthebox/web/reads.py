"""A read of the store on the path of a player's request: in the server's own thread when the store
is a local SQLite file (it answers in microseconds, less than a hop to a worker thread and back
costs, GIL included), in a worker thread otherwise (a network round trip must not hold the others).
Writes always go through their writer (`web.grouped`, the repositories' own transactions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from anyio import to_thread

__all__ = ["Local", "read"]

Result = TypeVar("Result")


class Local(Protocol):
    @property
    def local(self) -> bool: ...


async def read(store: Local, work: Callable[..., Result], *args: object) -> Result:
    """``work(*args)``, a read of ``store``, where it costs least (see the module)."""
    if store.local:
        return work(*args)
    return await to_thread.run_sync(work, *args)
