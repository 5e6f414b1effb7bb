"""Statements of the action path, run on the driver's own cursor.

SQLAlchemy's `Connection.execute` costs about a tenth of a millisecond a statement of work of its
own (caches looked up, parameters checked, a result built), most of the CPU of a room's write. A
`Prepared` statement is compiled by SQLAlchemy once per dialect and set of columns, and each run
binds its values with SQLAlchemy's own type conversions (JSON, UTC dates) and hands the SQL to
the driver's cursor, in the connection's transaction. Its errors are SQLAlchemy's
(`sqlalchemy.exc.IntegrityError`, `OperationalError`), as `Connection.execute` raises them.

On PostgreSQL, statements can go together (`pipelined`, psycopg's pipeline mode): each is `send`
without waiting for its answer, and the answers of all come back in one round trip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

__all__ = ["Prepared", "Sent", "pipelined"]


@dataclass(frozen=True, slots=True)
class _Form:
    """A statement as one dialect runs it for one set of columns: its SQL, its parameters in order
    with the conversion of each, and the value of those the statement holds itself (a ``LIMIT``)."""

    sql: str
    names: tuple[str, ...]
    convert: tuple[Callable[[Any], Any] | None, ...]
    positional: bool
    held: Mapping[str, Any]

    def bound(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        held = self.held
        converted = [
            (values[name] if name not in held else held[name]) if convert is None
            else convert(values[name] if name not in held else held[name])
            for name, convert in zip(self.names, self.convert, strict=True)
        ]
        return tuple(converted) if self.positional else dict(zip(self.names, converted, strict=True))


class Prepared:
    """A Core statement compiled once for each dialect and set of columns it is run with."""

    def __init__(self, statement: ClauseElement) -> None:
        self._statement = statement
        self._forms: dict[tuple[str, tuple[str, ...]], _Form] = {}

    def _form(self, dialect: Dialect, keys: tuple[str, ...]) -> _Form:
        form = self._forms.get((dialect.name, keys))
        if form is None:
            compiled = self._statement.compile(dialect=dialect, column_keys=list(keys))
            assert isinstance(compiled, SQLCompiler)
            if "POSTCOMPILE" in compiled.string:
                raise ValueError("a prepared statement binds each value of an IN list on its own")
            by_name = {name: bind for bind, name in compiled.bind_names.items()}
            names = tuple(compiled.positiontup or ()) if compiled.positional else tuple(by_name)
            binds = [by_name[name] for name in names]
            convert = tuple(bind.type.dialect_impl(dialect).bind_processor(dialect) for bind in binds)
            held = {
                name: bind.effective_value for name, bind in zip(names, binds, strict=True)
                if name not in keys and bind.value is not None
            }
            form = _Form(compiled.string, names, convert, compiled.positional, held)
            self._forms[dialect.name, keys] = form
        return form

    def run(self, connection: Connection, values: Mapping[str, Any]) -> int:
        """Run with ``values`` (one for each of the statement's parameters) in ``connection``'s
        transaction; how many rows it changed."""
        return int(self._cursor(connection, values, lambda cursor: cursor.rowcount))

    def scalar(self, connection: Connection, values: Mapping[str, Any]) -> Any:
        """Run as `run` does; the first column of the first row it returns (None if none)."""
        return self._cursor(connection, values, lambda cursor: (cursor.fetchone() or (None,))[0])

    def first(self, connection: Connection, values: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """Run as `run` does; the first row it returns (None if none)."""
        row = self._cursor(connection, values, lambda cursor: cursor.fetchone())
        return None if row is None else tuple(row)

    def _cursor(self, connection: Connection, values: Mapping[str, Any], read: Callable[[Any], Any]) -> Any:
        form = self._form(connection.dialect, tuple(values))
        parameters = form.bound(values)
        cursor = connection.connection.cursor()
        try:
            cursor.execute(form.sql, parameters)
            return read(cursor)
        except connection.dialect.loaded_dbapi.Error as error:
            raise _wrapped(form.sql, parameters, error, connection.dialect) from error
        finally:
            cursor.close()

    def send(self, connection: Connection, values: Mapping[str, Any]) -> Sent:
        """Run as `run` does, in a `pipelined` block: its answer is read once the block's statements
        are synced (`Sent.rows`)."""
        form = self._form(connection.dialect, tuple(values))
        cursor = connection.connection.cursor()
        cursor.execute(form.sql, form.bound(values))
        return Sent(cursor)

    def run_many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run once for each of ``rows`` (each with the same columns), as one call of the driver."""
        if not rows:
            return
        form = self._form(connection.dialect, tuple(rows[0]))
        parameters: Any = [form.bound(row) for row in rows]
        cursor = connection.connection.cursor()
        try:
            cursor.executemany(form.sql, parameters)
        except connection.dialect.loaded_dbapi.Error as error:
            raise _wrapped(form.sql, parameters, error, connection.dialect) from error
        finally:
            cursor.close()


@dataclass(frozen=True, slots=True)
class Sent:
    """A statement sent in a `pipelined` block, its answer to come."""

    cursor: Any

    def rows(self) -> int:
        """How many rows it changed (once the block synced)."""
        return int(self.cursor.rowcount)

    def close(self) -> None:
        """Let the cursor go (answered or not)."""
        self.cursor.close()


@contextmanager
def pipelined(connection: Connection) -> Iterator[Callable[[], None]]:
    """Send the statements of the block together, in ``connection``'s transaction (PostgreSQL, with
    psycopg): the block is given ``sync``, which waits for the answers of all sent so far, in one
    round trip; leaving the block syncs what is left. A statement that fails voids the transaction;
    its error is raised as SQLAlchemy raises it (`sqlalchemy.exc.IntegrityError`, …)."""
    driver = connection.connection.driver_connection
    assert driver is not None
    try:
        with driver.pipeline() as pipeline:
            yield pipeline.sync
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped("(pipelined)", None, error, connection.dialect) from error


def _wrapped(sql: str, parameters: Any, error: Exception, dialect: Dialect) -> StatementError:
    """The driver's ``error`` as SQLAlchemy raises it (an `IntegrityError` for a key taken…)."""
    return DBAPIError.instance(sql, parameters, error, dialect.loaded_dbapi.Error, dialect=dialect)
