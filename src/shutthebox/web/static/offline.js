// What the page does without its server: the rules of a game as the engine (engine.js) reads them,
// dice rolled here, the solver's value tables (prebuilt under /static/tables, kept by the service
// worker), and the wooden box drawn as the online game draws it. Practice (practice.js) and the
// companion beside a real box (companion.js) are built on it; neither sends a game anywhere.

import { _ } from "./i18n.js";
import { el } from "./dom.js";
import { dieFace } from "./dice.js";
import { formatLoss, formatValue } from "./hints.js";
import { tilesText } from "./room-facts.js";
import { diceCount } from "./narration.js";

/** @typedef {import("./engine.js").Rules} Rules */
/** @typedef {import("./engine.js").Turn} Turn */
/** @typedef {import("./engine.js").Table} Table */

/** The solo rule sets a real box is played by (the server's presets: core/rules.py PRESETS). */
/** @type {Record<string, Partial<Rules>>} */
export const PRESETS = {
  web: { one_die: "sum-le-6" },
  classic: { one_die: "high-shut" },
  "two-dice": { one_die: "never" },
  digits: { one_die: "high-shut", scoring: "digits" },
  sailors: { one_die: "high-shut", scoring: "sum-plus-roll" },
  pub: { one_die: "sum-le-6", one_die_forced: true, max_tiles: 2 },
};

/**
 * Solo rules, every option given (those not named are the classic game's).
 * @param {Partial<Rules>} options @returns {Rules}
 */
export function soloRules(options) {
  return {
    tiles: 9, one_die: "high-shut", one_die_forced: false, max_tiles: null, scoring: "sum",
    shut_wins: true, stake: 0, limit: 45, doubles_extra_turn: false, ...options, mode: "solo",
  };
}

/** @param {string} preset @param {number} tiles */
export function presetRules(preset, tiles) {
  return soloRules({ ...PRESETS[preset], tiles });
}

/** Whether the server can be reached now (the last answer said so, and the browser is online). */
export const reach = { server: false };

/** One face of a fair die, from the browser's cryptographic random numbers (no modulo bias). */
export function fairFace() {
  const byte = new Uint8Array(1);
  do crypto.getRandomValues(byte); while (byte[0] >= 252);
  return (byte[0] % 6) + 1;
}

/** @param {number} count */
export function rollDice(count) {
  return Array.from({ length: count }, fairFace);
}

// -- the solver's value tables: prebuilt ones first (cached for offline), else the server's ------
/** @type {Map<string, Promise<Table | null>>} */
const tables = new Map();

/**
 * The value table of a preset's board for an objective ("score" or "shut"), or null when neither
 * the page's files nor the server have it (offline, a table never fetched).
 * @param {string} preset @param {number} tiles @param {string} objective
 * @returns {Promise<Table | null>}
 */
export function loadTable(preset, tiles, objective) {
  const key = `${preset}-${tiles}-${objective}`;
  if (!tables.has(key)) {
    const query = new URLSearchParams({ preset, tiles: String(tiles), objective });
    const found = fetchJson(`/static/tables/${key}.json`).then((table) => table ?? fetchJson(`/api/tables?${query}`));
    found.then((table) => table || tables.delete(key)); // not there: asked again next time (online again)
    tables.set(key, found);
  }
  return /** @type {Promise<Table | null>} */ (tables.get(key));
}

