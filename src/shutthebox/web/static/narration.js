// The words said for each change of a room, as pure functions of the states: what the live region
// says and the game log keeps (rolls, moves, turns' ends, the winner, the clock's notices, a rematch),
// the banner of a turn's end, and the status line. Nothing here touches the page.

import { _, ngettext, number } from "./i18n.js";
import { isAway, mine, nameOf, selectionIsLegal, sum, tilesText } from "./room-facts.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").Turn} Turn */
/** @typedef {import("./types.js").Notice} Notice */

/**
 * What was said already of the room this page shows.
 * @typedef {object} Told
 * @property {number} lastSeq the last event told
 * @property {number} historySeen the turns' ends told
 * @property {boolean} overSeen the game's end told
 * @property {{ seat: number, face: number }[]} rolloff the roll-off's dice so far, for its banner
 * @property {string | null} noticeKey the last clock notice told
 * @property {string | null} rematchSeen the rematch offer told
 */

/**
 * A sentence to say: `log`, it goes in the game log too; else it only tells what the screen shows.
 * @typedef {{ text: string, log: boolean }} Utterance
 */

/**
 * What a new state tells, in order, and what it shows besides.
 * @typedef {object} Story
 * @property {Told} told
 * @property {Utterance[]} said
 * @property {{ faces: number[], animate: boolean, player: number } | null} dice the dice to show
 * @property {{ lines: string[], rolloff: boolean } | null} banner a turn's end (or the roll-off) to hold on screen
 * @property {"now" | "after-dice" | null} result the game's end to show: at once, or once the dice land
 */

/** @returns {Told} nothing told yet */
export function toldNothing() {
  return { lastSeq: -1, historySeen: 0, overSeen: false, rolloff: [], noticeKey: null, rematchSeen: null };
}

/** @param {number} n */
export function diceCount(n) {
  return n === 1 ? _("1 die") : _("2 dice");
}

/**
 * Everything a state tells against the one shown before it (`previous` null: the room's first state
 * on this page, which tells nothing of what came before the page).
 * @param {Room} room
 * @param {Room | null} previous
 * @param {Told} told
 * @returns {Story}
 */
export function tell(room, previous, told) {
  const story = previous === null ? firstState(room, told) : newState(room, previous, told);
  const notices = newNotices(room, story.told.noticeKey, previous === null);
  const rematch = rematchNews(room, story.told.rematchSeen, previous === null);
  story.said.push(...notices.said, ...rematch.said);
  story.told = { ...story.told, noticeKey: notices.noticeKey, rematchSeen: rematch.rematchSeen };
  return story;
}

/**
 * @param {Room} room
 * @param {Told} told
 * @returns {Story}
 */
function firstState(room, told) {
  const match = room.match;
  const lastRoll = [...room.recent].reverse().find((e) => e.kind === "roll");
  return {
    told: { ...told, lastSeq: room.events - 1, historySeen: match ? match.history.length : 0, overSeen: room.status === "over" },
    said: [],
    dice: lastRoll ? { faces: lastRoll.dice ?? [], animate: false, player: lastRoll.player } : null,
    banner: null,
    result: room.status === "over" ? "now" : null,
  };
}

/**
 * @param {Room} room
 * @param {Room} previous
 * @param {Told} told
 * @returns {Story}
 */
