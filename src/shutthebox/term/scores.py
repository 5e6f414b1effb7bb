"""Personal bests and the history of games at the terminal, through the shared storage.

A finished terminal game is saved in the same store as the web app's (SQLite
in the user data folder, or ``$SHUTTHEBOX_DB``); saving tells each person how
the game compares with their best under the same rules and board size.
`shutthebox scores` reads the bests and the recent games back: from a SQLite
file with the standard library alone (it starts at once), else through the `storage` repositories.
"""

from __future__ import annotations

from collections.abc import Sequence

from shutthebox.core.errors import ShutTheBoxError
from shutthebox.i18n import N_, _, ngettext, say
from shutthebox.i18n.words import mode_name, rules_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from shutthebox.core.game import Game
    from shutthebox.core.ranking import Unranked

__all__ = ["options_of_key", "save_finished", "scores_json", "scores_lines", "stored_scores"]


_CONSTANTS: dict[str, object] = {"null": None, "true": True, "false": False}
"""The JSON constants a rules key holds (`rules_key` writes its values as JSON, unquoted)."""


def options_of_key(key: str) -> dict[str, object] | None:
    """The options written in a storage rules key (``one_die=high-shut,…,tiles=9``), or None."""
    options: dict[str, object] = {}
    for part in key.split(","):
        name, sep, raw = part.partition("=")
        if not sep:
            return None
        options[name] = _CONSTANTS[raw] if raw in _CONSTANTS else int(raw) if raw.isdigit() else raw
    return options


def rules_words(key: str) -> str:
    """A stored rules key in words, or the key itself when it names rules no longer known."""
    options = options_of_key(key)
    try:
        return rules_line(options, with_mode=False) if options is not None else key
    except (KeyError, ValueError, TypeError):
        return key


def save_finished(game: Game, humans: Sequence[str]) -> list[str]:
    """Store a finished game and say how each person did against their best.

    Only fair dice count (docs/fairness.md): a game whose dice were typed in at a
    real box (companion mode) or drawn from a chosen seed (practice) is kept but
    counts for no best, and a turn with a hint counts as it stood when the hint
    came (`core.ranking`); each is said plainly, so nobody takes a score for a
    record it is not. The seat played under this machine's profile is compared with the profile's
    best, every other person's with the best of the guest of that name. A store that
    cannot be opened or written costs the player only a message.
    """
    record = game.record()
    source = "companion" if game.by_hand else "terminal"
    try:
        from shutthebox.storage import Database, GameRepository, ProfileRepository
        from shutthebox.term.profile import link_profile

        with Database.open() as database:
            games = GameRepository(database)
            profiles, news = link_profile(ProfileRepository(database), record.players, humans)
            linked = {record.players[seat] for seat in profiles}
            before = {  # a guest's best is a guest's: never a profile's that has the same name
                name: games.best(name, record.rules, guest=name not in linked) for name in humans
            }
            game_id = game.save(games, source=source, profiles=profiles)
    except (ShutTheBoxError, ImportError, OSError) as error:
        return [_("The game could not be saved to the history: {reason}").format(reason=say(error))]
    except Exception as error:  # a database driver error must not lose the game on screen
        reason = type(error).__name__
        return [_("The game could not be saved to the history: {reason}").format(reason=reason)]
    lines = [_("Saved to your history (game {id}).").format(id=game_id)]
    told = [news] if news else []
    results = record.results(humans, {name: best.score for name, best in before.items() if best is not None})
    unranked = next((result.unranked for result in results), None)
    if unranked is not None:
        return [*lines, unranked_line(unranked, record.seed), *told]
    for result in results:
        if result.counted is None:
            continue
        if result.new_best:
            lines.append(_("New personal best for {player} on {tiles} tiles: {score}!").format(
                player=result.player, score=result.counted, tiles=record.rules.tiles
            ))
        else:
            lines.append(
                _("{player}'s best on {tiles} tiles with these rules: {best}.").format(
                    player=result.player, best=result.best_before, tiles=record.rules.tiles
                )
            )
    helped = [result.player for result in results if result.helped]
    if helped:
        lines.append(ngettext(
            "{players} asked for a hint, so that turn counts as it stood when the hint came.",
            "{players} asked for hints, so each turn with a hint counts as it stood when the hint came.",
            len(helped),
        ).format(players=", ".join(helped)))
    return [*lines, *told]


