// The rules of one solo turn, in the page: the same legal moves (in the same order), dice choices,
// scores, turn ends and extra turns as the Python engine (core/rules.py, board.py, match.py), and the
// exact ranking of the dice and the moves from a value table (strategy/tables.py), as the solver's
// hints rank them (strategy/solver/solution.py, strategy/choices.py). No dependencies: the offline
// page and the companion at a real box play on it. tests/vectors/engine.json holds what the Python
// engine answers; tests/js/engine.test.js checks this module on every vector.
//
// The Errors thrown here are a programming error's, in English: the page offers only the choices
// `diceChoices` and `legalMoves` give, and checks faces typed at a real box with `facesProblem`.

/**
 * The rule options, as Rules.to_dict() gives them.
 * @typedef {{tiles: number, one_die: string, one_die_forced: boolean, max_tiles: number | null,
 *   scoring: string, mode: string, shut_wins: boolean, stake: number, limit: number,
 *   doubles_extra_turn: boolean}} Rules
 */

/**
 * One solo turn. `phase`: "dice" (choose one die or two), "roll" (`count` dice are to be rolled),
 * "move" (shut tiles matching `dice`), "over" (`score` set; `shut` when the box was shut).
 * `mask`: the open tiles (bit i = tile i + 1); `extra`: the extra turns held (doubles);
 * `dice`: the faces of the turn's last roll (null before the first).
 * @typedef {{mask: number, extra: number, phase: "dice" | "roll" | "move" | "over",
 *   count: number | null, dice: number[] | null, score: number | null, shut: boolean}} Turn
 */

/**
 * A value table (strategy/tables.py): `values[e][mask]` is the value of the position with `mask`
 * open and `e` extra turns held, before the dice are chosen, in the objective's units ("score": the
 * expected score, lower is better; "shut": the chance to shut the box).
 * @typedef {{format: number, rules: Rules, objective: string, extras: number, values: number[][]}} Table
 */

/** @typedef {{count: number, value: number, loss: number}} RankedDice */
/** @typedef {{tiles: number[], value: number, loss: number}} RankedMove */

const MAX_TILES = 12;
const SCORINGS = ["sum", "sum-plus-roll", "count", "digits"];
const ONE_DIE_RULES = ["high-shut", "sum-le-6", "sum-lt-6", "never"];

/** Every tile open (bit i = tile i + 1). @param {number} tiles */
export function fullMask(tiles) {
  return 2 ** tiles - 1;
}

/** The open tiles of `mask`, ascending. @param {number} mask @returns {number[]} */
export function tilesOf(mask) {
  /** @type {number[]} */
  const tiles = [];
  for (let i = 0; mask >> i; i += 1) if ((mask >> i) & 1) tiles.push(i + 1);
  return tiles;
}

/** The mask of these tiles. @param {number[]} tiles */
export function maskOf(tiles) {
  let mask = 0;
  for (const tile of tiles) mask |= 1 << (tile - 1);
  return mask;
}

/** @param {number} mask */
function maskSum(mask) {
  let sum = 0;
  for (let i = 0; mask >> i; i += 1) if ((mask >> i) & 1) sum += i + 1;
  return sum;
}

/** @param {number} mask */
function bitCount(mask) {
  let count = 0;
  for (let m = mask; m; m &= m - 1) count += 1;
  return count;
}

/** @param {Rules} rules */
function checkRules(rules) {
  if (!Number.isInteger(rules.tiles) || rules.tiles < 1 || rules.tiles > MAX_TILES) {
    throw new Error(`engine: tiles must be 1 to ${MAX_TILES}, not ${rules.tiles}`);
  }
  if (!ONE_DIE_RULES.includes(rules.one_die)) throw new Error(`engine: unknown one-die rule ${rules.one_die}`);
  if (!SCORINGS.includes(rules.scoring)) throw new Error(`engine: unknown scoring ${rules.scoring}`);
}

/** @type {Map<string, number[][]>} */
const SUBSETS = new Map();

/**
 * For each total 0..12, every mask of tiles 1..size summing to it with at most `maxTiles` tiles,
 * ascending by mask (board.py subsets_with_sum: the order of the Python engine's moves).
 * @param {number} size @param {number | null} maxTiles
 */
