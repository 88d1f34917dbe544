// @ts-check
// The review page's logic on an analysis document (docs/PROTOCOL.md 9, gammon-analysis/1):
// marks in the move list, the mistakes to step through, what was decided at each step,
// and the equity graph's geometry. Pure: no DOM, unit-tested with `node --test` (tests/js/).
//
// Indices are a game's history indices: the analysis' `index` fields, and the position of
// each event in the game's log (`document.logs[n].log`), which the server writes one event
// per history entry. The board before event `i` is replay frame `i` (replay.js).

import { N_, percent, signed as signedFigure, t, tn } from "./i18n.js";

/** @typedef {import("./protocol.js").GameEvent} GameEvent */

/**
 * One candidate play of a checker decision.
 * `mwc`: the mover's match winning chance after it (match play; null for money).
 * @typedef {{play: string, equity: number, loss: number, chances: number[], ply: number,
 *   mwc?: number | null}} Candidate
 */

/**
 * A checker play reviewed (gammon.engine.analysis CheckerReview).
 * @typedef {{game: number, index: number, side: number, dice: number[], played: string,
 *   candidates: Candidate[], rank: number, legal_plays: number, loss: number, mark: string,
 *   position_id: string | null, cost?: number}} CheckerReview
 */

/**
 * A cube decision reviewed (CubeReview): the doubler's equities, the answer's.
 * @typedef {{game: number, index: number, side: number, cube_value: number, chances: number[],
 *   no_double: number, double_take: number, double_pass: number, verdict: string,
 *   doubled: boolean, response: string | null, doubler_loss: number, doubler_mark: string,
 *   taker_loss: number, taker_mark: string, close: boolean, doubler_cost?: number,
 *   taker_cost?: number, no_double_mwc?: number | null, double_take_mwc?: number | null,
 *   double_pass_mwc?: number | null}} CubeReview
 */

/**
 * A roll's luck (RollLuck): `chances` the roller's before the roll (null at the opening).
 * @typedef {{game: number, index: number, side: number, dice: number[], luck: number,
 *   mark: string, chances: number[] | null, equity: number | null, opening: boolean,
 *   cost?: number}} RollLuck
 */

/**
 * One game of the analysis.
 * @typedef {{number: number, score: number[], match_length: number, winner: number | null,
 *   points: number, end: string | null, checker: CheckerReview[], cube: CubeReview[],
 *   luck: RollLuck[]}} GameAnalysis
 */

/**
 * The teacher's explanation of one mistake.
 * @typedef {{game: number, index: number, side: number, kind: string, played: string,
 *   better: string, loss: number, text: string}} Explanation
 */

/**
 * The review document (gammon-analysis/1).
 * @typedef {{format: string, kind: string, match_length: number, names: string[], ply: number,
 *   luck_ply: number, engine?: {name: string, ply: number}, games: GameAnalysis[],
 *   players: any[], explanations: Explanation[],
 *   patterns: {key: string, name: string, advice: string, count: number}[][],
 *   variant: string, cube: boolean, logs: {number: number, log: GameEvent[]}[],
 *   summary: string[][], unit?: string, unit_words?: string}} AnalysisDocument
 */

/**
 * A mark in the move list: a mistake (`sign` ?!, ? or ??) or a roll's luck.
 * @typedef {{kind: "checker" | "double" | "answer" | "luck", side: number, mark: string,
 *   sign: string, loss: number, cost?: number}} Mark
 */

/** GNU Backgammon's signs for the marks. @type {Record<string, string>} */
export const SIGNS = { doubtful: "?!", bad: "?", "very bad": "??" };
/** Signs of luck: lucky and very lucky rolls up, unlucky ones down. @type {Record<string, string>} */
export const LUCK_SIGNS = { "very lucky": "++", lucky: "+", unlucky: "-", "very unlucky": "--" };

const ANSWERS = new Set(["took", "dropped", "beavered"]);

