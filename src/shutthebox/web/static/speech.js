// What the page says besides what it draws: the live region for screen readers, the game log, the
// toast, and the error line of a form.

import { $, el } from "./dom.js";
import { failure } from "./words.js";

/**
 * Said to screen readers only: what the screen shows now (whose turn, a turn's end), not the game log.
 * @param {string} text
 * @param {string} [where] the live region
 */
export function speak(text, where = "#announce") {
  const region = $(where);
  region.textContent = "";
  setTimeout(() => (region.textContent = text), 30);
}

/** Said to screen readers and written in the game log (its last 200 lines). @param {string} text */
export function announce(text) {
  speak(text);
  const list = $("#log");
  list.append(el("li", { text }));
  while (list.children.length > 200) list.firstChild?.remove();
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/** A line over the page for five seconds. @param {string} text */
export function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 5000);
}

/** @param {string} where @param {string} text */
export function showMessage(where, text) {
  const node = $(where);
  node.textContent = text;
  node.hidden = false;
}

/** @param {string} where @param {unknown} error */
export function showError(where, error) {
  showMessage(where, failure(error));
}
