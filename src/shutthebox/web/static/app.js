// The page: renders what the server sends and sends what the player asks. No rule is decided here:
// the legal moves and the dice options come from the server, which rolls and checks every action.

import { LANGS, RULES, detectLang, setLang, t, translatePage, has } from "./i18n.js";
import { api, ApiError, RoomSocket } from "./net.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];
const KEY_TILES = { 0: 10, "-": 11, "=": 12 };
const STRENGTH_NAMES = ["easy", "medium", "hard", "expert"];

const S = {
  catalog: null,
  who: "solo",
  seats: [],
  preset: "classic",
  options: {},
  rounds: 1,
  hints: true,
  seed: "",
  code: null,
  token: null,
  socket: null,
  room: null,
  selected: new Set(),
  busy: false,
  lastSeq: -1,
  historySeen: 0,
  overSeen: false,
  hint: null,
  log: [],
  lastBody: null,
  boardTiles: 9,
  rolling: null,
  bestFor: null,
  hintPending: false,
  autoRoll: false,
  bestInfo: null,
};

// -- storage in the browser -------------------------------------------------------
const store = {
  get(key, fallback) {
    try {
      const raw = localStorage.getItem(`stb.${key}`);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    localStorage.setItem(`stb.${key}`, JSON.stringify(value));
  },
};

function playerName() {
  return store.get("name", "") || t("default_name");
}

// -- small helpers ------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function announce(text) {
  const region = $("#announce");
  region.textContent = "";
  setTimeout(() => (region.textContent = text), 30);
  S.log.push(text);
  const list = $("#log");
  list.append(el("li", { text }));
  while (list.children.length > 200) list.firstChild.remove();
}

let toastTimer = null;
function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 5000);
}

// A refusal in the reader's language, from the server's error code; the server's own
// words (English) are kept where the code alone cannot say what was wrong.
function errorText(code, detail) {
  const key = `err_${code}`;
  return code && has(key) ? t(key, { detail }) : t("error", { detail });
}

function showError(where, error) {
  const node = $(where);
  node.textContent = errorText(error.code, error.message || String(error));
  node.hidden = false;
}

function tilesText(tiles) {
  return [...tiles].sort((a, b) => b - a).join(" + ");
}

function sum(numbers) {
  return numbers.reduce((a, b) => a + b, 0);
}

function sameSet(a, b) {
  return a.length === b.size && a.every((x) => b.has(x));
}

function optionLabel(name, value) {
  const key = `${name}_${value}`;
  return has(key) ? t(key) : String(value);
}

// -- views and routing ------------------------------------------------------------
function showView(name) {
  for (const view of $$(".view")) view.hidden = view.id !== `view-${name}`;
  for (const link of $$("nav a")) link.removeAttribute("aria-current");
  const nav = { setup: "#nav-play", game: "#nav-play", rules: "#nav-rules", scores: "#nav-scores" }[name];
  $(nav)?.setAttribute("aria-current", "page");
  S.view = name;
}

function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const params = new URLSearchParams(location.search);
  if (params.get("room") && !hash) {
    location.replace(`#/room/${params.get("room").toUpperCase()}`);
    return;
  }
  if (hash.startsWith("room/")) {
    openRoom(hash.slice(5).toUpperCase());
    return;
  }
  leaveRoom();
  if (hash === "rules") {
    showView("rules");
    renderRules();
  } else if (hash === "scores") {
    showView("scores");
    renderScores();
  } else {
    showView("setup");
    renderLocalBests();
  }
}

// -- setup --------------------------------------------------------------------------
function defaultSeats(who) {
  const me = { kind: "here", name: playerName() };
  if (who === "solo") return [me];
  if (who === "table") return [me, { kind: "here", name: t("player_n", { n: 2 }) }];
  if (who === "bots") return [me, { kind: "bot", name: "Robot", bot: "medium" }];
  return [me, { kind: "remote" }];
}

function chooseWho(who) {
  S.who = who;
  S.seats = defaultSeats(who);
  if (who === "solo") S.options.mode = "solo";
  else if (S.options.mode === "solo") S.options.mode = "round";
  renderSetup();
}

function applyPreset(name) {
  const preset = S.catalog.presets[name];
  S.preset = name;
  S.options = { ...preset };
  if (S.options.doubles_extra_turn === (S.options.mode === "long")) S.options.doubles_extra_turn = null;
  if (S.who === "solo" && S.options.mode === "round") S.options.mode = "solo";
  if (S.who !== "solo" && S.options.mode === "solo") S.options.mode = "round";
}

