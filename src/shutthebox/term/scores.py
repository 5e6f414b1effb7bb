"""Personal bests and the history of games at the terminal, in words (``shutthebox scores``).

The bests and the recent games are read by `storage.reader.scores_json`: from a SQLite file with
the standard library alone (it starts at once), else through the `storage` repositories. Saving a
finished game, which needs SQLAlchemy, is `term.saving`.
"""

from __future__ import annotations

from collections.abc import Sequence

from shutthebox.i18n import N_, _, ngettext
from shutthebox.i18n.rulewords import mode_name, options_line
from shutthebox.storage.reader import scores_json

__all__ = ["options_of_key", "rules_words", "scores_lines"]


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
        return options_line(options, with_mode=False) if options is not None else key
    except (KeyError, ValueError, TypeError):
        return key


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
        turns = game["scores"]  # a round's and a solo game's score; an elimination's total over its rounds;
        order = list(dict.fromkeys([t["player"] for t in turns] + list(game.get("players") or [])))
        if game["mode"] == "long" or all(t["score"] is None for t in turns):  # a long game keeps none
            scores = ", ".join(order)
        elif game["mode"] == "elimination":
            totals = {p: sum(t["score"] or 0 for t in turns if t["player"] == p) for p in order}
            total = _("{player}: total {total}")
            scores = ", ".join(total.format(player=p, total=n) for p, n in totals.items())
        else:  # a seat with no score (a turn not played) says so
            scores = ", ".join(
                _("{player}: {score}").format(player=t["player"], score=t["score"]) if t["score"] is not None
                else _("{player}: no score").format(player=t["player"])
                for t in turns
            )
        mode = mode_name(game["mode"])
        solo = game["mode"] == "solo"  # one player: the score says how it went, not a "won by"
        winner = _(" · won by {player}").format(player=game["winner"]) if game["winner"] and not solo else ""
        lines.append(
            "  "
            + ngettext(
                "#{id} {date} · {mode}, {tiles} tile · {scores}{winner}",
                "#{id} {date} · {mode}, {tiles} tiles · {scores}{winner}",
                game["tiles"],
            ).format(
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

