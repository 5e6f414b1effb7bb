// The end of a game: the result card (score and grade alone, the winner and every turn with others),
// the player's best as the server counted it, and the buttons of what comes next.

import { _, ngettext, number, signed } from "./i18n.js";
import { api } from "./net.js";
import { $, el } from "./dom.js";
import { headline, roundsPlayed, standings, turnLine } from "./standings.js";
import { motionReduced } from "./dice.js";
import { now, store, withPresentation } from "./state.js";
import { saved } from "./saved.js";
import { gameOver } from "./feel.js";
import { shareButton } from "./share.js";
import { playAgain } from "./rematch.js";
import { showReview, showVerify } from "./review.js";

/** @typedef {import("./types.js").Room} Room */

/** The result card of a game that is over. @param {Room} room */
export async function finish(room) {
  gameOver(room); // a shut box is celebrated, once
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const box = $("#result");
  box.hidden = false;
  const parts = [el("h3", { id: "result-title", text: _("Game over") })];
  const solo = room.rules.mode === "solo";
  if (solo) {
    const turn = match.history[0];
    const count = el("span", { class: "final-count", "aria-hidden": "true", text: number(0) });
    parts.push(
      el("p", { class: "final" },
        el("span", { class: `grade grade-${turn.grade}`, id: "final-grade", "aria-label": _("Grade {grade}", { grade: turn.grade }), text: turn.grade }),
        el("span", { class: "final-points" }, count, el("span", { class: "final-score", id: "final-score", text: _("Score {score}", { score: number(turn.score ?? 0) }) }))),
    );
    countUp(count, turn.score ?? 0);
    if (room.you.includes(0)) parts.push(el("p", { id: "best-local" }, ...bestWords(room)));
    parts.push(el("p", { id: "best-server", class: "muted" }));
  } else {
    parts.push(...gameWithOthers(room));
  }
  const daily = room.closes_at !== null && room.closes_at !== undefined; // a daily challenge's one attempt: what comes next is its standings, not another game
  if (room.saved_game_id) parts.push(el("p", { class: "muted", text: _("Saved as game {id}.", { id: room.saved_game_id }) }));
  parts.push(
    el("div", { class: "actions" },
      el("button", { type: "button", id: "btn-review", onclick: showReview, text: _("Review the game") }),
      room.kind ? el("button", { type: "button", id: "btn-verify", onclick: showVerify, text: _("Verify this game") }) : null,
      shareButton(room),
      el("button", { type: "button", id: "btn-again", class: "primary", onclick: daily ? () => (location.hash = "#/daily") : playAgain, text: daily ? _("Today's standings") : _("Play again"), hidden: Boolean(room.rematch) || !room.you.length }),
      el("button", { type: "button", id: "btn-new", onclick: () => (location.hash = "#/"), text: _("New game") }),
    ),
  );
  box.replaceChildren(...parts);
  if (solo) {
    const name = /** @type {string} */ (room.seats[0].name);
    try {
      const data = await api(`/api/players/${encodeURIComponent(name)}/bests?tiles=${room.rules.tiles}`);
      const best = data.bests.find((/** @type {{ rules_key: string }} */ entry) => entry.rules_key === room.rules_key);
      if (best) $("#best-server").textContent = _("Best of {name} on this server: {score}", { name, score: best.score });
    } catch {
      /* the server best is a bonus; the local one is shown */
    }
  }
}

// What the server says of the player's game against their best: the one rule of what counts (a hint
// makes the turn count as it stood; a practice game counts for nothing); the browser keeps its own
// list of bests by the same rule, from what the server counted.
/** @param {Room} room @returns {(string | HTMLElement)[]} */
function bestWords(room) {
  const result = room.results?.find((r) => r.player === room.seats[0].name);
  if (!result) return [];
  if (result.unranked) return [unrankedWords(result.unranked)];
  if (result.counted === null) return [];
  if (now().presentation.bestFor !== room.code) {
    store.update((state) => withPresentation(state, { bestFor: room.code }));
    recordLocalBest(room, { score: result.counted, grade: /** @type {string} */ (result.grade) });
  }
  const best = result.best_before === null ? result.counted : Math.min(result.counted, result.best_before);
  /** @type {(string | HTMLElement)[]} */
  const words = [ngettext("Your best for {n} tile with these rules: {score}", "Your best for {n} tiles with these rules: {score}", room.rules.tiles, { score: best })];
  if (result.helped) words.push(" " + _("(with the hint, this game counts {score}: the tiles as they stood when you asked)", { score: result.counted }));
  if (result.new_best) words.push(el("strong", { class: "new-best", text: " " + _("New best!") }));
  return words;
}

