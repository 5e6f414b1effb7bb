// The first screen: play in one tap, the whole setup behind "More options" (who plays, the rules),
// joining a room by its code, and the bests kept in this browser. A game is started by asking the
// server for a room; what the server would refuse is said first, at its field.

import { _, ngettext } from "./i18n.js";
import { api } from "./net.js";
import { $, $$, $button, $input, el } from "./dom.js";
import { optionLabel, rulesSummary } from "./words.js";
import {
  STRENGTH_NAMES, createBody, defaultSeats, fitModeToSeats, named, profileSeat, seatKindChanged, seatNamed, setupProblem, setupToSave,
} from "./setup-model.js";
import { now } from "./state.js";
import { clientSeed, playerName, profile, rememberFair, rememberRoom, saved } from "./saved.js";
import { showError, showMessage } from "./speech.js";
import { changeForm, renderOnlineFields, renderRuleFields, renderRuleInForce } from "./setup-fields.js";
import { goToRoom, renderContinue, startNew } from "./routes.js";
import { profileRefused } from "./profile.js";

/** @typedef {import("./state.js").Form} Form */

const profileName = () => profile()?.name ?? null;

/** @param {Form["who"]} who */
export function chooseWho(who) {
  changeForm((form) => fitModeToSeats({ ...form, who, seats: defaultSeats(who, playerName()) }));
  renderSetup();
}

export function addSeat() {
  changeForm((form) => {
    const n = form.seats.length + 1;
    return fitModeToSeats({ ...form, seats: [...form.seats, named({ kind: "here" }, { word: "player", n }, playerName())] });
  });
  renderSetup();
  $(`#seat-name-${now().form.seats.length - 1}`)?.focus();
}

/** @param {number} index */
function removeSeat(index) {
  changeForm((form) => fitModeToSeats({ ...form, seats: form.seats.filter((_seat, i) => i !== index) }));
  renderSetup();
  $(`#seat-name-${Math.min(index, now().form.seats.length - 1)}`)?.focus();
}

function renderSeats() {
  const form = now().form;
  const list = $("#seats");
  list.replaceChildren();
  const me = profile();
  const mine = profileSeat(form, profileName());
  form.seats.forEach((seat, index) => {
    const n = index + 1;
    const item = el("li", { class: "seat" });
    if (seat.kind === "remote") {
      item.append(el("span", { class: "muted remote-name", text: _("(named when they join)") }));
    } else {
      item.append(
        el("input", {
          id: `seat-name-${index}`,
          value: index === mine ? me?.name : seat.name || "",
          readonly: index === mine,
          title: index === mine ? _("Your player name: rename it at the top of the page.") : null,
          maxlength: "64",
          "aria-label": _("Name of player {n}", { n }),
          oninput: (/** @type {Event} */ event) => {
            const name = /** @type {HTMLInputElement} */ (event.target).value;
            changeForm((f) => seatNamed(f, index, name));
            if (index === 0 && seat.kind === "here") saved.set("name", name.trim());
          },
        }),
      );
    }
    const kind = el("select", {
      id: `seat-kind-${index}`,
      "aria-label": _("Player {n} plays", { n }),
      onchange: (/** @type {Event} */ event) => {
        const value = /** @type {import("./state.js").FormSeat["kind"]} */ (/** @type {HTMLSelectElement} */ (event.target).value);
        changeForm((f) => seatKindChanged(f, index, value, playerName()));
        renderSeats();
      },
    });
    for (const value of ["here", "bot", "remote"]) {
      kind.append(el("option", { value, selected: seat.kind === value, text: optionLabel("kind", value) }));
    }
    item.append(kind);
    if (seat.kind === "bot") {
      const strength = el("select", {
        id: `seat-bot-${index}`,
        "aria-label": _("Strength of bot {n}", { n }),
        onchange: (/** @type {Event} */ event) => {
          const bot = /** @type {HTMLSelectElement} */ (event.target).value;
          changeForm((f) => ({ ...f, seats: f.seats.map((old, i) => (i === index ? { ...old, bot } : old)) }));
        },
      });
      for (const value of STRENGTH_NAMES) {
        strength.append(el("option", { value, selected: seat.bot === value, text: optionLabel("strength", value) }));
      }
      item.append(strength);
    }
    if (form.seats.length > 1) {
      item.append(el("button", { type: "button", class: "small", "aria-label": _("Remove player {n}", { n }), text: "✕", onclick: () => removeSeat(index) }));
    }
    list.append(item);
  });
  const max = /** @type {import("./types.js").Catalog} */ (form.catalog).players.max;
  const full = form.seats.length >= max;
  $button("#add-seat").disabled = full;
  $("#seats-note").hidden = !full;
  $("#seats-note").textContent = _("A game has at most {n} players.", { n: max });
  renderOnlineFields();
}

