// The first screen: play in one tap; the other ways to play as choices, each a short panel (the
// players' names, the computer's strength, an online room to create or join); every rule under the
// "Rules" panel; and the bests kept in this browser. A game is started by asking the
// server for a room; what the server would refuse is said first, at its field.

import { _, ngettext } from "./i18n.js";
import { api, ApiError } from "./net.js";
import { $, $$, $button, $input, $maybe, el } from "./dom.js";
import { optionLabel, rulesSummary } from "./words.js";
import {
  STRENGTH_NAMES, createBody, defaultSeats, fitModeToSeats, named, profileSeat, restoreSetup, seatNamed, setupProblem, setupToSave,
} from "./setup-model.js";
import { now, store, withForm } from "./state.js";
import { clientSeed, playerName, profile, rememberFair, rememberRoom, saved } from "./saved.js";
import { showError, showMessage } from "./speech.js";
import { changeForm, renderOnlineFields, renderRuleFields, renderRuleInForce } from "./setup-fields.js";
import { goToRoom, renderContinue, startNew } from "./routes.js";
import { profileRefused } from "./profile.js";
import { showInPlayFor } from "./inplay.js";

/** @typedef {import("./state.js").Form} Form */
/** @typedef {import("./state.js").FormSeat} FormSeat */

const profileName = () => profile()?.name ?? null;

const NAME_LENGTH = 24; // the server's longest name (core/names.py)
const MAX_PLAYERS = 8; // while the server's catalog is not loaded (offline)

/**
 * A way to play chosen (friends, the computer, online): its panel opens under the choices; the same
 * choice again closes it. The seats are the way's own unless it was chosen already.
 * @param {Form["who"]} who
 */
export function chooseWho(who) {
  const panel = $("#setup");
  const open = !panel.hidden && now().form.who === who;
  if (open) {
    panel.hidden = true;
    $("#join").hidden = true;
    renderWays();
    return;
  }
  if (now().form.who !== who || !now().form.seats.length) {
    changeForm((form) => fit({ ...form, who, seats: defaultSeats(who, playerName()) }));
  }
  panel.hidden = false;
  $("#setup-error").hidden = true;
  renderSetup();
  const first = who === "table" ? $maybe("#seat-name-1") : who === "bots" ? $maybe("#strengths button") : $maybe("#start");
  first?.focus();
  panel.scrollIntoView({ block: "nearest" });
}

/**
 * A room's link opened without a seat in it: the online way's panel with its code typed and the
 * name to join with asked (the invitation's own screen may take this place).
 * @param {string} code
 */
export function showJoin(code) {
  if ($("#setup").hidden || now().form.who !== "online") chooseWho("online");
  $input("#join-code").value = code;
  $("#join-name").focus();
  $("#join").scrollIntoView({ block: "nearest" });
}

/** The way to play fitted to the players, once the server's catalog says which fit. @param {Form} form */
function fit(form) {
  return form.catalog ? fitModeToSeats(form) : form;
}

/** @param {FormSeat["kind"]} kind */
function addSeatOf(kind) {
  changeForm((form) => {
    const n = form.seats.length + 1;
    const seat = kind === "bot" ? named({ kind: "bot", bot: "medium" }, { word: "robot", n }, playerName()) : named({ kind: "here" }, { word: "player", n }, playerName());
    return fit({ ...form, seats: [...form.seats, seat] });
  });
  renderSetup();
  $maybe(`#seat-name-${now().form.seats.length - 1}`)?.focus();
}

export function addSeat() {
  addSeatOf("here");
}

export function addBot() {
  addSeatOf("bot");
}

/** @param {number} index */
function removeSeat(index) {
  changeForm((form) => fit({ ...form, seats: form.seats.filter((_seat, i) => i !== index) }));
  renderSetup();
  $maybe(`#seat-name-${Math.min(index, now().form.seats.length - 1)}`)?.focus();
}

/** A bot's strength, as a select of the four. @param {number} index @param {FormSeat} seat */
function strengthSelect(index, seat) {
  const strength = el("select", {
    id: `seat-bot-${index}`,
    "aria-label": _("Strength of computer player {n}", { n: index + 1 }),
    onchange: (/** @type {Event} */ event) => {
      const bot = /** @type {HTMLSelectElement} */ (event.target).value;
      changeForm((f) => ({ ...f, seats: f.seats.map((old, i) => (i === index ? { ...old, bot } : old)) }));
    },
  });
  for (const value of STRENGTH_NAMES) strength.append(el("option", { value, selected: seat.bot === value, text: optionLabel("strength", value) }));
  return strength;
}

