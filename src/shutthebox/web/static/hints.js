// Hints on request: the solver's ranked choices for the state shown, each value in the player's
// terms (points of expected score, or a chance in percent); in a ranked game, confirmed first.

import { _, htmlLang, lang, ngettext } from "./i18n.js";
import { $, $maybe, el } from "./dom.js";
import { tilesCount } from "./words.js";
import { mine, tilesText } from "./room-facts.js";
import { diceCount } from "./narration.js";
import { now, store, withPresentation } from "./state.js";
import { send } from "./room.js";
import { renderTiles } from "./game-view.js";
import { chooseDice, selectTiles } from "./play.js";

/**
 * A number with `digits` decimals, written as the reader's language writes it (0,7 in Spanish).
 * @param {number} value @param {number} digits
 */
export function decimal(value, digits) {
  return value.toLocaleString(htmlLang(lang()), { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * A value of the solver's objective in the player's terms, its unit named: points of expected score,
 * or the percentage chance of what the objective wants.
 * @param {{ objective: string, target?: number | null, opening: boolean }} what
 * @param {number} value
 */
export function formatValue(what, value) {
  const pct = decimal(100 * value, 1);
  const target = what.target;
  switch (what.objective) {
    case "score": return _("{points} points of expected score", { points: decimal(value, 2) });
    case "shut": return what.opening ? _("{pct}% chance to clear your tiles this turn", { pct }) : _("{pct}% chance to shut the box", { pct });
    case "beat": return _("{pct}% chance to score under {target}", { pct, target });
    case "tie-or-beat": return _("{pct}% chance to score {target} or less", { pct, target });
    case "long": return _("{pct}% chance of winning the game", { pct });
    case "win": return _("{pct}% chance of winning the round", { pct });
    case "stake": return _("{stakes} stakes expected", { stakes: (value > 0 ? "+" : "") + decimal(value, 3) });
    default: return decimal(value, 3);
  }
}

/**
 * What a choice gives up against the best one: points of expected score, or percentage points of a
 * chance (45% where 50% was possible loses 5 percentage points).
 * @param {string} objective @param {number} loss
 */
export function formatLoss(objective, loss) {
  if (objective === "score") return _("{points} points lost", { points: decimal(loss, 2) });
  if (objective === "stake") return _("{stakes} stakes lost", { stakes: decimal(loss, 3) });
  return _("{pct} percentage points lost", { pct: decimal(100 * loss, 1) });
}

/**
 * Where the player stands in the round the hint plays: the seat, and the score to beat.
 * @param {{ seat: number, players: number, best: number | null, ties: number }} seat
 */
function seatText(seat) {
  const place = _("Seat {seat} of {players}", { seat: seat.seat + 1, players: seat.players });
  if (seat.best === null) return _("{place}: nobody has played yet.", { place });
  return ngettext(
    "{place}: the best score so far is {best}.",
    "{place}: the best score so far is {best}, posted by {n} players.",
    seat.ties, { place, best: seat.best },
  );
}

// In a ranked game the first hint of a turn makes the turn count as it stands (the server says for
// how much: hint_cost): the player confirms first.
export function askHint() {
  const { presentation, server } = now();
  const room = server.room;
  if (!room || !room.hints || !mine(room)) return;
  if (room.hint_cost !== null && room.hint_cost !== undefined && !presentation.hintAsk) {
    store.update((state) => withPresentation(state, { hintAsk: true }));
    renderHint();
    $("#hint-confirm").focus();
    return;
  }
  store.update((state) => withPresentation(state, { hintAsk: false, hintPending: true }));
  renderPending(room);
  send({ type: "hint" }, { quiet: true });
}

// -- a hint on its way: what is being worked out, for how long so far, and a way to stop waiting --
// (a round of 4 or 5 players on 11 or 12 tiles takes the solver 6 to 10 s; the game goes on meanwhile)
/** @type {ReturnType<typeof setInterval> | undefined} */
let ticking;

/** What the solver works out for this room's hint, in a player's words. @param {import("./types.js").Room} room */
export function workWords(room) {
  const tiles = tilesCount(room.rules.tiles);
  const others = room.seats.length - 1;
  if (room.rules.mode === "long") return _("Working out each choice's chance of winning the long game, over every roll still to come.");
  if (others > 0) {
    return ngettext(
      "Working out each choice against the other player's score, over every roll still to come on {tiles}.",
      "Working out each choice against the {n} other players' scores, over every roll still to come on {tiles}.",
      others, { tiles },
    );
  }
  return _("Working out each choice over every roll still to come on {tiles}.", { tiles });
}

/** @param {import("./types.js").Room} room */
function renderPending(room) {
  const box = $("#hint");
  const started = performance.now();
  const elapsed = el("p", { id: "hint-elapsed", class: "muted" });
  const seconds = () => {
    elapsed.textContent = _("{n} s so far; you may play on meanwhile.", { n: Math.floor((performance.now() - started) / 1000) });
  };
  seconds();
  box.hidden = false;
  box.replaceChildren(
    el("p", { id: "hint-progress", class: "hint-progress", text: workWords(room) }),
    elapsed,
    el("button", { type: "button", id: "hint-stop", class: "small", text: _("Stop waiting"), onclick: stopWaiting }),
  );
  clearInterval(ticking);
  ticking = setInterval(() => {
    if (!$maybe("#hint-elapsed")) clearInterval(ticking);
    else seconds();
  }, 1000);
}

function stopWaiting() {
  clearInterval(ticking);
  store.update((state) => withPresentation(state, { hintPending: false, hintDropped: true }));
  $("#hint").hidden = true;
  $maybe("#btn-hint")?.focus();
}

/** @param {HTMLElement} box */
function renderHintConfirm(box) {
  box.hidden = false;
  box.replaceChildren(
    el("p", { id: "hint-warning", text: _("With a hint, your turn counts {score} in the rankings: your tiles as they stand now, whatever you score after. Ask anyway?", { score: now().server.room?.hint_cost ?? "" }) }),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "hint-confirm", class: "primary", text: _("Ask for a hint"), onclick: askHint }),
      el("button", { type: "button", id: "hint-cancel", text: _("Cancel"), onclick: () => {
        store.update((state) => withPresentation(state, { hintAsk: false }));
        renderHint();
      } }),
    ),
  );
}

