// After the game: the review of every decision (each number with its unit, each player's accuracy),
// and the game verified here, in the browser: every die recomputed from the revealed seed.

import { _, ngettext } from "./i18n.js";
import { api } from "./net.js";
import { $, el, wide } from "./dom.js";
import { failure, optionLabel } from "./words.js";
import { seenDiffers, verifyRecord } from "./verify.js";
import { tilesText } from "./room-facts.js";
import { diceCount } from "./narration.js";
import { now } from "./state.js";
import { fairFacts } from "./saved.js";
import { decimal, formatLoss } from "./hints.js";

/** @param {{ dice?: number, shut?: number[] } | null} action */
function actionText(action) {
  if (!action) return "—";
  if (action.dice) return diceCount(action.dice);
  return tilesText(action.shut ?? []);
}

// The review names the unit of every number: a score objective's loss is in points of expected score,
// a chance's in percentage points; the column says which, each cell too when a game mixes them.
export async function showReview() {
  const { code, token } = now().connection;
  const box = $("#review");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  try {
    const review = await api(`/api/rooms/${code}/review`, { token }); // a daily room's is its player's
    const parts = [el("h3", { text: _("Review") })];
    /** @type {{ objective: string, loss: number, player: string, open: number[], roll: number[] | null, chosen: any, best: any, verdict: string }[]} */
    const decisions = review.decisions;
    for (const [name, pct] of Object.entries(review.accuracy)) parts.push(el("p", { class: "accuracy", text: _("Accuracy of {name}: {pct}%", { name, pct: decimal(Number(pct), Number.isInteger(Number(pct)) ? 0 : 1) }) }));
    if (!decisions.length) parts.push(el("p", { text: _("No decision had a real choice.") }));
    const points = decisions.some((d) => d.objective === "score");
    const stakes = decisions.some((d) => d.objective === "stake");
    const chances = decisions.some((d) => d.objective !== "score" && d.objective !== "stake");
    const notes = [_("Accuracy: the share of the best choice's value kept, on average over the decisions that had a choice.")];
    if (points) notes.push(_("Points lost: the points of expected final score a choice gives up against the best one (lower scores are better)."));
    if (chances) notes.push(_("Percentage points lost: the chance a choice gives up against the best one (45% where 50% was possible loses 5 percentage points)."));
    if (stakes) notes.push(_("Stakes lost: what a choice gives up against the best one in the round's expected winnings, in stakes."));
    if (decisions.length) parts.push(el("ul", { class: "muted review-notes" }, ...notes.map((text) => el("li", { text }))));
    const mixed = Number(points) + Number(stakes) + Number(chances) > 1;
    const lossColumn = mixed ? _("Loss") : points ? _("Points lost") : stakes ? _("Stakes lost") : _("Percentage points lost");
    // Translators: the column of the decision's number in the review.
    const columns = [_("#"), _("Player"), _("Open tiles"), _("Roll"), _("Chosen"), _("Best"), lossColumn, _("Verdict")];
    const lossText = (/** @type {typeof decisions[number]} */ d) => {
      if (d.loss <= 0) return "0";
      if (mixed) return formatLoss(d.objective, d.loss);
      if (d.objective === "stake") return decimal(d.loss, 3);
      return d.objective === "score" ? decimal(d.loss, 2) : decimal(100 * d.loss, 1);
    };
    const table = el("table", { class: "review-table" });
    table.append(el("thead", {}, el("tr", {}, ...columns.map((text) => el("th", { scope: "col", text })))));
    const body = el("tbody");
    decisions.forEach((d, i) => {
      const cells = [
        [String(i + 1), "col-number"],
        [d.player, "col-player"],
        [d.open.join(" ") || "—", "col-open"],
        [d.roll ? d.roll.join(" + ") : "—", "col-roll"],
        [actionText(d.chosen), "col-chosen"],
        [actionText(d.best), "col-best"],
        [lossText(d), "col-loss"],
        [optionLabel("verdict", d.verdict), "col-verdict verdict"],
      ];
      // data-label: a phone shows each row as a block, every cell headed by its column's name
      body.append(el("tr", { class: `verdict-${d.verdict}` },
        ...cells.map(([text, kind], k) => el("td", { class: kind, "data-label": columns[k], text }))));
    });
    table.append(body);
    parts.push(wide(table, _("Review")));
    box.replaceChildren(...parts);
    box.scrollIntoView({ block: "nearest" });
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", text: failure(error) }));
  }
}

