// The room open on this page: its socket, and each state it pushes shown through the timeline, in
// order: said (narration.js), its dice landed, a turn's end held on screen, then the next state.

import { _ } from "./i18n.js";
import { RoomSocket } from "./net.js";
import { $ } from "./dom.js";
import { refusal } from "./words.js";
import { createTimeline } from "./timeline.js";
import { tell } from "./narration.js";
import { mine } from "./room-facts.js";
import { fairFacts, forgetRoom, rememberFair, roomToken, saved } from "./saved.js";
import { handoverFor, hintCame, now, refused, roomLeft, roomOpened, stateShown, store, withConnection, withPresentation } from "./state.js";
import { announce, speak, toast } from "./speech.js";
import { animateDice, clearDice, landingMs, showDice } from "./dice.js";
import { renderControls, renderGame, renderPlayers, renderStatus } from "./game-view.js";
import { focusNext } from "./focus.js";
import { renderHint } from "./hints.js";
import { finish } from "./result.js";
import { acceptedRematch, switchToRematch } from "./rematch.js";
import { showInvite } from "./invite.js";
import { showJoin } from "./setup.js";
import { showView } from "./routes.js";

/** @typedef {import("./types.js").Room} Room */

const READING_MS = 500; // after another player's dice land, their total stays this long before what follows
const HANDOVER_SECONDS = 3; // online or against bots, a turn's end stays this long (a tap goes on at once)

/** @type {RoomSocket | null} */
let socket = null; // the open room's connection: a resource, not state

/** What is shown when: the room's states, each said and held as long as it needs. */
export const timeline = createTimeline(showState);

/**
 * Open the room `code` with the token this browser keeps for it (none: the invitation, or watching).
 * @param {string} code
 * @param {{ quiet?: boolean, watch?: boolean }} [options] quiet: connect without showing the game (a
 *   resumed game); watch: with no seat, only to see it
 */
export function openRoom(code, { quiet = false, watch = false } = {}) {
  if (now().connection.code === code && socket) {
    showView("game");
    focusNext();
    return;
  }
  leaveRoom();
  const token = roomToken(code) ?? null;
  if (!token && !watch && code) {
    showInvite(code);
    return;
  }
  if (!token && !watch) {
    showView("setup"); // a link with no code: the online panel asks for it
    showJoin(code);
    return;
  }
  store.update((state) => roomOpened(state, code, token));
  $("#log").replaceChildren();
  for (const id of ["#hint", "#result", "#rematch", "#review", "#verify", "#notice", "#adjourned", "#my-clock"]) $(id).hidden = true;
  if (token) saved.set("current", code);
  clearDice(); // the last game's dice leave the felt
  delete $("#box").dataset.phase; // nothing to act on before the room's first state
  delete $("#box").dataset.status;
  renderControls();
  if (!quiet) showView("game");
  socket = new RoomSocket(code, token ?? "", {
    state: (/** @type {{ state: Room }} */ message) => timeline.push(message.state),
    error: receiveError,
    hint: (/** @type {{ advice: import("./types.js").Advice }} */ message) => receiveHint(message.advice),
    online: (/** @type {boolean} */ up) => {
      if (!up) toast(_("The server cannot be reached; trying again…"));
    },
  });
}

/** Close the room's socket; what waited to be shown of it is dropped. */
export function leaveRoom() {
  if (socket) socket.close();
  socket = null;
  timeline.clear();
  store.update(roomLeft);
}

/**
 * Send an action; the page waits for its answer (busy) unless `quiet` (a hint leaves play as it is).
 * @param {Record<string, unknown>} message
 * @param {{ quiet?: boolean }} [options]
 */
export function send(message, { quiet = false } = {}) {
  if (!socket) return;
  if (quiet) {
    socket.send(message);
    return;
  }
  store.update((state) => withConnection(state, { busy: true }));
  socket.send(message);
  renderControls();
}

/** The server says its refusals in the language the socket connected with: connect again. */
export function reconnect() {
  socket?.reopen();
}

