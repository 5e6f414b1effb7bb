// The fair dice as the game view shows them: a practice room's banner, a warning when the server
// shows a commitment other than the one this page got first, and the details of the dice.

import { _ } from "./i18n.js";
import { $, el } from "./dom.js";
import { fairFacts, rememberFair, saved } from "./saved.js";

/** @typedef {import("./types.js").Room} Room */

// A practice room tells every seat: its dice come from a seed chosen in advance, it ranks nobody.
/** @param {Room} room */
export function renderPractice(room) {
  const banner = $("#practice");
  banner.hidden = room.kind !== "practice";
  if (banner.hidden) return;
  const shared = room.seed !== null && room.seed !== undefined && saved.get("sameDice", null) === String(room.seed);
  const text = room.seed === null || room.seed === undefined
    ? _("Practice game: the dice come from a chosen seed. This game counts for no ranking.")
    : shared
      ? _("The same dice as the game shared with you (seed {seed}): a practice game, it counts for no ranking and no best.", { seed: room.seed })
      : _("Practice game: the dice come from the chosen seed {seed}. This game counts for no ranking.", { seed: room.seed });
  banner.textContent = text;
}

// The room's commitment must stay the one this page got first (for the creator, before its client
// seed was sent): if the server shows another, its dice prove nothing, and the page says so.
/** @param {Room} room */
export function renderFairWarning(room) {
  const banner = $("#fair-warning");
  const first = room.fairness ? fairFacts(room.code).commitment : null;
  banner.hidden = !first || !room.fairness || first === room.fairness.commitment;
  if (banner.hidden || !first || !room.fairness) return;
  const shown = room.fairness.commitment;
  const text = _("This page first got the commitment {first}, but the room shows {room}: these dice prove nothing, do not trust this game.");
  const parts = text.split(/(\{first\}|\{room\})/).map((part) =>
    part === "{first}" ? shortHex(first) : part === "{room}" ? shortHex(shown) : part,
  );
  banner.replaceChildren(el("strong", { text: _("Warning: the server changed this room's commitment.") }), " ", ...parts);
}

/** A hex digest cut short for reading; the whole of it on hover and when the details are open. @param {string} hex */
export function shortHex(hex) {
  return el("code", { class: "hex", title: hex, text: `${hex.slice(0, 12)}…` });
}

/** A client seed, marked when it is this browser's own. @param {string} seed @param {string | undefined} mine */
function seedNode(seed, mine) {
  // Translators: after a client seed: the one this browser sent.
  const yours = seed === mine ? ` (${_("yours")})` : null;
  return el("span", {}, el("code", { class: "seed", text: seed }), yours);
}

/** @param {string} term @param {...(Node | string | null)} details */
function fact(term, ...details) {
  return [el("dt", { text: term }), el("dd", {}, ...details)];
}

// The fair dice of the room: the commitment from the start, the server seed once the game is over.
/** @param {Room} room */
export function renderFairness(room) {
  const box = /** @type {HTMLDetailsElement} */ ($("#fairness"));
  const fair = room.fairness;
  box.hidden = !fair;
  if (!fair) return;
  if (!fairFacts(room.code).commitment) rememberFair(room.code, { commitment: fair.commitment });
  const open = box.open;
  const mine = fairFacts(room.code).seed;
  const seeds = fair.client_seeds.length
    ? fair.client_seeds.map((seed) => seedNode(seed, mine))
    : [el("span", { class: "muted", text: _("none: the server's seed alone") })];
  const revealed = fair.server_seed
    ? el("code", { class: "hex full", id: "server-seed", text: fair.server_seed })
    : el("span", { class: "muted", text: _("kept secret until the game is over") });
  box.replaceChildren(
    // Translators: followed by the first digits of the commitment (a SHA-256 in hex).
    el("summary", {}, el("span", { text: _("Fair dice · commitment") }), " ", shortHex(fair.commitment), fair.server_seed ? el("span", { class: "revealed", text: ` · ${_("seed revealed")}` }) : null),
    el("dl", { class: "facts" },
      ...fact(_("Commitment (SHA-256 of the server seed)"), el("code", { class: "hex full", id: "commitment", text: fair.commitment })),
      ...fact(_("Client seeds"), ...seeds.flatMap((node) => [node, " "])),
      ...fact(_("Server seed"), revealed),
    ),
    el("p", { class: "muted", text: _("The server published this commitment before the first roll and reveals its seed when the game is over: every die can then be recomputed from the seed and the client seeds.") }),
  );
  box.open = open;
}
