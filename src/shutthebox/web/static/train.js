// "Train": positions where the obvious answer is wrong (GET /api/train), ten to a session. After each
// answer: every answer ranked with its value, the why, and your rating; missed ones come back later.

import { _, lang, ngettext, number } from "./i18n.js";
import { api } from "./net.js";
import { el } from "./dom.js";
import { failure, optionLabel } from "./words.js";

const SESSION = 10;
const PRESETS = ["web", "classic", "two-dice", "digits", "sailors", "pub"];
const BOARDS = [6, 7, 8, 9, 10, 11, 12];
/** @returns {Record<string, string>} */
const GOALS = () => ({
  score: _("the lowest score"),
  shut: _("shutting the box"),
  "beat-10": _("scoring under 10"),
  long: _("winning the long game"),
});

/** @typedef {any} Answer the JSON of a /api/train answer, read as it comes (not typed here) */
/** @typedef {{ profile: () => import("./saved.js").Profile | null, askProfile: () => void }} Hooks */
/** @typedef {import("./saved.js").Profile} Profile */

// `asked` numbers the puzzle requests: only the answer to the latest is shown, so a slow answer to
// rules the player has since changed never replaces the puzzle of the rules now chosen.
/** @type {{ choice: { preset: string, tiles: number, goal: string }, done: number, right: number, puzzle: Answer, result: Answer, asked: number }} */
const T = { choice: { preset: "web", tiles: 9, goal: "score" }, done: 0, right: 0, puzzle: null, result: null, asked: 0 };

// `hooks`: profile() → {name, key} | null; askProfile() asks a name.
/** @param {HTMLElement} root @param {Hooks} hooks */
export function renderTrain(root, hooks) {
  const body = /** @type {HTMLElement} */ (root.querySelector("#train-body"));
  const me = hooks.profile();
  if (!me) {
    body.replaceChildren(el("p", { class: "train-guest" },
      _("The trainer keeps your rating: choose a player name to train."), " ",
      el("button", { type: "button", class: "small", text: _("Choose a name"), onclick: hooks.askProfile })));
    body.dataset.ready = "true";
    return;
  }
  body.replaceChildren(settings(body, me), el("div", { id: "train-puzzle", "aria-live": "polite" }));
  if (T.puzzle) show(body, me);
  else next(body, me);
}

/** @param {HTMLElement} body @param {Profile} me */
function settings(body, me) {
  const select = (/** @type {string} */ name, /** @type {(string | number)[]} */ values, /** @type {string} */ label, /** @type {(value: any) => string} */ words) => el("label", { class: "train-setting" }, label, " ",
    el("select", { id: `train-${name}`, onchange: (/** @type {Event} */ event) => {
      const value = /** @type {HTMLSelectElement} */ (event.target).value;
      /** @type {Record<string, string | number>} */ (T.choice)[name] = name === "tiles" ? Number(value) : value;
      T.done = 0;
      T.right = 0;
      /** @type {HTMLAnchorElement} */ (body.querySelector("#train-sheet")).href = sheetHref();
      next(body, me);
    } }, ...values.map((value) => el("option", { value: String(value), selected: /** @type {Record<string, string | number>} */ (T.choice)[name] === value, text: words(value) }))));
  return el("div", { class: "train-settings" },
    select("goal", Object.keys(GOALS()), _("Play for"), (value) => GOALS()[value]),
    select("preset", PRESETS, _("Rules"), (value) => optionLabel("preset", value)),
    select("tiles", BOARDS, _("Tiles"), String),
    el("a", { id: "train-sheet", target: "_blank", rel: "noopener", text: _("Print the cheat sheet of these rules"), href: sheetHref() }));
}

// The page to print for the rules chosen (/api/cheatsheet), in the page's language.
function sheetHref() {
  return `/api/cheatsheet?${new URLSearchParams({ preset: T.choice.preset, tiles: String(T.choice.tiles), lang: lang() })}`;
}

/** @param {HTMLElement} body @param {Profile} me */
async function next(body, me) {
  const place = /** @type {HTMLElement} */ (body.querySelector("#train-puzzle"));
  delete body.dataset.ready;
  body.setAttribute("aria-busy", "true");
  place.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));  // the last puzzle's answers go
  if (T.done >= SESSION) {
    T.done = 0;
    T.right = 0;
  }
  const ticket = ++T.asked;
  try {
    const query = new URLSearchParams({ preset: T.choice.preset, tiles: String(T.choice.tiles), goal: T.choice.goal });
    const puzzle = await api(`/api/train?${query}`, { token: me.key });
    if (ticket !== T.asked) return;
    T.puzzle = puzzle;
    T.result = null;
    show(body, me);
  } catch (error) {
    if (ticket !== T.asked) return;
    place.replaceChildren(el("p", { class: "error", text: failure(error) }));
    body.dataset.ready = "true";
  }
  body.setAttribute("aria-busy", "false");
}