function renderSeats() {
  const list = $("#seats");
  list.replaceChildren();
  S.seats.forEach((seat, index) => {
    const n = index + 1;
    const item = el("li", { class: "seat" });
    if (seat.kind === "remote") {
      item.append(el("span", { class: "muted remote-name", text: t("remote_name") }));
    } else {
      item.append(
        el("input", {
          id: `seat-name-${index}`,
          value: seat.name || "",
          maxlength: "24",
          "aria-label": t("seat_name", { n }),
          oninput: (event) => {
            seat.name = event.target.value;
            if (index === 0 && seat.kind === "here") store.set("name", seat.name.trim());
          },
        }),
      );
    }
    const kind = el("select", {
      id: `seat-kind-${index}`,
      "aria-label": t("seat_kind", { n }),
      onchange: (event) => {
        seat.kind = event.target.value;
        if (seat.kind === "bot") {
          seat.bot = seat.bot || "medium";
          seat.name = seat.name || `Robot ${n}`;
        }
        renderSeats();
      },
    });
    for (const value of ["here", "bot", "remote"]) {
      kind.append(el("option", { value, selected: seat.kind === value, text: t(`kind_${value}`) }));
    }
    item.append(kind);
    if (seat.kind === "bot") {
      const strength = el("select", {
        id: `seat-bot-${index}`,
        "aria-label": t("seat_strength", { n }),
        onchange: (event) => (seat.bot = event.target.value),
      });
      for (const value of STRENGTH_NAMES) {
        strength.append(el("option", { value, selected: seat.bot === value, text: t(`strength_${value}`) }));
      }
      item.append(strength);
    }
    if (S.seats.length > 1) {
      item.append(
        el("button", {
          type: "button",
          class: "small",
          "aria-label": t("seat_remove", { n }),
          text: "✕",
          onclick: () => {
            S.seats.splice(index, 1);
            renderSeats();
          },
        }),
      );
    }
    list.append(item);
  });
}

function field(label, control) {
  return el("label", { class: "field" }, el("span", { text: label }), control);
}

function select(id, values, current, labelOf, onchange) {
  const node = el("select", { id, onchange: (event) => onchange(event.target.value) });
  for (const value of values) {
    node.append(el("option", { value: String(value), selected: String(current) === String(value), text: labelOf(value) }));
  }
  return node;
}

function checkbox(id, checked, onchange) {
  return el("input", { id, type: "checkbox", checked, onchange: (event) => onchange(event.target.checked) });
}

function number(id, value, min, onchange) {
  return el("input", { id, type: "number", min: String(min), value: String(value), inputmode: "numeric", onchange: (event) => onchange(Number(event.target.value)) });
}

function renderRuleFields() {
  const o = S.options;
  const opts = S.catalog.options;
  const box = $("#rule-fields");
  const tileValues = Array.from({ length: opts.tiles.max }, (_, i) => i + 1);
  const tilesLabel = (n) => (has(`tiles_${n}`) ? t(`tiles_${n}`) : t("tiles_n", { n }));
  box.replaceChildren(
    field(t("preset"), select("opt-preset", Object.keys(S.catalog.presets), S.preset, (v) => optionLabel("preset", v), (v) => {
      applyPreset(v);
      renderRuleFields();
    })),
    field(t("opt_tiles"), select("opt-tiles", tileValues, o.tiles, tilesLabel, (v) => (o.tiles = Number(v)))),
    field(t("opt_mode"), select("opt-mode", opts.mode.values, o.mode, (v) => optionLabel("mode", v), (v) => {
      o.mode = v;
    })),
    field(t("opt_one_die"), select("opt-one_die", opts.one_die.values, o.one_die, (v) => optionLabel("one_die", v), (v) => (o.one_die = v))),
    field(t("opt_scoring"), select("opt-scoring", opts.scoring.values, o.scoring, (v) => optionLabel("scoring", v), (v) => (o.scoring = v))),
    field(t("opt_max_tiles"), select("opt-max_tiles", ["", 1, 2, 3, 4, 5, 6], o.max_tiles ?? "", (v) => (v === "" ? t("no_limit") : String(v)), (v) => (o.max_tiles = v === "" ? null : Number(v)))),
    field(t("opt_doubles_extra_turn"), select("opt-doubles_extra_turn", ["", "true", "false"], o.doubles_extra_turn ?? "", (v) => (v === "" ? t("auto") : t(v === "true" ? "on" : "off")), (v) => (o.doubles_extra_turn = v === "" ? null : v === "true"))),
    field(t("opt_stake"), number("opt-stake", o.stake, 0, (v) => (o.stake = v))),
    field(t("opt_limit"), number("opt-limit", o.limit, 1, (v) => (o.limit = v))),
    field(t("opt_rounds"), number("opt-rounds", S.rounds, 1, (v) => (S.rounds = v))),
    el("label", { class: "check" }, checkbox("opt-one_die_forced", o.one_die_forced, (v) => (o.one_die_forced = v)), el("span", { text: t("opt_one_die_forced") })),
    el("label", { class: "check" }, checkbox("opt-shut_wins", o.shut_wins, (v) => (o.shut_wins = v)), el("span", { text: t("opt_shut_wins") })),
    el("label", { class: "check" }, checkbox("opt-hints", S.hints, (v) => (S.hints = v)), el("span", { text: t("opt_hints") })),
    field(t("opt_seed"), el("input", { id: "opt-seed", inputmode: "numeric", value: S.seed, oninput: (event) => (S.seed = event.target.value.trim()) })),
  );
}

function renderSetup() {
  if (!S.catalog) return;
  for (const button of $$("#who button")) button.setAttribute("aria-pressed", String(button.dataset.who === S.who));
  renderSeats();
  renderRuleFields();
  renderLocalBests();
  $("#join-name").value ||= store.get("name", "");
}

