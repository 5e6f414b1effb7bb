"""What a turn counts for in the rankings: as played, or as it stood when help came.

Only games whose every die was rolled under the fair scheme count (docs/fairness.md,
"Which games count"). Help — a hint asked, a stand-in bot playing for a player out of
time, a game walked away from — never takes a turn out of the rankings: a turn that
is over counts as played, whatever comes after it, and the turn in which help came
counts as if it had stopped there, scoring the tiles open at that moment. Playing on
only shuts tiles, so that score is the worst the turn could have come to: help can
never improve a ranked score, and a bad turn cannot be dropped by asking for help.
Help that comes outside one's own turn (walking away while another plays) counts
from one's next turn, whole: every tile open.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from shutthebox.core.board import Board
from shutthebox.core.match import Match, Phase
from shutthebox.core.rules import Mode, Rules, Scoring
from shutthebox.core.tiles import grade

__all__ = [
    "IN_TURN", "Help", "Result", "Unranked", "cut_score", "help_cost", "turns_counted", "why_unranked",
]

IN_TURN = (Phase.CHOOSE, Phase.ROLL, Phase.MOVE)
"""The phases of a player's own turn (the roll-off is nobody's turn)."""


@dataclass(frozen=True, slots=True)
class Help:
    """Help that came to ``player`` when the game had ``event`` events (a hint, a stand-in, leaving)."""

    player: int
    event: int

    def to_json(self) -> list[int]:
        return [self.player, self.event]


def cut_score(rules: Rules, open_mask: int) -> int:
    """The score of a turn stopped with ``open_mask`` open: its tiles as the scoring counts them, and
    under ``sum-plus-roll`` the largest total the next roll could show (the roll that would fail)."""
    worst_roll = 6 * max(rules.dice_options(open_mask)) if rules.scoring is Scoring.SUM_PLUS_ROLL else 0
    return rules.score(open_mask, worst_roll)


def help_cost(state: Match, player: int) -> int | None:
    """What ``player``'s turn would count for in the rankings if help came now (None when the game is
    over or it is not their turn)."""
    if state.actor != player or state.phase not in IN_TURN or state.rules.mode is Mode.LONG:
        return None  # the long game scores no turn
    return cut_score(state.rules, state.target)


def turns_counted(
    final: Match, at: Mapping[int, Match], helped: Iterable[Help], *, ranked: bool,
    unranked_players: Iterable[int] = (),
) -> tuple[int | None, ...]:
    """For each turn of ``final.history``, the score it counts for in the rankings, or None when it
    counts for none (an unranked game, a turn with no score, a player whose every turn is out).

    ``at`` holds the game's state after ``k`` events for each ``k`` where help came (others may be
    there too, as `core.record.replay_states` gives them all); ``helped`` the help marks (see the
    module)."""
    out = set(unranked_players)
    if not ranked:
        return tuple(None for _ in final.history)
    cuts: dict[tuple[int, int], int] = {}  # (player, the player's own turn, from 0) -> its cut score
    whole = Board.full(final.rules.tiles).mask
    for mark in sorted(helped, key=lambda mark: mark.event):
        state = at.get(mark.event)
        if state is None:  # a mark past the game's last event: no state, no turn to cut
            continue
        own_turn = (mark.player, sum(1 for t in state.history if t.player == mark.player))
        if own_turn in cuts:
            continue
        in_turn = state.actor == mark.player and state.phase in IN_TURN
        cuts[own_turn] = cut_score(final.rules, state.target if in_turn else whole)
    counted: list[int | None] = []
    own = [0] * len(final.players)
    for turn in final.history:
        index = own[turn.player]
        own[turn.player] += 1
        if turn.score is None or turn.player in out:
            counted.append(None)
            continue
        cut = cuts.get((turn.player, index))
        counted.append(turn.score if cut is None else max(turn.score, cut))
    return tuple(counted)


class Unranked(StrEnum):
    """Why no turn of a game counts for a best."""

    TYPED = "typed"  # dice typed in at a real box (companion mode)
    PRACTICE = "practice"  # dice from a chosen seed
    UNPROVEN = "unproven"  # dice not rolled under the fair scheme, or its seed not revealed


@dataclass(frozen=True, slots=True)
class Result:
    """How one person's game went against their best, after it was kept: the best of its scores that
    count (None: none does), their best before it under the same rules (None: none yet), whether it
    is a new best, whether help came, and why nothing counts when nothing does."""

    player: str
    counted: int | None
    best_before: int | None
    helped: bool
    unranked: Unranked | None = None

    @property
    def new_best(self) -> bool:
        """Whether the game sets a best worth saying so: under the one before, or a first best played
        without help (a first game with a hint counts as it stood: a best only by default)."""
        if self.counted is None:
            return False
        return not self.helped if self.best_before is None else self.counted < self.best_before

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player, "counted": self.counted, "best_before": self.best_before,
            "grade": grade(self.counted) if self.counted is not None else None,
            "new_best": self.new_best, "helped": self.helped,
            "unranked": str(self.unranked) if self.unranked is not None else None,
        }


def why_unranked(typed: bool, seed: int | None, proven: bool) -> Unranked | None:
    """Why a game's turns count for no best (its dice typed in, from a chosen ``seed``, not proven
    fair), or None when they count."""
    if typed:
        return Unranked.TYPED
    if seed is not None:
        return Unranked.PRACTICE
    return None if proven else Unranked.UNPROVEN
