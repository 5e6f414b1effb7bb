// "Daily challenge": one solo game a day on each board, the same dice for everyone (GET /api/daily).
// Today's three boards with their commitment and leaderboard, your attempt beside the optimal
// player's on the same dice, your streak, and a calendar of the past four weeks (#/daily/DAY).

import { _, dayInWords, ngettext } from "./i18n.js";
import { api, ApiError } from "./net.js";
import { el } from "./dom.js";
import { failure, tilesCount } from "./words.js";

const WEEKS = 4; // the calendar's length
const SHOWN = 10; // leaderboard rows per board
/** @typedef {any} Answer the JSON of a /api/daily answer, read as it comes (not typed here) */
/** @typedef {{ profile: () => import("./saved.js").Profile | null, play: (tiles: number) => Promise<void>, askProfile: () => void }} Hooks */
let drawing = 0; // the latest renderDaily: an older answer that comes late is dropped

const dayOf = (/** @type {Date} */ date) => date.toISOString().slice(0, 10);
const addDays = (/** @type {string} */ day, /** @type {number} */ n) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));

// `hooks`: profile() → {name, key} | null; play(tiles) opens a new attempt; askProfile() asks a name.
/** @param {HTMLElement} root @param {string | null} day @param {Hooks} hooks */
export async function renderDaily(root, day, hooks) {
  const body = /** @type {HTMLElement} */ (root.querySelector("#daily-body"));
  const mine = ++drawing;
  delete body.dataset.ready;
  body.setAttribute("aria-busy", "true");
  const me = hooks.profile();
  const token = me?.key;
  let parts;
  try {
    const [calendar, history] = await Promise.all([api(`/api/daily${day ? `?day=${day}` : ""}`), token ? api("/api/daily/me", { token }) : null]);
    // Only the boards the profile played have a result to ask for: no refusal (404) for the others.
    const played = (/** @type {Answer} */ c) => (history?.attempts ?? []).some((/** @type {Answer} */ a) => a.day === c.day && a.tiles === c.tiles);
    const [boards, results] = await Promise.all([
      Promise.all(calendar.challenges.map((/** @type {Answer} */ c) => api(`/api/daily/${c.day}/${c.tiles}`))),
      Promise.all(calendar.challenges.map((/** @type {Answer} */ c) => (token && played(c) ? resultOf(c, token) : null))),
    ]);
    parts = [
      intro(calendar, history),
      ...(me ? [] : [guest(hooks)]),
      el("div", { class: "daily-boards" }, ...calendar.challenges.map((/** @type {Answer} */ c, /** @type {number} */ i) => board(c, boards[i], results[i], calendar, hooks))),
      calendarOf(calendar, history),
    ];
  } catch (error) {
    parts = [el("p", { class: "error", text: failure(error) })];
  }
  if (mine !== drawing) return;
  body.replaceChildren(...parts);
  body.setAttribute("aria-busy", "false");
  body.dataset.ready = "true";
}

/** @param {Answer} challenge @param {string} token */
async function resultOf(challenge, token) {
  try {
    return await api(`/api/daily/${challenge.day}/${challenge.tiles}/result`, { token });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null; // not played
    throw error;
  }
}

