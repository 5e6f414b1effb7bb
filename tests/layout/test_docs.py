"""The project states its own rules: docs/rules.md (English) and docs/reglas.md (Spanish).

These tests hold the two pages to the program:

- both pages have the same numbered sections, the ones the code cites (§3, §5.4, …);
- every section the code cites exists;
- every rule option, option value, preset and rule flag is named on both pages;
- every worked example is read out of the page (the tables after a
  ``<!-- check: NAME -->`` marker) and replayed through the rules engine, so a
  wrong number on either page fails here;
- nothing in the README, the docs or the package points outside the repository.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import shutthebox
from shutthebox.cli.parser import add_rules_options
from shutthebox.core.board import Move, mask_of, subsets_with_sum
from shutthebox.core.dice import Roll
from shutthebox.core.match import DiceChoice, Match, Phase
from shutthebox.core.rules import PRESETS, Mode, OneDie, Rules, Scoring, grade

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RULES_MD = DOCS / "rules.md"
REGLAS_MD = DOCS / "reglas.md"
PAGES = (RULES_MD, REGLAS_MD)
PACKAGE = Path(shutthebox.__file__).parent

SECTIONS = ["1", "2", "3", "4", "5", "5.1", "5.2", "5.3", "5.4", "6", "7"]
"""The section numbers the code cites, in order: they must not move."""

HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.?\s", re.MULTILINE)
CITATION = re.compile(r"§\s?(\d+(?:\.\d+)?)")
NONE_CELL = "—"
YES = {"yes": True, "sí": True, "no": False}
RESULT = re.compile(r"^(?:Result|Resultado):(.*)$", re.MULTILINE)


# -- reading the pages -------------------------------------------------------------


def page(path: Path) -> str:
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    return path.read_text(encoding="utf-8")


def section_numbers(text: str) -> list[str]:
    """The numbers of the ``## N.`` and ``### N.M`` headings, in order."""
    numbers = []
    for hashes, heading in HEADING.findall(text):
        assert len(hashes) == (3 if "." in heading else 2), f"heading {heading} at the wrong level"
        numbers.append(heading)
    return numbers


def _marker_end(text: str, name: str) -> int:
    marker = f"<!-- check: {name} -->"
    assert text.count(marker) == 1, f"the page needs exactly one {marker}"
    return text.index(marker) + len(marker)


def table(text: str, name: str) -> list[list[str]]:
    """The table right after the marker ``name``: its header, then its rows, as stripped cells."""
    lines = text[_marker_end(text, name):].lstrip("\n").splitlines()
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert len(rows) >= 3, f"no table after the marker {name!r}"
    header, rule, *content = rows
    assert all(set(cell) <= set("-: ") for cell in rule), f"table {name!r} has no header rule"
    width = len(header)
    assert all(len(row) == width for row in content), f"table {name!r} has rows of different widths"
    return [header, *content]


def body(text: str, name: str) -> list[list[str]]:
    """The rows of the table after the marker ``name``, without its header."""
    return table(text, name)[1:]


def result(text: str, name: str) -> list[str]:
    """The bold words of the ``Result:`` line that follows the marker ``name``."""
    start = _marker_end(text, name)
    stop = text.find("<!-- check:", start)
    found = RESULT.search(text[start:] if stop < 0 else text[start:stop])
    assert found, f"no Result line between the marker {name!r} and the next one"
    return re.findall(r"\*\*([^*]+)\*\*", found[1])


def plain(cell: str) -> str:
    return cell.replace("`", "").replace("*", "").strip()


def tiles(cell: str) -> tuple[int, ...]:
    """``"1, 5, 9"`` → (1, 5, 9); ``"—"`` → ()."""
    cell = plain(cell)
    return () if cell.startswith(NONE_CELL) else tuple(int(n) for n in re.findall(r"\d+", cell))


def number(cell: str) -> int:
    return int(plain(cell).replace("\u2212", "-"))  # the pages write a true minus sign


def roll(cell: str) -> Roll:
    return Roll.parse(plain(cell))


def moves(cell: str) -> set[int]:
    """``"`8`, `7+1`"`` → the masks of the sets named."""
    return {Move.parse(part).mask for part in re.findall(r"`([^`]+)`", cell)}


# -- 1. sections ----------------------------------------------------------------------


def test_both_pages_have_the_same_numbered_sections() -> None:
    english, spanish = (section_numbers(page(path)) for path in PAGES)
    assert english == SECTIONS
    assert spanish == english


# -- 2. citations ---------------------------------------------------------------------


def _source_files() -> Iterator[Path]:
    for pattern in ("*.py", "*.js", "*.html"):
        yield from PACKAGE.rglob(pattern)


