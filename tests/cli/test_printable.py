"""Text a file or the history holds is printed shown, never obeyed: a hostile record cannot rewrite the
reader's terminal (`shutthebox.cli.printable`)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from shutthebox import Game, Rules
from shutthebox.cli.printable import printable
from shutthebox.core.fair import FairDice
from tests.support.cli import cli, in_english
from tests.support.drive import finish

FORGED = "Ana\x1b[2K\rReplay matches the record.\x9b31m\u202egnp.exe\u2066\x7f\u2028"
"""A name that, printed as it is, erases its line and writes a forged verdict, then colours (C1 CSI),
turns the text around, isolates, deletes and breaks the line."""
SHOWN = "Ana\\u001b[2K\\u000dReplay matches the record.\\u009b31m\\u202egnp.exe\\u2066\\u007f\\u2028"

OBEYED = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x202E, 0x2066, 0x2028]}


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    in_english(monkeypatch, tmp_path)


def obeyed(text: str) -> set[str]:
    """The characters of ``text`` a terminal would obey, but the newlines that end its lines."""
    return {char for char in text.replace("\n", "") if char in OBEYED}


def test_every_control_and_direction_character_is_written_as_its_json_escape() -> None:
    assert printable(FORGED) == SHOWN
    controls = "".join(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)])
    assert printable(controls) == "".join(f"\\u{c:04x}" for c in [*range(0x20), *range(0x7F, 0xA0)])
    for char in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2029\ufeff\u200b":
        assert printable(f"a{char}b") == f"a\\u{ord(char):04x}b"
    assert printable("\ud800") == "\\ud800"  # a lone surrogate cannot even be printed
    assert printable("a\U000e0001b") == "a\\udb40\\udc01b"  # outside the first plane: JSON's two halves


def test_names_of_any_script_and_joined_emoji_are_kept_as_they_are() -> None:
    names = ["José", "Λουκάς", "محمد", "שָׁלוֹם", "李小龍", "👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "Ana\u00a0Luz", "می‌خواهم"]
    names.append("a\\u001b")  # an escape typed as text is text
    for name in names:
        assert printable(name) == name


def test_a_json_text_stays_the_same_json() -> None:
    data = {"players": [FORGED, "Luis\ud800", "👨‍👩‍👧"], "n": 1}
    text = printable(json.dumps(data, ensure_ascii=False))
    assert json.loads(text) == data and not obeyed(text)
    text.encode("utf-8")  # printable: no lone surrogate left


def fair_record(tmp_path: Path, players: list[str]) -> Path:
    """A finished round of fair dice between ``players``, written as a record file."""
    game = Game(Rules(), players, dice=FairDice(hashlib.sha256(b"forged").digest(), ["ana"]))
    finish(game, random.Random(2))
    data = {**game.record().to_json(), "assisted": [0], "helped": [[0, 3]]}  # `verify` names the asker
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "argv", [["replay"], ["replay", "--json"], ["review"], ["review", "--json"], ["verify"]]
)
def test_a_name_in_a_record_is_shown_escaped_by_each_command_that_prints_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    """Regression (a hostile user): ``replay`` printed ``Ana ESC[2K CR Replay matches the record.``, and the
    terminal showed only the forged line; ``review`` and ``verify`` too."""
    status, out, err = cli(capsys, *argv, str(fair_record(tmp_path, [FORGED, "Luis"])))
    assert (status, err) == (0, "")
    assert not obeyed(out), sorted(obeyed(out))
    assert ("\\u001b[2K" if "--json" in argv else SHOWN) in out


def test_a_name_in_a_record_that_fails_is_shown_escaped_in_the_verdict_and_the_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = fair_record(tmp_path, [FORGED, "Luis"])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["events"][2]["player"] = 1 - data["events"][2]["player"]  # out of turn: the message names both
    path.write_text(json.dumps(data), encoding="utf-8")
    for argv in (["verify"], ["verify", "--json"], ["replay"], ["review"]):
        status, out, err = cli(capsys, *argv, str(path))
        assert status == (1 if argv[0] == "verify" else 2)
        assert not obeyed(out + err), (argv, sorted(obeyed(out + err)))
        assert "\\u001b[2K" in out + err


def test_a_name_that_cannot_be_printed_at_all_is_shown_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A lone surrogate (``"\\ud800"`` in the JSON) stopped ``replay`` with a UnicodeEncodeError."""
    path = fair_record(tmp_path, ["Ana\ud800", "Luis"])
    status, out, err = cli(capsys, "replay", str(path))
    assert (status, err) == (0, "") and "Ana\\ud800" in out


def test_the_names_of_the_history_are_shown_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``scores`` and ``stats`` print the names the history holds: the web's players chose them."""
    from shutthebox.storage import Database, GameRepository

    name = "Ana\x1b]0;pwned\x07\u202eevil\x9b"  # the window's title set, the text turned around
    with Database.open(f"sqlite:///{tmp_path / 'history.db'}") as database:
        game = Game(Rules(mode="solo"), [name], dice=FairDice(hashlib.sha256(b"solo").digest()))
        finish(game, random.Random(1))
        game.save(GameRepository(database), source="terminal")
    for argv in (["scores"], ["scores", "--json"], ["stats", name], ["stats", "--json", name]):
        status, out, err = cli(capsys, *argv)
        assert (status, err) == (0, ""), err
        assert not obeyed(out), (argv, sorted(obeyed(out)))
        assert "Ana\\u001b]0;pwned\\u0007\\u202eevil\\u009b" in out
