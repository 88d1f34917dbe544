// @ts-check
// Turning clicks and drags into one of the server's legal plays: the pure move logic of
// the table page (no DOM; unit-tested with `node --test`, tests/js/).
//
// The client holds no rules. The server sends every legal play (docs/PROTOCOL.md 3,
// PLAY) with each die's move as [from, to, hit] in an order that can be played. A
// player's steps (one checker, one die each) are allowed while they are moves of some
// listed play not yet made, and complete once they are all of one play's moves; a drag
// over several points is a chain of such moves. So the player can play a play's moves in
// any order, and the client never makes a play the server did not list.
//
// The board after each step is plain arithmetic: a checker leaves `from` and lands on
// `to`; a lone opposing checker there goes to the opponent's bar.

import { BAR, OFF } from "./protocol.js";

/** @typedef {import("./protocol.js").Board} Board */
/** @typedef {import("./protocol.js").Play} Play */

/**
 * The mover's checkers and the opponent's, as one turn's steps change them.
 * @typedef {{mine: number[], theirs: number[], off: number, waiting: number}} Stones
 */

/** One checker moved by one die. @typedef {{from: number, to: number, hit: boolean}} Step */

/** A step a play has not made yet, and the play. @typedef {{play: Play, left: Step[]}} Candidate */

/**
 * The mover's part of a server board.
 * @param {Board} board
 * @returns {Stones}
 */
export function fromServer(board) {
  return {
    mine: board.mine.slice(),
    theirs: board.theirs.slice(),
    off: board.off[0],
    waiting: board.waiting ? board.waiting[0] : 0,
  };
}

/** @param {Stones} b */
export function boardKey(b) {
  return `${b.mine.join(",")}|${b.theirs.join(",")}|${b.off}|${b.waiting}`;
}

/**
 * Whether the mover has a checker to move from `from` (the bar: on it, or waiting to enter).
 * @param {Stones} b
 * @param {number} from
 */
export function hasChecker(b, from) {
  if (from === BAR) return b.mine[24] > 0 || b.waiting > 0;
  return from >= 1 && from <= 24 && b.mine[from - 1] > 0;
}

/**
 * The board after one checker goes from `from` to `to`, and whether it hit a lone checker.
 * @param {Stones} b
 * @param {number} from
 * @param {number} to
 * @returns {{board: Stones, hit: boolean}}
 */
export function applyMove(b, from, to) {
  const mine = b.mine.slice();
  const theirs = b.theirs.slice();
  let { off, waiting } = b;
  if (from === BAR) {
    if (mine[24] > 0) mine[24] -= 1;
    else waiting -= 1;
  } else {
    mine[from - 1] -= 1;
  }
  let hit = false;
  if (to === OFF) {
    off += 1;
  } else {
    mine[to - 1] += 1;
    // My point `to` is the opponent's point 25 - to: index 24 - to.
    if (theirs[24 - to] === 1) {
      theirs[24 - to] = 0;
      theirs[24] += 1;
      hit = true;
    }
  }
  return { board: { mine, theirs, off, waiting }, hit };
}

/**
 * `moves` less one move from..to, or null when it has none.
 * @param {Step[]} moves
 * @param {number} from
 * @param {number} to
 */
function without(moves, from, to) {
  const i = moves.findIndex((m) => m.from === from && m.to === to);
  return i < 0 ? null : moves.slice(0, i).concat(moves.slice(i + 1));
}

/**
 * Which die each move used, for showing the dice: an exact move used its distance; a
 * checker borne off used the smallest die left that reaches off.
 * @param {number[]} dice the dice of the turn (four for doubles)
 * @param {{from: number, to: number}[]} moves
 * @returns {boolean[]} for each die, whether it is used
 */
export function usedDice(dice, moves) {
  const used = dice.map(() => false);
  const take = (/** @type {(d: number) => boolean} */ fits, smallest = false) => {
    let best = -1;
    dice.forEach((d, i) => {
      if (!used[i] && fits(d) && (best < 0 || (smallest && d < dice[best]))) best = i;
    });
    if (best >= 0) used[best] = true;
    return best >= 0;
  };
  const bearing = [];
  for (const m of moves) {
    if (m.to === OFF) bearing.push(m);
    else take((d) => d === m.from - m.to);
  }
  // The farthest checker first: it needs the biggest die.
  bearing.sort((a, b) => b.from - a.from);
  for (const m of bearing) {
    if (!take((d) => d >= m.from, true)) take(() => true);
  }
  return used;
}

/**
 * The player's moves within one turn: the steps made so far (undoable), which checkers
 * may move, where each may go, and the legal play once the steps make one.
 */
export class MoveInput {
  /**
   * @param {Board} board the board to play on, from the mover's side
   * @param {number[]} dice the roll
   * @param {Play[]} legalPlays the server's legal plays of that roll
   */
  constructor(board, dice, legalPlays) {
    /** @type {Stones} */
    this.start = fromServer(board);
    /** @type {number[]} */
    this.dice = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
    /** @type {Play[]} */
    this.plays = legalPlays;
    /** @type {Step[]} */
    this.steps = [];
  }

  /** The board with the steps made. */
  get board() {
    let b = this.start;
    for (const st of this.steps) b = applyMove(b, st.from, st.to).board;
    return b;
  }

  /**
   * The plays the steps so far are part of, each with its moves not made yet.
   * @returns {Candidate[]}
   */
  get candidates() {
    /** @type {Candidate[]} */
    const out = [];
    for (const play of this.plays) {
      /** @type {Step[] | null} */
      let left = play.moves.map(([from, to, hit]) => ({ from, to, hit }));
      for (const st of this.steps) {
        left = without(left, st.from, st.to);
        if (!left) break;
      }
      if (left) out.push({ play, left });
    }
    return out;
  }

