"""One refusal language for the whole server: each kind of refusal carries its HTTP status.

A refused request changes nothing and is answered ``{"error": code, "detail": why}``, the detail
said in the reader's language (a WebSocket sends it as ``{"type": "error", …}``)::

    RefusedError (a ShutTheBoxError): its Refusal, and why
      wrong-host 400
      no-profile 401
      wrong-seat 403 · wrong-origin 403 · hints-off 403 · sealed 403 · private 403
      not-found 404
      wrong-turn 409 · illegal 409 · waiting 409 · over 409 · not-over 409 · no-decision 409
      room-full 409 · name-taken 409 · closed 409 · played 409
      too-large 413
      malformed 422
      too-many 429
      internal 500
      busy 503 · shared-down 503

The errors of the floors below are refusals as they stand, mapped here once (`refused`), never
re-raised by hand where they are met: `OutOfTurnError` and `StaleActionError` are wrong-turn, any
other `IllegalActionError` illegal, `NameTakenError` name-taken, `SealedError` sealed, any other
`StorageError` not-found (a game or profile the store does not hold), `OverBudgetError` busy, any
other `ShutTheBoxError` (`ParseError`, `RulesError`, `RecordError`…) malformed; a database that does
not answer (`StorageBusyError`, `ConflictError`, SQLAlchemy's errors) is busy. Anything else is a
fault of the server: a 500 that tells nothing (``internal``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from string import Formatter

from sqlalchemy.exc import SQLAlchemyError

from shutthebox.core.errors import (
    IllegalActionError,
    OutOfTurnError,
    Phrase,
    ShutTheBoxError,
    StaleActionError,
)
from shutthebox.i18n import say
from shutthebox.storage import ConflictError, NameTakenError, SealedError, StorageBusyError, StorageError
from shutthebox.strategy.budget import OverBudgetError

__all__ = [
    "DATABASE_ERRORS", "ECHO_LENGTH", "REFUSED", "Refusal", "RefusedError", "echoed", "refused", "within",
]


class Refusal(Enum):
    """What kind of refusal, as the page reads it (``code``), and its HTTP ``status``."""

    WRONG_HOST = ("wrong-host", 400)
    NO_PROFILE = ("no-profile", 401)
    WRONG_SEAT = ("wrong-seat", 403)
    WRONG_ORIGIN = ("wrong-origin", 403)
    HINTS_OFF = ("hints-off", 403)
    SEALED = ("sealed", 403)
    PRIVATE = ("private", 403)
    NOT_FOUND = ("not-found", 404)
    WRONG_TURN = ("wrong-turn", 409)
    ILLEGAL = ("illegal", 409)
    WAITING = ("waiting", 409)
    OVER = ("over", 409)
    NOT_OVER = ("not-over", 409)
    NO_DECISION = ("no-decision", 409)
    ROOM_FULL = ("room-full", 409)
    NAME_TAKEN = ("name-taken", 409)
    CLOSED = ("closed", 409)
    PLAYED = ("played", 409)
    TOO_LARGE = ("too-large", 413)
    MALFORMED = ("malformed", 422)
    TOO_MANY = ("too-many", 429)
    INTERNAL = ("internal", 500)
    BUSY = ("busy", 503)
    SHARED_DOWN = ("shared-down", 503)

    def __init__(self, code: str, status: int) -> None:
        self.code = code
        self.status = status


class RefusedError(ShutTheBoxError):
    """A request the server refuses: its `Refusal`, and why (a catalog template and its values)."""

    def __init__(self, refusal: Refusal, template: str, /, **values: object) -> None:
        super().__init__(template, **values)
        self.refusal = refusal

    @property
    def code(self) -> str:
        return self.refusal.code

    @property
    def status(self) -> int:
        return self.refusal.status

    def to_json(self) -> dict[str, str]:
        """The refusal as the page reads it, said in the language in use; what it repeats of the
        request cut to `ECHO_LENGTH` characters."""
        return {"error": self.code, "detail": say(echoed(self))}


DATABASE_ERRORS: tuple[type[Exception], ...] = (StorageBusyError, ConflictError, SQLAlchemyError)
"""A database that did not answer, or answered a write with another writer's change: try again."""
_MAPPED: tuple[tuple[type[ShutTheBoxError], Refusal], ...] = (
    (StaleActionError, Refusal.WRONG_TURN),
    (OutOfTurnError, Refusal.WRONG_TURN),
    (IllegalActionError, Refusal.ILLEGAL),
    (NameTakenError, Refusal.NAME_TAKEN),
    (SealedError, Refusal.SEALED),
    (StorageError, Refusal.NOT_FOUND),
    (OverBudgetError, Refusal.BUSY),
    (ShutTheBoxError, Refusal.MALFORMED),
)
"""The errors of the floors below as refusals, the most particular first."""
REFUSED: tuple[type[Exception], ...] = (ShutTheBoxError, *DATABASE_ERRORS)
"""Every error that is a refusal (see `refused`): the app's one handler is for these."""


def refused(error: BaseException) -> RefusedError | None:
    """``error`` as the refusal it is to the client (see the module), or None: a fault of the server."""
    if isinstance(error, RefusedError):
        return error
    if isinstance(error, ShutTheBoxError):
        kind = next(refusal for kind, refusal in _MAPPED if isinstance(error, kind))
        return RefusedError(kind, "{error}", error=error)
    if isinstance(error, DATABASE_ERRORS):
        return RefusedError(Refusal.BUSY, "the server's database did not answer; nothing changed: try again")
    return None


@contextmanager
def within(template: str, /, **values: object) -> Iterator[None]:
    """Say where a refusal met inside stands: its words as ``{error}`` of ``template`` (a catalog
    message, marked with ``N_``: ``"seat {seat}: {error}"``), its kind as `refused` maps it."""
    try:
        yield
    except ShutTheBoxError as error:
        found = refused(error)
        assert found is not None
        raise RefusedError(found.refusal, template, error=error, **values) from None


ECHO_LENGTH = 48
"""The most characters of one text that a refusal repeats of the request (a name, a code): a
longer one is cut, ending in "…". What a template repeats it quotes with ``!r``, which writes
control and invisible characters as escapes (docs/security.md, "Read internals in an error")."""


def echoed(value: object) -> object:
    """``value`` as a refusal may say it: each text its template quotes (``{name!r}``) at most
    `ECHO_LENGTH` characters, in the errors and phrases inside it too."""
    if isinstance(value, ShutTheBoxError):
        value = value.phrase
    if not isinstance(value, Phrase):
        return value
    quoted = {field for _, field, _spec, conversion in Formatter().parse(value.template) if conversion == "r"}
    values = {name: _cut(inner) if name in quoted else echoed(inner) for name, inner in value.values.items()}
    return Phrase(value.template, values, value.plural, value.count)


def _cut(value: object) -> object:
    if isinstance(value, str) and len(value) > ECHO_LENGTH:
        return value[: ECHO_LENGTH - 1] + "…"
    return value
