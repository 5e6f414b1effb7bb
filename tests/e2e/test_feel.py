"""The page's feel in Chromium: sounds and their mute switch, the buzz, the celebration of a shut box,
the dice's total, reduced motion, sharing the result, and installing the page as an app.

A practice room on one tile makes the game certain: with dice seed 2, one die rolls a 1 and the box
shuts; with seed 0 it rolls more and the game ends with 1 open (score 1, grade A)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.play import new_room

SHUTS, FAILS = 2, 0  # dice seeds of a one-tile practice game

# Counts what the page does, from before its first script: audio contexts made, sounds started,
# buzzes, celebrations drawn, tumbling dice, and the status line while the dice roll and as they land.
SPY = """
window.__feel = { contexts: 0, started: 0, buzz: [], celebrations: [], tumbles: 0, rollingStatus: [] };
(() => {
  const feel = window.__feel;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); feel.contexts += 1; }
  };
  const start = AudioScheduledSourceNode.prototype.start;
  AudioScheduledSourceNode.prototype.start = function (...args) {
    feel.started += 1;
    return start.apply(this, args);
  };
  Object.defineProperty(Navigator.prototype, "vibrate", {
    configurable: true, value(pattern) { feel.buzz.push(pattern); return true; },
  });
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.classList.contains("celebration")) {
          feel.celebrations.push({
            still: node.classList.contains("still"),
            text: node.textContent,
            pieces: node.querySelectorAll(".confetti").length,
            animations: node.getAnimations({ subtree: true }).length,
            onTheBox: node.parentElement?.id === "box",
          });
        }
        if (node.classList.contains("tumble")) feel.tumbles += 1;
      }
      if (record.target.id === "dice") { // dice thrown (a new tray), or landing (its class)
        const text = document.querySelector("#status").textContent;
        if (record.target.classList.contains("rolling")) feel.rollingStatus.push({ text });
        else if (feel.rollingStatus.length && feel.landedStatus === undefined) feel.landedStatus = text;
      }
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
})();
"""




ERRORS: list[str] = []


@pytest.fixture
def spied(browser: Browser, server: str) -> Iterator[BrowserContext]:
    """A context with the spy and the clipboard; any script error of its pages fails the test."""
    clipboard = ["clipboard-read", "clipboard-write"]
    context = browser.new_context(locale="en-US", base_url=server, permissions=clipboard)
    context.add_init_script(SPY)
    ERRORS.clear()
    yield context
    context.close()
    assert ERRORS == []


def new_page(context: BrowserContext) -> Page:
    """The home page, ready, its script errors kept in ERRORS."""
    page = context.new_page()
    page.on("pageerror", lambda error: ERRORS.append(str(error)))
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return page


def feel(page: Page) -> dict[str, Any]:
    spy: dict[str, Any] = page.evaluate("window.__feel")
    return spy


def play_practice(page: Page, seed: int) -> str:
    """Open a one-tile practice room with dice ``seed`` and play it: one die, then its tile if it can."""
    code = new_room(page, {
        "preset": "classic", "rules": {"tiles": 1, "mode": "solo"}, "seed": seed,
        "seats": [{"kind": "here", "name": "Ana"}],
    })
    page.goto(f"/#/room/{code}")
    expect(page.locator("#box")).to_have_attribute("data-phase", "choose")  # the room's state is in
    expect(page.locator("#btn-one")).to_be_enabled()
    page.click("#btn-one")
    if seed == SHUTS:
        expect(page.locator("#box")).to_have_attribute("data-phase", "move")
        page.wait_for_function("() => !document.querySelector('#dice').classList.contains('rolling')")
        expect(page.locator("#dice")).to_have_attribute("data-faces", "1")
        page.click("#tiles [data-tile='1']")
        page.click("#btn-shut")
    expect(page.locator("#box")).to_have_attribute("data-status", "over")
    return code


def record_link(page: Page, server: str, code: str) -> str:
    """Where the card links: the stored game once saved, else the room's record."""
    saved = page.evaluate(
        """async (code) => {
          const token = JSON.parse(localStorage.getItem("stb.rooms"))[code];
          const headers = { Authorization: `Bearer ${token}` };
          return (await (await fetch(`/api/rooms/${code}`, { headers })).json()).saved_game_id;
        }""",
        code,
    )
    return f"{server}/g/{saved}" if saved else f"{server}/api/rooms/{code}/record"  # issue 28, defect 9


