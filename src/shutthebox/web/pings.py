"""A socket's control frames (pings and pongs), metered: uvicorn answers each ping at once, whatever
comes, and never asks whether the client reads its answers.

Control frames never reach the app, so no rate limit counts them. One client sending pings as fast
as TCP took them and never reading the pongs grew the server by 16 MB a second (800 MB in 40 s, on
one socket, until the keepalive closed it), and parsing them held the event loop: a request of
another client took 5 s instead of 2 ms. `MeteredPings` is uvicorn's own sans-I/O WebSocket
protocol with a budget of control frames: `BURST` at once, then `PER_SECOND`; a socket past it is
closed with 1008 (policy violation), the pongs still owed dropped. A browser sends no ping at all;
a client library's keepalive sends one every few seconds.

`serve` gives it to uvicorn as the WebSocket protocol (its ``ws`` option), in one process or in each
worker of several.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode, Frame, Opcode

__all__ = ["BURST", "PER_SECOND", "MeteredPings"]

BURST = 16
"""Control frames a socket may send at once."""
PER_SECOND = 1.0
"""Control frames a socket may send a second, past its burst."""
REASON = "too many pings"
CONTROL = (Opcode.PING, Opcode.PONG)


class MeteredPings(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, its pings and pongs within a budget (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.allowance = float(BURST)
        self.counted_at = self.loop.time()

    def handle_events(self) -> None:
        """Spend the control frames just read (each answered, or the socket closed) before uvicorn
        handles the events: websockets queued a pong for every ping of the chunk as it read them."""
        pending = self.conn.events  # what `events_received` hands uvicorn next
        control = sum(1 for event in pending if isinstance(event, Frame) and event.opcode in CONTROL)
        if control and not self._spend(control):
            self.conn.events_received()  # none of them handled: the socket closes
            self._close()
            return
        super().handle_events()

    def _spend(self, frames: int) -> bool:
        """Spend ``frames`` control frames from the budget; whether there were as many left."""
        now = self.loop.time()
        self.allowance = min(float(BURST), self.allowance + (now - self.counted_at) * PER_SECOND)
        self.counted_at = now
        if self.allowance < frames:
            return False
        self.allowance -= frames
        return True

    def _close(self) -> None:
        """Close the socket with 1008, the pongs still owed dropped (the client did not read them)."""
        if self.transport.is_closing() or self.close_sent:
            return
        client = "{}:{} - ".format(*self.client) if self.client else ""
        self.logger.info("%sWebSocket closed 1008: %s", client, REASON)
        self.conn.data_to_send()
        self.conn.send_close(CloseCode.POLICY_VIOLATION, REASON)
        self.queue.put_nowait({"type": "websocket.disconnect", "code": int(CloseCode.POLICY_VIOLATION),
                               "reason": REASON})
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()
