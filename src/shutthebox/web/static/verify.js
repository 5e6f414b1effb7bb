// Verifying a game record's dice in the browser, with Web Crypto only: the revealed server seed is
// the one committed to, every die is the one the fair scheme gives, and what is cheap to check
// besides: each event's player is one of the game's, each move adds up to its roll on distinct
// tiles of the board, no choice of dice or move comes before a roll, the record states a result.
// A verdict "proven" proves the dice, not the game: the rules (whose turn it was, which tiles were
// open, the scores) are replayed by `shutthebox verify` only.
// No DOM here. Reasons are English messages with {fields}: the page shows _(reason, values).

const ALGORITHM = "hmac-sha256-v1";
const BY_ROLL = "hmac-sha256-rolls-v1";  // the daily challenge's: die j of roll r is die 2r + j
const LIMIT = 252; // 6 × 42: bytes below it give each face exactly 42 times
const encoder = new TextEncoder();

// Marks a message for the catalogs (tools/catalogs.py finds _("…")); the page translates it.
const _ = (/** @type {string} */ message) => message;

/** @param {string} hex */
function bytesOfHex(hex) {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** @param {ArrayBuffer} buffer */
function hexOf(buffer) {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

// The SHA-256 of some bytes, in hex (a commitment is the server seed's).
/** @param {BufferSource} bytes */
export async function sha256Hex(bytes) {
  return hexOf(await crypto.subtle.digest("SHA-256", bytes));
}

/** @param {BufferSource} serverSeed */
function hmacKey(serverSeed) {
  return crypto.subtle.importKey("raw", serverSeed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** @param {CryptoKey} key @param {BufferSource} message */
async function sign(key, message) {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
}

// Die k from an HMAC key: the first byte below 252 of the chained digests, as byte % 6 + 1.
/** @param {CryptoKey} key @param {string[]} clientSeeds @param {number} k */
async function dieWithKey(key, clientSeeds, k) {
  let digest = await sign(key, encoder.encode(`${clientSeeds.join(",")}:${k}`));
  for (;;) {
    const byte = digest.find((b) => b < LIMIT);
    if (byte !== undefined) return (byte % 6) + 1;
    digest = await sign(key, digest);
  }
}

// Die number k (from 0) of a game with this server seed (hex) and these client seeds.
/** @param {string} serverSeedHex @param {string[]} clientSeeds @param {number} k */
export async function die(serverSeedHex, clientSeeds, k) {
  return dieWithKey(await hmacKey(bytesOfHex(serverSeedHex)), clientSeeds, k);
}

/**
 * @typedef {{ proven: boolean, event: number | null, reason: string, values: Record<string, unknown>, dice: number }} Verdict
 */

/** @param {boolean} proven @param {string} reason @param {Record<string, unknown>} [values] @param {number | null} [event] @param {number} [dice] @returns {Verdict} */
function verdict(proven, reason, values = {}, event = null, dice = 0) {
  return { proven, event, reason, values, dice };
}

/** @param {string} reason @param {Record<string, unknown>} [values] @param {number | null} [event] @param {number} [dice] */
function failed(reason, values = {}, event = null, dice = 0) {
  return verdict(false, reason, values, event, dice);
}

const isHex64 = (/** @type {unknown} */ value) => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
const sum = (/** @type {number[]} */ numbers) => numbers.reduce((a, b) => a + b, 0);

// Why the record's fairness cannot be checked at all, or null when it can.
/** @param {any} record the record's JSON, as it came */
async function fairnessProblem(record) {
  const fairness = record.fairness;
  if (!fairness) {
    if (record.seed !== null && record.seed !== undefined) {
      return failed(_("The dice come from seed {seed}, chosen for practice: nothing proves them."), { seed: record.seed });
    }
    return failed(_("The record has no fair dice to verify (typed in by hand)."));
  }
  if (fairness.algorithm !== ALGORITHM && fairness.algorithm !== BY_ROLL) {
    return failed(_("The dice algorithm {algorithm} is not known."), { algorithm: String(fairness.algorithm) });
  }
  if (fairness.server_seed === null || fairness.server_seed === undefined) {
    return failed(_("The server seed is not revealed yet: the game is not over."));
  }
  if (!isHex64(fairness.server_seed) || !isHex64(fairness.commitment) || !Array.isArray(fairness.client_seeds)) {
    return failed(_("The record's fairness is malformed."));
  }
  if ((await sha256Hex(bytesOfHex(fairness.server_seed))) !== fairness.commitment) {
    return failed(_("The revealed server seed is not the one committed to (its SHA-256 differs)."));
  }
  return null;
}

const isWhole = (/** @type {unknown} */ value) => Number.isInteger(value);

// What is wrong with event `index` ({reason, values}), or null; `walk` holds the key and seeds,
// the number of the next die, the roll a move is still due for (and who rolled it), the dice
// count chosen for the next roll, the number of players and tiles.
/**
 * @param {any} event the record's JSON, as it came
 * @param {number} index
 * @param {{ key: CryptoKey, clientSeeds: string[], byRoll: boolean, dice: number, rolls: number, roll: number[] | null, roller: number | null, chosen: number | null, players: number, tiles: number }} walk
 */
async function eventProblem(event, index, walk) {
  const problem = (/** @type {string} */ reason, /** @type {Record<string, unknown>} */ values = {}) => ({ reason, values: { index, ...values } });
  const player = event.player;
  if (!isWhole(player) || player < 0 || player >= walk.players) {
    const values = { player: JSON.stringify(player) ?? "—", last: walk.players - 1 };
    return problem(_("Event {index}: player {player} is not one of the game's players (0 to {last})."), values);
  }
  if (Array.isArray(event.roll)) {
    if (event.typed) return problem(_("Event {index}: the dice were typed in, not rolled by the server."));
    if (event.roll.length < 1 || event.roll.length > 2) {
      return problem(_("Event {index}: a roll of {count} dice (a roll is of one die or two)."), { count: event.roll.length });
    }
    if (walk.chosen !== null && event.roll.length !== walk.chosen) {
      return problem(_("Event {index}: {count} dice rolled where {chosen} were chosen."), { count: event.roll.length, chosen: walk.chosen });
    }
    const expected = [];
    while (expected.length < event.roll.length) {
      const first = walk.byRoll ? 2 * walk.rolls : walk.dice;  // the daily's dice go by roll
      expected.push(await dieWithKey(walk.key, walk.clientSeeds, first + expected.length));
    }
    if (!expected.every((face, i) => face === event.roll[i])) {
      const values = { roll: event.roll.map(String).join(" + "), expected: expected.join(" + ") };
      return problem(_("Event {index}: roll {roll} is not what the fair dice give ({expected})."), values);
    }
    walk.dice += expected.length;
    walk.rolls += 1;
    walk.roll = event.roll;
    walk.roller = player;
    walk.chosen = null;
  } else if (Array.isArray(event.move)) {
    if (!walk.roll) return problem(_("Event {index}: a move with no roll before it."));
    const tiles = event.move;
    const onBoard = tiles.every((/** @type {any} */ tile) => isWhole(tile) && tile >= 1 && tile <= walk.tiles);
    if (!tiles.length || !onBoard || new Set(tiles).size !== tiles.length) {
      const values = { tiles: JSON.stringify(tiles), high: walk.tiles };
      return problem(_("Event {index}: the move {tiles} is not of distinct tiles from 1 to {high}."), values);
    }
    if (player !== walk.roller) {
      return problem(_("Event {index}: player {player} moves on the roll of player {roller}."), { player, roller: walk.roller });
    }
    if (sum(tiles) !== sum(walk.roll)) {
      const values = { tiles: tiles.join(" + "), total: sum(walk.roll) };
      return problem(_("Event {index}: the tiles {tiles} do not add up to the roll ({total})."), values);
    }
    walk.roll = null;
  } else if (event.dice !== undefined) {
    if (event.dice !== 1 && event.dice !== 2) {
      return problem(_("Event {index}: a choice of {dice} dice (one die or two can be chosen)."), { dice: JSON.stringify(event.dice) });
    }
    if (walk.dice === 0) return problem(_("Event {index}: a choice of dice before any roll of the game."));
    walk.chosen = event.dice;
  } else {
    return problem(_("Event {index} is neither a roll, a choice of dice nor a move."));
  }
  return null;
}

// The verdict on a record (its JSON, parsed): {proven, event, reason, values, dice}. "Proven" is
// said of the dice and the checks above, never of the rules. `event` is the index of the first
// event that fails (null: the record as a whole); `dice` how many dice were recomputed.
/** @param {any} record @returns {Promise<Verdict>} */
export async function verifyRecord(record) {
  if (!record || record.format !== "shutthebox-record" || !Array.isArray(record.events)) {
    return failed(_("This is not a Shut the Box game record."));
  }
  const problem = await fairnessProblem(record);
  if (problem) return problem;
  const tiles = record.rules?.tiles;
  if (!Array.isArray(record.players) || !record.players.length || !isWhole(tiles) || tiles < 1 || tiles > 12) {
    return failed(_("The record's players or rules are malformed."));
  }
  if (record.result === null || record.result === undefined) {
    return failed(_("The record states no result: the game is not over."));
  }
  if (typeof record.result !== "object" || Array.isArray(record.result)) {
    return failed(_("The record's result is malformed."));
  }
  const { server_seed: serverSeed, client_seeds: clientSeeds } = record.fairness;
  const walk = {
    key: await hmacKey(bytesOfHex(serverSeed)),
    clientSeeds,
    byRoll: record.fairness.algorithm === BY_ROLL,
    dice: 0,
    rolls: 0,
    roll: null,
    roller: null,
    chosen: null,
    players: record.players.length,
    tiles,
  };
  for (const [index, event] of record.events.entries()) {
    const found = await eventProblem(event ?? {}, index, walk);
    if (found) return failed(found.reason, found.values, index, walk.dice);
  }
  return verdict(true, _("Every die comes from the revealed seed; every move adds up to its roll on tiles of the board."), {}, null, walk.dice);
}

// The events this page saw while the game was played ({seq: event} as the room's "recent" sent
// them: {player, kind, dice | count | tiles}) against the record: the first index that differs
// ({index}), or null. Nothing seen, nothing compared.
/** @param {any} record @param {Map<number, import("./types.js").GameEvent>} seen */
export function seenDiffers(record, seen) {
  const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
  const sorted = (/** @type {unknown} */ tiles) => (Array.isArray(tiles) ? [...tiles].sort((a, b) => a - b) : tiles);
  for (const [seq, live] of [...seen.entries()].sort((a, b) => a[0] - b[0])) {
    const event = record.events?.[seq];
    const matches = event && event.player === live.player && (
      live.kind === "roll" ? same(event.roll, live.dice)
      : live.kind === "dice" ? event.dice === live.count
      : live.kind === "move" && same(sorted(event.move), sorted(live.tiles))
    );
    if (!matches) return { index: seq };
  }
  return null;
}
