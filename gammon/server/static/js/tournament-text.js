// @ts-check
// Tournaments in the players' words (docs/PROTOCOL.md 1.6): what a match's ending was called,
// the state of a tournament, one line per match. Pure: no DOM (unit-tested with
// `node --test`, tests/js/); tournament.js and the lobby show them.

import { N_, t, tn } from "./i18n.js";

/** @typedef {import("./protocol.js").Tournament} Tournament */
/** @typedef {import("./protocol.js").TournamentSummary} TournamentSummary */
/** @typedef {import("./protocol.js").BracketMatch} BracketMatch */

/** @type {Record<string, string>} */
const HOW = {
  bye: N_("a bye"),
  walkover: N_("a walkover"),
  no_show: N_("the opponent did not come"),
  withdrew: N_("the opponent withdrew"),
  removed: N_("the opponent was removed"),
  lot: N_("drawn by lot"),
  forfeit: N_("the opponent left"),
  time: N_("the opponent ran out of time"),
  match: N_("won the match"),
};

/** The rounds as the server names them (gammon.server.tournaments.bracket.round_name). @type {Record<string, string>} */
const ROUNDS = { final: N_("Final"), "semi-finals": N_("Semi-finals"), "quarter-finals": N_("Quarter-finals") };

/** The variants' names that are words (the others are names: nackgammon, hypergammon). @type {Record<string, string>} */
const VARIANTS = { standard: N_("standard") };

/**
 * A variant's name in the page's language.
 * @param {string} name
 */
export function variantText(name) {
  return VARIANTS[name] ? t(VARIANTS[name]) : name;
}

/**
 * A round's name in the page's language, capitalised ("Final", "Round of 16").
 * @param {string} name the server's ("final", "round of 16")
 */
export function roundText(name) {
  if (ROUNDS[name]) return t(ROUNDS[name]);
  const of = /^round of (\d+)$/.exec(name);
  if (of) return t("Round of {n}", { n: of[1] });
  return name ? `${name[0].toUpperCase()}${name.slice(1)}` : name;
}

/**
 * How a match was won, in words.
 * @param {string | null} how
 */
export function howText(how) {
  if (!how) return "";
  return HOW[how] ? t(HOW[how]) : how.replace(/_/g, " ");
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
 * @param {TournamentSummary} s
 */
export function stateText(s) {
  const kind = s.kind === "scheduled" ? t("Scheduled") : t("Sit & Go");
  if (s.status === "registering") {
    return s.kind === "scheduled" && s.start_at !== null
      ? t("{kind}: registration open, {registered}/{seats}, starts {when}",
        { kind, registered: s.registered, seats: s.seats, when: whenText(s.start_at) })
      : t("{kind}: registration open, {registered}/{seats}, starts when {seats} have registered",
        { kind, registered: s.registered, seats: s.seats });
  }
  if (s.status === "running") return t("{kind}: being played", { kind });
  if (s.status === "finished") {
    return s.winner ? t("{kind}: won by {winner}", { kind, winner: s.winner }) : t("{kind}: finished", { kind });
  }
  return t("{kind}: cancelled", { kind });
}

/**
 * The match lengths, round by round: "3 points", or "3, 5, 7 points (by round)".
 * @param {number[]} lengths
 */
export function lengthsText(lengths) {
  if (lengths.length === 1) return tn("{n}-point matches", "{n}-point matches", lengths[0]);
  return t("{lengths}-point matches (by round, the last repeating)", { lengths: lengths.join(", ") });
}

/**
 * How a match that is over ended, for its box: how its winner went through, or that
 * nobody did (neither player came, docs/PROTOCOL.md 1.6).
 * @param {BracketMatch} m
 */
export function endText(m) {
  if (m.winner === null || m.winner === undefined) return t("neither came: nobody went through");
  return howText(m.how);
}

/**
 * One match of the bracket in words, for its box and for screen readers.
 * @param {BracketMatch} m
 */
export function matchText(m) {
  const names = m.players.map((p) => (p ? p.name : t("to be decided")));
  const both = { first: names[0], second: names[1] };
  if (m.status === "waiting") return t("{first} against {second}: waiting", both);
  if (m.status === "ready") {
    const missing = m.players.filter((p, i) => p && !m.arrived[i]).map((p) => p && p.name);
    if (missing.length === 2) {
      return t("{first} against {second}: waiting for {first} and {second}", both);
    }
    return missing.length
      ? t("{first} against {second}: waiting for {player}", { ...both, player: missing[0] })
      : t("{first} against {second}: being played", both);
  }
  const winner = m.players.find((p) => p && p.entry !== null && p.entry === m.winner);
  if (!winner) return t("{first} against {second}: nobody went through", both);
  return t("{player} went through: {how}", { player: winner.name, how: howText(m.how) });
}
