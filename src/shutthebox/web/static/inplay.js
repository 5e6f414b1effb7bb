// The player's games in play (GET /api/me/rooms), on the first screen and where the server refuses
// one more: each resumed with the seat token this browser keeps for it, or resigned (asked first;
// POST /api/rooms/{code}/resign, a computer player plays the seats to the end).

import { _, ngettext } from "./i18n.js";
import { api } from "./net.js";
import { $, el } from "./dom.js";
import { tilesCount } from "./words.js";
import { profile, roomToken, saved } from "./saved.js";
import { showError } from "./speech.js";

/** @typedef {{ code: string, status: "waiting" | "playing", kind: string, tiles: number, players: string[], open_seats: number }} GameInPlay */

/** @type {string | null} the game whose resignation is being asked */
let asking = null;
/** @type {GameInPlay[]} */
let games = [];

/** The list from the server, drawn; unreachable, it stays as it was. */
export async function loadInPlay() {
  try {
    const answer = await api("/api/me/rooms", { token: profile()?.key });
    games = answer.games;
  } catch {
    return;
  }
  renderInPlay();
}

/** @param {GameInPlay} game */
function gameWords(game) {
  const players = game.players.join(", ");
  const waiting = game.status === "waiting" ? ngettext("waiting for {n} player", "waiting for {n} players", game.open_seats) : _("playing");
  return `${_("Room {code}", { code: game.code })} · ${tilesCount(game.tiles)} · ${players} · ${waiting}`;
}

/** @param {GameInPlay} game */
function gameItem(game) {
  const item = el("li", { class: "in-play-game", "data-code": game.code }, el("span", { class: "in-play-words", text: gameWords(game) }));
  if (asking === game.code) {
    item.append(
      el("span", { class: "in-play-ask", text: _("Resign this game? A computer player plays your seats to the end, and a ranked game counts as played.") }),
      el("button", { type: "button", class: "small", "data-resign-yes": game.code, text: _("Resign"), onclick: () => resign(game.code) }),
      el("button", { type: "button", class: "small", "data-resign-no": game.code, text: _("Keep playing"), onclick: () => ask(null) }),
    );
    return item;
  }
  if (roomToken(game.code)) item.append(el("a", { class: "button small primary", href: `#/room/${game.code}`, "data-resume": game.code, text: _("Resume") }));
  item.append(el("button", { type: "button", class: "small", "data-resign": game.code, text: _("Resign"), onclick: () => ask(game.code) }));
  return item;
}

/** @param {string | null} code */
function ask(code) {
  asking = code;
  renderInPlay();
  const focus = code ? `[data-resign-yes="${code}"]` : "#in-play-list a, #in-play-list button";
  /** @type {HTMLElement | null} */ (document.querySelector(focus))?.focus();
}

/** @param {string} code */
async function resign(code) {
  $("#in-play-error").hidden = true;
  try {
    await api(`/api/rooms/${encodeURIComponent(code)}/resign`, { method: "POST", token: roomToken(code) ?? profile()?.key });
    if (saved.get("current", null) === code) saved.set("current", null);
    asking = null;
    games = games.filter((game) => game.code !== code);
    renderInPlay();
    loadInPlay();
  } catch (error) {
    showError("#in-play-error", error);
  }
}

export function renderInPlay() {
  const card = $("#in-play");
  card.hidden = !games.length;
  $("#in-play-list").replaceChildren(...games.map(gameItem));
}

/** The server refused one more game: the list shows, to resume or resign one. @param {unknown} error */
export function showInPlayFor(error) {
  if (!(error instanceof Error) || /** @type {{ code?: string }} */ (error).code !== "too-many") return;
  loadInPlay().then(() => $("#in-play").scrollIntoView({ block: "nearest" }));
}
