"""Game records: JSON that replays, and every way a record can be wrong."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from shutthebox import DiceChoice, Game, GameRecord, Mode, Move, RecordError, Roll, Rules, replay
from shutthebox.core.record import FORMAT, VERSION, Event, outcome_of, replay_states
from tests.support.drive import finish


def finished(rules: Rules, players: list[str], seed: int = 17, **kwargs: Any) -> Game:
    game = Game(rules, players, seed=seed, **kwargs)
    finish(game, random.Random(seed))
    return game


def record_json(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(game.record().dumps())
    return data


def loads_json(data: object) -> GameRecord:
    return GameRecord.loads(json.dumps(data))


# -- a record replays -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "players"),
    [
        (Rules(mode=Mode.SOLO, scoring="digits"), ["Ana"]),  # type: ignore[arg-type]
        (Rules(stake=3, shut_wins=False), ["Ana", "Luis", "Eva"]),
        (Rules(mode=Mode.ELIMINATION, tiles=10), ["Ana", "Luis"]),
        (Rules(mode=Mode.LONG, one_die="sum-le-6"), ["Ana", "Luis"]),  # type: ignore[arg-type]
    ],
)
def test_a_record_replays_to_the_same_state(rules: Rules, players: list[str]) -> None:
    game = finished(rules, players)
    record = game.record()
    loaded = GameRecord.loads(record.dumps())
    assert loaded == record
    assert replay(loaded) == game.state
    assert loaded.seed == 17 and loaded.result == outcome_of(game.state)


def test_the_record_format() -> None:
    game = finished(Rules(stake=1), ["Ana", "Luis"])
    data = record_json(game)
    assert data["format"] == FORMAT == "shutthebox-record" and data["version"] == VERSION == 4
    assert data["rules"] == Rules(stake=1).to_dict()
    assert data["players"] == ["Ana", "Luis"] and data["rounds"] == 1 and data["seed"] == 17
    assert data["assisted"] == [] and data["helped"] == []
    assert {"player", "roll"} == set(data["events"][0]) and len(data["events"][0]["roll"]) == 1
    kinds = {next(k for k in event if k != "player") for event in data["events"]}
    assert kinds <= {"roll", "dice", "move"} and {"roll", "move"} <= kinds
    result = data["result"]
    assert result["over"] is True and result["winner"] in ("Ana", "Luis")
    assert sum(result["ledger"].values()) == 0
    assert [turn["player"] for turn in result["turns"]] == [
        game.state.players[t.player] for t in game.state.history
    ]


def test_events_round_trip() -> None:
    events = (
        Event(1, Roll.of(3, 1)), Event(0, Roll.of(5)), Event(0, DiceChoice(1)), Event(1, Move.parse("5+3")),
    )
    for event in events:
        assert Event.from_json(json.loads(json.dumps(event.to_json())), 0) == event
    assert Event(0, Move.parse("1+3+4")).to_json() == {"player": 0, "move": [4, 3, 1]}


def test_save_and_load(tmp_path: Path) -> None:
    game = finished(Rules(), ["Ana", "Luis"])
    path = tmp_path / "game.json"
    game.record().save(path)
    assert path.read_text(encoding="utf-8").endswith("}\n")
    assert replay(GameRecord.load(path)) == game.state


def test_a_record_of_an_unfinished_game_replays_to_where_it_stopped() -> None:
    game = Game(Rules(), ["Ana", "Luis"], seed=4)
    for _ in range(2):
        game.roll()  # the roll-off
    game.roll()
    game.act(game.state.legal_moves[0])
    record = GameRecord.loads(game.record().dumps())
    assert record.result is None
    state = replay(record)
    assert state == game.state and not state.is_over


def test_replay_states_follow_the_events() -> None:
    game = finished(Rules(mode=Mode.SOLO), ["Ana"])
    steps = list(replay_states(game.record()))
    assert steps[0][0] is None
    assert [event for event, _ in steps[1:]] == game.events
    assert steps[-1][1] == game.state


def test_a_version_1_record_without_a_seed_reads_as_typed_and_replays() -> None:
    record = loads_json({
        "format": FORMAT, "version": 1, "rules": {"mode": "solo"}, "players": ["Ana"],
        "seed": None, "events": [
            {"player": 0, "roll": [4, 4]}, {"player": 0, "move": [5, 2, 1]}, {"player": 0, "roll": [1, 1]},
        ],
    })
    assert record.typed and all(e.typed for e in record.events if isinstance(e.action, Roll))
    state = replay(record)
    assert state.is_over and state.history[0].board.open_tiles == (3, 4, 6, 7, 8, 9)
    assert state.history[0].score == 37
    assert record.to_json()["version"] == VERSION == 4  # written again as the current version


def test_typed_is_a_mark_of_rolls_only() -> None:
    base = {"format": FORMAT, "version": VERSION, "rules": {"mode": "solo"}, "players": ["Ana"], "seed": 1}
    for event in ({"player": 0, "move": [8], "typed": True}, {"player": 0, "roll": [4, 4], "typed": "yes"}):
        with pytest.raises(RecordError, match=r"event 0: .* needs a player and one of roll, dice, move"):
            loads_json({**base, "events": [event]})


# -- every way a record is wrong ----------------------------------------------------------------
def good() -> dict[str, Any]:
    return record_json(finished(Rules(), ["Ana", "Luis"]))


def refused(data: Any, *needles: str) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as error:
        replay(GameRecord.loads(text))
    for needle in needles:
        assert needle in str(error.value), (needle, str(error.value))


def test_malformed_json() -> None:
    refused("{not json", "not valid JSON")
    refused("", "not valid JSON")
    refused("[1, 2]", "JSON object, not a list")


def test_wrong_format_or_version() -> None:
    refused({**good(), "format": "chess-pgn"}, "not a game record", '"chess-pgn"')
    refused({**good(), "version": 5}, "version 5 is not supported (1, 2, 3, 4)")
    refused({**good(), "version": 3}, "version 3 has no helped: it came in version 4")
    data = good()
    del data["version"]
    refused(data, "has no version (1, 2, 3, 4)")


@pytest.mark.parametrize(
    ("key", "value", "needles"),
    [
        ("rules", {"colour": "red"}, ("record rules", "'colour'")),
        ("rules", {"tiles": 13}, ("record rules", "13")),
        ("rules", {"one_die": "sometimes"}, ("record rules", "'sometimes'")),
        ("rules", "classic", ("record rules",)),
        ("players", "Ana", ("players",)),
        ("players", ["Ana", 3], ("players",)),
        ("seed", "abc", ("seed", '"abc"')),
        ("seed", True, ("seed",)),
        ("rounds", "two", ("rounds", '"two"')),
        ("events", {"0": 1}, ("events must be a list",)),
        ("result", [1], ("result must be an object",)),
        ("helped", [[0]], ("helped must be a list of [player, event] pairs",)),
        ("helped", [[2, 0]], ("helped must be a list of [player, event] pairs",)),
        ("helped", [[0, 10_000]], ("helped must be a list of [player, event] pairs",)),
        ("helped", [[0, 1]], ("assisted must list the players helped, [0]",)),
    ],
)
def test_bad_fields(key: str, value: Any, needles: tuple[str, ...]) -> None:
    refused({**good(), key: value}, *needles)


def test_missing_fields() -> None:
    data = good()
    del data["events"], data["players"]
    refused(data, "lacks events, players")


def test_a_record_that_cannot_start() -> None:
    refused({**good(), "players": ["Ana", "Ana"]}, "cannot start", "differ")
    refused({**good(), "rounds": 0}, "cannot start", "rounds")


@pytest.mark.parametrize(
    ("event", "needles"),
    [
        ("roll", ("event 3", "player number")),
        ({"player": "Ana", "roll": [1]}, ("event 3", "player number")),
        ({"player": 0, "jump": 1}, ("event 3", "one of roll, dice, move")),
        ({"player": 0, "roll": [1], "move": [1]}, ("event 3", "one of roll, dice, move")),
        ({"player": 0, "roll": [7]}, ("event 3", "7")),
        ({"player": 0, "roll": [1, 2, 3]}, ("event 3", "3")),
        ({"player": 0, "roll": "3,1"}, ('"3,1"', "list of whole numbers")),
        ({"player": 0, "dice": 3}, ("event 3", "dice is 1 or 2")),
        ({"player": 0, "move": []}, ("event 3",)),
        ({"player": 0, "move": [13]}, ("event 3", "13")),
        ({"player": 0, "move": [2, 2]}, ("event 3", "twice")),
    ],
)
def test_bad_events(event: Any, needles: tuple[str, ...]) -> None:
    data = good()
    data["events"][3] = event
    refused(data, *needles)


def test_an_illegal_event() -> None:
    data = {
        "format": FORMAT, "version": VERSION, "rules": {"mode": "solo"}, "players": ["Ana"],
        "seed": None, "events": [{"player": 0, "roll": [4, 4]}, {"player": 0, "move": [9]}],
    }
    refused(data, "event 1", "move 9 adds up to 9, the roll 4+4 is 8")
    data["events"] = [{"player": 0, "move": [9]}]
    refused(data, "event 0", "no roll to match")
    data["events"] = [{"player": 0, "roll": [4, 4]}, {"player": 0, "move": [8]}, {"player": 0, "move": [1]}]
    refused(data, "event 2", "no roll to match")


def test_an_event_by_the_wrong_player() -> None:
    data = good()
    first = data["events"][0]
    data["events"][0] = {**first, "player": 1}
    refused(data, "event 0", "Luis", "not their turn")


def test_an_event_after_the_end() -> None:
    data = good()
    data["events"].append({"player": 0, "roll": [1, 1]})
    data["result"] = None
    refused(data, f"event {len(data['events']) - 1}", "the game is over")
    data["seed"] = None
    refused(data, f"event {len(data['events']) - 1}", "the game is over")


def test_a_seeded_roll_where_a_choice_is_due_names_the_choice() -> None:
    data = {
        "format": FORMAT, "version": VERSION, "rules": {"mode": "solo", "tiles": 3}, "players": ["Ana"],
        "seed": 1, "events": [{"player": 0, "roll": [1, 2]}],
    }
    refused(data, "event 0", "choose one die or two first")


def test_a_roll_that_the_seed_did_not_give() -> None:
    data = good()
    index = next(i for i, e in enumerate(data["events"]) if len(e.get("roll", [])) == 2)
    a, b = data["events"][index]["roll"]
    data["events"][index]["roll"] = [b, a] if a != b else [a % 6 + 1, a]
    refused(data, f"event {index}", "is not what seed 17 gives", f"({a}+{b})")


def test_a_tampered_result() -> None:
    data = good()
    winner = data["result"]["winner"]
    data["result"]["winner"] = "Luis" if winner == "Ana" else "Ana"
    refused(data, "result differs")
    data = good()
    data["result"]["turns"][0]["score"] += 1
    refused(data, "result differs")
    data = good()
    data["result"]["ledger"] = {"Ana": 5, "Luis": -5}
    refused(data, "result differs")


def test_a_result_of_the_wrong_shape_is_named_where_it_is_read() -> None:
    """Before, a stated result was any JSON object, read by key wherever it was used."""
    for key, wrong, needle in [
        ("turns", "all", "lists no turns"),
        ("over", "yes", "over must be true or false"),
        ("round_winners", "Ana", "round_winners must be a list of names"),
        ("ledger", {"Ana": "5"}, "totals and ledger"),
    ]:
        data = good()
        data["result"][key] = wrong
        refused(data, needle)
    data = good()
    data["result"]["turns"][0]["open"] = "2 3"
    refused(data, "turn 1 needs")


def test_a_record_and_its_outcome_are_values() -> None:
    """A record read back equals the one written, and neither changes in place."""
    record = GameRecord.loads(json.dumps(good()))
    assert GameRecord.loads(record.dumps()) == record
    assert record.result is not None and record.result == outcome_of(replay(record))
    with pytest.raises(AttributeError):
        record.result = None  # type: ignore[misc]
    with pytest.raises(AttributeError):
        record.result.turns[0].score = 0  # type: ignore[misc]


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read record"):
        GameRecord.load(tmp_path / "missing.json")


def test_a_file_larger_than_any_record_is_not_read_whole(tmp_path: Path) -> None:
    """Regression (a hostile user): ``replay /dev/zero`` read without end, gigabytes in memory. A file
    is read up to `MOST_BYTES`, well above the largest record a game makes, and refused past it."""
    from shutthebox.core.record import MOST_BYTES

    assert MOST_BYTES == 32 << 20
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * MOST_BYTES + b"{")
    with pytest.raises(RecordError, match=r"is over 32 MB, larger than any game record: it is not read"):
        GameRecord.load(huge)
    padded = tmp_path / "padded.json"  # a record as large as may be read is read
    padded.write_bytes(json.dumps(good()).encode().ljust(MOST_BYTES))
    assert GameRecord.load(padded) == GameRecord.loads(json.dumps(good()))
    if Path("/dev/zero").exists():
        with pytest.raises(RecordError, match="larger than any game record"):
            GameRecord.load(Path("/dev/zero"))


HUGE = "f" * 10_000_000
"""Ten megabytes of hex digits: what a hostile record may put in any field."""


def _huge_values(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The record ``data`` with one field at a time made huge: a text, a list or a number."""
    changes: dict[str, Any] = {
        "format": lambda d: d.update(format=HUGE),
        "version": lambda d: d.update(version=HUGE),
        "players": lambda d: d.update(players=[HUGE, HUGE]),
        "a player's name": lambda d: d.update(players=[HUGE, "Luis"]),
        "seed": lambda d: d.update(seed=HUGE),
        "rounds": lambda d: d.update(rounds=[1] * 1_000_000),
        "rules": lambda d: d.update(rules=HUGE),
        "a rule option": lambda d: d["rules"].update({HUGE: 1}),
        "a rule's value": lambda d: d["rules"].update(scoring=HUGE),
        "fairness": lambda d: d.update(fairness=[HUGE]),
        "fairness's fields": lambda d: d["fairness"].update(extra=HUGE),
        "algorithm": lambda d: d["fairness"].update(algorithm=HUGE),
        "commitment": lambda d: d["fairness"].update(commitment=HUGE),
        "server_seed": lambda d: d["fairness"].update(server_seed=HUGE),
        "client_seeds": lambda d: d["fairness"].update(client_seeds=HUGE),
        "a client seed": lambda d: d["fairness"].update(client_seeds=[HUGE]),
        "assisted": lambda d: d.update(assisted=[HUGE]),
        "helped": lambda d: d.update(helped=[[0, HUGE]]),
        "events": lambda d: d.update(events=HUGE),
        "an event": lambda d: d["events"].__setitem__(2, {"player": 0, "roll": [HUGE]}),
        "a roll": lambda d: d["events"].__setitem__(2, {"player": 0, "roll": [7] * 1_000_000}),
        "a move": lambda d: d["events"].__setitem__(3, {"player": 0, "move": [10**4000]}),
        "a long move": lambda d: d["events"].__setitem__(3, {"player": 0, "move": [1] * 1_000_000}),
        "a player's number": lambda d: d["events"].__setitem__(3, {"player": 10**4000, "move": [1]}),
        "result": lambda d: d.update(result={**d["result"], "winner": HUGE}),
        "a turn of the result": lambda d: d["result"]["turns"].__setitem__(0, {"player": HUGE}),
    }
    found = {}
    for name, change in changes.items():
        changed = json.loads(json.dumps(data))
        change(changed)
        found[name] = changed
    return found


def test_no_error_quotes_more_than_a_short_prefix_of_a_value() -> None:
    """Regression (a hostile user): a 10 MB ``server_seed`` was quoted whole by the error of ``verify``
    and ``replay``, and so were a rule option, a client seed, the fairness object, a name. Whatever
    field of a record is huge, what reading, replaying and verifying it says is a line."""
    from shutthebox.core.fair import FairDice
    from shutthebox.core.verify import verify
    from shutthebox.i18n import activate, say

    game = Game(Rules(), ["Ana", "Luis"], dice=FairDice(b"s" * 32, ["ana"]))
    finish(game, random.Random(5))
    long = []
    try:
        for field, data in _huge_values(record_json(game)).items():
            said: list[object] = []
            try:
                record = GameRecord.loads(json.dumps(data))
                said.append(verify(record).reason)
                replay(record)
            except RecordError as error:
                said.append(error)
            for lang in ("en", "es"):
                activate(lang)
                long += [(field, lang, say(words)[:200]) for words in said if len(say(words)) > 300]
    finally:
        activate("en")
    assert not long, long
