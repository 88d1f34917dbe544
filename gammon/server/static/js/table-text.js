// @ts-check
// The table page's words: what the status line says, how a game and a match ended. Pure
// functions of the server's state (no DOM; unit-tested with `node --test`, tests/js/).

/** @typedef {import("./protocol.js").State} State */
/** @typedef {import("./protocol.js").Game} Game */
/** @typedef {import("./protocol.js").GameResult} GameResult */
/** @typedef {import("./protocol.js").Side} Side */

import { number, t, tn } from "./i18n.js";

/** The kinds of win by value (1-3), as the protocol names them. */
export const KINDS = ["", "single", "gammon", "backgammon"];

/** @param {number} n */
export function points(n) {
  return tn("{n} point", "{n} points", n);
}

/**
 * A score as "3-1", in the page's digits.
 * @param {number} a
 * @param {number} b
 */
export function scoreText(a, b) {
  return `${number(a)}-${number(b)}`;
}

/**
 * A roll as "6-4", in the page's digits.
 * @param {number[]} dice
 */
export function diceText(dice) {
  return dice.map((d) => number(d)).join("-");
}

/**
 * The label of the resign menu's button for a value (1-3) worth `n` points.
 * @param {number} value
 * @param {number} n
 */
export function resignLabel(value, n) {
  if (value === 3) return tn("Resign a backgammon ({n} point)", "Resign a backgammon ({n} points)", n);
  if (value === 2) return tn("Resign a gammon ({n} point)", "Resign a gammon ({n} points)", n);
  return tn("Resign a single ({n} point)", "Resign a single ({n} points)", n);
}

/**
 * A side's name at a table, or a stand-in while the seat is empty.
 * @param {State} st
 * @param {number | null | undefined} side
 */
export function nameOf(st, side) {
  if (side === null || side === undefined) return "—";
  const p = st.players[side];
  return p ? p.name : t("side {side}", { side });
}

/**
 * How one game ended, in plain words.
 * @param {State} st
 * @param {GameResult} r
 */
