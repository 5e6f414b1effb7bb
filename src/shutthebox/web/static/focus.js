// Focus: after every change, the keyboard is where the next action is.

import { $, $$, $maybe } from "./dom.js";
import { mine, selectionIsLegal } from "./room-facts.js";
import { now, store, withPresentation } from "./state.js";
import { overControl } from "./game-view.js";

/** @typedef {import("./types.js").Room} Room */

/** The control of the next action. @param {Room} room @returns {HTMLElement | null} */
function nextControl(room) {
  const match = room.match;
  const { handover, selected } = now().presentation;
  if (handover) return handover.shown ? (handover.mineNext ? $("#btn-roll") : $("#btn-next")) : null;
  if (room.status === "over") return overControl();
  if (!match || !mine(room) || room.status !== "playing") return $("#status");
  if (match.phase === "choose") { // the advice's number of dice when a hint came, else the first allowed
    const advised = now().server.hint?.choices?.[0]?.dice;
    const count = advised && match.dice_options.includes(advised) ? advised : Math.min(...match.dice_options);
    return count === 1 ? $("#btn-one") : $("#btn-two");
  }
  if (match.is_chance) return $("#btn-roll");
  if (selectionIsLegal(room, selected)) return $("#btn-shut");
  return $$("#tiles .tile").find((tile) => !(/** @type {HTMLButtonElement} */ (tile).disabled)) ?? null;
}

// Focus moves at a new moment of the game (an action, a turn's end), or when it was lost: never while
// the player is choosing tiles, and never away from a panel they opened (a hint, the log).
export function focusNext() {
  const { presentation, server } = now();
  const room = server.room;
  if (presentation.view !== "game" || !room) return;
  const held = presentation.handover;
  const key = `${room.events}:${held ? (held.shown ? "held" : "landing") : ""}:${room.status}`;
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const lost = !active || active === document.body || active === $maybe("#main") || /** @type {HTMLButtonElement} */ (active).disabled || !active.isConnected || active.closest("[hidden]");
  const inGame = active && (active.closest("#controls") || active.closest("#tiles") || active.id === "status");
  if (!lost && !(inGame && key !== presentation.focusKey)) return;
  const target = nextControl(room);
  if (!target || target.hidden || /** @type {HTMLButtonElement} */ (target).disabled) return;
  store.update((state) => withPresentation(state, { focusKey: key }));
  target.focus({ preventScroll: false });
}
