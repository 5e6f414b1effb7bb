// Practice without the server (#/practice): a solo game on any board and any solo rule, the dice
// rolled in this page (crypto.getRandomValues), the rules applied by the engine (engine.js). It is
// marked practice everywhere: it counts for no ranking and is never sent to the server.

import { _ } from "./i18n.js";
import { $, $maybe, el } from "./dom.js";
import * as engine from "./engine.js";
import { optionLabel, rulesSummary, tilesCount } from "./words.js";
import { saved } from "./saved.js";
import { speak } from "./speech.js";
import { motionReduced, rollOn } from "./dice.js";
import { celebrate, sound } from "./feel.js";
import {
  checkbox, choiceWords, diceCount, drawDice, drawTiles, field, gradeOf, loadTable, moveLabel, objectiveWords, presetOf,
  rollDice, select, soloRules, sumOf,
} from "./offline.js";

/** @typedef {import("./engine.js").Rules} Rules */
/** @typedef {import("./engine.js").Turn} Turn */

/** @type {{ rules: Rules, turn: Turn | null, selected: Set<number>, rolling: boolean, hint: boolean, extra: boolean }} */
const game = { rules: soloRules(saved.get("practiceRules", { one_die: "sum-le-6" })), turn: null, selected: new Set(), rolling: false, hint: false, extra: false };

const KEY_TILES = /** @type {Record<string, number>} */ ({ 0: 10, "-": 11, "=": 12 });

/** The practice screen: its setup, or the game in play. */
export function renderPractice() {
  const view = $("#view-practice");
  if (!$maybe("#practice-setup")) drawShell(view);
  $("#practice-setup").hidden = game.turn !== null;
  $("#practice-game").hidden = game.turn === null;
  if (game.turn) renderGame();
  else renderSetupFields();
}

/** @param {HTMLElement} view */
function drawShell(view) {
  view.replaceChildren(
    el("h2", { id: "practice-title", text: _("Practice") }),
    el("p", { class: "banner practice", id: "practice-banner", text: _("Practice on this device: the page rolls the dice and keeps nothing on the server. It counts for no ranking.") }),
    el("form", { id: "practice-setup", class: "card setup", novalidate: true, onsubmit: (/** @type {Event} */ event) => {
      event.preventDefault();
      startPractice();
    } }),
    el("div", { id: "practice-game" },
      el("p", { id: "practice-rules", class: "muted room-line" }),
      el("div", { class: "box", id: "practice-box" },
        el("div", { class: "tiles", id: "practice-tiles", role: "group", "aria-label": _("Tiles") }),
        el("div", { class: "felt" },
          el("div", { class: "dice", id: "practice-dice", role: "img", "aria-label": _("Dice not rolled yet") }),
          el("p", { id: "practice-status", class: "status", "aria-live": "polite" }),
          el("p", { id: "practice-selection", class: "selection" }))),
      el("div", { class: "controls", id: "practice-controls" },
        el("button", { type: "button", id: "practice-roll", class: "primary", onclick: () => roll() }, el("span", { text: _("Roll the dice") }), " ", el("kbd", { text: "R" })),
        el("button", { type: "button", id: "practice-one", class: "primary", onclick: () => choose(1) }, el("span", { text: _("1 die") }), " ", el("kbd", { text: "1" })),
        el("button", { type: "button", id: "practice-two", class: "primary", onclick: () => choose(2) }, el("span", { text: _("2 dice") }), " ", el("kbd", { text: "2" })),
        el("button", { type: "button", id: "practice-shut", class: "primary shut", onclick: () => shut() }, el("span", { text: _("Shut") }), " ", el("kbd", { text: "⏎" })),
        el("button", { type: "button", id: "practice-clear", onclick: () => clear() }, el("span", { text: _("Clear") }), " ", el("kbd", { text: "Esc" })),
        el("button", { type: "button", id: "practice-hint-button", onclick: () => toggleHint() }, el("span", { text: _("Hint") }), " ", el("kbd", { text: "H" }))),
      el("section", { id: "practice-hint", class: "card hint", hidden: true, "aria-live": "polite" }),
      el("section", { id: "practice-result", class: "card result", hidden: true, tabindex: "-1" })),
  );
}

/** @param {Partial<Rules>} change */
function setRule(change) {
  game.rules = soloRules({ ...game.rules, ...change });
  saved.set("practiceRules", game.rules);
}