function createBody(overrides = {}) {
  const rules = {};
  for (const [key, value] of Object.entries({ ...S.options, ...overrides })) {
    if (value !== null && value !== undefined) rules[key] = value;
  }
  if (rules.max_tiles === undefined) rules.max_tiles = null;
  const seats = S.seats.map((seat) =>
    seat.kind === "remote" ? { kind: "remote" } : seat.kind === "bot" ? { kind: "bot", name: (seat.name || "").trim(), bot: seat.bot } : { kind: "here", name: (seat.name || "").trim() },
  );
  const body = { preset: S.preset, rules, seats, rounds: S.rounds, hints: S.hints };
  if (/^-?\d+$/.test(S.seed)) body.seed = Number(S.seed);
  return body;
}

async function startGame(body, errorBox = "#setup-error") {
  $(errorBox).hidden = true;
  try {
    const created = await api("/api/rooms", { method: "POST", body });
    S.lastBody = { ...body, seed: undefined };
    rememberRoom(created.code, created.token);
    goToRoom(created.code);
  } catch (error) {
    showError(errorBox, error);
  }
}

function quickSolo(tiles) {
  const body = createBody({ tiles, mode: "solo" });
  startGame({ ...body, seats: [{ kind: "here", name: playerName() }], rounds: 1, seed: undefined });
}

function goToRoom(code) {
  const target = `#/room/${code}`;
  if (location.hash === target) route(); // joining from the room's own link: no hashchange
  else location.hash = target;
}

function rememberRoom(code, token) {
  const rooms = store.get("rooms", {});
  rooms[code] = token;
  const codes = Object.keys(rooms);
  for (const old of codes.slice(0, Math.max(0, codes.length - 30))) delete rooms[old];
  store.set("rooms", rooms);
}

async function joinRoom(event) {
  event.preventDefault();
  const code = $("#join-code").value.trim().toUpperCase();
  const name = $("#join-name").value.trim();
  $("#join-error").hidden = true;
  try {
    const joined = await api(`/api/rooms/${encodeURIComponent(code)}/join`, { method: "POST", body: { name } });
    store.set("name", name);
    rememberRoom(joined.code, joined.token);
    goToRoom(joined.code);
  } catch (error) {
    showError("#join-error", error);
  }
}

// -- bests ---------------------------------------------------------------------------
function rulesSummary(rules) {
  const parts = [optionLabel("one_die", rules.one_die), optionLabel("scoring", rules.scoring)];
  if (rules.max_tiles) parts.push(`${t("opt_max_tiles")}: ${rules.max_tiles}`);
  if (rules.one_die_forced) parts.push(t("opt_one_die_forced"));
  if (rules.doubles_extra_turn) parts.push(t("opt_doubles_extra_turn"));
  return parts.join(" · ");
}

// The server's rules key ("one_die=high-shut,scoring=sum,…") as an object of options, for display.
function keyOptions(key) {
  const options = {};
  for (const part of key.split(",")) {
    const [name, value] = part.split("=");
    options[name] = value === "true" ? true : value === "false" ? false : value === "null" ? null : value;
  }
  return options;
}

function renderLocalBests() {
  const list = $("#local-bests");
  const bests = Object.values(store.get("bests", {})).sort((a, b) => a.tiles - b.tiles || a.score - b.score);
  list.replaceChildren();
  if (!bests.length) list.append(el("li", { class: "muted", text: t("bests_none") }));
  for (const best of bests) {
    list.append(el("li", { class: "best", "data-tiles": String(best.tiles), text: t("best_line", { tiles: best.tiles, rules: rulesSummary(best.rules), score: best.score, grade: best.grade }) }));
  }
}

function recordLocalBest(room, turn) {
  const bests = store.get("bests", {});
  const old = bests[room.rules_key];
  const isNew = !old || turn.score < old.score;
  if (isNew) {
    bests[room.rules_key] = { tiles: room.rules.tiles, rules: room.rules, score: turn.score, grade: turn.grade, when: new Date().toISOString() };
    store.set("bests", bests);
  }
  return { best: bests[room.rules_key], isNew };
}

// -- the room --------------------------------------------------------------------------
function openRoom(code) {
  if (S.code === code && S.socket) {
    showView("game");
    return;
  }
  leaveRoom();
  const token = store.get("rooms", {})[code];
  if (!token) {
    showView("setup");
    renderSetup();
    $("#join-code").value = code;
    $("#join-name").focus();
    return;
  }
  S.code = code;
  S.token = token;
  S.room = null;
  S.lastSeq = -1;
  S.historySeen = 0;
  S.overSeen = false;
  S.hint = null;
  S.selected.clear();
  $("#log").replaceChildren();
  for (const id of ["#hint", "#result", "#review"]) $(id).hidden = true;
  showView("game");
  S.socket = new RoomSocket(code, token, {
    state: (message) => receiveState(message.state),
    error: (message) => receiveError(message),
    hint: (message) => receiveHint(message.advice),
    online: (up) => {
      if (!up) toast(t("offline"));
    },
  });
}

function leaveRoom() {
  if (S.socket) S.socket.close();
  S.socket = null;
  S.code = null;
  S.room = null;
}

function send(message) {
  if (!S.socket) return;
  S.busy = true;
  S.socket.send(message);
  renderControls();
}