/** The marks in words (the document's values are English keys). @type {Record<string, string>} */
const MARK_WORDS = {
  doubtful: N_("doubtful"), bad: N_("bad"), "very bad": N_("very bad"),
  "very lucky": N_("very lucky"), lucky: N_("lucky"), unlucky: N_("unlucky"), "very unlucky": N_("very unlucky"),
};

/**
 * A mark ("doubtful", "very lucky") in the page's language.
 * @param {string} mark
 */
export function markText(mark) {
  return MARK_WORDS[mark] ? t(MARK_WORDS[mark]) : mark;
}

/** A cube action in words: the doubler's, and the answer (as GNU Backgammon says them). @type {Record<string, string>} */
const CUBE_ACTIONS = {
  "No double": N_("No double"), Double: N_("Double"), "Too good to double": N_("Too good to double"),
  "No redouble": N_("No redouble"), Redouble: N_("Redouble"), "Too good to redouble": N_("Too good to redouble"),
};
/** @type {Record<string, string>} */
const CUBE_ANSWERS = { take: N_("take"), pass: N_("pass"), beaver: N_("beaver") };
/** What a player did at a cube decision (a review's action or response). @type {Record<string, string>} */
const CUBE_DONE = { double: N_("double"), "no double": N_("no double"), ...CUBE_ANSWERS };

/**
 * The engine's cube verdict ("No double, take") in the page's language; a text it does not
 * know (one the server wrote in another language already) as it is.
 * @param {string} verdict
 */
export function verdictText(verdict) {
  const found = /^(.*), (take|pass|beaver)$/.exec(verdict);
  if (!found || !CUBE_ACTIONS[found[1]]) return verdict;
  return t("{action}, {answer}", { action: t(CUBE_ACTIONS[found[1]]), answer: t(CUBE_ANSWERS[found[2]]) });
}

/**
 * A cube action taken ("double", "no double", "take", "pass", "beaver") in words.
 * @param {string} action
 */
export function cubeDoneText(action) {
  return CUBE_DONE[action] ? t(CUBE_DONE[action]) : action;
}

/**
 * Where the answer to the double at `index` stands in the log (-1: not answered).
 * @param {GameEvent[]} log
 * @param {number} index
 */
export function answerIndex(log, index) {
  for (let i = index + 1; i < log.length; i++) {
    if (ANSWERS.has(log[i].type)) return i;
    if (log[i].type === "moved" || log[i].type === "rolled") break;
  }
  return -1;
}

/**
 * Every mark of one game by history index, mistakes before luck.
 * @param {GameAnalysis} game
 * @param {GameEvent[]} log
 * @returns {Map<number, Mark[]>}
 */
export function gameMarks(game, log) {
  /** @type {Map<number, Mark[]>} */
  const marks = new Map();
  const add = (/** @type {number} */ index, /** @type {Mark} */ mark) => {
    const list = marks.get(index) || [];
    list.push(mark);
    marks.set(index, list);
  };
  for (const r of game.checker) {
    if (r.mark) add(r.index, { kind: "checker", side: r.side, mark: r.mark, sign: SIGNS[r.mark] || "", loss: r.loss, cost: r.cost });
  }
  for (const r of game.cube) {
    if (r.doubler_mark) {
      add(r.index, { kind: "double", side: r.side, mark: r.doubler_mark, sign: SIGNS[r.doubler_mark] || "", loss: r.doubler_loss, cost: r.doubler_cost });
    }
    if (r.taker_mark && r.doubled) {
      const at = answerIndex(log, r.index);
      add(at >= 0 ? at : r.index, { kind: "answer", side: 1 - r.side, mark: r.taker_mark, sign: SIGNS[r.taker_mark] || "", loss: r.taker_loss, cost: r.taker_cost });
    }
  }
  for (const l of game.luck) {
    if (l.mark) add(l.index, { kind: "luck", side: l.side, mark: l.mark, sign: LUCK_SIGNS[l.mark] || "", loss: 0 });
  }
  for (const list of marks.values()) list.sort((a, b) => Number(a.kind === "luck") - Number(b.kind === "luck"));
  return marks;
}

/**
 * The history indices of the game's marked mistakes, in the order they were made.
 * @param {Map<number, Mark[]>} marks
 * @returns {number[]}
 */
