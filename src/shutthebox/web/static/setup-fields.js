// The setup's fields: every rule option (presets first), the online room's clock and what a player
// who leaves becomes, and the rule in force said in words. Each field changes the form's slice.

import { _ } from "./i18n.js";
import { $, el } from "./dom.js";
import { optionLabel, tilesCount } from "./words.js";
import { applyPreset, modesFor, practiceSeed, presetFits } from "./setup-model.js";
import { now, store, withForm } from "./state.js";

/** @typedef {import("./state.js").Form} Form */
/** @typedef {import("./types.js").Catalog} Catalog */

const TURN_CLOCKS = [0, 30, 60, 120]; // the setup's turn clocks, in seconds (0: off)
const DEFAULT_TURN_SECONDS = 60; // the server's clock for a room with a remote seat, unless told

/** Change the form's slice. @param {(form: Form) => Form} change */
export function changeForm(change) {
  store.update((state) => withForm(state, change(state.form)));
}

/** @param {string} key @param {unknown} value */
function setOption(key, value) {
  changeForm((form) => ({ ...form, options: { ...form.options, [key]: value } }));
}

/** @param {string} label @param {HTMLElement} control */
function field(label, control) {
  return el("label", { class: "field" }, el("span", { text: label }), control);
}

/**
 * @param {string} id
 * @param {(string | number)[]} values
 * @param {unknown} current
 * @param {(value: any) => string} labelOf
 * @param {(value: string) => void} onchange
 */
function select(id, values, current, labelOf, onchange) {
  const node = el("select", { id, onchange: (/** @type {Event} */ event) => onchange(/** @type {HTMLSelectElement} */ (event.target).value) });
  for (const value of values) {
    node.append(el("option", { value: String(value), selected: String(current) === String(value), text: labelOf(value) }));
  }
  return node;
}

/** @param {string} id @param {boolean} checked @param {(checked: boolean) => void} onchange */
function checkbox(id, checked, onchange) {
  return el("input", { id, type: "checkbox", checked, onchange: (/** @type {Event} */ event) => onchange(/** @type {HTMLInputElement} */ (event.target).checked) });
}

/**
 * A whole number within the server's range; what is typed is checked at "Play".
 * @param {string} id @param {number} value @param {import("./types.js").Range} range @param {(value: number) => void} onchange
 */
function number(id, value, range, onchange) {
  return el("input", {
    id, type: "number", min: String(range.min), max: range.max === undefined ? null : String(range.max), step: "1", value: String(value), inputmode: "numeric",
    "aria-describedby": "setup-error",
    oninput: (/** @type {Event} */ event) => {
      const input = /** @type {HTMLInputElement} */ (event.target);
      input.removeAttribute("aria-invalid");
      onchange(input.value === "" ? NaN : Number(input.value));
    },
  });
}

/** @param {number} seconds */
function clockLabel(seconds) {
  if (!seconds) return _("off");
  // Translators: a number of seconds, short (a turn clock: "30 s").
  return seconds % 60 || seconds === 60 ? _("{n} s", { n: seconds }) : _("{n} min", { n: seconds / 60 });
}

// The options of a room with remote seats: each action's clock, and what a player who leaves becomes.
export function renderOnlineFields() {
  const form = now().form;
  const leave = /** @type {HTMLSelectElement} */ (select("opt-on_leave", ["bot", "adjourn"], form.onLeave, (v) => (v === "bot" ? _("a bot plays for them") : _("pause the game")), (v) => changeForm((f) => ({ ...f, onLeave: v === "adjourn" ? "adjourn" : "bot" }))));
  leave.disabled = form.turnSeconds === 0;
  $("#online-fields").replaceChildren(
    field(_("Turn clock"), select("opt-turn_seconds", TURN_CLOCKS, form.turnSeconds ?? DEFAULT_TURN_SECONDS, clockLabel, (v) => {
      changeForm((f) => ({ ...f, turnSeconds: Number(v) }));
      /** @type {HTMLSelectElement} */ ($("#opt-on_leave")).disabled = Number(v) === 0;
    })),
    field(_("If a player leaves"), leave),
    el("p", { class: "muted online-note", text: _("Each roll and each move has this time; when it runs out, a bot finishes the turn. A player who misses two turns in a row has left.") }),
  );
}

/** The rule in force, in a player's words: when one die may be rolled, and what the score counts. @param {Record<string, any>} options */
export function ruleInWords(options) {
  const dice = options.one_die === "never"
    ? _("You always roll two dice.")
    : _("You may roll one die when {when}.", { when: optionLabel("one_die", options.one_die) });
  return `${dice} ${_("Your score: the {scoring}.", { scoring: optionLabel("scoring", options.scoring) })}`;
}