function receiveError(message) {
  S.busy = false;
  S.autoRoll = false;
  if (S.hintPending) {
    S.hintPending = false;
    $("#hint").hidden = true;
  }
  toast(errorText(message.error, message.detail));
  if (message.error === "not-found") {
    const rooms = store.get("rooms", {});
    delete rooms[S.code];
    store.set("rooms", rooms);
    location.hash = "#/"; // the room is gone (the server restarted): back to the setup
    return;
  }
  renderControls();
}

function receiveHint(advice) {
  S.hint = advice;
  renderHint();
}

function nameOf(room, seat) {
  return room.seats[seat]?.name ?? `#${seat}`;
}

function receiveState(room) {
  const first = S.room === null;
  const previous = S.room;
  S.room = room;
  S.busy = false;
  if (!previous || previous.events !== room.events) {
    S.selected.clear();
    S.hint = null;
    S.hintPending = false;
  }
  narrate(room, first);
  if (S.autoRoll) {
    S.autoRoll = false;
    if (room.match?.phase === "roll" && mine(room)) {
      send({ type: "roll" });
    }
  }
  renderGame();
}

// Announce what happened since the last state: rolls (and animate the dice), moves, turn ends.
function narrate(room, first) {
  const match = room.match;
  const fresh = room.recent.filter((event) => event.seq > S.lastSeq);
  if (first) {
    S.lastSeq = room.events - 1;
    S.historySeen = match ? match.history.length : 0;
    S.overSeen = room.status === "over";
    const lastRoll = [...room.recent].reverse().find((e) => e.kind === "roll");
    if (lastRoll) showDice(lastRoll.dice);
    if (room.status === "over") finish(room);
    return;
  }
  let lastRoll = null;
  for (const event of fresh) {
    const name = nameOf(room, event.player);
    if (event.kind === "roll") {
      lastRoll = event;
      announce(t("an_roll", { name, faces: event.dice.join(" + "), total: sum(event.dice) }));
    } else if (event.kind === "move" && match) {
      const opened = room.rules.mode === "long" && event.tiles.every((tile) => match.board.open.includes(tile));
      announce(t(opened ? "an_opened" : "an_shut", { name, tiles: tilesText(event.tiles) }));
    }
  }
  S.lastSeq = room.events - 1;
  if (lastRoll) animateDice(lastRoll.dice);
  if (match) {
    for (const turn of match.history.slice(S.historySeen)) {
      const name = nameOf(room, turn.player);
      if (turn.score === null) continue;
      announce(turn.open.length === 0 ? t("an_shutbox", { name }) : t("an_turn", { name, score: turn.score, grade: turn.grade }));
    }
    S.historySeen = match.history.length;
  }
  if (room.status === "over" && !S.overSeen) {
    S.overSeen = true;
    announce(match.winner_name ? t("winner", { name: match.winner_name }) : t("draw"));
    finish(room);
  }
}

// -- dice ----------------------------------------------------------------------------------
function dieFace(face, extra = "") {
  const die = el("span", { class: `die ${extra}`, "data-face": String(face) });
  for (let i = 0; i < 9; i += 1) die.append(el("span", { class: "pip" }));
  return die;
}

function showDice(faces) {
  const tray = $("#dice");
  tray.replaceChildren(...faces.map((face) => dieFace(face)));
  tray.setAttribute("aria-label", faces.length ? t("dice_label", { faces: faces.join(" + ") }) : t("dice_none"));
  tray.dataset.faces = faces.join(",");
}

function animateDice(faces) {
  const tray = $("#dice");
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
    showDice(faces);
    return;
  }
  clearInterval(S.rolling);
  let step = 0;
  const spin = faces.map((face) => face);
  tray.classList.add("rolling");
  S.rolling = setInterval(() => {
    step += 1;
    for (let i = 0; i < spin.length; i += 1) spin[i] = (spin[i] % 6) + 1 + (i % 2); // a tumbling cycle, not chance
    for (let i = 0; i < spin.length; i += 1) if (spin[i] > 6) spin[i] -= 6;
    tray.replaceChildren(...spin.map((face) => dieFace(face, "tumble")));
    if (step >= 8) {
      clearInterval(S.rolling);
      S.rolling = null;
      tray.classList.remove("rolling");
      showDice(faces);
    }
  }, 70);
  tray.setAttribute("aria-label", t("dice_label", { faces: faces.join(" + ") }));
  tray.dataset.faces = faces.join(",");
}

// -- rendering the game ------------------------------------------------------------------------
function mine(room) {
  const match = room.match;
  return Boolean(match && match.actor !== null && room.you.includes(match.actor));
}

function renderGame() {
  const room = S.room;
  if (!room) return;
  const match = room.match;
  const remote = room.seats.some((seat) => seat.kind === "remote");
  const info = $("#room-info");
  info.replaceChildren(el("strong", { text: t("room", { code: room.code }) }));
  if (match && match.rounds > 1) info.append(" · ", t("round_of", { round: match.round, rounds: match.rounds }));
  if (match && match.tiebreak) info.append(" · ", t("tiebreak"));
  if (match && room.rules.stake) info.append(" · ", t("pot", { pot: match.pot }));
  $("#rules-info").textContent = `${t("tiles_n", { n: room.rules.tiles })} · ${optionLabel("mode", room.rules.mode)} · ${rulesSummary(room.rules)}`;

  const waiting = $("#waiting");
  waiting.hidden = room.status !== "waiting" && !(remote && room.status === "playing" && room.events === 0);
  if (!waiting.hidden) renderWaiting(room);

  renderPlayers(room);
  renderTiles(room);
  renderStatus(room);
  renderControls();
  renderHint();
  $("#result").hidden = room.status !== "over";
  if (room.status !== "over") $("#review").hidden = true;
}

