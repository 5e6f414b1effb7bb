"""``shutthebox daily``: the day's challenge in the terminal, ranked on a server or as a practice.

With ``--server URL`` the attempt is the server's ranked one (one a day per
profile and board), played line by line through its API: the server rolls, the
terminal shows and sends. The profile's key on that server is kept in the data
folder (``servers.json``), made there on first use under the player's name.

Without it, the practice takes the day's seeds from the history database, the
same table the web app of this machine deals its challenges from (and makes a
week ahead), so it meets the very rolls the ranked attempts meet, in the same
order; the dice come without their proof, so the seed of a day not over stays
secret, and the game counts for no best.
"""

from __future__ import annotations

import argparse
import json
import time

from shutthebox.cli.parser import CliError
from shutthebox.cli.paths import check_database
from shutthebox.cli.play import play_setup
from shutthebox.cli.remote import play_daily
from shutthebox.cli.table import check_table
from shutthebox.core.daily import DAILY_TILES, Challenge, PracticeDice, today
from shutthebox.core.errors import ParseError
from shutthebox.i18n import _
from shutthebox.storage import Database
from shutthebox.storage.daily import DailyRepository
from shutthebox.term.session import PlaySetup

__all__ = ["run_daily"]


def run_daily(args: argparse.Namespace) -> int:
    if args.server:

        return play_daily(args.server, args.tiles, args.player)
    now = today(time.time())
    try:
        challenge = Challenge.parse(args.day, args.tiles) if args.day else Challenge(now, args.tiles)
    except ParseError as error:
        raise CliError("{error}", error=error) from None
    if args.player is not None:
        check_table(challenge.rules, (args.player,), (), rounds=1, companion=False, seed=None)
    check_database(create=True)
    with Database.open() as database:
        day = [Challenge(challenge.day, tiles) for tiles in DAILY_TILES]
        seeds = DailyRepository(database).seeds(day)
    if args.json:
        shown = [c.to_json(seeds[c], reveal=c.day < now) for c in day]
        print(json.dumps({"today": now.isoformat(), "day": challenge.day.isoformat(), "challenges": shown}))
        return 0
    seed = seeds[challenge]
    setup = PlaySetup(
        rules=challenge.rules, humans=(args.player or _("Player"),), lang=args.lang,
        dice=lambda: PracticeDice(challenge.dice(seed)),
    )
    print(_("The {tiles}-tile challenge of {day}, as a practice: the same rolls as the ranked attempts "
            "on the web app of this machine; it counts for no best.").format(
        tiles=challenge.tiles, day=challenge.day.isoformat()))
    return play_setup(setup, args, None, setup_first=False)