export function mistakeIndices(marks) {
  return [...marks.entries()]
    .filter(([, list]) => list.some((m) => m.kind !== "luck"))
    .map(([index]) => index)
    .sort((a, b) => a - b);
}

/**
 * The next (dir 1) or previous (dir -1) mistake from `index`; null when there is none.
 * @param {number[]} indices sorted
 * @param {number} index
 * @param {1 | -1} dir
 */
export function stepMistake(indices, index, dir) {
  if (dir > 0) return indices.find((i) => i > index) ?? null;
  for (let k = indices.length - 1; k >= 0; k--) if (indices[k] < index) return indices[k];
  return null;
}

/**
 * What was decided at history index `index`: the checker review, the cube review (of the
 * doubler at the roll or the double, or of the taker at the answer), the roll's luck, and
 * the teacher's explanations.
 * @param {AnalysisDocument} doc
 * @param {GameAnalysis} game
 * @param {GameEvent[]} log
 * @param {number} index
 */
export function decisionAt(doc, game, log, index) {
  const checker = game.checker.find((r) => r.index === index) || null;
  const cube = game.cube.find((r) => r.index === index || (r.doubled && answerIndex(log, r.index) === index)) || null;
  const luck = game.luck.find((l) => l.index === index) || null;
  const reviewed = cube ? cube.index : index;
  const explanations = (doc.explanations || []).filter((e) => e.game === game.number &&
    (e.index === index || e.index === reviewed));
  return { checker, cube, luck, explanations };
}

/**
 * The graph's points: the viewer's winning chance before each roll, from 50% at the start
 * to the result at the end (x: history index). The viewer is the side the review is seen
 * from: the player reading it, or side 0 for anybody else (reviewSide).
 * @param {GameAnalysis} game
 * @param {number} length the game's log length
 * @param {number} [viewer] 0 or 1
 * @returns {{x: number, y: number}[]}
 */
export function graphPoints(game, length, viewer = 0) {
  const points = [{ x: 0, y: 0.5 }];
  for (const l of game.luck) {
    if (!l.chances) continue;
    const win = l.chances[0];
    points.push({ x: l.index, y: l.side === viewer ? win : 1 - win });
  }
  if (game.winner !== null && game.winner !== undefined) {
    points.push({ x: Math.max(length, points[points.length - 1].x), y: game.winner === viewer ? 1 : 0 });
  }
  return points;
}

/**
 * The side a review is seen from: the reader's seat when they played (by name), else
 * side 0; `played` says which.
 * @param {string[]} names the two players, in seat order
 * @param {string | null} me the reader's name (null: not signed in)
 * @returns {{side: number, played: boolean}}
 */
export function reviewSide(names, me) {
  const side = me === null ? -1 : names.indexOf(me);
  return side === 0 || side === 1 ? { side, played: true } : { side: 0, played: false };
}

/**
 * Where everything goes on a graph `width` x `height` with `pad` around the plot: each
 * point in pixels, the line's path, and the history index under a pixel column.
 * @param {{x: number, y: number}[]} points
 * @param {{width: number, height: number, pad: number, xMax: number}} box
 */
export function graphGeometry(points, { width, height, pad, xMax }) {
  const span = Math.max(xMax, 1);
  const sx = (/** @type {number} */ x) => pad + ((width - 2 * pad) * x) / span;
  const sy = (/** @type {number} */ y) => height - pad - (height - 2 * pad) * Math.min(1, Math.max(0, y));
  const pixels = points.map((p) => ({ ...p, px: sx(p.x), py: sy(p.y) }));
  const path = pixels.map((p, i) => `${i ? "L" : "M"}${p.px.toFixed(1)} ${p.py.toFixed(1)}`).join(" ");
  /** The x (history index) of the point nearest to pixel column `px`. @param {number} px */
  const nearest = (px) => {
    let best = pixels[0];
    for (const p of pixels) if (Math.abs(p.px - px) < Math.abs(best.px - px)) best = p;
    return best ? best.x : 0;
  };
  /** The y (chance) of the line at index x: the last point at or before it. @param {number} x */
  const valueAt = (x) => {
    let y = points.length ? points[0].y : 0.5;
    for (const p of points) if (p.x <= x) y = p.y;
    return y;
  };
  return { pixels, path, sx, sy, nearest, valueAt, mid: sy(0.5) };
}

