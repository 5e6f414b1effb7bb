"""The ``shutthebox`` command run in process, for the tests of its commands."""

from __future__ import annotations

import pytest

from shutthebox.cli import main


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command in process: its exit status, standard output and standard error."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err

