"""A player's statistics, shared by the web page (``GET /api/players/{name}/stats``) and ``shutthebox stats``.

`player_stats` is pure: from the turns `GameRepository.history` gives, the bests
`GameRepository.bests` gives, the player's newest games and the marks of their reviews, it makes the
JSON both draw: games per board size and rules, the score histogram and grade counts of each, the
bests, the last games and the accuracy over time. `collect` reads the repositories for it; how a
game's review mark is got (a server bounds and caches the solver's work, the command line does not)
is the caller's, as ``mark_of``.

*Accuracy* is the review's (`strategy.review`): the mean, over the player's decisions that had a
real choice, of the share of the best option's value the chosen one kept, 0 to 100. Beside it, the
*best moves*: of those decisions, how many took the solver's best option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from shutthebox.storage.games import GameRepository
from shutthebox.storage.names import look_alike_keys
from shutthebox.storage.profiles import ProfileRepository
from shutthebox.storage.values import Best, GameSummary, TurnEntry

__all__ = [
    "GRADES", "LAST_GAMES", "MOST_BARS", "REVIEWED_GAMES", "TURNS_READ", "Mark", "Reviewed", "collect",
    "histogram", "marks_of", "player_stats",
]

GRADES = ("S", "A", "B", "C", "F")
"""The grades, best first (rules §4)."""
TURNS_READ = 5000
"""The newest turns of a player read: the statistics of someone with more cover these (``truncated``)."""
LAST_GAMES = 10
"""The newest games listed, unless the page asks for another number."""
REVIEWED_GAMES = 20
"""The newest games reviewed for the accuracy over time: the solver's work stays bounded."""
MOST_BARS = 20
"""The most bars of a score histogram: wider scores share a bar."""


@dataclass(frozen=True, slots=True)
class Mark:
    """How one player decided in one game, from its review."""

    accuracy: float  # 0 to 100, as the review says it
    decisions: int  # the decisions that had a real choice
    best: int  # of those, the ones that took the solver's best option

    def to_json(self) -> dict[str, Any]:
        return {"accuracy": self.accuracy, "decisions": self.decisions, "best": self.best}


class _Decided(Protocol):
    """A reviewed decision, as `strategy.review.Decision` has it (storage does not import the solver)."""

    @property
    def player(self) -> str: ...
    @property
    def had_choice(self) -> bool: ...
    @property
    def verdict(self) -> str: ...


class Reviewed(Protocol):
    """A game's review, as `strategy.review.Review` has it."""

    @property
    def decisions(self) -> Sequence[_Decided]: ...
    @property
    def accuracy(self) -> Mapping[str, float]: ...


def marks_of(review: Reviewed) -> dict[str, Mark]:
    """Each player's mark in a reviewed game; a player who never had a real choice has none."""
    marks: dict[str, Mark] = {}
    for player, accuracy in review.accuracy.items():
        chosen = [d for d in review.decisions if d.player == player and d.had_choice]
        best = sum(1 for d in chosen if d.verdict == "best")
        marks[player] = Mark(accuracy, len(chosen), best)
    return marks


