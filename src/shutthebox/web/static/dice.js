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
function dieFace(face, extra = "") {
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
  const tray = $("#dice");
  if (motionReduced()) {
    showDice(faces);
    diceLanded(faces);
    return;
  }
  if (tumbling !== null) clearInterval(tumbling);
  let step = 0;
  const spin = faces.map((face) => face);
  tray.classList.add("rolling");
  tumbling = setInterval(() => {
    step += 1;
    for (let i = 0; i < spin.length; i += 1) spin[i] = (spin[i] % 6) + 1 + (i % 2); // a tumbling cycle, not chance
    for (let i = 0; i < spin.length; i += 1) if (spin[i] > 6) spin[i] -= 6;
    tray.replaceChildren(...spin.map((face) => dieFace(face, "tumble")));
    if (step >= TUMBLE_STEPS) {
      if (tumbling !== null) clearInterval(tumbling);
      tumbling = null;
      tray.classList.remove("rolling");
      showDice(faces);
      diceLanded(faces);
      landed();
    }
  }, TUMBLE_MS);
  labelDice(faces);
}
