"""The quick reader of ``shutthebox scores`` follows the migrations: it takes a file only when it has
every column the reader reads (`reader.READS`), it reads no column beyond those, and no migration
after the first revision it takes changes a column it reads, so a file it takes answers as the same
file migrated to the newest revision would (`test_reader` compares the two there)."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event

from shutthebox.storage import Database
from shutthebox.storage.database import alembic_config
from shutthebox.storage.reader import READS, read_scores
from tests.support.storage import revisions

UPDATE = re.compile(r'^\s*UPDATE\s+"?(\w+)"?\s+SET\s+(.+?)(?:\s+WHERE\s.*)?$', re.IGNORECASE | re.DOTALL)
ASSIGNED = re.compile(r'"?(\w+)"?\s*=')
ROWS = re.compile(r'^\s*(?:INSERT\s+INTO|DELETE\s+FROM)\s+"?(\w+)"?', re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Step:
    """One migration, run on a SQLite file: whether the reader takes the file at its revision, and
    which of the columns the reader reads it changed (``table.column``; ``table.*`` for rows)."""

    revision: str
    readable: bool
    changed: frozenset[str]


def read_columns(path: Path) -> dict[str, tuple[Any, ...]]:
    """The reader's columns the file has, each with its type, nullability, default and key."""
    with sqlite3.connect(path) as raw:
        return {
            f"{table}.{row[1]}": tuple(row[2:])
            for table, columns in READS.items()
            for row in raw.execute(f"PRAGMA table_info({table})")
            if row[1] in columns
        }


def changed_by(statements: Iterable[str], before: dict[str, Any], after: dict[str, Any]) -> frozenset[str]:
    """The reader's columns a migration changed: made, dropped or altered, or written by an UPDATE
    (a table's rows, ``table.*``, by an INSERT or a DELETE)."""
    changed = {column for column in before.keys() | after.keys() if before.get(column) != after.get(column)}
    for statement in statements:
        if found := UPDATE.match(statement):
            table, assignments = found.groups()
            changed |= {f"{table}.{c}" for c in ASSIGNED.findall(assignments) if c in READS.get(table, ())}
        elif (found := ROWS.match(statement)) and found.group(1) in READS:
            changed.add(f"{found.group(1)}.*")
    return frozenset(changed)


def walk(path: Path, scripts: Path | None = None) -> list[Step]:
    """Migrate a new SQLite file up one revision at a time (the migrations in ``scripts``, else the
    storage's own), noting each step."""
    from alembic import command
    from alembic.script import ScriptDirectory

    config = alembic_config(None)
    if scripts is not None:
        config.set_main_option("script_location", str(scripts))
    order = [r.revision for r in reversed(list(ScriptDirectory.from_config(config).walk_revisions()))]
    engine = create_engine(f"sqlite:///{path}")
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda _c, _u, statement, *_r: statements.append(statement))
    steps = []
    try:
        for revision in order:
            before = read_columns(path)
            statements.clear()
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
            readable = read_scores(str(path)) is not None
            steps.append(Step(revision, readable, changed_by(statements, before, read_columns(path))))
    finally:
        engine.dispose()
    return steps


def unfollowed(steps: list[Step]) -> list[str]:
    """Where the reader and the migrations disagree: a file the reader takes at a revision after
    which a migration changes what it reads, or one it leaves though nothing it reads changes after."""
    problems = []
    for at, step in enumerate(steps):
        later = [f"{s.revision} changes {', '.join(sorted(s.changed))}" for s in steps[at + 1:] if s.changed]
        if step.readable and later:
            problems.append(f"the reader takes a file at {step.revision}, but {'; '.join(later)}")
        if not step.readable and not later:
            problems.append(f"the reader leaves a file at {step.revision}, though nothing it reads changes")
    return problems


def test_no_migration_after_the_first_revision_the_reader_takes_changes_what_it_reads(tmp_path: Path) -> None:
    steps = walk(tmp_path / "walked.db")
    assert [step.revision for step in steps] == list(revisions())
    assert unfollowed(steps) == []
    assert steps[-1].readable  # the newest revision's file is read
    assert any(not step.readable for step in steps)  # and some older one left to the database


def test_a_migration_that_changes_a_column_the_reader_reads_fails_until_the_reader_follows(
    tmp_path: Path,
) -> None:
    """A new migration rewriting ``turns.ranked_score``: a file at the revision before it would be read
    with the old scores, so the walk names it."""
    from shutthebox.storage import migrations

    scripts = tmp_path / "migrations"
    shutil.copytree(Path(migrations.__file__).parent, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    head = revisions()[-1]
    (scripts / "versions" / "9999_rescore.py").write_text(
        '"""Rescore."""\n\nfrom alembic import op\n\n'
        f'revision = "9999"\ndown_revision = "{head}"\nbranch_labels = None\ndepends_on = None\n\n\n'
        "def upgrade() -> None:\n    op.execute(\"UPDATE turns SET ranked_score = NULL WHERE typed\")\n\n\n"
        "def downgrade() -> None:\n    pass\n",
        encoding="utf-8",
    )
    steps = walk(tmp_path / "walked.db", scripts)
    assert steps[-1] == Step("9999", True, frozenset({"turns.ranked_score"}))
    read_before = [step.revision for step in steps[:-1] if step.readable]  # since the last change
    assert head in read_before
    assert unfollowed(steps) == [
        f"the reader takes a file at {revision}, but 9999 changes turns.ranked_score"
        for revision in read_before
    ]


def test_the_reader_reads_no_column_beyond_those_it_names(tmp_path: Path) -> None:
    """Tables holding exactly the columns of `READS`: every query of the reader runs on them."""
    path = tmp_path / "bare.db"
    with sqlite3.connect(path) as raw:
        for table, columns in READS.items():
            raw.execute(f"CREATE TABLE {table} ({', '.join(columns)})")
        raw.execute("INSERT INTO profiles (id, name) VALUES (1, 'Ana')")
        moment = "2026-03-01 09:30:15.000000"
        raw.execute(
            "INSERT INTO games (id, finished_at, source, mode, tiles, rules_key, players, winner, typed,"
            " kind) VALUES (1, ?, 'web', 'solo', 3, 'k', '[\"Ana\"]', NULL, 0, 'ranked')", (moment,)
        )
        raw.execute(
            "INSERT INTO turns (id, game_id, seq, player, score, open_sum, tiles, rules_key, finished_at,"
            " ranked_score, profile_id) VALUES (1, 1, 0, 'Ana', 3, 3, 3, 'k', ?, 3, 1)", (moment,)
        )
    found = read_scores(str(path), ["Ana", "Luis"])  # a profile's bests and a guest's
    assert found is not None and [b["score"] for b in found["bests"]] == [3] and len(found["games"]) == 1
    assert read_scores(str(path)) is not None  # the players of the newest games


def test_a_file_without_a_column_the_reader_reads_is_left_to_the_database(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    Database.open(f"sqlite:///{path}").close()
    assert read_scores(str(path)) == {"bests": [], "games": []}
    with sqlite3.connect(path) as raw:
        raw.execute("ALTER TABLE turns DROP COLUMN ranked_score")
    assert read_scores(str(path)) is None
    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    assert read_scores(str(other)) is None  # a database that is not a history at all