/** @param {{ error: string, detail: string }} message */
function receiveError(message) {
  const hintPending = now().presentation.hintPending;
  store.update(refused);
  if (hintPending) $("#hint").hidden = true;
  toast(refusal(message.detail));
  if (message.error === "not-found") {
    forgetRoom(String(now().connection.code));
    location.hash = "#/"; // the room is gone (the server restarted): back to the setup
    return;
  }
  renderControls();
}

/** @param {import("./types.js").Advice} advice */
function receiveHint(advice) {
  if (now().presentation.hintDropped) {
    store.update((state) => withPresentation(state, { hintDropped: false })); // the player stopped waiting for it
    return;
  }
  const before = now().server.room;
  store.update((state) => hintCame(state, advice));
  const room = now().server.room;
  if (room && room !== before) renderPlayers(room); // the asker is marked as helped
  renderHint();
}

/**
 * One state of the room, its turn come in the timeline: shown, said, its dice landed, and what must
 * stay on screen before the next one (another's roll read, a turn's end held) put on the timeline.
 * @param {Room} room
 */
function showState(room) {
  const before = now();
  store.update((state) => stateShown(state, room, performance.now()));
  const story = tell(room, before.server.room, before.presentation.told);
  store.update((state) => withPresentation(state, { told: story.told }));
  for (const line of story.said) (line.log ? announce : speak)(line.text);
  if (story.dice && !story.dice.animate) showDice(story.dice.faces);
  if (story.dice?.animate) {
    animateDice(story.dice.faces, () => {
      const shown = now().server.room;
      if (shown) renderStatus(shown); // the total, now that the dice show it
    });
    if (!room.you.includes(story.dice.player)) timeline.hold(landingMs() + READING_MS);
  }
  if (story.banner) beginHandover(room, story.banner.lines, story.banner.rolloff);
  if (story.result === "now") finish(room);
  if (story.result === "after-dice") {
    store.update((state) => withPresentation(state, { finishing: true }));
    timeline.after(story.dice ? landingMs() : 0, () => {
      store.update((state) => withPresentation(state, { finishing: false }));
      if (now().server.room?.code !== room.code) return;
      finish(room);
      renderGame();
      focusNext();
    });
  }
  const offer = room.status === "over" ? room.rematch : null;
  if (offer?.commitment && !fairFacts(room.code).rematchCommitment) rememberFair(room.code, { rematchCommitment: offer.commitment });
  if (now().connection.autoRoll) {
    store.update((state) => withConnection(state, { autoRoll: false }));
    if (room.match?.phase === "roll" && mine(room)) send({ type: "roll" });
  }
  renderGame();
  focusNext();
  if (room.status === "over" && saved.get("current", null) === room.code) saved.set("current", null);
  if (room.rematch?.code && acceptedRematch(room)) switchToRematch(room);
}

// -- the end of a turn, held on screen ----------------------------------------------------------------
// The dice land, then the ending board and the score stay with a banner ("Ana: 14 — C") until the next
// player takes over: a tap or a key when the next player shares this device, a short pause otherwise.
/** @param {Room} room @param {string[]} lines @param {boolean} rolloff */
function beginHandover(room, lines, rolloff) {
  const handover = handoverFor(room, lines, rolloff);
  store.update((state) => withPresentation(state, { handover }));
  timeline.banner({
    landingMs: landingMs(),
    heldMs: handover.waitsForTap ? null : HANDOVER_SECONDS * 1000,
    onShow() {
      store.update((state) => withPresentation(state, { handover: { ...handover, shown: true } }));
      speak(lines.join(" "));
      renderGame();
      focusNext();
      $("#handover").scrollIntoView({ block: "nearest" }); // above a phone's bottom bar, where Next is
    },
    onEnd() {
      store.update((state) => withPresentation(state, { handover: null }));
      renderGame();
      focusNext();
    },
  });
}

/** The next player takes over from a turn's end on screen (a tap, a key, their own roll). */
export function takeOver() {
  timeline.release();
}