function renderWaiting(room) {
  const link = `${location.origin}/#/room/${room.code}`;
  const missing = room.seats.filter((seat) => !seat.joined).length;
  const box = $("#waiting");
  box.replaceChildren(
    el("p", { text: t("share", { code: room.code }) }),
    el("p", {}, el("a", { href: link, id: "share-link", text: link }), " ", el("button", { type: "button", class: "small", text: t("copy"), onclick: () => navigator.clipboard?.writeText(link).then(() => toast(t("copied"))) })),
    el("p", { class: "code", id: "room-code", text: room.code }),
  );
  if (missing) box.append(el("p", { class: "muted", text: t("waiting_for", { n: missing }) }));
}

function renderPlayers(room) {
  const match = room.match;
  const list = $("#players");
  list.replaceChildren();
  for (const seat of room.seats) {
    const active = match && match.actor === seat.index;
    const scores = match ? match.history.filter((turn) => turn.player === seat.index && turn.round === match.round) : [];
    const last = scores.at(-1);
    const badges = [];
    if (room.you.includes(seat.index)) badges.push(t("you"));
    if (seat.kind === "bot") badges.push(`${t("bot")} · ${seat.bot}`);
    if (seat.kind === "remote") badges.push(`${t("online")} · ${seat.connected ? t("connected") : t("away")}`);
    const item = el(
      "li",
      { class: `player${active ? " active" : ""}${match && match.winner === seat.index ? " won" : ""}${match && !match.alive[seat.index] ? " out" : ""}`, "aria-current": active ? "true" : null },
      el("span", { class: "name", text: seat.name ?? "…" }),
      badges.length ? el("span", { class: "badges", text: badges.join(" · ") }) : null,
    );
    if (last && last.score !== null) item.append(el("span", { class: "score", text: `${last.score} (${last.grade})` }));
    if (match && room.rules.mode === "elimination") item.append(el("span", { class: "total", text: `${t("totals")}: ${match.totals[seat.index]}` }));
    if (match && room.rules.stake) item.append(el("span", { class: "ledger", text: `${t("ledger")}: ${match.ledger[seat.index] > 0 ? "+" : ""}${match.ledger[seat.index]}` }));
    if (match && match.winner === seat.index && room.seats.length > 1) item.append(el("span", { class: "crown", "aria-hidden": "true", text: "♛" }));
    list.append(item);
  }
}

function selectableTiles(room) {
  const match = room.match;
  if (!match || match.phase !== "move" || !mine(room) || S.busy) return new Set();
  return new Set(match.legal_moves.flat());
}

function renderTiles(room) {
  const box = $("#tiles");
  const size = room.match ? room.match.board.size : room.rules.tiles;
  const open = new Set(room.match ? room.match.board.open : Array.from({ length: size }, (_, i) => i + 1));
  if (box.children.length !== size) {
    box.replaceChildren();
    for (let n = 1; n <= size; n += 1) {
      box.append(el("button", { type: "button", class: "tile", "data-tile": String(n), onclick: () => toggleTile(n) }, el("span", { class: "num", text: String(n) })));
    }
  }
  box.dataset.n = String(size);
  box.dataset.legal = JSON.stringify(room.match ? room.match.legal_moves : []);
  const selectable = selectableTiles(room);
  const hinted = new Set(S.hint?.choices?.[0]?.shut ?? []);
  for (const button of box.children) {
    const n = Number(button.dataset.tile);
    const isOpen = open.has(n);
    const selected = S.selected.has(n);
    button.classList.toggle("shut", !isOpen);
    button.classList.toggle("selected", selected);
    button.classList.toggle("hinted", hinted.has(n));
    button.disabled = !selectable.has(n);
    button.setAttribute("aria-pressed", String(selected));
    button.setAttribute("aria-label", t(selected ? "tile_selected" : isOpen ? "tile_open" : "tile_shut", { n }));
  }
}

function currentTotal(room) {
  const roll = room.match?.roll;
  return roll ? sum(roll) : 0;
}

function selectionIsLegal(room) {
  const match = room.match;
  return Boolean(match && match.phase === "move" && match.legal_moves.some((move) => sameSet(move, S.selected)));
}