export function gameResultText(st, r) {
  const winner = nameOf(st, r.winner);
  const loser = nameOf(st, 1 - r.winner);
  const n = r.points;
  const values = { winner, loser };
  switch (r.reason) {
    case "drop":
      return tn("{loser} dropped the double: {winner} wins {n} point.",
        "{loser} dropped the double: {winner} wins {n} points.", n, values);
    case "resignation":
      if (r.kind === "backgammon") {
        return tn("{loser} resigned a backgammon: {winner} wins {n} point.",
          "{loser} resigned a backgammon: {winner} wins {n} points.", n, values);
      }
      if (r.kind === "gammon") {
        return tn("{loser} resigned a gammon: {winner} wins {n} point.",
          "{loser} resigned a gammon: {winner} wins {n} points.", n, values);
      }
      return tn("{loser} resigned a single: {winner} wins {n} point.",
        "{loser} resigned a single: {winner} wins {n} points.", n, values);
    case "beaver refused":
      return tn("{loser} refused the beaver: {winner} wins {n} point.",
        "{loser} refused the beaver: {winner} wins {n} points.", n, values);
    default:
      if (r.kind === "backgammon") {
        return tn("{winner} wins a backgammon: {n} point.", "{winner} wins a backgammon: {n} points.", n, values);
      }
      if (r.kind === "gammon") {
        return tn("{winner} wins a gammon: {n} point.", "{winner} wins a gammon: {n} points.", n, values);
      }
      return tn("{winner} wins a single: {n} point.", "{winner} wins a single: {n} points.", n, values);
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
  if (r.reason === "no_show") return t("Neither player came to this tournament match: nobody went through.");
  if (r.winner === null || r.winner === undefined) {
    return t("The session ended even, {score}.", { score: scoreText(r.score[0], r.score[1]) });
  }
  const w = r.winner;
  const winner = nameOf(st, w);
  const loser = nameOf(st, 1 - w);
  const score = scoreText(r.score[w], r.score[1 - w]);
  switch (r.reason) {
    case "match":
    case "session":
      return money ? t("{winner} wins the session {score}.", { winner, score })
        : t("{winner} wins the match {score}.", { winner, score });
    case "time":
      return money
        ? t("{winner} wins the session: {loser} ran out of time (final score {score}).", { winner, loser, score })
        : t("{winner} wins the match: {loser} ran out of time.", { winner, loser });
    case "forfeit":
      return money
        ? t("{loser} left the session: {winner} wins (final score {score}).", { winner, loser, score })
        : t("{loser} left the match: {winner} wins.", { winner, loser });
    default:
      return money ? t("{winner} wins the session.", { winner }) : t("{winner} wins the match.", { winner });
  }
}

/**
 * The offer to resign in the status line: to the one who answers, or to a spectator.
 * @param {number} value 1-3
 * @param {number} n the points it is worth
 * @param {string} player who offers
 * @param {string | null} answerer who answers (null: it is the viewer)
 */
function resignOfferText(value, n, player, answerer) {
  const v = { player, answerer };
  if (answerer === null) {
    if (value === 3) return tn("{player} offers to resign a backgammon ({n} point).", "{player} offers to resign a backgammon ({n} points).", n, v);
    if (value === 2) return tn("{player} offers to resign a gammon ({n} point).", "{player} offers to resign a gammon ({n} points).", n, v);
    return tn("{player} offers to resign a single ({n} point).", "{player} offers to resign a single ({n} points).", n, v);
  }
  if (value === 3) return tn("{player} offers to resign a backgammon ({n} point); {answerer} to answer.", "{player} offers to resign a backgammon ({n} points); {answerer} to answer.", n, v);
  if (value === 2) return tn("{player} offers to resign a gammon ({n} point); {answerer} to answer.", "{player} offers to resign a gammon ({n} points); {answerer} to answer.", n, v);
  return tn("{player} offers to resign a single ({n} point); {answerer} to answer.", "{player} offers to resign a single ({n} points); {answerer} to answer.", n, v);
}

/**
 * The status line under the board.
 * @param {State} st
 * @param {string | null} complete the play the player has on the board, if complete
 */
export function statusText(st, complete = null) {
  const g = st.game;
  if (st.status === "finished") return resultText(st);
  if (st.status === "cancelled") return t("This table was cancelled.");
  if (!g) return "";
  const mine = st.you;
  const viewer = mine === null ? 0 : mine;
  const other = nameOf(st, 1 - viewer);
  const dice = g.dice ? diceText(g.dice) : "";
  const player = nameOf(st, g.turn);
  const myTurn = mine !== null && g.turn === mine;
  let text = "";
  switch (g.phase) {
    case "opening":
      text = mine === null ? t("Waiting for the opening roll.") : t("Throw the opening roll: either player may.");
      break;
    case "roll":
      if (myTurn) text = g.actions.includes("double") ? t("Your turn: roll or double.") : t("Your turn: roll.");
      else text = t("{player} to roll.", { player });
      break;
    case "double offered": {
      const value = number(g.cube.value * 2);
      text = myTurn ? t("{player} doubles to {value}: take or drop?", { player: other, value })
        : t("{player} is considering the double to {value}.", { player, value });
      break;
    }
    case "beaver offered":
      text = myTurn ? t("{player} beavers: accept (the cube goes to {value}) or refuse?",
        { player: other, value: number(g.cube.value * 2) })
        : t("{player} is considering the beaver.", { player });
      break;
    case "move":
      if (myTurn) {
        text = complete ? t("Confirm {play}, or undo.", { play: complete })
          : t("Your move: {dice}. Click or drag a checker.", { dice });
      } else text = t("{player} to play {dice}.", { player, dice });
      break;
    case "choose double":
      text = myTurn ? t("You rolled 1-2: choose your double.") : t("{player} chooses a double.", { player });
      break;
    case "resignation offered": {
      const r = g.resignation;
      if (!r) break;
      text = resignOfferText(r.value, r.value * g.cube.value, nameOf(st, r.side), myTurn ? null : player);
      break;
    }
    case "over":
      text = g.result ? gameResultText(st, g.result) : t("The game is over.");
      break;
    default:
      break;
  }
  if (mine === null && st.status === "playing") text = t("Watching: {text}", { text });
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
