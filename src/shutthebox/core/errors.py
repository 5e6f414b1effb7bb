"""The exceptions of shutthebox, all `ValueError`s so callers can catch one thing.

    ValueError
     └── ShutTheBoxError
          ├── RulesError          an invalid rule option or combination
          ├── ParseError          text that is not a board, a move or a roll
          ├── IllegalActionError  an action the current state does not allow
          │    └── OutOfTurnError an action by a player whose turn it is not
          └── RecordError         a game record that is malformed or does not replay

Every message names the input and the state it was checked against; the state
is never changed by an action that raised. ``str(error)`` is that message in
English; an error a person may read also carries a ``key`` and the ``values``
of its message, so a shell can say it in another language (`i18n.error_text`).
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "OutOfTurnError",
    "ParseError",
    "RecordError",
    "RulesError",
    "ShutTheBoxError",
]


class ShutTheBoxError(ValueError):
    """Base of every error raised by shutthebox."""

    def __init__(
        self, *args: object, key: str | None = None, values: dict[str, object] | None = None
    ) -> None:
        super().__init__(*args)
        self.key = key
        self.values: dict[str, object] = dict(values or {})


class RulesError(ShutTheBoxError):
    """An invalid rule option or combination of options."""


class ParseError(ShutTheBoxError):
    """Text that cannot be read as a board, a move or a roll."""


class IllegalActionError(ShutTheBoxError):
    """An action the current state of the game does not allow."""


class OutOfTurnError(IllegalActionError):
    """An action by a player who is not the one to act."""


class RecordError(ShutTheBoxError):
    """A game record that is malformed or does not replay to what it claims."""
