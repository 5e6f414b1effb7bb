"""Write tests/vectors/engine.json: what the Python engine and solver answer, for the page's engine to match.

    python tools/vectors.py          # write the file
    python tools/vectors.py check    # exit 1 when the file is not what this writes

The page's engine (``web/static/engine.js``) mirrors the rules of a solo turn and ranks the hints from
a value table; tests/js/engine.test.js checks it on every vector, and tests/strategy/test_engine_vectors.py
that the file is current. The vectors, all drawn from the Python engine (`core.rules`, `core.match`)
and the solver's hints (`strategy.advice.advise_position`), with a seeded random source:

- ``choices``: for every board size, one-die rule and forcing, the dice counts allowed on every mask,
  as a string of one code a mask (``"2"``: two dice; ``"b"``: one or two; ``"1"``: one, forced).
- ``scores``: for every board size and scoring, the score of every mask ending on a failed roll.
- ``moves``: positions of every board size and ``max_tiles``: the roll and the legal moves, in order.
- ``turns``: whole solo turns under varied rules, each step (choose, roll, shut) with the turn after
  it, and steps the engine refuses.
- ``rankings``: positions under prebuilt tables (``web/static/tables/``): the dice or the moves ranked
  by the hints, with their values and losses.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.match import Match, Phase, legal_moves
from shutthebox.core.options import Mode, OneDie, Scoring
from shutthebox.core.rules import Rules
from shutthebox.core.tiles import MAX_TILES, tiles_of
from shutthebox.strategy.advice import advise_position
from shutthebox.strategy.names import Objective
from shutthebox.strategy.ties import tie_level

PATH = Path(__file__).resolve().parents[1] / "tests" / "vectors" / "engine.json"
SEED = 31
PHASES = {Phase.CHOOSE: "dice", Phase.ROLL: "roll", Phase.MOVE: "move", Phase.OVER: "over"}
CODES = {(2,): "2", (1, 2): "b", (1,): "1"}
RANKED = (  # (preset, tiles, objective): the tables the rankings are drawn under
    ("web", 9, "score"), ("web", 9, "shut"), ("classic", 9, "score"), ("pub", 9, "shut"),
    ("sailors", 9, "score"), ("digits", 9, "score"), ("long", 9, "score"), ("long", 9, "shut"),
    ("web", 12, "score"), ("web", 10, "shut"),
)


def choices() -> list[dict[str, Any]]:
    found = []
    for tiles in range(1, MAX_TILES + 1):
        for one_die in OneDie:
            for forced in (False, True):
                rules = Rules(tiles=tiles, one_die=one_die, one_die_forced=forced)
                codes = "".join(CODES[rules.dice_options(mask)] for mask in range(1 << tiles))
                found.append(
                    {"tiles": tiles, "one_die": str(one_die), "one_die_forced": forced, "codes": codes}
                )
    return found


def scores() -> list[dict[str, Any]]:
    found = []
    for tiles in range(1, MAX_TILES + 1):
        for scoring in Scoring:
            rules = Rules(tiles=tiles, scoring=scoring)
            totals = [2 + mask % 11 for mask in range(1 << tiles)]  # the failed roll's total
            found.append({
                "tiles": tiles, "scoring": str(scoring),
                "scores": [rules.score(mask, total) for mask, total in enumerate(totals)],
            })
    return found


def _faces(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6)] if rng.random() < 0.3 else [rng.randint(1, 6), rng.randint(1, 6)]


def moves(rng: random.Random) -> list[dict[str, Any]]:
    found = []
    for tiles in range(1, MAX_TILES + 1):
        for max_tiles in (None, 1, 2, 3):
            rules = Rules(tiles=tiles, max_tiles=max_tiles)
            cases = []
            for _ in range(100):
                mask = rng.randrange(1 << tiles)
                dice = _faces(rng)
                total = sum(dice)
                cases.append([mask, dice, [list(tiles_of(m.mask)) for m in legal_moves(rules, mask, total)]])
            found.append({"tiles": tiles, "max_tiles": max_tiles, "cases": cases})
    return found


def turn_of(state: Match) -> dict[str, Any]:
    """A solo match's state as the page's engine names a turn (engine.js, Turn)."""
    over = state.phase is Phase.OVER
    last = state.history[-1] if over else None
    roll = last.last_roll if last is not None else state.roll
    return {
        "mask": state.board.mask,
        "extra": state.extra_turns,
        "phase": PHASES[state.phase],
        "count": state.dice_count if state.phase is Phase.ROLL else None,
        "dice": list(roll.dice) if roll is not None else None,
        "score": last.score if last is not None else None,
        "shut": over and state.board.is_shut,
    }


def _turn_rules(rng: random.Random, index: int) -> Rules:
    return Rules(
        tiles=1 + index % MAX_TILES,
        one_die=list(OneDie)[index // MAX_TILES % 4],
        one_die_forced=index % 5 == 0,
        max_tiles=(None, None, 2, 3)[index % 4],
        scoring=list(Scoring)[rng.randrange(4)],
        mode=Mode.SOLO,
        doubles_extra_turn=index % 3 == 0,
    )


def _refusal(rng: random.Random, state: Match) -> list[Any] | None:
    """A step the engine refuses in ``state``, or None."""
    if state.phase is Phase.MOVE:
        assert state.roll is not None
        legal = {m.mask for m in state.legal_moves}
        wrong = [m for m in range(1, 1 << state.rules.tiles) if m not in legal]
        return ["shut", list(tiles_of(rng.choice(wrong))), None] if wrong else None
    if state.phase is Phase.ROLL:
        due = state.dice_due or 1
        steps: list[list[Any]] = [
            ["choose", 2, None], ["shut", [1], None],
            ["roll", [7] * due, None], ["roll", [1] * (3 - due), None],
        ]
        return rng.choice(steps)
    if state.phase is Phase.CHOOSE:
        return rng.choice([["roll", [3], None], ["shut", [1], None]])
    return None


def _check_refused(state: Match, step: list[Any]) -> None:
    """The Python engine refuses ``step`` too."""
    kind, value, _ = step
    try:
        action: DiceChoice | Roll | Move
        if kind == "choose":
            action = DiceChoice(value)
        else:
            action = Roll(tuple(value)) if kind == "roll" else Move.of(value)
        state.apply(action)
    except ShutTheBoxError:
        return
    raise AssertionError(f"the engine took {step} in {state.describe()}")


def turns(rng: random.Random) -> list[dict[str, Any]]:
    found = []
    for index in range(480):
        rules = _turn_rules(rng, index)
        state = Match.new(rules, ["solo"])
        steps: list[list[Any]] = []
        while not state.is_over:
            if rng.random() < 0.08 and (refused := _refusal(rng, state)) is not None:
                _check_refused(state, refused)
                steps.append(refused)
            if state.phase is Phase.CHOOSE:
                count = rng.choice(state.dice_options)
                state = state.apply(DiceChoice(count))
                steps.append(["choose", count, turn_of(state)])
            elif state.phase is Phase.ROLL:
                count = state.dice_due
                faces = [rng.randint(1, 6) for _ in range(count)]
                if count == 2 and rules.doubles_extra_turn and rng.random() < 0.2:
                    faces[1] = faces[0]
                state = state.apply(Roll(tuple(faces)))
                steps.append(["roll", faces, turn_of(state)])
            else:
                move = rng.choice(state.legal_moves)
                tiles = list(tiles_of(move.mask))
                rng.shuffle(tiles)  # any order names the same move
                state = state.apply(Move(move.mask))
                steps.append(["shut", tiles, turn_of(state)])
        start = turn_of(Match.new(rules, ["solo"]))
        found.append({"rules": rules.to_dict(), "start": start, "steps": steps})
    return found


def rankings(rng: random.Random) -> list[dict[str, Any]]:
    found = []
    for preset, tiles, objective in RANKED:
        rules = Rules.preset(preset, tiles=tiles)
        cases: list[dict[str, Any]] = []
        for _ in range(2000):  # 60 positions, then up to 10 more whose best moves tie
            if len(cases) >= 60 + 10:
                break
            mask = rng.randrange(1, 1 << tiles)
            extra = rng.randint(0, 3) if rules.doubles_extra_turn else 0
            hunting = len(cases) >= 60  # for a tie
            dice = _faces(rng) if hunting or rng.random() >= 0.4 else None
            if dice is not None and len(dice) == 1 and 1 not in rules.dice_options(mask):
                dice = [dice[0], rng.randint(1, 6)]
            if dice is not None and not legal_moves(rules, mask, sum(dice)):
                continue
            advice = advise_position(
                rules, mask, Roll(tuple(dice)) if dice else None, objective=Objective(objective), extra=extra
            )
            ranked = [
                [c.action.count if isinstance(c.action, DiceChoice) else sorted(c.action.tiles), c.value,
                 c.loss]
                for c in advice.choices
            ]
            values = [choice.value for choice in advice.choices]
            tied = len(values) > 1 and tie_level(values[0]) == tie_level(values[1])  # noise ties too
            if hunting and not tied:
                continue
            cases.append({"mask": mask, "extra": extra, "dice": dice, "ranked": ranked})
        found.append({"preset": preset, "tiles": tiles, "objective": objective, "cases": cases})
    return found


def vectors() -> dict[str, Any]:
    rng = random.Random(SEED)
    return {
        "about": __doc__.split("\n\n", 2)[2].strip() if __doc__ else "",
        "format": 1,
        "choices": choices(),
        "scores": scores(),
        "moves": moves(rng),
        "turns": turns(rng),
        "rankings": rankings(rng),
    }


def text() -> str:
    """The file's text: one line a vector group's entry, so a diff stays readable."""
    data = vectors()
    lines = ["{"]
    head = {k: v for k, v in data.items() if not isinstance(v, list)}
    for key, value in head.items():
        lines.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    groups = [k for k, v in data.items() if isinstance(v, list)]
    for g, key in enumerate(groups):
        entries = [json.dumps(entry, separators=(",", ":"), allow_nan=False) for entry in data[key]]
        lines.append(f"{json.dumps(key)}: [")
        lines.extend(entry + ("," if i + 1 < len(entries) else "") for i, entry in enumerate(entries))
        lines.append("]" + ("," if g + 1 < len(groups) else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    written = text()
    if argv[1:] == ["check"]:
        if not PATH.exists() or PATH.read_text() != written:
            print(f"{PATH} is stale: run python tools/vectors.py", file=sys.stderr)
            return 1
        return 0
    PATH.write_text(written)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except ShutTheBoxError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
