// @ts-check
// The messages of docs/PROTOCOL.md as JSDoc types: the one place the client says what the
// server sends and accepts. No code runs here; modules import the types with
// `@typedef {import("./protocol.js").State} State`.

/** A side: the two seats of a table. @typedef {0 | 1} Side */

/**
 * A user as `/api/me` and the sockets' `hello` give it (1.2).
 * @typedef {{id: number, name: string, guest: boolean, operator: boolean}} User
 */

/**
 * The body of every HTTP error answer (1).
 * @typedef {{error: {code: string, message: string}}} ErrorBody
 */

/**
 * A clock setting (4.4).
 * @typedef {{base_s: number, delay_s: number, increment_s: number}} ClockSettings
 */

/**
 * A table's settings (1.3): what `POST /api/tables` takes, every field optional there.
 * @typedef {object} Settings
 * @property {"match" | "money"} mode
 * @property {number | null} [length] match: 1-64 points (the server's name for them)
 * @property {string} variant
 * @property {boolean} cube
 * @property {number} [max_cube]
 * @property {boolean} [crawford]
 * @property {boolean} [jacoby]
 * @property {boolean} [beavers]
 * @property {number} [auto_doubles]
 * @property {number | null} [max_games]
 * @property {number | null} [stakes]
 * @property {ClockSettings | null} [clock]
 * @property {string | null} [invite]
 * @property {string | null} [bot]
 * @property {boolean} [rated] whether the match changes ratings (1.5)
 * @property {boolean} [practice] hints and the tutor for both players (4.5)
 */

/**
 * A board from the side `side` (3, BOARD): `mine[i]` the side's checkers on its point
 * i+1 (`mine[24]` its bar), `theirs[i]` the opponent's on the opponent's point i+1;
 * `off`, `waiting` and `pips` are [the side's, the opponent's].
 * @typedef {object} Board
 * @property {Side} side
 * @property {number[]} mine
 * @property {number[]} theirs
 * @property {[number, number]} off
 * @property {[number, number]} waiting
 * @property {[number, number]} pips
 */

/**
 * A variant as `/api/info` lists it (1.3, VARIANT): its cube rule and starting board.
 * @typedef {{name: string, description: string, cube: boolean, board: Board}} Variant
 */

/**
 * `GET /api/info`.
 * @typedef {object} Info
 * @property {Variant[]} variants
 * @property {{name: string, description: string}[]} bot_levels
 * @property {boolean} bots
 * @property {string} [house_rules]
 */

/**
 * One die's move in the mover's numbering: [from, to, hit] (25 the bar, 0 off).
 * @typedef {[number, number, boolean]} Move
 */

/**
 * One legal play of the receiver (3, PLAY); `board` is the position after it, still from
 * the mover's side.
 * @typedef {{play: string, moves: Move[], position_id?: string | null, board: Board}} Play
 */

/**
 * The cube (3, GAME.cube); `owner` is null while centred.
 * @typedef {{value: number, owner: Side | null, offered: boolean, centred: boolean}} Cube
 */

/**
 * How one game ended (3, RESULT).
 * @typedef {object} GameResult
 * @property {Side} winner
 * @property {number} points
 * @property {"single" | "gammon" | "backgammon"} kind
 * @property {"bear-off" | "drop" | "resignation" | "beaver refused" | string} reason
 */

/**
 * A game-log entry (3, EVENT): `type` says which of the optional fields it has.
 * @typedef {object} GameEvent
 * @property {string} type opening, rolled, moved, passed, doubled, beavered, took,
 *   dropped, resigned, resignation_accepted, resignation_rejected, double_chosen, forfeited,
 *   ended
 * @property {Side} [side]
 * @property {number[]} [dice]
 * @property {string} [play]
 * @property {Move[]} [moves]
 * @property {number} [value]
 * @property {number} [number]
 * @property {string} [reason]
 * @property {Side} [winner]
 * @property {number} [points]
 * @property {string} [kind]
 * @property {string} [text]
 */

/**
 * The phases of a game (3, GAME.phase).
 * @typedef {"opening" | "roll" | "double offered" | "beaver offered" | "move" |
 *   "choose double" | "resignation offered" | "over"} Phase
 */

/**
 * The action types a client sends on a table socket (4).
 * @typedef {"join" | "cancel" | "roll" | "double" | "take" | "drop" | "beaver" | "play" |
 *   "choose_double" | "resign" | "accept_resignation" | "reject_resignation" | "forfeit" |
 *   "hint" | "chat" | "ping" | "take_back" | "tutor" | "keep"} ActionType
 */

