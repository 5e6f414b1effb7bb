"""``shutthebox verify RECORD``: a fair game is proven (exit 0); every kind of tampering names the event
that fails (exit 1); a record that cannot be read is not proven either (exit 1, one line); no file is
a one-line error (exit 2). Never a traceback."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shutthebox import Game, Rules
from shutthebox.cli import main
from shutthebox.core.fair import FairDice
from tests.support.cli import in_english
from tests.support.drive import finish

SHUTTHEBOX = Path(sys.executable).parent / "shutthebox"
JSON_KEYS = {"proven", "event", "reason", "dice", "events", "kind", "commitment"}


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    in_english(monkeypatch)


def verify(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``shutthebox verify ARGV`` in process: exit status, standard output, standard error."""
    try:
        status = main(["verify", *argv])
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def fair_game(seed: int = 1) -> Game:
    """A finished two-player round under fair dice (a known server seed, two client seeds)."""
    server = hashlib.sha256(f"verify {seed}".encode()).digest()
    game = Game(Rules(), ["Ana", "Luis"], dice=FairDice(server, ["ana-seed", "luis-seed"]))
    finish(game, random.Random(seed))
    return game


def write(tmp_path: Path, data: dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def first(data: dict[str, Any], kind: str, after: int = 0) -> int:
    return next(i for i, event in enumerate(data["events"]) if kind in event and i >= after)


def test_a_fair_game_is_proven(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = fair_game()
    data = game.record().to_json()
    status, out, err = verify(capsys, str(write(tmp_path, data)))
    assert status == 0 and err == ""
    dice = sum(len(e["roll"]) for e in data["events"] if "roll" in e)
    lines = out.splitlines()
    assert lines[0] == (
        f"Proven: {dice} dice recomputed from the revealed seed, {len(data['events'])} events replayed."
    )
    fairness = data["fairness"]
    assert f"published before the first roll): {fairness['commitment']}" in lines[1]
    assert lines[2] == f"Server seed (revealed when the game ended): {fairness['server_seed']}"
    assert lines[3] == "Client seeds: ana-seed, luis-seed"
    assert len(lines) == 4


def test_a_proven_game_with_a_hint_says_how_the_askers_turns_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = fair_game().record().to_json()
    status, out, _ = verify(capsys, str(write(tmp_path, {**data, "assisted": [1], "helped": [[1, 3]]})))
    assert status == 0
    assert out.splitlines()[-1] == (
        "Hints were asked by Luis: each turn with a hint counts as it stood when it came."
    )
    legacy = {**data, "version": 3, "assisted": [1]}  # a version 3 record: the asker's turns were out
    del legacy["helped"]
    status, out, _ = verify(capsys, str(write(tmp_path, legacy)))
    assert status == 0
    assert out.splitlines()[-1] == "Hints were asked by Luis: their turns count for no best."


def tamper_die(data: dict[str, Any]) -> int:
    index = first(data, "roll", after=3)
    data["events"][index]["roll"][0] = data["events"][index]["roll"][0] % 6 + 1
    return index


def tamper_move(data: dict[str, Any]) -> int:
    index = next(i for i, e in enumerate(data["events"]) if "move" in e and e["move"] != [1])
    data["events"][index]["move"] = [1]  # the dice rolled more than 1 (or tile 1 is shut)
    return index


def tamper_client_seed(data: dict[str, Any]) -> int:
    data["fairness"]["client_seeds"][1] = "someone-else"
    return 0  # the first die is already another one


def swap_events(data: dict[str, Any]) -> int:
    index = first(data, "roll", after=4)
    data["events"][index], data["events"][index + 1] = data["events"][index + 1], data["events"][index]
    return index


TAMPERING = [
    pytest.param(tamper_die, "is not what the fair dice give", id="a-die"),
    pytest.param(tamper_move, "", id="a-move"),
    pytest.param(tamper_client_seed, "is not what the fair dice give", id="a-client-seed"),
    pytest.param(swap_events, "", id="two-events-swapped"),
]


@pytest.mark.parametrize(("tamper", "why"), TAMPERING)
def test_tampering_names_the_event_that_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tamper: Any, why: str
) -> None:
    data = fair_game().record().to_json()
    index = tamper(data)
    path = write(tmp_path, data)
    status, out, err = verify(capsys, str(path))
    assert status == 1 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"Not proven: event {index}: ") and why in lines[0]
    player = data["players"][data["events"][index]["player"]]
    assert lines[1].startswith(f"Event {index} as recorded: {player} ")
    status, out, _ = verify(capsys, "--json", str(path))
    verdict = json.loads(out)
    assert status == 1 and set(verdict) == JSON_KEYS
    assert verdict["proven"] is False and verdict["event"] == index
    assert verdict["reason"] == lines[0].removeprefix("Not proven: ")