// The players at this device: a name each (a computer player with its strength), in turn order.
function renderSeats() {
  const form = now().form;
  const list = $("#seats");
  list.replaceChildren();
  const me = profile();
  const mine = profileSeat(form, profileName());
  const people = form.seats.filter((seat) => seat.kind === "here").length;
  form.seats.forEach((seat, index) => {
    if (seat.kind === "remote") return;
    const n = index + 1;
    const item = el("li", { class: `seat seat-${seat.kind}` }, el("span", { class: "seat-n", "aria-hidden": "true", text: String(n) }));
    item.append(el("input", {
      id: `seat-name-${index}`,
      value: index === mine ? me?.name : seat.name || "",
      readonly: index === mine,
      title: index === mine ? _("Your player name: rename it at the top of the page.") : null,
      maxlength: String(NAME_LENGTH),
      autocomplete: "off",
      enterkeyhint: "go",
      "aria-label": seat.kind === "bot" ? _("Name of computer player {n}", { n }) : _("Name of player {n}", { n }),
      oninput: (/** @type {Event} */ event) => {
        const name = /** @type {HTMLInputElement} */ (event.target).value;
        changeForm((f) => seatNamed(f, index, name));
        if (index === 0 && seat.kind === "here") saved.set("name", name.trim());
      },
    }));
    if (seat.kind === "bot") item.append(el("span", { class: "seat-kind", text: _("computer") }), strengthSelect(index, seat));
    const last = seat.kind === "here" && people === 1;
    if (form.seats.length > 2 && !last) {
      item.append(el("button", { type: "button", class: "small remove", "aria-label": _("Remove player {n}", { n }), text: "✕", onclick: () => removeSeat(index) }));
    }
    list.append(item);
  });
  const max = form.catalog?.players.max ?? MAX_PLAYERS;
  const full = form.seats.length >= max;
  $button("#add-seat").disabled = full;
  $button("#add-bot").disabled = full;
  $("#seats-note").hidden = !full;
  $("#seats-note").textContent = _("A game has at most {n} players.", { n: max });
}

// Against the computer: its strength first, each a button that starts the game; the number of
// computer players beside.
function renderStrengths() {
  const form = now().form;
  const bots = form.seats.filter((seat) => seat.kind === "bot");
  const count = Math.max(1, bots.length);
  const counts = el("div", { class: "segmented bot-count", role: "group", "aria-label": _("Computer players") },
    ...[1, 2, 3].map((n) => el("button", { type: "button", "data-bots": String(n), "aria-pressed": String(n === count), text: ngettext("{n} opponent", "{n} opponents", n), onclick: () => setBotCount(n) })));
  const strengths = STRENGTH_NAMES.map((strength) => el("button", {
    type: "button", class: "primary strength", id: `strength-${strength}`, "data-strength": strength,
    onclick: () => startNew(() => playBots(strength)),
  }, el("span", { class: "strength-name", text: optionLabel("strength", strength) }), el("span", { class: "strength-words", text: strengthWords(strength) })));
  $("#strengths").replaceChildren(el("p", { class: "strengths-title", text: _("How strong is the computer? Tap to play.") }), el("div", { class: "strength-buttons" }, ...strengths), counts);
}

/** @param {string} strength */
function strengthWords(strength) {
  /** @type {Record<string, string>} */
  const words = {
    easy: _("plays at random"),
    medium: _("shuts the most it can"),
    hard: _("plays like a good player"),
    expert: _("plays perfectly"),
  };
  return words[strength] ?? "";
}

/** @param {number} n */
function setBotCount(n) {
  changeForm((form) => {
    const strength = form.seats.find((seat) => seat.kind === "bot")?.bot ?? "medium";
    const bots = Array.from({ length: n }, (_unused, i) => named({ kind: "bot", bot: strength }, { word: "robot", n: n === 1 ? null : i + 1 }, playerName()));
    return fit({ ...form, seats: [form.seats[0] ?? named({ kind: "here" }, { word: "me" }, playerName()), ...bots] });
  });
  renderStrengths();
  $maybe(`[data-bots="${n}"]`)?.focus();
}

/** @param {string} strength */
function playBots(strength) {
  changeForm((form) => ({ ...form, seats: form.seats.map((seat) => (seat.kind === "bot" ? { ...seat, bot: strength } : seat)) }));
  submitSetup();
}

// Online: how many players join with the code, the turn clock, and what a player who leaves becomes.
function onlineCount() {
  const form = now().form;
  const remote = form.seats.filter((seat) => seat.kind === "remote").length;
  const max = (form.catalog?.players.max ?? MAX_PLAYERS) - 1;
  const node = el("select", {
    id: "online-count",
    onchange: (/** @type {Event} */ event) => {
      const n = Number(/** @type {HTMLSelectElement} */ (event.target).value);
      changeForm((f) => fit({ ...f, seats: [f.seats[0], ...Array.from({ length: n }, () => /** @type {FormSeat} */ ({ kind: "remote" }))] }));
    },
  });
  for (let n = 1; n <= max; n += 1) node.append(el("option", { value: String(n), selected: n === remote, text: String(n) }));
  return el("label", { class: "field" }, el("span", { text: _("Players who join with the code") }), node);
}

