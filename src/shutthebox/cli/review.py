"""``shutthebox review``: each decision of a recorded game graded against optimal play."""

from __future__ import annotations

import argparse
from pathlib import Path

from shutthebox.cli.solving import emit
from shutthebox.core.record import GameRecord, replay
from shutthebox.i18n import _
from shutthebox.i18n.words import action_words, loss_words, rules_line, value_words, verdict_name
from shutthebox.strategy.review import review

__all__ = ["run_review"]


def run_review(args: argparse.Namespace) -> int:
    record = GameRecord.load(Path(args.file))
    replay(record)  # checked as `replay` and `verify` check it: a result edited, events cut short are refused
    result = review(record)
    data = result.to_json()
    lines = [_("Review of {file}: {rules}").format(file=args.file, rules=rules_line(record.rules))]
    for d in result.decisions:
        where = f"[{d.board}]" + (_(" roll {roll}").format(roll=d.roll) if d.roll else "")
        chosen = action_words(d.chosen, opening=d.opening)
        verdict = verdict_name(d.verdict)
        note = "" if d.verdict == "best" else _("; best {best} ({value}): {loss}").format(
            best=action_words(d.best, opening=d.opening), value=value_words(d.objective, d.value_best),
            loss=loss_words(d.objective, d.loss),
        )
        value = value_words(d.objective, d.value_chosen)
        lines.append(f"  {d.player:10} {where:34} {chosen:12} {verdict:12} {value:>7}{note}")
    for player, accuracy in result.accuracy.items():
        lines.append(_("Accuracy of {player}: {accuracy} %").format(
            player=player, accuracy=f"{accuracy:.1f}"
        ))
    return emit(args, data, lines)


