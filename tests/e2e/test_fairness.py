"""Fair dice in the page: its verifier (Web Crypto, static/verify.js) gives the known answers and
the core's verdicts, proves a finished game's dice (and says that it proves the dice, not every
rule) and names the event a tampered copy fails at; the creator's client seed goes only after the
server committed, and a room whose commitment is not the one first given is flagged; a practice
room says so to every seat, and a seed the server cannot take is refused on the page; guests are
marked as such; a hint in a ranked game is confirmed first; and a player profile is asked once,
look-alike names refused in the server's words."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from shutthebox.core.fair import FairDice
from shutthebox.core.game import Game
from shutthebox.core.record import GameRecord
from shutthebox.core.rules import PRESETS, Mode, Rules
from shutthebox.core.verify import verify
from tests.support.play import advanced, choose_way, click_once, make_profile, more_options, play_solo

VECTORS = Path(__file__).parents[1] / "vectors" / "fair-dice.json"

DICE = """async (cases) => {
  const { die } = await import("/static/verify.js");
  const all = [];
  for (const c of cases) {
    const dice = [];
    for (let k = 0; k < c.dice.length; k += 1) dice.push(await die(c.server_seed, c.client_seeds, k));
    all.push(dice);
  }
  return all;
}"""

COMMITMENTS = """async (seeds) => {
  const { sha256Hex } = await import("/static/verify.js");
  const bytes = (hex) => Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16));
  return Promise.all(seeds.map((seed) => sha256Hex(bytes(seed))));
}"""

VERIFY = """async (record) => (await import("/static/verify.js")).verifyRecord(record)"""


def opened(page: Page) -> Page:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def room_code(page: Page) -> str:
    return page.locator("#room-info strong").inner_text().split()[-1]


def refusal(detail: str) -> str:
    """A server's refusal as the page shows it: a sentence (as app.js's refusal())."""
    text = detail.strip()
    return text[0].upper() + text[1:] + ("" if text[-1] in ".!?…" else ".")


SERVER_SEED = bytes.fromhex("7a411af18acedf717e9a49c85bd065687731024b292d3b288227aa3a8eed7c9e")


def core_record(
    players: list[str], client_seeds: list[str], rules: Rules | None = None, rounds: int = 1, pick: int = 0
) -> dict[str, Any]:
    """A finished game of the core under the fair dice (a known server seed, so the same game each
    time), each player taking the first legal action (or the one ``pick`` turns it to)."""
    game = Game(rules or Rules(), players, dice=FairDice(SERVER_SEED, client_seeds), rounds=rounds)
    step = 0
    while not game.state.is_over:
        if game.state.is_chance:
            game.roll()
        else:
            actions = game.state.legal_actions()
            game.act(actions[(step * pick) % len(actions)])
            step += 1
    data: dict[str, Any] = game.record().to_json()
    return data


def changed_die(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A copy of ``record`` with one die of a later roll changed; the index of its event."""
    tampered = copy.deepcopy(record)
    rolls = [i for i, event in enumerate(tampered["events"]) if "roll" in event]
    index = rolls[len(rolls) // 2]
    roll = tampered["events"][index]["roll"]
    roll[-1] = roll[-1] % 6 + 1
    return index, tampered


def changed_move(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    tampered = copy.deepcopy(record)
    index = next(i for i, event in enumerate(tampered["events"]) if len(event.get("move", [])) > 1)
    tampered["events"][index]["move"] = tampered["events"][index]["move"][:1]
    return index, tampered


def changed_client_seed(record: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
    tampered = copy.deepcopy(record)
    tampered["fairness"]["client_seeds"][0] += "x"
    return None, tampered  # fails at the first roll whose dice differ then


def tile_off_the_board(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A move on a tile the board has not (10 of 9), adding up to its roll all the same."""
    tampered = copy.deepcopy(record)
    roll: list[int] = []
    for index, event in enumerate(tampered["events"]):
        roll = event.get("roll", roll)
        if "move" in event and sum(roll) >= 10:
            high = record["rules"]["tiles"] + 1
            event["move"] = [high] + ([sum(roll) - high] if sum(roll) > high else [])
            return index, tampered
    raise AssertionError("no roll of 10 or more is moved on")


def player_out_of_range(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A roll by a player the game has not."""
    tampered = copy.deepcopy(record)
    index = next(i for i, event in enumerate(tampered["events"]) if i > 3 and "roll" in event)
    tampered["events"][index]["player"] = len(tampered["players"])
    return index, tampered


def move_by_another(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A move by another player than the one who rolled."""
    tampered = copy.deepcopy(record)
    index = next(i for i, event in enumerate(tampered["events"]) if "move" in event)
    tampered["events"][index]["player"] = 1 - tampered["events"][index]["player"]
    return index, tampered


def changed_server_seed(record: dict[str, Any]) -> tuple[None, dict[str, Any]]:
    tampered = copy.deepcopy(record)
    tampered["fairness"]["server_seed"] = "00" * 32  # not the one committed to: the record fails whole
    return None, tampered


def test_the_pages_dice_are_the_known_answers(page: Page) -> None:
    cases = json.loads(VECTORS.read_text())["cases"]
    opened(page)
    assert page.evaluate(DICE, cases) == [case["dice"] for case in cases]
    seeds = [case["server_seed"] for case in cases]
    assert page.evaluate(COMMITMENTS, seeds) == [case["commitment"] for case in cases]


@pytest.mark.parametrize(
    "tamper",
    [
        changed_die, changed_move, changed_client_seed, changed_server_seed,
        tile_off_the_board, player_out_of_range, move_by_another,
    ],
)
def test_the_pages_verdict_names_the_event_the_core_names(page: Page, tamper: Any) -> None:
    record = core_record(["Ana", "Luis"], ["abcDEF_-12", "Zq3-x_9"])
    opened(page)
    proven = page.evaluate(VERIFY, record)
    assert proven["proven"] is True
    assert proven["dice"] == sum(len(event["roll"]) for event in record["events"] if "roll" in event)

    index, tampered = tamper(record)
    found = page.evaluate(VERIFY, tampered)
    core = verify(GameRecord.from_json(tampered))
    assert found["proven"] is core.proven is False
    assert found["event"] == core.event  # the same event as the core's verify names
    if tamper is changed_client_seed:
        assert found["event"] is not None  # the first roll whose dice differ
    else:
        assert found["event"] == index


CHECKS = """async (records) => {
  const { verifyRecord } = await import("/static/verify.js");
  return Promise.all(records.map(async (record) => {
    const verdict = await verifyRecord(record);
    return verdict.proven ? null : [verdict.event, verdict.reason, verdict.values];
  }));
}"""


def test_the_pages_checks_prove_every_kind_of_honest_game(page: Page) -> None:
    """Its checks beyond the dice (players, tiles, a roll for every move or choice, the dice chosen
    rolled) hold for every preset, one to three players, several rounds: no honest game fails."""
    records = []
    for name, rules in PRESETS.items():
        counts = {Mode.SOLO: [1], Mode.LONG: [2], Mode.ELIMINATION: [2, 3]}.get(rules.mode, [1, 2, 3])
        for players in counts:
            for pick in (0, 1):
                names = ["Ana", "Luis", "Eva"][:players]
                rounds = 2 if players > 1 else 1
                records.append(core_record(names, ["s" + name], rules, rounds=rounds, pick=pick))
    assert any("dice" in event for record in records for event in record["events"])  # a choice of dice
    opened(page)
    assert page.evaluate(CHECKS, records) == [None] * len(records)


def test_what_the_page_checks_beyond_the_dice(page: Page) -> None:
    record = core_record(["Ana", "Luis"], ["abc"], PRESETS["long"])  # where one die is often chosen
    choice = next(i for i, event in enumerate(record["events"]) if "dice" in event)
    first_roll = next(i for i, event in enumerate(record["events"]) if "roll" in event)
    early = copy.deepcopy(record)
    early["events"].insert(first_roll, {"player": 0, "dice": 1})  # a choice of dice before any roll
    wrong_count = copy.deepcopy(record)
    wrong_count["events"][choice]["dice"] = 3 - record["events"][choice]["dice"]  # the other count rolled
    twice = copy.deepcopy(record)
    move = next(i for i, event in enumerate(twice["events"]) if len(event.get("move", [])) == 2)
    twice["events"][move]["move"] = [twice["events"][move]["move"][0]] * 2
    no_result = {**record, "result": None}
    opened(page)
    found = page.evaluate(CHECKS, [early, wrong_count, twice, no_result])
    before_any = "Event {index}: a choice of dice before any roll of the game."
    assert found[0] == [first_roll, before_any, {"index": first_roll}]
    assert found[1][:2] == [choice + 1, "Event {index}: {count} dice rolled where {chosen} were chosen."]
    assert found[2][0] == move and "distinct tiles" in found[2][1]
    assert found[3] == [None, "The record states no result: the game is not over.", {}]


def test_a_practice_or_unfinished_record_is_not_proven(page: Page) -> None:
    record = core_record(["Ana"], [])
    opened(page)
    practice = {**record, "fairness": None, "seed": 42}
    unfinished = {**record, "fairness": {**record["fairness"], "server_seed": None}, "result": None}
    found = [page.evaluate(VERIFY, r) for r in (practice, unfinished)]
    assert [verdict["proven"] for verdict in found] == [False, False]
    assert found[0]["reason"] == "The dice come from seed {seed}, chosen for practice: nothing proves them."
    assert found[0]["values"] == {"seed": 42}
    assert found[1]["reason"] == "The server seed is not revealed yet: the game is not over."


def test_a_finished_game_is_proven_in_the_page_and_a_tampered_copy_fails(page: Page, server: str) -> None:
    opened(page)
    make_profile(page, "Verity")
    key = page.evaluate("JSON.parse(localStorage.getItem('stb.profile')).key")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("/api/")[-1]) if r.method == "POST" else None)
    with (
        page.expect_response(lambda r: r.url.endswith("/api/commitments")) as committed,
        page.expect_request(lambda r: r.url.endswith("/api/rooms") and r.method == "POST") as created,
    ):
        page.click("#quick-9")
    assert asked == ["commitments", "rooms"]  # the server commits first, then hears the client seed
    first = committed.value.json()
    request = created.value
    assert request.headers["authorization"] == f"Bearer {key}"  # played as the profile
    body = request.post_data_json or {}
    assert body["ticket"] == first["ticket"]
    client_seed = body["client_seed"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", client_seed)  # 16 random bytes, base64url, no padding
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    code = room_code(page)
    state = httpx.get(f"{server}/api/rooms/{code}").json()
    commitment = state["fairness"]["commitment"]
    assert commitment == first["commitment"]
    assert page.evaluate("JSON.parse(localStorage.getItem('stb.fair'))")[code]["commitment"] == commitment
    assert client_seed in state["fairness"]["client_seeds"]
    expect(page.locator("#practice")).to_be_hidden()
    expect(page.locator("#fair-warning")).to_be_hidden()
    expect(page.locator("#players .guest")).to_have_count(0)  # the profile's seat
    expect(page.locator("#fairness summary .hex")).to_have_text(commitment[:12] + "…")
    expect(page.locator("#fairness summary .hex")).to_have_attribute("title", commitment)
    expect(page.locator("#players .name")).to_have_text(["Verity"])

    play_solo(page, click_once)
    record = httpx.get(f"{server}/api/rooms/{code}/record").json()
    assert record["fairness"]["server_seed"] is not None
    expect(page.locator("#server-seed")).to_have_text(record["fairness"]["server_seed"])
    page.click("#btn-verify")
    expect(page.locator("#verify")).to_have_attribute("data-proven", "true")
    expect(page.locator("#verdict")).to_have_text("✓ Dice proven")  # the dice, not every rule
    dice = sum(len(event["roll"]) for event in record["events"] if "roll" in event)
    expect(page.locator("#verdict-dice")).to_contain_text(
        f"Every die comes from the revealed seed ({dice} dice recomputed)"
    )
    expect(page.locator("#verify .checks")).to_contain_text("the one this page showed before the first roll")
    expect(page.locator("#verify .checks")).to_contain_text(f"Your client seed {client_seed} is in every die")
    expect(page.locator("#verdict-seen")).to_contain_text(
        f"The {len(record['events'])} events this page saw during the game are in the record"
    )
    expect(page.locator("#verify-scope")).to_contain_text("shutthebox verify replays every rule")

    index, tampered = changed_die(record)
    page.route(f"**/api/rooms/{code}/record", lambda route: route.fulfill(json=tampered))
    page.click("#btn-verify")
    expect(page.locator("#verify")).to_have_attribute("data-proven", "false")
    expect(page.locator("#verify")).to_have_attribute("data-event", str(index))
    expect(page.locator("#verdict")).to_have_text("✗ Dice not proven")
    expect(page.locator("#verdict-dice")).to_contain_text(f"Event {index}: roll")
    expect(page.locator("#verdict-seen")).to_have_text(
        f"✗ Event {index} of the record is not what this page saw during the game."
    )
    assert verify(GameRecord.from_json(tampered)).event == index

    off_board = copy.deepcopy(record)  # a tile 0 added to a move: the same sum, off the board
    moved = next(i for i, event in enumerate(off_board["events"]) if "move" in event)
    off_board["events"][moved]["move"].insert(0, 0)
    page.unroute(f"**/api/rooms/{code}/record")
    page.route(f"**/api/rooms/{code}/record", lambda route: route.fulfill(json=off_board))
    page.click("#btn-verify")
    expect(page.locator("#verify")).to_have_attribute("data-proven", "false")
    expect(page.locator("#verify")).to_have_attribute("data-event", str(moved))
    expect(page.locator("#verdict-dice")).to_contain_text(f"Event {moved}: the move [0,")
    expect(page.locator("#verdict-dice")).to_contain_text("is not of distinct tiles from 1 to 9")

    page.click("#nav-scores")  # a ranked game of a profile: on the leaderboard under its name
    expect(page.locator("#leaderboard table")).to_contain_text("Verity")


def test_a_practice_room_says_so_to_every_seat(browser: Browser, server: str) -> None:
    host = opened(browser.new_context(locale="en-US", base_url=server).new_page())
    more_options(host)  # every rule is in the Rules panel
    host.click("[data-who=online]")
    host.fill("#seat-name-0", "Pia")
    advanced(host)  # the practice seed
    host.fill("#opt-seed", "42")
    host.click("#start")
    link = host.locator("#share-link").get_attribute("href") or ""
    guest = opened(browser.new_context(locale="en-US", base_url=server).new_page())
    guest.goto(link)
    guest.wait_for_selector("body[data-ready=true]")
    guest.fill("#invite-name", "Quim")  # the link opens the invitation
    guest.click("#invite-join")
    for page in (host, guest):
        expect(page.locator("#players .name")).to_have_text(["Pia", "Quim"])
        banner = page.locator("#practice")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("chosen seed 42")
        expect(banner).to_contain_text("counts for no ranking")
        expect(page.locator("#room-info")).to_contain_text("unranked")
        expect(page.locator("#fairness")).to_be_hidden()  # no commitment: nothing to prove
        expect(page.locator("#players .guest")).to_have_count(2)  # neither plays as a profile
        expect(page.locator("#players .guest").first).to_have_text("guest")
    host.context.close()
    guest.context.close()


def test_a_practice_room_takes_no_ticket_and_a_seed_out_of_range_is_refused(page: Page, server: str) -> None:
    opened(page)
    page.click("#profile-cancel")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("/api/")[-1]) if r.method == "POST" else None)
    choose_way(page, "table")  # a game of friends at this device
    advanced(page)  # the practice seed is an advanced rule
    for typed in ("9223372036854775808", "-1", "4.5", "1e3", "seven"):
        page.fill("#opt-seed", typed)
        page.click("#start")
        expect(page.locator("#setup-error")).to_have_text(
            f"The dice seed must be a whole number from 0 to {2**63 - 1}; leave it empty for fair dice."
        )
        expect(page.locator("#opt-seed")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#opt-seed")).to_be_focused()
    assert asked == []  # nothing sent: no ranked room made of a seed that was meant

    page.fill("#opt-seed", "9223372036854775807")  # the largest: sent exactly, no ticket, no client seed
    with page.expect_request(lambda r: r.url.endswith("/api/rooms") and r.method == "POST") as created:
        page.click("#start")
    assert asked == ["rooms"]
    sent = created.value.post_data or ""
    assert '"seed":9223372036854775807' in sent
    assert "ticket" not in sent and "client_seed" not in sent
    expect(page.locator("#practice")).to_contain_text("chosen seed 9223372036854775807")
    code = room_code(page)
    assert httpx.get(f"{server}/api/rooms/{code}").json()["seed"] == 2**63 - 1


def test_a_room_whose_commitment_is_not_the_one_first_given_is_flagged(page: Page, server: str) -> None:
    opened(page)
    page.click("#profile-cancel")
    given = "ab" * 32

    def other_commitment(route: Any) -> None:
        answer = route.fetch().json()
        route.fulfill(status=201, json={**answer, "commitment": given})

    page.route("**/api/commitments", other_commitment)
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    warning = page.locator("#fair-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("the server changed this room's commitment")
    expect(warning).to_contain_text("abababababab…")
    expect(warning).to_contain_text("these dice prove nothing, do not trust this game")
    expect(warning.locator(".hex").first).to_have_attribute("title", given)
    expect(page.locator("#players .guest")).to_have_count(1)  # no profile: a guest
    play_solo(page, click_once)
    page.click("#btn-verify")
    expect(page.locator("#verify")).to_have_attribute("data-proven", "false")
    expect(page.locator("#verify .checks")).to_contain_text(
        "The record's commitment is not the one this page showed before the first roll."
    )


def test_a_hint_in_a_ranked_game_is_confirmed_first(page: Page, server: str) -> None:
    opened(page)
    make_profile(page, "Hinta")
    page.click("#quick-12")
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    code = room_code(page)
    page.click("#btn-hint")
    expect(page.locator("#hint-warning")).to_have_text(  # a 12-tile board, nothing shut yet: 78 open
        "With a hint, your turn counts 78 in the rankings: your tiles as they stand now, whatever you score"
        " after. Ask anyway?"
    )
    page.click("#hint-cancel")
    expect(page.locator("#hint")).to_be_hidden()
    assert httpx.get(f"{server}/api/rooms/{code}").json()["assisted"] == []

    page.keyboard.press("h")  # the keyboard asks the same; Enter takes the focused "Ask for a hint"
    expect(page.locator("#hint-confirm")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#hint ol li").first).to_be_visible()
    expect(page.locator("#players .badges")).to_contain_text("hint asked")
    assert httpx.get(f"{server}/api/rooms/{code}").json()["assisted"] == [0]


def test_a_profile_is_asked_once_and_a_look_alike_name_is_refused(browser: Browser, server: str) -> None:
    first = opened(browser.new_context(locale="en-US", base_url=server).new_page())
    expect(first.locator("#profile-form")).to_be_visible()  # the first visit asks a name
    expect(first.locator("#profile-title")).to_have_text("Choose your player name")
    make_profile(first, "Ana")
    stored = first.evaluate("JSON.parse(localStorage.getItem('stb.profile'))")
    assert stored["name"] == "Ana" and stored["key"] and isinstance(stored["id"], int)
    me = httpx.get(f"{server}/api/profiles/me", headers={"Authorization": f"Bearer {stored['key']}"})
    assert me.json() == {"id": stored["id"], "name": "Ana"}

    first.reload()
    first.wait_for_selector("body[data-ready=true]")
    expect(first.locator("#profile-form")).to_be_hidden()  # asked once
    expect(first.locator("#profile-chip")).to_have_text("Ana")
    choose_way(first, "table")
    expect(first.locator("#seat-name-0")).to_have_value("Ana")
    expect(first.locator("#seat-name-0")).not_to_be_editable()  # the profile's seat is named after it
    choose_way(first, "online")
    expect(first.locator("#join-name")).to_be_hidden()
    expect(first.locator("#join-as")).to_have_text("You join as Ana.")

    second = opened(browser.new_context(locale="en-US", base_url=server).new_page())
    second.fill("#profile-input", "\u0410na")  # a Cyrillic A
    second.click("#profile-save")
    refused = httpx.post(f"{server}/api/profiles", json={"name": "\u0410na"})
    assert refused.status_code == 409 and refused.json()["error"] == "name-taken"
    expect(second.locator("#profile-error")).to_have_text(refusal(refused.json()["detail"]))
    expect(second.locator("#profile-form")).to_be_visible()
    assert second.evaluate("localStorage.getItem('stb.profile')") is None
    make_profile(second, "Bea")  # another name is taken at once

    first.click("#profile-chip")  # rename: the same refusal for a name another holds
    expect(first.locator("#profile-input")).to_have_value("Ana")
    first.fill("#profile-input", "BEA")
    first.click("#profile-save")
    expect(first.locator("#profile-error")).to_contain_text("Bea")
    first.fill("#profile-input", "Ana María")
    first.click("#profile-save")
    expect(first.locator("#profile-chip")).to_have_text("Ana María")
    expect(first.locator("#profile-show")).to_contain_text("Playing as Ana María")
    me = httpx.get(f"{server}/api/profiles/me", headers={"Authorization": f"Bearer {stored['key']}"})
    assert me.json()["name"] == "Ana María"
    first.context.close()
    second.context.close()


def test_not_now_plays_as_a_guest_until_a_name_is_chosen(page: Page) -> None:
    opened(page)
    page.click("#profile-cancel")
    expect(page.locator("#profile-show")).to_contain_text("Playing as a guest")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#profile-form")).to_be_hidden()  # not asked again
    page.click("#profile-create")
    expect(page.locator("#profile-input")).to_be_focused()
    make_profile(page, "Gaspar")


def test_a_private_rooms_player_verifies_their_game_in_the_page(page: Page, server: str) -> None:
    """A private room's record is its players' alone: the page asks for it with its seat token."""
    opened(page)
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    code = room_code(page)
    token = page.evaluate(f"JSON.parse(localStorage.getItem('stb.rooms'))['{code}']")
    made = httpx.post(f"{server}/api/rooms/{code}/privacy", json={"private": True},
                      headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 200, made.text
    play_solo(page, click_once)
    assert httpx.get(f"{server}/api/rooms/{code}/record").status_code == 403  # a stranger's ask
    page.click("#btn-verify")
    expect(page.locator("#verify")).to_have_attribute("data-proven", "true")