// -- verifying the game: every die recomputed here, in the browser -----------------------------------
// Besides the record itself: the commitment must be the one this page saw before the first roll,
// and this browser's client seed must be among the seeds every die was drawn from.
/** @param {any} record @returns {{ ok: boolean, text: string, id?: string }[]} */
function browserChecks(record) {
  const fair = record.fairness;
  if (!fair) return [];
  const known = fairFacts(String(now().connection.code));
  const checks = [];
  if (known.commitment) {
    checks.push(known.commitment === fair.commitment
      ? { ok: true, text: _("The commitment is the one this page showed before the first roll.") }
      : { ok: false, text: _("The record's commitment is not the one this page showed before the first roll.") });
  }
  if (known.seed) {
    checks.push(fair.client_seeds.includes(known.seed)
      ? { ok: true, text: _("Your client seed {seed} is in every die.", { seed: known.seed }) }
      : { ok: false, text: _("Your client seed {seed} is missing from the record.", { seed: known.seed }) });
  }
  return checks;
}

// The events this page received while the game was played, against the record's.
/** @param {any} record */
function seenCheck(record) {
  const seen = now().server.seen;
  if (!seen.size) return [];
  const differs = seenDiffers(record, seen);
  if (differs) return [{ ok: false, id: "verdict-seen", text: _("Event {index} of the record is not what this page saw during the game.", differs) }];
  return [{ ok: true, id: "verdict-seen", text: ngettext("The {n} event this page saw during the game is in the record as it was seen.", "The {n} events this page saw during the game are in the record as they were seen.", seen.size) }];
}

/** @param {{ proven: boolean, reason: string, values: Record<string, unknown>, dice: number }} verdict */
function verdictText(verdict) {
  if (!verdict.proven) return _(verdict.reason, verdict.values);
  return ngettext(
    "Every die comes from the revealed seed ({n} die recomputed); every move adds up to its roll on tiles of the board.",
    "Every die comes from the revealed seed ({n} dice recomputed); every move adds up to its roll on tiles of the board.",
    verdict.dice,
  );
}

// The record as a file, for `shutthebox verify` or anyone's own check.
/** @param {unknown} record */
function recordLink(record) {
  const href = `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(record, null, 1))}`;
  return el("a", { href, download: `shutthebox-${now().connection.code}.json`, text: _("Download the record (JSON)") });
}

export async function showVerify() {
  const code = now().connection.code;
  const box = $("#verify");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  let record;
  try {
    record = await api(`/api/rooms/${code}/record`, { token: now().connection.token }); // a private room's is its players'
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", text: failure(error) }));
    return;
  }
  const title = el("h3", { text: _("Verify this game") });
  const download = el("p", {}, recordLink(record));
  if (!globalThis.crypto?.subtle) { // Web Crypto is only given to secure pages
    box.replaceChildren(title, el("p", { class: "error", text: _("This browser verifies on secure pages only (https, or this computer): download the record and check it with shutthebox verify.") }), download);
    return;
  }
  const verdict = await verifyRecord(record);
  const checks = [{ ok: verdict.proven, text: verdictText(verdict), id: "verdict-dice" }, ...browserChecks(record), ...seenCheck(record)];
  const proven = checks.every((check) => check.ok);
  box.dataset.proven = String(proven);
  box.dataset.event = String(verdict.event ?? "");
  box.replaceChildren(
    title,
    // Translators: the verdict of the page's check: the dice (not every rule of the game).
    el("p", { id: "verdict", class: `verdict ${proven ? "proven" : "failed"}`, text: proven ? `✓ ${_("Dice proven")}` : `✗ ${_("Dice not proven")}` }),
    el("ul", { class: "checks" }, ...checks.map((check) => el("li", { id: check.id, class: check.ok ? "proven" : "failed", text: `${check.ok ? "✓" : "✗"} ${check.text}` }))),
    el("p", { class: "muted", id: "verify-scope", text: _("This page recomputes every die with your browser's own cryptography and checks each move's sum and tiles; it does not replay the rules (whose turn it was, which tiles were open, the scores). shutthebox verify replays every rule.") }),
    download,
  );
  box.scrollIntoView({ block: "nearest" });
}

