// The end of a game: the result card (score and grade alone, the winner and every turn with others),
// the player's best as the server counted it, and the buttons of what comes next.

import { _, ngettext } from "./i18n.js";
import { api } from "./net.js";
import { $, el } from "./dom.js";
import { nameOf } from "./room-facts.js";
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
  const parts = [el("h3", { text: _("Game over") })];
  const solo = room.rules.mode === "solo";
  if (solo) {
    const turn = match.history[0];
    parts.push(
      el("p", { class: "final" }, el("span", { class: `grade grade-${turn.grade}`, id: "final-grade", "aria-label": _("Grade {grade}", { grade: turn.grade }), text: turn.grade }), el("span", { class: "final-score", id: "final-score", text: _("Score {score}", { score: turn.score }) })),
    );
    if (room.you.includes(0)) parts.push(el("p", { id: "best-local" }, ...bestWords(room)));
    parts.push(el("p", { id: "best-server", class: "muted" }));
  } else {
    parts.push(el("p", { class: "winner", id: "winner", text: match.winner_name ? _("Winner: {name}", { name: match.winner_name }) : _("The game is drawn.") }));
    const turns = el("ul", { class: "turns" });
    for (const turn of match.history) {
      if (turn.score === null) continue;
      turns.append(el("li", { text: _("{name}: open {open} → {score}", { name: nameOf(room, turn.player), open: turn.open.length ? turn.open.join(", ") : _("box shut"), score: turn.score }) }));
    }
    parts.push(turns);
  }
  if (room.saved_game_id) parts.push(el("p", { class: "muted", text: _("Saved as game {id}.", { id: room.saved_game_id }) }));
  parts.push(
    el("div", { class: "actions" },
      el("button", { type: "button", id: "btn-review", onclick: showReview, text: _("Review the game") }),
      room.kind ? el("button", { type: "button", id: "btn-verify", onclick: showVerify, text: _("Verify this game") }) : null,
      shareButton(room),
      el("button", { type: "button", id: "btn-again", class: "primary", onclick: playAgain, text: _("Play again"), hidden: Boolean(room.rematch) || !room.you.length }),
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
  if (result.helped) words.push(" " + _("(a hint came: this game counts {score}, as it stood then)", { score: result.counted }));
  if (result.new_best) words.push(el("strong", { class: "new-best", text: " " + _("New best!") }));
  return words;
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