/** A sentence's first word with its capital: "hoy, 1 de diciembre" opens one as "Hoy, 1 de diciembre". @param {string} text */
function capitalized(text) {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** @param {Answer} calendar @param {Answer} history */
function intro(calendar, history) {
  const today = calendar.day === calendar.today;
  const lines = [
    el("p", { text: today
      ? _("{day}: everyone plays the same dice. One ranked attempt a day on each board.", { day: capitalized(dayInWords(calendar.day, calendar.today)) })
      : _("The challenge of {day}: its dice can now be checked by anyone.", { day: dayInWords(calendar.day, calendar.today) }) }),
  ];
  if (history) {
    const days = history.streak;
    lines.push(el("p", { class: "streak", id: "daily-streak", "data-streak": String(days),
      text: days ? ngettext("Your streak: {n} day in a row.", "Your streak: {n} days in a row.", days) : _("No streak yet: play today to start one.") }));
  }
  return el("div", { class: "daily-intro" }, ...lines);
}

/** @param {Hooks} hooks */
function guest(hooks) {
  return el("p", { class: "daily-guest" },
    _("The daily challenge is ranked: choose a player name to play it."), " ",
    el("button", { type: "button", class: "small", text: _("Choose a name"), onclick: hooks.askProfile }));
}

// One board of the day: its commitment (its seed once the day is over), your attempt, its leaderboard.
/** @param {Answer} challenge @param {Answer} standings @param {Answer} result @param {Answer} calendar @param {Hooks} hooks */
function board(challenge, standings, result, calendar, hooks) {
  const card = el("section", { class: "card daily-board", id: `daily-${challenge.tiles}`, "aria-labelledby": `daily-title-${challenge.tiles}` });
  card.append(el("h3", { id: `daily-title-${challenge.tiles}`, text: tilesCount(challenge.tiles) }));
  const short = `${challenge.commitment.slice(0, 16)}…`;
  card.append(el("p", { class: "muted commitment", title: challenge.commitment },
    challenge.server_seed
      ? _("Seed revealed: {seed}", { seed: `${challenge.server_seed.slice(0, 16)}…` })
      : _("Dice committed to: {hash}", { hash: short })));
  card.append(attemptPart(challenge, result, calendar, hooks));
  card.append(standingsTable(standings));
  return card;
}

/** @param {Answer} challenge @param {Answer} result @param {Answer} calendar @param {Hooks} hooks */
function attemptPart(challenge, result, calendar, hooks) {
  const part = el("div", { class: "daily-attempt" });
  const today = calendar.day === calendar.today;
  if (!result) {
    if (today && hooks.profile()) {
      part.append(el("button", { type: "button", class: "primary daily-play", "data-tiles": String(challenge.tiles),
        text: _("Play the {tiles}-tile challenge", { tiles: challenge.tiles }), onclick: (/** @type {Event} */ event) => play(event, challenge, hooks) }));
      part.append(el("p", { class: "error", hidden: true, role: "alert" }));
    }
    return part;
  }
  if (!result.over) {
    part.append(el("a", { class: "button", href: `#/room/${result.room}`, text: _("Continue your attempt") }));
    return part;
  }
  part.dataset.score = String(result.score);
  part.append(el("p", { class: "daily-mine", text: _("You scored {score} in {rolls} rolls: rank {rank} of {of}.", result) }));
  part.append(el("p", { class: "daily-optimal", "data-score": String(result.optimal.score),
    text: _("On the very same dice, the optimal player scored {score} in {rolls} rolls.", result.optimal) }));
  part.append(el("a", { href: `#/room/${result.room}`, text: _("Your game, and what each choice cost") }));
  return part;
}

/** @param {Event} event @param {Answer} challenge @param {Hooks} hooks */
async function play(event, challenge, hooks) {
  const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
  const error = /** @type {HTMLElement} */ (button.nextElementSibling);
  button.disabled = true;
  error.hidden = true;
  try {
    await hooks.play(challenge.tiles);
  } catch (problem) {
    error.textContent = failure(problem);
    error.hidden = false;
    button.disabled = false;
  }
}

/** @param {Answer} standings */
function standingsTable(standings) {
  if (!standings.entries.length) {
    return el("p", { class: "muted", text: standings.playing ? _("Nobody has finished yet.") : _("Nobody has played yet.") });
  }
  const rows = standings.entries.slice(0, SHOWN).map((/** @type {Answer} */ e) =>
    el("tr", {}, el("td", { text: String(e.rank) }), el("th", { scope: "row", text: e.player }), el("td", { text: String(e.score) }), el("td", { text: String(e.rolls) })));
  return el("table", { class: "daily-standings" },
    el("caption", { text: ngettext("{n} finished", "{n} finished", standings.finished) }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: _("Rank") }), el("th", { scope: "col", text: _("Player") }), el("th", { scope: "col", text: _("Score") }), el("th", { scope: "col", text: _("Rolls") }))),
    el("tbody", {}, ...rows));
}

// The past four weeks, a day a cell: your best score of the day where you played; each a link.
/** @param {Answer} calendar @param {Answer} history */
function calendarOf(calendar, history) {
  const best = new Map();
  for (const a of history?.attempts ?? []) {
    if (a.over && (!best.has(a.day) || a.score < best.get(a.day))) best.set(a.day, a.score);
  }
  const last = calendar.today;
  const cells = [];
  for (let n = 7 * WEEKS - 1; n >= 0; n -= 1) {
    const day = addDays(last, -n);
    const played = best.has(day);
    const words = dayInWords(day, calendar.today);
    const label = played ? _("{day}: your best score {score}", { day: words, score: best.get(day) }) : words;
    cells.push(el("a", { class: `day${played ? " played" : ""}${day === calendar.day ? " shown" : ""}`, href: `#/daily/${day}`, "aria-label": label, title: label, "data-day": day },
      el("span", { class: "date", text: day.slice(8) }), played ? el("span", { class: "best", text: String(best.get(day)) }) : null));
  }
  return el("section", { class: "card daily-calendar", "aria-labelledby": "daily-calendar-title" },
    el("h3", { id: "daily-calendar-title", text: _("The last four weeks") }),
    el("div", { class: "days" }, ...cells));
}
