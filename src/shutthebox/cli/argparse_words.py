"""argparse's own words, listed so that the catalog holds them.

argparse asks gettext for each of these (``cli.parser`` points it at the
project's catalog); nothing calls this module. The test of the catalogs checks
that every message a user can meet in the running Python's argparse is here.
"""

from shutthebox.core.errors import N_
from shutthebox.i18n import ngettext

__all__: list[str] = []

N_("usage: ")
N_("positional arguments")
N_("options")
N_("show this help message and exit")
N_("argument %(argument_name)s: %(message)s")
N_("unrecognized arguments: %s")
N_("not allowed with argument %s")
N_("ignored explicit argument %r")
N_("the following arguments are required: %s")
N_("one of the arguments %s is required")
N_("expected one argument")
N_("expected at most one argument")
N_("expected at least one argument")
N_("ambiguous option: %(option)s could match %(matches)s")
N_("unexpected option string: %s")
N_("invalid %(type)s value: %(value)r")
N_("invalid choice: %(value)r (choose from %(choices)s)")
N_("%(prog)s: error: %(message)s\n")
N_("can't open '%(filename)s': %(error)s")
N_("subcommands")
ngettext("expected %s argument", "expected %s arguments", 2)