function subsetsBySum(size, maxTiles) {
  const limit = maxTiles === null ? size : maxTiles;
  const key = `${size}/${limit}`;
  let found = SUBSETS.get(key);
  if (found === undefined) {
    /** @type {number[][]} */
    const byTotal = Array.from({ length: 13 }, () => []);
    for (let mask = 1; mask < 1 << size; mask += 1) {
      const total = maskSum(mask);
      if (total <= 12 && bitCount(mask) <= limit) byTotal[total].push(mask);
    }
    found = byTotal;
    SUBSETS.set(key, found);
  }
  return found;
}

/** The masks of the legal moves for `total` from `mask`, ascending. @param {Rules} rules @param {number} mask @param {number} total */
function moveMasks(rules, mask, total) {
  if (!Number.isInteger(total) || total < 1 || total > 12) return [];
  return subsetsBySum(rules.tiles, rules.max_tiles)[total].filter((m) => (m & mask) === m);
}

/** @param {number[] | null} dice */
function totalOf(dice) {
  return dice ? dice.reduce((a, b) => a + b, 0) : 0;
}

/** @param {number[]} dice */
function isDouble(dice) {
  return dice.length === 2 && dice[0] === dice[1];
}

/** May one die be rolled with `mask` open? (rules §3, Rules.one_die_allowed) @param {Rules} rules @param {number} mask */
function oneDieAllowed(rules, mask) {
  if (rules.one_die === "high-shut") return mask >> 6 === 0;
  if (rules.one_die === "sum-le-6") return maskSum(mask) <= 6;
  if (rules.one_die === "sum-lt-6") return maskSum(mask) < 6;
  return false;
}

/**
 * The dice counts allowed before a roll (Rules.dice_options): [2], [1, 2] or, forced, [1].
 * @param {Rules} rules @param {number} mask @returns {number[]}
 */
export function diceChoices(rules, mask) {
  checkRules(rules);
  if (!oneDieAllowed(rules, mask)) return [2];
  return rules.one_die_forced ? [1] : [1, 2];
}

/**
 * Every legal move for the roll `dice` with `mask` open, each its tiles ascending, in the Python
 * engine's order (ascending by mask); empty when the roll cannot be used.
 * @param {Rules} rules @param {number} mask @param {number[]} dice @returns {number[][]}
 */
export function legalMoves(rules, mask, dice) {
  checkRules(rules);
  return moveMasks(rules, mask, totalOf(dice)).map(tilesOf);
}

/**
 * The score of a turn ending with `mask` open after failing the roll `dice` (Rules.score, §4:
 * sum-plus-roll adds the roll's total; a shut box scores 0).
 * @param {Rules} rules @param {number} mask @param {number[] | null} dice
 */
export function turnScore(rules, mask, dice) {
  checkRules(rules);
  return scoreOf(rules, mask, totalOf(dice));
}

/** @param {Rules} rules @param {number} mask @param {number} total */
function scoreOf(rules, mask, total) {
  if (mask === 0) return 0;
  if (rules.scoring === "sum") return maskSum(mask);
  if (rules.scoring === "sum-plus-roll") return maskSum(mask) + total;
  if (rules.scoring === "digits") return Number(tilesOf(mask).join(""));
  return bitCount(mask);
}

/**
 * The turn waiting for its next roll (Match._await_roll): the choice of dice when there is one,
 * else straight to the roll with the one count allowed.
 * @param {Rules} rules @param {Turn} turn @returns {Turn}
 */
function awaitRoll(rules, turn) {
  const options = diceChoices(rules, turn.mask);
  if (options.length === 1) return { ...turn, phase: "roll", count: options[0] };
  return { ...turn, phase: "dice", count: null };
}

/** A fresh solo turn on the full board. @param {Rules} rules @returns {Turn} */
export function newTurn(rules) {
  checkRules(rules);
  const start = { mask: fullMask(rules.tiles), extra: 0, phase: /** @type {const} */ ("roll"), count: null, dice: null, score: null, shut: false };
  return awaitRoll(rules, start);
}

/**
 * The turn after choosing to roll `count` dice; only in the phase "dice", with a count
 * `diceChoices` allows.
 * @param {Rules} rules @param {Turn} turn @param {number} count @returns {Turn}
 */
export function chooseDice(rules, turn, count) {
  checkRules(rules);
  if (turn.phase !== "dice") throw new Error(`engine: there is no choice of dice now (phase ${turn.phase})`);
  if (!diceChoices(rules, turn.mask).includes(count)) throw new Error(`engine: ${count} dice is not a choice here`);
  return { ...turn, phase: "roll", count };
}