function renderSetupFields() {
  const form = $("#practice-setup");
  const r = game.rules;
  const boards = Array.from({ length: 12 }, (_unused, i) => i + 1);
  form.replaceChildren(
    el("h3", { text: _("Practice on your own") }),
    el("div", { class: "quick-buttons", role: "group", "aria-label": _("Start a practice game") },
      ...[9, 10, 12].map((n) => el("button", { type: "button", class: "primary quick", id: `practice-quick-${n}`, onclick: () => {
        setRule({ tiles: n });
        startPractice();
      } }, el("span", { class: "quick-n", text: String(n) }), " ", el("span", { class: "quick-words", text: tilesCount(n) })))),
    el("div", { class: "rule-fields" },
      field(_("Tiles"), select("practice-tiles-count", boards, r.tiles, (v) => tilesCount(Number(v)), (v) => setRule({ tiles: Number(v) }))),
      field(_("One die allowed when"), select("practice-one_die", ["high-shut", "sum-le-6", "sum-lt-6", "never"], r.one_die, (v) => optionLabel("one_die", v), (v) => setRule({ one_die: v }))),
      field(_("Scoring"), select("practice-scoring", ["sum", "sum-plus-roll", "digits", "count"], r.scoring, (v) => optionLabel("scoring", v), (v) => setRule({ scoring: v }))),
      field(_("Most tiles shut per roll"), select("practice-max_tiles", ["", 1, 2, 3, 4, 5, 6], r.max_tiles ?? "", (v) => (v === "" ? _("no limit") : String(v)), (v) => setRule({ max_tiles: v === "" ? null : Number(v) }))),
      checkbox("practice-forced", r.one_die_forced, _("One die is compulsory when allowed"), (v) => setRule({ one_die_forced: v })),
      checkbox("practice-doubles", r.doubles_extra_turn, _("A double earns an extra turn"), (v) => setRule({ doubles_extra_turn: v }))),
    el("button", { type: "submit", id: "practice-start", class: "primary", text: _("Start the practice game") }),
  );
}

export function startPractice() {
  game.turn = engine.newTurn(game.rules);
  game.selected = new Set();
  game.hint = false;
  game.extra = false;
  $("#practice-result").hidden = true;
  drawDice($("#practice-dice"), []);
  renderPractice();
  $("#practice-status").focus?.();
  // A hint needs the solver's table: prebuilt for the presets (cached offline), else the server's.
  const preset = presetOf(game.rules);
  if (preset) loadTable(preset, game.rules.tiles, "score").then(() => renderGame());
}

/** The tiles that some legal move uses. */
function usable() {
  const turn = game.turn;
  if (!turn || turn.phase !== "move" || game.rolling || !turn.dice) return new Set();
  return new Set(engine.legalMoves(game.rules, turn.mask, turn.dice).flat());
}

function selectionLegal() {
  const turn = game.turn;
  if (!turn || turn.phase !== "move" || !turn.dice) return false;
  const picked = [...game.selected].sort((a, b) => a - b).join(",");
  return engine.legalMoves(game.rules, turn.mask, turn.dice).some((move) => [...move].sort((a, b) => a - b).join(",") === picked);
}

function renderGame() {
  const turn = game.turn;
  if (!turn) return;
  const open = engine.tilesOf(turn.mask);
  $("#practice-rules").textContent = `${_("Practice")} · ${tilesCount(game.rules.tiles)} · ${rulesSummary(game.rules)}`;
  const box = $("#practice-box");
  box.dataset.phase = game.rolling ? "rolling" : turn.phase;
  box.dataset.mine = "true";
  drawTiles($("#practice-tiles"), { tiles: game.rules.tiles, open, selectable: usable(), selected: game.selected, onTap: toggle });
  const total = turn.dice ? sumOf(turn.dice) : 0;
  const status = $("#practice-status");
  if (game.rolling) status.textContent = _("Rolling…");
  else if (turn.phase === "dice") status.textContent = game.extra ? _("A double: roll again. One die or two?") : _("Roll one die or two?");
  else if (turn.phase === "roll") status.textContent = game.extra ? _("A double: roll again.") : _("Roll the dice.");
  else if (turn.phase === "move") status.textContent = _("You rolled {total}: shut tiles that add up to {total}.", { total });
  else status.textContent = turn.shut ? _("You shut the box!") : _("No open tiles make {total}: the game is over.", { total });
  $("#practice-selection").textContent = turn.phase === "move" && game.selected.size ? `${moveLabel([...game.selected])} = ${sumOf([...game.selected])}` : "";
  const show = (/** @type {string} */ id, /** @type {boolean} */ shown, enabled = shown) => {
    const button = /** @type {HTMLButtonElement} */ ($(id));
    button.hidden = !shown;
    button.disabled = !enabled || game.rolling;
  };
  const choices = turn.phase === "dice" ? engine.diceChoices(game.rules, turn.mask) : [];
  show("#practice-roll", turn.phase === "roll");
  show("#practice-one", turn.phase === "dice" && choices.includes(1));
  show("#practice-two", turn.phase === "dice" && choices.includes(2));
  show("#practice-shut", turn.phase === "move", selectionLegal());
  show("#practice-clear", turn.phase === "move", game.selected.size > 0);
  const preset = presetOf(game.rules);
  show("#practice-hint-button", Boolean(preset) && (turn.phase === "dice" || turn.phase === "move"));
  renderHint();
  if (turn.phase === "over") renderResult();
}

/** @param {number} n */
function toggle(n) {
  if (!usable().has(n)) return;
  if (game.selected.has(n)) game.selected.delete(n);
  else game.selected.add(n);
  sound.tile();
  renderGame();
  if (selectionLegal()) $("#practice-shut").focus();
}

