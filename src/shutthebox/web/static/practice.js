// Practice without the server (#/practice): a solo game on any board and any solo rule, the dice
// rolled in this page (crypto.getRandomValues), the rules applied by the engine (engine.js). It is
// marked practice everywhere: it counts for no ranking and is never sent to the server.

import { _, ngettext } from "./i18n.js";
import { $, $maybe, el } from "./dom.js";
import * as engine from "./engine.js";
import { optionLabel, rulesSummary, tilesCount } from "./words.js";
import { playerName, saved } from "./saved.js";
import { speak } from "./speech.js";
import { motionReduced, rollOn } from "./dice.js";
import { celebrate, sound } from "./feel.js";
import {
  checkbox, choiceWords, diceCount, drawDice, drawTiles, field, gradeOf, loadTable, moveLabel, objectiveWords, presetOf,
  rollDice, select, soloRules, sumOf,
} from "./offline.js";

/** @typedef {import("./engine.js").Rules} Rules */
/** @typedef {import("./engine.js").Turn} Turn */

/** @typedef {{ name: string, bot: boolean }} Seat */
/** @typedef {{ score: number, shut: boolean, grade: string }} Result */
/**
 * @type {{ rules: Rules, turn: Turn | null, selected: Set<number>, rolling: boolean, hint: boolean, extra: boolean,
 *   seats: Seat[], seat: number, results: Result[], table: import("./engine.js").Table | null, steps: number }}
 */
const game = {
  rules: soloRules(saved.get("practiceRules", { one_die: "sum-le-6" })), turn: null, selected: new Set(), rolling: false, hint: false, extra: false,
  seats: saved.get("practiceSeats", []), seat: 0, results: [], table: null, steps: 0,
};
const MAX_SEATS = 8;
const BOT_MS = 450; // a computer player's pace: each of its steps is seen

/** The players of the game: one by default, this browser's player. */
function seats() {
  return game.seats.length ? game.seats : [{ name: playerName(), bot: false }];
}

function botPlays() {
  return Boolean(seats()[game.seat]?.bot);
}

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
      el("ol", { id: "practice-players", class: "players", hidden: true }),
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

/** Whether the rules or the players differ from a first visit's (the options then show unfolded). */
function customised() {
  const r = game.rules;
  return seats().length > 1 || r.tiles !== 9 || r.one_die !== "sum-le-6" || r.scoring !== "sum" || r.max_tiles !== null
    || r.one_die_forced || r.doubles_extra_turn;
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
    // One tap plays (the buttons above); the rules and the players wait folded, open once changed.
    el("details", { id: "practice-more", class: "more-options", open: customised() },
      el("summary", { text: _("Rules and players") }),
      el("div", { class: "rule-fields" },
        field(_("Tiles"), select("practice-tiles-count", boards, r.tiles, (v) => tilesCount(Number(v)), (v) => setRule({ tiles: Number(v) }))),
        field(_("One die allowed when"), select("practice-one_die", ["high-shut", "sum-le-6", "sum-lt-6", "never"], r.one_die, (v) => optionLabel("one_die", v), (v) => setRule({ one_die: v }))),
        field(_("Scoring"), select("practice-scoring", ["sum", "sum-plus-roll", "digits", "count"], r.scoring, (v) => optionLabel("scoring", v), (v) => setRule({ scoring: v }))),
        field(_("Most tiles shut per roll"), select("practice-max_tiles", ["", 1, 2, 3, 4, 5, 6], r.max_tiles ?? "", (v) => (v === "" ? _("no limit") : String(v)), (v) => setRule({ max_tiles: v === "" ? null : Number(v) }))),
        checkbox("practice-forced", r.one_die_forced, _("One die is compulsory when allowed"), (v) => setRule({ one_die_forced: v })),
        checkbox("practice-doubles", r.doubles_extra_turn, _("A double earns an extra turn"), (v) => setRule({ doubles_extra_turn: v }))),
      seatsEditor(),
      el("button", { type: "submit", id: "practice-start", class: "primary", text: _("Start the practice game") })),
  );
}

