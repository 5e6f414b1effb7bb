"""The page in a real headless Chromium: solo by clicks and by keys, an online room, languages, bests."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import screenshot
from tests.support.play import (
    READY,
    choose_way,
    click_once,
    handing_over,
    is_over,
    join_as,
    make_profile,
    more_options,
    my_turn,
    new_room,
    phase,
    play_solo,
    press_once,
)


def start_quick_solo(page: Page, tiles: int, profile: str | None = None) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    if profile:
        make_profile(page, profile)
    page.click(f"#quick-{tiles}")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")


def final_score(page: Page) -> int:
    text = page.locator("#final-score").inner_text()
    return int(re.findall(r"\d+", text)[-1])


def test_a_solo_game_by_clicks_ends_with_score_grade_and_review(page: Page, server: str) -> None:
    start_quick_solo(page, 9)
    expect(page.locator("#tiles .tile")).to_have_count(9)
    expect(page.locator("#btn-roll")).to_be_enabled()
    expect(page.locator("#tiles .tile").first).to_be_disabled()  # nothing to shut before the roll
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    expect(page.locator("#dice")).to_have_attribute("aria-label", re.compile(r"Dice: \d \+ \d"))
    expect(page.locator("#announce")).to_contain_text("roll")
    screenshot(page, "solo")
    play_solo(page, click_once)

    expect(page.locator("#result")).to_be_visible()
    grade = page.locator("#final-grade").inner_text()
    assert grade in {"S", "A", "B", "C", "F"}
    score = final_score(page)
    shut = page.locator("#tiles .tile.shut").count()
    assert shut >= 1
    open_sum = sum(
        int(tile.get_attribute("data-tile") or 0)
        for tile in page.locator("#tiles .tile:not(.shut)").all()
    )
    assert score == open_sum  # classic scoring: the sum of the tiles left open
    code = page.locator("#room-info strong").inner_text().split()[-1]
    saved = httpx.get(f"{server}/api/rooms/{code}").json()
    assert saved["saved_game_id"] is not None
    assert saved["match"]["history"][0]["score"] == score

    page.click("#btn-review")
    expect(page.locator("#review table tbody tr").first).to_be_visible()
    if httpx.get(f"{server}/api/rooms/{code}/review").json()["accuracy"]:  # none if every choice was forced
        expect(page.locator("#review .accuracy")).to_contain_text("Accuracy of")


def test_a_solo_game_by_keyboard_on_twelve_tiles(page: Page) -> None:
    start_quick_solo(page, 12)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("r")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    last = page.locator("#tiles .tile:not([disabled])").last
    number = int(last.get_attribute("data-tile") or 0)
    page.keyboard.press({10: "0", 11: "-", 12: "="}.get(number, str(number)))
    expect(last).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(last).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("h")  # in a ranked game, a warning first: the hint costs this game's bests
    expect(page.locator("#hint-confirm")).to_be_focused()
    page.keyboard.press("Enter")  # the solver's ranked choices, the best tiles marked on the board
    expect(page.locator("#hint ol li").first).to_be_visible()
    assert page.locator("#tiles .tile.hinted").count() >= 1
    play_solo(page, press_once)
    expect(page.locator("#final-grade")).to_have_text(re.compile("^[SABCF]$"))


def test_a_two_player_online_room_in_two_browsers(browser: Browser, server: str) -> None:
    host = browser.new_context(locale="en-US", base_url=server).new_page()
    guest = browser.new_context(locale="es-ES", base_url=server).new_page()
    host.goto("/")
    host.wait_for_selector("body[data-ready=true]")
    more_options(host)  # every rule is in the Rules panel
    host.click("[data-who=online]")
    host.fill("#seat-name-0", "Ana")
    host.click("#start")
    code = host.locator("#room-code").inner_text()
    assert re.fullmatch(r"[A-Z2-9]{5}", code)
    link = host.locator("#share-link").get_attribute("href") or ""
    assert link.endswith(f"#/room/{code}")

    guest.goto(link)
    guest.wait_for_selector("body[data-ready=true]")
    join_as(guest, host, code)
    screenshot(host, "online")

    for _ in range(200):
        if is_over(host) and is_over(guest):
            break
        mover = next((p for p in (host, guest) if my_turn(p)), None)
        if mover is None:
            host.wait_for_timeout(50)
            continue
        idle = guest if mover is host else host
        if not handing_over(mover) and not handing_over(idle):  # a held turn's end may be taken over
            # the other page has no control left once the news reaches it (a moment after the mover's)
            expect(idle.locator("#controls button:not([hidden]):not([disabled])")).to_have_count(0)
            expect(idle.locator("#tiles .tile:not([disabled])")).to_have_count(0)
        click_once(mover)
    expect(host.locator("#winner")).to_be_visible()
    winner = next(name for name in ("Ana", "Luis") if name in host.locator("#winner").inner_text())
    expect(guest.locator("#winner")).to_contain_text(winner)
    host.context.close()
    guest.context.close()


def test_a_game_against_a_bot_from_the_setup_panel(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("[data-who=bots]")  # the computer's strength first, then the rules
    more_options(page)
    page.select_option("#opt-mode", "round")
    page.uncheck("#opt-shut_wins")
    page.click("#strength-expert")
    expect(page.locator("#players .name")).to_have_text([re.compile("."), "Robot"])
    play_solo(page, click_once, limit=120)
    expect(page.locator("#winner")).to_be_visible()
    assert page.locator("#result .turns li").count() >= 2  # the bot played its turn on the server


def test_the_language_follows_the_browser_and_the_switch(browser: Browser, server: str) -> None:
    page = browser.new_context(locale="es-ES", base_url=server).new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator(".brand h1")).to_have_text("Cerrar la Caja")
    expect(page.locator("#start")).to_have_text("Jugar")
    page.click("#nav-rules")
    expect(page.locator("#rules-text")).to_contain_text("¿Cómo se gana en Shut the Box?")
    page.click("button[data-lang=en]")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".brand h1")).to_have_text("Shut the Box")
    expect(page.locator("#rules-text")).to_contain_text("How do you win at Shut the Box?")
    expect(page.locator("button[data-lang=en]")).to_have_attribute("aria-pressed", "true")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator(".brand h1")).to_have_text("Shut the Box")  # the choice is remembered
    page.context.close()


def test_the_best_score_is_remembered_after_a_reload(page: Page) -> None:
    start_quick_solo(page, 12, profile="Remy")  # the leaderboard shows profiles only
    play_solo(page, click_once)
    score = final_score(page)
    expect(page.locator("#best-local")).to_contain_text(str(score))
    expect(page.locator("#best-local .new-best")).to_be_visible()
    page.goto("/")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    best = page.locator("#local-bests li[data-tiles='12']")
    expect(best).to_contain_text(f": {score} ")
    page.click("#nav-scores")  # the server keeps it too, with the leaderboard
    page.click("#board-tiles [data-tiles='12']")
    expect(page.locator("#leaderboard table")).to_contain_text("Player")
    expect(page.locator("#leaderboard table")).to_contain_text("Remy")
    expect(page.locator("#server-bests")).to_contain_text("12 tiles")


def test_the_phone_layout_fits_the_screen(browser: Browser, server: str) -> None:
    phone = {"width": 390, "height": 844}
    page = browser.new_context(locale="en-US", base_url=server, viewport=phone).new_page()
    start_quick_solo(page, 12)
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out sideways
    box = page.locator("#tiles .tile[data-tile='12']").bounding_box()
    assert box is not None and box["width"] >= 40  # twelve tiles on two rows, big enough to tap
    assert phase(page) == "move"
    screenshot(page, "phone")
    page.context.close()


WIDE = "document.documentElement.scrollWidth"


def test_long_names_wrap_and_the_phone_page_keeps_its_width(browser: Browser, server: str) -> None:
    """Regression (a hostile client, issue 29): a name of 24 letters with no space, which every name
    check allows, made the whole page of every player at the table 450-540 px wide on a 390 px phone:
    the felt's words cut off on the right, the result's headline and standings too, and the bar of
    buttons slid off the screen."""
    phone = {"width": 390, "height": 844}
    page = browser.new_context(locale="en-US", base_url=server, viewport=phone).new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    long, other = "W" * 23 + "Q", "M" * 23 + "Q"
    code = new_room(page, {"seats": [{"name": long}, {"kind": "bot", "bot": "easy", "name": other}],
                           "rules": {"tiles": 9, "mode": "round"}, "seed": 5})
    page.goto(f"/#/room/{code}")
    page.wait_for_function(READY)
    assert page.evaluate(WIDE) <= 390
    play_solo(page, click_once)
    expect(page.locator("#result")).to_be_visible()
    assert page.evaluate(WIDE) <= 390  # the result's headline, the standings, the bar of buttons
    page.context.close()


def test_the_rules_page_opens_offline_once_the_page_was_loaded(browser: Browser, server: str) -> None:
    context = browser.new_context(locale="en-US", base_url=server)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker, which caches the page and its modules
    page.wait_for_selector("body[data-ready=true]")
    context.set_offline(True)
    offline = context.new_page()
    offline.goto("/#/rules")
    expect(offline.locator("#rules-text")).to_contain_text("How do you win at Shut the Box?")
    context.close()


def test_a_refusal_is_told_in_the_readers_language(browser: Browser, server: str) -> None:
    page = browser.new_context(locale="es-ES", base_url=server).new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    choose_way(page, "online")  # joining a room is online's
    page.fill("#join-code", "ZZZZZ")  # no such room: the server answers 404 "not-found"
    page.fill("#join-name", "Luis")
    page.click("#join-button")
    expect(page.locator("#join-error")).to_have_text("No hay ninguna sala 'ZZZZZ'.")  # the server's own words
    page.click("button[data-lang=en]")
    page.click("#join-button")
    expect(page.locator("#join-error")).to_have_text("There is no room 'ZZZZZ'.")
    page.context.close()