function clear() {
  game.selected = new Set();
  renderGame();
}

/** @param {number} count */
function choose(count) {
  const turn = game.turn;
  if (!turn || turn.phase !== "dice" || game.rolling || !engine.diceChoices(game.rules, turn.mask).includes(count)) return;
  game.turn = engine.chooseDice(game.rules, turn, count);
  roll(); // the choice rolls, as in the online game
}

function roll() {
  const turn = game.turn;
  if (!turn || game.rolling) return;
  if (turn.phase === "dice") {
    choose(Math.max(...engine.diceChoices(game.rules, turn.mask)));
    return;
  }
  if (turn.phase !== "roll" || turn.count === null) return;
  const faces = rollDice(turn.count);
  game.rolling = true;
  game.hint = false;
  renderGame();
  const landed = () => {
    game.rolling = false;
    const next = engine.rollWith(game.rules, turn, faces);
    game.extra = next.phase === "dice" || next.phase === "roll"; // a double missed: its extra turn
    game.turn = next;
    game.selected = new Set();
    drawDice($("#practice-dice"), faces);
    renderGame();
    speak($("#practice-status").textContent ?? "");
  };
  if (motionReduced()) landed();
  else rollOn($("#practice-dice"), faces, landed);
}

function shut() {
  const turn = game.turn;
  if (!turn || !selectionLegal()) return;
  const tiles = [...game.selected].sort((a, b) => a - b);
  game.turn = engine.shutTiles(game.rules, turn, tiles);
  game.selected = new Set();
  game.hint = false;
  game.extra = false;
  sound.tile();
  renderGame();
  if (game.turn.phase !== "over") $("#practice-status").focus?.();
}

function toggleHint() {
  game.hint = !game.hint;
  renderHint();
}

async function renderHint() {
  const box = $("#practice-hint");
  const turn = game.turn;
  const preset = presetOf(game.rules);
  if (!game.hint || !turn || !preset || (turn.phase !== "dice" && turn.phase !== "move")) {
    box.hidden = true;
    return;
  }
  const table = await loadTable(preset, game.rules.tiles, "score");
  if (turn !== game.turn) return;
  box.hidden = false;
  if (!table) {
    box.replaceChildren(el("p", { text: _("No hint here: this rule set's table needs the server once.") }));
    return;
  }
  const list = el("ol", { class: "choices" });
  if (turn.phase === "dice") {
    for (const choice of engine.rankDice(table, game.rules, turn)) list.append(el("li", {}, el("strong", { text: diceCount(choice.count) }), " · ", choiceWords("score", choice)));
  } else {
    for (const choice of engine.rankMoves(table, game.rules, turn)) list.append(el("li", {}, el("strong", { text: moveLabel(choice.tiles) }), " · ", choiceWords("score", choice)));
  }
  box.replaceChildren(el("h3", { text: _("Hint: {objective}", { objective: objectiveWords("score") }) }), list);
}

function renderResult() {
  const turn = game.turn;
  if (!turn) return;
  const open = engine.tilesOf(turn.mask);
  const grade = gradeOf(sumOf(open));
  const box = $("#practice-result");
  if (!box.hidden) return;
  box.hidden = false;
  box.replaceChildren(
    el("h3", { id: "practice-score", text: turn.shut ? _("Box shut! Score {score} · grade {grade}", { score: turn.score ?? 0, grade }) : _("Score {score} · grade {grade}", { score: turn.score ?? 0, grade }) }),
    el("p", { class: "muted", text: open.length ? _("Tiles left open: {tiles}", { tiles: open.join(", ") }) : _("Every tile is shut.") }),
    el("p", { class: "tag practice-tag", id: "practice-mark", text: _("Practice: not ranked, never sent to the server.") }),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "practice-again", class: "primary", text: _("Play again"), onclick: () => startPractice() }),
      el("button", { type: "button", id: "practice-change", text: _("Change the rules"), onclick: () => {
        game.turn = null;
        renderPractice();
      } })),
  );
  if (turn.shut) celebrate();
  speak(`${$("#practice-score").textContent} ${_("Practice: not ranked, never sent to the server.")}`);
  box.focus();
}

/** The keys of the practice game: tiles 1–9 (0, -, = for 10–12), Enter, R, 1/2, H, Esc. @param {KeyboardEvent} event */
export function practiceKey(event) {
  const turn = game.turn;
  if (document.body.dataset.view !== "practice" || !turn || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest?.("input, select, textarea")) return;
  const key = event.key;
  if (turn.phase === "dice" && (key === "1" || key === "2")) choose(Number(key));
  else if (/^[1-9]$/.test(key) || key in KEY_TILES) toggle(/^[1-9]$/.test(key) ? Number(key) : KEY_TILES[key]);
  else if (key === "Enter" && target.tagName !== "BUTTON") shut();
  else if (key === "r" || key === "R") roll();
  else if (key === "h" || key === "H") toggleHint();
  else if (key === "Escape") clear();
  else return;
  event.preventDefault();
}