// Pass-and-play: players at this device and computer players (they play from the solver's score
// table), each one turn on the full board; the lowest score wins the round, a shut box at once.
function seatsEditor() {
  const list = el("ol", { class: "seats", id: "practice-seats" });
  const all = seats();
  const change = (/** @type {Seat[]} */ next) => {
    game.seats = next;
    saved.set("practiceSeats", next);
    renderSetupFields();
  };
  all.forEach((seat, i) => {
    const input = el("input", { id: `practice-seat-${i}`, value: seat.name, maxlength: "24", autocomplete: "off", readonly: seat.bot || null, oninput: (/** @type {Event} */ event) => {
      game.seats = all.map((s, j) => (j === i ? { ...s, name: /** @type {HTMLInputElement} */ (event.target).value } : s));
      saved.set("practiceSeats", game.seats);
    } });
    const label = seat.bot ? _("Computer player") : _("Player {number}", { number: i + 1 });
    const remove = all.length > 1 ? el("button", { type: "button", class: "small", "aria-label": _("Remove {name}", { name: seat.name }), text: "✕", onclick: () => change(all.filter((_s, j) => j !== i)) }) : null;
    list.append(el("li", { class: "seat" }, field(label, input), remove));
  });
  const full = all.length >= MAX_SEATS;
  return el("fieldset", { class: "practice-players" },
    el("legend", { text: _("Players") }),
    el("p", { class: "muted", text: all.length > 1 ? _("Each plays one turn on the full board, passing the device; the lowest score wins the round.") : _("Alone, or add players to pass the device round.") }),
    list,
    el("div", { class: "seat-buttons" },
      el("button", { type: "button", id: "practice-add-seat", class: "small", disabled: full, text: _("Add a player"), onclick: () => change([...all, { name: _("Player {number}", { number: all.length + 1 }), bot: false }]) }),
      el("button", { type: "button", id: "practice-add-bot", class: "small", disabled: full, text: _("Add a computer player"), onclick: () => change([...all, { name: _("Computer {number}", { number: all.filter((s) => s.bot).length + 1 }), bot: true }]) })));
}

export function startPractice() {
  game.seats = seats().map((seat, i) => ({ ...seat, name: seat.name.trim() || _("Player {number}", { number: i + 1 }) }));
  if (game.seats.length === 1 && !game.seats[0].bot) game.seats = []; // alone: this browser's player
  game.seat = 0;
  game.results = [];
  beginTurn();
}

/** The turn of the seat to play, on the full board. */
function beginTurn() {
  game.turn = engine.newTurn(game.rules);
  game.steps += 1;
  game.selected = new Set();
  game.hint = false;
  game.extra = false;
  $("#practice-result").hidden = true;
  drawDice($("#practice-dice"), []);
  renderPractice();
  $("#practice-status").focus?.();
  // A hint needs the solver's table: prebuilt for the presets (cached offline), else the server's.
  const preset = presetOf(game.rules);
  if (preset) {
    loadTable(preset, game.rules.tiles, "score").then((table) => {
      game.table = table;
      renderGame();
    });
  } else {
    game.table = null;
  }
}

/** The tiles that some legal move uses. */
function usable() {
  const turn = game.turn;
  if (!turn || turn.phase !== "move" || game.rolling || !turn.dice || botPlays()) return new Set();
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
  renderSeats();
  const box = $("#practice-box");
  box.dataset.phase = game.rolling ? "rolling" : turn.phase;
  box.dataset.step = String(game.steps); // each change of the turn (a roll, a move), for the tests and the eye
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
    button.disabled = !enabled || game.rolling || botPlays();
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
  else if (botPlays() && !game.rolling) botStep();
}

function renderSeats() {
  const list = $("#practice-players");
  const all = seats();
  list.hidden = all.length < 2;
  list.replaceChildren();
  list.dataset.n = String(all.length);
  all.forEach((seat, i) => {
    const result = game.results[i];
    const active = i === game.seat && game.turn?.phase !== "over";
    list.append(el("li", { class: `player${active ? " active" : ""}${result && game.results.length === all.length && isWinner(i) ? " won" : ""}`, "aria-current": active ? "true" : null, "data-seat": String(i) },
      el("span", { class: "name", text: seat.name }),
      seat.bot ? el("span", { class: "badges", text: _("computer") }) : null,
      result ? el("span", { class: "numbers" }, el("span", { class: "score", text: `${result.score} · ${result.grade}` })) : null));
  });
}

/** @param {number} i */
function isWinner(i) {
  return winners().includes(i);
}

