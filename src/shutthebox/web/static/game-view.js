// The game view: the room's heading, the players, the tiles, the status line, the controls. It draws
// the store's state (the server's last room, and what the page holds of it) and decides nothing.

import { _, number, signed } from "./i18n.js";
import { $, $button, $maybe, el } from "./dom.js";
import { optionLabel, rulesSummary, tilesCount } from "./words.js";
import { isAway, mine, nameOf, selectionIsLegal } from "./room-facts.js";
import { overStatus, runningTotal, selectionText, turnStatus, waitingFor } from "./narration.js";
import { now } from "./state.js";
import { toast } from "./speech.js";
import { diceRolling, labelDice, motionReduced, shownFaces } from "./dice.js";
import { sound } from "./feel.js";
import { renderAdjourned, renderClock, renderNotice } from "./clock.js";
import { renderFairness, renderFairWarning, renderPractice } from "./fair-view.js";
import { renderHint } from "./hints.js";
import { renderRematch } from "./rematch.js";
import { renderPrivacy, watchersWords } from "./privacy.js";
import { toggleTile } from "./play.js";

/** @typedef {import("./types.js").Room} Room */

// The strength each of the server's bots plays at: a bot offered under no strength (made through
// the API) is named by the one it plays closest to, so a player never reads a bot's code name.
/** @type {Record<string, string>} */
const BOT_STRENGTHS = {
  random: "easy", greedy: "medium", fewest: "medium", heuristic: "hard",
  optimal: "expert", "optimal-score": "expert", "optimal-shut": "expert",
};

/** A seat's bot by its strength (the server names the bot behind it). @param {string | null} bot */
function botLabel(bot) {
  const strengths = now().form.catalog?.strengths ?? {};
  const strength = Object.entries(strengths).find(([, name]) => name === bot)?.[0] ?? BOT_STRENGTHS[bot ?? ""];
  return strength ? optionLabel("strength", strength) : _("unknown strength");
}

/** The room's line: its code, the board, the round, the pot; the rules and the fair dice in its sheet. @param {Room} room */
function renderRoomLine(room) {
  const match = room.match;
  const info = $("#room-info");
  info.replaceChildren(el("strong", { text: _("Room {code}", { code: room.code }) }), " · ", tilesCount(room.rules.tiles));
  if (match && match.rounds > 1) info.append(" · ", _("Round {round} of {rounds}", { round: match.round, rounds: match.rounds }));
  else if (match && room.rules.mode === "elimination") info.append(" · ", _("Round {round}", { round: match.round }));
  if (match && match.tiebreak) info.append(" · ", el("span", { class: "tag", text: _("tie-break") }));
  if (match && room.rules.stake && match.pot) info.append(" · ", _("Pot: {pot}", { pot: number(match.pot) })); // an empty pot is no news
  // Translators: a room's kind: its games count for the rankings, or not (practice).
  if (room.kind) info.append(" · ", room.ranked ? _("ranked") : _("unranked"));
  const watching = watchersWords(room);
  if (watching) info.append(" · ", el("span", { id: "watchers", text: watching }));
  renderPrivacy(room);
  $("#rules-info").textContent = `${tilesCount(room.rules.tiles)} · ${optionLabel("mode", room.rules.mode)} · ${rulesSummary(room.rules)}`;
}

/** The whole game view, from the room shown. */
export function renderGame() {
  const room = now().server.room;
  if (!room) return;
  renderRoomLine(room);
  labelDice(shownFaces());

  const waiting = $("#waiting");
  waiting.hidden = !room.seats.some((seat) => !seat.joined); // the invitation, while a seat is free
  if (!waiting.hidden) renderWaiting(room);

  renderPractice(room);
  renderFairWarning(room);
  renderFairness(room);
  renderAdjourned(room);
  renderNotice(room);
  renderPlayers(room);
  renderTiles(room);
  renderStatus(room);
  renderControls();
  renderHint();
  $("#result").hidden = room.status !== "over" || now().presentation.finishing;
  renderRematch(room);
  if (room.status !== "over") {
    $("#review").hidden = true;
    $("#verify").hidden = true;
  }
}

