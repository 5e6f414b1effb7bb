"""The study commands exactly as issue 3 gives them: solve, hint, simulate, review.

Expected values come from the seeds and from REFERENCES.md, not from the solver.
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path

import pytest

from shutthebox import Game, Move, Roll, Rules, ScriptedDice
from shutthebox.cli import main
from tests.support.oracle import TurnRules
from tests.support.round_oracle import round_oracle


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["--lang", "en", *argv]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # --json prints one object on one line
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def run_text(capsys: pytest.CaptureFixture[str], lang: str, *argv: str) -> str:
    assert main(["--lang", lang, *argv]) == 0
    return capsys.readouterr().out


def test_solve_json_and_exact_pin_the_published_shut_probability(capsys: pytest.CaptureFixture[str]) -> None:
    # Durango Bill / REFERENCES.md: 9 tiles, two dice always, max P(shut) = 466473281/6530347008.
    data = run_json(
        capsys, "solve", "--tiles", "9", "--one-die", "never", "--scoring", "sum",
        "--objective", "shut", "--exact", "--json",
    )
    assert {"tiles", "one_die", "scoring", "objective", "value"} <= set(data)
    assert (data["tiles"], data["one_die"], data["scoring"], data["objective"]) == (9, "never", "sum", "shut")
    assert data["exact"] == "466473281/6530347008"
    assert data["value"] == pytest.approx(466473281 / 6530347008, abs=1e-12)


def test_solve_text_prints_the_rational(capsys: pytest.CaptureFixture[str]) -> None:
    # Minimum expected score with two dice always (REFERENCES.md): 27323400707/2448880128.
    out = run_text(capsys, "en", "solve", "--one-die", "never", "--exact")
    assert "11.157508444" in out and "exactly 27323400707/2448880128" in out
    out = run_text(capsys, "es", "solve", "--one-die", "never", "--exact")
    assert "exactamente 27323400707/2448880128" in out


def test_solve_beat_needs_a_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--objective", "beat"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--target" in err


def test_solve_table_is_the_whole_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "policy.csv"
    run_text(capsys, "en", "solve", "--one-die", "never", "--table", str(path))
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2**9 - 1  # every board but the shut box
    eight = next(r for r in rows if r["open"] == "8")
    assert float(eight["value"]) == pytest.approx(6.888889, abs=1e-6)  # Bowen: V({8}) = 6.888889
    assert eight["two_dice_8"] == "8" and eight["two_dice_7"] == "-"
    full = next(r for r in rows if r["open"] == "1 2 3 4 5 6 7 8 9")
    assert full["dice"] == "2" and full["two_dice_9"] == "9"


@pytest.mark.parametrize(
    ("scoring", "score"), [("sum", 15), ("sum-plus-roll", 19), ("digits", 159), ("count", 3)]
)
def test_hint_when_no_move_is_possible(capsys: pytest.CaptureFixture[str], scoring: str, score: int) -> None:
    # Seeds 000/001: with 1, 5 and 9 open a roll of 3+1 ends the turn.
    data = run_json(capsys, "hint", "--open", "1,5,9", "--dice", "3,1", "--scoring", scoring, "--json")
    assert data["turn_over"] is True and data["moves"] == []
    assert (data["score"], data["grade"]) == (score, "C")


@pytest.mark.parametrize(
    "argv",
    [
        ["--open", "-"], ["--open", "-", "--json"], ["--open", "-", "--dice", "3,4"],
        ["--open", "-", "--preset", "long"], ["--open", "-", "--objective", "shut"],
    ],
)
def test_hint_on_a_shut_box_says_the_turn_is_over(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Regression (a hostile user): ``hint --open -`` ranked two dice against one die (both -0.00) for a
    box already shut, where no roll comes; ``--dice 3,4`` gave a turn over 'with score 0' for a roll
    that cannot happen. Refused in one line, as a roll the rules forbid is (status 2)."""
    for lang, said in (
        ("en", "--open -: the box is already shut, so the turn is over: there is no choice left to rank"),
        ("es", "--open -: la caja ya está cerrada, así que el turno ha terminado: no queda ninguna "
               "opción que clasificar"),
    ):
        assert main(["--lang", lang, "hint", *argv]) == 2
        assert capsys.readouterr() == ("", f"shutthebox hint: error: {said}\n")


