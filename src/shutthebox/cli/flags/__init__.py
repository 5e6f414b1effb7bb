"""The flags of each command, one module a command: part of the parser, so light to import.

`shutthebox.cli.main` builds the flags of the subcommand being parsed from here (``--help`` and
``shutthebox scores`` start at once); the command's own module, which imports all it needs at its
top, is loaded only when it runs.
"""
