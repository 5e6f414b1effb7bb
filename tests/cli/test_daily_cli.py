"""``shutthebox daily``: the day's challenges from the history database the local web app deals
them from, and a practice on the very dice of the ranked attempts, which counts for no best."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import sys
from datetime import date, timedelta

import pytest

from shutthebox.core.daily import Challenge
from shutthebox.core.fair import die
from shutthebox.storage import Database
from shutthebox.storage.daily import DailyRepository
from tests.support.cli import cli


def seeds_kept(day: date) -> dict[int, bytes]:
    """The seeds the web app would deal that day's challenges from (the same database)."""
    with Database.open(os.environ["SHUTTHEBOX_DB"]) as database:
        found = DailyRepository(database).seeds([Challenge(day, t) for t in (9, 10, 12)])
    return {challenge.tiles: seed for challenge, seed in found.items()}


def test_json_names_the_days_challenges_and_reveals_only_the_days_over(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = cli(capsys, "daily", "--json")
    assert status == 0, err
    shown = json.loads(out)
    today = date.fromisoformat(shown["today"])
    kept = seeds_kept(today)
    assert [c["tiles"] for c in shown["challenges"]] == [9, 10, 12]
    for challenge in shown["challenges"]:
        assert challenge["server_seed"] is None  # the day is not over
        assert challenge["commitment"] == hashlib.sha256(kept[challenge["tiles"]]).hexdigest()
    assert json.loads(cli(capsys, "daily", "--json")[1]) == shown  # made once, then kept
    yesterday = (today - timedelta(days=1)).isoformat()
    past = json.loads(cli(capsys, "daily", "--json", "--day", yesterday)[1])
    for challenge in past["challenges"]:
        seed = bytes.fromhex(challenge["server_seed"])
        assert hashlib.sha256(seed).hexdigest() == challenge["commitment"]


def test_a_practice_rolls_the_days_first_dice_and_keeps_its_seed_secret(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))  # roll once, then the input ends
    status, out, err = cli(capsys, "--lang", "en", "daily", "Ana", "--plain", "--tiles", "10")
    assert status == 1 and "left unfinished" in out + err, (out, err)  # not a finished practice
    assert "counts for no best" in out and "Rules: 10 tiles · solo · one die when open tiles sum ≤ 6" in out
    found = re.search(r"Ana rolls (\d)\+(\d) = \d+", out)
    assert found is not None, out
    today = json.loads(cli(capsys, "daily", "--json")[1])["today"]
    challenge = Challenge.parse(today, 10)
    seed = seeds_kept(challenge.day)[10]
    first_roll = (die(seed, [challenge.client_seed], 0), die(seed, [challenge.client_seed], 1))
    assert (int(found[1]), int(found[2])) == first_roll
    assert seed.hex() not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--tiles", "8"], "9, 10, 12 tiles, not 8"), (["--day", "2026-13-01"], "YYYY-MM-DD, not '2026-13-01'")],
)
def test_a_wrong_board_or_day_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = cli(capsys, "daily", *argv)
    assert status == 2 and out == "" and message in err and "Traceback" not in err
