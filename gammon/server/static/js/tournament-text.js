// @ts-check
// Tournaments in the players' words (docs/PROTOCOL.md 1.6): what a match's ending was called,
// the state of a tournament, one line per match. Pure: no DOM (unit-tested with
// `node --test`, tests/js/); tournament.js and the lobby show them.

/** @typedef {import("./protocol.js").Tournament} Tournament */
/** @typedef {import("./protocol.js").TournamentSummary} TournamentSummary */
/** @typedef {import("./protocol.js").BracketMatch} BracketMatch */

/** @type {Record<string, string>} */
const HOW = {
  bye: "a bye",
  walkover: "a walkover",
  no_show: "the opponent did not come",
  withdrew: "the opponent withdrew",
  removed: "the opponent was removed",
  lot: "drawn by lot",
  forfeit: "the opponent left",
  time: "the opponent ran out of time",
  match: "won the match",
};

/**
 * How a match was won, in words.
 * @param {string | null} how
 */
export function howText(how) {
  if (!how) return "";
  return HOW[how] || how.replace(/_/g, " ");
}

/**
 * A time as the players read it: the date and the hour, in their own time zone.
 * @param {number} seconds since 1970
 */
export function whenText(seconds) {
  const date = new Date(seconds * 1000);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The state of a tournament in one line.
 * @param {TournamentSummary} t
 */
export function stateText(t) {
  const kind = t.kind === "scheduled" ? "Scheduled" : "Sit & Go";
  if (t.status === "registering") {
    const when = t.kind === "scheduled" && t.start_at !== null
      ? `starts ${whenText(t.start_at)}`
      : `starts when ${t.seats} have registered`;
    return `${kind}: registration open, ${t.registered}/${t.seats}, ${when}`;
  }
  if (t.status === "running") return `${kind}: being played`;
  if (t.status === "finished") return t.winner ? `${kind}: won by ${t.winner}` : `${kind}: finished`;
  return `${kind}: cancelled`;
}

/**
 * The match lengths, round by round: "3 points", or "3, 5, 7 points (by round)".
 * @param {number[]} lengths
 */
export function lengthsText(lengths) {
  if (lengths.length === 1) return `${lengths[0]}-point matches`;
  return `${lengths.join(", ")}-point matches (by round, the last repeating)`;
}

/**
 * How a match that is over ended, for its box: how its winner went through, or that
 * nobody did (neither player came, docs/PROTOCOL.md 1.6).
 * @param {BracketMatch} m
 */
export function endText(m) {
  if (m.winner === null || m.winner === undefined) return "neither came: nobody went through";
  return howText(m.how);
}

/**
 * One match of the bracket in words, for its box and for screen readers.
 * @param {BracketMatch} m
 */
export function matchText(m) {
  const names = m.players.map((p) => (p ? p.name : "to be decided"));
  if (m.status === "waiting") return `${names[0]} against ${names[1]}: waiting`;
  if (m.status === "ready") {
    const missing = m.players.filter((p, i) => p && !m.arrived[i]).map((p) => p && p.name);
    return `${names[0]} against ${names[1]}: ${missing.length ? `waiting for ${missing.join(" and ")}` : "being played"}`;
  }
  const winner = m.players.find((p) => p && p.entry !== null && p.entry === m.winner);
  if (!winner) return `${names[0]} against ${names[1]}: nobody went through`;
  return `${winner.name} went through: ${howText(m.how)}`;
}
