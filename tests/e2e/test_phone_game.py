"""The game on a 390 x 844 phone first (issue 28), and on a 1280 x 800 desktop: a whole 12-tile game
of four players passing one device, in English and in Spanish, where at every state the box, the
dice, the status (or the turn's end banner) and the selection line are on screen and clear of the
bottom bar; nothing but a compact bar above the board; no keyboard badges on a touch screen; a
watcher's board not greyed."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import fresh_page, screenshot
from tests.support.play import (
    READY,
    click_once,
    handing_over,
    is_over,
    my_turn,
    new_room,
    phase,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

GEOMETRY = """() => {
  const rect = (selector) => {
    const node = document.querySelector(selector);
    if (!node || node.closest('[hidden]')) return null;
    const r = node.getBoundingClientRect();
    return r.width || r.height ? { top: r.top, bottom: r.bottom, left: r.left, right: r.right } : null;
  };
  const bar = document.querySelector('#controls');
  const barShown = bar && getComputedStyle(bar).display !== 'none';
  return {
    bar: barShown ? rect('#controls') : null,
    box: rect('#box'), dice: rect('#dice'), status: rect('#status'), handover: rect('#handover'),
    selection: rect('#selection'), players: rect('#players'),
  };
}"""


@pytest.fixture
def phone(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    locale, screen = getattr(request, "param", ("en-US", PHONE))
    with fresh_page(browser, server, locale=locale, **screen) as page:
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        page.click("#profile-cancel")
        yield page


def assert_clear_of_the_bar(page: Page, moment: str) -> None:
    """The box, the dice, the status or banner and the selection line are inside the screen and above
    the bottom bar (their boxes compared with the bar's)."""
    seen = page.evaluate(GEOMETRY)
    size = page.viewport_size
    assert size is not None
    limit = seen["bar"]["top"] if seen["bar"] else size["height"]
    for name in ("box", "dice", "status", "handover", "selection"):
        rect = seen[name]
        if rect is None:
            continue
        assert rect["top"] >= 0 and rect["bottom"] <= limit + 0.5, (moment, name, rect, seen["bar"])
        assert rect["left"] >= 0 and rect["right"] <= size["width"] + 0.5, (moment, name, rect)
    assert seen["box"] is not None and seen["dice"] is not None, moment
    assert (seen["status"] or seen["handover"]) is not None, moment


def four_at_one_phone(page: Page, names: tuple[str, ...]) -> None:
    """Four friends at this device on twelve tiles (the room made as the setup makes it)."""
    seats = [{"kind": "here", "name": name} for name in names]
    code = new_room(page, {"preset": "web", "rules": {"tiles": 12, "mode": "round"}, "seats": seats})
    page.goto(f"/#/room/{code}")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")


@pytest.mark.parametrize("phone", [("en-US", PHONE), ("es-ES", PHONE), ("es-ES", DESKTOP)], indirect=True,
                         ids=["en-phone", "es-phone", "es-desktop"])
def test_a_whole_twelve_tile_game_of_four_keeps_the_board_and_its_words_above_the_bar(phone: Page) -> None:
    page = phone
    four_at_one_phone(page, ("Ana", "Luis", "Eva", "Marta"))
    # above the board: a compact bar, the room's one line, one row of chips
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= 60, header
    rows = "(list) => new Set([...list.children].map((chip) => chip.offsetTop)).size"
    assert page.locator("#players").evaluate(rows) == 1
    box = page.locator("#box").bounding_box()
    assert box is not None and box["y"] <= 200, box
    states = 0
    for _ in range(400):
        page.wait_for_function(READY)
        if is_over(page):
            break
        assert_clear_of_the_bar(page, f"state {states}: {phase(page)}")
        if states == 12 and page.get_attribute("html", "lang") == "en":
            screenshot(page, "table" if (page.viewport_size or {}).get("width") == 1280 else "table-phone")
        states += 1
        if handing_over(page):
            page.click("#btn-next")
        elif phase(page) == "choose":
            page.click("#btn-two" if page.is_enabled("#btn-two") else "#btn-one")
        elif phase(page) in ("roll", "roll-off"):
            page.click("#btn-roll")
        else:
            moves: list[list[int]] = json.loads(page.get_attribute("#tiles", "data-legal") or "[]")
            if not moves:
                continue
            for tile in max(moves, key=len):
                page.click(f"#tiles [data-tile='{tile}']")
                assert_clear_of_the_bar(page, f"state {states}: picking")  # "Selected: … need N"
            page.click("#btn-shut")
    assert is_over(page)
    assert states > 12  # four turns' rolls, moves and banners, each looked at


def test_on_a_touch_screen_no_button_carries_a_keyboard_badge(phone: Page) -> None:
    page = phone
    page.click("#quick-9")
    expect(page.locator("#btn-roll")).to_be_visible()
    badges = page.locator("kbd").evaluate_all("(all) => all.filter((k) => k.getClientRects().length).length")
    assert badges == 0
    expect(page.locator(".keys")).to_be_hidden()


def test_while_the_computer_plays_no_roll_waits_in_the_bar_and_its_board_is_not_greyed(phone: Page) -> None:
    page = phone
    seats = [{"kind": "bot", "name": "Robot", "bot": "medium"}, {"kind": "here", "name": "Ana"}]
    code = new_room(page, {"preset": "web", "rules": {"mode": "round", "shut_wins": False}, "hints": True,
                           "seats": seats})
    page.goto(f"/#/room/{code}")
    watched = 0
    for _ in range(400):
        if page.get_attribute("#box", "data-status") == "over":
            break
        seen = page.evaluate(WATCHING)
        if seen["botActive"] and not seen["held"]:
            watched += 1
            assert not seen["rollShown"], "no big disabled Roll while another plays"
            assert seen["greyed"] == 0, "a watcher's board shows the board, not which tiles cannot be used"
        elif my_turn(page):
            click_once(page)
            continue
        page.wait_for_timeout(10)
    assert watched > 0


WATCHING = """() => {
  const active = document.querySelector('#players .player.active');
  const roll = document.querySelector('#btn-roll');
  return {
    botActive: Boolean(active && active.dataset.seat === '0'),
    held: !document.querySelector('#handover').hidden,
    rollShown: !roll.hidden,
    greyed: [...document.querySelectorAll('#tiles .tile:not(.shut)')]
      .filter((t) => getComputedStyle(t).filter !== 'none').length,
  };
}"""
