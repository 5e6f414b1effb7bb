// The player's actions in a game: pick tiles, roll, choose dice, shut, clear; by click or by key.
// Each is sent to the server, which decides; the page only offers what the state it sent allows.

import { $, $button } from "./dom.js";
import { mine, selectionIsLegal } from "./room-facts.js";
import { now, store, tileToggled, withConnection, withPresentation } from "./state.js";
import { sound } from "./feel.js";
import { send, takeOver } from "./room.js";
import { renderControls, renderStatus, selectableTiles } from "./game-view.js";
import { askHint } from "./hints.js";

/** @type {Record<string, number>} */
const KEY_TILES = { 0: 10, "-": 11, "=": 12 };

/** @param {number} n */
export function toggleTile(n) {
  const room = now().server.room;
  if (!room || !selectableTiles(room).has(n)) return;
  store.update((state) => tileToggled(state, n));
  renderStatus(room);
  renderControls();
  // A selection that makes the roll: the keyboard goes to Shut, so Enter puts the tiles down.
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  if (selectionIsLegal(room, now().presentation.selected) && (!active || active === document.body || active.closest("#tiles"))) $("#btn-shut").focus();
  sound.tile();
}

export function roll() {
  const { connection, presentation, server } = now();
  const match = server.room?.match;
  if (!server.room || !match || !mine(server.room) || connection.busy) return;
  if (presentation.handover?.mineNext) takeOver(); // rolling takes over from the turn's end shown
  if (match.phase === "choose") chooseDice(Math.max(...match.dice_options));
  else if (match.is_chance) send({ type: "roll" });
}

/** @param {number} count */
export function chooseDice(count) {
  const { connection, presentation, server } = now();
  const match = server.room?.match;
  if (!server.room || !match || match.phase !== "choose" || !mine(server.room) || connection.busy || !match.dice_options.includes(count)) return;
  if (presentation.handover?.mineNext) takeOver();
  store.update((state) => withConnection(state, { autoRoll: true })); // the roll follows once the server has taken the choice
  send({ type: "dice", count });
}

export function shut() {
  const { connection, presentation, server } = now();
  const room = server.room;
  if (!room || !mine(room) || connection.busy || !selectionIsLegal(room, presentation.selected)) return;
  send({ type: "move", tiles: [...presentation.selected].sort((a, b) => a - b) }); // heard as the tiles go down
}

/** @param {ReadonlySet<number>} [tiles] the tiles to pick instead (a hint's), none by default */
export function selectTiles(tiles = new Set()) {
  store.update((state) => withPresentation(state, { selected: new Set(tiles) }));
  const room = now().server.room;
  if (room) {
    renderStatus(room);
    renderControls();
  }
}

export function clearSelection() {
  selectTiles();
}

// 1–9 (0, -, = for 10–12) pick tiles, Enter shuts, R rolls, 1/2 choose dice, H hint, Esc clears;
// while a turn's end is held, a key takes over (Enter, Space, R, Esc).
/** @param {KeyboardEvent} event */
export function onKey(event) {
  const { presentation, server } = now();
  if (presentation.view !== "game" || !server.room) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest && target.closest("input, select, textarea")) return;
  const key = event.key;
  const match = server.room.match;
  if (!match) return;
  const held = presentation.handover;
  if (held?.mineNext && held.shown && ["r", "R", "1", "2"].includes(key)) {
    if (key === "r" || key === "R") roll();
    else if (match.phase === "choose") chooseDice(Number(key));
    event.preventDefault();
    return;
  }
  if (held) {
    if (held.shown && [" ", "Enter", "r", "R", "Escape"].includes(key)) {
      const next = $button("#btn-next");
      if (target !== next) takeOver(); // the button's own Enter or Space takes it on
      if (target !== next || (key !== "Enter" && key !== " ")) event.preventDefault();
    }
    return;
  }
  if (/^[1-9]$/.test(key) || key in KEY_TILES) {
    if (match.phase === "choose" && (key === "1" || key === "2")) chooseDice(Number(key));
    else toggleTile(/^[1-9]$/.test(key) ? Number(key) : KEY_TILES[key]);
    event.preventDefault();
  } else if (key === "Enter") {
    if (target.tagName === "BUTTON") return; // the button's own action: a focused tile is picked
    shut();
    event.preventDefault();
  } else if (key === "r" || key === "R") {
    roll();
    event.preventDefault();
  } else if (key === "h" || key === "H") {
    askHint();
    event.preventDefault();
  } else if (key === "Escape" || key === "Backspace") {
    clearSelection();
    event.preventDefault();
  }
}