// The score counts up from 0 to the points left open, a few frames a tenth of a second (at once when
// motion is reduced); the sentence beside it says the score from the start.
/** @param {HTMLElement} node @param {number} score */
function countUp(node, score) {
  if (motionReduced() || score === 0) {
    node.textContent = number(score);
    return;
  }
  const start = performance.now();
  const length = Math.min(900, 300 + score * 20);
  const step = (/** @type {number} */ time) => {
    const done = Math.min(1, (time - start) / length);
    node.textContent = number(Math.round(score * (1 - (1 - done) ** 3)));
    if (done < 1 && node.isConnected) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

// A game with others: who won and how, each player's line (rounds won, points, money), and the turns
// round by round, tie-breaks labelled.
/** @param {Room} room @returns {HTMLElement[]} */
function gameWithOthers(room) {
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const rows = standings(room);
  const winner = el("p", { class: "winner", id: "winner" }, match.winner !== null ? el("span", { class: "crown", "aria-hidden": "true", text: "♛ " }) : null, headline(room));
  const columns = [
    { key: "rounds", head: _("Rounds won"), text: (/** @type {import("./standings.js").Standing} */ row) => number(row.rounds ?? 0) },
    { key: "total", head: _("Points"), text: (/** @type {import("./standings.js").Standing} */ row) => number(row.total ?? 0) },
    { key: "money", head: _("Money"), text: (/** @type {import("./standings.js").Standing} */ row) => signed(row.money ?? 0) },
    { key: "score", head: _("Score"), text: (/** @type {import("./standings.js").Standing} */ row) => (row.score === null ? "—" : number(row.score)) },
  ].filter((column) => rows.some((row) => row[/** @type {"rounds" | "total" | "money" | "score"} */ (column.key)] !== null));
  const table = el("table", { class: "standings", id: "standings" },
    el("caption", { class: "sr-only", text: _("Standings") }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: _("Player") }), ...columns.map((column) => el("th", { scope: "col", text: column.head })))),
    el("tbody", {}, ...rows.map((row) => el("tr", { class: [row.won && "won", row.out && "out"].filter(Boolean).join(" ") || null, "data-seat": String(row.seat) },
      el("th", { scope: "row" },
        row.won ? el("span", { class: "crown", text: "♛ " }) : null,
        el("span", { class: "name", text: row.name }),
        row.won ? el("span", { class: "sr-only", text: ` (${_("winner")})` }) : null,
        row.out ? el("span", { class: "out-mark", text: ` ${_("out")}` }) : null),
      ...columns.map((column) => el("td", { text: column.text(row) }))))),
  );
  const parts = [winner, el("div", { class: "table-wrap" }, table)];
  if (room.rules.stake && match.pot) parts.push(el("p", { class: "muted", id: "pot-left", text: _("Left in the pot: {pot}", { pot: number(match.pot) }) }));
  const played = roundsPlayed(room);
  if (played.length) {
    const details = el("details", { class: "rounds-played", id: "rounds-played", open: played.length <= 2 || null },
      el("summary", { text: ngettext("The game, {n} round", "The game, {n} rounds", new Set(played.map((group) => group.round)).size) }));
    for (const group of played) {
      details.append(el("section", { class: `round-played${group.tiebreak ? " tiebreak" : ""}`, "data-round": String(group.round), "data-tiebreak": String(group.tiebreak) },
        el("h4", { text: group.title }),
        el("ul", { class: "turns" }, ...group.turns.map((turn) => el("li", { text: turnLine(turn, number) }))),
        group.winner ? el("p", { class: "round-winner", text: _("Round won by {name}", { name: group.winner }) }) : null));
    }
    parts.push(details);
  }
  return parts;
}

/** @param {string} reason */
function unrankedWords(reason) {
  if (reason === "typed") return _("The dice were typed in, so this game counts for no best.");
  if (reason === "practice") return _("A practice game: its dice came from a chosen seed, so it counts for no best.");
  return _("The dice were not rolled under the fair scheme, so this game counts for no best.");
}

/** The browser's own list of bests, one per rule set. @param {Room} room @param {{ score: number, grade: string }} turn */
function recordLocalBest(room, turn) {
  const bests = saved.get("bests", {});
  const old = bests[room.rules_key];
  if (!old || turn.score < old.score) {
    bests[room.rules_key] = { tiles: room.rules.tiles, rules: room.rules, score: turn.score, grade: turn.grade, when: new Date().toISOString() };
    saved.set("bests", bests);
  }
}
