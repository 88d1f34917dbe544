// Just enough of the rules to let a player move checkers one die at a time.
//
// The server is the judge: it sends every legal play of the dice (R4-R8) with
// the board after it. A checker step here is the move of one checker by one die
// (R4: entering from the bar first, R6: hitting a blot, R8: bearing off); a
// sequence of steps is allowed while it can still end on the board of one of
// the server's legal plays, and it is complete when it does. So the player can
// play the dice in any order and any split, and the client never invents a play.

export const BAR = 25;
export const OFF = 0;

const STARTS = {
  standard: [[24, 2], [13, 5], [8, 3], [6, 5]],
  nackgammon: [[24, 2], [23, 2], [13, 4], [8, 3], [6, 4]],
  hypergammon: [[24, 1], [23, 1], [22, 1]],
  tavla: [[24, 2], [13, 5], [8, 3], [6, 5]],
  "acey-deucey": [],
};

export function checkersFor(variant) {
  return variant === "hypergammon" ? 3 : 15;
}

/** A board from the mover's side: {mine, theirs (each 25 counts, owner's numbering), off, waiting}. */
export function fromServer(board) {
  return {
    mine: board.mine.slice(),
    theirs: board.theirs.slice(),
    off: board.off[0],
    waiting: board.waiting ? board.waiting[0] : 0,
  };
}

export function boardKey(b) {
  return `${b.mine.join(",")}|${b.theirs.join(",")}|${b.off}|${b.waiting}`;
}

function allHome(b) {
  if (b.waiting > 0) return false;
  for (let i = 6; i < 25; i++) if (b.mine[i] > 0) return false;
  return true;
}

/** One checker from ``from`` moved by ``die``, or null when the rules forbid it (R4-R8). */
export function step(b, from, die) {
  const onBar = b.mine[24];
  if (from === BAR) {
    if (onBar === 0 && b.waiting === 0) return null;
  } else {
    if (from < 1 || from > 24 || b.mine[from - 1] === 0) return null;
    if (onBar > 0) return null; // R4: enter from the bar first
  }
  const to = from - die;
  if (to >= 1) {
    const blockers = b.theirs[24 - to];
    if (blockers >= 2) return null;
    return { from, to, hit: blockers === 1, die };
  }
  if (from === BAR || !allHome(b)) return null;
  if (to < 0) {
    // R8: a higher die bears off only from the highest point.
    for (let p = from + 1; p <= 6; p++) if (b.mine[p - 1] > 0) return null;
  }
  return { from, to: OFF, hit: false, die };
}

export function applyStep(b, st) {
  const mine = b.mine.slice();
  const theirs = b.theirs.slice();
  let { off, waiting } = b;
  if (st.from === BAR) {
    if (mine[24] > 0) mine[24] -= 1;
    else waiting -= 1;
  } else {
    mine[st.from - 1] -= 1;
  }
  if (st.to === OFF) off += 1;
  else {
    mine[st.to - 1] += 1;
    if (st.hit) {
      theirs[24 - st.to] -= 1;
      theirs[24] += 1;
    }
  }
  return { mine, theirs, off, waiting };
}

function without(dice, die) {
  const i = dice.indexOf(die);
  return dice.slice(0, i).concat(dice.slice(i + 1));
}

function sources(b) {
  const out = [];
  if (b.mine[24] > 0 || b.waiting > 0) out.push(BAR);
  if (b.mine[24] > 0) return out;
  for (let p = 24; p >= 1; p--) if (b.mine[p - 1] > 0) out.push(p);
  return out;
}

/**
 * The player's moves within one turn: the steps made so far (undoable), which
 * checkers may move, where each may go, and the legal play once complete.
 */
export class MoveInput {
  constructor(board, dice, legalPlays) {
    this.start = fromServer(board);
    this.dice = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
    this.plays = new Map();
    for (const play of legalPlays) this.plays.set(boardKey(fromServer(play.board)), play);
    this.memo = new Map();
    this.steps = [];
    this.works = this.viable(this.start, this.dice);
  }

  get board() {
    let b = this.start;
    for (const st of this.steps) b = applyStep(b, st);
    return b;
  }

  get remaining() {
    let left = this.dice;
    for (const st of this.steps) left = without(left, st.die);
    return left;
  }

  /** The legal play the steps make, once they make one. */
  get complete() {
    return this.plays.get(boardKey(this.board)) || null;
  }

