"""The page's words come from the gettext catalogs: a pseudo-language shows no English left on any
screen, Spanish reads Spanish (the server's refusals too), and English comes back at the switch."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.browser import running_server
from tests.support.play import choose_way, click_once, make_profile, more_options, play_solo, room_details
from tools.catalogs import PSEUDO, pseudo, unmarked_words, write_pseudo

ALLOWED = {
    "S", "A", "B", "C", "F",  # the grades: letters, the same in every language
    "R", "H", "Esc",  # the key caps on the buttons: the keys to press, whatever the language
}
"""ASCII words a screen may show outside the catalog. The player names are Greek, so they need none."""
HOST, GUEST, HOLDER = "Άννα", "Λουκάς", "Μαρία"

COLLECT = """() => {
  const texts = [document.title];
  // everything but the language switch, whose buttons name each language in itself
  for (const selector of ["body > .skip", ".brand", "nav", "main", "#announce", "#toast"]) {
    for (const node of document.querySelectorAll(selector)) texts.push(node.innerText);
  }
  for (const select of document.querySelectorAll("select")) {
    if (select.checkVisibility()) texts.push(...[...select.options].map((option) => option.text));
  }
  for (const input of document.querySelectorAll("input:not([type=checkbox])")) {
    if (input.checkVisibility()) texts.push(input.value);
  }
  for (const node of document.querySelectorAll("[aria-label], [placeholder], [title], [alt]")) {
    if (!node.checkVisibility()) continue;
    for (const name of ["aria-label", "placeholder", "title", "alt"]) {
      if (node.hasAttribute(name)) texts.push(node.getAttribute(name));
    }
  }
  return texts;
}"""


@pytest.fixture(scope="module")
def pseudo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with one more language: a pseudo-language, as a .po file in a folder of its own."""
    folder = tmp_path_factory.mktemp("pseudo")
    locale = write_pseudo(folder / "locale")
    with running_server(folder, {"SHUTTHEBOX_LOCALES": str(locale)}) as url:
        yield url


FAIR = """() => [...document.querySelectorAll('.hex, .seed')]
  .flatMap((node) => [node.textContent, node.title]).filter(Boolean)"""
"""The fair dice's hex digests and client seeds the page shows: values, not words."""


def new_page(browser: Browser, server: str, locale: str = "en-US", errors: list[str] | None = None) -> Page:
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 800}, base_url=server)
    page = context.new_page()
    if errors is not None:
        page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def speak_pseudo(page: Page) -> None:
    page.click(f"#langs button[data-lang='{PSEUDO}']")
    expect(page.locator("html")).to_have_attribute("lang", "en-x-pseudo")


def assert_all_marked(page: Page, screen: str, data: tuple[str, ...] = ()) -> None:
    texts: list[str] = page.evaluate(COLLECT)
    assert any("⟦" in text for text in texts), f"{screen}: nothing in the pseudo-language"
    left = unmarked_words(texts, ALLOWED, data)
    assert not left, f"{screen}: words outside the catalog: {sorted(left)}"


