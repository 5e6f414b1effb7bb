"""Fan-out: the WebSockets listening to each room, and the state pushed to them after every change.

Nothing waits on a client: each socket has a bounded queue (`Listener.push`), and one that lets it
fill is dropped (free to reconnect) rather than waited for. A room's state is drawn once per seat and
language, so every spectator of a change costs one drawing. Which seats have a socket is the union
of every process's sockets: each tells the others of its own (`web.hub.News` ``seats``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from shutthebox.i18n import SOURCE, Lang, using
from shutthebox.web.copies import Copies, Held, Tell
from shutthebox.web.hub import Hub, News
from shutthebox.web.views import room_json

__all__ = ["Fanout", "Listener", "Sender", "encoded"]

FORGOTTEN_AFTER = 90.0
"""Seconds after which a process that stopped telling which seats it has sockets for is gone."""


class Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


def encoded(message: dict[str, Any]) -> str:
    """A message as the text a socket sends: JSON (orjson: a state of a few kB in a tenth of the
    standard library's time), written once however many sockets are sent it."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()  # int keys as json writes them


@dataclass(eq=False)
class Listener:
    """A WebSocket listening to a room: the token it came with (or none), the seats that token
    holds, its reader's language, the messages waiting for it (bounded: see `push`), its address."""

    token: str | None
    seats: tuple[int, ...] = ()
    lang: Lang = SOURCE
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(64))
    dropped: asyncio.Event = field(default_factory=asyncio.Event)
    address: str = "unknown"  # the client's, whom its solver work is counted against

    def push(self, message: dict[str, Any] | str) -> bool:
        """Queue ``message`` (or its `encoded` text) without waiting; a socket whose queue is full is
        too slow: it is dropped (its client may reconnect) rather than waited for. False when dropped."""
        if self.dropped.is_set():
            return False
        try:
            self.queue.put_nowait(message if isinstance(message, str) else encoded(message))
        except asyncio.QueueFull:
            self.dropped.set()
            return False
        return True

    async def pump(self, socket: Sender) -> None:
        """Send the queued messages in order, until the socket closes."""
        while True:
            await socket.send_text(await self.queue.get())


def seats_of(listeners: set[Listener]) -> tuple[int, ...]:
    return tuple(sorted({seat for listener in listeners for seat in listener.seats}))


class Fanout:
    """The sockets of this process by room, and the seats with sockets in the others."""

    def __init__(self, copies: Copies, hub: Hub, *, clock: Callable[[], float], tell: Tell) -> None:
        self.copies = copies
        self.hub = hub
        self.clock = clock
        self._tell = tell
        self.listeners: dict[str, set[Listener]] = {}
        self.elsewhere: dict[str, dict[str, tuple[tuple[int, ...], float]]] = {}
        """Seats with a socket in other processes: room code → process → (seats, when heard)."""
        self.pushed: dict[str, int] = {}
        """The version of each watched room last pushed to its sockets here."""

    def watched(self, code: str) -> bool:
        """Some socket of this process listens to the room."""
        return bool(self.listeners.get(code))

    def sockets(self) -> int:
        """The sockets open in this process, over every room."""
        return sum(len(listeners) for listeners in self.listeners.values())

    def watchers(self, code: str) -> int:
        """How many sockets of this process watch the room with no seat."""
        return sum(1 for listener in self.listeners.get(code, set()) if not listener.seats)

    def connected(self, code: str) -> set[int]:
        """The seats with a socket open, in this process or another."""
        seats = set(seats_of(self.listeners.get(code, set())))
        for held, _heard in self.elsewhere.get(code, {}).values():
            seats.update(held)
        return seats

    def heard(self, news: News) -> None:
        """Another process says which seats of a room it has sockets for."""
        if news.seats is None:
            return
        held = self.elsewhere.setdefault(news.code, {})
        if news.seats:
            held[news.sender] = (news.seats, self.clock())
        else:
            held.pop(news.sender, None)

    async def listen(self, held: Held, listener: Listener) -> None:
        """A socket starts listening: it gets the state; everyone does if it brought a seat online."""
        listeners = self.listeners.setdefault(held.code, set())
        before = seats_of(listeners)
        listeners.add(listener)
        await self._presence(held, before)
        if listener.queue.empty():  # nobody else was told: tell it
            with using(listener.lang):
                listener.push({"type": "state", "state": self.view(held, listener.token)})
            self.pushed.setdefault(held.code, held.version)

    async def leave(self, code: str, listener: Listener) -> None:
        """A socket stops listening; a finished room nobody watches here leaves memory."""
        listeners = self.listeners.get(code, set())
        before = seats_of(listeners)
        listeners.discard(listener)
        if not listeners:
            self.listeners.pop(code, None)
            self.pushed.pop(code, None)
        held = self.copies.find(code)
        if held is not None:
            await self._presence(held, before)
            if held.room.status == "over" and held.room.rematch is None and not listeners:
                self.copies.drop(code)

    async def _presence(self, held: Held, before: tuple[int, ...]) -> None:
        """Tell of a seat come online or gone (to the other processes too). A watcher come or gone is
        told to nobody at once (300 watchers arriving would each redraw the room for all): the seats
        see how many watch in the next state (``watchers``, this process's)."""
        now = seats_of(self.listeners.get(held.code, set()))
        if now != before:
            await self._tell(News(held.code, self.hub.name, seats=now))
            self.broadcast(held)

    def view(self, held: Held, token: str | None) -> dict[str, Any]:
        """The room as ``token``'s seats see it now."""
        return room_json(
            held.room, token, self.clock(), self.connected(held.code), version=held.version,
            watchers=self.watchers(held.code),
        )

    def broadcast(self, held: Held) -> None:
        """Queue the room's state for every socket listening here: drawn once per seat and language
        (every spectator alike), queued without waiting (a slow socket is dropped, see `Listener`)."""
        listeners = self.listeners.get(held.code)
        if not listeners or held.stale:
            return
        now, connected = self.clock(), self.connected(held.code)
        if held.room.private:  # made private since: its watchers go (their sockets close)
            for listener in [listener for listener in listeners if not listener.seats]:
                listeners.discard(listener)
                listener.dropped.set()
        self.pushed[held.code] = held.version
        watchers = self.watchers(held.code)
        drawn: dict[tuple[str | None, str], str] = {}
        for listener in list(listeners):
            token = listener.token if listener.seats else None
            message = drawn.get((token, listener.lang))
            if message is None:
                with using(listener.lang):
                    state = room_json(
                        held.room, token, now, connected, version=held.version, watchers=watchers
                    )
                    message = encoded({"type": "state", "state": state})
                drawn[token, listener.lang] = message
            if not listener.push(message):
                listeners.discard(listener)

    async def announce(self, now: float) -> None:
        """Tell the other processes again which seats have sockets here (sockets come and go), and
        forget the processes that stopped telling theirs."""
        await asyncio.gather(*(  # said at once: one message for every room (`web.redishub`)
            self._tell(News(code, self.hub.name, seats=seats_of(listeners)))
            for code, listeners in list(self.listeners.items())
        ))
        for held in self.elsewhere.values():
            for sender, (_seats, heard) in list(held.items()):
                if now - heard > FORGOTTEN_AFTER:
                    del held[sender]  # a process that stopped telling: gone