export function renderRuleInForce() {
  const form = now().form;
  $("#rule-in-force").textContent = form.catalog ? ruleInWords(form.options) : "";
}

export function renderRuleFields() {
  const form = now().form;
  const o = form.options;
  const catalog = /** @type {Catalog} */ (form.catalog);
  const opts = catalog.options;
  const box = $("#rule-fields");
  const tileValues = Array.from({ length: /** @type {number} */ (opts.tiles.max) }, (_unused, i) => i + 1);
  /** @type {Record<number, string>} */
  const boards = { 9: _("Nine (1–9)"), 10: _("Ten (1–10)"), 12: _("Twelve (1–12)") };
  const tilesLabel = (/** @type {number} */ n) => boards[n] ?? tilesCount(n);
  const players = form.seats.length;
  renderAdvancedFields();
  box.replaceChildren(
    field(_("Start from"), select("opt-preset", Object.keys(catalog.presets).filter((name) => presetFits(catalog, name, players)), form.preset, (v) => optionLabel("preset", v), (v) => {
      changeForm((f) => applyPreset(f, v));
      renderRuleFields();
      renderRuleInForce();
    })),
    field(_("Tiles"), select("opt-tiles", tileValues, o.tiles, tilesLabel, (v) => setOption("tiles", Number(v)))),
    field(_("Way to play"), select("opt-mode", modesFor(catalog, players), o.mode, (v) => optionLabel("mode", v), (v) => setOption("mode", v))),
    field(_("One die allowed when"), select("opt-one_die", opts.one_die.values, o.one_die, (v) => optionLabel("one_die", v), (v) => {
      setOption("one_die", v);
      renderRuleInForce();
    })),
    field(_("Scoring"), select("opt-scoring", opts.scoring.values, o.scoring, (v) => optionLabel("scoring", v), (v) => {
      setOption("scoring", v);
      renderRuleInForce();
    })),
    field(_("Most tiles shut per roll"), select("opt-max_tiles", ["", 1, 2, 3, 4, 5, 6], o.max_tiles ?? "", (v) => (v === "" ? _("no limit") : String(v)), (v) => setOption("max_tiles", v === "" ? null : Number(v)))),
    field(_("A double earns an extra turn"), select("opt-doubles_extra_turn", ["", "true", "false"], o.doubles_extra_turn ?? "", (v) => (v === "" ? _("automatic (on in the long game)") : v === "true" ? _("on") : _("off")), (v) => setOption("doubles_extra_turn", v === "" ? null : v === "true"))),
    field(_("Stake per player and round (0: no money)"), number("opt-stake", o.stake, opts.stake, (v) => setOption("stake", v))),
    field(_("Elimination: a player retires at"), number("opt-limit", o.limit, opts.limit, (v) => setOption("limit", v))),
    Object.assign(field(_("Rounds"), number("opt-rounds", form.rounds, catalog.rounds, (v) => changeForm((f) => ({ ...f, rounds: v })))), { hidden: players < 2 }), // one player plays one
    el("label", { class: "check" }, checkbox("opt-one_die_forced", o.one_die_forced, (v) => setOption("one_die_forced", v)), el("span", { text: _("One die is compulsory when allowed") })),
    el("label", { class: "check" }, checkbox("opt-shut_wins", o.shut_wins, (v) => setOption("shut_wins", v)), el("span", { text: _("Shutting the box wins the round at once") })),
    el("label", { class: "check" }, checkbox("opt-hints", form.hints, (v) => changeForm((f) => ({ ...f, hints: v }))), el("span", { text: _("Hints allowed") })),
  );
}

// Advanced: the dice of a practice game come from a seed typed here (the same seed, the same dice).
function renderAdvancedFields() {
  const form = now().form;
  $("#advanced-fields").replaceChildren(
    field(_("Dice seed (optional, to replay a game)"), el("input", {
      id: "opt-seed",
      inputmode: "numeric",
      value: form.seed,
      "aria-invalid": practiceSeed(form.seed) === undefined ? "true" : null,
      "aria-describedby": "setup-error",
      oninput: (/** @type {Event} */ event) => {
        const input = /** @type {HTMLInputElement} */ (event.target);
        changeForm((f) => ({ ...f, seed: input.value.trim() }));
        input.removeAttribute("aria-invalid");
      },
    })),
    el("p", { class: "muted advanced-note", text: _("With a seed the dice are the same each time: a practice game, which counts for no ranking. Leave it empty for fair dice.") }),
  );
}
