// The companion beside a real wooden box (#/companion), as `shutthebox play --companion` is in the
// terminal: the players roll their own dice and tap the faces; the page shows the board as it
// stands on the box, the best move marked and every legal one ranked with what it gives away, and
// keeps each player's score and the round's result in this browser. No server is needed: the
// rules are the engine's (engine.js), the values the solver's prebuilt tables.

import { _, ngettext } from "./i18n.js";
import { $, $maybe, el } from "./dom.js";
import * as engine from "./engine.js";
import { optionLabel, rulesSummary, tilesCount } from "./words.js";
import { saved } from "./saved.js";
import { speak } from "./speech.js";
import { dieFace } from "./dice.js";
import { sound } from "./feel.js";
import { PRESETS, choiceWords, diceCount, drawDice, drawTiles, field, gradeOf, loadTable, moveLabel, objectiveWords, presetRules, select, sumOf } from "./offline.js";

/** @typedef {import("./engine.js").Turn} Turn */
/** @typedef {{ score: number, shut: boolean }} Result */
/**
 * @typedef {{ preset: string, tiles: number, objective: string, players: string[], round: number, seat: number,
 *   results: (Result | null)[], turn: Turn | null, faces: number[], selected: number[], undo: { turn: Turn, faces: number[] }[],
 *   rounds: { players: string[], scores: number[], winners: number[] }[] }} Table
 */

const SAVED = "companion";
const MAX_PLAYERS = 8;

/** @returns {Table} */
function fresh() {
  return { preset: "web", tiles: 9, objective: "score", players: [], round: 1, seat: 0, results: [], turn: null, faces: [], selected: [], undo: [], rounds: [] };
}

/** @type {Table} */
let table = { ...fresh(), ...saved.get(SAVED, {}) };
let started = Boolean(table.turn) || table.results.length > 0;

function keep() {
  saved.set(SAVED, table);
}

function rules() {
  return presetRules(table.preset, table.tiles);
}

/** The solver's table for the rules and the objective chosen (null: not on this device). */
function values() {
  return loadTable(table.preset, table.tiles, table.objective);
}

/** The companion's screen: its setup, or the table in play. */
export function renderCompanion() {
  const view = $("#view-companion");
  if (!table.players.length) table.players = [_("Player {number}", { number: 1 })]; // in the reader's language
  if (!$maybe("#companion-setup")) drawShell(view);
  $("#companion-setup").hidden = started;
  $("#companion-lead").hidden = started; // at the box, the board comes first
  $("#companion-play").hidden = !started;
  if (started) renderPlay();
  else renderSetupForm();
}

/** @param {HTMLElement} view */
function drawShell(view) {
  view.replaceChildren(
    el("h2", { id: "companion-title", text: _("Companion") }),
    el("p", { class: "lead", id: "companion-lead", text: _("Beside a real wooden box: roll your own dice, tap what they show, and see the best move. Works offline; nothing is sent.") }),
    el("form", { id: "companion-setup", class: "card setup", novalidate: true, onsubmit: (/** @type {Event} */ event) => {
      event.preventDefault();
      startTable();
    } }),
    el("div", { id: "companion-play" },
      el("p", { id: "companion-rules", class: "muted room-line" }),
      el("ol", { id: "companion-players", class: "players" }),
      el("div", { class: "box", id: "companion-box" },
        el("div", { class: "tiles", id: "companion-tiles", role: "group", "aria-label": _("Tiles on your box") }),
        el("div", { class: "felt" },
          el("div", { class: "dice", id: "companion-dice", role: "img", "aria-label": _("Dice not rolled yet") }),
          el("p", { id: "companion-status", class: "status", tabindex: "-1" }))),
      el("div", { id: "companion-pad", class: "face-pad", role: "group", "aria-label": _("The faces you rolled") }),
      el("div", { class: "controls", id: "companion-controls" }),
      el("section", { id: "companion-advice", class: "card hint", "aria-live": "polite" }),
      el("section", { id: "companion-result", class: "card result", hidden: true, tabindex: "-1" }),
      el("section", { id: "companion-history", class: "card", hidden: true })),
  );
}

