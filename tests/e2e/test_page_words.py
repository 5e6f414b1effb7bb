"""The page's words and small manners (issue 28): nothing of the ledger or the commitment above the
board, the Shut button in one language, days and numbers as the language writes them, the Spanish
header on one line, an empty room code asked for, the daily page without refused requests, and
names no longer than the server takes."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, Route, expect

from tests.support.browser import fresh_page
from tests.support.play import (
    READY,
    choose_way,
    click_once,
    is_over,
    legal_moves,
    make_profile,
    new_room,
    phase,
    play_solo,
)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(("en-US", DESKTOP), id="en-desktop"), pytest.param(("es-ES", PHONE), id="es-phone"),
         pytest.param(("es-ES", DESKTOP), id="es-desktop"), pytest.param(("en-US", PHONE), id="en-phone")]

ABOVE_THE_BOARD = """() => {
  const box = document.querySelector('#box');
  const above = [...document.querySelectorAll('#view-game > *')].filter(
    (node) => node.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING && node.checkVisibility());
  return above.map((node) => node.innerText).join('\\n');
}"""


@pytest.fixture
def page(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    locale, viewport = getattr(request, "param", ("en-US", DESKTOP))
    with fresh_page(browser, server, locale=locale, viewport=viewport) as opened:
        opened.goto("/")
        opened.wait_for_selector("body[data-ready=true]")
        yield opened


@pytest.mark.parametrize("page", SIZES, indirect=True)
def test_above_the_board_no_ledger_no_commitment_and_shut_in_one_language(page: Page) -> None:
    page.click("#profile-cancel")
    seats = [{"kind": "here", "name": "Ana"}, {"kind": "here", "name": "Luis"}]
    code = new_room(page, {"preset": "web", "rules": {"mode": "round", "stake": 2}, "seats": seats})
    page.goto(f"/#/room/{code}")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    expect(page.locator("#players .ledger").first).to_be_visible()
    above = page.evaluate(ABOVE_THE_BOARD)
    assert not re.search(r"(?i)ledger|commitment|compromiso|libro|[0-9a-f]{8}", above), above
    assert not re.search(r"\b(here|aquí)\b", above), above
    spanish = page.get_attribute("html", "lang") == "es"
    expect(page.locator("#shut-label")).to_have_text("Cerrar" if spanish else "Shut")
    expect(page.locator("#players .ledger").first).to_have_text("Dinero: 0" if spanish else "Money: 0")


@pytest.mark.parametrize("page", [("es-ES", DESKTOP)], indirect=True)
def test_the_spanish_header_keeps_one_line_at_1280(page: Page) -> None:
    make_profile(page, "Maximiliana Covadonga")  # the profile's chip takes its place in the bar too
    tops = page.locator("header.top").evaluate(
        "(top) => [...top.querySelectorAll('a, button')].filter((n) => n.checkVisibility())"
        ".map((n) => n.getBoundingClientRect().top)")
    assert max(tops) - min(tops) < 20, tops  # one row
    height = page.locator("header.top").bounding_box()
    assert height is not None and height["height"] <= 72, height


@pytest.mark.parametrize("page", [("en-US", DESKTOP), ("es-ES", PHONE)], indirect=True)
def test_an_empty_room_code_is_asked_for_in_the_pages_language(page: Page) -> None:
    page.click("#profile-cancel")
    page.goto("/#/room/")
    expect(page.locator("#join")).to_be_visible()
    page.fill("#join-name", "Ana")
    page.click("#join-button")
    spanish = page.get_attribute("html", "lang") == "es"
    expect(page.locator("#join-error")).to_have_text(
        "Escribe primero el código de la sala: cinco letras, tal como lo ve el otro jugador." if spanish
        else "Type the room's code first: five letters, as the other player sees it.")
    expect(page.locator("#join-code")).to_be_focused()


@pytest.mark.parametrize("page", [("es-ES", DESKTOP)], indirect=True)
def test_the_daily_page_says_its_days_in_words_and_asks_nothing_it_is_refused(page: Page) -> None:
    make_profile(page, "Irene")
    refused: list[str] = []
    page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    errors: list[str] = []
    page.on("console", lambda line: errors.append(line.text) if line.type == "error" else None)
    page.goto("/#/daily")
    page.wait_for_selector("#daily-body[data-ready=true]")
    intro = page.locator("#daily-body p").first.inner_text()
    assert not re.search(r"\d{4}-\d{2}-\d{2}", intro), intro
    assert re.match(r"Hoy, \d{1,2} de \w+:", intro), intro
    labels = page.locator(".daily-calendar .day").evaluate_all("(days) => days.map((d) => d.title)")
    assert labels and not [label for label in labels if re.search(r"\d{4}-\d{2}-\d{2}", label)], labels
    assert refused == [] and errors == [], (refused, errors)


@pytest.mark.parametrize("page", [("en-US", PHONE)], indirect=True)
def test_every_name_field_takes_what_the_server_takes(page: Page) -> None:
    expect(page.locator("#profile-input")).to_have_attribute("maxlength", "24")
    page.click("#profile-cancel")
    choose_way(page, "table")
    for index in (0, 1):
        expect(page.locator(f"#seat-name-{index}")).to_have_attribute("maxlength", "24")
    choose_way(page, "online")
    expect(page.locator("#join-name")).to_have_attribute("maxlength", "24")
    page.fill("#seat-name-0", "x" * 40)
    assert len(page.input_value("#seat-name-0")) == 24


@pytest.mark.parametrize("page", [("es-ES", PHONE)], indirect=True)
def test_the_cheat_sheet_fits_a_phone_has_landmarks_and_writes_decimals_in_spanish(page: Page) -> None:
    page.goto("/api/cheatsheet?preset=web&tiles=9&lang=es")
    expect(page.locator("main h1")).to_contain_text("la mejor jugada para cada tirada")
    width = page.evaluate("document.documentElement.clientWidth")
    assert width == PHONE["width"], width  # laid out for the phone, not 980 px wide
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    region = page.locator("[role=region]")
    expect(region).to_have_attribute("tabindex", "0")  # the table scrolls inside it, by keyboard too
    expected = page.locator("tbody tr td:nth-child(3)").all_inner_texts()
    assert expected and all(re.fullmatch(r"\d+,\d", value) for value in expected), expected[:5]
    found = [v["id"] for v in Axe().run(page).response["violations"]]
    assert found == [], found


def test_when_one_die_may_be_rolled_the_focus_is_on_one_die(page: Page) -> None:
    page.click("#profile-cancel")
    for seed in range(1, 15):  # practice dice: a game that comes to the choice of dice
        code = new_room(page, {"preset": "web", "seats": [{"kind": "here", "name": "Ana"}], "seed": seed})
        page.goto(f"/#/room/{code}")
        expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        for _ in range(40):
            page.wait_for_function(READY)
            if is_over(page):
                break
            if phase(page) == "choose":
                expect(page.locator("#btn-one")).to_be_focused()
                return
            if phase(page) == "move":  # the highest tiles first, to come soon to 6 or less
                for tile in max(legal_moves(page), key=max):
                    page.click(f"#tiles [data-tile='{tile}']")
                page.click("#btn-shut")
            else:
                click_once(page)
    raise AssertionError("no game came to the choice of dice")


@pytest.mark.parametrize("page", [("es-ES", PHONE)], indirect=True)
def test_spanish_decimals_in_the_review_and_the_leaderboard(page: Page) -> None:
    def accuracy(route: Route) -> None:
        answer = route.fetch().json()
        graded = answer["accuracy"] or [answer["decisions"][0]["player"]]  # every choice forced: none graded
        route.fulfill(json={**answer, "accuracy": dict.fromkeys(graded, 99.2)})

    def board(route: Route) -> None:
        entry = {"rank": 1, "player": "Marta", "best": 4, "average": 13.67, "turns": 3, "shut_boxes": 0}
        route.fulfill(json={**route.fetch().json(), "entries": [entry]})

    page.route("**/api/rooms/*/review", accuracy)
    page.route("**/api/leaderboard?*", board)
    page.click("#profile-cancel")
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    play_solo(page, click_once)
    page.click("#btn-review")
    expect(page.locator("#review .accuracy").first).to_have_text(re.compile(r": 99,2 %$"))
    page.goto("/#/scores")
    expect(page.locator("#leaderboard tbody td").nth(3)).to_have_text("13,67")