def test_pseudo_language_leaves_no_english_on_any_screen(browser: Browser, pseudo_server: str) -> None:
    errors: list[str] = []
    page = new_page(browser, pseudo_server, errors=errors)
    # a new .po file is a new language of the switch, named in itself, and nothing else is needed
    codes = page.locator("#langs button").evaluate_all("(buttons) => buttons.map((b) => b.dataset.lang)")
    assert codes == ["en", PSEUDO, "es"]
    expect(page.locator(f"#langs button[data-lang='{PSEUDO}']")).to_have_text(pseudo("English"))
    speak_pseudo(page)

    more_options(page)  # every rule is in the Rules panel
    for who in ("table", "bots", "online"):
        page.click(f"[data-who={who}]")
        assert_all_marked(page, f"setup ({who})")  # the first visit's profile form among them
    make_profile(page, HOST)
    assert_all_marked(page, "setup with a profile")

    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    code = page.locator("#room-info strong").inner_text()
    code = re.findall(r"[A-Z2-9]{5}", code)[-1]
    room_details(page)  # the room's details fold into its one line
    page.click("#fairness summary")
    assert_all_marked(page, "solo, before the roll, the fair dice open", (code, *page.evaluate(FAIR)))
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    page.locator("#tiles .tile:not([disabled])").first.click()
    assert_all_marked(page, "solo, a tile selected", (code, *page.evaluate(FAIR)))
    page.keyboard.press("Escape")
    page.keyboard.press("h")
    expect(page.locator("#hint-confirm")).to_be_focused()
    assert_all_marked(page, "solo, the hint's warning", (code, *page.evaluate(FAIR)))
    page.keyboard.press("Enter")
    expect(page.locator("#hint ol li").first).to_be_visible()
    assert_all_marked(page, "solo, a hint", (code, *page.evaluate(FAIR)))
    play_solo(page, click_once)
    expect(page.locator("#result")).to_be_visible()
    page.evaluate("document.querySelector('details.log').open = true")
    assert_all_marked(page, "the result and the game log", (code, *page.evaluate(FAIR)))
    page.click("#btn-review")
    expect(page.locator("#review table")).to_be_visible()
    assert_all_marked(page, "the review", (code, *page.evaluate(FAIR)))
    page.click("#btn-verify")
    expect(page.locator("#verify")).to_have_attribute("data-proven", "true")
    assert_all_marked(page, "the verification", (code, *page.evaluate(FAIR)))
    page.click("#btn-again")  # a game without a hint, so it counts: the scores below show it
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    play_solo(page, click_once)

    page.goto("/#/rules")
    expect(page.locator("#view-rules")).to_be_visible()
    assert_all_marked(page, "rules")
    page.click("#profile-chip")  # renaming, refused: the name is taken
    page.fill("#profile-input", HOLDER)
    holder = new_page(browser, pseudo_server)
    make_profile(holder, HOLDER)
    holder.context.close()
    page.click("#profile-save")
    expect(page.locator("#profile-error")).to_contain_text("⟦")
    assert_all_marked(page, "a name refused", (HOLDER,))
    page.click("#profile-cancel")
    page.goto("/#/scores")
    expect(page.locator("#leaderboard table")).to_be_visible()
    expect(page.locator("#server-bests li").first).to_be_visible()
    assert_all_marked(page, "scores")

    page.goto("/#/")
    choose_way(page, "online")  # joining a room is online's
    page.fill("#join-code", "ZZZZZ")  # no such room: the server refuses, in the page's language
    page.click("#join-button")  # as the profile: no name to type
    expect(page.locator("#join-error")).to_be_visible()
    expect(page.locator("#join-error")).to_contain_text("⟦")
    assert_all_marked(page, "a refusal", ("ZZZZZ",))

    more_options(page)  # every rule is in the Rules panel
    choose_way(page, "online")
    page.click("#start")
    code = page.locator("#room-code").inner_text()
    link = page.locator("#share-link").get_attribute("href") or ""
    assert_all_marked(page, "an online room, waiting", (link, code, *page.evaluate(FAIR)))
    guest = new_page(browser, pseudo_server, errors=errors)
    speak_pseudo(guest)
    guest.goto(link)
    guest.wait_for_selector("body[data-ready=true]")
    expect(guest.locator("#invite-title")).to_be_visible()  # the invitation, not the setup's join form
    assert_all_marked(guest, "joining a room", (code,))
    guest.fill("#invite-name", GUEST)
    guest.click("#invite-join")
    for screen in (page, guest):
        expect(screen.locator("#players .name")).to_have_text([HOST, GUEST])
        expect(screen.locator("#players .guest")).to_have_count(1)  # the guest's seat, not the profile's
        assert_all_marked(screen, "an online room, playing", (link, code, *screen.evaluate(FAIR)))
    guest.context.close()
    page.context.close()
    assert errors == []


