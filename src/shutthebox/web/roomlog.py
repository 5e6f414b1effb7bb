"""A room's log: the game record's events, in the record's own JSON, and where help came.

Each entry the store keeps is one of::

    {"player": 0, "roll": [3, 4]}              an event, as `core.record.Event.to_json` writes it
    {"player": 0, "move": [5, 2], "by": "clock"}   … played by a stand-in bot for an absent player
    {"player": 0, "assist": true}              help noted (a hint, a stand-in): the turn counts as it stood

Rooms kept before this shape wrote ``"seat"`` for ``"player"`` (and a move's tiles lowest first):
they are read all the same, so every room a database holds still restores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from shutthebox.core.errors import RecordError
from shutthebox.core.record import Event

__all__ = ["By", "Entry"]

By = Literal["clock"]
"""Who played an event for its player: a stand-in bot, for a seat out of time or gone."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a room's log: an event of the game (``by`` a stand-in, or not), or help noted."""

    player: int
    event: Event | None = None  # None: the player had help from here on in their turn
    by: By | None = None

    def to_json(self) -> dict[str, Any]:
        if self.event is None:
            return {"player": self.player, "assist": True}
        data = self.event.to_json()
        return data if self.by is None else {**data, "by": self.by}

    @classmethod
    def from_json(cls, data: dict[str, Any], index: int) -> Entry:
        """The entry ``data`` (of either shape, see the module), the ``index``-th of its log."""
        body = dict(data)
        if "seat" in body and "player" not in body:  # the shape before the record's own
            body["player"] = body.pop("seat")
        player = body.get("player")
        if not isinstance(player, int) or isinstance(player, bool):
            raise RecordError(
                "event {index}: {data!r} is not an object with a player number", index=index, data=data
            )
        if body == {"player": player, "assist": True}:
            return cls(player)
        by: By | None = body.pop("by") if body.get("by") == "clock" else None  # any other: no event
        return cls(player, Event.from_json(body, index), by)
