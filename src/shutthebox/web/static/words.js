// The page's words for the rules, the strengths and the server's refusals: shared by the game
// (game-view.js, result.js…) and the statistics (stats.js), so both say a rule set the same way.

import { _, ngettext } from "./i18n.js";
import { ApiError } from "./net.js";

// The words for the codes the server uses (presets, option values, seat kinds, bot strengths,
// verdicts); an unknown code shows as it is.
/** @type {Record<string, () => Record<string, string>>} */
export const WORDS = {
  // The presets in a player's words: what each changes, never its code name.
  preset: () => ({
    classic: _("Classic: one die once 7, 8 and 9 are shut"),
    web: _("One die when 6 or less is left open"),
    "web-10": _("One die at 6 or less, ten tiles"),
    "web-12": _("One die at 6 or less, twelve tiles"),
    "two-dice": _("Always two dice"),
    digits: _("The open tiles read as a number"),
    sailors: _("Sailors: the open tiles plus the roll that failed"),
    elimination: _("Elimination: points add up, 45 retires"),
    long: _("Long game: one shuts, the other opens"),
    pub: _("Pub: one die when allowed, two tiles at most"),
  }),
  one_die: () => ({
    "high-shut": _("7, 8 and 9 are shut (every tile of 7 or more)"),
    "sum-le-6": _("the open tiles sum to 6 or less"),
    "sum-lt-6": _("the open tiles sum to less than 6"),
    never: _("never"),
  }),
  scoring: () => ({
    sum: _("sum of the open tiles"),
    "sum-plus-roll": _("open tiles plus the roll that failed"),
    digits: _("open tiles read as a number (1, 5, 9 → 159)"),
    count: _("number of open tiles"),
  }),
  mode: () => ({
    solo: _("solo"),
    round: _("round (lowest score wins)"),
    elimination: _("elimination (retire at the limit)"),
    long: _("long game (two players: shut, then open)"),
  }),
  kind: () => ({ here: _("on this device"), bot: _("computer"), remote: _("online (joins with the code)") }),
  strength: () => ({ easy: _("easy"), medium: _("medium"), hard: _("hard"), expert: _("expert") }),
  verdict: () => ({
    best: _("best"),
    good: _("good"),
    inaccuracy: _("inaccuracy"),
    mistake: _("mistake"),
    blunder: _("blunder"),
  }),
};

/** @param {string} name @param {unknown} value */
export function optionLabel(name, value) {
  return WORDS[name]()[String(value)] ?? String(value);
}

/** @param {number} n */
export function tilesCount(n) {
  return ngettext("{n} tile", "{n} tiles", n);
}

// The rules of a game in a line, as the setup names them.
/** @param {Partial<import("./types.js").Rules>} rules */
export function rulesSummary(rules) {
  const parts = [optionLabel("one_die", rules.one_die), optionLabel("scoring", rules.scoring)];
  if (rules.max_tiles) parts.push(_("Most tiles per roll: {n}", { n: rules.max_tiles }));
  if (rules.one_die_forced) parts.push(_("One die is compulsory when allowed"));
  if (rules.doubles_extra_turn) parts.push(_("A double earns an extra turn"));
  return parts.join(" · ");
}

// The server's rules key ("one_die=high-shut,scoring=sum,…") as an object of options, for display.
/** @param {string} key @returns {Record<string, any>} */
export function keyOptions(key) {
  /** @type {Record<string, any>} */
  const options = {};
  for (const part of key.split(",")) {
    const [name, value] = part.split("=");
    options[name] = value === "true" ? true : value === "false" ? false : value === "null" ? null : value;
  }
  return options;
}

// A refusal as a sentence: the server says what was wrong, already in the reader's language.
/** @param {unknown} detail */
export function refusal(detail) {
  const text = String(detail || "").trim();
  if (!text) return _("The server refused the request.");
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?…]$/.test(text) ? "" : ".");
}

// What went wrong with a request: the server's refusal, or the network's failure.
/** @param {unknown} error */
export function failure(error) {
  return error instanceof ApiError ? refusal(error.message) : _("The server cannot be reached.");
}