/**
 * The current game (3, GAME).
 * @typedef {object} Game
 * @property {number} number
 * @property {Phase} phase
 * @property {Side | null} turn the side that must act now
 * @property {Side | null} on_roll
 * @property {[number, number] | null} dice
 * @property {Cube} cube
 * @property {{side: Side, value: number} | null} resignation
 * @property {boolean} crawford the Crawford game: no doubling (R12)
 * @property {string | null} position_id
 * @property {string} match_id
 * @property {Board} board
 * @property {ActionType[]} actions what the receiver may send now
 * @property {Play[]} legal_plays
 * @property {GameEvent[]} log
 * @property {number} [log_from] with log_delta (2.2): the index of the game's log where `log` starts
 * @property {GameResult | null} result
 * @property {string} commitment
 * @property {string | null} seed
 */

/**
 * The series: a match or a money session (3).
 * @typedef {object} Series
 * @property {"match" | "money"} mode
 * @property {number} length
 * @property {[number, number]} score
 * @property {number} game_number
 * @property {boolean} crawford
 * @property {boolean} [over]
 * @property {Side | null} [winner]
 * @property {number | null} [net]
 * @property {[number, number] | null} [bankrolls]
 */

/**
 * The clocks (3, CLOCK): each side's reserve as of `server_ms`.
 * @typedef {object} Clock
 * @property {number} base_s
 * @property {number} delay_s
 * @property {number} increment_s
 * @property {[number, number]} remaining_ms
 * @property {Side | null} running
 * @property {number | null} [started_ms] when the running side's clock started (server time)
 * @property {number} server_ms
 */

/**
 * How the table ended (3, state.result): reason "match", "session", "time" (the loser's
 * clock ran out) or "forfeit" (the loser left); `winner` null on a tied session.
 * @typedef {{winner: Side | null, reason: "match" | "session" | "time" | "forfeit" | string,
 *   score: [number, number]}} TableResult
 */

/**
 * A player's seat (3, state.players).
 * @typedef {{name: string, bot: string | null, connected: boolean}} Player
 */

/**
 * A finished game of the series, for its dice check (3, previous_games).
 * @typedef {{number: number, result: GameResult, commitment: string, seed: string}} PreviousGame
 */

/**
 * The whole state of a table as the receiver sees it (3).
 * @typedef {object} State
 * @property {"state"} type
 * @property {number} table
 * @property {number} seq
 * @property {"open" | "playing" | "finished" | "cancelled"} status
 * @property {Settings} settings
 * @property {Side | null} you
 * @property {(Player | null)[]} players
 * @property {number} spectators
 * @property {Series | null} series
 * @property {Game | null} game
 * @property {PreviousGame[]} previous_games
 * @property {number} [previous_games_from] with games_delta (2.2): the index where `previous_games` start
 * @property {Clock | null} clock
 * @property {TableResult | null} result
 * @property {object | null} last
 * @property {{id: number, match: number}} [tournament] only for a tournament's match (3)
 */

/**
 * One lobby entry (1.3, SUMMARY).
 * @typedef {object} Summary
 * @property {number} id
 * @property {"open" | "playing" | "finished" | "cancelled"} status
 * @property {string} created_by
 * @property {(string | null)[]} players
 * @property {(number | null)[]} [ratings] each player's rating (1.5), null when none
 * @property {Settings} settings
 * @property {string | null} invite
 * @property {string | null} bot
 * @property {[number, number]} score
 * @property {number} spectators
 */

/**
 * A tournament as the lobby lists it (1.6, TOURNAMENT_SUMMARY).
 * @typedef {object} TournamentSummary
 * @property {number} id
 * @property {string} name
 * @property {"scheduled" | "sit_and_go"} kind
 * @property {"registering" | "running" | "finished" | "cancelled"} status
 * @property {number} seats
 * @property {number} registered
 * @property {number | null} start_at
 * @property {number[]} lengths
 * @property {string} variant
 * @property {boolean} rated
 * @property {{target: number, seats: number} | null} satellite
 * @property {string | null} winner
 */

/**
 * A player of a tournament (1.6, ENTRY).
 * @typedef {{entry: number, user: number | null, name: string, bot: string | null,
 *   qualified_from: number | null, out: string | null, place?: string | null}} Entry
 */

/**
 * A match of a tournament's bracket (1.6).
 * @typedef {object} BracketMatch
 * @property {number} match
 * @property {({entry: number | null, name: string, user?: number | null, bot?: string | null} | null)[]} players
 * @property {"waiting" | "ready" | "over"} status
 * @property {number | null} table
 * @property {number | null} show_up_by
 * @property {boolean[]} arrived
 * @property {number | null} winner the winner's entry number
 * @property {string | null} how
 */