/** The link and the code to share while seats are free. @param {Room} room */
function renderWaiting(room) {
  const link = `${location.origin}/#/room/${room.code}`;
  const box = $("#waiting"); // who is still awaited is the felt's to say
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(_("Link copied."));
    } catch { // no clipboard here (a page over plain http): the link selected, to copy by hand
      getSelection()?.selectAllChildren($("#share-link"));
      toast(_("Copy the selected link."));
    }
  };
  // A phone's own share sheet (a message, a chat) where the browser has one; the link copied otherwise.
  const invite = async () => {
    try {
      await navigator.share({ title: _("Shut the Box"), text: _("Play Shut the Box with me: room {code}", { code: room.code }), url: link });
    } catch (error) {
      if (/** @type {Error | null} */ (error)?.name !== "AbortError") copy();
    }
  };
  const sharing = typeof navigator.share === "function";
  box.replaceChildren(
    el("p", { text: _("Share this link or the code {code}:", { code: room.code }) }),
    el("p", { class: "code", id: "room-code", text: room.code }),
    el("p", { class: "actions invite-actions" },
      sharing ? el("button", { type: "button", id: "invite-share", class: "primary", text: _("Invite"), onclick: invite }) : null,
      el("button", { type: "button", id: "invite-copy", class: sharing ? null : "primary", text: _("Copy link"), onclick: copy })),
    el("p", { class: "invite-link" }, el("a", { href: link, id: "share-link", text: link })),
  );
}

/** Each seat as a chip, all in one row: its name, its badges, its last score, its running total and
 * money, and the clock when its time runs. @param {Room} room */
export function renderPlayers(room) {
  const match = room.match;
  const { handover } = now().presentation;
  const list = $("#players");
  list.replaceChildren();
  list.dataset.n = String(room.seats.length);
  const oneDevice = room.you.length === room.seats.filter((seat) => seat.kind !== "bot").length;
  const table = oneDevice && room.you.length > 1; // friends passing one device: no badge of whose seat or profile
  for (const seat of room.seats) {
    const active = match && room.status === "playing" && (handover?.player ?? match.actor) === seat.index;
    const scores = match ? match.history.filter((turn) => turn.player === seat.index && turn.round === match.round && turn.tiebreak === match.tiebreak) : [];
    const last = scores.at(-1);
    const won = Boolean(match && room.status === "over" && match.winner === seat.index);
    const out = Boolean(match && !match.alive[seat.index] && !won);
    const badges = [];
    if (room.you.includes(seat.index) && !oneDevice) badges.push(_("you"));
    if (seat.kind === "bot") badges.push([_("computer"), botLabel(seat.bot)].join(" · "));
    // Translators: a badge of a seat nobody has taken yet, left for a player invited to the room.
    if (seat.kind === "remote" && !seat.joined) badges.push(_("open seat"));
    else if (seat.kind === "remote") badges.push(seat.connected ? _("online") : _("not connected"));
    else if (seat.kind === "here" && isAway(room, seat)) badges.push(_("not connected"));
    // Translators: a badge of a player who had help: the turn it came in counts as it stood then.
    if (room.ranked && room.stood_in?.includes(seat.index)) badges.push(_("a bot played for them: counts as it stood"));
    else if (room.ranked && room.assisted?.includes(seat.index)) badges.push(_("hint asked: counts as it stood"));
    // A human seat without a profile: its name is held by nobody, so it may be anyone's.
    const guest = seat.kind !== "bot" && seat.name !== null && seat.name !== undefined && seat.profile === null && !table;
    const away = room.status === "playing" && isAway(room, seat);
    const classes = ["player", active && "active", away && "away", won && "won", out && "out"];
    const item = el(
      "li",
      { class: classes.filter(Boolean).join(" "), "data-seat": String(seat.index), "aria-current": active ? "true" : null },
      won && room.seats.length > 1 ? el("span", { class: "crown", title: _("winner"), text: "♛" }) : null,
      el("span", { class: "name", text: seat.name ?? "…" }),
      // Translators: a badge of a seat played without a player profile.
      guest ? el("span", { class: "guest", title: _("Played without a player profile: anyone may take this name, and this seat ranks nobody."), text: _("guest") }) : null,
      // Translators: a badge of a player who left: a bot plays their seat until the end of the game.
      seat.stand_in ? el("span", { class: "stand-in", title: _("This player left: a bot plays for them until the end of the game."), text: _("bot stands in") }) : null,
      badges.length ? el("span", { class: "badges", text: badges.join(" · ") }) : null,
      // Translators: a mark on the seat whose turn it is while its player is not connected.
      away && active ? el("span", { class: "away-mark", text: `⚠ ${_("away")}` }) : null,
      out ? el("span", { class: "out-mark", text: _("out") }) : null,
      room.status === "playing" && room.clock?.seat === seat.index ? el("span", { class: "clock", "aria-hidden": "true" }) : null,
    );
    const numbers = el("span", { class: "numbers" });
    if (last && last.score !== null) numbers.append(el("span", { class: "score", title: _("score of this round"), text: `${number(last.score)} · ${last.grade}` }));
    if (match && room.rules.mode === "elimination") numbers.append(el("span", { class: "total", text: _("Total: {total}", { total: number(runningTotal(match, seat.index)) }) }));
    if (match && room.rules.stake) numbers.append(el("span", { class: "ledger", text: _("Money: {amount}", { amount: signed(match.ledger[seat.index]) }) }));
    if (numbers.childElementCount) item.append(numbers);
    list.append(item);
  }
  renderClock(room);
}

