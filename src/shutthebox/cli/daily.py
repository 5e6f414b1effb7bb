"""``shutthebox daily``: the day's challenge in the terminal, as an unranked practice.

The day's seeds live in the history database, the same table the web app of
this machine deals its challenges from (and makes a week ahead). So the practice
meets the very rolls the ranked attempts of the web app meet, in the same order.
The ranked attempt itself is the server's (one a day per profile, on the page):
here the dice come without their proof, so the seed of a day not over stays
secret and the game counts for no best.
"""

from __future__ import annotations

import argparse
import json
import time

from shutthebox.cli.parser import CliError, whole
from shutthebox.core.errors import ParseError
from shutthebox.i18n import _

__all__ = ["daily_arguments", "run_daily"]


def daily_arguments(daily: argparse.ArgumentParser) -> None:
    from shutthebox.core.daily import DAILY_TILES

    daily.add_argument("player", nargs="?", metavar="PLAYER", help=_("your name (default: '{name}')").format(
        name=_("Player")
    ))
    daily.add_argument("--tiles", type=whole, default=DAILY_TILES[0], help=_(
        "the board: {sizes} tiles ({default})"
    ).format(sizes=", ".join(map(str, DAILY_TILES)), default=DAILY_TILES[0]))
    daily.add_argument("--day", metavar="YYYY-MM-DD", help=_("the day to practise (today in UTC by default)"))
    daily.add_argument("--json", action="store_true", help=_(
        "print the day's challenges (each commitment, and each seed once the day is over) and play nothing"
    ))
    daily.add_argument(
        "--plain", action="store_true", help=_("line-by-line text (also used when not a terminal)")
    )


def run_daily(args: argparse.Namespace) -> int:
    from shutthebox.cli.games import play_setup
    from shutthebox.cli.paths import check_database
    from shutthebox.core.daily import DAILY_TILES, Challenge, PracticeDice, today
    from shutthebox.storage import Store
    from shutthebox.storage.daily import DailyStore
    from shutthebox.term.session import PlaySetup

    now = today(time.time())
    try:
        challenge = Challenge.parse(args.day, args.tiles) if args.day else Challenge(now, args.tiles)
    except ParseError as error:
        raise CliError("{error}", error=error) from None
    check_database(create=True)
    with Store.open() as store:
        day = [Challenge(challenge.day, tiles) for tiles in DAILY_TILES]
        seeds = DailyStore(store.engine).seeds(day)
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