def test_every_section_the_code_cites_exists() -> None:
    sections = set(section_numbers(page(RULES_MD)))
    cited: dict[str, list[str]] = {}
    for path in _source_files():
        for number_ in CITATION.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(number_, []).append(str(path.relative_to(ROOT)))
    assert cited, "the code cites no section at all: the pattern is wrong"
    missing = {n: sorted(set(where)) for n, where in cited.items() if n not in sections}
    assert not missing, f"sections cited in the code but absent from docs/rules.md: {missing}"


# -- 3. names --------------------------------------------------------------------------


def _rule_flags() -> set[str]:
    parser = argparse.ArgumentParser(add_help=False)
    add_rules_options(parser)
    return {flag for action in parser._actions for flag in action.option_strings}


NAMES = sorted(
    {f.name for f in dataclasses.fields(Rules)}
    | {member.value for enum in (OneDie, Scoring, Mode) for member in enum}
    | set(PRESETS)
)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_every_option_value_and_preset_is_named(path: Path) -> None:
    text = page(path)
    missing = [name for name in NAMES if f"`{name}`" not in text]
    assert not missing, f"{path.name} never names (in backticks): {missing}"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_every_rule_flag_is_named(path: Path) -> None:
    text = page(path)
    flags = _rule_flags()
    assert "--one-die" in flags and "--no-shut-wins" in flags
    missing = sorted(flag for flag in flags if not re.search(re.escape(flag) + r"(?![\w-])", text))
    assert not missing, f"{path.name} never names the flags {missing}"


