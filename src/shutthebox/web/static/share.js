// The result card: the game's board, scores, grades and date as a few lines of text, with a link
// to its record (the stored game once saved, else the room's). Shared with the Web Share API where
// the browser has it, else copied to the clipboard, else shown to be copied by hand.

import { _, htmlLang, lang, ngettext } from "./i18n.js";
import { headline } from "./standings.js";

// The link to the game's record: anyone can fetch it and check every die (`shutthebox verify`).
/** @typedef {import("./types.js").Room} Room */

/** @param {Room} room */
export function recordURL(room) {
  const path = room.saved_game_id ? `/g/${room.saved_game_id}` : `/api/rooms/${encodeURIComponent(room.code)}/record`; // a page a friend can open
  return new URL(path, location.origin).href;
}

/** @param {Date} when */
function dateText(when) {
  try {
    return new Intl.DateTimeFormat(htmlLang(lang()), { dateStyle: "long" }).format(when);
  } catch {
    return when.toISOString().slice(0, 10);
  }
}

// The card's lines, without the link: the title, the board and date, then the result.
/** @param {Room} room @param {Date} when */
export function resultLines(room, when) {
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const board = ngettext("{n} tile", "{n} tiles", room.rules.tiles);
  const lines = [_("Shut the Box"), `${board} · ${dateText(when)}`];
  const scored = match.history.filter((turn) => turn.score !== null);
  const result = (/** @type {import("./types.js").Turn} */ turn) => {
    const parts = [_("Score {score}", { score: turn.score })];
    if (turn.grade) parts.push(_("Grade {grade}", { grade: turn.grade }));
    if (turn.open.length === 0) parts.push(_("The box is shut!"));
    return parts.join(" · ");
  };
  if (room.rules.mode === "solo" && scored.length) {
    lines.push(result(scored[0]));
  } else {
    lines.push(headline(room));
    for (const turn of scored) lines.push(`${room.seats[turn.player]?.name ?? `#${turn.player}`}: ${result(turn)}`);
  }
  return lines;
}

/** @param {Room} room @param {Date} when @param {HTMLElement} status @param {HTMLTextAreaElement} copyBox */
async function share(room, when, status, copyBox) {
  const text = resultLines(room, when).join("\n");
  const url = recordURL(room);
  status.textContent = "";
  copyBox.hidden = true;
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: _("Shut the Box"), text, url });
      return;
    } catch (error) {
      if (/** @type {Error | null} */ (error)?.name === "AbortError") return; // the reader closed the share sheet
    }
  }
  const card = `${text}\n${url}`;
  try {
    await navigator.clipboard.writeText(card);
    status.textContent = _("The result is copied: paste it anywhere.");
  } catch {
    copyBox.value = card;
    copyBox.hidden = false;
    copyBox.select();
    status.textContent = _("Copy the result from the box below.");
  }
}

// The result card's "Share" button, with the line that tells what it did.
/** @param {Room} room */
export function shareButton(room) {
  const when = new Date(); // the card is drawn when the game ends
  const wrap = document.createElement("span");
  wrap.className = "share";
  const button = document.createElement("button");
  button.type = "button";
  button.id = "btn-share";
  button.textContent = _("Share the result");
  const status = document.createElement("span");
  status.id = "share-status";
  status.className = "muted";
  status.setAttribute("role", "status");
  const copyBox = document.createElement("textarea");
  copyBox.id = "share-text";
  copyBox.readOnly = true;
  copyBox.rows = 5;
  copyBox.hidden = true;
  copyBox.setAttribute("aria-label", _("The result, to copy"));
  button.addEventListener("click", () => share(room, when, status, copyBox));
  wrap.append(button, status, copyBox);
  return wrap;
}
