// The setup form as pure functions of its slice: the seats and the names the page gives them, the
// presets and ways to play that fit the players, what is remembered, the room to ask the server for,
// and what in it the server would refuse (said before anything is sent).

import { _ } from "./i18n.js";

/** @typedef {import("./state.js").Form} Form */
/** @typedef {import("./state.js").FormSeat} FormSeat */
/** @typedef {import("./state.js").AutoName} AutoName */
/** @typedef {import("./types.js").Catalog} Catalog */

export const MAX_SEED = 2n ** 63n - 1n; // the largest dice seed the server keeps
export const STRENGTH_NAMES = ["easy", "medium", "hard", "expert"];

/**
 * A name the page gives a seat, in the language in use (`me`: the player's own name).
 * @param {AutoName} auto
 * @param {string} me
 */
export function autoName(auto, me) {
  if (auto.word === "me") return me;
  if (auto.word === "player") return _("Player {n}", { n: auto.n });
  return auto.n === null ? _("Robot") : _("Robot {n}", { n: auto.n });
}

/**
 * A seat the page names (until the player types a name).
 * @param {FormSeat} seat @param {AutoName} auto @param {string} me @returns {FormSeat}
 */
export function named(seat, auto, me) {
  return { ...seat, name: autoName(auto, me), auto };
}

/**
 * The seats of a way to play, the player first.
 * @param {Form["who"]} who @param {string} me @returns {FormSeat[]}
 */
export function defaultSeats(who, me) {
  const first = named({ kind: "here" }, { word: "me" }, me);
  if (who === "solo") return [first];
  if (who === "table") return [first, named({ kind: "here" }, { word: "player", n: 2 }, me)];
  if (who === "bots") return [first, named({ kind: "bot", bot: "medium" }, { word: "robot", n: null }, me)];
  return [first, { kind: "remote" }];
}

/**
 * The seats the page names, named again (in a new language, after a new profile name).
 * @param {Form} form @param {string} me @returns {Form}
 */
export function renameAuto(form, me) {
  return { ...form, seats: form.seats.map((seat) => (seat.auto ? { ...seat, name: autoName(seat.auto, me) } : seat)) };
}

/**
 * A seat's kind changed: a bot gets a bot's name and strength, a person the page named a person's name.
 * @param {Form} form @param {number} index @param {FormSeat["kind"]} kind @param {string} me @returns {Form}
 */
export function seatKindChanged(form, index, kind, me) {
  const n = index + 1;
  let seat = { ...form.seats[index], kind };
  if (kind === "bot") {
    seat.bot = seat.bot || "medium";
    if (!seat.name || seat.auto) seat = named(seat, { word: "robot", n }, me);
  } else if (kind === "here" && seat.auto) seat = named(seat, index === 0 ? { word: "me" } : { word: "player", n }, me);
  return { ...form, seats: form.seats.map((old, i) => (i === index ? seat : old)) };
}

/**
 * A name typed for a seat: the page names it no more.
 * @param {Form} form @param {number} index @param {string} name @returns {Form}
 */
export function seatNamed(form, index, name) {
  return { ...form, seats: form.seats.map((seat, i) => (i === index ? { ...seat, name, auto: null } : seat)) };
}

/**
 * The ways to play the server accepts for this many players (a long game is for two).
 * @param {Catalog} catalog @param {number} players
 */
export function modesFor(catalog, players) {
  if (players === 1) return ["solo"];
  return catalog.options.mode.values.filter((mode) => mode !== "solo" && (mode !== "long" || players === 2));
}

/** @param {Catalog} catalog @param {string} name @param {number} players */
export function presetFits(catalog, name, players) {
  const mode = catalog.presets[name].mode;
  return players === 1 ? mode !== "elimination" && mode !== "long" : mode !== "long" || players === 2;
}

/**
 * A preset's options, the way to play fitted to the players.
 * @param {Form} form @param {string} name @returns {Form}
 */