/** The round's winners: whoever shut the box, else the lowest score. */
function winners() {
  const shut = game.results.map((result, i) => (result.shut ? i : -1)).filter((i) => i >= 0);
  if (shut.length) return shut;
  const best = Math.min(...game.results.map((result) => result.score));
  return game.results.map((result, i) => (result.score === best ? i : -1)).filter((i) => i >= 0);
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let botTimer;

// A computer player's next step, from the solver's score table (the first legal move without one).
function botStep() {
  clearTimeout(botTimer);
  botTimer = setTimeout(() => {
    const turn = game.turn;
    if (!turn || !botPlays() || game.rolling || document.body.dataset.view !== "practice") return;
    const table = game.table;
    if (turn.phase === "dice") {
      choose(table ? engine.rankDice(table, game.rules, turn)[0].count : Math.max(...engine.diceChoices(game.rules, turn.mask)));
    } else if (turn.phase === "roll") {
      roll();
    } else if (turn.phase === "move" && turn.dice) {
      const best = table ? engine.rankMoves(table, game.rules, turn)[0].tiles : engine.legalMoves(game.rules, turn.mask, turn.dice).at(-1) ?? [];
      if (game.selected.size) {
        shut(true);
      } else {
        game.selected = new Set(best);
        renderGame();
      }
    }
  }, motionReduced() ? BOT_MS / 3 : BOT_MS);
}

/** @param {number} n */
function toggle(n) {
  if (!usable().has(n) || botPlays()) return;
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
  game.steps += 1;
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
    game.steps += 1;
    game.selected = new Set();
    drawDice($("#practice-dice"), faces);
    renderGame();
    speak($("#practice-status").textContent ?? "");
  };
  if (motionReduced()) landed();
  else rollOn($("#practice-dice"), faces, landed);
}

function shut(byBot = false) {
  const turn = game.turn;
  if (!turn || !selectionLegal() || (botPlays() && !byBot)) return;
  const tiles = [...game.selected].sort((a, b) => a - b);
  game.turn = engine.shutTiles(game.rules, turn, tiles);
  game.steps += 1;
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
  if (seats().length > 1) {
    renderRoundResult(turn, grade);
    return;
  }
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

/** A turn of a round ended: its score kept, the device passed on, or the round's result. @param {Turn} turn @param {string} grade */
function renderRoundResult(turn, grade) {
  const box = $("#practice-result");
  const all = seats();
  game.results[game.seat] = { score: turn.score ?? 0, shut: turn.shut, grade };
  const name = all[game.seat].name;
  const said = turn.shut ? _("{name} shut the box!", { name }) : _("{name}: score {score}, grade {grade}.", { name, score: turn.score ?? 0, grade });
  renderSeats();
  if (game.results.length < all.length && !turn.shut) {
    const next = all[game.seat + 1];
    box.replaceChildren(
      el("h3", { id: "practice-score", text: said }),
      el("button", { type: "button", id: "practice-next", class: "primary", text: next.bot ? _("Next: {name} (computer)", { name: next.name }) : _("Pass the device to {name}", { name: next.name }), onclick: () => {
        game.seat += 1;
        beginTurn();
      } }),
    );
    speak(said);
    $("#practice-next").focus();
    return;
  }
  // a shut box wins at once: the players after it do not play
  const won = winners().map((i) => all[i].name).join(", ");
  const lines = all.map((seat, i) => el("li", { class: game.results[i] && isWinner(i) ? "won" : null }, game.results[i] ? `${seat.name}: ${game.results[i].score} · ${game.results[i].grade}` : `${seat.name}: —`));
  renderSeats();
  box.replaceChildren(
    el("h3", { id: "practice-score", text: ngettext("{names} wins the round.", "{names} tie the round.", winners().length, { names: won }) }),
    el("p", { class: "muted", text: said }),
    el("ol", { class: "best-list", id: "practice-round" }, ...lines),
    el("p", { class: "tag practice-tag", id: "practice-mark", text: _("Practice: not ranked, never sent to the server.") }),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "practice-again", class: "primary", text: _("Play again"), onclick: () => startPractice() }),
      el("button", { type: "button", id: "practice-change", text: _("Change the rules"), onclick: () => {
        game.turn = null;
        renderPractice();
      } })),
  );
  speak(`${$("#practice-score").textContent} ${_("Practice: not ranked, never sent to the server.")}`);
  box.focus();
}

/** The keys of the practice game: tiles 1–9 (0, -, = for 10–12), Enter, R, 1/2, H, Esc. @param {KeyboardEvent} event */
export function practiceKey(event) {
  const turn = game.turn;
  if (document.body.dataset.view !== "practice" || !turn || botPlays() || event.ctrlKey || event.metaKey || event.altKey) return;
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