def test_the_manifest_and_its_icons_load(page: Page) -> None:
    page.goto("/")
    href = page.get_attribute("link[rel=manifest]", "href")
    sizes = page.evaluate(
        """async (href) => {
          const manifest = await (await fetch(href)).json();
          const load = (icon) => new Promise((done, fail) => {
            const image = new Image();
            const size = () => `${image.naturalWidth}x${image.naturalHeight}`;
            image.onload = () => done([icon.src, icon.sizes, icon.purpose, size()]);
            image.onerror = () => fail(new Error(icon.src));
            image.src = icon.src;
          });
          return Promise.all(manifest.icons.filter((icon) => icon.type === "image/png").map(load));
        }""",
        href,
    )
    assert sorted((purpose, claimed) for _src, claimed, purpose, _loaded in sizes) == [
        ("any", "192x192"), ("any", "512x512"), ("maskable", "512x512"),
    ]
    for src, claimed, _purpose, loaded in sizes:
        assert claimed == loaded, src
    assert page.get_attribute("link[rel=apple-touch-icon]", "href") == "/static/icon-192.png"


def test_sounds_play_and_the_mute_switch_is_remembered_across_a_reload(spied: BrowserContext) -> None:
    context = spied
    page = new_page(context)
    mute = page.get_by_role("button", name="Mute", exact=True)
    expect(mute).to_have_attribute("aria-pressed", "false")
    play_practice(page, SHUTS)
    heard = feel(page)
    assert heard["contexts"] == 1
    assert heard["started"] > 0  # dice, tile, tiles shut, the fanfare
    assert heard["buzz"]  # the dice landing, the shut box

    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#mute")).to_have_attribute("aria-pressed", "true")
    play_practice(page, SHUTS)
    silent = feel(page)
    assert (silent["contexts"], silent["started"], silent["buzz"]) == (0, 0, [])
    assert len(silent["celebrations"]) == 1  # muted, the shut box is still seen


def test_the_mute_switch_by_keyboard(spied: BrowserContext) -> None:
    context = spied
    page = new_page(context)
    mute = page.locator("#mute")
    for _ in range(40):  # the switch is in the page's tab order
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "mute":
            break
    else:
        raise AssertionError("Tab never reached the mute switch")
    page.keyboard.press("Space")
    expect(mute).to_have_attribute("aria-pressed", "true")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("m")
    expect(mute).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#feel-live")).to_have_text("Sounds on")
    page.keyboard.press("M")
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#feel-live")).to_have_text("Sounds off")
    field = page.locator("input:visible").first
    field.fill("MMM")  # typing a name or a code is not a shortcut
    field.press("m")
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".keys")).to_contain_text("M mutes")


def test_a_shut_box_is_celebrated_once_and_the_total_waits_for_the_dice(spied: BrowserContext) -> None:
    context = spied
    page = new_page(context)
    code = play_practice(page, SHUTS)
    expect(page.locator("#final-grade")).to_have_text("S")
    seen = feel(page)
    assert len(seen["celebrations"]) == 1
    party = seen["celebrations"][0]
    assert party["text"] == "The box is shut!" and not party["still"]
    assert party["pieces"] > 0 and party["animations"] > 0
    assert party["onTheBox"]  # the moment is the box's own: it never covers the result's title
    assert seen["tumbles"] > 0
    # While the dice tumbled, the status line told no total; it tells it once they stopped.
    assert seen["rollingStatus"], "the status was never seen while the dice rolled"
    assert [sample["text"] for sample in seen["rollingStatus"] if "=" in sample["text"]] == []
    assert seen["landedStatus"] == "Ana: 1 = 1. Pick open tiles that make 1."

    page.reload()  # the finished room again: its result, not a second party
    expect(page.locator("#final-grade")).to_have_text("S")
    page.wait_for_function("() => document.querySelector('#btn-share') !== null")
    assert feel(page)["celebrations"] == []
    assert page.url.endswith(f"#/room/{code}")


