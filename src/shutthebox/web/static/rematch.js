// The rematch: every seat of the finished room answers; those who accept play on together. "Play
// again" offers it (or accepts the offer), with a fresh client seed for the new room's fair dice,
// committed to at the offer. The new room keeps each accepting seat's token, so the page just moves
// there, with its client seed and the commitment it saw first.

import { _ } from "./i18n.js";
import { $, $maybe, el } from "./dom.js";
import { nameOf } from "./room-facts.js";
import { now, store, withPresentation } from "./state.js";
import { clientSeed, fairFacts, rememberFair, rememberRoom } from "./saved.js";
import { announce } from "./speech.js";
import { send } from "./room.js";
import { isUrgent, secondsLeft } from "./clock.js";
import { shortHex } from "./fair-view.js";
import { goToRoom } from "./routes.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").Rematch} Rematch */

export function playAgain() {
  store.update((state) => withPresentation(state, { focusRematch: true })); // the button goes: the keyboard's place is the rematch's panel
  answerRematch(true);
}

/** @param {boolean} accept */
function answerRematch(accept) {
  const { connection, server } = now();
  const room = server.room;
  if (!room || !room.you.length || room.status !== "over" || connection.busy) return;
  /** @type {Record<string, unknown>} */
  const message = { type: "rematch", accept };
  if (accept) {
    const seed = clientSeed();
    // The rematch's dice were committed to as the game ended, before this seed was made.
    const committed = !room.rematch && room.rematch_commitment ? { rematchCommitment: room.rematch_commitment } : {};
    rememberFair(room.code, { rematchSeed: seed, ...committed });
    message.client_seed = seed;
  }
  send(message);
}

/** Whether one of this page's seats plays again. @param {Room} room */
export function acceptedRematch(room) {
  const rematch = /** @type {Rematch} */ (room.rematch);
  return room.you.some((seat) => rematch.answers[seat] === true);
}

/** @param {Room} room */
function undecidedRematch(room) {
  const rematch = /** @type {Rematch} */ (room.rematch);
  return room.you.some((seat) => rematch.answers[seat] === null);
}

/** The new room, with the token and the client seed this page played the old one with. @param {Room} room */
export function switchToRematch(room) {
  const code = /** @type {string} */ (room.rematch?.code);
  const { connection, presentation } = now();
  if (presentation.switched === code) return;
  store.update((state) => withPresentation(state, { switched: code }));
  rememberRoom(code, /** @type {string} */ (connection.token));
  const { rematchSeed: seed, rematchCommitment: commitment } = fairFacts(room.code);
  rememberFair(code, { ...(seed ? { seed } : {}), ...(commitment ? { commitment } : {}) });
  announce(_("A new game starts in room {code}.", { code }));
  goToRoom(code);
}

/** @param {Room} room */
function rematchClosed(room) {
  const offer = /** @type {Rematch} */ (room.rematch);
  return offer.code !== null || offer.answers.every((answer) => answer !== null) || secondsLeft(offer.remaining) <= 0;
}

/** @param {boolean | null | undefined} answer */
function answerText(answer) {
  if (answer === true) return `✓ ${_("plays again")}`;
  if (answer === false) return `✗ ${_("declined")}`;
  return `… ${_("deciding")}`;
}

/** The rematch's panel: who offered, each seat's answer, this page's buttons or the outcome. @param {Room} room */
export function renderRematch(room) {
  const box = $("#rematch");
  const offer = room.status === "over" ? room.rematch : null;
  const again = $maybe("#btn-again");
  if (again) again.hidden = Boolean(offer) || !room.you.length;
  box.hidden = !offer;
  if (!offer) return;
  const busy = now().connection.busy;
  const offerer = nameOf(room, offer.offered_by);
  const answers = el("ul", { class: "rematch-answers" }, ...room.seats.map((seat) =>
    el("li", { class: `answer-${String(offer.answers[seat.index])}`, "data-seat": String(seat.index) },
      el("span", { class: "name", text: seat.name ?? "…" }), " ", el("span", { class: "answer", text: answerText(offer.answers[seat.index]) })),
  ));
  const parts = [
    el("h3", { id: "rematch-title", text: _("Play again?") }),
    el("p", { text: room.you.includes(offer.offered_by) ? _("You offered a rematch: the same rules, with everyone who accepts.") : _("{name} offers a rematch: the same rules, with everyone who accepts.", { name: offerer }) }),
    answers,
  ];
  if (offer.commitment) parts.push(el("p", { class: "muted fair-line" }, el("span", { text: _("Fair dice · commitment") }), " ", shortHex(offer.commitment)));
  const closed = rematchClosed(room);
  const declined = room.seats.filter((seat) => offer.answers[seat.index] === false && !room.you.includes(seat.index));
  if (declined.length) parts.push(el("p", { id: "rematch-declined", text: declined.map((seat) => _("{name} declined", { name: seat.name ?? "…" })).join(". ") }));
  if (!closed) parts.push(el("p", { id: "rematch-left", class: "muted" }));
  if (!closed && undecidedRematch(room)) {
    parts.push(el("div", { class: "actions" },
      el("button", { type: "button", id: "rematch-accept", class: "primary", text: _("Play again"), onclick: () => answerRematch(true), disabled: busy }),
      el("button", { type: "button", id: "rematch-decline", text: _("No thanks"), onclick: () => answerRematch(false), disabled: busy }),
    ));
  } else if (offer.code && acceptedRematch(room)) {
    parts.push(el("p", { id: "rematch-outcome", text: _("A new game starts in room {code}.", { code: offer.code }) }));
  } else if (offer.code) {
    parts.push(el("p", { id: "rematch-outcome", text: _("The others play again in room {code}.", { code: offer.code }) }));
  } else if (closed) {
    parts.push(el("p", { id: "rematch-outcome", text: _("No rematch this time.") }));
  } else if (acceptedRematch(room)) {
    parts.push(el("p", { id: "rematch-outcome", class: "muted", text: _("Waiting for the others to answer…") }));
  }
  const focused = document.activeElement?.id;
  box.replaceChildren(...parts);
  const kept = /** @type {HTMLButtonElement | null} */ (focused ? $maybe(`#${focused}`) : null);
  if (kept && box.contains(kept) && !kept.disabled) kept.focus(); // kept across redraws
  else if (now().presentation.focusRematch) box.focus();
  if (now().presentation.focusRematch) store.update((state) => withPresentation(state, { focusRematch: false }));
  updateRematchLeft(room);
}

/** The time left to answer, counted down between states. @param {Room} room */
export function updateRematchLeft(room) {
  const node = $maybe("#rematch-left");
  if (!node || !room.rematch) return;
  const left = secondsLeft(room.rematch.remaining);
  node.textContent = _("Time left to answer: {n} s", { n: left });
  node.classList.toggle("urgent", isUrgent(left));
}
