"""A socket's frames that never reach the app, metered: pings and pongs, a message's fragments before
its last, and whatever comes once the socket is closing. uvicorn answers each ping at once whatever
comes, without asking whether the client reads the pongs, keeps each fragment until its message
ends, and reads and drops for ten seconds whatever comes after it sent its close.

No rate limit counts those frames: the app sees a message only once it is whole. One client sending
pings as fast as TCP took them and never reading the pongs grew the server by 16 MB a second (800 MB
in 40 s, on one socket), and parsing them held the event loop: a request of another client took 5 s
instead of 2 ms. Empty fragments of a message that never ends did the same (another request took
20 to 56 s), and so did complete messages sent while the socket closed. `MeteredFrames` is uvicorn's
own sans-I/O WebSocket protocol with a budget of such frames: `BURST` at once, then `PER_SECOND`;
a socket past it is closed with 1008 (policy violation), the pongs still owed dropped, or at once
if it is closing already. A browser sends no ping and no fragment at all; a client library's
keepalive sends a ping every few seconds. Whole messages have a budget too, past which the socket
closes the same way: uvicorn hands the app every message of a chunk read at once.

`serve` gives it to uvicorn as the WebSocket protocol (its ``ws`` option), in one process or in each
worker of several.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode, Frame, Opcode

__all__ = ["BURST", "MESSAGES_BURST", "MESSAGES_PER_SECOND", "PER_SECOND", "MeteredFrames"]

BURST = 16
"""Frames the app never sees that a socket may send at once."""
PER_SECOND = 1.0
"""Such frames a socket may send a second, past its burst."""
MESSAGES_BURST = 64
"""Whole messages a socket may send at once: every message of a chunk read goes to the app's queue
before the app reads one, so 64 kB of small messages held the event loop for most of a second."""
MESSAGES_PER_SECOND = 20.0
"""Whole messages a socket may send a second, past its burst: the rate every request naming a room
is held to from one address by default (`Settings.rate_room_requests`, 1,200 a minute)."""
REASON = "too many frames"
CONTROL = (Opcode.PING, Opcode.PONG)


@dataclass
class Budget:
    """So many frames at once, then so many a second (a token bucket)."""

    burst: float
    per_second: float
    counted_at: float
    left: float = field(init=False)

    def __post_init__(self) -> None:
        self.left = self.burst

    def spend(self, frames: int, now: float) -> bool:
        """Spend ``frames``; whether there were as many left (nothing is spent when not)."""
        self.left = min(self.burst, self.left + (now - self.counted_at) * self.per_second)
        self.counted_at = now
        if self.left < frames:
            return False
        self.left -= frames
        return True


class MeteredFrames(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, the frames its app never sees and its messages within a
    budget (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        now = self.loop.time()
        self.unseen = Budget(BURST, PER_SECOND, now)
        self.messages = Budget(MESSAGES_BURST, MESSAGES_PER_SECOND, now)

    def handle_events(self) -> None:
        """Spend the frames just read (each answered, or the socket closed) before uvicorn handles the
        events: websockets queued a pong for every ping of the chunk as it read them, and uvicorn
        queues every message of it for the app."""
        pending = [event for event in self.conn.events if isinstance(event, Frame)]  # uvicorn's next
        unseen = sum(1 for frame in pending if self._unseen(frame))
        now = self.loop.time()
        if not (self.unseen.spend(unseen, now) and self.messages.spend(len(pending) - unseen, now)):
            self.conn.events_received()  # none of them handled: the socket closes
            self._close()
            return
        super().handle_events()

    def _unseen(self, frame: Frame) -> bool:
        """Whether the app will not see ``frame`` as a message of its own."""
        return frame.opcode in CONTROL or not frame.fin or self.close_sent

    def _close(self) -> None:
        """Close the socket with 1008, the pongs still owed dropped (the client did not read them); at
        once if its close is sent already (its client sends on instead of answering it)."""
        if self.transport.is_closing():
            return
        client = "{}:{} - ".format(*self.client) if self.client else ""
        self.logger.info("%sWebSocket closed 1008: %s", client, REASON)
        if self.close_sent:
            self.transport.close()
            return
        self.conn.data_to_send()
        self.conn.send_close(CloseCode.POLICY_VIOLATION, REASON)
        self.queue.put_nowait({"type": "websocket.disconnect", "code": int(CloseCode.POLICY_VIOLATION),
                               "reason": REASON})
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()
