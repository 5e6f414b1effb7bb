"""Numbers and bots in the player's terms: a hint and a review name the unit of every number (points of
expected score, or a percentage chance), and a bot is named by its strength, never by its code name."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.support.play import READY, click_once, is_over, phase, play_solo

CODE_NAMES = re.compile(r"\b(random|greedy|fewest|heuristic|optimal(-score|-shut)?)\b", re.IGNORECASE)
POINTS = re.compile(r"^\d+\.\d\d points of expected score$")
POINTS_LOST = re.compile(r"^ \(\d+\.\d\d points lost\)$")
CHANCE = re.compile(r"^\d+\.\d% chance (of winning the round|to score under \d+|to score \d+ or less)$")
CHANCE_LOST = re.compile(r"^ \(\d+\.\d percentage points lost\)$")


def room_page(browser: Browser, server: str, body: dict[str, Any]) -> Page:
    """A page holding the token of a room made through the API, on that room."""
    created = httpx.post(f"{server}/api/rooms", json=body)
    assert created.status_code == 201, created.text
    code, token = created.json()["code"], created.json()["token"]
    context = browser.new_context(locale="en-US", base_url=server)
    context.add_init_script(f"localStorage.setItem('stb.rooms', {json.dumps(json.dumps({code: token}))})")
    page = context.new_page()
    page.goto(f"/#/room/{code}")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#box")).to_have_attribute("data-status", re.compile("playing|over"))
    return page


def ask_hint(page: Page) -> None:
    page.click("#btn-hint")
    if page.locator("#hint-confirm").is_visible():  # a ranked game: the hint is confirmed first
        page.click("#hint-confirm")
    expect(page.locator("#hint ol li").first).to_be_visible()


def hint_texts(page: Page) -> tuple[list[str], list[str]]:
    """Each choice's value and, for all but the best, what it loses."""
    values = page.locator("#hint li .value").all_inner_texts()
    return values, page.locator("#hint li .loss").all_text_contents()


def test_bots_are_named_by_their_strength(browser: Browser, server: str) -> None:
    bots = {"random": "easy", "greedy": "medium", "fewest": "medium", "heuristic": "hard",
            "optimal": "expert", "optimal-score": "expert", "optimal-shut": "expert"}
    seats = [{"kind": "here", "name": "Ana"}] + [{"kind": "bot", "name": f"R{i}", "bot": bot}
                                                  for i, bot in enumerate(bots)]
    page = room_page(browser, server, {"preset": "classic", "rules": {"mode": "round"}, "seats": seats})
    badges = page.locator("#players .player .badges")
    expect(badges).to_have_count(len(bots))  # Ana alone at this device: no "you" to tell her seat apart
    assert badges.all_inner_texts() == [f"computer · {strength}" for strength in bots.values()]
    assert not CODE_NAMES.search(page.locator("main").inner_text())
    page.context.close()


def test_a_solo_hint_and_review_speak_in_points_of_expected_score(browser: Browser, server: str) -> None:
    page = room_page(browser, server, {"preset": "web-12", "seats": [{"kind": "here", "name": "Ana"}]})
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    ask_hint(page)
    expect(page.locator("#hint h3")).to_have_text("Hint: expected score (lower is better)")
    values, losses = hint_texts(page)
    assert values and all(POINTS.match(value) for value in values), values
    assert len(losses) >= len(values) - 1 and all(POINTS_LOST.match(loss) for loss in losses), losses
    play_solo(page, click_once)
    page.click("#btn-review")
    expect(page.locator("#review th").nth(6)).to_have_text("Points lost")
    expect(page.locator("#review .review-notes")).to_contain_text("points of expected final score")
    for cell in page.locator("#review td.col-loss").all_inner_texts():
        assert re.fullmatch(r"0|\d+\.\d\d", cell), cell
    page.context.close()


def test_a_round_against_a_bot_speaks_in_chances(browser: Browser, server: str) -> None:
    body = {"preset": "classic", "rules": {"mode": "round", "shut_wins": False},  # a box shut ends no round
            "seats": [{"kind": "here", "name": "Ana"}, {"kind": "bot", "name": "Robot", "bot": "expert"}]}
    page = room_page(browser, server, body)
    hinted = False
    for _ in range(120):
        page.wait_for_function(READY)  # the bot has played: over, or this page's turn
        if is_over(page):
            break
        if not hinted and phase(page) == "move" and page.is_visible("#btn-hint"):
            ask_hint(page)
            values, losses = hint_texts(page)
            assert values and all(CHANCE.match(value) for value in values), values
            assert all(CHANCE_LOST.match(loss) for loss in losses), losses
            hinted = True
        click_once(page)
    assert hinted and is_over(page)
    page.click("#btn-review")
    expect(page.locator("#review th").nth(6)).to_have_text("Percentage points lost")
    expect(page.locator("#review .review-notes")).to_contain_text("percentage points")
    for cell in page.locator("#review td.col-loss").all_inner_texts():
        assert re.fullmatch(r"0|\d+\.\d", cell), cell
    page.context.close()
