// @ts-check
// The log_delta feature (docs/PROTOCOL.md 2.2): once asked for, each state carries only the
// game-log events this connection has not had yet, and the page puts them after the ones it
// has. Late in a game the whole log is most of a state: without this every action sent it
// again to every player, and the server wrote and compressed it each time.

/** @typedef {import("./protocol.js").State} State */

/** The features this client asks for on every (re)connect (docs/PROTOCOL.md 2.2). */
export const FEATURES = ["log_delta"];

/**
 * `state` with its game's whole log: as it came when it carries the whole log (no
 * `log_from`), else the first `log_from` events of the state shown before (the same game of
 * the same table) followed by the new ones. Null when those earlier events are not known
 * here: the caller must get the whole log again (a new connection starts with it).
 * @param {State | null} previous the state shown before, with its whole log
 * @param {State} state as received
 * @returns {State | null}
 */
export function withWholeLog(previous, state) {
  const g = state.game;
  if (!g || g.log_from === undefined) return state;
  const from = g.log_from;
  /** @type {import("./protocol.js").GameEvent[]} */
  let earlier = [];
  if (from > 0) {
    const before = previous && previous.table === state.table ? previous.game : null;
    if (!before || before.number !== g.number || before.log.length < from) return null;
    earlier = before.log.slice(0, from);
  }
  const game = { ...g, log: earlier.concat(g.log) };
  delete game.log_from;
  return { ...state, game };
}