def test_hint_for_the_opener_of_an_open_board_says_the_turn_is_over(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The long game's opener works on the shut tiles: every tile open leaves nothing to open (§5.4)."""
    every = ",".join(map(str, range(1, 10)))
    assert main(["--lang", "en", "hint", "--preset", "long", "--opening", "--open", every]) == 2
    assert "every tile is already open, so the opener's turn is over" in capsys.readouterr().err
    data = run_json(capsys, "hint", "--preset", "long", "--opening", "--open", "-", "--json")  # all to open
    assert data["open"] == [] and len(data["dice"]) >= 1  # type: ignore[arg-type]


def test_hint_ranks_the_moves_with_their_loss(capsys: pytest.CaptureFixture[str]) -> None:
    # Bowen: {1,4,5,8} and a 9, two dice always: 4+5 leaves {1,8} (6.889), 1+8 leaves {4,5} (7.028).
    data = run_json(capsys, "hint", "--open", "1,4,5,8", "--dice", "3,6", "--one-die", "never", "--json")
    moves = data["moves"]
    assert isinstance(moves, list)
    assert [m["shut"] for m in moves] == [[5, 4], [8, 1]]
    assert moves[0]["value"] == pytest.approx(6.888889, abs=1e-6) and moves[0]["loss"] == 0
    assert moves[1]["value"] == pytest.approx(7.027778, abs=1e-6)
    assert moves[1]["loss"] == pytest.approx(moves[1]["value"] - moves[0]["value"])
    assert data["turn_over"] is False


def test_hint_before_rolling_values_one_die_against_two(capsys: pytest.CaptureFixture[str]) -> None:
    # {1, 2} open: one die makes 1 or 2 (each then leaves one tile), by hand E = 23/12.
    data = run_json(capsys, "hint", "--open", "1,2", "--json")
    dice = data["dice"]
    assert isinstance(dice, list)
    assert dice[0]["dice"] == 1 and dice[0]["value"] == pytest.approx(float(Fraction(23, 12)))
    assert dice[1]["dice"] == 2 and dice[1]["loss"] > 0
    out = run_text(capsys, "es", "hint", "--open", "1,4,5,8", "--dice", "3,6")
    assert "cerrar 5+4" in out and "puntos perdidos" in out


def test_simulate_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png, svg = tmp_path / "scores.png", tmp_path / "scores.svg"
    data = run_json(capsys, "simulate", "--strategy", "optimal", "--games", "20000", "--seed", "3",
                    "--json", "--plot", str(png))
    assert {"games", "mean_score", "shut_rate", "games_per_second"} <= set(data)
    assert data["games"] == 20000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = run_json(capsys, "simulate", "--strategy", "optimal", "--games", "20000", "--seed", "3",
                     "--json", "--plot", str(svg))
    assert again["mean_score"] == data["mean_score"] and again["shut_rate"] == data["shut_rate"]
    assert "<svg" in svg.read_text(encoding="utf-8")


def test_simulate_refuses_a_bad_plot_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "10", "--plot", "scores.pdf"]) == 2
    assert ".png or .svg" in capsys.readouterr().err


def test_simulate_matches_counts_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "simulate", "--strategy", "optimal", "--vs", "random", "--games", "30",
                    "--mode", "round", "--json")
    wins = data["wins"]
    assert isinstance(wins, dict) and set(wins) == {"optimal", "random"}
    assert sum(wins.values()) + data["draws"] == 30


def test_review_grades_a_recorded_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules(mode="solo")
    game = Game(rules, ["Ana"], dice=ScriptedDice([Roll.of(4, 5), Roll.of(1, 1)]))
    game.roll()
    game.act(Move.parse("6+2+1"))  # the worst way to use a 9 on a full board
    game.roll()  # 1+1: tiles 1 and 2 are shut, the turn is over
    assert game.state.is_over
    path = tmp_path / "game.json"
    game.record().save(path)
    data = run_json(capsys, "review", str(path), "--json")
    decisions = data["decisions"]
    assert isinstance(decisions, list) and decisions[0]["chosen"] == {"shut": [6, 2, 1]}
    assert decisions[0]["best"] == {"shut": [9]} and decisions[0]["verdict"] == "blunder"
    out = run_text(capsys, "en", "review", str(path))
    assert "blunder" in out and "best shut 9" in out


# -- rounds of two to eight (issue 17) -----------------------------------------------------------------
def test_solve_a_round_of_three_gives_every_seat_against_the_brute_force(
    capsys: pytest.CaptureFixture[str],
) -> None:
    oracle = round_oracle(TurnRules(4), 3, "win", True, 3)
    data = run_json(capsys, "solve", "--tiles", "4", "--objective", "win", "--players", "3", "--json")
    assert (data["players"], data["seat"], data["best"], data["ties"]) == (3, 1, None, 1)
    assert data["shut_wins"] is True
    assert data["seats"] == pytest.approx([float(v) for v in oracle.seats], abs=1e-12)
    assert data["value"] == data["seats"][0]  # type: ignore[index]
    later = run_json(
        capsys, "solve", "--tiles", "4", "--objective", "win", "--players", "3",
        "--seat", "3", "--best", "4", "--ties", "2", "--json",
    )
    assert later["value"] == pytest.approx(float(oracle.mover(2, 4, 2)), abs=1e-12)
    out = run_text(capsys, "es", "solve", "--tiles", "4", "--objective", "win", "--players", "3")
    assert "3 jugadores" in out and "puesto 3" in out