/**
 * Why `faces` are not the roll due in `turn`, in English for a developer, or null when they are.
 * The page checks typed faces with its own words before `rollWith`.
 * @param {Turn} turn @param {unknown} faces @returns {string | null}
 */
export function facesProblem(turn, faces) {
  if (turn.phase !== "roll" || turn.count === null) return `no roll is due (phase ${turn.phase})`;
  if (!Array.isArray(faces)) return "the faces are not a list";
  if (faces.length !== turn.count) return `${faces.length} faces shown, ${turn.count} dice were to be rolled`;
  for (const face of faces) if (!Number.isInteger(face) || face < 1 || face > 6) return `a die shows 1 to 6, not ${face}`;
  return null;
}

/**
 * The turn after the dice show `faces` (random from the page, or typed at a real box): a move to
 * choose, or with no move an extra turn spent (doubles) or the turn's end with its score
 * (Match._rolled).
 * @param {Rules} rules @param {Turn} turn @param {number[]} faces @returns {Turn}
 */
export function rollWith(rules, turn, faces) {
  checkRules(rules);
  const problem = facesProblem(turn, faces);
  if (problem !== null) throw new Error(`engine: roll ${String(faces)}: ${problem}`);
  const dice = [...faces];
  const rolled = { ...turn, dice, count: null };
  if (moveMasks(rules, turn.mask, totalOf(dice)).length) return { ...rolled, phase: "move" };
  const extra = turn.extra + (rules.doubles_extra_turn && isDouble(dice) ? 1 : 0);
  if (extra > 0) return awaitRoll(rules, { ...rolled, extra: extra - 1 });
  return { ...rolled, phase: "over", score: scoreOf(rules, turn.mask, totalOf(dice)), shut: false };
}

/**
 * The turn after shutting `tiles` (any order) for the roll shown: the shut box ends it with 0; a
 * double used earns an extra turn (Match._moved).
 * @param {Rules} rules @param {Turn} turn @param {number[]} tiles @returns {Turn}
 */
export function shutTiles(rules, turn, tiles) {
  checkRules(rules);
  if (turn.phase !== "move" || turn.dice === null) throw new Error(`engine: there is no roll to match (phase ${turn.phase})`);
  const move = maskOf(tiles);
  const legal = moveMasks(rules, turn.mask, totalOf(turn.dice));
  if (new Set(tiles).size !== tiles.length || !tiles.every((t) => Number.isInteger(t)) || !legal.includes(move)) {
    throw new Error(`engine: shutting ${tiles.join("+")} is not a legal move for ${turn.dice.join("+")}`);
  }
  const extra = turn.extra + (rules.doubles_extra_turn && isDouble(turn.dice) ? 1 : 0);
  const moved = { ...turn, mask: turn.mask & ~move, extra };
  if (moved.mask === 0) return { ...moved, phase: "over", count: null, score: 0, shut: true };
  return awaitRoll(rules, moved);
}

// -- ranking from a value table (Solution.dice_values, move_values; choices.ranked) --------------

const TOTALS = 13;

/** The chances of each total: one die, two dice not a double, a double (solver/turn.py). */
function probabilities() {
  const one = new Array(TOTALS).fill(0);
  const plain = new Array(TOTALS).fill(0);
  const double = new Array(TOTALS).fill(0);
  for (let t = 1; t <= 6; t += 1) one[t] = 1 / 6;
  for (let a = 1; a <= 6; a += 1) {
    for (let b = 1; b <= 6; b += 1) (a === b ? double : plain)[a + b] += 1 / 36;
  }
  return { one, plain, double };
}

const CHANCES = probabilities();
const TURN_OPTIONS = /** @type {const} */ (["tiles", "one_die", "one_die_forced", "scoring", "doubles_extra_turn"]);

/**
 * The table's view of a position: its values, in the units of its objective.
 * @param {Table} table @param {Rules} rules
 */