/** The ways' buttons say which is open. */
function renderWays() {
  const open = !$("#setup").hidden;
  const who = now().form.who;
  for (const button of $$("#who button")) button.setAttribute("aria-expanded", String(open && button.dataset.who === who));
}

export function renderSetup() {
  const form = now().form;
  const who = form.who === "solo" ? "table" : form.who;
  renderWays();
  renderRuleInForce();
  renderContinue();
  renderLocalBests();
  $("#offline").hidden = Boolean(form.catalog);
  if (form.catalog) renderRuleFields();
  $input("#join-name").value ||= saved.get("name", "");
  const panel = $("#setup");
  if (panel.hidden) return;
  /** @type {Record<string, [string, string]>} */
  const heads = {
    table: [_("With friends"), _("Type each player's name, then Play. Pass the device when the page says whose turn it is.")],
    bots: [_("Against the computer"), _("Pick how strong the computer players are; a die each decides who starts. The rules are those of the Rules panel below.")],
    online: [_("Online"), _("Create a room and share its code or link; each player plays on their own device.")],
  };
  const [title, lead] = heads[who];
  $("#setup-title").textContent = title;
  $("#setup-lead").textContent = lead;
  $("#seats").hidden = who === "bots"; // online: the host's own name
  $("#seat-buttons").hidden = who !== "table";
  $("#strengths").hidden = who !== "bots";
  $("#start").hidden = who === "bots";
  $("#start").textContent = who === "online" ? _("Create the room") : _("Play");
  $("#join").hidden = who !== "online";
  $("#online").hidden = who !== "online";
  if (who !== "bots") renderSeats();
  if (who !== "table") $("#seats-note").hidden = true;
  if (who === "bots") renderStrengths();
  if (who === "online") {
    renderOnlineFields();
    $("#online-fields").prepend(onlineCount());
  }
}

// The last setup is remembered in this browser, and the next visit starts from it.
function saveSetup() {
  saved.set("setup", setupToSave(now().form));
}

// The setup's own game, unless the server would refuse it: then the page says why, at the field.
/** @param {Event} [event] */
export function submitSetup(event) {
  event?.preventDefault();
  if (!now().form.catalog) {
    unreachable("#setup-error");
    return;
  }
  const problem = setupProblem(now().form, profileName());
  if (problem) {
    showMessage("#setup-error", problem.text);
    const field = $maybe(problem.field);
    for (let fold = field?.closest("details"); fold; fold = fold.parentElement?.closest("details") ?? null) /** @type {HTMLDetailsElement} */ (fold).open = true;
    field?.setAttribute("aria-invalid", "true");
    field?.focus();
    return;
  }
  $("#setup-error").hidden = true;
  saveSetup();
  startNew(() => startGame(createBody(now().form, profileName())));
}

// Offline: a Play button says the server cannot be reached, and the page tries again to reach it.
/** @param {string} where */
function unreachable(where) {
  showMessage(where, _("The server cannot be reached: a game needs it to roll the dice. Check the connection and try again."));
  loadCatalog();
}

/** The rules the server accepts (GET /api/rules); the setup remembered is restored over them. */
export async function loadCatalog() {
  try {
    const catalog = await api("/api/rules");
    if (now().form.catalog) return true;
    store.update((state) => withForm(state, restoreSetup({ ...state.form, catalog }, saved.get("setup", null), playerName())));
    for (const where of ["#quick-error", "#setup-error"]) $(where).hidden = true;
    renderSetup();
    return true;
  } catch {
    $("#offline").hidden = false;
    return false;
  }
}

// Create a room, as the profile when there is one. A ranked room's dice are committed to first
// (POST /api/commitments): this browser's fresh client seed goes with the room, after the
// commitment, which is kept to be compared with the room's. A practice room takes neither.
/** @param {Record<string, any>} body @param {string} [errorBox] */
async function startGame(body, errorBox = "#setup-error") {
  $(errorBox).hidden = true;
  const practice = body.seed !== undefined && body.seed !== null;
  try {
    let fair = null;
    let claim = {};
    if (!practice) {
      const committed = await api("/api/commitments", { method: "POST" });
      fair = { seed: clientSeed(), commitment: committed.commitment };
      claim = { ticket: committed.ticket, client_seed: fair.seed };
    }
    const created = await api("/api/rooms", { method: "POST", body: { ...body, ...claim }, token: profile()?.key });
    rememberRoom(created.code, created.token);
    if (fair) rememberFair(created.code, fair);
    goToRoom(created.code);
  } catch (error) {
    profileRefused(error);
    showError(errorBox, error);
    showInPlayFor(error);
  }
}

