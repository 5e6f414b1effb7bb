"""An automated accessibility audit (axe-core, bundled by axe-playwright-python) of every screen, on a
desktop and on a phone: no violation of impact "serious" or "critical"."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.support.play import READY, click_once, new_room, play_solo

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
BLOCKING = {"serious", "critical"}
AXE = Axe()


@pytest.fixture(params=list(VIEWPORTS))
def sized(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[Page]:
    """An English page at each viewport, motion reduced so that no frame of an animation is audited."""
    context = browser.new_context(
        locale="en-US", viewport=VIEWPORTS[request.param], base_url=server, reduced_motion="reduce",
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def blocking(page: Page) -> list[dict[str, Any]]:
    """The violations of impact serious or critical on the page as it is now."""
    violations: list[dict[str, Any]] = AXE.run(page).response["violations"]
    return [v for v in violations if v["impact"] in BLOCKING]


def report(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        targets = ", ".join(" ".join(node["target"]) for node in v["nodes"])
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} -> {targets}")
    return "\n".join(lines)


def audit(page: Page) -> None:
    found = blocking(page)
    assert not found, "\n" + report(found)


def opened(page: Page, route: str = "/") -> None:
    page.goto(route)
    page.wait_for_selector("body[data-ready=true]")


def in_game(page: Page) -> None:
    """A quick solo game after its first roll, with the solver's hint shown."""
    opened(page)
    page.click("#quick-12")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    page.click("#btn-hint")
    page.click("#hint-confirm")  # a ranked game: the hint is confirmed first
    expect(page.locator("#hint ol li").first).to_be_visible()


def finished(page: Page) -> None:
    opened(page)
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    play_solo(page, click_once)
    expect(page.locator("#result")).to_be_visible()


def reviewed(page: Page) -> None:
    finished(page)
    page.click("#btn-review")
    expect(page.locator("#review table tbody tr").first).to_be_visible()  # no accuracy if no real choice


def with_friends(page: Page) -> None:
    """The ways to play open: friends' names, then Play; the Rules panel open beside them."""
    opened(page)
    page.click("#quick-friends")
    page.click("#rules-panel > summary")
    expect(page.locator("#seat-name-1")).to_be_visible()


def friends_result(page: Page) -> None:
    """The end of a game of two rounds with a stake at one device: standings, money, rounds."""
    opened(page)
    seats = [{"kind": "here", "name": "Ana"}, {"kind": "here", "name": "Luis"}]
    rules = {"mode": "round", "stake": 1}
    code = new_room(page, {"preset": "web", "rules": rules, "rounds": 2, "seats": seats})
    page.goto(f"/#/room/{code}")
    for _ in range(300):
        page.wait_for_function(READY)
        if page.get_attribute("#box", "data-status") == "over":
            break
        click_once(page)
    expect(page.locator("#standings")).to_be_visible()
    page.evaluate("document.querySelector('#rounds-played').open = true")


def invitation(page: Page) -> None:
    """A room's link opened by one with no seat in it: who invites, to what, a name and Join."""
    opened(page)
    body = {"seats": [{"name": "Ana"}, {"kind": "remote"}], "seed": 3}
    code = page.evaluate("""async (body) => (await (await fetch("/api/rooms", { method: "POST",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).json()).code""", body)
    page.goto(f"/#/room/{code}")
    expect(page.locator("#invite-join")).to_be_visible()


def games_in_play(page: Page) -> None:
    """The first screen with a game in play listed, its resignation asked."""
    opened(page)
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    page.goto("/#/")
    page.locator("#in-play [data-resign]").click()
    expect(page.locator("#in-play .in-play-ask")).to_be_visible()


def shared_result(page: Page) -> None:
    """The page a friend opens from Share (`/g/{id}`), drawn by the server."""
    finished(page)
    newest = page.request.get("/api/games?limit=1").json()["games"][0]["id"]
    page.goto(f"/g/{newest}")
    expect(page.locator("main")).to_be_visible()


def cheat_sheet(page: Page) -> None:
    page.goto("/api/cheatsheet?preset=web&tiles=9")
    expect(page.locator("main table")).to_be_visible()


def routed(route: str, shown: str) -> Callable[[Page], None]:
    def go(page: Page) -> None:
        opened(page, f"/#/{route}")
        expect(page.locator(shown)).to_be_visible()

    return go


SCREENS: dict[str, Callable[[Page], None]] = {
    "setup": routed("", "#view-setup"),
    "with friends": with_friends,
    "friends' result": friends_result,
    "cheat sheet": cheat_sheet,
    "shared result": shared_result,
    "invitation": invitation,
    "games in play": games_in_play,
    "game": in_game,
    "result": finished,
    "review": reviewed,
    "rules": routed("rules", "#rules-text"),
    "scores": routed("scores", "#leaderboard table, #leaderboard p"),
    "stats": routed("stats", "#view-stats"),
    "practice setup": routed("practice", "#practice-setup"),
    "companion setup": routed("companion", "#companion-setup"),
}


@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_serious_or_critical_violation(sized: Page, screen: str) -> None:
    SCREENS[screen](sized)
    audit(sized)