function newState(room, previous, told) {
  const match = room.match;
  const previousPhase = previous.match?.phase ?? null;
  const previousActor = previous.match?.actor ?? null;
  /** @type {Utterance[]} */
  const said = [];
  const log = (/** @type {string} */ text) => said.push({ text, log: true });
  let rolloff = told.rolloff;
  let lastRoll = null;
  for (const event of room.recent.filter((e) => e.seq > told.lastSeq)) {
    const name = nameOf(room, event.player);
    // Translators: after an action a bot played for a player whose time ran out.
    const by = event.by === "clock" ? ` ${_("(played by a bot)")}` : "";
    if (event.kind === "roll") {
      const dice = event.dice ?? [];
      lastRoll = event;
      if (previousPhase === "roll-off") rolloff = [...rolloff, { seat: event.player, face: dice[0] }];
      log(_("{name}: roll {faces} = {total}.", { name, faces: dice.join(" + "), total: sum(dice) }) + by);
    } else if (event.kind === "move" && match) {
      const moved = event.tiles ?? [];
      const opened = room.rules.mode === "long" && moved.every((tile) => match.board.open.includes(tile));
      const tiles = tilesText(moved);
      log((opened ? _("{name}: opened {tiles}.", { name, tiles }) : _("{name}: shut {tiles}.", { name, tiles })) + by);
    } else if (event.kind === "dice" && by) {
      log(_("{name}: {dice}.", { name, dice: diceCount(event.count ?? 2) }) + by);
    }
  }
  let historySeen = told.historySeen;
  /** @type {Story["banner"]} */
  let banner = null;
  if (match) {
    const ended = match.history.slice(historySeen);
    for (const turn of ended) {
      const name = nameOf(room, turn.player);
      if (turn.score === null) continue;
      log(turn.open.length === 0 ? _("{name}: the box is shut!", { name }) : _("{name}: score {score}, grade {grade}.", { name, score: turn.score, grade: turn.grade }));
    }
    historySeen = match.history.length;
    const several = room.seats.length > 1;
    const playing = room.status === "playing";
    const lastEnded = ended.at(-1);
    if (several && playing && lastEnded) banner = { lines: handoverLines(room, lastEnded), rolloff: false };
    else if (several && playing && previousPhase === "roll-off" && match.phase !== "roll-off") {
      banner = { lines: rolloffLines(room, rolloff), rolloff: true };
      rolloff = [];
    } else if (playing && match.actor !== previousActor && match.actor !== null) {
      said.push({ text: mine(room) ? _("Your turn, {name}.", { name: match.actor_name }) : _("{name}'s turn.", { name: match.actor_name }), log: false });
    }
  }
  let overSeen = told.overSeen;
  /** @type {Story["result"]} */
  let result = null;
  if (room.status === "over" && !overSeen) {
    overSeen = true;
    log(match ? winnerWords(room) : _("The game is drawn."));
    result = "after-dice";
  }
  return {
    told: { ...told, lastSeq: room.events - 1, historySeen, overSeen, rolloff },
    said,
    dice: lastRoll ? { faces: lastRoll.dice ?? [], animate: true, player: lastRoll.player } : null,
    banner,
    result,
  };
}

/**
 * A player's points in elimination as they stand: the rounds settled, and this round's turn once
 * played (the chips and the banner say the same number).
 * @param {import("./types.js").Match} match @param {number} seat
 */
export function runningTotal(match, seat) {
  return match.totals[seat] + sum(match.round_scores.filter((s) => s.player === seat).map((s) => s.score));
}

/**
 * The banner of a finished turn: the player's score and grade, the roll that failed, in elimination
 * the round and the running totals, and who is next.
 * @param {Room} room
 * @param {Turn} turn
 */
export function handoverLines(room, turn) {
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const name = nameOf(room, turn.player);
  const opening = Boolean(turn.opening);
  const lines = [];
  if (turn.open.length === 0) lines.push(_("{name} shut the box!", { name }));
  else if (opening && turn.score === null) lines.push(_("{name}: the turn is over, {tiles} shut.", { name, tiles: shutTiles(match, turn).join(", ") }));
  else if (turn.score === null) lines.push(_("{name}: the turn is over, {tiles} open.", { name, tiles: turn.open.join(", ") }));
  else lines.push(`${name}: ${number(turn.score)} — ${turn.grade}`);
  const failed = failedRoll(turn);
  if (failed) lines.push(failed);
  if (room.rules.mode === "elimination") {
    const settled = match.round !== turn.round || match.tiebreak !== (turn.tiebreak ?? 0);
    const total = (/** @type {number} */ seat) => (settled ? match.totals[seat] : runningTotal(match, seat));
    const totals = room.seats.map((seat) => {
      const text = `${nameOf(room, seat.index)} ${number(total(seat.index))}`;
      // Translators: a player's running total in elimination, once they reached the limit.
      return match.alive[seat.index] ? text : _("{total}, out", { total: text });
    }).join(" · ");
    lines.push(`${_("Round {round}", { round: turn.round })} · ${_("Totals: {totals}", { totals })}`);
  } else if (turn.tiebreak) {
    lines.push(_("Tie-break of round {round}", { round: turn.round }));
  }
  const next = match.actor === null ? null : nameOf(room, match.actor);
  if (next) lines.push(_("Next: {name}.", { name: next }));
  return lines;
}