function renderSetupForm() {
  const form = $("#companion-setup");
  const names = el("ol", { class: "seats", id: "companion-names" });
  table.players.forEach((name, i) => {
    const input = /** @type {HTMLInputElement} */ (el("input", { id: `companion-name-${i}`, value: name, maxlength: "24", autocomplete: "off", oninput: (/** @type {Event} */ event) => {
      table.players[i] = /** @type {HTMLInputElement} */ (event.target).value;
      keep();
    } }));
    const remove = table.players.length > 1 ? el("button", { type: "button", class: "small", "aria-label": _("Remove {name}", { name: name || String(i + 1) }), text: "✕", onclick: () => {
      table.players.splice(i, 1);
      keep();
      renderSetupForm();
    } }) : null;
    names.append(el("li", { class: "seat" }, field(_("Player {number}", { number: i + 1 }), input), remove));
  });
  form.replaceChildren(
    el("h3", { text: _("Who plays at the box?") }),
    names,
    el("button", { type: "button", id: "companion-add", class: "small", text: _("Add a player"), disabled: table.players.length >= MAX_PLAYERS, onclick: () => {
      table.players.push(_("Player {number}", { number: table.players.length + 1 }));
      keep();
      renderSetupForm();
      $(`#companion-name-${table.players.length - 1}`).focus();
    } }),
    el("div", { class: "rule-fields" },
      field(_("Rules of your box"), select("companion-preset", Object.keys(PRESETS), table.preset, (v) => optionLabel("preset", v), (v) => {
        table.preset = v;
        keep();
      })),
      field(_("Tiles"), select("companion-tiles-count", [9, 10, 12], table.tiles, (v) => tilesCount(Number(v)), (v) => {
        table.tiles = Number(v);
        keep();
      })),
      field(_("Advice for"), select("companion-objective", ["score", "shut"], table.objective, (v) => (v === "shut" ? _("the best chance to shut the box") : _("the lowest expected score")), (v) => {
        table.objective = v;
        keep();
      }))),
    el("button", { type: "submit", id: "companion-start", class: "primary", text: _("Start at the box") }),
  );
}

function startTable() {
  table.players = table.players.map((name, i) => name.trim() || _("Player {number}", { number: i + 1 }));
  table.round = 1;
  startRound();
}

function startRound() {
  table.seat = 0;
  table.results = table.players.map(() => null);
  startTurn();
  started = true;
  $("#companion-result").hidden = true;
  keep();
  renderCompanion();
  $("#companion-status").focus();
}

function startTurn() {
  table.turn = engine.newTurn(rules());
  table.faces = [];
  table.selected = [];
  table.undo = [];
}

/** A step of the turn, undoable: the turn and the faces tapped before it. @param {() => void} change */
function step(change) {
  if (!table.turn) return;
  table.undo.push({ turn: table.turn, faces: [...table.faces] });
  change();
  table.selected = [];
  keep();
  renderPlay();
}

function undo() {
  const last = table.undo.pop();
  if (!last) return;
  table.turn = last.turn;
  table.faces = last.faces;
  table.selected = [];
  $("#companion-result").hidden = true;
  keep();
  renderPlay();
  speak(_("Undone."));
}

/** @param {number} count */
function chooseDice(count) {
  step(() => {
    table.turn = engine.chooseDice(rules(), /** @type {Turn} */ (table.turn), count);
  });
}

/** A face tapped on the pad: the dice are read once each is tapped. @param {number} face */
export function tapFace(face) {
  const turn = table.turn;
  if (!turn || turn.phase !== "roll" || turn.count === null) return;
  sound.tile();
  step(() => {
    table.faces = [...table.faces, face];
    if (table.faces.length !== turn.count) return;
    table.turn = engine.rollWith(rules(), turn, table.faces);
    if (table.turn.phase === "dice" || table.turn.phase === "roll") table.faces = []; // a double missed: its extra turn
  });
  if (table.turn?.phase === "over") $maybe("#companion-next")?.focus();
  speak(statusText());
}

