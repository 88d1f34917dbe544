// @ts-check
// The delta features (docs/PROTOCOL.md 2.2): once asked for, each state carries only the
// game-log events (log_delta) and the finished games (games_delta) this connection has not
// had yet, and the page puts them after the ones it has. Late in a game the whole log, and
// late in a match the finished games with their seeds, are most of a state: without these
// every action sent them again to every player, and the server wrote and compressed them.

/** @typedef {import("./protocol.js").State} State */

/** The features this client asks for on every (re)connect (docs/PROTOCOL.md 2.2). */
export const FEATURES = ["log_delta", "games_delta"];

/**
 * `state` whole: as it came when it carries the whole log and every finished game, else
 * with what the state shown before (the same table; for the log, the same game) had before
 * `log_from` and `previous_games_from` put before the new parts. Null when those earlier
 * parts are not known here: the caller must get the whole state again (a new connection
 * starts with it).
 * @param {State | null} previous the state shown before, whole
 * @param {State} state as received
 * @returns {State | null}
 */
export function wholeState(previous, state) {
  const before = previous && previous.table === state.table ? previous : null;
  let whole = state;
  const gamesFrom = state.previous_games_from;
  if (gamesFrom !== undefined) {
    const had = before ? before.previous_games : [];
    if (had.length < gamesFrom) return null;
    whole = { ...state, previous_games: had.slice(0, gamesFrom).concat(state.previous_games) };
    delete whole.previous_games_from;
  }
  const g = whole.game;
  if (!g || g.log_from === undefined) return whole;
  const from = g.log_from;
  /** @type {import("./protocol.js").GameEvent[]} */
  let earlier = [];
  if (from > 0) {
    const game = before ? before.game : null;
    if (!game || game.number !== g.number || game.log.length < from) return null;
    earlier = game.log.slice(0, from);
  }
  const game = { ...g, log: earlier.concat(g.log) };
  delete game.log_from;
  return { ...whole, game };
}