// One tap: a solo game on the board chosen, under the rules of the setup (the web rule at first).
/** @param {number} tiles */
export function quickSolo(tiles) {
  if (!now().form.catalog) {
    unreachable("#quick-error");
    return;
  }
  changeForm((form) => ({ ...form, options: { ...form.options, tiles } }));
  saveSetup();
  renderRuleFields();
  const body = createBody(now().form, profileName(), { tiles, mode: "solo" });
  startGame({ ...body, seats: [{ kind: "here", name: playerName() }], rounds: 1, seed: undefined }, "#quick-error");
}

/**
 * "Play the same dice" of a shared result (/g/{id} links to /?seed=N&tiles=T): that practice game,
 * started at once on the setup's rules, the address cleaned so a reload does not start another. A
 * seed beyond 2^53 stays exact (a BigInt); a board the server does not offer is no game.
 */
export function playSameDice() {
  const params = new URLSearchParams(location.search);
  const raw = params.get("seed") ?? "";
  const tiles = Number(params.get("tiles"));
  if (!params.has("seed")) return;
  history.replaceState(null, "", `${location.pathname}${location.hash}`);
  const boards = now().form.catalog?.options.tiles;
  if (!/^\d{1,40}$/.test(raw) || !Number.isInteger(tiles) || (boards && (tiles < Number(boards.min) || tiles > Number(boards.max)))) return;
  const seed = Number.isSafeInteger(Number(raw)) ? Number(raw) : BigInt(raw);
  if (!now().form.catalog) {
    unreachable("#quick-error");
    return;
  }
  saved.set("sameDice", raw);
  changeForm((form) => ({ ...form, options: { ...form.options, tiles } }));
  const body = createBody(now().form, profileName(), { tiles, mode: "solo" });
  startNew(() => startGame({ ...body, seats: [{ kind: "here", name: playerName() }], rounds: 1, seed }, "#quick-error"));
}

/** @param {Event} event */
export async function joinRoom(event) {
  event.preventDefault();
  const code = $input("#join-code").value.trim().toUpperCase();
  $("#join-error").hidden = true;
  if (!code) {
    showMessage("#join-error", _("Type the room's code first: five letters, as the other player sees it."));
    $("#join-code").focus();
    return;
  }
  await joinAs(code, $input("#join-name").value.trim(), { error: "#join-error", name: "#join-name" });
}

/**
 * Take an open seat of room `code` as `name` (the profile's name when there is one); a refusal is
 * said in `where.error`, a missing name asked at `where.name`.
 * @param {string} code @param {string} typed @param {{ error: string, name: string }} where
 */
export async function joinAs(code, typed, where) {
  const me = profile();
  const name = me ? me.name : typed;
  const seed = clientSeed();
  $(where.error).hidden = true;
  if (!name) {
    showMessage(where.error, _("Your name is needed to join: type it above."));
    $(where.name).focus();
    return;
  }
  try {
    const joined = await api(`/api/rooms/${encodeURIComponent(code)}/join`, { method: "POST", body: { name, client_seed: seed }, token: me?.key });
    if (!me) saved.set("name", name);
    rememberRoom(joined.code, joined.token);
    const commitment = joined.state?.fairness?.commitment;
    rememberFair(joined.code, commitment ? { seed, commitment } : { seed });
    goToRoom(joined.code);
  } catch (error) {
    if (!(error instanceof ApiError)) {
      unreachable(where.error);
      return;
    }
    profileRefused(error);
    showError(where.error, error);
    showInPlayFor(error);
  }
}

// -- the bests kept in this browser -------------------------------------------------------------
export function renderLocalBests() {
  const list = $("#local-bests");
  /** @type {{ tiles: number, score: number, grade: string, rules: import("./types.js").Rules }[]} */
  const bests = Object.values(saved.get("bests", {}));
  bests.sort((a, b) => a.tiles - b.tiles || a.score - b.score);
  list.replaceChildren();
  if (!bests.length) list.append(el("li", { class: "muted", text: _("No solo game finished yet.") }));
  for (const best of bests) {
    const values = { rules: rulesSummary(best.rules), score: best.score, grade: best.grade };
    const text = ngettext("{n} tile ({rules}): {score} · grade {grade}", "{n} tiles ({rules}): {score} · grade {grade}", best.tiles, values);
    list.append(el("li", { class: "best", "data-tiles": String(best.tiles), text }));
  }
}
