// The turn clock and the players who leave. The server runs the clock: each state says how many
// seconds were left when it was sent, and the page counts down from there with its own clock (never
// against the server's deadline). The clock's notices and an adjourned game are told here too.

import { _, ngettext } from "./i18n.js";
import { $, $$ } from "./dom.js";
import { noticeText } from "./narration.js";
import { now, store, withPresentation } from "./state.js";
import { speak } from "./speech.js";
import { updateRematchLeft } from "./rematch.js";

/** @typedef {import("./types.js").Room} Room */

const URGENT_SECONDS = 10;
const TICK_MS = 250;

/** @type {ReturnType<typeof setInterval> | null} */
let ticker = null; // redraws the countdowns while a clock runs

/** Whole seconds left of `remaining` (as the last state said it), counted on this page's clock. @param {number} remaining */
export function secondsLeft(remaining) {
  return Math.max(0, Math.ceil(remaining - (performance.now() - now().server.stateAt) / 1000));
}

/** A countdown near its end is shown urgent. @param {number} left */
export function isUrgent(left) {
  return left <= URGENT_SECONDS;
}

// The countdowns run while the room shown has a clock running (a turn's, a rematch's answer).
store.subscribe((state, previous) => {
  if (state.server.room === previous.server.room) return;
  const room = state.server.room;
  const counting = Boolean(room && (room.clock || (room.rematch && !room.rematch.code)));
  if (counting && !ticker) ticker = setInterval(tick, TICK_MS);
  if (!counting && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
});

function tick() {
  const room = now().server.room;
  if (!room) return;
  renderClock(room);
  updateRematchLeft(room);
}

// The countdown on the seat whose time runs, a discreet one for yourself, and for a screen reader
// a word when your turn's clock starts and when ten seconds are left (not one every second).
/** @param {Room} room */
export function renderClock(room) {
  const clock = room.status === "playing" ? room.clock : null;
  const left = clock ? secondsLeft(clock.remaining) : 0;
  const urgent = Boolean(clock) && left <= URGENT_SECONDS;
  for (const node of $$("#players .clock")) {
    node.textContent = `◷ ${_("{n} s", { n: left })}`;
    node.classList.toggle("urgent", urgent);
  }
  const yours = clock !== null && room.you.includes(clock.seat) && !room.seats[clock.seat]?.stand_in;
  const mineNode = $("#my-clock");
  mineNode.hidden = !yours;
  if (yours) {
    mineNode.textContent = _("Your move: {n} s", { n: left });
    mineNode.classList.toggle("urgent", urgent);
  }
  speakClock(room, clock, yours, left);
}

/**
 * @param {Room} room
 * @param {import("./types.js").RoomClock | null} clock
 * @param {boolean} yours
 * @param {number} left
 */
function speakClock(room, clock, yours, left) {
  const spoken = now().presentation.spoken;
  const tell = (/** @type {{ urgent?: number | null, seat?: number | null }} */ patch) =>
    store.update((state) => withPresentation(state, { spoken: { ...state.presentation.spoken, ...patch } }));
  if (!yours || !clock) {
    const seat = clock ? clock.seat : null;
    if (spoken.seat !== seat) tell({ seat });
    return;
  }
  const say = (/** @type {string} */ text) => speak(text, "#clock-live");
  let urgentSaid = spoken.urgent;
  if (spoken.seat !== clock.seat) { // your turn's first clock: once per turn, not per action
    tell({ seat: clock.seat });
    const each = room.turn_seconds ?? Math.round(clock.remaining);
    say(ngettext("Your turn: {n} second for each action.", "Your turn: {n} seconds for each action.", each));
    if (left <= URGENT_SECONDS) urgentSaid = clock.deadline; // said already
  }
  if (left > 0 && left <= URGENT_SECONDS && urgentSaid !== clock.deadline) {
    urgentSaid = clock.deadline;
    say(ngettext("{n} second left to play.", "{n} seconds left to play.", left));
  }
  if (urgentSaid !== spoken.urgent) tell({ urgent: urgentSaid });
}

// The newest notice, while it still holds: a seat's missed action until its player acts again,
// a stand-in for the rest of the game, a return for a couple of actions.
/** @param {Room} room */
function currentNotice(room) {
  const notice = room.notices?.at(-1);
  if (!notice || room.status !== "playing" || room.adjourned) return null;
  const seat = room.seats[notice.seat];
  if (notice.kind === "missed") return seat?.missed > 0 || seat?.stand_in ? notice : null;
  if (notice.kind === "stand-in") return seat?.stand_in ? notice : null;
  if (notice.kind === "resumed") return room.events - notice.event <= 2 ? notice : null;
  return null;
}

/** @param {Room} room */
export function renderNotice(room) {
  const banner = $("#notice");
  const notice = currentNotice(room);
  banner.hidden = !notice;
  if (notice) {
    banner.dataset.kind = notice.kind;
    banner.textContent = noticeText(room, notice);
  }
}

// An adjourned game waits for one seat: its player resumes it by playing, the others are told.
/** @param {Room} room */
export function renderAdjourned(room) {
  const banner = $("#adjourned");
  const adjourned = room.status === "playing" ? room.adjourned : null;
  banner.hidden = !adjourned;
  if (!adjourned) return;
  banner.textContent = room.you.includes(adjourned.seat)
    ? _("Game adjourned until you play again: your next move resumes it.")
    : _("Game adjourned until {name} comes back.", { name: adjourned.name });
}
