// The scores page: the leaderboard of the board and the rules chosen in the setup, and the player's
// own bests on this server.

import { _, ngettext, number } from "./i18n.js";
import { api } from "./net.js";
import { $, $$, el, wide } from "./dom.js";
import { failure, keyOptions, rulesSummary, tilesCount } from "./words.js";
import { playerName } from "./saved.js";
import { now } from "./state.js";

export async function renderScores() {
  const { form, presentation } = now();
  for (const button of $$("#board-tiles button")) button.setAttribute("aria-pressed", String(Number(button.dataset.tiles) === presentation.boardTiles));
  const board = $("#leaderboard");
  const o = form.options;
  const query = new URLSearchParams({ preset: form.preset, tiles: String(presentation.boardTiles) });
  for (const key of ["one_die", "scoring"]) if (o[key]) query.set(key, o[key]);
  query.set("one_die_forced", String(Boolean(o.one_die_forced)));
  if (o.max_tiles) query.set("max_tiles", String(o.max_tiles));
  if (o.doubles_extra_turn !== null && o.doubles_extra_turn !== undefined) query.set("doubles_extra_turn", String(o.doubles_extra_turn));
  board.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  try {
    const data = await api(`/api/leaderboard?${query}`);
    const title = ngettext("Leaderboard ({n} tile, the rules chosen in the setup)", "Leaderboard ({n} tiles, the rules chosen in the setup)", data.tiles);
    const parts = [el("h3", { text: title })];
    if (!data.entries.length) parts.push(el("p", { text: _("Nobody has finished a game with these rules yet.") }));
    else {
      const table = el("table", { class: "board-table" });
      const columns = [_("Rank"), _("Player"), _("Best"), _("Average"), _("Turns"), _("Boxes shut")];
      table.append(el("thead", {}, el("tr", {}, ...columns.map((text) => el("th", { scope: "col", text })))));
      const body = el("tbody");
      for (const e of /** @type {Record<string, unknown>[]} */ (data.entries)) body.append(el("tr", {}, ...[e.rank, e.player, e.best, e.average, e.turns, e.shut_boxes].map((v) => el("td", { text: typeof v === "number" ? number(v, Number.isInteger(v) ? 0 : 2) : String(v) }))));
      table.append(body);
      parts.push(wide(table, title));
    }
    board.replaceChildren(...parts);
  } catch (error) {
    board.replaceChildren(el("p", { class: "error", text: failure(error) }));
  }
  const name = playerName();
  const mineBox = $("#server-bests");
  mineBox.replaceChildren();
  try {
    const data = await api(`/api/players/${encodeURIComponent(name)}/bests`);
    const list = el("ul", { class: "best-list" });
    for (const b of /** @type {{ tiles: number, rules_key: string, score: number, grade: string }[]} */ (data.bests)) list.append(el("li", { text: `${tilesCount(b.tiles)} · ${rulesSummary(keyOptions(b.rules_key))}: ${b.score} (${b.grade})` }));
    mineBox.replaceChildren(el("h3", { text: _("Bests of {name} on this server", { name }) }), data.bests.length ? list : el("p", { text: _("No game of {name} stored yet.", { name }) }));
  } catch {
    /* nothing to show */
  }
}