  /** The legal play the steps make, once they make one. */
  get complete() {
    const done = this.candidates.find((c) => c.left.length === 0);
    return done ? done.play : null;
  }

  /**
   * Points (and BAR) with a checker that can move now.
   * @returns {Set<number>}
   */
  movable() {
    const out = new Set();
    for (const from of this.sources()) {
      if (this.destinations(from).size) out.add(from);
    }
    return out;
  }

  /** @returns {number[]} */
  sources() {
    const b = this.board;
    // The server lists a play's entries from the bar first (R4): the client keeps to that.
    if (b.mine[24] > 0) return [BAR];
    const out = new Set();
    for (const c of this.candidates) {
      for (const m of c.left) if (hasChecker(b, m.from)) out.add(m.from);
    }
    return [...out].sort((x, y) => y - x);
  }

  /**
   * Where the checker on `from` may go now: a Map from the target point (0 = off) to the
   * steps that take it there (one move, or a chain of moves of the same checker).
   * The shortest chain wins, then the one that hits fewer checkers.
   * @param {number} from
   * @returns {Map<number, Step[]>}
   */
  destinations(from) {
    /** @type {Map<number, Step[]>} */
    const out = new Map();
    const start = this.board;
    if (!hasChecker(start, from) || (start.mine[24] > 0 && from !== BAR)) return out;
    const hits = (/** @type {Step[]} */ route) => route.filter((x) => x.hit).length;
    /**
     * @param {Stones} board
     * @param {Step[]} left
     * @param {number} at
     * @param {Step[]} path
     */
    const walk = (board, left, at, path) => {
      const seen = new Set();
      for (const m of left) {
        if (m.from !== at || seen.has(m.to)) continue;
        seen.add(m.to);
        const { board: after, hit } = applyMove(board, m.from, m.to);
        const route = [...path, { from: m.from, to: m.to, hit }];
        const known = out.get(m.to);
        if (!known || route.length < known.length ||
            (route.length === known.length && hits(route) < hits(known))) {
          out.set(m.to, route);
        }
        const rest = without(left, m.from, m.to);
        // A checker that entered from the bar may go on only once the bar is empty.
        if (m.to !== OFF && rest && rest.length && after.mine[24] === 0) walk(after, rest, m.to, route);
      }
    };
    for (const c of this.candidates) walk(start, c.left, from, []);
    return out;
  }

  /** The values of the dice not used yet, the highest first. */
  unusedDice() {
    return this.diceState().filter((d) => !d.used).map((d) => d.value).sort((a, b) => b - a);
  }

  /**
   * The die a one-click move tries first: `prefer` (a value) while it is unused, else the
   * highest unused; null once all are used.
   * @param {number | null} [prefer]
   */
  oneClickDie(prefer = null) {
    const unused = this.unusedDice();
    if (prefer !== null && unused.includes(prefer)) return prefer;
    return unused.length ? unused[0] : null;
  }

  /**
   * Where one click on `from` sends its checker (fast entry, settings.js): by the die
   * `prefer` (a value) when one move of it is legal from there, else by another unused
   * die, the highest first; null when no single die moves it (the player then picks the
   * point). A checker borne off with a bigger die than it needs counts for that die.
   * @param {number} from
   * @param {number | null} [prefer]
   * @returns {number | null} the target point (0 off)
   */
  oneClickTarget(from, prefer = null) {
    const unused = this.unusedDice();
    const first = this.oneClickDie(prefer);
    const order = [...new Set(first === null ? unused : [first, ...unused])];
    const single = [...this.destinations(from)].filter(([, route]) => route.length === 1);
    for (const die of order) {
      const exact = single.find(([to]) => to !== OFF && from - to === die);
      if (exact) return exact[0];
      const off = single.find(([to]) => to === OFF && from <= die);
      if (off) return OFF;
    }
    return null;
  }

  /**
   * Move the checker on `from` to `to` if it may go there.
   * @param {number} from
   * @param {number} to
   * @returns {boolean} whether it moved
   */
  move(from, to) {
    const route = this.destinations(from).get(to);
    if (!route) return false;
    this.steps.push(...route);
    return true;
  }

  /** Take back the last step (a play is final only once confirmed). */
  undo() {
    return this.steps.pop() !== undefined;
  }

  reset() {
    this.steps = [];
  }

  /**
   * Put a legal play from the server's list on the board, its moves in their listed order.
   * @param {Play} play
   * @returns {boolean} whether it is now the complete play
   */
  setPlay(play) {
    this.steps = [];
    let b = this.start;
    for (const [from, to] of play.moves) {
      const { board, hit } = applyMove(b, from, to);
      this.steps.push({ from, to, hit });
      b = board;
    }
    const complete = this.complete;
    if (complete && complete.play === play.play) return true;
    this.steps = [];
    return false;
  }

  /**
   * The dice as shown: each value and whether it has been used.
   * @returns {{value: number, used: boolean}[]}
   */
  diceState() {
    const used = usedDice(this.dice, this.steps);
    return this.dice.map((value, i) => ({ value, used: used[i] }));
  }

  /**
   * The legal plays that go on from the steps on the board (all of them before any step),
   * the complete one first.
   * @returns {Play[]}
   */
  choices() {
    const candidates = this.candidates;
    const done = candidates.filter((c) => c.left.length === 0).map((c) => c.play);
    return done.concat(candidates.filter((c) => c.left.length > 0).map((c) => c.play));
  }
}