/**
 * A signed equity as players read it: +0.123.
 * @param {number} value
 */
export function signed(value) {
  const text = signedFigure(value, 3).replace("-", "−");
  return /^[+−]/.test(text) ? text : `+${text}`; // a zero as +0.000, as before
}

/**
 * A chance in per cent with one decimal.
 * @param {number} value
 */
export function pct(value) {
  return percent(value, 1);
}

/**
 * Whether a document shows match winning chance (a match) rather than equity (money).
 * @param {{unit?: string, match_length: number}} doc
 */
export function showsMwc(doc) {
  return doc.unit ? doc.unit === "mwc" : doc.match_length > 0;
}

/**
 * The unit's name for a column or a row: "Equity" or "Match winning chance".
 * @param {{unit?: string, match_length: number}} doc
 */
export function unitName(doc) {
  return showsMwc(doc) ? t("Match winning chance") : t("Equity");
}

/**
 * A figure in the document's unit: a match winning chance in per cent, else a signed equity.
 * @param {{unit?: string, match_length: number}} doc
 * @param {number} equity
 * @param {number | null | undefined} mwc
 */
export function figure(doc, equity, mwc) {
  return showsMwc(doc) && typeof mwc === "number" ? pct(mwc) : signed(equity);
}

/**
 * A loss in the document's unit, as a cost: −0.123 (equity), or −1.4% of match winning chance.
 * @param {{unit?: string, match_length: number}} doc
 * @param {number} loss normalised equity
 * @param {number | null | undefined} mwcLoss the same in match winning chance (a match)
 */
export function lossFigure(doc, loss, mwcLoss) {
  if (showsMwc(doc) && typeof mwcLoss === "number") return `−${pct(Math.max(0, mwcLoss))}`;
  return signed(-loss);
}

/**
 * A gain (or, negative, a loss) in the document's unit, signed: a roll's luck.
 * @param {{unit?: string, match_length: number}} doc
 * @param {number} equity normalised equity
 * @param {number | null | undefined} mwc the same in match winning chance (a match)
 */
export function gainFigure(doc, equity, mwc) {
  if (showsMwc(doc) && typeof mwc === "number") return `${mwc >= 0 ? "+" : "−"}${pct(Math.abs(mwc))}`;
  return signed(equity);
}

/**
 * A candidate's loss against the best, in the document's unit.
 * @param {{unit?: string, match_length: number}} doc
 * @param {Candidate} best
 * @param {Candidate} c
 */
export function candidateLoss(doc, best, c) {
  const gap = typeof best.mwc === "number" && typeof c.mwc === "number" ? best.mwc - c.mwc : null;
  return lossFigure(doc, c.loss, gap);
}

/**
 * What a queued or running job says to the person waiting for it.
 * @param {{status: string, position: number | null, queued: number, workers: number,
 *   progress: {done: number, total: number} | null, error: string | null}} job
 */
export function waitingText(job) {
  const atOnce = tn("{n} analysis runs at a time", "{n} analyses run at a time", job.workers);
  if (job.status === "queued") {
    if (!job.workers) return t("Queued: this server is not running analyses at the moment.");
    return job.position === 1
      ? t("Queued: yours is next ({at_once}).", { at_once: atOnce })
      : t("Queued: number {position} in line ({at_once}).", { position: job.position, at_once: atOnce });
  }
  if (job.status === "running") {
    const p = job.progress;
    return p && p.total
      ? t("Analysing: step {done} of {total} ({percent}).",
        { done: p.done, total: p.total, percent: percent(Math.floor((100 * p.done) / p.total) / 100, 0) })
      : t("Analysing: starting…");
  }
  if (job.status === "failed") {
    const error = job.error || t("unknown error");
    return t("The analysis failed: {error}", { error });
  }
  return "";
}