def unranked_line(reason: Unranked, seed: int | None) -> str:
    """Why no turn of a game counts for a best, in a sentence."""
    from shutthebox.core.ranking import Unranked  # here: `shutthebox scores` starts without the match

    if reason is Unranked.TYPED:
        return _("The dice were typed in, so this game counts for no best.")
    if reason is Unranked.PRACTICE:
        practice = _("A practice game (dice from the chosen seed {seed}), so it counts for no best.")
        return practice.format(seed=seed)
    return _("The dice were not rolled under the fair scheme, so this game counts for no best.")


_KINDS: dict[str, str] = {
    "practice": N_("practice (no best)"),
    "companion": N_("companion (no best)"),
    "assisted": N_("hint asked (no best for the asker)"),  # a version 3 record's
}
"""How a stored game that counts for no best (or for no best of some players) is marked."""


def _kind_words(kind: object) -> str:
    """`` · practice (no best)`` for a game that counts for no best; nothing for a ranked one."""
    if kind is None or kind == "ranked":
        return ""
    words = _(_KINDS[kind]) if isinstance(kind, str) and kind in _KINDS else str(kind)
    return " · " + words


def _players(games: Any, players: Sequence[str], limit: int) -> list[str]:
    if players:
        return list(players)
    seen: list[str] = []
    for game in games.games(limit=limit):
        for name in game.players:
            if name not in seen:
                seen.append(name)
    return seen


def scores_json(players: Sequence[str] = (), *, limit: int = 10) -> dict[str, Any]:
    """Personal bests and recent games as JSON (``shutthebox scores --json``)."""
    from shutthebox.storage.location import default_url, sqlite_file

    url = default_url()
    path = sqlite_file(url)
    if path is not None:
        from shutthebox.storage.reader import read_scores

        found = read_scores(path, players, limit=limit)
        if found is not None:
            return found
    return stored_scores(url, players, limit=limit)


def stored_scores(url: str, players: Sequence[str] = (), *, limit: int = 10) -> dict[str, Any]:
    """The same answer through the `GameRepository` (any engine; the database migrates an older schema
    first)."""
    from shutthebox.storage import Database, GameRepository

    with Database.open(url) as database:
        games = GameRepository(database)
        names = _players(games, players, 50)
        bests = [b.to_json() for name in names for b in games.bests(name)]
        recent = [
            g.to_json()
            for g in games.games(limit=limit)
            if not players or set(players) & set(g.players)
        ]
    return {"bests": bests, "games": recent}


def scores_lines(players: Sequence[str] = (), *, limit: int = 10) -> list[str]:
    """Personal bests per board size and rules, then the recent games, in words."""
    data = scores_json(players, limit=limit)
    lines = [_("Personal bests (per board size and rules):")]
    if not data["bests"]:
        lines.append("  " + _("none yet"))
    for best in data["bests"]:
        lines.append(
            "  "
            + ngettext(
                "{player}: best {score} (grade {grade}) of {turns} ranked turn · {rules} · {date}",
                "{player}: best {score} (grade {grade}) of {turns} ranked turns · {rules} · {date}",
                best["turns"],
            ).format(
                player=best["player"],
                score=best["score"],
                grade=best["grade"],
                turns=best["turns"],
                rules=rules_words(best["rules_key"]),
                date=best["finished_at"][:10],
            )
        )
    lines.append(_("Recent games:"))
    if not data["games"]:
        lines.append("  " + _("none yet"))
    for game in data["games"]:
        scores = ", ".join(  # a seat with no score (a long game, a turn not played) says so
            _("{player}: {score}").format(player=s["player"], score=s["score"]) if s["score"] is not None
            else _("{player}: no score").format(player=s["player"])
            for s in game["scores"]
        )
        mode = mode_name(game["mode"])
        winner = _(" · won by {player}").format(player=game["winner"]) if game["winner"] else ""
        lines.append(
            "  "
            + _("#{id} {date} · {mode}, {tiles} tiles · {scores}{winner}").format(
                id=game["id"],
                date=game["finished_at"][:16].replace("T", " "),
                mode=mode,
                tiles=game["tiles"],
                scores=scores,
                winner=winner,
            )
            + _kind_words(game.get("kind"))
        )
    return lines