def _json(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_options_table_gives_the_defaults(path: Path) -> None:
    rows = body(page(path), "options")
    documented = {plain(row[0]): row for row in rows}
    assert set(documented) == {f.name for f in dataclasses.fields(Rules)}
    classic = Rules()
    for name, row in documented.items():
        default = re.findall(r"`([^`]+)`", row[2])[0]
        assert default == _json(getattr(classic, name)), f"{path.name}: default of {name}"
    long_default = re.findall(r"`([^`]+)`", documented["doubles_extra_turn"][2])
    assert long_default[1:] == [_json(Rules(mode=Mode.LONG).doubles_extra_turn), "long"]
    for name, row in documented.items():
        flag = "--" + name.replace("_", "-")
        assert flag in row[3], f"{path.name}: the flag of {name} is {flag}"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_presets_table_matches_the_presets(path: Path) -> None:
    rows = body(page(path), "presets")
    documented = {plain(row[0]): row[1] for row in rows}
    assert list(documented) == list(PRESETS)
    classic = Rules().to_dict()
    for name, cell in documented.items():
        sets = dict(re.findall(r"`(\w+) = ([^`]+)`", cell))
        changed = {
            key: _json(value) for key, value in PRESETS[name].to_dict().items() if value != classic[key]
        }
        assert sets == changed, f"{path.name}: preset {name}"


# -- 4. the worked examples, replayed ----------------------------------------------


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
@pytest.mark.parametrize("name,max_tiles", [("ways", None), ("ways-max", 2)])
def test_the_ways_to_make_a_total(path: Path, name: str, max_tiles: int | None) -> None:
    rows = body(page(path), name)
    assert rows
    for row in rows:
        total = number(row[0])
        if max_tiles is not None:
            assert number(row[1]) == max_tiles
        assert moves(row[-1]) == set(subsets_with_sum(9, total, max_tiles)), f"{path.name}: total {total}"
    if name == "ways":
        eight = next(row for row in rows if number(row[0]) == 8)
        assert moves(eight[1]) == {Move.parse(s).mask for s in ("8", "7+1", "6+2", "5+3", "5+2+1", "4+3+1")}


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_one_die_table(path: Path) -> None:
    header, *rows = table(page(path), "one-die")
    values = [OneDie(plain(cell)) for cell in header[1:]]
    assert set(values) == set(OneDie)
    for row in rows:
        mask = mask_of(tiles(row[0]))
        for value, cell in zip(values, row[1:], strict=True):
            assert Rules(one_die=value).one_die_allowed(mask) is YES[plain(cell)], (
                f"{path.name}: one die on {tiles(row[0])} under {value}"
            )


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_scoring_examples(path: Path) -> None:
    header, *rows = table(page(path), "scores")
    scorings = [Scoring(plain(cell)) for cell in header[2:]]
    assert set(scorings) == set(Scoring)
    first = rows[0]
    assert tiles(first[0]) == (1, 5, 9)
    assert roll(first[1]) == Roll.of(3, 1)
    for row in rows:
        open_tiles = tiles(row[0])
        last = 0 if plain(row[1]) == NONE_CELL else roll(row[1]).total
        size = max((9, *open_tiles))
        if open_tiles:  # the roll really ends the turn: no set of open tiles makes it
            assert not any(m & ~mask_of(open_tiles) == 0 for m in subsets_with_sum(size, last))
        for scoring, cell in zip(scorings, row[2:], strict=True):
            expected = Rules(tiles=size, scoring=scoring).score(mask_of(open_tiles), last)
            assert number(cell) == expected, f"{path.name}: {open_tiles} after {row[1]} under {scoring}"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_grade_table(path: Path) -> None:
    rows = body(page(path), "grades")
    covered: list[int] = []
    for cell, letter in rows:
        bounds = [int(n) for n in re.findall(r"\d+", cell)]
        low = bounds[0]
        high = bounds[1] if len(bounds) == 2 else (78 if re.search(r"more|más", cell) else low)
        for total in range(low, high + 1):
            assert grade(total) == plain(letter), f"{path.name}: grade of {total}"
        covered.extend(range(low, high + 1))
    assert covered == list(range(79)), "the grade table must cover every sum, 0 to 78, once"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_grade_examples(path: Path) -> None:
    rows = body(page(path), "grade-examples")
    for cell, total, letter in rows:
        assert sum(tiles(cell)) == number(total)
        assert grade(number(total)) == plain(letter), f"{path.name}: grade of {cell}"
    assert {plain(row[2]) for row in rows} == set("SABCF")


# The rules of each game example, as the page states them in its prose.
GAME_RULES = {
    "solo": Rules(mode=Mode.SOLO),
    "round": Rules(),
    "stake": Rules(stake=1),
    "elimination": Rules(mode=Mode.ELIMINATION),
    "elimination-tie": Rules(mode=Mode.ELIMINATION),
    "long": Rules(mode=Mode.LONG),
    "long-nothing": Rules(mode=Mode.LONG, tiles=4),
}


def roll_dice(state: Match, faces: tuple[int, ...]) -> Match:
    """Roll ``faces``, choosing that many dice first when the player has the choice."""
    if state.phase is Phase.CHOOSE:
        state = state.apply(DiceChoice(len(faces)))
    return state.apply(Roll(faces))


def two_dice(total: int) -> tuple[int, int]:
    """Two faces making ``total``, not a double when there is a choice."""
    for a in range(1, 7):
        if 1 <= total - a <= 6 and a != total - a:
            return a, total - a
    return total // 2, total // 2


def finish_turn(state: Match, open_tiles: tuple[int, ...]) -> Match:
    """Play the current turn so that exactly ``open_tiles`` are left open, then miss.

    Tiles are shut one per roll of two dice, highest first; the 1 goes with the
    smallest other tile. The last roll is a total no set of open tiles makes.
    """
    player, size = state.actor, state.rules.tiles
    assert not state.opening and set(open_tiles) <= set(state.board.open_tiles)
    rest = sorted(set(state.board.open_tiles) - set(open_tiles), reverse=True)
    plan = [(tile,) for tile in rest]
    if 1 in rest:
        rest.remove(1)
        partner = rest.pop()
        plan = [(tile,) for tile in rest] + [(partner, 1)]
    before = len(state.history)
    for group in plan:
        state = roll_dice(state, two_dice(sum(group)))
        state = state.apply(Move.of(group))
    if open_tiles:
        open_mask = mask_of(open_tiles)
        total = next(
            t for t in range(11, 2, -1)
            if not any(m & ~open_mask == 0 for m in subsets_with_sum(size, t))
        )
        state = roll_dice(state, two_dice(total))
    assert len(state.history) == before + 1, "the turn did not end where the page says"
    assert state.history[-1].player == player
    return state


def roll_off(text: str, name: str) -> tuple[tuple[str, ...], Match]:
    """The players (in seating order) and the match after the roll for the start of ``name``."""
    header, *rows = table(text, f"{name}-rolloff")
    players = tuple(header[1:])
    state = Match.new(GAME_RULES[name], players)
    for row in rows:
        for player, cell in zip(players, row[1:], strict=True):
            if plain(cell) == "·":
                continue
            assert state.phase is Phase.ROLL_OFF and state.actor is not None
            assert players[state.actor] == player, f"{player} does not roll for the start now"
            state = state.apply(Roll.of(number(cell)))
    assert state.phase is not Phase.ROLL_OFF, f"{name}: the roll for the start is not settled"
    return players, state


def play_rolls(state: Match, rows: list[list[str]], path: Path) -> Match:
    """Replay a roll-by-roll table: player, dice allowed, roll, tiles, board after."""
    for player, allowed, roll_cell, tiles_cell, board_cell, *_ in rows:
        where = f"{path.name}: {player} rolls {roll_cell}"
        assert state.actor is not None and state.players[state.actor] == player, where
        assert state.dice_options == tuple(int(n) for n in re.findall(r"\d", allowed)), where
        before = len(state.history)
        state = roll_dice(state, roll(roll_cell).dice)
        if plain(tiles_cell) != NONE_CELL:
            assert state.phase is Phase.MOVE, where
            state = state.apply(Move.parse(plain(tiles_cell)))
        else:
            assert state.phase is not Phase.MOVE, f"{where}: the roll could be used"
        board = state.history[-1].board if len(state.history) > before else state.board
        assert str(board) == plain(board_cell), where
    return state


def winner(players: tuple[str, ...], state: Match, words: list[str]) -> None:
    named = [word for word in words if word in players]
    assert named, "the Result line names no player in bold"
    assert state.is_over and state.winner is not None
    assert players[state.winner] == named[0]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_solo_turn(path: Path) -> None:
    text = page(path)
    rows = body(text, "solo-rolls")
    state = play_rolls(Match.new(GAME_RULES["solo"], [rows[0][0]]), rows, path)
    assert state.is_over
    last = state.history[-1]
    score, letter = result(text, "solo-rolls")
    assert last.score == int(score)
    assert grade(last.board.open_sum) == letter
    assert last.board.open_tiles == (1, 5, 9)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
@pytest.mark.parametrize("name", ["round", "stake", "elimination", "elimination-tie"])
def test_the_games_turn_by_turn(path: Path, name: str) -> None:
    """Rounds, stakes and elimination: who plays when, each score, each total, the winner."""
    text = page(path)
    players, state = roll_off(text, name)
    header, *rows = table(text, f"{name}-turns")
    with_totals = len(header) == 5
    running = dict.fromkeys(players, 0)
    for row in rows:
        round_cell, player, open_cell, score_cell = row[:4]
        where = f"{path.name}: {name}, {player} in round {round_cell}"
        assert state.actor is not None and players[state.actor] == player, where
        tiebreak = not round_cell.isdigit()
        assert (state.tiebreak > 0) is tiebreak, where
        if not tiebreak:
            assert state.round == int(round_cell), where
        state = finish_turn(state, tiles(open_cell))
        assert state.history[-1].score == number(score_cell), where
        if with_totals:
            if not tiebreak:
                running[player] += number(score_cell)
            assert number(row[4]) == running[player], f"{where}: the total"
    winner(players, state, result(text, f"{name}-turns"))
    if with_totals:
        assert dict(zip(players, state.totals, strict=True)) == running
    if name == "stake":
        *steps, balance = body(text, "stake-ledger")
        for column in range(1, len(players) + 1):
            assert sum(number(step[column]) for step in steps) == number(balance[column])
        assert tuple(number(cell) for cell in balance[1:]) == state.ledger


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_long_game(path: Path) -> None:
    text = page(path)
    players, state = roll_off(text, "long")
    rows = body(text, "long-rolls")
    opener = players.index(next(row[0] for row in rows if row[0] != rows[0][0]))
    state = play_rolls(state, rows, path)
    winner(players, state, result(text, "long-rolls"))
    assert state.winner == opener
    opening = [turn for turn in state.history if turn.opening]
    assert opening and all(turn.player == opener for turn in opening)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_long_game_when_the_starter_shuts_nothing(path: Path) -> None:
    text = page(path)
    players, state = roll_off(text, "long-nothing")
    rows = body(text, "long-nothing-rolls")
    state = play_rolls(state, rows, path)
    next_player = [word for word in result(text, "long-nothing-rolls") if word in players]
    assert not state.is_over and state.actor is not None
    assert players[state.actor] == next_player[0]
    assert state.board.is_full and not state.opening


# -- 5. the repository stands alone ------------------------------------------------


OUTSIDE = ("../shared", "shared/", "SPEC.md")


def _own_files() -> Iterator[Path]:
    yield ROOT / "README.md"
    yield from sorted(DOCS.glob("*.md"))
    for pattern in ("*.py", "*.js", "*.html", "*.css"):
        yield from sorted(PACKAGE.rglob(pattern))


def test_nothing_points_outside_the_repository() -> None:
    found = []
    for path in _own_files():
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for needle in OUTSIDE:
                if needle in line:
                    found.append(f"{path.relative_to(ROOT)}:{lineno}: {needle}")
    assert not found, "references to files outside the repository:\n" + "\n".join(found)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_rule_pages_link_only_inside_the_repository(path: Path) -> None:
    text = page(path)
    assert "://" not in text, f"{path.name} links to the web"
    assert "seeds/" not in text
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        resolved = (path.parent / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{path.name}: broken link {target}"

