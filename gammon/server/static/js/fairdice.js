// @ts-check
// Checking the dice of a finished game in the browser (R13, DICE.md: gammon-fair-dice/1).
//
// The browser keeps, per table and game, the commitment it saw before the
// game's first roll and every entropy contribution it sent with an accepted
// action (and how many rolls the game had then). After the game it recomputes
// each roll from the revealed seed with SubtleCrypto and checks the record
// against what it kept.

import { t, tn } from "./i18n.js";
import { fromHex, toHex } from "./util.js";

export const FORMAT = "gammon-fair-dice/1";

/**
 * What this browser kept of one game: the commitment it saw first and each contribution
 * it sent (`rollsBefore`: the rolls the game had then; `acked` once the server accepted).
 * @typedef {{commitment: string | null, sent: {hex: string, rollsBefore: number, acked: boolean, seq?: number}[]}} Kept
 */

/**
 * One roll as checked.
 * @typedef {{index: number, dice: number[], entropy: string[], expected: number[] | null, ok: boolean,
 *   mine: number, problem: string | null}} RollCheck
 */

/**
 * The answer of verifyGame.
 * @typedef {{ok: boolean, summary: string, problems: string[], rolls: RollCheck[], notes: string[]}} Report
 */

/** @param {Uint8Array} bytes */
const sha256 = async (bytes) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", /** @type {BufferSource} */ (bytes)));

/** @param {number} x */
function u32(x) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, x);
  return out;
}

/** @param {Uint8Array[]} parts */
function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The dice of roll number `index` (from 1) for `seed` and `entropy`.
 * @param {Uint8Array} seed
 * @param {number} index
 * @param {Uint8Array[]} entropy
 * @returns {Promise<number[]>}
 */