/**
 * Why a turn ended when it did not shut the box: the roll no tiles made (null for a shut box).
 * @param {Turn} turn
 */
function failedRoll(turn) {
  if (!turn.last_roll || !turn.open.length) return null;
  const values = { roll: turn.last_roll.join(" + "), total: sum(turn.last_roll) };
  return turn.opening ? _("Rolled {roll} = {total}: no shut tiles make it.", values) : _("Rolled {roll} = {total}: no open tiles make it.", values);
}

/** The long game's tiles still shut at the end of an opening turn. @param {import("./types.js").Match} match @param {Turn} turn */
function shutTiles(match, turn) {
  const open = new Set(turn.open);
  return Array.from({ length: match.board.size }, (_unused, i) => i + 1).filter((tile) => !open.has(tile));
}

/**
 * Who won, in the language's own turn ("Marta wins", "Gana Marta"); in the long game how ("Luis
 * opened every tile"); a drawn game said as one.
 * @param {Room} room
 */
export function winnerWords(room) {
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const name = match.winner_name;
  if (!name) return _("The game is drawn.");
  if (room.rules.mode === "long") {
    const cleared = match.board.open.length === match.board.size;
    return cleared ? _("{name} opened every tile and wins.", { name }) : _("{name} shut every tile and wins.", { name });
  }
  return _("{name} wins.", { name });
}

/**
 * Who rolled what to decide who starts (a tie rolls again: every die is listed), and who starts.
 * @param {Room} room
 * @param {{ seat: number, face: number }[]} rolled the dice this page saw; else the state's last ones
 */
export function rolloffLines(room, rolled) {
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const { contenders, faces } = match.rolloff;
  const dice = rolled.length ? rolled : contenders.map((seat, i) => ({ seat, face: faces[i] }));
  // Translators: one die of the roll-off, "Ana: 5".
  const text = dice.map(({ seat, face }) => _("{name}: {face}", { name: nameOf(room, seat), face })).join(" · ");
  return [_("Roll-off: {rolled}.", { rolled: text }), _("{name} starts.", { name: nameOf(room, match.actor) })];
}

/** @param {Notice} notice */
function noticeKey(notice) {
  return `${notice.kind}:${notice.seat}:${notice.event}`;
}

/**
 * A clock's outcome in words; for your own seat, said to you.
 * @param {Room} room
 * @param {Notice} notice
 */
export function noticeText(room, notice) {
  const name = notice.name ?? nameOf(room, notice.seat);
  const yours = room.you.includes(notice.seat);
  if (notice.kind === "missed") return yours ? _("You ran out of time: a bot played for you.") : _("{name} ran out of time: a bot played for them.", { name });
  if (notice.kind === "stand-in") return yours ? _("You left: a bot plays for you until the end of this game.") : _("{name} left: a bot plays for them from now on.", { name });
  if (notice.kind === "adjourned") return yours ? _("Game adjourned until you play again.") : _("Game adjourned until {name} comes back.", { name });
  if (notice.kind === "resumed") return yours ? _("You are back: the game goes on.") : _("{name} is back.", { name });
  return "";
}

/**
 * The notices that are new since `seenKey` (none of those there were before the page came).
 * @param {Room} room
 * @param {string | null} seenKey
 * @param {boolean} first
 */
export function newNotices(room, seenKey, first) {
  const notices = room.notices ?? [];
  const keys = notices.map(noticeKey);
  const seen = keys.lastIndexOf(/** @type {string} */ (seenKey));
  const said = first ? [] : notices.slice(seen + 1).map((notice) => ({ text: noticeText(room, notice), log: true }));
  return { said, noticeKey: keys.length ? /** @type {string} */ (keys.at(-1)) : seenKey };
}

/**
 * A rematch offered by another seat, said once.
 * @param {Room} room
 * @param {string | null} seenKey
 * @param {boolean} first
 */