/** @param {number[]} tiles */
function shutTiles(tiles) {
  const turn = table.turn;
  if (!turn || turn.phase !== "move" || !isLegal(tiles)) return;
  sound.tile();
  step(() => {
    table.turn = engine.shutTiles(rules(), turn, tiles);
    if (table.turn.phase !== "over") table.faces = [];
  });
  speak(statusText());
  $("#companion-status").focus();
}

/** @param {number[]} tiles */
function isLegal(tiles) {
  const turn = table.turn;
  if (!turn || !turn.dice) return false;
  const key = [...tiles].sort((a, b) => a - b).join(",");
  return engine.legalMoves(rules(), turn.mask, turn.dice).some((move) => [...move].sort((a, b) => a - b).join(",") === key);
}

/** A tile tapped on the board: picked or put back (the tiles you shut on the box). @param {number} n */
function toggleTile(n) {
  const turn = table.turn;
  if (!turn || turn.phase !== "move") return;
  table.selected = table.selected.includes(n) ? table.selected.filter((t) => t !== n) : [...table.selected, n];
  keep();
  renderPlay();
}

// The player's turn ended: the score is kept, the next player takes the box (or the round ends).
function nextPlayer() {
  const turn = table.turn;
  if (!turn || turn.phase !== "over") return;
  table.results[table.seat] = { score: turn.score ?? 0, shut: turn.shut };
  const next = table.results.findIndex((result) => result === null);
  if (next === -1) {
    endRound();
    return;
  }
  table.seat = next;
  startTurn();
  keep();
  renderPlay();
  speak(statusText());
  $("#companion-status").focus();
}

function endRound() {
  const scores = table.results.map((result) => result?.score ?? 0);
  const shut = table.results.map((result, i) => (result?.shut ? i : -1)).filter((i) => i >= 0);
  const best = Math.min(...scores);
  const winners = shut.length ? shut : scores.map((score, i) => (score === best ? i : -1)).filter((i) => i >= 0);
  table.rounds = [...table.rounds, { players: [...table.players], scores, winners }].slice(-50);
  table.turn = null;
  keep();
  renderPlay();
}

function statusText() {
  const turn = table.turn;
  const name = table.players[table.seat];
  if (!turn) return roundWords(table.rounds.at(-1));
  if (turn.phase === "dice") return _("{name}: roll one die or two?", { name });
  if (turn.phase === "roll") {
    if (turn.count === 2 && table.faces.length === 1) return _("{name}: first die {face}; tap the second.", { name, face: table.faces[0] });
    return turn.count === 1 ? _("{name}: roll your die, then tap its face.", { name }) : _("{name}: roll your two dice, then tap both faces.", { name });
  }
  const total = sumOf(turn.dice ?? []);
  if (turn.phase === "move") return _("{name} rolled {total}: shut the tiles on your box, then tap them here.", { name, total });
  if (turn.shut) return _("{name} shut the box!", { name });
  return _("No open tiles make {total}: {name} scores {score}.", { name, total, score: turn.score ?? 0 });
}

/** @param {{ players: string[], scores: number[], winners: number[] } | undefined} round */
function roundWords(round) {
  if (!round) return "";
  const names = round.winners.map((i) => round.players[i]).join(", ");
  return ngettext("{names} wins the round.", "{names} tie the round.", round.winners.length, { names });
}

/** The turn as it stands, as a key: the advice drawn says which turn it was drawn for. */
function turnKey() {
  const turn = table.turn;
  return turn ? [turn.phase, turn.mask, turn.extra, turn.count, table.faces.join("-"), table.undo.length].join(":") : "none";
}