/** @param {string} url */
async function fetchJson(url) {
  try {
    const response = await fetch(url);
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/** The preset whose rules these are, when they are one's (its tables may be prebuilt). @param {Rules} rules */
export function presetOf(rules) {
  for (const name of Object.keys(PRESETS)) {
    const same = presetRules(name, rules.tiles);
    if (["one_die", "one_die_forced", "max_tiles", "scoring", "doubles_extra_turn"].every((key) => /** @type {any} */ (same)[key] === /** @type {any} */ (rules)[key])) return name;
  }
  return null;
}

// -- the box drawn as the online game draws it (style.css: .box, .tiles, .tile, .felt, .dice) -----
/**
 * @typedef {{ tiles: number, open: number[], selectable?: Set<number>, selected?: Set<number>,
 *   hinted?: Set<number>, onTap?: (n: number) => void, phase?: string, label?: string }} BoardView
 */

/**
 * The row of tiles in `holder`, drawn anew: open ones up, shut ones down, the selected and the
 * hinted marked, only the selectable ones taken by a tap or a key.
 * @param {HTMLElement} holder @param {BoardView} view
 */
export function drawTiles(holder, view) {
  const open = new Set(view.open);
  const selected = view.selected ?? new Set();
  const hinted = view.hinted ?? new Set();
  if (holder.children.length !== view.tiles) {
    holder.replaceChildren();
    for (let n = 1; n <= view.tiles; n += 1) holder.append(el("button", { type: "button", class: "tile", "data-tile": String(n) }, el("span", { class: "num", text: String(n) })));
  }
  holder.dataset.n = String(view.tiles);
  for (const tile of /** @type {HTMLButtonElement[]} */ ([...holder.children])) {
    const n = Number(tile.dataset.tile);
    const isOpen = open.has(n);
    tile.onclick = () => view.onTap?.(n);
    tile.classList.toggle("shut", !isOpen);
    tile.classList.toggle("selected", selected.has(n));
    tile.classList.toggle("hinted", hinted.has(n));
    tile.disabled = !view.selectable?.has(n);
    tile.setAttribute("aria-pressed", String(selected.has(n)));
    tile.setAttribute("aria-label", selected.has(n) ? _("{n}, selected", { n }) : isOpen ? _("{n}, open", { n }) : _("{n}, shut", { n }));
  }
}

/** @param {HTMLElement} tray @param {number[]} faces */
export function drawDice(tray, faces) {
  tray.replaceChildren(...faces.map((face) => dieFace(face)));
  tray.setAttribute("aria-label", faces.length ? _("Dice: {faces}", { faces: faces.join(" + ") }) : _("Dice not rolled yet"));
  tray.dataset.faces = faces.join(",");
}

/** The objective in the hints' words: what the values measure. @param {string} objective */
export function objectiveWords(objective) {
  return objective === "shut" ? _("chance to shut the box") : _("expected score (lower is better)");
}

/**
 * One ranked choice as the hints word it: its value in the objective's unit, what it gives away.
 * @param {string} objective @param {{ value: number, loss: number }} choice
 */
export function choiceWords(objective, choice) {
  const value = formatValue({ objective, opening: false }, choice.value);
  return choice.loss > 1e-9 ? `${value} (${formatLoss(objective, choice.loss)})` : value;
}

/** @param {number[]} tiles */
export function moveLabel(tiles) {
  return tilesText(tiles);
}

export { diceCount };

// -- form fields, as the setup draws them (setup-fields.js) ----------------------------------------
/** @param {string} label @param {HTMLElement} control */
export function field(label, control) {
  return el("label", { class: "field" }, el("span", { text: label }), control);
}

/**
 * @param {string} id @param {(string | number)[]} values @param {unknown} current
 * @param {(value: any) => string} labelOf @param {(value: string) => void} onchange
 */
export function select(id, values, current, labelOf, onchange) {
  const node = el("select", { id, onchange: (/** @type {Event} */ event) => onchange(/** @type {HTMLSelectElement} */ (event.target).value) });
  for (const value of values) node.append(el("option", { value: String(value), selected: String(current) === String(value), text: labelOf(value) }));
  return node;
}

/** @param {string} id @param {boolean} checked @param {string} label @param {(checked: boolean) => void} onchange */
export function checkbox(id, checked, label, onchange) {
  const input = el("input", { id, type: "checkbox", checked, onchange: (/** @type {Event} */ event) => onchange(/** @type {HTMLInputElement} */ (event.target).checked) });
  return el("label", { class: "check" }, input, el("span", { text: label }));
}

/** The grade of an open sum (core/tiles.py grade): S, A, B, C or F. @param {number} open */
export function gradeOf(open) {
  if (open === 0) return "S";
  if (open <= 5) return "A";
  if (open <= 12) return "B";
  return open <= 25 ? "C" : "F";
}

/** @param {number[]} tiles */
export function sumOf(tiles) {
  return tiles.reduce((a, b) => a + b, 0);
}
