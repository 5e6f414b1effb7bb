// A room's link opened with no seat in it: the invitation ("Ana invites you: 9 tiles, a round.
// Your name [ ] Join"), in a player's words; a room with no seat left offers to watch it; a
// private room, or one that is gone, says so.

import { _ } from "./i18n.js";
import { api, ApiError } from "./net.js";
import { $, el } from "./dom.js";
import { tilesCount } from "./words.js";
import { ruleInWords } from "./setup-fields.js";
import { profile, saved } from "./saved.js";
import { joinAs } from "./setup.js";
import { openRoom } from "./room.js";
import { showView } from "./routes.js";

/** @typedef {import("./types.js").Room} Room */

/** The game a room plays, in a player's words ("9 tiles, a round"). @param {Room} room */
export function gameWords(room) {
  /** @type {Record<string, string>} */
  const modes = {
    solo: _("alone"),
    round: _("a round: the lowest score wins"),
    elimination: _("elimination: out at {limit} points", { limit: room.rules.limit }),
    long: _("the long game: shut every tile, then open them all"),
  };
  return `${tilesCount(room.rules.tiles)}, ${modes[room.rules.mode] ?? room.rules.mode}`;
}

/** Who invites: the player seated first at the creator's device. @param {Room} room */
function host(room) {
  return room.seats.find((seat) => seat.kind === "here" && seat.name)?.name ?? room.seats.find((seat) => seat.name)?.name ?? "…";
}

/** @param {string} code */
export async function showInvite(code) {
  showView("invite");
  const body = $("#invite-body");
  body.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  /** @type {Room} */
  let room;
  try {
    room = await api(`/api/rooms/${encodeURIComponent(code)}`);
  } catch (error) {
    body.replaceChildren(el("p", { id: "invite-refused", class: "error", role: "alert", text: refusedWords(code, error) }), home());
    return;
  }
  const open = room.status === "waiting" && room.seats.some((seat) => seat.kind === "remote" && !seat.joined);
  if (open) {
    body.replaceChildren(...invitation(room));
    /** @type {HTMLInputElement | null} */ (document.querySelector("#invite-name"))?.focus();
    return;
  }
  const title = room.status === "over" ? _("The game of room {code} is over.", { code }) : _("Room {code} has no seat left: {game}.", { code, game: gameWords(room) });
  const players = room.seats.map((seat) => seat.name ?? "…").join(", ");
  body.replaceChildren(
    el("h2", { id: "invite-title", class: "invite-title", text: title }),
    el("p", { text: _("Players: {names}", { names: players }) }),
    el("button", { type: "button", id: "invite-watch", class: "primary", text: _("Watch"), onclick: () => openRoom(code, { watch: true }) }),
    home(),
  );
}

/** @param {Room} room */
function invitation(room) {
  const me = profile();
  const name = el("input", { id: "invite-name", maxlength: "24", autocomplete: "nickname", value: me?.name ?? saved.get("name", ""), readonly: Boolean(me), required: true });
  const form = el("form", {
    id: "invite-form", class: "invite-row", novalidate: true,
    onsubmit: (/** @type {Event} */ event) => {
      event.preventDefault();
      joinAs(room.code, /** @type {HTMLInputElement} */ (name).value.trim(), { error: "#invite-error", name: "#invite-name" });
    },
  }, el("label", { class: "field" }, el("span", { text: _("Your name") }), name), el("button", { type: "submit", id: "invite-join", class: "primary", text: _("Join") }));
  const parts = [
    el("h2", { id: "invite-title", class: "invite-title", text: _("{name} invites you: {game}.", { name: host(room), game: gameWords(room) }) }),
    el("p", { id: "invite-rules", class: "muted", text: ruleInWords(room.rules) }),
  ];
  if (room.private) parts.push(el("p", { id: "invite-private", class: "muted", text: _("A private room: only its players see the game while it is played.") }));
  parts.push(form, el("p", { id: "invite-error", class: "error", role: "alert", hidden: true }), home());
  return parts;
}

/** @param {string} code @param {unknown} error */
function refusedWords(code, error) {
  if (error instanceof ApiError && error.code === "private") return _("Room {code} is private: only its players see the game.", { code });
  if (error instanceof ApiError && error.code === "not-found") return _("There is no room {code}: check the link or the code.", { code });
  if (error instanceof ApiError) return error.message;
  return _("The server cannot be reached: a game needs it to roll the dice. Check the connection and try again.");
}

function home() {
  return el("p", {}, el("a", { href: "#/", id: "invite-home", text: _("Other ways to play") }));
}