/** The tiles this page may pick now: none but on its own move, and none while a turn's end is held. @param {Room} room */
export function selectableTiles(room) {
  const match = room.match;
  const { connection, presentation } = now();
  if (!match || match.phase !== "move" || !mine(room) || connection.busy || presentation.handover) return new Set();
  return new Set(match.legal_moves.flat());
}

/** @param {Room} room */
export function renderTiles(room) {
  const { presentation, server } = now();
  const box = $("#tiles");
  const size = room.match ? room.match.board.size : room.rules.tiles;
  const open = new Set(presentation.handover ? presentation.handover.open : room.match ? room.match.board.open : Array.from({ length: size }, (_unused, i) => i + 1));
  if (box.children.length !== size) {
    box.replaceChildren();
    for (let n = 1; n <= size; n += 1) {
      box.append(el("button", { type: "button", class: "tile", "data-tile": String(n), onclick: () => toggleTile(n) }, el("span", { class: "num", text: String(n) })));
    }
  }
  box.dataset.n = String(size);
  $("#box").dataset.mine = String(mine(room)); // only the player to act sees which tiles cannot be used
  const before = new Set([...box.children].filter((tile) => !tile.classList.contains("shut")).map((tile) => Number(/** @type {HTMLElement} */ (tile).dataset.tile)));
  box.dataset.legal = JSON.stringify(room.match ? room.match.legal_moves : []);
  const selectable = selectableTiles(room);
  const hinted = new Set(server.hint?.choices?.[0]?.shut ?? []);
  for (const button of /** @type {HTMLButtonElement[]} */ ([...box.children])) {
    const n = Number(button.dataset.tile);
    const isOpen = open.has(n);
    const selected = presentation.selected.has(n);
    button.classList.toggle("shut", !isOpen);
    if (before.has(n) && !isOpen && !motionReduced()) flip(button, "down");
    else if (!before.has(n) && isOpen && box.dataset.drawn === "true" && !motionReduced()) flip(button, "up");
    button.classList.toggle("selected", selected);
    button.classList.toggle("hinted", hinted.has(n));
    button.disabled = !selectable.has(n);
    button.setAttribute("aria-pressed", String(selected));
    button.setAttribute("aria-label", selected ? _("{n}, selected", { n }) : isOpen ? _("{n}, open", { n }) : _("{n}, shut", { n }));
  }
  const downs = [...before].filter((n) => !open.has(n)).length;
  if (downs && box.dataset.drawn === "true" && box.dataset.room === room.code) sound.tiles(downs); // heard for every player's move
  box.dataset.drawn = "true";
  box.dataset.room = room.code;
}