@pytest.mark.slow
def test_solve_stakes_and_the_round_of_two(capsys: pytest.CaptureFixture[str]) -> None:
    oracle = round_oracle(TurnRules(4), 4, "stake", False, 4)
    data = run_json(
        capsys, "solve", "--tiles", "4", "--no-shut-wins", "--objective", "stake", "--players", "4", "--json"
    )
    assert data["seats"] == pytest.approx([float(v) for v in oracle.seats], abs=1e-12)
    assert sum(data["seats"]) == pytest.approx(0, abs=1e-12)  # type: ignore[arg-type]
    two = run_json(capsys, "solve", "--objective", "win", "--json")
    assert two["tie"] == two["seats"][1]  # type: ignore[index]  # a tie replays the round: the second's value
    assert two["value"] == pytest.approx(1 - two["tie"], abs=1e-12)  # type: ignore[operator]


def test_hint_from_a_seat_of_a_round(capsys: pytest.CaptureFixture[str]) -> None:
    oracle = round_oracle(TurnRules(4), 3, "win", True, 3)
    data = run_json(
        capsys, "hint", "--tiles", "4", "--open", "1,2,4", "--dice", "1,2", "--objective", "win",
        "--players", "3", "--seat", "2", "--best", "3", "--json",
    )
    assert data["seat"] == {"players": 3, "seat": 2, "best": 3, "ties": 1, "pot": 3}
    moves = {sum(1 << (t - 1) for t in m["shut"]): m["value"] for m in data["moves"]}  # type: ignore[union-attr]
    expected = oracle.mover_moves(1, 3, 1, 0b1011, 3)
    assert moves == pytest.approx({m: float(v) for m, v in expected.items()}, abs=1e-12)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--players", "3"], "--objective win or stake"),
        (["--objective", "win", "--players", "3", "--seat", "4"], "not a seat of a round of 3"),
        (["--objective", "win", "--seat", "2"], "--best"),
        (["--objective", "win", "--best", "3"], "before any score is posted"),
        (["--objective", "win", "--players", "3", "--seat", "2", "--best", "3", "--ties", "2"], "--ties 2"),
        (["--objective", "win", "--players", "9"], "--players"),
        (["--objective", "stake", "--exact"], "--exact"),
    ],
)
def test_round_flags_that_do_not_fit_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    try:
        status = main(["--lang", "en", "solve", "--tiles", "4", *argv])
    except SystemExit as refused:  # argparse's own refusals
        status = refused.code  # type: ignore[assignment]
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


# -- hostile round six (issue 29): a solve larger than the machine -----------------------------------
def test_a_solve_larger_than_the_machines_memory_is_refused_before_it_starts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: `solve`, `hint` started any solve asked of them; a round of eight under ``digits`` on
    12 tiles (27 GB by the cost model) grew to 7 GB in two minutes on a machine of 23 before it was
    killed. Here the machine is made to have 50 MB: a round of three on 9 tiles (a few hundred MB)
    is refused at once, in the user's language, and a solve that fits still runs."""
    from shutthebox.cli import solving
    from shutthebox.strategy.cost import cost_of
    from shutthebox.strategy.names import Objective
    from tests.support.cli import cli

    monkeypatch.setattr(solving, "machine_bytes", lambda: 50 * 10**6)
    big = ("--tiles", "9", "--scoring", "digits", "--objective", "win", "--players", "3")
    assert cost_of(Rules(tiles=9, scoring="digits"), Objective.WIN, 3).bytes > 50 * 10**6
    status, out, err = cli(capsys, "--lang", "en", "solve", *big)
    assert (status, out) == (2, "")
    assert "more than this machine has (0 GB)" in err and "this solve needs about" in err
    status, _out, err = cli(capsys, "--lang", "es", "hint", "--open", "1,2,3,4,5,6,7,8,9", *big)
    assert status == 2 and "más de los que tiene esta máquina" in err
    status, out, _err = cli(capsys, "--lang", "en", "solve", "--tiles", "9", "--json")
    assert status == 0 and json.loads(out)["value"] > 0
