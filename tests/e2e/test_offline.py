"""The page without its server: offline practice (the page rolls, the engine rules), the companion
beside a real box (its advice is ``shutthebox hint``'s), and the ranked game saying it needs the
server. Each offline test visits once online, so the service worker has kept the page, then cuts
the network."""

from __future__ import annotations

import json
import random
import re
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, expect

from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.rules import Rules
from shutthebox.core.tiles import mask_of, tiles_of
from shutthebox.strategy.advice import advise_position
from shutthebox.strategy.names import Objective
from tests.support.browser import screenshot

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
"""The phone the companion is designed for."""
AXE = Axe()


@contextmanager
def offline_page(
    browser: Browser, server: str, locale: str = "en-US"
) -> Iterator[tuple[BrowserContext, Page]]:
    """A phone's page that visited once online (the service worker took the page and the tables),
    then lost the network; any script error fails the test, and no game ever goes to the server."""
    context = browser.new_context(base_url=server, locale=locale, reduced_motion="reduce", **PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    sent: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    context.on("request", lambda request: sent.extend([request.url] if "/api/rooms" in request.url else []))
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    context.set_offline(True)
    page.goto("/#/")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    yield context, page
    context.close()
    assert errors == []
    assert sent == []  # practice and the companion never send a game


def open_tiles(page: Page, board: str) -> list[int]:
    tiles = page.locator(f"{board} .tile:not(.shut)")
    return [int(n) for n in tiles.evaluate_all("(ts) => ts.map((t) => t.dataset.tile)")]


def faces_of(page: Page, tray: str) -> list[int]:
    """The faces a tray of dice shows."""
    return [int(f) for f in (page.locator(tray).get_attribute("data-faces") or "").split(",")]


def phase_changes(page: Page, box: str, step: str | None) -> None:
    """Wait until the practice box is past ``step`` (a roll landed, a move made) and still."""
    page.wait_for_function(
        f"(s) => {{ const b = document.querySelector('{box}');"
        " return b.dataset.step !== s && b.dataset.phase !== 'rolling'; }",
        arg=step,
    )


def a_move(open_: list[int], total: int) -> list[int]:
    """Some tiles of ``open_`` adding up to ``total`` (the highest first): the test's own player."""
    for size in range(1, len(open_) + 1):
        for tiles in combinations(sorted(open_, reverse=True), size):
            if sum(tiles) == total:
                return list(tiles)
    raise AssertionError(f"no move for {total} on {open_}")


def play_practice(page: Page, tiles: int) -> str:
    """A whole practice game on ``tiles`` tiles, the page rolling; the result's text."""
    page.goto("/#/practice")
    page.click("#practice-change") if page.locator("#practice-change").is_visible() else None
    page.click(f"#practice-quick-{tiles}") if tiles in (9, 10, 12) else page.click("#practice-start")
    box = page.locator("#practice-box")
    for _ in range(200):
        phase = box.get_attribute("data-phase")
        step = box.get_attribute("data-step")
        if phase == "over":
            break
        if phase == "dice":
            page.locator("#practice-two:visible, #practice-one:visible").first.click()
        elif phase == "roll":
            page.click("#practice-roll")
        elif phase == "move":
            for tile in a_move(open_tiles(page, "#practice-tiles"), sum(faces_of(page, "#practice-dice"))):
                page.click(f"#practice-tiles .tile[data-tile='{tile}']")
            page.click("#practice-shut")
        phase_changes(page, "#practice-box", step)
    expect(page.locator("#practice-result")).to_be_visible()
    return page.locator("#practice-result").inner_text()


def test_offline_practice_plays_a_whole_9_and_12_tile_game_marked_practice(
    browser: Browser, server: str
) -> None:
    with offline_page(browser, server) as (_context, page):
        expect(page.locator("#reach")).to_be_visible()
        expect(page.locator("#reach")).to_contain_text("Offline")
        page.click("#reach a[href='#/practice']")
        expect(page.locator("#practice-banner")).to_contain_text("counts for no ranking")
        for tiles in (9, 12):
            result = play_practice(page, tiles)
            assert "Score" in result and "grade" in result
            assert "Practice: not ranked, never sent to the server." in result
            expect(page.locator("#practice-tiles .tile")).to_have_count(tiles)
            expect(page.locator("#practice-rules")).to_contain_text(f"{tiles} tiles")


def test_practice_takes_every_solo_option(browser: Browser, server: str) -> None:
    """Ten tiles, one die forced when the open tiles sum under 6, two tiles at most, sailors' scoring
    and doubles' extra turns: the game is played to its end by those rules."""
    with offline_page(browser, server) as (_context, page):
        page.goto("/#/practice")
        page.click("#practice-more > summary")  # a first visit: the options folded under one tap
        page.select_option("#practice-tiles-count", "7")
        page.select_option("#practice-one_die", "sum-lt-6")
        page.select_option("#practice-scoring", "sum-plus-roll")
        page.select_option("#practice-max_tiles", "2")
        page.check("#practice-forced")
        page.check("#practice-doubles")
        page.click("#practice-start")
        expect(page.locator("#practice-rules")).to_contain_text("Most tiles per roll: 2")
        expect(page.locator("#practice-tiles .tile")).to_have_count(7)
        box = page.locator("#practice-box")
        for _ in range(200):
            phase = box.get_attribute("data-phase")
            step = box.get_attribute("data-step")
            if phase == "over":
                break
            if phase == "dice":
                raise AssertionError("one die is forced when allowed: never a choice")
            if phase == "roll":
                page.click("#practice-roll")
            else:
                total = sum(faces_of(page, "#practice-dice"))
                open_ = open_tiles(page, "#practice-tiles")
                # the page offers only moves of two tiles at most
                move = next(m for n in (1, 2) for m in combinations(open_, n) if sum(m) == total)
                for tile in move:
                    page.click(f"#practice-tiles .tile[data-tile='{tile}']")
                page.click("#practice-shut")
            phase_changes(page, "#practice-box", step)
        expect(page.locator("#practice-result")).to_contain_text("Practice")


def test_offline_a_round_passes_the_device_and_a_computer_plays_from_the_score_table(
    browser: Browser, server: str
) -> None:
    with offline_page(browser, server) as (_context, page):
        page.goto("/#/practice")
        page.click("#practice-more > summary")
        page.click("#practice-add-seat")
        page.fill("#practice-seat-0", "Ana")
        page.fill("#practice-seat-1", "Luis")
        page.click("#practice-add-bot")
        page.select_option("#practice-tiles-count", "9")
        page.click("#practice-start")
        expect(page.locator("#practice-players li")).to_have_count(3)
        box = page.locator("#practice-box")
        for _ in range(300):
            if page.locator("#practice-round").is_visible():
                break
            if page.locator("#practice-next").is_visible():
                page.click("#practice-next")
                continue
            # read in one go: between turns no seat is active, and a locator's read would wait for one
            seats = page.locator("#practice-players li.active")
            active = seats.evaluate_all("seats => seats.map(s => s.dataset.seat)")
            if active == ["2"]:  # the computer plays alone
                if page.locator("#practice-roll").is_visible():
                    expect(page.locator("#practice-roll")).to_be_disabled()
                page.wait_for_timeout(200)
                continue
            phase = box.get_attribute("data-phase")
            step = box.get_attribute("data-step")
            if phase == "dice":
                page.locator("#practice-two:visible, #practice-one:visible").first.click()
            elif phase == "roll":
                page.click("#practice-roll")
            elif phase == "move":
                total = sum(faces_of(page, "#practice-dice"))
                for tile in a_move(open_tiles(page, "#practice-tiles"), total):
                    page.click(f"#practice-tiles .tile[data-tile='{tile}']")
                page.click("#practice-shut")
            else:
                page.wait_for_timeout(100)
                continue
            phase_changes(page, "#practice-box", step)
        expect(page.locator("#practice-score")).to_contain_text("the round")
        expect(page.locator("#practice-mark")).to_have_text("Practice: not ranked, never sent to the server.")
        expect(page.locator("#practice-round li")).to_have_count(3)


def test_offline_the_ranked_game_says_it_needs_the_server(browser: Browser, server: str) -> None:
    with offline_page(browser, server) as (_context, page):
        expect(page.locator("#reach")).to_contain_text("ranked and online games")
        expect(page.locator("#offline")).to_be_visible()
        page.click("#quick-9")
        said = "The server cannot be reached: a game needs it to roll the dice."
        expect(page.locator("#quick-error")).to_contain_text(said)
        assert page.locator("#view-setup").is_visible()  # no game began, silently or not
        page.click("#offline-companion")
        expect(page.locator("#view-companion")).to_be_visible()


# -- the companion beside a real box -------------------------------------------------------------------
def hint_of(preset: str, tiles: int, objective: str, open_: list[int], dice: list[int] | None) -> Any:
    """``shutthebox hint``'s best choice for this position: a dice count or the tiles to shut."""
    rules = Rules.preset(preset, tiles=tiles)
    roll = Roll(tuple(dice)) if dice else None
    advice = advise_position(rules, mask_of(open_), roll, objective=Objective.parse(objective), one_off=True)
    best = advice.choices[0].action
    return best.count if isinstance(best, DiceChoice) else list(tiles_of(best.mask))


def start_companion(page: Page, preset: str, tiles: int, objective: str, players: int = 1) -> None:
    page.goto("/#/companion")
    if page.locator("#companion-new").is_visible():
        page.click("#companion-new")
    page.select_option("#companion-preset", preset)
    page.select_option("#companion-tiles-count", str(tiles))
    page.select_option("#companion-objective", objective)
    for _ in range(players - 1):
        page.click("#companion-add")
    page.click("#companion-start")


def advice_for(page: Page) -> None:
    """Wait for the advice drawn for the turn as it stands."""
    page.wait_for_function(
        "() => { const a = document.querySelector('#companion-advice');"
        " return a.dataset.for === document.querySelector('#companion-box').dataset.turn; }"
    )


def play_companion(page: Page, preset: str, tiles: int, objective: str, seed: int) -> int:
    """One player's turn at a real box, its dice typed: at every decision the first-ranked choice is
    ``shutthebox hint``'s. Moves are taken by "Shut the best", by tapping the tiles, and once by a
    wrong tap undone. The number of decisions checked."""
    dice_roller = random.Random(seed)
    box = page.locator("#companion-box")
    checked = 0
    undone = False
    for step in range(100):
        phase = box.get_attribute("data-phase")
        before = box.get_attribute("data-turn")
        open_ = open_tiles(page, "#companion-tiles")
        if phase == "over":
            return checked
        if phase == "dice":
            advice_for(page)
            first = int(page.locator("#companion-choices li").first.get_attribute("data-dice") or 0)
            assert first == hint_of(preset, tiles, objective, open_, None), f"dice on {open_}"
            checked += 1
            page.click(f"#companion-dice-{first}")
        elif phase == "roll":
            for _ in range(int(page.locator("#companion-pad").get_attribute("data-left") or 0)):
                page.click(f"#companion-pad .face[data-face='{dice_roller.randint(1, 6)}']")
        elif phase == "move":
            advice_for(page)
            faces = faces_of(page, "#companion-dice")
            best = page.locator("#companion-choices li").first.get_attribute("data-tiles") or ""
            first = [int(t) for t in best.split(",")]
            assert first == hint_of(preset, tiles, objective, open_, faces), f"move for {faces} on {open_}"
            # the best, marked on the box
            expect(page.locator("#companion-tiles .tile.hinted")).to_have_count(len(first))
            checked += 1
            if not undone and len(page.locator("#companion-choices li").all()) > 1:
                page.locator("#companion-choices li").nth(1).locator("button").click()  # a wrong tap…
                page.click("#companion-undo")  # …undone: the same roll, the same advice
                expect(box).to_have_attribute("data-phase", "move")
                undone = True
                continue
            if step % 2:
                page.locator("#companion-choices li.best button").click()
            else:
                for tile in first:
                    page.click(f"#companion-tiles .tile[data-tile='{tile}']")
                page.click("#companion-shut")
        page.wait_for_function(
            "(turn) => document.querySelector('#companion-box').dataset.turn !== turn", arg=before,
        )
    raise AssertionError("the turn never ended")


@pytest.mark.parametrize(
    ("preset", "tiles", "objective"),
    [  # every preset the companion offers, both objectives; web on every prebuilt board
        *((preset, 9, objective) for preset in ("web", "classic", "two-dice", "digits", "sailors", "pub")
          for objective in ("score", "shut")),
        ("web", 12, "score"), ("web", 10, "shut"),
    ],
)
def test_the_companion_ranks_as_shutthebox_hint_does(
    browser: Browser, server: str, preset: str, tiles: int, objective: str
) -> None:
    with offline_page(browser, server) as (_context, page):
        start_companion(page, preset, tiles, objective)
        checked = 0
        for seed in range(2):  # two rounds of one player
            checked += play_companion(page, preset, tiles, objective, seed)
            page.click("#companion-next")
            expect(page.locator("#companion-result")).to_be_visible()
            if not seed:
                page.click("#companion-again")
        assert checked >= 2
        expect(page.locator("#companion-rounds li")).to_have_count(2)


def test_the_companion_keeps_a_table_of_two_and_its_rounds(browser: Browser, server: str) -> None:
    with offline_page(browser, server) as (_context, page):
        start_companion(page, "web", 9, "score", players=2)
        for seat in range(2):
            expect(page.locator("#companion-players li.active")).to_have_attribute("data-seat", str(seat))
            play_companion(page, "web", 9, "score", seed=10 + seat)
            page.click("#companion-next")
        expect(page.locator("#companion-winner")).to_contain_text("the round")
        page.reload()  # kept in this browser
        page.wait_for_selector("body[data-ready=true]")
        expect(page.locator("#companion-rounds li")).to_have_count(1)
        saved = json.loads(page.evaluate("localStorage.getItem('stb.companion')"))
        assert len(saved["rounds"]) == 1 and len(saved["rounds"][0]["scores"]) == 2


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_the_companion_on_a_phone_advises_at_once_and_passes_an_audit(
    browser: Browser, server: str, locale: str
) -> None:
    with offline_page(browser, server, locale=locale) as (_context, page):
        screenshot(page, f"offline-first-{locale[:2]}")
        start_companion(page, "web", 9, "score")
        page.click("#companion-dice-2") if page.locator("#companion-dice-2").is_visible() else None
        timings = []
        for first, second in ((3, 5), (6, 4), (2, 2), (5, 6), (1, 3)):
            page.click(f"#companion-pad .face[data-face='{first}']")
            # from the tap of the second face to the ranked moves on the screen, on the phone
            took = page.evaluate(
                """(face) => new Promise((done) => {
                  const start = performance.now();
                  document.querySelector(`#companion-pad .face[data-face="${face}"]`).click();
                  const drawn = () => document.querySelector('#companion-advice').dataset.for
                    === document.querySelector('#companion-box').dataset.turn;
                  const shown = () => done(performance.now() - start);
                  const wait = () => requestAnimationFrame(drawn() ? shown : wait);
                  wait();
                })""",
                second,
            )
            timings.append(took)
            page.click("#companion-undo")
            page.click("#companion-undo")
        median = statistics.median(timings)
        Path("test-results").mkdir(exist_ok=True)
        kept = {"timings_ms": timings, "median_ms": median}
        Path(f"test-results/companion-advice-ms-{locale}.json").write_text(json.dumps(kept))
        assert len(timings) == 5  # each roll's advice was drawn for it (speed: the file, never a limit here)
        page.click("#companion-pad .face[data-face='6']")
        page.click("#companion-pad .face[data-face='3']")
        advice_for(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sticks out sideways
        words = page.locator("#companion-advice").inner_text()
        assert ("points of expected score" if locale == "en-US" else "puntos de puntuación esperada") in words
        screenshot(page, f"companion-{locale[:2]}")
        found = [v for v in AXE.run(page).response["violations"] if v["impact"] in {"serious", "critical"}]
        assert not found, found
        page.goto("/#/practice")
        page.click("#practice-quick-9")
        page.locator("#practice-roll:visible, #practice-two:visible").first.click()
        expect(page.locator("#practice-box")).to_have_attribute("data-phase", re.compile("move|over|roll"))
        screenshot(page, f"practice-{locale[:2]}")
        found = [v for v in AXE.run(page).response["violations"] if v["impact"] in {"serious", "critical"}]
        assert not found, found