export function rematchNews(room, seenKey, first) {
  const offer = room.status === "over" ? room.rematch : null;
  const key = offer ? `${room.code}:${offer.offered_by}` : null;
  if (!offer || seenKey === key) return { said: [], rematchSeen: seenKey };
  const said = !first && !room.you.includes(offer.offered_by) ? [{ text: _("{name} offers a rematch.", { name: nameOf(room, offer.offered_by) }), log: true }] : [];
  return { said, rematchSeen: key };
}

/**
 * @param {number} n
 */
export function waitingFor(n) {
  return ngettext("Waiting for {n} more player to join…", "Waiting for {n} more players to join…", n);
}

/**
 * The status line of a game in play: whose turn, what they may do, the roll to make.
 * @param {Room} room
 * @param {boolean} rolling the dice still tumble: the total is not said before they land
 */
export function turnStatus(room, rolling) {
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const name = match.actor_name;
  const me = mine(room);
  const seat = match.actor === null ? undefined : room.seats[match.actor];
  let text;
  if (!me && room.adjourned) text = _("The game waits for {name}…", { name: room.adjourned.name });
  else if (!me && seat?.stand_in) text = _("A bot plays for {name}…", { name });
  else if (!me && seat && isAway(room, seat)) {
    text = room.clock
      ? _("{name} is not connected: when their time runs out, a bot plays for them.", { name })
      : _("{name} is not connected: the game waits for them.", { name });
  } else if (!me) text = _("{name} is playing…", { name });
  else if (match.phase === "roll-off") text = _("{name}: roll one die to decide who starts.", { name });
  else if (match.phase === "choose") text = _("{name}: one die or two?", { name });
  else if (match.phase === "roll") text = match.dice_due === 1 ? _("{name}: roll one die.", { name }) : _("{name}: roll the dice.", { name });
  else if (rolling) text = _("{name} rolls…", { name }); // the total once the dice land
  else {
    const roll = match.roll ?? [];
    const values = { name, roll: roll.join(" + "), total: sum(roll) };
    text = match.opening
      ? _("{name}: {roll} = {total}. Pick shut tiles that make {total} to open them.", values)
      : _("{name}: {roll} = {total}. Pick open tiles that make {total}.", values);
  }
  const turnBegins = room.recent.at(-1)?.player !== match.actor; // once the turn is under way, the device is in hand
  if (me && match.phase === "roll" && turnBegins && room.you.length > 1 && room.seats.filter((s) => s.kind === "here").length > 1) text = _("{name}'s turn: pass the device.", { name }) + " " + text;
  if (match.extra_turns) text += " " + _("Extra turns: {n}", { n: match.extra_turns });
  return text;
}

/**
 * The line under the status while the player picks tiles: what is selected, and whether it makes the roll.
 * @param {Room} room
 * @param {ReadonlySet<number>} selected
 */
export function selectionText(room, selected) {
  const roll = room.match?.roll;
  const values = { tiles: tilesText(selected), sum: sum([...selected]), total: roll ? sum(roll) : 0 };
  if (selected.size === 0) return _("Selected: nothing");
  if (selectionIsLegal(room, selected)) return room.match?.opening ? _("Selected: {tiles} = {sum}. Press Open.", values) : _("Selected: {tiles} = {sum}. Press Shut.", values);
  return _("Selected: {tiles} = {sum} (need {total}).", values);
}

/**
 * The status once the game is over, in lines: the roll that ended it (when no tiles made it), then
 * the outcome.
 * @param {Room} room @returns {string[]}
 */
export function overStatus(room) {
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const turn = match.history[0];
  if (room.rules.mode === "solo" && turn) {
    const outcome = [_("Score {score}", { score: turn.score }), _("Grade {grade}", { grade: turn.grade })].join(" · ");
    const failed = failedRoll(turn); // the game ends on that roll: say so, or it seems to stop by itself
    return failed ? [failed, outcome] : [outcome];
  }
  const last = match.history.at(-1);
  if (!last?.last_roll || !last.open.length) return [winnerWords(room)];
  const values = { name: nameOf(room, last.player), roll: last.last_roll.join(" + "), total: sum(last.last_roll) };
  const failed = last.opening ? _("{name} rolled {roll} = {total}: no shut tiles make it.", values) : _("{name} rolled {roll} = {total}: no open tiles make it.", values);
  return [failed, winnerWords(room)];
}