function renderStatus(room) {
  const match = room.match;
  const status = $("#status");
  const selection = $("#selection");
  const box = $("#box");
  box.dataset.phase = match ? match.phase : room.status;
  box.dataset.status = room.status;
  selection.textContent = "";
  if (!match) {
    status.textContent = t("waiting_for", { n: room.seats.filter((seat) => !seat.joined).length });
    return;
  }
  if (room.status === "over") {
    const turn = match.history[0];
    if (room.rules.mode === "solo" && turn) status.textContent = `${t("your_score", { score: turn.score })} · ${t("grade")} ${turn.grade}`;
    else status.textContent = match.winner_name ? t("winner", { name: match.winner_name }) : t("draw");
    return;
  }
  const name = match.actor_name;
  const me = mine(room);
  const total = currentTotal(room);
  let text;
  if (!me) text = t("st_other", { name });
  else if (match.phase === "roll-off") text = t("st_rolloff_me", { name });
  else if (match.phase === "choose") text = t("st_choose", { name });
  else if (match.phase === "roll") text = t(match.dice_due === 1 ? "st_roll_one" : "st_roll", { name });
  else text = t(match.opening ? "st_move_open" : "st_move", { name, roll: match.roll.join(" + "), total });
  if (me && room.you.length > 1 && room.seats.filter((s) => s.kind === "here").length > 1) text = `${t("st_pass", { name })} ${text}`;
  if (match.extra_turns) text += ` ${t("extra_turns", { n: match.extra_turns })}`;
  status.textContent = text;
  if (me && match.phase === "move") {
    selection.textContent = S.selected.size === 0 ? t("sel_none") : t(selectionIsLegal(room) ? "sel_ok" : "sel_partial", { tiles: tilesText(S.selected), sum: sum([...S.selected]), total });
  }
}

function renderControls() {
  const room = S.room;
  const match = room?.match;
  const me = room ? mine(room) : false;
  const phase = match && room.status === "playing" ? match.phase : null;
  const show = (id, visible, enabled) => {
    const button = $(id);
    button.hidden = !visible;
    button.disabled = !enabled || S.busy;
  };
  show("#btn-roll", phase === "roll" || phase === "roll-off", me);
  show("#btn-one", phase === "choose", me && match.dice_options.includes(1));
  show("#btn-two", phase === "choose", me && match.dice_options.includes(2));
  show("#btn-shut", phase === "move", me && selectionIsLegal(room));
  show("#btn-clear", phase === "move", me && S.selected.size > 0);
  show("#btn-hint", Boolean(room?.hints) && (phase === "choose" || phase === "move"), me);
  $("#shut-label").textContent = t(match?.opening ? "open_btn" : "shut");
  if (room) renderTiles(room);
}

function toggleTile(n) {
  const room = S.room;
  if (!room || !selectableTiles(room).has(n)) return;
  if (S.selected.has(n)) S.selected.delete(n);
  else S.selected.add(n);
  renderStatus(room);
  renderControls();
}

function roll() {
  const match = S.room?.match;
  if (!match || !mine(S.room) || S.busy) return;
  if (match.phase === "choose") chooseDice(Math.max(...match.dice_options));
  else if (match.phase === "roll" || match.phase === "roll-off") send({ type: "roll" });
}

function chooseDice(count) {
  const match = S.room?.match;
  if (!match || match.phase !== "choose" || !mine(S.room) || S.busy || !match.dice_options.includes(count)) return;
  S.autoRoll = true; // the roll follows once the server has taken the choice
  send({ type: "dice", count });
}

function shut() {
  const room = S.room;
  if (!room || !mine(room) || S.busy || !selectionIsLegal(room)) return;
  send({ type: "move", tiles: [...S.selected].sort((a, b) => a - b) });
}

function clearSelection() {
  S.selected.clear();
  if (S.room) {
    renderStatus(S.room);
    renderControls();
  }
}

function askHint() {
  const room = S.room;
  if (!room || !room.hints || !mine(room)) return;
  $("#hint").hidden = false;
  $("#hint").replaceChildren(el("p", { class: "muted", text: t("loading") }));
  S.hintPending = true;
  S.socket.send({ type: "hint" });
}

function formatValue(advice, value) {
  return advice.objective === "score" ? value.toFixed(2) : `${(100 * value).toFixed(1)} %`;
}

function renderHint() {
  const box = $("#hint");
  const advice = S.hint;
  if (!advice) {
    if (!S.hintPending) box.hidden = true;
    return;
  }
  S.hintPending = false;
  box.hidden = false;
  const objective = t(`obj_${advice.objective}`, { target: advice.target });
  const list = el("ol", { class: "choices" });
  for (const choice of advice.choices) {
    const label = choice.shut ? tilesText(choice.shut) : t(choice.dice === 1 ? "one_die" : "two_dice");
    const use = el("button", {
      type: "button",
      class: "small",
      text: t("hint_use"),
      onclick: () => {
        if (choice.shut) {
          S.selected = new Set(choice.shut);
          renderStatus(S.room);
          renderControls();
        } else chooseDice(choice.dice);
      },
    });
    list.append(el("li", {}, el("strong", { text: label }), ` ${formatValue(advice, choice.value)}`, choice.loss > 0 ? el("span", { class: "muted", text: ` (${t("loss")} ${formatValue(advice, choice.loss)})` }) : null, " ", use));
  }
  box.replaceChildren(el("h3", { text: `${t("hint_title")}: ${objective}` }), list);
  renderTiles(S.room);
}

