// The dice on the felt: their faces, and the short tumble before they land (none when motion is
// reduced). The tumble is drawn here; what waits for the dice to land is the timeline's business.

import { _ } from "./i18n.js";
import { $, el } from "./dom.js";
import { diceLanded } from "./feel.js";

export const DICE_LANDING_MS = 600; // the dice tumble this long before they land (8 steps of 70 ms, and a little)
const TUMBLE_STEPS = 8;
const TUMBLE_MS = 70;

/** @type {ReturnType<typeof setInterval> | null} */
let tumbling = null; // the tumble's timer while the dice roll

export function motionReduced() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** How long the dice take to land, here: none when motion is reduced. */
export function landingMs() {
  return motionReduced() ? 0 : DICE_LANDING_MS;
}

/** Whether the dice still tumble (the total is not said before they land). */
export function diceRolling() {
  return tumbling !== null;
}

/** @param {number} face @param {string} [extra] */
export function dieFace(face, extra = "") {
  const die = el("span", { class: `die ${extra}`, "data-face": String(face) });
  for (let i = 0; i < 9; i += 1) die.append(el("span", { class: "pip" }));
  return die;
}

/** The tray's name for screen readers, and its faces for the page to read back. @param {number[]} faces */
export function labelDice(faces) {
  const tray = $("#dice");
  tray.setAttribute("aria-label", faces.length ? _("Dice: {faces}", { faces: faces.join(" + ") }) : _("Dice not rolled yet"));
  tray.dataset.faces = faces.join(",");
}

export function shownFaces() {
  return ($("#dice").dataset.faces || "").split(",").filter(Boolean).map(Number);
}

/** @param {number[]} faces */
export function showDice(faces) {
  $("#dice").replaceChildren(...faces.map((face) => dieFace(face)));
  labelDice(faces);
}

/**
 * The dice tumble, then land on `faces` (heard and felt); `landed` runs then.
 * @param {number[]} faces
 * @param {() => void} landed
 */
export function animateDice(faces, landed) {
  if (tumbling !== null) clearInterval(tumbling);
  tumbling = rollOn($("#dice"), faces, () => {
    tumbling = null;
    diceLanded(faces);
    landed();
  });
  if (tumbling === null) diceLanded(faces); // motion reduced: they are there at once
  labelDice(faces);
}

/**
 * Dice rolled across a felt's tray: they come in from its left side spinning, their faces turning,
 * bounce and settle on `faces` (at once when motion is reduced). The timer, or null when none runs.
 * @param {HTMLElement} tray @param {number[]} faces @param {() => void} settled
 * @returns {ReturnType<typeof setInterval> | null}
 */
export function rollOn(tray, faces, settled) {
  if (motionReduced()) {
    tray.replaceChildren(...faces.map((face) => dieFace(face)));
    return null;
  }
  let step = 0;
  const spin = faces.map((face) => face);
  tray.classList.remove("rolling");
  void tray.offsetWidth; // the animation starts again for a new roll
  tray.classList.add("rolling");
  tray.replaceChildren(...spin.map((face) => dieFace(face, "tumble")));
  const timer = setInterval(() => {
    step += 1;
    for (let i = 0; i < spin.length; i += 1) spin[i] = ((spin[i] + 1 + (i % 2)) % 6) + 1; // a tumbling cycle, not chance
    const dice = [...tray.children];
    if (step >= TUMBLE_STEPS) {
      clearInterval(timer);
      dice.forEach((die, i) => die.setAttribute("data-face", String(faces[i])));
      for (const die of dice) die.classList.remove("tumble");
      tray.classList.remove("rolling");
      tray.classList.add("settled");
      setTimeout(() => tray.classList.remove("settled"), 300);
      settled();
      return;
    }
    dice.forEach((die, i) => die.setAttribute("data-face", String(spin[i])));
  }, TUMBLE_MS);
  return timer;
}

/** The felt empty of dice: a new game, a rematch. */
export function clearDice() {
  if (tumbling !== null) clearInterval(tumbling);
  tumbling = null;
  $("#dice").classList.remove("rolling");
  showDice([]);
}
