// The screens and the address that names them (#/rules, #/room/CODE…), and the card that offers a
// game in play back on every other screen: a game is never lost by reading the rules or the scores.

import { _ } from "./i18n.js";
import { api } from "./net.js";
import { $, $$, $button } from "./dom.js";
import { tilesCount } from "./words.js";
import { inPlay, mine } from "./room-facts.js";
import { now, store, withPresentation } from "./state.js";
import { profile, rememberRoom, roomToken, saved } from "./saved.js";
import { renderStats } from "./stats.js";
import { renderDaily } from "./daily.js";
import { renderTrain } from "./train.js";
import { openRoom } from "./room.js";
import { renderLocalBests } from "./setup.js";
import { openProfileForm, profileRefused } from "./profile.js";
import { renderScores } from "./scores.js";
import { loadInPlay } from "./inplay.js";
import { renderPractice } from "./practice.js";
import { renderCompanion } from "./companion.js";

/** @type {Record<string, string>} */
const NAV = { practice: "#nav-play", companion: "#nav-companion", setup: "#nav-play", invite: "#nav-play", game: "#nav-play", daily: "#nav-daily", train: "#nav-train", rules: "#nav-rules", scores: "#nav-scores", stats: "#nav-stats" };

/** @param {string} name */
export function showView(name) {
  for (const view of $$(".view")) view.hidden = view.id !== `view-${name}`;
  document.body.dataset.view = name; // the game's screen has a compact top bar
  toggleMenu(false);
  store.update((state) => withPresentation(state, { view: name }));
  renderContinue();
  for (const link of $$("nav a")) link.removeAttribute("aria-current");
  $(NAV[name])?.setAttribute("aria-current", "page");
}

/**
 * On a phone, the sections and the languages fold into the top bar's menu: open or close it.
 * @param {boolean} [open] the menu's new state (the other one by default)
 */
export function toggleMenu(open) {
  const button = $("#menu-toggle");
  const opened = open ?? button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(opened));
  $("#menu").classList.toggle("open", opened);
}

export function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const params = new URLSearchParams(location.search);
  const room = params.get("room");
  if (room && !hash) {
    location.replace(`#/room/${room.toUpperCase()}`);
    return;
  }
  if (hash.startsWith("room/")) {
    openRoom(hash.slice(5).toUpperCase());
    return;
  }
  if (hash === "practice") {
    showView("practice");
    renderPractice();
  } else if (hash === "companion") {
    showView("companion");
    renderCompanion();
  } else if (hash === "rules") {
    showView("rules");
  } else if (hash === "scores") {
    showView("scores");
    renderScores();
  } else if (hash === "stats") {
    showView("stats");
    renderStats($("#view-stats"));
  } else if (hash === "train") {
    showView("train");
    showTrain();
  } else if (hash === "daily" || hash.startsWith("daily/")) {
    showView("daily");
    store.update((state) => withPresentation(state, { dailyDay: hash.slice(6) || null }));
    showDaily();
  } else {
    showView("setup");
    renderLocalBests();
    loadInPlay();
  }
}

// The daily challenge (daily.js draws it): a ranked attempt is a room like any other.
export function showDaily() {
  renderDaily($("#view-daily"), now().presentation.dailyDay, { profile, play: playDaily, askProfile: openProfileForm });
}

export function showTrain() {
  renderTrain($("#view-train"), { profile, askProfile: openProfileForm });
}

/** @param {number} tiles */
async function playDaily(tiles) {
  try {
    const created = await api(`/api/daily/${tiles}`, { method: "POST", token: profile()?.key });
    rememberRoom(created.code, created.token);
    goToRoom(created.code);
  } catch (error) {
    profileRefused(error);
    throw error;
  }
}

/** @param {string} code */
export function goToRoom(code) {
  const target = `#/room/${code}`;
  if (location.hash === target) route(); // joining from the room's own link: no hashchange
  else location.hash = target;
}

// A game in play is never lost by reading the rules or the scores: every other screen offers it back.
export function gameInPlay() {
  const { connection, server } = now();
  return inPlay(server.room, connection.code);
}

export function renderContinue() {
  const { presentation, server } = now();
  const card = $("#continue");
  const room = server.room;
  card.hidden = presentation.view === "game" || !gameInPlay();
  $("#start-anyway").hidden = !presentation.starting;
  if (card.hidden || !room) return;
  $("#continue-link").setAttribute("href", `#/room/${room.code}`);
  const yours = mine(room) ? _("your turn") : _("{name} is playing", { name: room.match?.actor_name ?? "…" });
  const where = `${_("Room {code}", { code: room.code })} · ${tilesCount(room.rules.tiles)} · ${yours}`;
  $("#continue-text").textContent = presentation.starting ? `${where}. ${_("It is not over: start a new game anyway?")}` : where;
}

// The card follows the game shown on other screens (whose turn it is, the game over).
store.subscribe((state, previous) => {
  if (state.presentation.view !== "game" && state.server.room !== previous.server.room) renderContinue();
});

// A new game while one is in play: asked first, on the card that offers the game back.
/** @param {() => void} start */
export function startNew(start) {
  if (!gameInPlay()) {
    start();
    return;
  }
  store.update((state) => withPresentation(state, { starting: start }));
  renderContinue();
  $button("#start-anyway").focus();
  $("#continue").scrollIntoView({ block: "nearest" });
}

export function startAnyway() {
  const start = now().presentation.starting;
  store.update((state) => withPresentation(state, { starting: null }));
  renderContinue();
  start?.();
}

// After a reload: the room this browser last played, reopened if its game is still on.
export async function resumeCurrent() {
  const code = saved.get("current", null);
  const token = code && roomToken(code);
  if (!token || now().connection.code) return;
  try {
    const room = await api(`/api/rooms/${encodeURIComponent(code)}`, { token });
    if (room.status !== "over" && !now().connection.code) openRoom(code, { quiet: true });
  } catch {
    /* gone or unreachable: nothing to continue */
  }
}