export function applyPreset(form, name) {
  const catalog = /** @type {Catalog} */ (form.catalog);
  const options = { ...catalog.presets[name] };
  if (options.doubles_extra_turn === (options.mode === "long")) options.doubles_extra_turn = null;
  if (form.seats.length <= 1 && options.mode === "round") options.mode = "solo";
  if (form.seats.length > 1 && options.mode === "solo") options.mode = "round";
  return { ...form, preset: name, options };
}

/**
 * After the players change, a way to play that no longer fits becomes the plain one (solo or round).
 * @param {Form} form @returns {Form}
 */
export function fitModeToSeats(form) {
  const catalog = /** @type {Catalog} */ (form.catalog);
  const fitted = presetFits(catalog, form.preset, form.seats.length) ? form : applyPreset(form, "web");
  if (modesFor(catalog, fitted.seats.length).includes(fitted.options.mode)) return fitted;
  return { ...fitted, options: { ...fitted.options, mode: fitted.seats.length === 1 ? "solo" : "round" } };
}

/**
 * The setup as this browser remembers it: the names the page gave are not kept (they are given again).
 * @param {Form} form
 */
export function setupToSave(form) {
  const seats = form.seats.map((seat) => ({ kind: seat.kind, bot: seat.bot, name: seat.auto ? null : seat.name }));
  const { who, preset, options, rounds, hints, turnSeconds, onLeave } = form;
  return { who, preset, options, rounds, hints, turnSeconds, onLeave, seats };
}

/**
 * The setup remembered, as far as the server's catalog still offers it; else the solo game.
 * @param {Form} form @param {any} saved @param {string} me @returns {Form}
 */
export function restoreSetup(form, saved, me) {
  const catalog = /** @type {Catalog} */ (form.catalog);
  const known = saved && catalog.presets[saved.preset] && Array.isArray(saved.seats) && saved.seats.length;
  const seats = known ? saved.seats.slice(0, catalog.players.max).map((/** @type {any} */ seat, /** @type {number} */ i) => savedSeat(seat, i, me)) : defaultSeats("solo", me);
  let restored = applyPreset({ ...form, seats }, known ? saved.preset : "web");
  if (!known) return restored;
  const options = { ...restored.options };
  for (const [key, value] of Object.entries(saved.options ?? {})) if (key in catalog.options) options[key] = value;
  restored = {
    ...restored, options,
    who: ["solo", "table", "bots", "online"].includes(saved.who) ? saved.who : "solo",
    rounds: saved.rounds ?? 1,
    hints: saved.hints ?? true,
    turnSeconds: saved.turnSeconds ?? null,
    onLeave: saved.onLeave === "adjourn" ? "adjourn" : "bot",
  };
  return fitModeToSeats(restored);
}

/**
 * A remembered seat; one the page named is named again, in the language of the day.
 * @param {any} seat @param {number} index @param {string} me @returns {FormSeat}
 */
function savedSeat(seat, index, me) {
  /** @type {FormSeat["kind"]} */
  const kind = ["here", "bot", "remote"].includes(seat.kind) ? seat.kind : "here";
  if (kind === "remote") return { kind };
  /** @type {FormSeat} */
  const fresh = { kind, bot: kind === "bot" ? seat.bot || "medium" : undefined };
  if (seat.name) return { ...fresh, name: seat.name };
  if (kind === "bot") return named(fresh, { word: "robot", n: index + 1 }, me);
  return named(fresh, index === 0 ? { word: "me" } : { word: "player", n: index + 1 }, me);
}

/**
 * The seat a profile plays in: the first one played here (the server names it after the profile).
 * @param {Form} form @param {string | null} profileName
 */
export function profileSeat(form, profileName) {
  return profileName !== null ? form.seats.findIndex((seat) => seat.kind === "here") : -1;
}

/**
 * The practice seed typed in the setup: null when there is none (fair dice), a whole number from 0
 * to 2^63 - 1 (a BigInt beyond what a JavaScript number holds exactly), or undefined when the text
 * is no such number.
 * @param {string} text @returns {number | bigint | null | undefined}
 */
