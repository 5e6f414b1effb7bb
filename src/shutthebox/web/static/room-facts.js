// Questions a room's state answers, as pure functions: whose turn, whose seats, who is away. The
// server decided all of it; these only read what it sent.

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").Seat} Seat */

/**
 * A seat's name, or its number while nobody has taken it.
 * @param {Room} room
 * @param {number | null | undefined} seat
 */
export function nameOf(room, seat) {
  return (seat === null || seat === undefined ? null : room.seats[seat]?.name) ?? `#${seat}`;
}

/**
 * Whether the seat to act is this page's own (and no bot stands in for it).
 * @param {Room} room
 */
export function mine(room) {
  const match = room.match;
  return Boolean(match && match.actor !== null && room.you.includes(match.actor) && !room.seats[match.actor]?.stand_in);
}

/**
 * A room played from more than one place: its seats may connect and leave.
 * @param {Room} room
 */
export function isOnline(room) {
  return room.seats.some((seat) => seat.kind === "remote");
}

/**
 * A seat whose player is away: a person's seat, taken, online, with no page connected to it.
 * @param {Room} room
 * @param {Seat} seat
 */
export function isAway(room, seat) {
  return isOnline(room) && seat.kind !== "bot" && seat.joined && !seat.connected && !seat.stand_in;
}

/** @param {number[]} numbers */
export function sum(numbers) {
  return numbers.reduce((a, b) => a + b, 0);
}

/**
 * Tiles as the page writes a move: highest first, "6 + 2".
 * @param {Iterable<number>} tiles
 */
export function tilesText(tiles) {
  return [...tiles].sort((a, b) => b - a).join(" + ");
}

/**
 * Whether the tiles selected are one of the legal moves the server sent.
 * @param {Room} room
 * @param {ReadonlySet<number>} selected
 */
export function selectionIsLegal(room, selected) {
  const match = room.match;
  return Boolean(match && match.phase === "move" && match.legal_moves.some((move) => move.length === selected.size && move.every((tile) => selected.has(tile))));
}

/**
 * A game this page plays in that is not over: leaving it is asked first.
 * @param {Room | null} room
 * @param {string | null} code the room this page has open
 */
export function inPlay(room, code) {
  return Boolean(room && code === room.code && room.status !== "over" && room.you.length);
}
