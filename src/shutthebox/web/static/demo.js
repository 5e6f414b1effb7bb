// How to play in ten seconds, shown by the first screen's box itself: two dice roll 6 + 3 and the 9
// goes down, 4 + 4 and 5 + 2 + 1 go down, then 4 + 1 that no open tile makes ends the turn, the open
// tiles are the score. Played once on the first visit (not when motion is reduced), skippable, and
// again on request. The box is a picture (aria-hidden): each caption is said in a live region.

import { _ } from "./i18n.js";
import { $, $button, el } from "./dom.js";
import { motionReduced, rollOn } from "./dice.js";
import { saved } from "./saved.js";

const STEP_MS = 2400;
const SEEN = "demoSeen";

/**
 * The lesson, step by step: the dice rolled, the tiles shut, and what is said.
 * @typedef {{ dice?: number[], pick?: number[], caption: () => string }} Step
 * @type {Step[]}
 */
const STEPS = [
  { dice: [6, 3], caption: () => _("Roll the dice: 6 + 3 = 9.") },
  { pick: [9], caption: () => _("Shut open tiles that add up to 9: the 9.") },
  { dice: [4, 4], caption: () => _("4 + 4 = 8: several tiles may make it, 5 + 2 + 1.") },
  { pick: [5, 2, 1], caption: () => _("Tap them, then Shut: they go down.") },
  { dice: [4, 1], caption: () => _("4 + 1 = 5: no open tiles make 5, so the turn is over.") },
  { caption: () => _("Your score: the open tiles, 3 + 4 + 6 + 7 + 8 = 28. The lower the better; shut them all to score 0.") },
];

/** @type {ReturnType<typeof setTimeout>[]} */
let timers = [];
let playing = false;
/** @type {() => string} */
let said = idle; // the caption shown, said again in the language in use after a switch

function idle() {
  return _("Roll two dice, shut tiles that add up to the roll. Shut every tile to shut the box!");
}

/** The box as it stands: every tile open, or those of `shut` down. @param {Set<number>} shut @param {Set<number>} [picked] */
function drawTiles(shut, picked = new Set()) {
  const tray = $("#demo-tiles");
  if (tray.children.length !== 9) {
    tray.replaceChildren(...Array.from({ length: 9 }, (_unused, i) => el("span", { class: "tile", "data-tile": String(i + 1) }, el("span", { class: "num", text: String(i + 1) }))));
  }
  for (const tile of /** @type {HTMLElement[]} */ ([...tray.children])) {
    const n = Number(tile.dataset.tile);
    tile.classList.toggle("shut", shut.has(n));
    tile.classList.toggle("selected", picked.has(n));
  }
}

/** @param {() => string} words @param {boolean} aloud */
function caption(words, aloud) {
  said = words;
  const text = words();
  $("#demo-caption").textContent = text;
  if (aloud) $("#demo-said").textContent = text;
}

function rest() {
  drawTiles(new Set());
  $("#demo-dice").replaceChildren();
  rollOn($("#demo-dice"), [6, 3], () => {});
  caption(idle, false);
}

/** The box's caption in the language in use (after a switch); a lesson under way goes on. */
export function redrawDemo() {
  $("#demo-said").textContent = ""; // said already, in the other language
  if (playing) $("#demo-caption").textContent = said();
  else rest();
}

/** Stop the lesson; the box at rest again, and never played by itself again. */
export function stopDemo() {
  for (const timer of timers) clearTimeout(timer);
  timers = [];
  playing = false;
  saved.set(SEEN, true);
  $button("#demo-skip").hidden = true;
  $button("#demo-play").hidden = false;
  rest();
}

/**
 * Play the lesson on the first screen's box: `asked`, the player asked for it; else only on the
 * first visit, when motion is not reduced.
 * @param {{ asked: boolean }} options
 */
export function startDemo({ asked }) {
  if (playing) return;
  rest();
  if (!asked && (saved.get(SEEN, false) || motionReduced())) return;
  saved.set(SEEN, true); // played by itself once: not again on the next visit, however it ends
  playing = true;
  const skip = $button("#demo-skip");
  skip.hidden = false;
  skip.onclick = () => {
    stopDemo();
    $button("#demo-play").focus();
  };
  $button("#demo-play").hidden = true;
  if (asked) skip.focus();
  const shut = new Set();
  STEPS.forEach((step, i) => {
    later(() => {
      if (step.dice) {
        drawTiles(shut);
        rollOn($("#demo-dice"), step.dice, () => {});
      }
      if (step.pick) {
        drawTiles(shut, new Set(step.pick));
        timers.push(setTimeout(() => {
          for (const tile of step.pick ?? []) shut.add(tile);
          drawTiles(shut);
        }, STEP_MS / 2));
      }
      caption(step.caption, true);
    }, i * STEP_MS);
  });
  later(() => {
    caption(() => _("Now you: tap 9, 10 or 12 to play."), true);
    timers.push(setTimeout(stopDemo, STEP_MS));
  }, STEPS.length * STEP_MS);
}

/** A step of the lesson `ms` from now, if its box is still shown: a player who went on (a game,
 * another page) hears no lesson behind it. @param {() => void} step @param {number} ms */
function later(step, ms) {
  timers.push(setTimeout(() => {
    if ($("#demo-box").offsetParent) step();
    else stopDemo();
  }, ms));
}