export function renderSetup() {
  const form = now().form;
  if (!form.catalog) return;
  for (const button of $$("#who button")) button.setAttribute("aria-pressed", String(button.dataset.who === form.who));
  renderSeats();
  renderRuleFields();
  renderRuleInForce();
  renderContinue();
  renderLocalBests();
  $input("#join-name").value ||= saved.get("name", "");
}

// The last setup is remembered in this browser, and the next visit starts from it.
function saveSetup() {
  saved.set("setup", setupToSave(now().form));
}

// The setup's own game, unless the server would refuse it: then the page says why, at the field.
/** @param {Event} event */
export function submitSetup(event) {
  event.preventDefault();
  const problem = setupProblem(now().form, profileName());
  if (problem) {
    showMessage("#setup-error", problem.text);
    $(problem.field)?.setAttribute("aria-invalid", "true");
    $(problem.field)?.focus();
    return;
  }
  $("#setup-error").hidden = true;
  saveSetup();
  startNew(() => startGame(createBody(now().form, profileName())));
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
  }
}

// One tap: a solo game on the board chosen, under the rules of the setup (the web rule at first).
/** @param {number} tiles */
export function quickSolo(tiles) {
  changeForm((form) => ({ ...form, options: { ...form.options, tiles } }));
  saveSetup();
  renderRuleFields();
  const body = createBody(now().form, profileName(), { tiles, mode: "solo" });
  startGame({ ...body, seats: [{ kind: "here", name: playerName() }], rounds: 1, seed: undefined }, "#quick-error");
}

// One tap: a game against a medium bot, or an online room whose link the page shows to share.
/** @param {"bot" | "remote"} other */
export function quickWithOthers(other) {
  const form = now().form;
  const mode = form.options.mode === "solo" ? "round" : form.options.mode;
  const body = createBody(form, profileName(), { mode });
  const rival = other === "bot" ? { kind: "bot", name: _("Robot"), bot: "medium" } : { kind: "remote" };
  const rest = { rounds: 1, seed: undefined, turn_seconds: undefined, on_leave: undefined };
  saveSetup();
  startGame({ ...body, ...rest, seats: [{ kind: "here", name: playerName() }, rival] }, "#quick-error");
}

// With friends at one device: the players are named first, in the setup.
export function quickFriends() {
  if (now().form.who !== "table") chooseWho("table");
  /** @type {HTMLDetailsElement} */ ($("#more-options")).open = true;
  $("#seat-name-1")?.focus();
}

/** @param {Event} event */
export async function joinRoom(event) {
  event.preventDefault();
  const code = $input("#join-code").value.trim().toUpperCase();
  const me = profile();
  const name = me ? me.name : $input("#join-name").value.trim();
  const seed = clientSeed();
  $("#join-error").hidden = true;
  if (!name) {
    showMessage("#join-error", _("Your name is needed to join: type it above."));
    $("#join-name").focus();
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
    profileRefused(error);
    showError("#join-error", error);
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