/**
 * A whole tournament (1.6, TOURNAMENT).
 * @typedef {object} Tournament
 * @property {number} id
 * @property {{name: string, kind: string, seats: number, start_at: number | null, lengths: number[],
 *   show_up_s: number, rated: boolean, bots: string | null,
 *   satellite: {target: number, seats: number} | null, table: Record<string, any>}} settings
 * @property {"registering" | "running" | "finished" | "cancelled"} status
 * @property {number | null} creator
 * @property {Entry[]} registered
 * @property {number} size
 * @property {{round: number, name: string, length: number, matches: BracketMatch[]}[]} rounds
 * @property {Entry | null} winner
 * @property {Entry[]} qualified
 * @property {Entry[]} standings
 * @property {string | null} cancel_reason
 */

/**
 * A player's page (1.5, PROFILE).
 * @typedef {object} Profile
 * @property {string} name
 * @property {boolean} guest
 * @property {number} rating
 * @property {number} experience
 * @property {boolean} provisional
 * @property {number} matches
 * @property {number} wins
 * @property {{at: number, rating: number, table: number}[]} rating_history
 * @property {{opponent: string, wins: number, losses: number}[]} opponents
 * @property {{table: number, opponent: string, result: string, how: string, mode: string,
 *   length: number | null, variant: string, score: number[], games: number, at: number,
 *   rating_change: number | null, replay: string, record: string, mat: string,
 *   analysis: string | null}[]} recent
 * @property {{table: number, status: string, settings: Settings, created: number}[]} unfinished
 */

/**
 * A bot's page (GET /api/players/gammon-LEVEL): what it is and how it does against people.
 * @typedef {object} BotProfile
 * @property {string} name
 * @property {{level: string, description: string, engine: string, ply: number, noise: number}} bot
 * @property {number} rating
 * @property {{wins: number, losses: number}} record
 * @property {{table: number, opponent: string, result: string, how: string, score: number[],
 *   at: number, replay: string}[]} recent
 */

/**
 * A chat message (6).
 * @typedef {{id: number, user: string, text: string, ms: number}} ChatMessage
 */

/**
 * One play of a hint (4, hint).
 * `mwc`: the match winning chance after the play (match play only).
 * @typedef {{play: string, equity: number, loss: number, win: number, win_gammon: number,
 *   win_backgammon: number, lose_gammon: number, lose_backgammon: number,
 *   mwc?: number}} HintPlay
 */

/**
 * The cube hint (4.5): the doubler's equities (money per unit of cube, or MWC when
 * `match`), the action in words, and the doubler's cubeless chances.
 * @typedef {{doubler: Side, action: string, double: boolean, take: string, no_double: number,
 *   double_take: number, double_pass: number, match: boolean, take_point: number, win: number,
 *   win_gammon: number, win_backgammon: number, lose_gammon: number,
 *   lose_backgammon: number, doubling_point?: number | null, cash_point?: number,
 *   text?: string}} CubeHint
 */

/**
 * The tutor's words on one's own play, right after it (4.5).
 * @typedef {{type: "tutor", seq: number, play: string, best: string, loss: number, mark: string,
 *   ply: number, text: string, take_back: boolean, hold_s?: number, unit?: string, mwc_loss?: number}} Tutor
 */

/**
 * An action or other message a client sends (4, 6): `type` and its fields.
 * @typedef {{type: ActionType | "mute" | "unmute" | "report" | "kick" | "ban" | "unban",
 *   id?: number | string, seq?: number, entropy?: string, [field: string]: unknown}} ClientMessage
 */

/**
 * A refusal (2.1).
 * @typedef {{type: "error", code: string, message: string, id?: number | string}} ErrorMessage
 */

/**
 * Every message a server sends on a socket (2, 3, 4, 6, 7), told apart by `type`.
 * @typedef {State | ErrorMessage |
 *   {type: "ack", id?: number | string, seq?: number} |
 *   {type: "hello", user: User | null, house_rules?: string, table?: number, side?: Side | null,
 *    tournament?: number} |
 *   {type: "tournament", tournament: Tournament} |
 *   {type: "chat_history", messages: ChatMessage[]} |
 *   {type: "chat", message: ChatMessage} |
 *   {type: "muted", user: string, muted: boolean} |
 *   {type: "reported", user: string} |
 *   {type: "moderated", action: string, user: string} |
 *   {type: "hint", id?: number | string, seq: number, plays: HintPlay[], ply?: number, cube?: CubeHint | null} |
 *   Tutor |
 *   {type: "lobby", tables: Summary[], total: number, page: number, pages: number,
 *    tournaments?: TournamentSummary[], you: User | null} |
 *   {type: "rematch", table: number, offered_by: number[], rematch: number | null} |
 *   {type: "pong"}} ServerMessage
 */

/** Points in the mover's numbering (R1): the bar and off. */
export const BAR = 25;
export const OFF = 0;
