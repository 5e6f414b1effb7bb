"""Players who leave and players who play again, in a real Chromium: the turn clock runs on the
seat whose turn it is, a bot stands in for a player who left, and "Play again" is a rematch that
takes everyone who accepts to one new room."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.support.play import click_once, is_over, join_as, more_options, my_turn, play_solo

PHONE: ViewportSize = {"width": 390, "height": 844}
DESK: ViewportSize = {"width": 1200, "height": 900}
NOTICE = """() => {
  const notice = document.querySelector('#notice');
  return [document.querySelector('#box').dataset.status, notice.hidden, notice.textContent];
}"""


Opener = Callable[..., Page]


@pytest.fixture
def open_page(browser: Browser, server: str) -> Iterator[Opener]:
    """Open the page in a browser of its own (a phone's, given its viewport); any script error
    of any of them fails the test."""
    contexts = []
    errors: list[str] = []

    def opener(viewport: ViewportSize = DESK) -> Page:
        context = browser.new_context(locale="en-US", base_url=server, viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        return page

    yield opener
    for context in contexts:
        context.close()
    assert errors == []


def room_code(page: Page) -> str:
    return page.locator("#room-info strong").inner_text().split()[-1]


def online_room(host: Page, guest: Page, turn_seconds: int | None = None, rounds: int = 1) -> str:
    """Ana opens an online room (with a turn clock of ``turn_seconds`` when given), Luis joins it."""
    more_options(host)  # every rule is in the Rules panel
    host.click("[data-who=online]")
    host.fill("#seat-name-0", "Ana")
    host.fill("#opt-rounds", str(rounds))
    host.press("#opt-rounds", "Tab")
    expect(host.locator("#online")).to_be_visible()
    if turn_seconds is not None:  # the setup offers 30 s and more: a test does not wait that long
        host.evaluate(
            "(n) => document.querySelector('#opt-turn_seconds').append(new Option(`${n} s`, String(n)))",
            turn_seconds,
        )
        host.select_option("#opt-turn_seconds", str(turn_seconds))
    host.click("#start")
    code = host.locator("#room-code").inner_text()
    guest.goto(f"/#/room/{code}")
    join_as(guest, host, code)
    return code


def play_while(page: Page, waiting: Callable[[], bool], seconds: float = 60) -> None:
    """Play ``page``'s turns (promptly: its clock runs too) while ``waiting()`` holds."""
    end = time.monotonic() + seconds
    while waiting():
        assert time.monotonic() < end, "waited too long"
        if my_turn(page):
            click_once(page)
        else:
            page.wait_for_timeout(50)


def play_both(pages: tuple[Page, Page], limit: int = 300) -> None:
    """Whoever's turn it is plays, until both pages show the game over."""
    for _ in range(limit):
        if all(is_over(page) for page in pages):
            return
        mover = next((page for page in pages if my_turn(page)), None)
        if mover is None:
            pages[0].wait_for_timeout(50)
        else:
            click_once(mover)
    raise AssertionError("the game did not end")


def fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_player_who_closes_the_tab_is_replaced_by_a_bot(open_page: Opener) -> None:
    host = open_page()
    guest = open_page(PHONE)
    online_room(host, guest, turn_seconds=5, rounds=2)  # two turns for Luis at least: two misses
    for page in (host, guest):  # the seat whose time runs shows it, urgent under ten seconds
        expect(page.locator("#players .clock")).to_have_count(1)
        expect(page.locator("#players .clock")).to_have_text(re.compile(r"^◷ [0-5] s$"))
        expect(page.locator("#players .clock")).to_have_class(re.compile(r"\burgent\b"))
    mover = host if my_turn(host) else guest
    expect(mover.locator("#my-clock")).to_have_text(re.compile(r"^Your move: [0-5] s$"))
    assert fits(guest)
    guest.context.close()  # Luis is gone for good

    luis = host.locator("#players li[data-seat='1']")
    def present() -> bool:
        return "away" not in (luis.get_attribute("class") or "") and luis.locator(".stand-in").count() == 0

    play_while(host, present)  # his page is closed: his seat shows it
    play_while(host, lambda: luis.locator(".clock").count() == 0)  # his turn: the clock runs for him
    expect(luis.locator(".clock")).to_have_text(re.compile(r"^◷ [0-5] s$"))
    log = host.locator("#log")
    play_while(host, lambda: "Luis ran out of time: a bot played for them." not in (log.text_content() or ""))
    play_while(host, lambda: luis.locator(".stand-in").count() == 0)  # the second miss: he has left
    expect(luis.locator(".stand-in")).to_have_text("bot stands in")
    left = "Luis left: a bot plays for them from now on."
    assert left in (log.text_content() or "")
    status, hidden, notice = host.evaluate(NOTICE)
    if status == "playing":  # the banner says it while the game goes on
        assert (hidden, notice) == (False, left)

    play_while(host, lambda: not is_over(host), seconds=120)  # Ana plays on, the bot for Luis
    expect(host.locator("#winner")).to_be_visible()
    turns = host.locator("#result .turns li")
    expect(turns.filter(has_text="Luis:")).not_to_have_count(0)  # his turn was played to its end
    assert "(played by a bot)" in (log.text_content() or "")


def test_both_players_accept_a_rematch_and_play_on_in_one_new_room(open_page: Opener) -> None:
    host = open_page()
    guest = open_page(PHONE)
    code = online_room(host, guest)
    play_both((host, guest))

    host.click("#btn-again")  # Ana offers: Luis is asked, and sees the time he has to answer
    expect(host.locator("#rematch-outcome")).to_have_text("Waiting for the others to answer…")
    expect(guest.locator("#rematch")).to_contain_text("Ana offers a rematch")
    answers = [re.compile("Ana.*plays again"), re.compile("Luis.*deciding")]
    expect(guest.locator("#rematch .rematch-answers li")).to_have_text(answers)
    expect(guest.locator("#rematch-left")).to_have_text(re.compile(r"^Time left to answer: \d+ s$"))
    expect(guest.locator("#btn-again")).to_be_hidden()  # one way to answer: the panel's buttons
    expect(guest.locator("#rematch .hex")).to_be_visible()  # the new dice, committed to before he answers
    expect(guest.locator("#rematch-decline")).to_be_visible()
    assert fits(guest)
    guest.locator("#rematch-accept").focus()
    guest.keyboard.press("Enter")  # by keyboard

    for page in (host, guest):
        expect(page).not_to_have_url(re.compile(f"#/room/{code}$"))
        expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        expect(page.locator("#waiting")).to_be_hidden()  # every seat is taken: no invitation again
        expect(page.locator("#dice .die")).to_have_count(0)  # nor the last game's dice on the felt
    new_code = room_code(host)
    assert new_code != code
    assert room_code(guest) == new_code
    # the same seats, each played with the token it had
    expect(guest.locator("#players li[data-seat='1'] .badges")).to_contain_text("you")
    expect(host.locator("#players li[data-seat='0'] .badges")).to_contain_text("you")
    for page in (host, guest):
        expect(page.locator("#players .name")).to_have_text(["Ana", "Luis"])
        expect(page.locator("#players li[data-seat='1'] .badges")).to_contain_text("online")
        # each page's fresh client seed is in the new room's dice
        expect(page.locator("#fairness")).to_contain_text("(yours)")
    play_both((host, guest))
    expect(host.locator("#winner")).to_be_visible()
    assert fits(guest)
    guest.click("#btn-verify")  # the commitment he saw before answering is the new room's
    expect(guest.locator("#verify")).to_have_attribute("data-proven", "true")
    expect(guest.locator("#verify .checks")).to_contain_text("The commitment is the one this page showed")


def test_play_again_alone_starts_the_new_game_at_once(open_page: Opener) -> None:
    page = open_page()
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    code = room_code(page)
    play_solo(page, click_once)
    page.click("#btn-again")  # nobody else to ask: no extra click
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    assert room_code(page) != code
    expect(page.locator("#fairness")).to_contain_text("(yours)")
    play_solo(page, click_once)
    expect(page.locator("#final-grade")).to_have_text(re.compile("^[SABCF]$"))
