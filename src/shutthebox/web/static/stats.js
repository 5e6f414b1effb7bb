// "Your statistics": the player's games as the server keeps them (GET /api/players/{name}/stats),
// drawn as inline SVG by the small chart functions below: no library, nothing from another site.
// Each chart is an image named by its summary (role="img", aria-label), the same words shown under it.

import { _, htmlLang, lang, ngettext } from "./i18n.js";
import { api, ApiError } from "./net.js";
import { el, wide } from "./dom.js";
import { failure, keyOptions, rulesSummary, tilesCount } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDE = 360; // every chart's drawing width: its viewBox scales to the card, down to a phone's
const MOST_LABELS = 10; // a histogram names at most this many of its bars under it
/** @typedef {any} Answer the JSON of GET /api/players/{name}/stats, read as it comes (not typed here) */
/** @typedef {{ value: number, label: string, title: string, class?: string, data?: Record<string, unknown> }} Bar */
let drawing = 0; // the latest renderStats: an older answer that comes late is dropped

/** @param {string} tag @param {Record<string, unknown>} [attrs] @param {...(Node | string)} children */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, String(value));
  }
  node.append(...children);
  return node;
}

// What the page keeps in this browser (saved.js writes it): the profile, the solo bests.
/** @param {string} key @param {any} fallback @returns {any} */
function saved(key, fallback) {
  try {
    const raw = localStorage.getItem(`stb.${key}`);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

// A date and time in digits, in the reader's order (no month names: every language reads them).
/** @param {string} iso */
function when(iso) {
  const date = new Date(iso);
  /** @type {Intl.DateTimeFormatOptions} */
  const style = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  try {
    return date.toLocaleString(htmlLang(lang()), style);
  } catch {
    return date.toLocaleString(undefined, style);
  }
}

// A number as the reader's language writes it (a decimal comma in Spanish), at most one decimal.
/** @param {number} value @param {"decimal" | "percent"} [style] */
function number(value, style = "decimal") {
  const shown = style === "percent" ? value / 100 : value;
  try {
    return new Intl.NumberFormat(htmlLang(lang()), { style, maximumFractionDigits: 1 }).format(shown);
  } catch {
    return style === "percent" ? `${value}%` : String(value);
  }
}

/** @param {number} value */
function percent(value) {
  return number(value, "percent");
}

// -- charts ------------------------------------------------------------------------------------
// An SVG image of `height` units named by `summary` (its children are drawing, not text to read).
/** @param {string} kind @param {number} height @param {string} summary */
function chart(kind, height, summary) {
  return svg("svg", { class: `chart chart-${kind}`, viewBox: `0 0 ${WIDE} ${height}`, role: "img", "aria-label": summary, preserveAspectRatio: "xMidYMid meet" });
}

// Vertical bars with their value over each and a label under it (every `step`-th label only).
/** @param {SVGElement} picture @param {Bar[]} items @param {{ top?: number, bottom?: number, step?: number, height: number }} layout */
function bars(picture, items, { top = 16, bottom = 22, step = 1, height }) {
  const most = Math.max(1, ...items.map((item) => item.value));
  const slot = (WIDE - 8) / Math.max(1, items.length);
  const tall = height - top - bottom;
  picture.append(svg("line", { class: "axis", x1: 4, x2: WIDE - 4, y1: height - bottom, y2: height - bottom }));
  items.forEach((item, i) => {
    const x = 4 + i * slot;
    const h = (item.value / most) * tall;
    const rect = svg("rect", { class: `bar ${item.class ?? ""}`, x: x + slot * 0.12, y: height - bottom - h, width: slot * 0.76, height: Math.max(h, 0) }, svg("title", { text: item.title }));
    for (const [name, value] of Object.entries(item.data ?? {})) /** @type {SVGElement} */ (rect).dataset[name] = String(value);
    picture.append(rect);
    if (item.value > 0) picture.append(svg("text", { class: "value", x: x + slot / 2, y: height - bottom - h - 4, text: String(item.value) }));
    if (i % step === 0) picture.append(svg("text", { class: "label", x: x + slot / 2, y: height - 6, text: item.label }));
  });
  return picture;
}

// The score histogram of one board and rules: a bar per score, or per range of scores.
/** @param {Answer} group */
function histogramChart(group) {
  const summary = ngettext(
    "{n} turn with a score, from {lowest} to {highest}, {average} on average.",
    "{n} turns with a score, from {lowest} to {highest}, {average} on average.",
    group.turns, { lowest: group.lowest, highest: group.highest, average: number(group.average) },
  );
  const height = 170;
  const items = group.histogram.map((/** @type {Answer} */ bar) => {
    const scores = bar.low === bar.high ? String(bar.low) : `${bar.low}–${bar.high}`;
    return {
      value: bar.count,
      label: String(bar.low),
      title: ngettext("Score {scores}: {n} turn", "Score {scores}: {n} turns", bar.count, { scores }),
      data: { low: bar.low, high: bar.high, count: bar.count },
    };
  });
  const picture = bars(chart("scores", height, summary), items, { height, step: Math.ceil(items.length / MOST_LABELS) });
  return figure(picture, _("Scores (the lower, the better)"), summary);
}

/** @param {Answer[]} grades */
function gradesText(grades) {
  return _("Grades: {grades}.", { grades: grades.map((/** @type {Answer} */ g) => `${g.grade} ${g.count}`).join(", ") });
}

/** @param {Answer[]} grades */
function gradesChart(grades) {
  const summary = gradesText(grades);
  const height = 150;
  const items = grades.map((/** @type {Answer} */ g) => ({
    value: g.count,
    label: g.grade,
    class: `grade-bar-${g.grade}`,
    title: ngettext("Grade {grade}: {n} turn", "Grade {grade}: {n} turns", g.count, { grade: g.grade }),
    data: { grade: g.grade, count: g.count },
  }));
  return figure(bars(chart("grades", height, summary), items, { height }), _("Grades"), summary);
}

// Accuracy per reviewed game, oldest to newest, on a 0–100 scale.
/** @param {Answer} accuracy @param {string} summary */
function accuracyChart(accuracy, summary) {
  const height = 170;
  const [left, right, top, bottom] = [44, 10, 12, 22];
  const picture = chart("accuracy", height, summary);
  const y = (/** @type {number} */ pct) => top + (1 - pct / 100) * (height - top - bottom);
  for (const pct of [0, 50, 100]) {
    picture.append(svg("line", { class: pct ? "grid" : "axis", x1: left, x2: WIDE - right, y1: y(pct), y2: y(pct) }));
    picture.append(svg("text", { class: "label tick", x: left - 6, y: y(pct) + 4, text: number(pct, "percent") }));
  }
  /** @type {Answer[]} */
  const games = accuracy.games;
  const step = games.length > 1 ? (WIDE - left - right - 16) / (games.length - 1) : 0;
  const x = (/** @type {number} */ i) => (games.length > 1 ? left + 8 + i * step : (left + WIDE - right) / 2);
  if (games.length > 1) picture.append(svg("polyline", { class: "line", points: games.map((g, i) => `${x(i)},${y(g.accuracy)}`).join(" ") }));
  games.forEach((g, i) => {
    const title = `${when(g.finished_at)}: ${percent(g.accuracy)}`;
    picture.append(svg("circle", { class: "point", cx: x(i), cy: y(g.accuracy), r: 4, "data-accuracy": g.accuracy, "data-game": g.id }, svg("title", { text: title })));
  });
  picture.append(svg("text", { class: "label start", x: left, y: height - 6, text: _("oldest") }));
  picture.append(svg("text", { class: "label end", x: WIDE - right, y: height - 6, text: _("newest") }));
  return figure(picture, _("Accuracy per game")); // its summary is the paragraph above it
}

/** @param {SVGElement} picture @param {string} title @param {string | null} [summary] */
function figure(picture, title, summary = null) {
  const caption = summary === null ? null : el("figcaption", { class: "muted", text: summary });
  return el("figure", { class: "stats-chart" }, el("p", { class: "chart-title", text: title }), picture, caption);
}

// -- sections ------------------------------------------------------------------------------------
/** @param {string} id @param {string} title @param {...(Node | null)} children */
function section(id, title, ...children) {
  return el("section", { class: "stats-part", "aria-labelledby": id }, el("h3", { id, text: title }), ...children);
}

/** @param {number} tiles @param {string} key @param {string} [tag] */
function boardCell(tiles, key, tag = "td") {
  return el(tag, tag === "th" ? { scope: "row" } : {}, el("strong", { text: tilesCount(tiles) }), el("br"), el("span", { class: "rules-line", text: rulesSummary(keyOptions(key)) }));
}

/** @param {Answer[]} groups */
function bestsTable(groups) {
  const table = el("table", { class: "stats-table", id: "stats-bests" }, el("caption", { text: _("Games, average score and best ranked score per board and rules") }));
  const columns = [_("Board and rules"), _("Games"), _("Average"), _("Best")];
  table.append(el("thead", {}, el("tr", {}, ...columns.map((text) => el("th", { scope: "col", text })))));
  const body = el("tbody");
  for (const g of groups) {
    const best = g.best ? `${g.best.score} (${g.best.grade})` : "—";
    body.append(el("tr", { "data-tiles": g.tiles }, boardCell(g.tiles, g.rules_key, "th"), el("td", { text: String(g.games) }), el("td", { text: g.average === null ? "—" : number(g.average) }), el("td", { class: "best", text: best })));
  }
  table.append(body);
  return table;
}

/** @param {Answer[]} groups */
function groupCharts(groups) {
  return groups.filter((g) => g.turns > 0).map((g) =>
    el("div", { class: "stats-group", "data-tiles": g.tiles },
      el("h4", { text: `${tilesCount(g.tiles)} · ${rulesSummary(keyOptions(g.rules_key))}` }),
      el("div", { class: "stats-charts" }, histogramChart(g), gradesChart(g.grades)),
    ));
}

/** @param {Answer} accuracy */
function accuracyPart(accuracy) {
  const about = el("p", { class: "muted", id: "accuracy-about", text: ngettext(
    "Accuracy, as each game's review counts it: at every decision where you had a real choice, the share of the best option's value that your choice kept (100% is the solver's best), averaged over the game. Your last {n} game is reviewed.",
    "Accuracy, as each game's review counts it: at every decision where you had a real choice, the share of the best option's value that your choice kept (100% is the solver's best), averaged over the game. Your last {n} games are reviewed.",
    accuracy.reviewed_most,
  ) });
  if (!accuracy.games.length) return [about, el("p", { id: "accuracy-summary", text: _("No reviewed game yet: a game counts once you had a real choice in it.") })];
  const summary = ngettext(
    "{n} reviewed game: {mean} accuracy on average; the best move at {best} of {decisions} real choices.",
    "{n} reviewed games: {mean} accuracy on average; the best move at {best} of {decisions} real choices.",
    accuracy.games.length, { mean: percent(accuracy.mean), best: accuracy.best, decisions: accuracy.decisions },
  );
  return [about, el("p", { id: "accuracy-summary", text: summary }), accuracyChart(accuracy, summary)];
}

/** @param {string} verdict */
function verdictWord(verdict) {
  /** @type {Record<string, string>} */
  const words = { best: _("best"), good: _("good"), inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };
  return words[verdict] ?? verdict;
}

/** @param {{ dice?: number, shut: number[] }} action */
function actionText(action) {
  if (action.dice) return action.dice === 1 ? _("1 die") : _("2 dice");
  return [...action.shut].sort((a, b) => b - a).join(" + ");
}

// A game's review, asked for when its row is opened.
/** @param {Answer} game @param {HTMLElement} button @param {HTMLElement} cell */
async function showReview(game, button, cell) {
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  /** @type {HTMLElement} */ (cell.closest("tr")).hidden = !open;
  if (!open || cell.dataset.loaded) return;
  cell.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  try {
    const review = await api(game.review);
    /** @type {Answer[]} */
    const decisions = review.decisions;
    const players = new Set(decisions.map((d) => d.player)).size > 1; // a solo game needs no player column
    const table = el("table", { class: "stats-table stats-review" }, el("caption", { text: _("The review of the game of {date}", { date: when(game.finished_at) }) }));
    // Translators: the column of the decision's number in the review.
    const columns = [_("#"), players ? _("Player") : null, _("Roll"), _("Chosen"), _("Best"), _("Verdict")].filter((text) => text !== null);
    table.append(el("thead", {}, el("tr", {}, ...columns.map((text) => el("th", { scope: "col", text })))));
    const body = el("tbody");
    decisions.forEach((d, i) => body.append(el("tr", { class: `verdict-${d.verdict}` },
      el("th", { scope: "row", text: String(i + 1) }), players ? el("td", { text: d.player }) : null, el("td", { text: d.roll ? d.roll.join(" + ") : "—" }),
      el("td", { text: actionText(d.chosen) }), el("td", { text: actionText(d.best) }), el("td", { class: "verdict", text: verdictWord(d.verdict) }))));
    table.append(body);
    cell.replaceChildren(decisions.length ? table : el("p", { text: _("No decision had a real choice.") }));
    cell.dataset.loaded = "true";
  } catch (error) {
    cell.replaceChildren(el("p", { class: "error", text: failure(error) }));
  }
}

/** @param {Answer[]} games */
function lastGames(games) {
  const table = el("table", { class: "stats-table", id: "stats-last" }, el("caption", { text: _("Newest first; open a game's review to see each decision.") }));
  const columns = [_("Game"), _("Score"), _("Accuracy"), _("Review")];
  table.append(el("thead", {}, el("tr", {}, ...columns.map((text) => el("th", { scope: "col", text })))));
  const body = el("tbody");
  for (const game of games) {
    const cell = el("td", { colspan: columns.length, class: "review-cell" });
    const reviewRow = el("tr", { class: "review-row", id: `stats-review-${game.id}`, hidden: true }, cell);
    const button = el("button", { type: "button", class: "small", "aria-expanded": "false", "aria-controls": `stats-review-${game.id}`, text: _("Review") });
    button.addEventListener("click", () => showReview(game, button, cell));
    const kind = game.kind === "ranked" ? _("ranked") : _("unranked");
    body.append(
      el("tr", { class: "game-row", "data-game": game.id },
        el("th", { scope: "row" }, el("span", { text: when(game.finished_at) }), el("br"), el("span", { class: "rules-line", text: `${tilesCount(game.tiles)} · ${kind}` })),
        el("td", { class: "score", "data-score": game.score, text: game.score === null ? "—" : `${game.score} (${game.grade})` }),
        el("td", { text: game.accuracy ? percent(game.accuracy.accuracy) : "—" }),
        el("td", {}, button),
      ),
      reviewRow,
    );
  }
  table.append(body);
  return wide(table, _("Your last games"));
}

// -- without a profile: what this browser holds -------------------------------------------------
function withoutProfile() {
  /** @type {Answer[]} */
  const bests = Object.values(saved("bests", {}));
  bests.sort((a, b) => a.tiles - b.tiles || a.score - b.score);
  const list = el("ul", { class: "best-list", id: "stats-local" });
  if (!bests.length) list.append(el("li", { class: "muted", text: _("No solo game finished yet.") }));
  for (const best of bests) {
    const values = { rules: rulesSummary(best.rules), score: best.score, grade: best.grade };
    list.append(el("li", { "data-tiles": best.tiles, text: ngettext("{n} tile ({rules}): {score} · grade {grade}", "{n} tiles ({rules}): {score} · grade {grade}", best.tiles, values) }));
  }
  const create = el("a", { href: "#/", id: "stats-profile", class: "button-link", text: _("Choose your player name") });
  create.addEventListener("click", (event) => {
    const ask = /** @type {HTMLElement | null} */ (document.querySelector("#profile-create")); // the setup's own button opens its form
    if (ask) { // (profile.js draws it while there is no profile)
      event.preventDefault();
      ask.click();
    } else {
      window.addEventListener("hashchange", () => /** @type {HTMLElement | null} */ (document.querySelector("#profile-input"))?.focus(), { once: true });
    }
  });
  return [
    el("p", { text: _("The server keeps your statistics under your player name, and this browser has none yet. Choose one: every game you play from then on counts.") }),
    el("p", {}, create),
    section("stats-local-title", _("What this browser holds"), list),
  ];
}

// -- the page ---------------------------------------------------------------------------------------
/** @param {Answer} data */
function withData(data) {
  const head = el("p", { id: "stats-head" },
    ngettext("{n} game of {name} on this server", "{n} games of {name} on this server", data.games, { name: data.player }),
    ` · ${ngettext("{n} turn with a score", "{n} turns with a score", data.turns)}`);
  if (!data.games) {
    return [head, el("p", { text: _("No game of {name} stored yet.", { name: data.player }) }), el("p", {}, el("a", { href: "#/", class: "button-link", text: _("Play a game") }))];
  }
  const parts = [head];
  if (data.truncated) parts.push(el("p", { class: "note", text: _("Counted over your newest turns only: you have played a great many.") }));
  parts.push(
    section("stats-bests-title", _("Bests per board and rules"), wide(bestsTable(data.groups), _("Bests per board and rules")),
      el("p", { class: "muted", text: _("Only ranked games count for bests: fair dice, no hint asked.") })),
    section("stats-scores-title", _("Scores and grades"), ...groupCharts(data.groups)),
    section("stats-accuracy-title", _("Accuracy over time"), ...accuracyPart(data.accuracy)),
    section("stats-last-title", _("Your last games"), lastGames(data.last_games)),
  );
  return parts;
}

// Draw the statistics of this browser's profile into `root` (the #view-stats section).
/** @param {HTMLElement} root */
export async function renderStats(root) {
  const body = /** @type {HTMLElement} */ (root.querySelector("#stats-body"));
  document.querySelector("#nav-stats")?.setAttribute("aria-current", "page");
  const me = saved("profile", null);
  const mine = ++drawing;
  delete body.dataset.ready;
  if (!me) {
    body.replaceChildren(...withoutProfile());
    body.dataset.ready = "true";
    return;
  }
  body.setAttribute("aria-busy", "true");
  body.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  let parts;
  try {
    parts = withData(await api(`/api/players/${encodeURIComponent(me.name)}/stats`));
  } catch (error) {
    parts = error instanceof ApiError && error.status === 404
      ? [el("p", { text: _("No game of {name} stored yet.", { name: me.name }) })]
      : [el("p", { class: "error", text: failure(error) })];
  }
  if (mine !== drawing) return;
  body.replaceChildren(...parts);
  body.setAttribute("aria-busy", "false");
  body.dataset.ready = "true";
}
