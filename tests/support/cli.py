"""The ``shutthebox`` command run in process, for the tests of its commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from shutthebox.cli import main


def in_english(monkeypatch: pytest.MonkeyPatch, history: Path | None = None) -> None:
    """A neutral locale (English: ``--lang`` decides otherwise), and with ``history`` (a folder) the
    history the command keeps in a throwaway database there."""
    monkeypatch.setenv("LANG", "C")
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    if history is not None:
        monkeypatch.setenv("SHUTTHEBOX_DB", f"sqlite:///{history / 'history.db'}")


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command in process: its exit status, standard output and standard error."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err