@pytest.mark.parametrize("field", ["server_seed", "commitment"])
def test_a_changed_server_seed_or_commitment_fails_as_a_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str
) -> None:
    data = fair_game().record().to_json()
    data["fairness"][field] = hashlib.sha256(b"another").hexdigest()
    path = write(tmp_path, data)
    status, out, _ = verify(capsys, str(path))
    assert status == 1
    assert out == "Not proven: fairness: the server seed is not the one committed to (sha256 differs)\n"
    status, out, _ = verify(capsys, "--json", str(path))
    assert status == 1 and json.loads(out)["event"] is None


def test_json_of_a_proven_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = fair_game(2).record().to_json()
    status, out, err = verify(capsys, "--json", str(write(tmp_path, data)))
    assert status == 0 and err == "" and len(out.splitlines()) == 1
    verdict = json.loads(out)
    assert set(verdict) == JSON_KEYS
    assert verdict["proven"] is True and verdict["event"] is None
    assert verdict["dice"] == sum(len(e["roll"]) for e in data["events"] if "roll" in e)
    assert verdict["events"] == len(data["events"])
    assert verdict["kind"] == "ranked" and verdict["commitment"] == data["fairness"]["commitment"]
    assert verdict["reason"].startswith("proven: ")


def test_games_that_are_not_fair_are_not_proven(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    practice = Game(Rules(mode="solo"), ["Ana"], seed=4)  # type: ignore[arg-type]
    finish(practice, random.Random(0))
    companion = Game(Rules(mode="solo"), ["Ana"], by_hand=True)  # type: ignore[arg-type]
    finish(companion, random.Random(0))
    playing = Game(Rules(mode="solo"), ["Ana"])  # type: ignore[arg-type]
    playing.roll()
    for game, why, kind in [
        (practice, "the dice come from seed 4, chosen for practice: nothing proves them", "practice"),
        (companion, "the record has no fair dice to verify (typed in by hand)", "companion"),
        (playing, "the server seed is not revealed yet: the game is not over", "practice"),
    ]:
        path = write(tmp_path, game.record().to_json())
        status, out, _ = verify(capsys, str(path))
        assert (status, out) == (1, f"Not proven: {why}\n")
        status, out, _ = verify(capsys, "--json", str(path))
        assert status == 1 and json.loads(out)["kind"] == kind


def test_why_a_game_is_not_proven_is_said_in_spanish_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Regression (a hostile user, issue 29): the verdicts `core.verify` gives through a helper were
    missing from the catalog, so a Spanish reader got "No demostrado: the dice come from seed 4…"."""
    practice = Game(Rules(mode="solo"), ["Ana"], seed=4)  # type: ignore[arg-type]
    finish(practice, random.Random(0))
    status, out, _ = verify(capsys, "--lang", "es", str(write(tmp_path, practice.record().to_json())))
    assert (status, out) == (1, "No demostrado: los dados salen de la semilla 4, elegida para practicar: "
                                "nada los demuestra\n")


def test_a_record_that_cannot_be_read_is_not_proven_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{oops", encoding="utf-8")
    status, out, err = verify(capsys, str(junk))
    assert status == 1 and err == "" and len(out.splitlines()) == 1
    assert out.startswith("Not proven: record is not valid JSON: ")

    data = fair_game().record().to_json()
    index = first(data, "move", after=5)
    data["events"][index] = {"player": 0, "move": [5], "roll": [2, 3]}  # not one action
    path = write(tmp_path, data)
    status, out, err = verify(capsys, str(path))
    assert status == 1 and err == "" and len(out.splitlines()) == 1
    assert out.startswith(f"Not proven: event {index}: ")
    status, out, _ = verify(capsys, "--json", str(path))
    verdict = json.loads(out)
    assert status == 1 and set(verdict) == JSON_KEYS
    assert (verdict["proven"], verdict["event"], verdict["kind"], verdict["dice"]) == (False, index, None, 0)

    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00{")
    status, out, err = verify(capsys, str(binary))
    assert (status, err) == (1, "") and out.startswith("Not proven: record ") and "is not UTF-8 text" in out
    for command in ("replay", "review"):  # the same one line, never a traceback
        try:
            status = main([command, str(binary)])
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
        assert status != 0 and "is not UTF-8 text" in capsys.readouterr().err


def test_no_file_or_a_folder_is_a_one_line_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for path, why in [(tmp_path / "missing.json", "No such file or directory"), (tmp_path, "Is a directory")]:
        for argv in ([str(path)], ["--json", str(path)]):
            status, out, err = verify(capsys, *argv)
            assert status == 2 and out == ""
            assert err == f"shutthebox verify: error: cannot read record {str(path)!r}: {why}\n"


def test_the_installed_command_answers_with_its_exit_status(tmp_path: Path) -> None:
    env = {**os.environ, "LANG": "C"}
    good = write(tmp_path, fair_game().record().to_json(), "good.json")
    bad_data = fair_game().record().to_json()
    tamper_die(bad_data)
    bad = write(tmp_path, bad_data, "bad.json")
    for path, status in [(good, 0), (bad, 1), (tmp_path / "missing.json", 2)]:
        done = subprocess.run([str(SHUTTHEBOX), "verify", str(path)], capture_output=True, text=True,
                              timeout=60, check=False, env=env)
        assert done.returncode == status, done.stderr
        assert "Traceback" not in done.stderr


def test_the_verdict_in_spanish(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = fair_game().record().to_json()
    status, out, _ = verify(capsys, "--lang", "es", str(write(tmp_path, data)))
    assert status == 0 and "Semillas de cliente: ana-seed, luis-seed" in out
    index = tamper_die(data)
    status, out, _ = verify(capsys, "--lang", "es", str(write(tmp_path, data)))
    assert status == 1 and out.startswith("No demostrado: ")
    assert f"Acción {index} tal como se registró: " in out


def test_no_word_of_the_verdict_escapes_the_catalog(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """In a pseudo-language (every message in ⟦look-alikes⟧) only data is left in plain ASCII:
    hex seeds, client seeds, the path, numbers and rolls; the players' names are Greek."""
    from shutthebox.i18n import LOCALES_VAR
    from tools.catalogs import PSEUDO, unmarked_words, write_pseudo

    monkeypatch.setenv(LOCALES_VAR, str(write_pseudo(tmp_path / "locale")))
    server = hashlib.sha256(b"pseudo").digest()
    game = Game(Rules(), ["Άννα", "Λουκάς"], dice=FairDice(server, ["ana-seed"]))
    finish(game, random.Random(3))
    game.assist(0)
    data = game.record().to_json()
    fairness = data["fairness"]
    proven = write(tmp_path, data, "proven.json")
    tamper_die(data)
    tampered = write(tmp_path, data, "tampered.json")
    (tmp_path / "junk.json").write_text("{oops", encoding="utf-8")
    detail = "Expecting property name enclosed in double quotes"  # Python's JSON parser says it: data
    values = [fairness["commitment"], fairness["server_seed"], "ana-seed", str(tmp_path), detail]
    for path, status in [(proven, 0), (tampered, 1), (tmp_path / "junk.json", 1)]:
        got, out, err = verify(capsys, "--lang", PSEUDO, str(path))
        assert got == status and err == "" and "⟦" in out
        assert not unmarked_words([out], (), values), out
        unwrapped = out.replace("⟦", " ").replace("⟧", " ")
        assert not unmarked_words([unwrapped], (), values), out  # no English filled into a message


def test_a_file_larger_than_any_record_is_refused_by_each_command_that_reads_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Regression (a hostile user): ``replay /dev/zero`` grew to gigabytes. Past 32 MB (`MOST_BYTES`)
    a file is not read on: ``replay`` and ``review`` refuse it as any bad record (2), ``verify`` finds
    it not proven (1), each in one line."""
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(33 << 20)  # sparse: 33 MB of zeros on no disk
    said = f"record {str(huge)!r} is over 32 MB, larger than any game record: it is not read"
    status, out, err = verify(capsys, str(huge))
    assert (status, out, err) == (1, f"Not proven: {said}\n", "")
    for command in ("replay", "review"):
        try:
            status = main([command, str(huge)])
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
        assert (status, capsys.readouterr()) == (2, ("", f"shutthebox {command}: error: {said}\n"))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_file_is_read_in_bounded_memory() -> None:
    """``/dev/zero`` ends nowhere: each command stops within its bound, in a process allowed 1 GB."""
    probe = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from shutthebox.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "LANG": "C"}
    for command, status in (("replay", 2), ("verify", 1)):
        done = subprocess.run([sys.executable, "-c", probe, command, "/dev/zero"], capture_output=True,
                              text=True, timeout=60, check=False, env=env)
        assert done.returncode == status, done.stderr[-300:]
        assert "larger than any game record" in done.stdout + done.stderr


def test_a_huge_server_seed_is_quoted_by_its_first_characters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Regression (a hostile user): a 10 MB ``server_seed`` came back whole in the one line of
    ``verify`` and of ``replay``: ten megabytes of terminal. At most its first 40 characters now."""
    data = fair_game().record().to_json()
    data["fairness"]["server_seed"] = "f" * 10_000_000
    path = write(tmp_path, data)
    said = "record fairness: fairness server_seed must be 64 hex digits or null, not '" + "f" * 39 + "…'"
    assert verify(capsys, str(path)) == (1, f"Not proven: {said}\n", "")
    try:
        status = main(["replay", str(path)])
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    assert (status, capsys.readouterr()) == (2, ("", f"shutthebox replay: error: {said}\n"))


def test_the_help_says_the_exit_status_each_kind_of_file_gets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Regression (a hostile user): ``verify --help`` promised 2 "when the file cannot be read", and a
    file that could not be read as a record (not UTF-8 text) answered 1. The help says what the code
    does: a file that is not a record is not proven (1); 2 is for no file to read, or a bad command line."""
    status, out, _ = verify(capsys, "--help")
    said = " ".join(out.split())
    assert status == 0
    assert ("1 when not: the first event that fails is named, and a file that is not a game record (not "
            "JSON, not UTF-8 text, larger than any record) is not proven either; 2 when there is no file "
            "to read (none by that name, a folder, no permission) or the command line is refused.") in said
    (tmp_path / "latin1.json").write_bytes(b"\xff\xfe{")
    (tmp_path / "junk.json").write_text("{oops", encoding="utf-8")
    (tmp_path / "huge.json").write_bytes(b" " * ((32 << 20) + 1))
    for name in ("latin1.json", "junk.json", "huge.json"):
        status, out, err = verify(capsys, str(tmp_path / name))
        assert (status, err) == (1, "") and out.startswith("Not proven: "), name
    for path in (tmp_path / "missing.json", tmp_path):
        assert verify(capsys, str(path))[0] == 2
    assert verify(capsys, "--nope", str(tmp_path / "junk.json"))[0] == 2

    def refused(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", refused)  # no permission (the tests may run as root)
    status, out, err = verify(capsys, str(tmp_path / "junk.json"))
    assert (status, out) == (2, "") and "Permission denied" in err