export async function deriveDice(seed, index, entropy) {
  const hashes = await Promise.all(entropy.map(sha256));
  hashes.sort((a, b) => {
    for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  });
  const label = new TextEncoder().encode(`${FORMAT}\0`);
  const message = concat([label, u32(index), u32(hashes.length), ...hashes]);
  const key = await crypto.subtle.importKey(
    "raw", /** @type {BufferSource} */ (seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
  );
  const dice = [];
  for (let block = 0; dice.length < 2; block++) {
    const bytes = new Uint8Array(
      await crypto.subtle.sign("HMAC", key, concat([message, u32(block)])),
    );
    for (const b of bytes) if (b < 252 && dice.length < 2) dice.push((b % 6) + 1);
  }
  return dice;
}

// -- what this browser kept ------------------------------------------------------------------

/**
 * @param {number} table
 * @param {number} game
 */
const keyFor = (table, game) => `gammon:dice:${table}:${game}`;

/**
 * @param {number} table
 * @param {number} game
 * @returns {Kept}
 */
function load(table, game) {
  try {
    return JSON.parse(localStorage.getItem(keyFor(table, game)) || "null") || { commitment: null, sent: [] };
  } catch {
    return { commitment: null, sent: [] };
  }
}

/**
 * @param {number} table
 * @param {number} game
 * @param {Kept} data
 */
function save(table, game, data) {
  try {
    localStorage.setItem(keyFor(table, game), JSON.stringify(data));
  } catch {
    // Storage full or switched off: the check will say it has nothing kept.
  }
}

/**
 * Keep the commitment seen for a game before its seed was revealed (the first one seen wins).
 * @param {number} table
 * @param {number} game
 * @param {string} commitment
 */
export function keepCommitment(table, game, commitment) {
  const data = load(table, game);
  if (!data.commitment) {
    data.commitment = commitment;
    save(table, game, data);
  }
}

/**
 * Keep one contribution as it is sent: it must be in roll number ``rollsBefore + 1``
 * once the server accepts the action (confirmSent), and is forgotten if refused (dropSent).
 * @param {number} table
 * @param {number} game
 * @param {string} hex
 * @param {number} rollsBefore
 */
export function keepSent(table, game, hex, rollsBefore) {
  const data = load(table, game);
  data.sent.push({ hex, rollsBefore, acked: false });
  save(table, game, data);
}

/**
 * @param {number} table
 * @param {number} game
 * @param {string} hex
 * @param {number} seq
 */
export function confirmSent(table, game, hex, seq) {
  const data = load(table, game);
  const entry = data.sent.find((e) => e.hex === hex);
  if (entry) {
    entry.acked = true;
    entry.seq = seq;
    save(table, game, data);
  }
}

/**
 * @param {number} table
 * @param {number} game
 * @param {string} hex
 */
export function dropSent(table, game, hex) {
  const data = load(table, game);
  data.sent = data.sent.filter((e) => e.hex !== hex);
  save(table, game, data);
}

/**
 * @param {number} table
 * @param {number} game
 */
export function kept(table, game) {
  return load(table, game);
}

// -- checking a record ---------------------------------------------------------------------------

/**
 * Check one game record. Returns {ok, summary, problems, rolls: [{index, dice, expected, ok,
 * mine}], notes}. `bot` says the game was against the bot (every contribution must be ours).
 * @param {any} record a gammon-fair-dice/1 record (docs/PROTOCOL.md 5)
 * @param {{table?: number, game?: number, bot?: boolean}} [options]
 * @returns {Promise<Report>}
 */
export async function verifyGame(record, { table, game, bot = false } = {}) {
  /** @type {string[]} */
  const problems = [];
  /** @type {string[]} */
  const notes = [];
  /** @type {RollCheck[]} */
  const rolls = [];
  if (!crypto.subtle) {
    return {
      ok: false,
      summary: t("this browser offers no SubtleCrypto here (it needs https or localhost)"),
      problems: [t("no SubtleCrypto: use gammon verify instead")],
      rolls,
      notes,
    };
  }
  if (record.format !== FORMAT) problems.push(t("unknown record format {format}", { format: JSON.stringify(record.format) }));
  /** @type {Uint8Array | undefined} */
  let seed;
  try {
    seed = fromHex(record.seed);
    if (seed.length !== 32) throw new Error("length");
  } catch {
    problems.push(t("the seed is not 32 bytes of hex"));
  }
  if (seed) {
    const digest = toHex(await sha256(seed));
    if (digest !== String(record.commitment).toLowerCase()) {
      problems.push(t("the seed does not match the commitment (SHA-256 of the seed differs)"));
    }
  }
  /** @type {Kept} */
  const mine = table !== undefined && game !== undefined ? kept(table, game) : { commitment: null, sent: [] };
  if (mine.commitment) {
    if (mine.commitment !== record.commitment) {
      problems.push(t("the commitment differs from the one this browser saw before the game ({commitment}…)",
        { commitment: mine.commitment.slice(0, 16) }));
    } else {
      notes.push(t("the commitment is the one this browser saw before the first roll"));
    }
  } else {
    notes.push(t("this browser did not see this game's commitment before it ended"));
  }
  const sentHex = new Set(mine.sent.map((e) => e.hex.toLowerCase()));
  const logDice = ((record.game && record.game.log) || [])
    .filter((/** @type {{type: string}} */ e) => e.type === "opening" || e.type === "rolled")
    .map((/** @type {{dice: number[]}} */ e) => e.dice);
  const list = Array.isArray(record.rolls) ? record.rolls : [];
  for (let i = 0; i < list.length; i++) {
    const roll = list[i];
    /** @type {RollCheck} */
    const entry = { index: roll.index, dice: roll.dice, entropy: roll.entropy || [], expected: null,
                    ok: false, mine: 0, problem: null };
    rolls.push(entry);
    if (roll.index !== i + 1) {
      entry.problem = t("roll {number} is numbered {index}: a roll is missing or out of order", { number: i + 1, index: roll.index });
    } else if (seed) {
      try {
        const entropy = entry.entropy.map((hex) => fromHex(hex));
        entry.expected = await deriveDice(seed, roll.index, entropy);
        entry.ok = entry.expected[0] === roll.dice[0] && entry.expected[1] === roll.dice[1];
        if (!entry.ok) {
          entry.problem = t("roll {index}: the record says {dice}, the seed and entropy give {expected}",
            { index: roll.index, dice: roll.dice.join("-"), expected: entry.expected.join("-") });
        }
      } catch (err) {
        entry.problem = t("roll {index}: unreadable entropy ({error})", { index: roll.index, error: /** @type {Error} */ (err).message });
      }
    }
    if (entry.ok && logDice[i] && (logDice[i][0] !== roll.dice[0] || logDice[i][1] !== roll.dice[1])) {
      entry.ok = false;
      entry.problem = t("roll {index}: the game log shows {logged}, the record {dice}", { index: roll.index, logged: logDice[i].join("-"), dice: roll.dice.join("-") });
    }
    entry.mine = entry.entropy.filter((e) => sentHex.has(e.toLowerCase())).length;
    if (entry.problem) problems.push(entry.problem);
  }
  if (logDice.length && logDice.length !== list.length) {
    problems.push(tn("the game log has {n} roll, the record {count}", "the game log has {n} rolls, the record {count}", logDice.length, { count: list.length }));
  }
  // Each contribution we sent must be in the first roll after we sent it (DICE.md).
  // A contribution whose answer never came (the connection dropped) may or may not have
  // been used: it counts as ours, but its absence is no problem.
  let unused = 0;
  const acked = mine.sent.filter((e) => e.acked !== false);
  for (const sent of acked) {
    const roll = list[sent.rollsBefore];
    if (!roll) {
      unused += 1;
      continue;
    }
    if (!(roll.entropy || []).some((/** @type {string} */ e) => e.toLowerCase() === sent.hex.toLowerCase())) {
      problems.push(t("your contribution {hex}… is not in roll {number}, the first roll after you sent it",
        { hex: sent.hex.slice(0, 12), number: sent.rollsBefore + 1 }));
    }
  }
  if (acked.length) {
    const found = acked.length - unused;
    notes.push(unused
      ? tn("{n} contribution from this browser found where it belongs; {unused} sent after the last roll (never used)",
        "{n} contributions from this browser found where they belong; {unused} sent after the last roll (never used)",
        found, { unused })
      : tn("{n} contribution from this browser found where it belongs",
        "{n} contributions from this browser found where they belong", found));
  }
  if (bot) {
    if (mine.sent.length) {
      const foreign = list.flatMap((/** @type {{entropy?: string[]}} */ r) => r.entropy || [])
        .filter((/** @type {string} */ e) => !sentHex.has(e.toLowerCase()));
      if (foreign.length) {
        problems.push(tn("{n} contribution in this game against the bot was not sent by this browser",
          "{n} contributions in this game against the bot were not sent by this browser", foreign.length));
      } else {
        notes.push(t("every contribution is one this browser sent (a game against the bot)"));
      }
    } else {
      notes.push(t("this browser has no list of what it sent in this game, so it cannot check for contributions it did not send"));
    }
  }
  const ok = problems.length === 0 && list.length > 0;
  const summary = ok
    ? tn("all {n} rolls verified", "all {n} rolls verified", list.length)
    : problems.length
      ? problems[0]
      : t("the record has no rolls");
  return { ok, summary, problems, rolls, notes };
}

/**
 * The fair-dice page's opening, for a player rather than a cryptographer (issue 16, item 7):
 * why these dice could not be cheated, and what this browser just found for this game, in
 * two sentences; the details (the rolls, the seed, the notes) come below them.
 * @param {Report} report
 * @returns {[string, string]}
 */
export function plainWords(report) {
  const why = t("These dice could not be cheated: before the first roll the server locked in a secret seed by publishing its fingerprint, and every roll mixes that seed with random numbers sent by the players' browsers, so nobody, not even the server, could choose or foresee a roll.");
  if (!report.ok) {
    return [why, t("This browser checked this game's rolls and found a problem ({problem}): the details are below.",
      { problem: report.summary })];
  }
  const n = report.rolls.length;
  const mine = report.rolls.filter((r) => r.mine > 0).length;
  let checked;
  if (!mine) {
    checked = tn("This browser has just checked the one roll of this game against the seed revealed at its end: each is exactly the roll it had to be.",
      "This browser has just checked all {n} rolls of this game against the seed revealed at its end: each is exactly the roll it had to be.", n);
  } else if (mine < n) {
    checked = t("This browser has just checked all {n} rolls of this game against the seed revealed at its end, {mine} of them with numbers this browser sent itself: each is exactly the roll it had to be.",
      { n, mine });
  } else if (n === 1) {
    checked = t("This browser has just checked the one roll of this game against the seed revealed at its end, which mixed in numbers this browser sent itself: each is exactly the roll it had to be.");
  } else {
    checked = t("This browser has just checked all {n} rolls of this game against the seed revealed at its end, every one with numbers this browser sent itself: each is exactly the roll it had to be.",
      { n });
  }
  return [why, checked];
}
