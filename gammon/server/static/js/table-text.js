// @ts-check
// The table page's words: what the status line says, how a game and a match ended. Pure
// functions of the server's state (no DOM; unit-tested with `node --test`, tests/js/).

/** @typedef {import("./protocol.js").State} State */
/** @typedef {import("./protocol.js").Game} Game */
/** @typedef {import("./protocol.js").GameResult} GameResult */
/** @typedef {import("./protocol.js").Side} Side */

export const KINDS = ["", "single", "gammon", "backgammon"];

/** @param {number} n */
export function points(n) {
  return `${n} point${n === 1 ? "" : "s"}`;
}

/**
 * A side's name at a table, or a stand-in while the seat is empty.
 * @param {State} st
 * @param {number | null | undefined} side
 */
export function nameOf(st, side) {
  if (side === null || side === undefined) return "—";
  const p = st.players[side];
  return p ? p.name : side === 0 ? "side 0" : "side 1";
}

/**
 * How one game ended, in plain words.
 * @param {State} st
 * @param {GameResult} r
 */
export function gameResultText(st, r) {
  const winner = nameOf(st, r.winner);
  const loser = nameOf(st, 1 - r.winner);
  const won = `${winner} wins ${points(r.points)}`;
  switch (r.reason) {
    case "drop":
      return `${loser} dropped the double: ${won}.`;
    case "resignation":
      return `${loser} resigned a ${r.kind}: ${won}.`;
    case "beaver refused":
      return `${loser} refused the beaver: ${won}.`;
    default:
      return `${winner} wins a ${r.kind}: ${points(r.points)}.`;
  }
}

/**
 * How the match or session ended, in plain words; the score only where it is the
 * final score of a finished match or of a session's games.
 * @param {State} st
 */
export function resultText(st) {
  const r = st.result;
  if (!r) return "";
  const money = (st.series ? st.series.mode : st.settings.mode) === "money";
  const what = money ? "session" : "match";
  if (r.reason === "no_show") return "Neither player came to this tournament match: nobody went through.";
  if (r.winner === null || r.winner === undefined) {
    return `The session ended even, ${r.score[0]}-${r.score[1]}.`;
  }
  const w = r.winner;
  const winner = nameOf(st, w);
  const loser = nameOf(st, 1 - w);
  const score = `${r.score[w]}-${r.score[1 - w]}`;
  switch (r.reason) {
    case "match":
    case "session":
      return `${winner} wins the ${what} ${score}.`;
    case "time":
      return money
        ? `${winner} wins the session: ${loser} ran out of time (final score ${score}).`
        : `${winner} wins the match: ${loser} ran out of time.`;
    case "forfeit":
      return money
        ? `${loser} left the session: ${winner} wins (final score ${score}).`
        : `${loser} left the match: ${winner} wins.`;
    default:
      return `${winner} wins the ${what}.`;
  }
}

/**
 * The status line under the board.
 * @param {State} st
 * @param {string | null} complete the play the player has on the board, if complete
 */
export function statusText(st, complete = null) {
  const g = st.game;
  if (st.status === "finished") return resultText(st);
  if (st.status === "cancelled") return "This table was cancelled.";
  if (!g) return "";
  const mine = st.you;
  const viewer = mine === null ? 0 : mine;
  const other = nameOf(st, 1 - viewer);
  const dice = g.dice ? g.dice.join("-") : "";
  const turnName = nameOf(st, g.turn);
  const myTurn = mine !== null && g.turn === mine;
  let text = "";
  switch (g.phase) {
    case "opening":
      text = mine === null ? "Waiting for the opening roll." : "Throw the opening roll: either player may.";
      break;
    case "roll":
      if (myTurn) text = g.actions.includes("double") ? "Your turn: roll or double." : "Your turn: roll.";
      else text = `${turnName} to roll.`;
      break;
    case "double offered": {
      const offer = g.cube.value * 2;
      text = myTurn ? `${other} doubles to ${offer}: take or drop?` : `${turnName} is considering the double to ${offer}.`;
      break;
    }
    case "beaver offered":
      text = myTurn ? `${other} beavers: accept (the cube goes to ${g.cube.value * 2}) or refuse?`
                    : `${turnName} is considering the beaver.`;
      break;
    case "move":
      if (myTurn) text = complete ? `Confirm ${complete}, or undo.` : `Your move: ${dice}. Click or drag a checker.`;
      else text = `${turnName} to play ${dice}.`;
      break;
    case "choose double":
      text = myTurn ? "You rolled 1-2: choose your double." : `${turnName} chooses a double.`;
      break;
    case "resignation offered": {
      const r = g.resignation;
      if (!r) break;
      const what = `a ${KINDS[r.value]} (${points(r.value * g.cube.value)})`;
      text = myTurn ? `${nameOf(st, r.side)} offers to resign ${what}.`
                    : `${nameOf(st, r.side)} offers to resign ${what}; ${turnName} to answer.`;
      break;
    }
    case "over":
      text = g.result ? gameResultText(st, g.result) : "The game is over.";
      break;
    default:
      break;
  }
  if (mine === null && st.status === "playing") text = `Watching: ${text}`;
  return text;
}

/**
 * The cube as the board shows it (null: none), from the viewer's side. In the Crawford
 * game nobody may double (R12), so no cube value is shown.
 * @param {State} st
 * @param {Side} viewer
 * @returns {{value: number, owner: "mine" | "theirs" | null, offered: boolean, offer?: number} | null}
 */
export function cubeModel(st, viewer) {
  const g = st.game;
  if (!st.settings.cube) return null;
  if (!g) return { value: 1, owner: null, offered: false };
  if (g.crawford) return null;
  const lastOffer = [...(g.log || [])].reverse().find((e) => e.type === "doubled" || e.type === "beavered");
  return {
    value: g.cube.value,
    owner: g.cube.owner === null ? null : g.cube.owner === viewer ? "mine" : "theirs",
    offered: g.cube.offered,
    offer: lastOffer && lastOffer.value ? lastOffer.value : g.cube.value * 2,
  };
}

/**
 * The reserve to show for `side`, `elapsed` ms after the state with `clock` arrived.
 * The running side's delay is counted from when its clock started on the server
 * (`started_ms`), not from when this page heard of it, so a page opened mid-turn shows
 * the same as one that was open all along (PROTOCOL.md 3).
 * @param {import("./protocol.js").Clock} clock
 * @param {Side} side
 * @param {number} elapsed
 * @returns {number}
 */
export function shownReserve(clock, side, elapsed) {
  const reserve = clock.remaining_ms[side];
  if (clock.running !== side) return reserve;
  const delay = clock.delay_s * 1000;
  const started = clock.started_ms ?? clock.server_ms;
  const delayLeft = Math.max(0, started + delay - clock.server_ms);
  return Math.max(0, reserve - Math.max(0, elapsed - delayLeft));
}