/** @param {HTMLElement} body @param {Profile} me */
function show(body, me) {
  const place = /** @type {HTMLElement} */ (body.querySelector("#train-puzzle"));
  const { puzzle, again, standing } = T.puzzle;
  const open = new Set(puzzle.open);
  const tiles = el("div", { class: "train-tiles", role: "img", "aria-label": _("Open tiles: {tiles}", { tiles: puzzle.open.join(" ") }) },
    ...Array.from({ length: puzzle.rules.tiles }, (_unused, i) => el("span", { class: `train-tile${open.has(i + 1) ? "" : " shut"}`, text: String(i + 1) })));
  const question = puzzle.roll
    ? _("You rolled {roll}. Which tiles do you shut, playing for {goal}?", { roll: puzzle.roll.join(" + "), goal: GOALS()[puzzle.goal] })
    : _("Before the roll: one die or two, playing for {goal}?", { goal: GOALS()[puzzle.goal] });
  const answers = el("div", { class: "train-answers" }, ...puzzle.answers.map((/** @type {Answer} */ answer) =>
    el("button", { type: "button", class: "train-answer", "data-label": answer.label, disabled: Boolean(T.result),
      text: answer.dice ? ngettext("{n} die", "{n} dice", answer.dice) : answer.label,
      onclick: () => submit(body, me, answer) })));
  place.dataset.key = puzzle.key;
  place.replaceChildren(...[
    el("p", { class: "train-count", text: _("Puzzle {n} of {of} · your rating {rating}", { n: T.done + (T.result ? 0 : 1), of: SESSION, rating: Math.round(standing.rating) }) }),
    again ? el("p", { class: "muted", text: _("You missed this one before: here it is again.") }) : null,
    !again && puzzle.habit === "yours" ? el("p", { class: "muted", text: _("From one of your games: this choice cost you there.") }) : null,
    tiles, el("p", { class: "train-question", text: question }), answers,
    T.result ? feedback(body, me) : null,
  ].filter((part) => part !== null));
  body.dataset.ready = "true";
}

/** @param {HTMLElement} body @param {Profile} me @param {Answer} answer */
async function submit(body, me, answer) {
  for (const button of body.querySelectorAll(".train-answer")) /** @type {HTMLButtonElement} */ (button).disabled = true;
  try {
    const given = answer.dice ? { dice: answer.dice } : { shut: answer.shut };
    T.result = await api("/api/train", { method: "POST", body: { key: T.puzzle.puzzle.key, ...given }, token: me.key });
    T.result.chosen = answer.label;
    T.done += 1;
    T.right += T.result.right ? 1 : 0;
    T.puzzle.standing = { ...T.puzzle.standing, ...T.result.rating.after };
    show(body, me);
    /** @type {HTMLElement | null} */ (body.querySelector("#train-next"))?.focus();
  } catch (error) {
    /** @type {HTMLElement} */ (body.querySelector("#train-puzzle")).append(el("p", { class: "error", role: "alert", text: failure(error) }));
  }
}

// Every answer with its value in the goal's terms, the why, the rating's move, and what comes next.
/** @param {HTMLElement} body @param {Profile} me */
function feedback(body, me) {
  const r = T.result;
  const value = (/** @type {number} */ v) => (r.objective === "score" ? _("expected score {value}", { value: number(v, 2) }) : _("chance {value} %", { value: number(100 * v, 1) }));
  const rows = r.ranking.map((/** @type {Answer} */ choice) => el("tr", { class: `${choice.best ? "best" : ""}${choice.label === r.chosen ? " chosen" : ""}` },
    el("th", { scope: "row", text: choice.dice ? ngettext("{n} die", "{n} dice", choice.dice) : choice.label }),
    el("td", { text: value(choice.value) })));
  const before = Math.round(r.rating.before.rating);
  const after = Math.round(r.rating.after.rating);
  const finished = T.done >= SESSION;
  return el("div", { class: `train-feedback ${r.right ? "right" : "wrong"}`, id: "train-feedback", "data-right": String(r.right) },
    el("p", { class: "train-verdict", text: r.right ? _("Right: that is the best answer.") : _("Not the best answer.") }),
    el("table", { class: "train-ranking" }, el("tbody", {}, ...rows)),
    el("p", { class: "train-why", text: r.why }),
    el("p", { class: "train-rating", text: _("Your rating: {before} → {after}", { before, after }) }),
    finished ? el("p", { class: "train-summary", text: _("Session over: {right} of {of} right.", { right: T.right, of: SESSION }) }) : null,
    el("button", { type: "button", class: "primary", id: "train-next", text: finished ? _("A new session") : _("Next puzzle"), onclick: () => next(body, me) }));
}