function renderPlay() {
  const turn = table.turn;
  const r = rules();
  $("#companion-rules").textContent = `${_("Companion")} · ${_("Round {round}", { round: table.round })} · ${tilesCount(r.tiles)} · ${rulesSummary(r)}`;
  renderPlayers();
  const box = $("#companion-box");
  box.dataset.phase = turn ? turn.phase : "over";
  box.dataset.turn = turnKey();
  box.dataset.mine = "true";
  const open = turn ? engine.tilesOf(turn.mask) : [];
  const legal = turn?.phase === "move" && turn.dice ? engine.legalMoves(r, turn.mask, turn.dice) : [];
  drawTiles($("#companion-tiles"), {
    tiles: r.tiles, open, selectable: new Set(legal.flat()), selected: new Set(table.selected), onTap: toggleTile,
  });
  drawDice($("#companion-dice"), turn?.phase === "roll" || turn?.phase === "move" || turn?.phase === "over" ? table.faces : []);
  $("#companion-status").textContent = statusText();
  renderPad();
  renderControls();
  renderAdvice();
  renderResult();
}

function renderPlayers() {
  const list = $("#companion-players");
  list.replaceChildren();
  list.dataset.n = String(table.players.length);
  table.players.forEach((name, i) => {
    const result = table.results[i];
    const total = table.rounds.reduce((sum, round) => sum + (round.scores[i] ?? 0), 0);
    const active = table.turn !== null && i === table.seat;
    list.append(el("li", { class: `player${active ? " active" : ""}`, "aria-current": active ? "true" : null, "data-seat": String(i) },
      el("span", { class: "name", text: name }),
      el("span", { class: "numbers" },
        result ? el("span", { class: "score", text: result.shut ? _("shut") : String(result.score) }) : null,
        table.rounds.length ? el("span", { class: "total", text: _("Total: {total}", { total }) }) : null)));
  });
}

function renderPad() {
  const pad = $("#companion-pad");
  const turn = table.turn;
  pad.hidden = !turn || turn.phase !== "roll";
  pad.dataset.left = turn && turn.phase === "roll" ? String((turn.count ?? 0) - table.faces.length) : "0";
  if (pad.hidden) return;
  pad.replaceChildren(...[1, 2, 3, 4, 5, 6].map((face) => {
    const button = el("button", { type: "button", class: "face", "data-face": String(face), "aria-label": _("Die showing {face}", { face }), onclick: () => tapFace(face) }, dieFace(face));
    return button;
  }));
}

function renderControls() {
  const controls = $("#companion-controls");
  const turn = table.turn;
  const buttons = [];
  if (turn?.phase === "dice") {
    for (const count of engine.diceChoices(rules(), turn.mask)) buttons.push(el("button", { type: "button", class: "primary", id: `companion-dice-${count}`, text: count === 1 ? _("I roll 1 die") : _("I roll 2 dice"), onclick: () => chooseDice(count) }));
  }
  if (turn?.phase === "move") {
    const picked = table.selected;
    buttons.push(el("button", { type: "button", class: "primary shut", id: "companion-shut", disabled: !isLegal(picked), text: picked.length ? _("Shut {tiles}", { tiles: moveLabel(picked) }) : _("Tap the tiles you shut"), onclick: () => shutTiles(table.selected) }));
  }
  if (turn?.phase === "over") {
    const last = table.results.filter((result) => result === null).length === 1;
    const next = table.players[(table.results.findIndex((result, i) => result === null && i !== table.seat))];
    buttons.push(el("button", { type: "button", class: "primary", id: "companion-next", text: last ? _("See the round's result") : _("Pass the phone to {name}", { name: next ?? "" }), onclick: nextPlayer }));
  }
  if (turn && table.undo.length) buttons.push(el("button", { type: "button", id: "companion-undo", text: _("Undo"), onclick: undo }));
  controls.replaceChildren(...buttons);
}

let adviceAsked = 0;