def histogram(scores: Sequence[int]) -> list[dict[str, int]]:
    """Bars of scores from 0 to the highest: one per score up to `MOST_BARS` scores, else of equal
    width, at most `MOST_BARS`; each ``{"low", "high", "count"}`` (both ends counted in)."""
    if not scores:
        return []
    top = max(scores)
    width = -(-(top + 1) // MOST_BARS)  # ceiling division
    counts = Counter(score // width for score in scores)
    return [
        {"low": bar * width, "high": bar * width + width - 1, "count": counts[bar]}
        for bar in range(top // width + 1)
    ]


def _grades(turns: Sequence[TurnEntry]) -> list[dict[str, Any]]:
    counts = Counter(turn.grade for turn in turns)
    return [{"grade": grade, "count": counts[grade]} for grade in GRADES]


def _groups(turns: Sequence[TurnEntry], bests: Sequence[Best]) -> list[dict[str, Any]]:
    """Per board size and rules key: games, scored turns, average, histogram, grades and best."""
    keys = {(t.tiles, t.rules_key) for t in turns} | {(b.tiles, b.rules_key) for b in bests}
    best_of = {(b.tiles, b.rules_key): b for b in bests}
    groups = []
    for tiles, key in sorted(keys):  # as the bests come: by size, then key in code-point order
        theirs = [t for t in turns if (t.tiles, t.rules_key) == (tiles, key)]
        scored = [t for t in theirs if t.score is not None]
        scores = [t.score for t in scored if t.score is not None]
        best = best_of.get((tiles, key))
        groups.append({
            "tiles": tiles,
            "rules_key": key,
            "games": len({t.game_id for t in theirs}),
            "turns": len(scored),
            "average": round(sum(scores) / len(scores), 2) if scores else None,
            "lowest": min(scores, default=None),
            "highest": max(scores, default=None),
            "histogram": histogram(scores),
            "grades": _grades(scored),
            "best": best.to_json() if best is not None else None,
        })
    return groups


def _game(summary: GameSummary, theirs: Sequence[TurnEntry], mark: Mark | None) -> dict[str, Any]:
    """One of the last games: the player's lowest score in it (None if no turn of theirs scored)."""
    scored = [t for t in theirs if t.score is not None]
    shown = min(scored, key=lambda t: t.score or 0) if scored else (theirs[0] if theirs else None)
    return {
        "id": summary.id,
        "finished_at": summary.finished_at.isoformat(),
        "tiles": summary.tiles,
        "rules_key": summary.rules_key,
        "mode": summary.mode,
        "kind": summary.kind,
        "players": len(summary.players),
        "score": shown.score if shown is not None else None,
        "grade": shown.grade if shown is not None else None,
        "accuracy": mark.to_json() if mark is not None else None,
        "review": f"/api/games/{summary.id}/review",
    }


def player_stats(
    player: str,
    turns: Sequence[TurnEntry],
    bests: Sequence[Best],
    recent: Sequence[GameSummary],
    marks: Mapping[int, Mark],
    *,
    last: int = LAST_GAMES,
    truncated: bool = False,
) -> dict[str, Any]:
    """The statistics of ``player`` from their ``turns`` (newest first), ranked ``bests``, ``recent``
    games (newest first) and the review ``marks`` of those reviewed (by game id)."""
    scored = [t for t in turns if t.score is not None]
    by_game: dict[int, list[TurnEntry]] = {}
    for turn in turns:
        by_game.setdefault(turn.game_id, []).append(turn)
    reviewed = [(game, marks[game.id]) for game in recent if game.id in marks]
    decisions = sum(mark.decisions for _, mark in reviewed)
    return {
        "player": player,
        "games": len(by_game),
        "turns": len(scored),
        "truncated": truncated,
        "grades": _grades(scored),
        "groups": _groups(turns, bests),
        "last_games": [_game(g, by_game.get(g.id, []), marks.get(g.id)) for g in recent[:last]],
        "accuracy": {
            "games": [  # oldest first, as the chart reads
                {"id": game.id, "finished_at": game.finished_at.isoformat(), **mark.to_json()}
                for game, mark in reversed(reviewed)
            ],
            "reviewed_most": REVIEWED_GAMES,
            "mean": round(sum(m.accuracy for _, m in reviewed) / len(reviewed), 1) if reviewed else None,
            "decisions": decisions,
            "best": sum(mark.best for _, mark in reviewed),
        },
    }


GUESTS_SEARCHED = 200
"""The newest games searched for a guest's name typed in another case (``ana`` for ``Ana``)."""


def _guest_named(games: GameRepository, name: str) -> str:
    """The seat name of the newest games that is ``name`` but for case (and look-alikes), else ``name``."""
    keys = look_alike_keys(name)
    for game in games.games(limit=GUESTS_SEARCHED):
        for seat in game.players:
            if look_alike_keys(seat) & keys:
                return seat
    return name


def collect(
    games: GameRepository,
    profiles: ProfileRepository,
    name: str,
    mark_of: Callable[[int, str], Mark | None],
    *,
    last: int = LAST_GAMES,
    source: str | None = None,
) -> dict[str, Any] | None:
    """`player_stats` of ``name`` (a profile, else a guest) read from ``games``, bests counted from
    games of ``source`` only (None: every source); ``mark_of(game_id, seat)`` is the review mark of
    that seat in that game, or None when it has none. None when no profile has that name and no game
    that player."""
    profile = profiles.named(name) or profiles.holder(name)  # "ana" finds Ana, as names are told apart
    if profile is not None:
        name = profile.name
    turns = games.history(name, limit=TURNS_READ)
    if profile is None and not turns:  # a guest: the name as a recent game spells it, in any case
        name = _guest_named(games, name)
        turns = games.history(name, limit=TURNS_READ)
    if profile is None and not turns:
        return None
    recent = games.games(player=name, limit=max(last, REVIEWED_GAMES))
    seats = {turn.game_id: turn.player for turn in turns}
    marks: dict[int, Mark] = {}
    for game in recent[:REVIEWED_GAMES]:
        seat = seats.get(game.id)  # a game saved since the turns were read is left for next time
        mark = mark_of(game.id, seat) if seat is not None else None
        if mark is not None:
            marks[game.id] = mark
    bests = games.bests(name, source=source)
    shown = profile.name if profile is not None else name
    return player_stats(shown, turns, bests, recent, marks, last=last, truncated=len(turns) >= TURNS_READ)
