// The page's engine against the Python engine's answers (tests/vectors/engine.json, tools/vectors.py):
// dice choices, scores, legal moves in order, whole turns step by step, and the hints ranked from the
// prebuilt value tables as the solver ranks them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  chooseDice, diceChoices, fullMask, legalMoves, newTurn, rankDice, rankMoves, rollWith, shutTiles, tilesOf, turnScore,
} from "../../src/shutthebox/web/static/engine.js";

/** @typedef {import("../../src/shutthebox/web/static/engine.js").Rules} Rules */
/** @typedef {import("../../src/shutthebox/web/static/engine.js").Turn} Turn */
/** @typedef {import("../../src/shutthebox/web/static/engine.js").Table} Table */

const root = new URL("../../", import.meta.url);
const vectors = JSON.parse(readFileSync(new URL("tests/vectors/engine.json", root), "utf8"));
const CODES = /** @type {Record<string, number[]>} */ ({ 2: [2], b: [1, 2], 1: [1] });

/** The classic rules with some options changed. @param {Partial<Rules>} changes @returns {Rules} */
function rulesWith(changes) {
  return {
    tiles: 9, one_die: "high-shut", one_die_forced: false, max_tiles: null, scoring: "sum", mode: "solo",
    shut_wins: true, stake: 0, limit: 45, doubles_extra_turn: false, ...changes,
  };
}

/** @param {string} name @returns {Table} */
function table(name) {
  return JSON.parse(readFileSync(new URL(`src/shutthebox/web/static/tables/${name}`, root), "utf8"));
}

test("the vectors cover every board, one-die rule, scoring, max_tiles and doubles", () => {
  const sizes = new Set(vectors.moves.map((/** @type {{tiles: number}} */ g) => g.tiles));
  assert.equal(sizes.size, 12);
  assert.equal(vectors.choices.length, 12 * 4 * 2);
  assert.equal(vectors.scores.length, 12 * 4);
  const turned = vectors.turns.map((/** @type {{rules: Rules}} */ t) => t.rules);
  assert.ok(turned.some((/** @type {Rules} */ r) => r.doubles_extra_turn) && turned.some((/** @type {Rules} */ r) => r.one_die_forced));
  assert.ok(turned.some((/** @type {Rules} */ r) => r.max_tiles === 2));
  assert.ok(vectors.rankings.length >= 8);
});

test("the dice allowed on every mask of every board are the Python engine's", () => {
  let checked = 0;
  for (const { tiles, one_die, one_die_forced, codes } of vectors.choices) {
    const rules = rulesWith({ tiles, one_die, one_die_forced });
    for (let mask = 0; mask <= fullMask(tiles); mask += 1) {
      assert.deepEqual(diceChoices(rules, mask), CODES[codes[mask]], `${tiles} ${one_die} ${one_die_forced} ${mask}`);
      checked += 1;
    }
  }
  assert.equal(checked, vectors.choices.reduce((/** @type {number} */ n, /** @type {{codes: string}} */ c) => n + c.codes.length, 0));
});

test("the score of every mask under every scoring is the Python engine's", () => {
  for (const { tiles, scoring, scores } of vectors.scores) {
    const rules = rulesWith({ tiles, scoring });
    scores.forEach((/** @type {number} */ score, /** @type {number} */ mask) => {
      const total = 2 + (mask % 11);
      const dice = total > 6 ? [6, total - 6] : [total];
      assert.equal(turnScore(rules, mask, dice), score, `${tiles} ${scoring} ${mask}`);
    });
  }
});

test("the legal moves of every position are the Python engine's, in its order", () => {
  for (const { tiles, max_tiles, cases } of vectors.moves) {
    const rules = rulesWith({ tiles, max_tiles });
    for (const [mask, dice, moves] of cases) assert.deepEqual(legalMoves(rules, mask, dice), moves, `${tiles} ${max_tiles} ${mask} ${dice}`);
  }
});

test("whole turns go as the Python engine's, step by step, and refuse what it refuses", () => {
  let steps = 0;
  let refused = 0;
  for (const { rules, start, steps: taken } of vectors.turns) {
    let turn = newTurn(rules);
    assert.deepEqual(turn, start);
    for (const [kind, value, after] of taken) {
      /** @param {Turn} t @returns {Turn} */
      const act = (t) => (kind === "choose" ? chooseDice(rules, t, value) : kind === "roll" ? rollWith(rules, t, value) : shutTiles(rules, t, value));
      if (after === null) {
        assert.throws(() => act(turn), Error, `${kind} ${value} in ${JSON.stringify(turn)}`);
        refused += 1;
        continue;
      }
      turn = act(turn);
      assert.deepEqual(turn, after, `${JSON.stringify(rules)}: ${kind} ${value}`);
      steps += 1;
    }
    assert.equal(turn.phase, "over");
  }
  assert.ok(steps > 1000 && refused > 50, `${steps} steps, ${refused} refused`);
});

test("the hints ranked from a value table are the solver's: the same order, values within 1e-12", () => {
  for (const { preset, tiles, objective, cases } of vectors.rankings) {
    const values = table(`${preset}-${tiles}-${objective}.json`);
    const rules = values.rules;
    for (const { mask, extra, dice, ranked } of cases) {
      /** @type {Turn} */
      const turn = { mask, extra, phase: dice ? "move" : "dice", count: null, dice, score: null, shut: false };
      const got = dice ? rankMoves(values, rules, turn).map((m) => [m.tiles, m.value, m.loss]) : rankDice(values, rules, turn).map((d) => [d.count, d.value, d.loss]);
      const where = `${preset}-${tiles}-${objective} mask ${tilesOf(mask)} extra ${extra} dice ${dice}`;
      assert.deepEqual(got.map((g) => g[0]), ranked.map((/** @type {unknown[]} */ r) => r[0]), where);
      got.forEach((g, i) => {
        assert.ok(Math.abs(/** @type {number} */ (g[1]) - ranked[i][1]) <= 1e-12, `${where}: value ${g[1]} ${ranked[i][1]}`);
        assert.ok(Math.abs(/** @type {number} */ (g[2]) - ranked[i][2]) <= 1e-12, `${where}: loss ${g[2]} ${ranked[i][2]}`);
      });
    }
  }
});

test("a table of other rules is refused, and so is a choice where there is none", () => {
  const web = table("web-9-score.json");
  const turn = newTurn(rulesWith({}));
  assert.throws(() => rankDice(web, rulesWith({}), turn), /one_die/);
  assert.throws(() => chooseDice(rulesWith({}), turn, 1), /no choice of dice/);
  assert.throws(() => rollWith(rulesWith({}), turn, [3]), /1 faces shown, 2 dice/);
});