export function practiceSeed(text) {
  if (!text) return null;
  if (!/^[0-9]+$/.test(text)) return undefined;
  const seed = BigInt(text);
  if (seed > MAX_SEED) return undefined;
  return seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : seed;
}

/**
 * The room to ask the server for (POST /api/rooms), `overrides` over the rule options.
 * @param {Form} form @param {string | null} profileName @param {Record<string, unknown>} [overrides]
 * @returns {Record<string, any>}
 */
export function createBody(form, profileName, overrides = {}) {
  /** @type {Record<string, unknown>} */
  const rules = {};
  for (const [key, value] of Object.entries({ ...form.options, ...overrides })) {
    if (value !== null && value !== undefined) rules[key] = value;
  }
  if (rules.max_tiles === undefined) rules.max_tiles = null;
  const mine = profileSeat(form, profileName);
  const seats = form.seats.map((seat, index) =>
    seat.kind === "remote" ? { kind: "remote" } : seat.kind === "bot" ? { kind: "bot", name: (seat.name || "").trim(), bot: seat.bot } : { kind: "here", name: index === mine ? profileName : (seat.name || "").trim() },
  );
  // one player plays one round: more would only roll, alone, for the start of each (rules: solo is one turn)
  const rounds = seats.length > 1 ? form.rounds : 1;
  /** @type {Record<string, any>} */
  const body = { preset: form.preset, rules, seats, rounds, hints: form.hints };
  if (seats.some((seat) => seat.kind === "remote")) {
    if (form.turnSeconds !== null) body.turn_seconds = form.turnSeconds;
    if (form.onLeave !== "bot") body.on_leave = form.onLeave;
  }
  const seed = practiceSeed(form.seed);
  if (seed !== null && seed !== undefined) body.seed = seed;
  return body;
}

/**
 * What in the setup the server would refuse, as a sentence and the field to mend; null when nothing.
 * @param {Form} form @param {string | null} profileName @returns {{ field: string, text: string } | null}
 */
export function setupProblem(form, profileName) {
  const catalog = /** @type {Catalog} */ (form.catalog);
  const opts = catalog.options;
  const within = (/** @type {unknown} */ value, /** @type {import("./types.js").Range} */ range) => Number.isInteger(value) && /** @type {number} */ (value) >= range.min && (range.max === undefined || /** @type {number} */ (value) <= range.max);
  const mine = profileSeat(form, profileName);
  const names = form.seats.map((seat, index) => (index === mine ? /** @type {string} */ (profileName) : (seat.name || "").trim()));
  for (const [index, seat] of form.seats.entries()) {
    if (seat.kind !== "remote" && !names[index]) return { field: `#seat-name-${index}`, text: _("Player {n} needs a name.", { n: index + 1 }) };
  }
  const taken = names.filter((name, index) => form.seats[index].kind !== "remote" && name);
  const twice = taken.find((name, index) => taken.findIndex((other) => other.toLowerCase() === name.toLowerCase()) !== index);
  if (twice) return { field: `#seat-name-${names.lastIndexOf(twice)}`, text: _("Two players are called {name}: give each a name of their own.", { name: twice }) };
  if (!form.seats.some((seat) => seat.kind === "here")) return { field: "#seat-name-0", text: _("At least one player plays on this device.") };
  if (!within(form.options.stake, opts.stake)) return { field: "#opt-stake", text: _("The stake is a whole number from {min} to {max}.", { ...opts.stake }) };
  if (!within(form.options.limit, opts.limit)) return { field: "#opt-limit", text: _("The elimination limit is a whole number from {min} to {max}.", { ...opts.limit }) };
  if (form.seats.length > 1 && !within(form.rounds, catalog.rounds)) return { field: "#opt-rounds", text: _("A game has from {min} to {max} rounds.", { ...catalog.rounds }) };
  if (practiceSeed(form.seed) === undefined) return { field: "#opt-seed", text: _("The dice seed must be a whole number from 0 to {max}; leave it empty for fair dice.", { max: String(MAX_SEED) }) };
  return null;
}