async function renderAdvice() {
  const box = $("#companion-advice");
  const turn = table.turn;
  const key = turnKey();
  if (!turn || (turn.phase !== "dice" && turn.phase !== "move")) {
    box.hidden = true;
    box.replaceChildren();
    box.dataset.for = key;
    return;
  }
  const asked = ++adviceAsked;
  const solved = await values();
  if (asked !== adviceAsked) return; // a later tap has drawn its own
  box.hidden = false;
  if (!solved) {
    box.dataset.for = key;
    box.replaceChildren(el("p", { id: "companion-no-table", text: _("The advice for these rules is not on this device yet: open the companion once with the server reachable. The board still keeps your game.") }));
    return;
  }
  const objective = table.objective;
  const list = el("ol", { class: "choices", id: "companion-choices" });
  if (turn.phase === "dice") {
    engine.rankDice(solved, rules(), turn).forEach((choice, i) => {
      list.append(el("li", { class: i === 0 ? "best" : null, "data-dice": String(choice.count) },
        el("div", { class: "choice" },
          el("span", {}, el("strong", { text: diceCount(choice.count) }), " · ", el("span", { class: "value", text: choiceWords(objective, choice) })),
          el("button", { type: "button", class: "small", text: _("Use"), "aria-label": _("Use {choice}", { choice: diceCount(choice.count) }), onclick: () => chooseDice(choice.count) }))));
    });
  } else {
    const ranked = engine.rankMoves(solved, rules(), turn);
    ranked.forEach((choice, i) => {
      const label = moveLabel(choice.tiles);
      list.append(el("li", { class: i === 0 ? "best" : null, "data-tiles": [...choice.tiles].sort((a, b) => a - b).join(",") },
        el("div", { class: "choice" },
          el("span", {}, el("strong", { text: label }), " · ", el("span", { class: "value", text: choiceWords(objective, choice) })),
          el("button", { type: "button", class: i === 0 ? "small primary" : "small", text: i === 0 ? _("Shut the best") : _("Shut"), "aria-label": _("Shut {tiles}", { tiles: label }), onclick: () => shutTiles(choice.tiles) }))));
    });
    // The best move marked on the board, as a hint marks it online.
    const best = new Set(ranked[0]?.tiles ?? []);
    for (const tile of /** @type {HTMLElement[]} */ ([...$("#companion-tiles").children])) tile.classList.toggle("hinted", best.has(Number(tile.dataset.tile)));
  }
  box.replaceChildren(el("h3", { text: _("Best first: {objective}", { objective: objectiveWords(objective) }) }), list);
  box.dataset.for = key;
}

function renderResult() {
  const box = $("#companion-result");
  const history = $("#companion-history");
  const round = table.rounds.at(-1);
  if (table.turn || !round) {
    box.hidden = true;
  } else {
    box.hidden = false;
    const lines = round.players.map((name, i) => el("li", { class: round.winners.includes(i) ? "won" : null }, `${name}: ${round.scores[i]} · ${gradeOf(round.scores[i])}`));
    box.replaceChildren(
      el("h3", { id: "companion-winner", text: roundWords(round) }),
      el("ol", { class: "best-list" }, ...lines),
      el("div", { class: "actions" },
        el("button", { type: "button", id: "companion-again", class: "primary", text: _("Next round"), onclick: () => {
          table.round += 1;
          startRound();
        } }),
        el("button", { type: "button", id: "companion-new", text: _("New table"), onclick: () => {
          started = false;
          table = { ...fresh(), players: [...table.players], preset: table.preset, tiles: table.tiles, objective: table.objective };
          keep();
          renderCompanion();
        } })),
    );
    box.focus();
  }
  history.hidden = table.rounds.length === 0;
  if (history.hidden) return;
  const rows = table.rounds.slice(-10).reverse().map((past) => el("li", {}, past.players.map((name, i) => `${name} ${past.scores[i]}`).join(" · ")));
  history.replaceChildren(el("h3", { text: _("Rounds kept on this device") }), el("ol", { class: "best-list", id: "companion-rounds" }, ...rows));
}

/** The companion's keys: 1–6 tap a face, Backspace undoes. @param {KeyboardEvent} event */
export function companionKey(event) {
  if (document.body.dataset.view !== "companion" || !table.turn || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest?.("input, select, textarea")) return;
  if (table.turn.phase === "roll" && /^[1-6]$/.test(event.key)) tapFace(Number(event.key));
  else if (table.turn.phase === "dice" && (event.key === "1" || event.key === "2")) chooseDice(Number(event.key));
  else if (event.key === "Backspace") undo();
  else return;
  event.preventDefault();
}