/**
 * The advice in one plain sentence, before its numbers: what to do.
 * @param {{ shut?: number[] | null, dice?: number | null }} choice @param {boolean} opening
 */
function bestWords(choice, opening) {
  if (choice.shut) return opening ? _("Best: open {tiles}.", { tiles: tilesText(choice.shut) }) : _("Best: shut {tiles}.", { tiles: tilesText(choice.shut) });
  return _("Best: roll {dice}.", { dice: diceCount(choice.dice ?? 2) });
}

/** The hint's card: its confirmation, or the advice come for the state shown. */
export function renderHint() {
  const box = $("#hint");
  const { presentation, server } = now();
  const advice = server.hint;
  if (presentation.hintAsk && !advice && !presentation.hintPending) {
    renderHintConfirm(box);
    return;
  }
  if (!advice) {
    if (!presentation.hintPending) {
      clearInterval(ticking);
      box.hidden = true;
    }
    return;
  }
  clearInterval(ticking);
  if (presentation.hintPending) store.update((state) => withPresentation(state, { hintPending: false }));
  box.hidden = false;
  const target = advice.target;
  const opening = Boolean(server.room?.match?.opening);
  const what = { objective: advice.objective, target, opening };
  /** @type {Record<string, string>} */
  const objectives = {
    score: _("expected score (lower is better)"),
    shut: opening ? _("chance to clear your tiles this turn") : _("chance to shut the box"),
    beat: _("chance to score under {target}", { target }),
    "tie-or-beat": _("chance to score {target} or less", { target }),
    long: _("chance to win"),
    win: _("chance to win the round"),
    stake: _("stakes you can expect from the round"),
  };
  const objective = objectives[advice.objective] ?? advice.objective;
  const list = el("ol", { class: "choices" });
  for (const choice of advice.choices) {
    const label = choice.shut ? tilesText(choice.shut) : diceCount(choice.dice ?? 2);
    const use = el("button", {
      type: "button",
      class: "small",
      text: _("Use"),
      "aria-label": _("Use {choice}", { choice: label }),
      onclick: () => {
        if (choice.shut) selectTiles(new Set(choice.shut));
        else chooseDice(choice.dice ?? 2);
      },
    });
    const lost = choice.loss > 0 ? el("span", { class: "muted loss", text: ` (${formatLoss(advice.objective, choice.loss)})` }) : null;
    const text = el("span", {}, el("strong", { text: label }), " · ", el("span", { class: "value", text: formatValue(what, choice.value) }), lost);
    list.append(el("li", {}, el("div", { class: "choice" }, text, use)));
  }
  // Over the server's budget the choices are ranked by a cheaper objective: it says so, in words.
  const bounded = advice.bounded ? el("p", { class: "muted", id: "hint-bounded", text: advice.bounded.reason }) : null;
  const seat = advice.seat ? el("p", { class: "muted", id: "hint-seat", text: seatText(advice.seat) }) : null;
  const best = advice.choices[0];
  const lead = best ? el("p", { class: "hint-best", id: "hint-best", text: bestWords(best, opening) }) : null;
  box.replaceChildren(el("h3", { text: _("Hint: {objective}", { objective }) }), ...(lead ? [lead] : []), ...(seat ? [seat] : []), ...(bounded ? [bounded] : []), list);
  const room = server.room;
  if (room) renderTiles(room);
}
