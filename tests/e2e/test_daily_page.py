"""The daily challenge in the page (#/daily): an attempt played to the end, its place on the
leaderboard and its comparison with optimal play, the streak and the calendar; a second attempt
refused; a phone shows it without sideways scrolling; in Spanish too."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import PHONE, fresh_page, screenshot
from tests.support.play import click_once, make_profile, play_solo

NAME = "Dalia"  # the server lives for the session: a name no other test takes
NO_OVERFLOW = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    with fresh_page(browser, server, locale="es-ES", **PHONE) as page:
        yield page


def open_daily(page: Page) -> None:
    page.goto("/#/daily")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#daily-body[data-ready=true]")
    expect(page.locator("#nav-daily")).to_have_attribute("aria-current", "page")


def test_a_daily_attempt_played_to_the_end_then_ranked_and_set_beside_optimal_play(
    page: Page, server: str
) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    make_profile(page, NAME)
    open_daily(page)
    today = httpx.get(f"{server}/api/daily").json()
    nine = page.locator("#daily-9")
    expect(nine.locator(".commitment")).to_have_attribute("title", today["challenges"][0]["commitment"])
    expect(page.locator("#daily-streak")).to_have_attribute("data-streak", "0")
    nine.locator(".daily-play").click()
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    play_solo(page, click_once)
    expect(page.locator("#btn-again")).to_have_text("Today's standings")  # one attempt a day: no "Play again"
    page.click("#btn-again")
    page.wait_for_url("**/#/daily")

    open_daily(page)
    board = httpx.get(f"{server}/api/daily/{today['today']}/9").json()
    mine = next(e for e in board["entries"] if e["player"] == NAME)
    expect(nine.locator(".daily-attempt")).to_have_attribute("data-score", str(mine["score"]))
    expect(nine.locator(".daily-mine")).to_contain_text(
        f"You scored {mine['score']} in {mine['rolls']} rolls"
    )
    expect(nine.locator(".daily-optimal")).to_contain_text("the optimal player scored")
    expect(nine.locator(".daily-standings tbody th")).to_contain_text([NAME])
    expect(nine.locator(".daily-play")).to_have_count(0)  # one ranked attempt a day
    expect(page.locator("#daily-streak")).to_have_attribute("data-streak", "1")
    played = page.locator(f".daily-calendar .day.played[data-day='{today['today']}']")
    expect(played).to_contain_text(str(mine["score"]))
    screenshot(page, "daily")

    page.click(f".daily-calendar .day[data-day='{today['today']}']")
    expect(page).to_have_url(f"{server}/#/daily/{today['today']}")
    page.wait_for_selector("#daily-body[data-ready=true]")
    page.locator(".daily-mine").first.wait_for()


def test_a_guest_is_asked_for_a_name_and_a_phone_reads_it_in_spanish(phone: Page) -> None:
    open_daily(phone)
    expect(phone.locator("#daily-title")).to_have_text("Reto del día")
    expect(phone.locator(".daily-guest")).to_be_visible()
    expect(phone.locator(".daily-play")).to_have_count(0)
    expect(phone.locator(".daily-board")).to_have_count(3)
    assert phone.evaluate(NO_OVERFLOW)


VERIFY = """async (record) => (await import("/static/verify.js")).verifyRecord(record)"""


def test_the_pages_verifier_proves_a_daily_record_and_names_a_changed_die(page: Page) -> None:
    """The page checks dice counted by roll as the core does: a record of one-die and two-dice rolls
    is proven, and a changed die fails at its event, the one the core's `verify` names."""
    import copy
    import random
    from datetime import date

    from shutthebox import Game
    from shutthebox.core.daily import Challenge
    from shutthebox.core.record import GameRecord
    from shutthebox.core.verify import verify
    from shutthebox.strategy.bots import make_bot

    challenge = Challenge(date(2026, 12, 1), 9)
    for seed in range(40):  # a game with a roll of one die: where counting by roll differs
        game = Game(challenge.rules, ["Ana"], dice=challenge.dice(random.Random(seed).randbytes(32)),
                    bots={0: make_bot("optimal")})
        game.step_bots()
        record = game.record().to_json()
        if any(len(event.get("roll", ())) == 1 for event in record["events"]):
            break
    else:
        raise AssertionError("no game of 40 rolled one die")
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    proven = page.evaluate(VERIFY, record)
    assert proven["proven"] is True
    last = max(i for i, event in enumerate(record["events"]) if "roll" in event)
    tampered = copy.deepcopy(record)
    tampered["events"][last]["roll"][0] = tampered["events"][last]["roll"][0] % 6 + 1
    found = page.evaluate(VERIFY, tampered)
    core = verify(GameRecord.from_json(tampered))
    assert found["proven"] is core.proven is False and found["event"] == core.event == last


def test_a_guest_asked_a_name_for_the_challenge_comes_back_to_it(phone: Page) -> None:
    """Regression: "Choose a name" on the daily page took the player to the home page's form, and
    once the name was saved left them there, the challenge they came for out of sight."""
    phone.goto("/")
    phone.wait_for_selector("body[data-ready=true]")
    phone.click("#profile-cancel")
    open_daily(phone)
    phone.locator(".daily-guest button").click()
    expect(phone.locator("#profile-input")).to_be_focused()
    make_profile(phone, "Delia")
    phone.wait_for_url("**/#/daily")
    phone.wait_for_selector("#daily-body[data-ready=true]")
    expect(phone.locator("#view-daily")).to_be_visible()
    expect(phone.locator("#daily-9 .daily-play")).to_be_visible()  # named now: the challenge is open to play
