"""``python -m shutthebox``: the ``shutthebox`` command."""

from shutthebox.cli.main import main

raise SystemExit(main())
