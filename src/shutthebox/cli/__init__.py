"""The ``shutthebox`` command: ``main`` parses the arguments and runs one subcommand."""

from shutthebox.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