  viable(b, dice) {
    const key = `${boardKey(b)}#${dice.join("")}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    let ok = this.plays.has(boardKey(b));
    if (!ok) {
      const tried = new Set();
      for (const die of dice) {
        if (tried.has(die)) continue;
        tried.add(die);
        const rest = without(dice, die);
        for (const from of sources(b)) {
          const st = step(b, from, die);
          if (st && this.viable(applyStep(b, st), rest)) {
            ok = true;
            break;
          }
        }
        if (ok) break;
      }
    }
    this.memo.set(key, ok);
    return ok;
  }

  /**
   * Points (and BAR) with a checker that can move now. A complete play may still go on:
   * bearing off, 5/off with the 6 alone is also 5/4/off, a whole legal play, while 3/2
   * with the 1 would make another.
   */
  movable() {
    const out = new Set();
    for (const from of sources(this.board)) {
      if (this.destinations(from).size) out.add(from);
    }
    return out;
  }

  /**
   * Where the checker on ``from`` may go: a Map from the target point (0 = off)
   * to the steps that take it there (one die, or several dice for the same checker).
   */
  destinations(from) {
    const out = new Map();
    const frontier = [{ board: this.board, dice: this.remaining, at: from, path: [] }];
    while (frontier.length) {
      const { board, dice, at, path } = frontier.shift();
      const tried = new Set();
      // The smaller die first: bearing off uses the lowest die that does it.
      for (const die of [...dice].sort((a, b) => a - b)) {
        if (tried.has(die)) continue;
        tried.add(die);
        const st = step(board, at, die);
        if (!st) continue;
        const after = applyStep(board, st);
        const rest = without(dice, die);
        if (!this.viable(after, rest)) continue;
        const route = [...path, st];
        const known = out.get(st.to);
        const hits = (r) => r.filter((x) => x.hit).length;
        if (!known || (known.length === route.length && hits(route) < hits(known))) {
          out.set(st.to, route);
        }
        if (st.to !== OFF && rest.length) {
          frontier.push({ board: after, dice: rest, at: st.to, path: route });
        }
      }
    }
    return out;
  }

  /** Move the checker on ``from`` to ``to`` if it may go there; true when done. */
  move(from, to) {
    const route = this.destinations(from).get(to);
    if (!route) return false;
    this.steps.push(...route);
    return true;
  }

  /** Take back the last step (R: a play is final only once confirmed). */
  undo() {
    return this.steps.pop() !== undefined;
  }

  reset() {
    this.steps = [];
  }

  /** Put the steps of a legal play (from the server's list) on the board. */
  setPlay(play) {
    this.steps = [];
    let b = this.start;
    for (const [from, to] of play.moves) {
      const die = this.remaining.find((d) => {
        const st = step(b, from, d);
        return st && st.to === to;
      });
      if (die === undefined) {
        this.steps = [];
        return false;
      }
      const st = step(b, from, die);
      this.steps.push(st);
      b = applyStep(b, st);
    }
    return this.complete !== null;
  }

  /** The dice as shown: each value and whether it has been used. */
  diceState() {
    const used = this.steps.map((st) => st.die);
    return this.dice.map((die) => {
      const i = used.indexOf(die);
      if (i >= 0) {
        used.splice(i, 1);
        return { value: die, used: true };
      }
      return { value: die, used: false };
    });
  }
}

// -- replaying a finished game from its log -----------------------------------------------

/** Both sides' checkers, each side in its own numbering (R1), for replaying a game log. */
export class Replay {
  constructor(variant) {
    const start = STARTS[variant] || STARTS.standard;
    const n = checkersFor(variant);
    const side = () => {
      const counts = new Array(25).fill(0);
      for (const [p, c] of start) counts[p - 1] = c;
      return counts;
    };
    this.points = [side(), side()];
    this.off = [0, 0];
    this.waiting = variant === "acey-deucey" ? [n, n] : [0, 0];
    this.cube = { value: 1, owner: null, offered: false };
    this.dice = null;
    this.roller = null;
  }

  clone() {
    const copy = Object.create(Replay.prototype);
    copy.points = this.points.map((p) => p.slice());
    copy.off = this.off.slice();
    copy.waiting = this.waiting.slice();
    copy.cube = { ...this.cube };
    copy.dice = this.dice ? this.dice.slice() : null;
    copy.roller = this.roller;
    return copy;
  }

  /** Apply one game-log event (docs/PROTOCOL.md 3, EVENT). */
  apply(event) {
    switch (event.type) {
      case "opening": {
        const [a, b] = event.dice;
        if (a !== b) {
          this.roller = a > b ? 0 : 1;
          this.dice = a > b ? [a, b] : [b, a];
        } else {
          this.dice = null;
        }
        break;
      }
      case "rolled":
        this.roller = event.side;
        this.dice = event.dice.slice();
        break;
      case "moved":
        for (const [from, to, hit] of event.moves) this.move(event.side, from, to, hit);
        break;
      case "passed":
        this.dice = null;
        break;
      case "doubled":
        this.cube = { ...this.cube, offered: true, offer: event.value, beaver: false };
        this.dice = null;
        break;
      case "beavered":
        // The double is taken at once and the beaver's maker offers twice that (R11).
        this.cube = { value: event.value / 2, owner: event.side, offered: true,
                      offer: event.value, beaver: true };
        break;
      case "took":
        this.cube = {
          value: this.cube.offer || this.cube.value * 2,
          owner: this.cube.beaver ? this.cube.owner : event.side,
          offered: false,
        };
        break;
      case "dropped":
        this.cube = { ...this.cube, offered: false };
        break;
      default:
        break;
    }
  }

  move(side, from, to, hit) {
    const mine = this.points[side];
    const theirs = this.points[1 - side];
    if (from === BAR) {
      if (mine[24] > 0) mine[24] -= 1;
      else this.waiting[side] -= 1;
    } else {
      mine[from - 1] -= 1;
    }
    if (to === OFF) this.off[side] += 1;
    else {
      mine[to - 1] += 1;
      if (hit) {
        theirs[24 - to] -= 1;
        theirs[24] += 1;
      }
    }
  }

  /** The board as the protocol shows it, from ``side``. */
  boardFor(side) {
    const pips = (s) =>
      this.points[s].reduce((n, c, i) => n + c * (i + 1), 0) + this.waiting[s] * 25;
    return {
      side,
      mine: this.points[side].slice(),
      theirs: this.points[1 - side].slice(),
      off: [this.off[side], this.off[1 - side]],
      waiting: [this.waiting[side], this.waiting[1 - side]],
      pips: [pips(side), pips(1 - side)],
    };
  }
}

/** Every position of a game, one frame per log event: [{replay, event}], the start first. */
export function replayFrames(variant, log) {
  const frames = [];
  let current = new Replay(variant);
  frames.push({ replay: current.clone(), event: null });
  for (const event of log) {
    current.apply(event);
    frames.push({ replay: current.clone(), event });
  }
  return frames;
}
