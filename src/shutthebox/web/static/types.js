// The JSON the page reads from the server (web/views.py: room_json, match_json, rules_catalog), as
// JSDoc types for `tsc --checkJs`. Only what the page reads is named here; the server sends more.

/**
 * @typedef {"waiting" | "playing" | "over"} RoomStatus
 * @typedef {"roll-off" | "roll" | "choose" | "move" | "over"} Phase
 */

/**
 * A room's rules, as Rules.to_dict() gives them.
 * @typedef {object} Rules
 * @property {number} tiles
 * @property {string} mode "solo" | "round" | "elimination" | "long"
 * @property {string} one_die
 * @property {boolean} one_die_forced
 * @property {number | null} max_tiles
 * @property {string} scoring
 * @property {boolean} shut_wins
 * @property {number} stake
 * @property {number} limit
 * @property {boolean | null} doubles_extra_turn
 */

/**
 * A seat of a room (rooms.py, Seat.to_json).
 * @typedef {object} Seat
 * @property {number} index
 * @property {"here" | "bot" | "remote"} kind
 * @property {string | null} name null until a remote player joins
 * @property {string | null} bot the server's bot name, for a bot's seat
 * @property {string | null} profile the profile that plays it; null for a guest
 * @property {boolean} joined
 * @property {boolean} connected
 * @property {number} missed actions in a row its clock ran out on
 * @property {boolean} stand_in a bot plays it for good
 */

/**
 * One finished turn of the match's history.
 * @typedef {object} Turn
 * @property {number} player
 * @property {number} round
 * @property {number} [tiebreak] 0 in the round itself, 1, 2… in its tie-breaks
 * @property {boolean} [opening] the long game's opening turn (tiles opened, not shut)
 * @property {number[]} open the tiles left open
 * @property {number | null} score null when the turn counts for nothing (the long game's)
 * @property {string} grade
 * @property {number[] | null} last_roll the roll that failed
 */

/**
 * The engine's state (match_json).
 * @typedef {object} Match
 * @property {Phase} phase
 * @property {number | null} actor
 * @property {string | null} actor_name
 * @property {{ size: number, open: number[] }} board
 * @property {boolean} opening the long game's second half: tiles are opened
 * @property {number[]} dice_options
 * @property {number | null} dice_due
 * @property {boolean} is_chance
 * @property {boolean} is_decision
 * @property {number[] | null} roll
 * @property {number[][]} legal_moves
 * @property {number} extra_turns
 * @property {number} round
 * @property {number} rounds
 * @property {number} tiebreak 0, or the tie-break under way (1, 2…) among the players tied
 * @property {number[]} totals
 * @property {boolean[]} alive
 * @property {number[]} ledger
 * @property {number} pot
 * @property {{ contenders: number[], faces: number[] }} rolloff
 * @property {{ player: number, score: number }[]} round_scores
 * @property {Turn[]} history
 * @property {number[]} round_winners each round's winner, in order
 * @property {number | null} winner
 * @property {string | null} winner_name
 */

/**
 * One of the room's recent events: a roll, a choice of dice, a move.
 * @typedef {object} GameEvent
 * @property {number} seq
 * @property {number} player
 * @property {"roll" | "dice" | "move"} kind
 * @property {number[]} [dice] a roll's faces
 * @property {number} [count] a choice's number of dice
 * @property {number[]} [tiles] a move's tiles
 * @property {"clock"} [by] a bot played it for a player whose time ran out
 */

/**
 * What the clock did to a seat (rooms.py, Room.notify).
 * @typedef {object} Notice
 * @property {"missed" | "stand-in" | "adjourned" | "resumed"} kind
 * @property {number} seat
 * @property {string | null} name
 * @property {number} event the number of events when it happened
 */

/**
 * @typedef {object} RoomClock
 * @property {number} seat
 * @property {number} deadline epoch seconds
 * @property {number} remaining seconds left when the state was sent
 */

/**
 * @typedef {object} Rematch
 * @property {number} offered_by
 * @property {(boolean | null)[]} answers each seat's, null while deciding
 * @property {number} remaining seconds left to answer when the state was sent
 * @property {string | null} code the new room, once it is made
 * @property {string} commitment the new room's dice
 */

/**
 * The fair dice's public facts (core/fair.py, Fairness.to_json).
 * @typedef {object} Fairness
 * @property {string} algorithm
 * @property {string} commitment
 * @property {string[]} client_seeds
 * @property {string | null} server_seed revealed once the game is over
 */

/**
 * One person's game against their best (core/ranking.py, Result.to_json).
 * @typedef {object} Result
 * @property {string} player
 * @property {number | null} counted
 * @property {number | null} best_before
 * @property {string | null} grade
 * @property {boolean} new_best
 * @property {boolean} helped
 * @property {string | null} unranked "typed" | "practice" | "unproven"
 */

/**
 * Everything one seat sees of a room (room_json).
 * @typedef {object} Room
 * @property {string} code
 * @property {number} version
 * @property {RoomStatus} status
 * @property {Rules} rules
 * @property {string} rules_key
 * @property {boolean} hints
 * @property {boolean} private only its players see it (no watchers)
 * @property {number} watchers how many watch it with no seat (this server process's)
 * @property {string | null} kind "ranked" | "practice" | … ; null for a room without fair dice
 * @property {boolean} ranked
 * @property {number | bigint | null} seed a practice room's
 * @property {Fairness | null} fairness
 * @property {number[]} assisted the seats that had a hint
 * @property {number | null} hint_cost what a hint now makes the turn count
 * @property {Seat[]} seats
 * @property {number[]} you the seats this page plays
 * @property {number} events how many events the game has had
 * @property {GameEvent[]} recent
 * @property {number | null} turn_seconds
 * @property {RoomClock | null} clock
 * @property {{ seat: number, name: string } | null} adjourned
 * @property {Notice[]} notices
 * @property {Rematch | null} rematch
 * @property {string | null} rematch_commitment
 * @property {number[]} stood_in
 * @property {number | null} saved_game_id
 * @property {Result[] | null} results
 * @property {number | null} [closes_at] a daily challenge's room takes no action after it (epoch seconds)
 * @property {{ wait: string, seat: number | null } | null} [due] what the game waits for
 * @property {Match | null} match
 */

/**
 * A choice of the solver's hint.
 * @typedef {object} Choice
 * @property {number[]} [shut]
 * @property {number} [dice]
 * @property {number} value
 * @property {number} loss
 */

/**
 * The solver's advice (the socket's "hint" message).
 * @typedef {object} Advice
 * @property {string} objective
 * @property {number | null} [target]
 * @property {Choice[]} choices
 * @property {{ reason: string } | null} [bounded]
 * @property {{ seat: number, players: number, best: number | null, ties: number } | null} [seat]
 */

/**
 * @typedef {object} Range
 * @property {number} min
 * @property {number} [max]
 */

/**
 * What the setup may offer (GET /api/rules: rules_catalog).
 * @typedef {object} Catalog
 * @property {Rules} defaults
 * @property {Record<string, Rules>} presets
 * @property {{ tiles: Range, one_die: { values: string[] }, scoring: { values: string[] }, mode: { values: string[] }, stake: Range, limit: Range }} options
 * @property {Range & { max: number }} players
 * @property {Range & { max: number }} rounds
 * @property {Record<string, string>} strengths
 */

export {};
