"""``python -m shutthebox.cli``: the ``shutthebox`` command."""

from shutthebox.cli.main import main

raise SystemExit(main())