def test_reduced_motion_keeps_the_dice_and_the_celebration_still(browser: Browser, server: str) -> None:
    context = browser.new_context(locale="en-US", base_url=server, reduced_motion="reduce")
    context.add_init_script(SPY)
    ERRORS.clear()
    try:
        page = new_page(context)
        play_practice(page, SHUTS)
        seen = feel(page)
        assert seen["tumbles"] == 0 and seen["rollingStatus"] == []
        assert [(c["still"], c["pieces"], c["animations"]) for c in seen["celebrations"]] == [(True, 0, 0)]
        assert seen["buzz"] == []  # no buzz without motion
        assert seen["started"] > 0  # sounds are not motion
    finally:
        context.close()
    assert ERRORS == []


def test_a_lost_game_is_not_celebrated_and_its_result_is_copied(spied: BrowserContext, server: str) -> None:
    context = spied
    page = new_page(context)
    assert page.evaluate("typeof navigator.share") == "undefined"  # headless Chromium: the clipboard
    code = play_practice(page, FAILS)
    expect(page.locator("#final-score")).to_have_text("Score 1")
    assert feel(page)["celebrations"] == []
    page.click("#btn-share")
    expect(page.locator("#share-status")).to_have_text("The result is copied: paste it anywhere.")
    text: str = page.evaluate("navigator.clipboard.readText()")
    today = page.evaluate("new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date())")
    link = record_link(page, server, code)
    assert text.splitlines() == ["Shut the Box", f"1 tile · {today}", "Score 1 · Grade A", link]
    if "/g/" in link:  # the shared result's page; its game's record is the API's
        status, html = page.evaluate(
            "async (link) => { const r = await fetch(link); return [r.status, await r.text()]; }", link
        )
        assert status == 200 and "og:image" in html
        game_id = link.rsplit("/", 1)[1]
        linked = page.evaluate("async (id) => (await fetch(`/api/games/${id}`)).json()", game_id)
    else:
        linked = page.evaluate("async (link) => (await fetch(link)).json()", link)
    record = linked.get("record", linked)  # a stored game holds its record
    assert record["seed"] == FAILS and record["rules"]["tiles"] == 1

    page.evaluate("() => { navigator.clipboard.writeText = async () => { throw new Error('denied'); }; }")
    page.click("#btn-share")  # no clipboard: the text is shown, selected, to copy by hand
    expect(page.locator("#share-status")).to_have_text("Copy the result from the box below.")
    expect(page.locator("#share-text")).to_be_visible()
    expect(page.locator("#share-text")).to_have_value(text)
    expect(page.locator("#share-text")).to_be_focused()


def test_the_result_goes_to_the_web_share_api_where_there_is_one(spied: BrowserContext, server: str) -> None:
    context = spied
    context.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
    page = new_page(context)
    code = play_practice(page, SHUTS)
    page.click("#btn-share")
    page.wait_for_function("() => window.__shared !== undefined")
    shared = page.evaluate("window.__shared")
    assert shared["url"] == record_link(page, server, code)
    assert shared["text"].splitlines()[2] == "Score 0 · Grade S · The box is shut!"
    assert shared["title"] == "Shut the Box"
    expect(page.locator("#share-status")).to_have_text("")


def test_the_install_button_shows_only_when_the_browser_offers_it(page: Page) -> None:
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    install = page.locator("#install")
    expect(install).to_be_hidden()
    page.evaluate("""() => {
      const offer = new Event("beforeinstallprompt", { cancelable: true });
      offer.prompt = async () => { window.__prompted = true; };
      offer.userChoice = Promise.resolve({ outcome: "accepted" });
      window.dispatchEvent(offer);
      window.__kept = offer.defaultPrevented;  // the browser's own banner waits for the button
    }""")
    expect(install).to_be_visible()
    expect(install).to_have_text("Install the app")
    assert page.evaluate("window.__kept") is True
    install.click()
    page.wait_for_function("() => window.__prompted === true")
    expect(install).to_be_hidden()


def test_the_mute_switch_speaks_spanish(browser: Browser, server: str) -> None:
    """Passes once /tmp/i18n/feel.json is merged into the Spanish catalog."""
    context = browser.new_context(locale="es-ES", base_url=server)
    try:
        page = new_page(context)
        mute = page.get_by_role("button", name="Silenciar", exact=True)
        expect(mute).to_have_attribute("aria-pressed", "false")
        expect(page.locator(".keys")).to_contain_text("M silencia")
    finally:
        context.close()
