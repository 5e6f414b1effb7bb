// The end of a game with others, as pure functions of the room: who won and how, each player's line
// (rounds won, points in elimination, money), and every turn grouped by round, tie-breaks labelled.

import { _, ngettext, list } from "./i18n.js";
import { nameOf } from "./room-facts.js";
import { winnerWords } from "./narration.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").Match} Match */
/** @typedef {import("./types.js").Turn} Turn */

/**
 * One player's line of the standings.
 * @typedef {object} Standing
 * @property {number} seat
 * @property {string} name
 * @property {boolean} won the game's winner (crowned)
 * @property {boolean} out retired in elimination (and not the winner)
 * @property {number | null} rounds rounds won, when the game had several
 * @property {number | null} total elimination's points
 * @property {number | null} money the ledger, when there was a stake
 * @property {number | null} score the last score, in a game of one round (null: the seat did not play)
 */

/**
 * A round (or one of its tie-breaks) as it was played.
 * @typedef {object} RoundPlayed
 * @property {number} round
 * @property {number} tiebreak 0, or the tie-break's number
 * @property {string} title "Round 2", "Round 2 · tie-break"
 * @property {{ name: string, score: number | null, open: number[], shut: boolean }[]} turns
 * @property {string | null} winner who won it (the last of its groups)
 */

/** @param {Room} room */
function manyRounds(room) {
  const match = /** @type {Match} */ (room.match);
  return room.rules.mode === "round" && (match.rounds > 1 || (match.round_winners ?? []).length > 1);
}

/**
 * The headline: the winner ("Marta wins."), how in the long game, or the draw and why.
 * @param {Room} room
 */
export function headline(room) {
  const match = /** @type {Match} */ (room.match);
  if (match.winner_name || room.rules.mode !== "round") return winnerWords(room);
  const wins = room.seats.map((seat) => (match.round_winners ?? []).filter((p) => p === seat.index).length);
  const best = Math.max(0, ...wins);
  if (!best) return _("The game is drawn.");
  const leaders = room.seats.filter((seat) => wins[seat.index] === best).map((seat) => nameOf(room, seat.index));
  return ngettext("A draw: {names} won {n} round each.", "A draw: {names} won {n} rounds each.", best, { names: list(leaders) });
}

/**
 * Each player's line, the winner first, then by rounds won, points, money.
 * @param {Room} room @returns {Standing[]}
 */
export function standings(room) {
  const match = /** @type {Match} */ (room.match);
  const several = manyRounds(room);
  const rows = room.seats.map((seat) => {
    const turns = match.history.filter((turn) => turn.player === seat.index && turn.score !== null);
    const won = match.winner === seat.index;
    return {
      seat: seat.index,
      name: nameOf(room, seat.index),
      won,
      out: room.rules.mode === "elimination" && !match.alive[seat.index] && !won,
      rounds: several ? (match.round_winners ?? []).filter((p) => p === seat.index).length : null,
      total: room.rules.mode === "elimination" ? match.totals[seat.index] : null,
      money: room.rules.stake ? match.ledger[seat.index] : null,
      score: !several && room.rules.mode !== "elimination" && turns.length ? /** @type {number} */ (turns.at(-1)?.score) : null,
    };
  });
  // A seat that never played (a box shut before its turn) comes after every score, not as a 0.
  const key = (/** @type {Standing} */ row) => [row.won ? 0 : 1, -(row.rounds ?? 0), row.total ?? 0, -(row.money ?? 0), row.score ?? Infinity];
  return rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i] - y[i];
    return a.seat - b.seat;
  });
}

/**
 * The turns grouped by round and tie-break, in order, each group with its winner in a game of rounds.
 * @param {Room} room @returns {RoundPlayed[]}
 */
export function roundsPlayed(room) {
  const match = /** @type {Match} */ (room.match);
  /** @type {RoundPlayed[]} */
  const groups = [];
  for (const turn of match.history) {
    if (turn.score === null) continue;
    const tiebreak = turn.tiebreak ?? 0;
    let group = groups.at(-1);
    if (!group || group.round !== turn.round || group.tiebreak !== tiebreak) {
      const title = tiebreak ? `${_("Round {round}", { round: turn.round })} · ${_("tie-break")}` : _("Round {round}", { round: turn.round });
      group = { round: turn.round, tiebreak, title, turns: [], winner: null };
      groups.push(group);
    }
    group.turns.push({ name: nameOf(room, turn.player), score: turn.score, open: turn.open, shut: turn.open.length === 0 });
  }
  if (room.rules.mode === "round") {
    (match.round_winners ?? []).forEach((seat, i) => {
      const last = groups.filter((group) => group.round === i + 1).at(-1);
      if (last) last.winner = nameOf(room, seat);
    });
  }
  return groups;
}

/**
 * A turn of the list: "Ana: 3, 7 open → 10", "Luis shut the box → 0".
 * @param {{ name: string, score: number | null, open: number[], shut: boolean }} turn @param {(n: number) => string} number
 */
export function turnLine(turn, number) {
  if (turn.shut) return _("{name} shut the box → {score}", { name: turn.name, score: number(turn.score ?? 0) });
  return _("{name}: {open} open → {score}", { name: turn.name, open: turn.open.join(", "), score: number(turn.score ?? 0) });
}