def test_the_spanish_page_reads_spanish_and_english_comes_back(browser: Browser, server: str) -> None:
    page = new_page(browser, server, locale="es-ES")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert page.title() == "Cerrar la Caja · Shut the Box · Canoga"
    expect(page.locator("#ways-title")).to_have_text("Más formas de jugar")
    expect(page.locator("#rules-panel-title")).to_have_text("Reglas")
    expect(page.locator("#rule-fields")).to_contain_text("Se puede tirar un dado cuando")
    expect(page.locator("#opt-tiles option[value='1']")).to_have_text("1 ficha")  # a plural form
    expect(page.locator("#langs button")).to_have_text(["English", "Español"])

    with page.expect_websocket(lambda socket: "lang=es" in socket.url):  # the server speaks Spanish on it
        page.click("#quick-9")
    expect(page.locator("#btn-roll")).to_contain_text("Lanzar")
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    expect(page.locator("#status")).to_contain_text("Elige fichas abiertas que sumen")
    expect(page.locator("#dice")).to_have_attribute("aria-label", re.compile(r"^Dados: \d \+ \d$"))
    play_solo(page, click_once)
    expect(page.locator("#result h3")).to_have_text("Fin de la partida")
    page.click("#btn-review")
    expect(page.locator("#review h3")).to_have_text("Repaso")
    expect(page.locator("#review th").nth(3)).to_have_text("Tirada")

    with page.expect_websocket(lambda socket: "lang=en" in socket.url):  # opened again, in English
        page.click("#langs button[data-lang=en]")
    expect(page.locator("#result h3")).to_have_text("Game over")
    expect(page.locator("#btn-review")).to_have_text("Review the game")
    expect(page.locator("#review th").nth(3)).to_have_text("Roll")
    expect(page.locator("#toast")).to_be_hidden()  # the old socket's close is no lost connection

    page.click("#langs button[data-lang=es]")
    page.click("#nav-rules")
    expect(page.locator("#rules-text h2").first).to_have_text("Cómo jugar")
    press_shut = page.locator("#rules-text li").nth(3)
    expect(press_shut).to_have_text("Pulsa Cerrar para bajarlas y vuelve a lanzar.")
    expect(page.locator("#rules-text li strong").first).to_have_text("Cerrar")  # markup inside a message
    expect(page.locator("#rules-text")).to_contain_text("Preguntas frecuentes")
    page.click("#nav-scores")
    board = "Clasificación (9 fichas, las reglas elegidas en la preparación)"
    expect(page.locator("#leaderboard h3")).to_have_text(board)

    page.click("#nav-play")
    choose_way(page, "online")
    page.fill("#join-code", "ZZZZZ")
    page.fill("#join-name", "Luis")
    page.click("#join-button")
    expect(page.locator("#join-error")).to_have_text("No hay ninguna sala 'ZZZZZ'.")

    page.click("#langs button[data-lang=en]")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.title() == "Shut the Box · Cerrar la Caja · Canoga"
    expect(page.locator("#setup-title")).to_have_text("Online")  # the open panel, in English again
    expect(page.locator("#nav-rules")).to_have_text("Rules & tips")
    page.click("#join-button")
    expect(page.locator("#join-error")).to_have_text("There is no room 'ZZZZZ'.")
    page.click("#nav-rules")
    expect(page.locator("#rules-text h2").first).to_have_text("How to play")
    expect(press_shut).to_have_text("Press Shut to put them down and roll again.")
    page.context.close()


def test_the_spanish_page_reads_offline_once_loaded(browser: Browser, server: str) -> None:
    context: BrowserContext = browser.new_context(locale="es-ES", base_url=server)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # under the service worker now: it keeps the page, its modules and its catalogs
    page.wait_for_selector("body[data-ready=true]")
    context.set_offline(True)
    offline = context.new_page()
    offline.goto("/#/rules")
    expect(offline.locator("#rules-text")).to_contain_text("¿Cómo se gana en Shut the Box?")
    expect(offline.locator("#langs button")).to_have_text(["English", "Español"])
    context.close()
