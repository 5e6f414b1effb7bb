"""What the processes of one server share besides the database: news of rooms and leases.

One process needs neither: `LocalHub` keeps its leases in memory and has nobody
to tell. Several processes share a `RedisHub` (`web.redishub`, the redis extra):

- **News.** After a process keeps a change of a room it publishes
  ``{code, version}`` on a Redis channel; every other process that holds a copy
  of the room, or sockets watching it, catches up from the database and pushes
  the new state to its own sockets. It also says which seats it has sockets for
  (who is connected is the union of every process's sockets). The news said in
  one turn of a process's event loop (a group commit wakes its writers at once)
  go in one message, a JSON list, and each is answered once that message went out.
- **Leases.** The work no player asks for (a bot's move, a clock that ran out,
  a rematch to settle, closing an idle room) is done by whichever process takes
  the room's lease (a Redis lock with a time to live, taken without waiting), so
  exactly one does it; a process that dies holding one frees it when it expires.

Correctness never rests on either: every write names the room version it
changed (`storage.rooms`), so a change made from a stale copy is refused and
made again over the fresh state. News only makes copies fresh sooner.

**Redis away** (stopped, restarted, out of reach): the news connection breaks and
a PING goes unanswered, so the hub is out of touch (`Hub.in_touch` False, said
once in the log). What each call does meanwhile:

- *Rooms are refused* with 503 ``shared-down`` (`web.copies.Copies.check_in_touch`): a copy
  here cannot be known fresh, nor a change told to the sockets of the others, so
  nothing is read or changed, and nothing refused is applied. A change that was
  under way when Redis went is kept all the same: the database's compare-and-set
  guards it, and it was acknowledged; only its news waits.
- *News waits*: what cannot be published is kept (the latest of each kind per
  room) and published once Redis answers.
- *Leases are refused*, so bots, clocks, rematches and closing wait: no room's
  work can run twice at once. A lease that cannot be renewed stops its work (the
  lock's token is checked by Redis, so one lost to a restart or an expiry is
  never renewed); the database fences the one action that may be under way.
- *Rate limits* count in each process's memory (`web.rates.SharedOrOwn`).

When the news connection is made again, the hub is in touch, every copy of a room
is marked behind before any request is served from it, the watched ones catch up
and are pushed to their sockets, the kept news goes out, and a turn clock that
ran out meanwhile starts over (`web.news.Cluster.resumed`): play resumes by itself.
[`tests/web/test_redis_away.py`]
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["CHANNEL", "CHANNEL_BEFORE", "Hub", "Listen", "LocalHub", "Missed", "News"]

CHANNEL = "shutthebox:news"
"""Where the processes tell their news: each message a JSON list of news."""
CHANNEL_BEFORE = "shutthebox:rooms"
"""Where processes of before told theirs, one news a message: heard too, so processes of two
versions at once (a rolling restart) hear each other one way, and neither stops on the other's."""


@dataclass(frozen=True, slots=True)
class News:
    """What another process says of a room: its new version, or the seats it has sockets for."""

    code: str
    sender: str
    version: int | None = None
    seats: tuple[int, ...] | None = None
    closed: bool = False


Listen = Callable[[News], Awaitable[None]]
Missed = Callable[[], Coroutine[Any, Any, None]]


class Hub(Protocol):
    name: str
    """This process, as its news names it."""
    shared: bool
    """Other processes serve the same rooms."""
    in_touch: bool
    """News flows between the processes; False while Redis is away (no copy here is known fresh)."""

    async def start(self, listen: Listen, missed: Missed) -> None:
        """Hear news with ``listen``; ``missed`` when some may have been lost: the news reconnected,
        or stopped (`in_touch` False), or came back after it."""
        ...

    async def stop(self) -> None: ...
    async def publish(self, news: News) -> None:
        """Tell the other processes, now or (Redis away) once Redis answers again."""
        ...

    async def lease(self, key: str, seconds: float) -> bool:
        """Take (or renew, if this process holds it) the lease ``key`` for ``seconds``; False if
        another holds it, or nobody can tell (Redis away)."""
        ...

    async def renew(self, key: str, seconds: float) -> bool:
        """Extend a lease this process holds; False if it lost it (expired, and maybe taken), or
        cannot tell (Redis away)."""
        ...

    async def release(self, key: str) -> None: ...
    async def answers(self) -> bool:
        """Whether what the processes share answers now (always, for one process alone)."""
        ...


@dataclass
class LocalHub:
    """One process alone: leases among its own tasks, news for nobody."""

    name: str = "local"
    shared: bool = False
    in_touch: bool = True
    clock: Callable[[], float] = time.monotonic
    _leases: dict[str, float] = field(default_factory=dict)

    async def start(self, listen: Listen, missed: Missed) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, news: News) -> None:
        return None

    async def lease(self, key: str, seconds: float) -> bool:
        now = self.clock()
        held = self._leases.get(key)
        if held is not None and held > now:
            return False
        self._leases[key] = now + seconds
        return True

    async def renew(self, key: str, seconds: float) -> bool:
        if key not in self._leases:
            return False
        self._leases[key] = self.clock() + seconds
        return True

    async def release(self, key: str) -> None:
        self._leases.pop(key, None)

    async def answers(self) -> bool:
        return True