function reader(table, rules) {
  checkRules(rules);
  if (table.format !== 1) throw new Error(`engine: a value table of format ${table.format} is not known`);
  for (const name of TURN_OPTIONS) {
    if (table.rules[name] !== rules[name]) throw new Error(`engine: the table is for ${name} ${table.rules[name]}, not ${rules[name]}`);
  }
  const limit = (/** @type {Rules} */ r) => (r.max_tiles === null || r.max_tiles >= r.tiles ? null : r.max_tiles);
  if (limit(table.rules) !== limit(rules)) throw new Error("engine: the table is for other max_tiles");
  if (table.objective !== "score" && table.objective !== "shut") throw new Error(`engine: unknown objective ${table.objective}`);
  const lower = table.objective === "score";
  const top = table.extras - 1;
  /** @param {number} mask @param {number} extra */
  const at = (mask, extra) => table.values[Math.min(Math.max(extra, 0), top)][mask];
  /** The better of two values. @param {number} a @param {number} b */
  const better = (a, b) => (lower ? Math.min(a, b) : Math.max(a, b));
  /** A value as the solver reports it (a chance kept within [0, 1]). @param {number} v */
  const out = (v) => (lower ? v : Math.min(Math.max(v, 0), 1));
  return { lower, at, better, out };
}

/**
 * The value of rolling `count` dice with `mask` open and `extra` turns held (Solution._roll_value).
 * @param {ReturnType<typeof reader>} r @param {Rules} rules @param {number} mask @param {number} extra @param {number} count
 */
function rollValue(r, rules, mask, extra, count) {
  if (mask === 0) return r.at(0, 0);
  const doubles = rules.doubles_extra_turn;
  /** Solution._after: the best value after rolling `total`; null for a failed double that loops. */
  const after = (/** @type {number} */ total, /** @type {boolean} */ double) => {
    const moves = moveMasks(rules, mask, total);
    if (moves.length) {
      const up = extra + (double && doubles ? 1 : 0);
      let best = r.at(mask ^ moves[0], up);
      for (const m of moves.slice(1)) best = r.better(best, r.at(mask ^ m, up));
      return best;
    }
    if (doubles && double) return null;
    if (doubles && extra > 0) return r.at(mask, extra - 1);
    return r.lower ? scoreOf(rules, mask, total) : 0;
  };
  if (count === 1) {
    let sum = 0;
    for (let t = 1; t <= 6; t += 1) sum += CHANCES.one[t] * /** @type {number} */ (after(t, false));
    return sum;
  }
  let gain = 0;
  let stuck = 0;
  for (let t = 2; t < TOTALS; t += 1) {
    for (const [probability, double] of /** @type {[number, boolean][]} */ ([[CHANCES.plain[t], false], [CHANCES.double[t], true]])) {
      if (probability === 0) continue;
      const value = after(t, double);
      if (value === null) stuck += probability;
      else gain += probability * value;
    }
  }
  return gain + stuck * r.at(mask, extra);
}

/** @param {boolean} lower @param {number} v @param {number} best */
function lossOf(lower, v, best) {
  return Math.max(0, lower ? v - best : best - v);
}

/**
 * The dice counts allowed before the next roll, each with its value from `table`, best first
 * (equal values: two dice first), with what each loses against the best.
 * @param {Table} table @param {Rules} rules @param {Turn} turn @returns {RankedDice[]}
 */
export function rankDice(table, rules, turn) {
  if (turn.phase !== "dice" && turn.phase !== "roll") throw new Error(`engine: no dice to choose (phase ${turn.phase})`);
  const r = reader(table, rules);
  const options = diceChoices(rules, turn.mask).map((count) => ({ count, value: r.out(rollValue(r, rules, turn.mask, turn.extra, count)) }));
  options.sort((a, b) => (r.lower ? a.value - b.value : b.value - a.value) || b.count - a.count);
  const best = options.length ? options[0].value : 0;
  return options.map(({ count, value }) => ({ count, value, loss: lossOf(r.lower, value, best) }));
}

/**
 * Every legal move for the roll shown, each its tiles ascending with the value it leads to from
 * `table`, best first (equal values: the highest move, by mask, first), with its loss.
 * @param {Table} table @param {Rules} rules @param {Turn} turn @returns {RankedMove[]}
 */
export function rankMoves(table, rules, turn) {
  if (turn.phase !== "move" || turn.dice === null) throw new Error(`engine: no roll to match (phase ${turn.phase})`);
  const r = reader(table, rules);
  const up = turn.extra + (rules.doubles_extra_turn && isDouble(turn.dice) ? 1 : 0);
  const moves = moveMasks(rules, turn.mask, totalOf(turn.dice)).map((m) => ({ m, value: r.out(r.at(turn.mask ^ m, up)) }));
  moves.sort((a, b) => (r.lower ? a.value - b.value : b.value - a.value) || b.m - a.m);
  const best = moves.length ? moves[0].value : 0;
  return moves.map(({ m, value }) => ({ tiles: tilesOf(m), value, loss: lossOf(r.lower, value, best) }));
}