/** A tile flips down (shut) or up (opened again), as on a real box. @param {HTMLElement} tile @param {"down" | "up"} way */
function flip(tile, way) {
  tile.classList.remove("flip-down", "flip-up");
  void tile.offsetWidth;
  tile.classList.add(`flip-${way}`);
  tile.addEventListener("animationend", () => tile.classList.remove(`flip-${way}`), { once: true });
}

/** The status line (or the banner of a turn's end), and the selection's line. @param {Room} room */
export function renderStatus(room) {
  const match = room.match;
  const { presentation } = now();
  const status = $("#status");
  const selection = $("#selection");
  const box = $("#box");
  box.dataset.phase = match ? match.phase : room.status;
  box.dataset.status = room.status;
  selection.textContent = "";
  if (!match) {
    status.textContent = waitingFor(room.seats.filter((seat) => !seat.joined).length);
    return;
  }
  if (room.status === "over" && (diceRolling() || presentation.finishing)) {
    const last = match.history.at(-1);
    status.textContent = _("{name} rolls…", { name: last ? nameOf(room, last.player) : "" });
    return;
  }
  if (room.status === "over") {
    status.replaceChildren(...overStatus(room).map((line) => el("span", { class: "line", text: line })));
    return;
  }
  const handover = $("#handover");
  const held = presentation.handover;
  handover.hidden = !held?.shown;
  if (held) {
    status.hidden = held.shown;
    handover.replaceChildren(...held.lines.map((line, i) => el(i ? "p" : "strong", { text: line })));
    return;
  }
  status.hidden = false;
  status.textContent = turnStatus(room, diceRolling());
  if (mine(room) && match.phase === "move" && !diceRolling()) selection.textContent = selectionText(room, presentation.selected);
}

/** The buttons of what this page may do now, each shown, enabled or not. */
export function renderControls() {
  const { connection, presentation, server } = now();
  const room = server.room;
  const match = room?.match;
  const held = presentation.handover;
  const me = room ? mine(room) : false;
  const acting = !held || (held.shown && held.mineNext);
  const phase = match && room.status === "playing" && acting ? match.phase : null;
  const show = (/** @type {string} */ id, /** @type {boolean} */ visible, /** @type {boolean} */ enabled) => {
    const button = $button(id);
    button.hidden = !visible;
    button.disabled = !enabled || connection.busy;
  };
  show("#btn-roll", Boolean(phase && match?.is_chance && me), me); // nothing to press while others play
  show("#btn-one", phase === "choose", me && Boolean(match?.dice_options.includes(1)));
  show("#btn-two", phase === "choose", me && Boolean(match?.dice_options.includes(2)));
  show("#btn-shut", phase === "move", me && Boolean(room) && selectionIsLegal(/** @type {Room} */ (room), presentation.selected));
  show("#btn-clear", phase === "move", me && presentation.selected.size > 0);
  show("#btn-hint", Boolean(room?.hints && phase && match?.is_decision), me);
  const next = $button("#btn-next");
  next.hidden = !held?.shown;
  next.disabled = false;
  if (held?.shown && room && match) {
    const name = match.actor === null ? null : nameOf(room, match.actor);
    $("#next-label").textContent = held.waitsForTap && name ? _("Pass to {name}", { name }) : _("Continue");
  }
  $("#shut-label").textContent = match?.opening ? _("Open") : _("Shut");
  if (room) renderTiles(room);
}

/** The button the keyboard goes to when the game is over: play again, else review. */
export function overControl() {
  return [$maybe("#btn-again"), $maybe("#btn-review")].find((button) => button && !button.hidden) ?? null;
}
