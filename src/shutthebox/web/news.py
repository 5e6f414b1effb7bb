"""Cluster news: what this process tells the others of its rooms, and what it hears from them.

After every change it keeps, a process tells its version (`Herald.tell`); a process that holds a
copy of that room marks it behind, and catches it up at once when sockets here watch it
(`Cluster.hear`). When news may have been lost (the hub reconnected, or Redis went or came back),
every copy here is marked behind before anything else (`Cluster.missed`). Correctness never rests
on news: every write is checked against the store's version (`web.copies`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from shutthebox.web.copies import Copies
from shutthebox.web.fanout import Fanout
from shutthebox.web.hub import Hub, News
from shutthebox.web.refusals import RefusedError

__all__ = ["Cluster", "Herald"]

log = logging.getLogger(__name__)


class Herald:
    """Tells the other processes (if any) of this one's rooms."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def tell(self, news: News) -> None:
        """Tell the other processes; news that does not get there leaves their copies behind until a
        write of theirs is refused as stale: never wrong, only later."""
        if not self.hub.shared:
            return
        try:
            await self.hub.publish(news)
        except Exception:
            log.exception("room %s: the news could not be published", news.code)


class Cluster:
    """What this process hears from the others, and when it was last back in touch with them."""

    def __init__(self, hub: Hub, copies: Copies, fanout: Fanout, *, clock: Callable[[], float]) -> None:
        self.hub = hub
        self.copies = copies
        self.fanout = fanout
        self.clock = clock
        self._away = False
        """The hub was out of touch when it last said news was missed (see `missed`)."""
        self.resumed = 0.0
        """When the processes were last in touch again after being out of touch: a turn clock that
        ran out before then ran out while its seat was refused, so it starts over."""

    async def start(self) -> None:
        await self.hub.start(self.hear, self.missed)

    async def hear(self, news: News) -> None:
        """Another process changed a room, closed it, or has sockets on new seats of it."""
        self.fanout.heard(news)
        if news.closed:
            self.copies.drop(news.code)
            return
        held = self.copies.find(news.code)
        if held is None:
            return
        if news.version is not None:
            if news.version > held.version:
                if not self.fanout.watched(held.code):
                    held.behind = True  # caught up when someone asks for it
                    return
                async with held.lock:
                    held = await self.copies.catch_up(held)
            if self.fanout.pushed.get(held.code, -1) >= held.version:
                return  # the sockets here have it: the copy had caught up past this news already
        self.fanout.broadcast(held)

    async def missed(self) -> None:
        """News may have been lost (the hub reconnected, lost Redis, or has it back): every copy here
        may be behind, all marked so before anything else (no request comes between). Those with
        sockets catch up now and tell them; the others when next asked for. Back in touch after being
        out of it, the clocks that ran out meanwhile start over (see `resumed`)."""
        for held in self.copies:
            held.behind = True
        if not self.hub.in_touch:
            self._away = True
        elif self._away:
            self._away, self.resumed = False, self.clock()
        for copy in self.copies:
            if self.fanout.watched(copy.code):
                try:
                    async with copy.lock:
                        held = await self.copies.current(copy)
                except RefusedError:  # closed meanwhile
                    continue
                self.fanout.broadcast(held)
