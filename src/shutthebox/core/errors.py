"""The exceptions of shutthebox, all `ValueError`s so callers can catch one thing, and the words they carry.

    ValueError
     └── ShutTheBoxError
          ├── RulesError          an invalid rule option or combination
          ├── ParseError          text that is not a board, a move or a roll
          ├── IllegalActionError  an action the current state does not allow
          │    ├── OutOfTurnError an action by a player whose turn it is not
          │    └── StaleActionError an action chosen for a state the game has left
          └── RecordError         a game record that is malformed or does not replay

Every message names the input and the state it was checked against; the state
is never changed by an action that raised. An error is words as data: an
English template (a message of the project's catalog) and its values, so
``str(error)`` is English and a shell says it in the reader's language
(`shutthebox.i18n.say`). A value may itself be a `Phrase` or an error, said
in that language too. A value from the input is `quoted`: never more than its first `QUOTED`
characters (a record may hold a 10 MB seed).
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping

__all__ = [
    "N_",
    "QUOTED",
    "Cut",
    "Figure",
    "IllegalActionError",
    "OutOfTurnError",
    "ParseError",
    "Phrase",
    "RecordError",
    "RulesError",
    "ShutTheBoxError",
    "StaleActionError",
    "plural_phrase",
    "quoted",
]


def N_(message: str) -> str:  # noqa: N802 - the name gettext tools know
    """Mark ``message`` for the catalog; it is translated where it is shown."""
    return message


class Figure:
    """A number inside a `Phrase`, written as the reader's language writes numbers when it is said
    (4.23, 4,23; 54%, 54 %): made where no language is known (a solver's process), said in one.
    A plain class, as `Phrase` is."""

    __slots__ = ("digits", "percent", "value")

    def __init__(self, value: float, digits: int, *, percent: bool = False) -> None:
        self.value = value
        self.digits = digits
        self.percent = percent  # ``value`` is a fraction, said as a percentage

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Figure):
            return NotImplemented
        return (self.value, self.digits, self.percent) == (other.value, other.digits, other.percent)

    def __hash__(self) -> int:
        return hash((self.value, self.digits, self.percent))

    def __repr__(self) -> str:
        return f"Figure({self.value!r}, {self.digits!r}, percent={self.percent!r})"

    def __str__(self) -> str:
        return f"{100 * self.value:.{self.digits}f}%" if self.percent else f"{self.value:.{self.digits}f}"


class Phrase:
    """Words for a person: an English template (a catalog message) and its values.

    With ``plural`` and ``count``, the template is the singular and ``plural`` the
    other form, chosen by ``count`` (in English: 1 or not; other languages differ).
    A plain class, not a dataclass: errors are imported by every command, at once.
    """

    __slots__ = ("count", "plural", "template", "values")

    def __init__(
        self,
        template: str,
        values: Mapping[str, object] | None = None,
        plural: str | None = None,
        count: int = 1,
    ) -> None:
        self.template = template
        self.values: Mapping[str, object] = dict(values or {})
        self.plural = plural
        self.count = count

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Phrase):
            return NotImplemented
        return (self.template, dict(self.values), self.plural, self.count) == (
            other.template, dict(other.values), other.plural, other.count,
        )

    __hash__ = None  # type: ignore[assignment]  # its values may be unhashable

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, {dict(self.values)!r}, {self.plural!r}, {self.count!r})"

    def __str__(self) -> str:
        form = self.template if self.plural is None or self.count == 1 else self.plural
        return form.format(**self.values)


def plural_phrase(singular: str, plural: str, count: int, /, **values: object) -> Phrase:
    """A `Phrase` whose form depends on ``count`` (``{count}`` is among its values)."""
    return Phrase(singular, {"count": count, **values}, plural, count)


QUOTED = 40
"""The most characters of a value that a message quotes: a record may hold anything (a 10 MB seed)."""


class Cut(str):
    """A value's ``repr`` cut short: said as it is, with ``!r`` too (it is a quotation already)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def quoted(value: object) -> object:
    """``value`` as a message may quote it: whole when short; else a text cut to `QUOTED` characters
    ending in "…" (``!r`` then quotes it, its control characters escaped), and any other value its
    ``repr`` so cut (a `Cut`): never a list of a million dice or a 4,000-digit number whole."""
    if isinstance(value, str):
        return value if len(value) <= QUOTED else value[: QUOTED - 1] + "…"
    if value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, int) and value.bit_length() < 64:
        return value
    short = reprlib.Repr()  # its repr of a long list, text or number is cut inside: never built whole
    short.maxlevel, short.maxstring, short.maxlong, short.maxother = 3, QUOTED, QUOTED, QUOTED
    text = short.repr(value)
    return Cut(text if len(text) <= QUOTED else text[: QUOTED - 1] + "…")


def _plain(value: object) -> object:
    """A value as an English message shows it: a file error by its reason alone."""
    if isinstance(value, OSError):
        return value.strerror or str(value)
    return value


class ShutTheBoxError(ValueError):
    """Base of every error raised by shutthebox: a message template of the catalog and its values."""

    def __init__(self, template: str, /, **values: object) -> None:
        self.template = template
        self.values = values
        super().__init__(template.format(**{name: _plain(value) for name, value in values.items()}))

    @property
    def phrase(self) -> Phrase:
        """The message as words to be said in the reader's language."""
        return Phrase(self.template, self.values)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its template and values (and any attribute of a subclass), so an error raised in
        another process (the server's solver worker) is said there as here."""
        return (_remade, (type(self), self.template, self.values), self.__dict__)


def _remade(kind: type[ShutTheBoxError], template: str, values: dict[str, object]) -> ShutTheBoxError:
    error = kind.__new__(kind)
    ShutTheBoxError.__init__(error, template, **values)
    return error


class RulesError(ShutTheBoxError):
    """An invalid rule option or combination of options."""


class ParseError(ShutTheBoxError):
    """Text that cannot be read as a board, a move or a roll."""


class IllegalActionError(ShutTheBoxError):
    """An action the current state of the game does not allow."""


class OutOfTurnError(IllegalActionError):
    """An action by a player who is not the one to act."""


class StaleActionError(IllegalActionError):
    """An action chosen for a state the game has moved on from (a bot thought while a person acted)."""


class RecordError(ShutTheBoxError):
    """A game record that is malformed or does not replay to what it claims."""
