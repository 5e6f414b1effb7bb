// Who may watch a room: the seats see how many watch it ("2 watching"); its creator (who holds a
// seat played at the creating device) makes it private, so that only its players see it
// (POST /api/rooms/{code}/privacy), or open to watchers again.

import { _, ngettext } from "./i18n.js";
import { api } from "./net.js";
import { $, $input } from "./dom.js";
import { now } from "./state.js";
import { toast } from "./speech.js";
import { failure } from "./words.js";

/** @typedef {import("./types.js").Room} Room */

/** How many watch, told to the seats only (none: nothing). @param {Room} room */
export function watchersWords(room) {
  if (!room.you.length || !room.watchers) return "";
  return ngettext("{n} watching", "{n} watching", room.watchers, { n: room.watchers });
}

/** The creator's switch, on a room others join online. @param {Room} room */
export function renderPrivacy(room) {
  const creator = room.you.some((seat) => room.seats[seat]?.kind === "here") && room.seats.some((seat) => seat.kind === "remote");
  $("#privacy").hidden = !creator;
  if (creator) $input("#room-private").checked = room.private;
}

export async function switchPrivacy() {
  const { connection } = now();
  const box = $input("#room-private");
  if (!connection.code) return;
  try {
    const answer = await api(`/api/rooms/${encodeURIComponent(connection.code)}/privacy`, { method: "POST", body: { private: box.checked }, token: connection.token });
    box.checked = answer.private;
    toast(answer.private ? _("The room is private: only its players see the game while it is played.") : _("Anyone with the link may watch the game."));
  } catch (error) {
    box.checked = !box.checked;
    toast(failure(error));
  }
}