// -- the end: score, grade, bests, review ------------------------------------------------------------
async function finish(room) {
  const match = room.match;
  const box = $("#result");
  box.hidden = false;
  const parts = [el("h3", { text: t("result_title") })];
  const solo = room.rules.mode === "solo";
  if (solo) {
    const turn = match.history[0];
    parts.push(
      el("p", { class: "final" }, el("span", { class: `grade grade-${turn.grade}`, id: "final-grade", "aria-label": `${t("grade")} ${turn.grade}`, text: turn.grade }), el("span", { class: "final-score", id: "final-score", text: t("your_score", { score: turn.score }) })),
    );
    if (room.you.includes(0)) {
      if (S.bestFor !== room.code) {
        S.bestFor = room.code;
        S.bestInfo = recordLocalBest(room, turn);
      }
      const { best, isNew } = S.bestInfo;
      parts.push(el("p", { id: "best-local" }, t("best_local", { tiles: room.rules.tiles, score: best.score }), isNew ? el("strong", { class: "new-best", text: ` ${t("best_new")}` }) : null));
    }
    parts.push(el("p", { id: "best-server", class: "muted" }));
  } else {
    parts.push(el("p", { class: "winner", id: "winner", text: match.winner_name ? t("winner", { name: match.winner_name }) : t("draw") }));
    const turns = el("ul", { class: "turns" });
    for (const turn of match.history) {
      if (turn.score === null) continue;
      turns.append(el("li", { text: t("turn_row", { name: nameOf(room, turn.player), open: turn.open.length ? turn.open.join(", ") : t("box_shut"), score: turn.score }) }));
    }
    parts.push(turns);
  }
  if (room.saved_game_id) parts.push(el("p", { class: "muted", text: t("saved", { id: room.saved_game_id }) }));
  parts.push(
    el("div", { class: "actions" },
      el("button", { type: "button", id: "btn-review", onclick: showReview, text: t("review_btn") }),
      el("button", { type: "button", id: "btn-again", class: "primary", onclick: playAgain, text: t("again") }),
      el("button", { type: "button", id: "btn-new", onclick: () => (location.hash = "#/"), text: t("new_game") }),
    ),
  );
  box.replaceChildren(...parts);
  if (solo) {
    const name = room.seats[0].name;
    try {
      const data = await api(`/api/players/${encodeURIComponent(name)}/bests?tiles=${room.rules.tiles}`);
      const best = data.bests.find((entry) => entry.rules_key === room.rules_key);
      if (best) $("#best-server").textContent = t("best_server", { name, score: best.score });
    } catch {
      /* the server best is a bonus; the local one is shown */
    }
  }
}

function playAgain() {
  const room = S.room;
  const body = S.lastBody || {
    preset: "classic",
    rules: room.rules,
    seats: room.seats.map((seat) =>
      room.you.includes(seat.index) ? { kind: "here", name: seat.name } : seat.kind === "bot" ? { kind: "bot", name: seat.name, bot: seat.bot } : { kind: "remote" },
    ),
    rounds: room.match?.rounds ?? 1,
    hints: room.hints,
  };
  delete body.seed;
  startGame(body, "#toast");
}

function actionText(action) {
  if (!action) return "—";
  if (action.dice) return t(action.dice === 1 ? "one_die" : "two_dice");
  return tilesText(action.shut);
}

async function showReview() {
  const box = $("#review");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: t("loading") }));
  try {
    const review = await api(`/api/rooms/${S.code}/review`);
    const parts = [el("h3", { text: t("review_title") })];
    for (const [name, pct] of Object.entries(review.accuracy)) parts.push(el("p", { class: "accuracy", text: t("accuracy", { name, pct }) }));
    if (!review.decisions.length) parts.push(el("p", { text: t("review_none") }));
    const table = el("table", { class: "review-table" });
    table.append(el("thead", {}, el("tr", {}, ...["col_n", "col_player", "col_board", "col_roll", "col_chosen", "col_best", "col_loss", "col_verdict"].map((key) => el("th", { scope: "col", text: t(key) })))));
    const body = el("tbody");
    review.decisions.forEach((d, i) => {
      body.append(
        el("tr", { class: `verdict-${d.verdict}` },
          el("td", { text: String(i + 1) }),
          el("td", { text: d.player }),
          el("td", { text: d.open.join(" ") || "—" }),
          el("td", { text: d.roll ? d.roll.join(" + ") : "—" }),
          el("td", { text: actionText(d.chosen) }),
          el("td", { text: actionText(d.best) }),
          el("td", { text: d.loss > 0 ? (d.objective === "score" ? d.loss.toFixed(2) : `${(100 * d.loss).toFixed(1)} %`) : "0" }),
          el("td", { class: "verdict", text: t(`verdict_${d.verdict}`) }),
        ),
      );
    });
    table.append(body);
    parts.push(el("div", { class: "table-wrap" }, table));
    box.replaceChildren(...parts);
    box.scrollIntoView({ block: "nearest" });
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", text: errorText(error.code, error.message) }));
  }
}

// -- rules and scores pages -----------------------------------------------------------------------------
function renderRules() {
  $("#rules-text").innerHTML = RULES[document.documentElement.lang] || RULES.en;
}

async function renderScores() {
  for (const button of $$("#board-tiles button")) button.setAttribute("aria-pressed", String(Number(button.dataset.tiles) === S.boardTiles));
  const board = $("#leaderboard");
  const o = S.options;
  const query = new URLSearchParams({ preset: S.preset, tiles: String(S.boardTiles) });
  for (const key of ["one_die", "scoring"]) if (o[key]) query.set(key, o[key]);
  query.set("one_die_forced", String(Boolean(o.one_die_forced)));
  if (o.max_tiles) query.set("max_tiles", String(o.max_tiles));
  if (o.doubles_extra_turn !== null && o.doubles_extra_turn !== undefined) query.set("doubles_extra_turn", String(o.doubles_extra_turn));
  board.replaceChildren(el("p", { class: "muted", text: t("loading") }));
  try {
    const data = await api(`/api/leaderboard?${query}`);
    const parts = [el("h3", { text: t("board_title", { tiles: data.tiles }) })];
    if (!data.entries.length) parts.push(el("p", { text: t("board_none") }));
    else {
      const table = el("table", { class: "board-table" });
      table.append(el("thead", {}, el("tr", {}, ...["col_rank", "col_player", "col_best_score", "col_average", "col_turns", "col_shut"].map((key) => el("th", { scope: "col", text: t(key) })))));
      const body = el("tbody");
      for (const e of data.entries) body.append(el("tr", {}, ...[e.rank, e.player, e.best, e.average, e.turns, e.shut_boxes].map((v) => el("td", { text: String(v) }))));
      table.append(body);
      parts.push(el("div", { class: "table-wrap" }, table));
    }
    board.replaceChildren(...parts);
  } catch (error) {
    board.replaceChildren(el("p", { class: "error", text: errorText(error.code, error.message) }));
  }
  const name = playerName();
  const mineBox = $("#server-bests");
  mineBox.replaceChildren();
  try {
    const data = await api(`/api/players/${encodeURIComponent(name)}/bests`);
    const list = el("ul", { class: "best-list" });
    for (const b of data.bests) list.append(el("li", { text: `${t("tiles_n", { n: b.tiles })} · ${rulesSummary(keyOptions(b.rules_key))}: ${b.score} (${b.grade})` }));
    mineBox.replaceChildren(el("h3", { text: t("server_bests", { name }) }), data.bests.length ? list : el("p", { text: t("server_bests_none", { name }) }));
  } catch {
    /* nothing to show */
  }
}

// -- keyboard -------------------------------------------------------------------------------------------------
function onKey(event) {
  if (S.view !== "game" || !S.room) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea")) return;
  const key = event.key;
  const match = S.room.match;
  if (!match) return;
  if (/^[1-9]$/.test(key) || key in KEY_TILES) {
    if (match.phase === "choose" && (key === "1" || key === "2")) chooseDice(Number(key));
    else toggleTile(/^[1-9]$/.test(key) ? Number(key) : KEY_TILES[key]);
    event.preventDefault();
  } else if (key === "Enter") {
    if (target.tagName === "BUTTON" && !target.classList.contains("tile")) return; // the button's own action
    shut();
    event.preventDefault();
  } else if (key === "r" || key === "R") {
    roll();
    event.preventDefault();
  } else if (key === "h" || key === "H") {
    askHint();
    event.preventDefault();
  } else if (key === "Escape" || key === "Backspace") {
    clearSelection();
    event.preventDefault();
  }
}

// -- language ---------------------------------------------------------------------------------------------------
function switchLang(lang) {
  setLang(lang);
  store.set("lang", lang);
  localStorage.setItem("stb.lang", lang);
  for (const button of $$(".lang")) button.setAttribute("aria-pressed", String(button.dataset.lang === lang));
  translatePage();
  renderSetup();
  if (S.view === "rules") renderRules();
  if (S.view === "scores") renderScores();
  if (S.room) {
    renderGame();
    if (S.room.status === "over" && !$("#result").hidden) finish(S.room).then(() => ($("#review").hidden ? null : showReview()));
  }
}

// -- start ----------------------------------------------------------------------------------------------------------
async function main() {
  setLang(detectLang());
  for (const button of $$(".lang")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === document.documentElement.lang));
    button.addEventListener("click", () => switchLang(button.dataset.lang));
  }
  translatePage();
  for (const button of $$("#who button")) button.addEventListener("click", () => chooseWho(button.dataset.who));
  for (const button of $$("[data-quick]")) button.addEventListener("click", () => quickSolo(Number(button.dataset.quick)));
  for (const button of $$("#board-tiles button")) {
    button.addEventListener("click", () => {
      S.boardTiles = Number(button.dataset.tiles);
      renderScores();
    });
  }
  $("#add-seat").addEventListener("click", () => {
    S.seats.push({ kind: "here", name: t("player_n", { n: S.seats.length + 1 }) });
    renderSeats();
    $(`#seat-name-${S.seats.length - 1}`)?.focus();
  });
  $("#setup").addEventListener("submit", (event) => {
    event.preventDefault();
    startGame(createBody());
  });
  $("#join").addEventListener("submit", joinRoom);
  $("#btn-roll").addEventListener("click", roll);
  $("#btn-one").addEventListener("click", () => chooseDice(1));
  $("#btn-two").addEventListener("click", () => chooseDice(2));
  $("#btn-shut").addEventListener("click", shut);
  $("#btn-clear").addEventListener("click", clearSelection);
  $("#btn-hint").addEventListener("click", askHint);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  try {
    S.catalog = await api("/api/rules");
    applyPreset("classic");
    S.seats = defaultSeats("solo");
    S.options.mode = "solo";
  } catch (error) {
    showError("#setup-error", navigator.onLine === false ? new Error(t("offline")) : error); // offline: rules still readable
  }
  renderSetup();
  route();
  document.body.dataset.ready = "true";
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
}

main();

export { LANGS, ApiError };
