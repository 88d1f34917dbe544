// What the table shows moving and sounds (static/js/table-motion.js), on states as the
// server sends them: the opponent's play from its `last` action, none on a first or a
// repeated state; a cue at the turn, a double and the end; rolling by itself only with no
// cube decision to make.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { playToShow, cueFor, rollsByItself, positionOf } = await import(client("table-motion.js"));

const START = {
  side: 0,
  mine: [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
  theirs: [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
  off: [0, 0], waiting: [0, 0], pips: [167, 167],
};

function state({ seq, you = 0, actions = [], board = START, last = null, number = 1, status = "playing",
                 previous = [], series = null, cube = { value: 1, owner: null } }) {
  return { type: "state", table: 7, seq, you, status, series, previous_games: previous, last,
           game: { number, actions, board, cube, log: [], dice: null } };
}

// The opponent (side 1) plays 24/18 13/9 from its side: its 24 and 13 are the viewer's 1 and 12.
const after = { ...START, theirs: START.theirs.slice() };
after.theirs[23] = 1; after.theirs[17] = 1; after.theirs[12] = 4; after.theirs[8] = 1;
const moved = { type: "moved", side: 1, dice: [6, 4], play: "24/18 13/9", moves: [[24, 18, false], [13, 9, false]] };

test("the opponent's play is shown from the position before it", () => {
  const before = state({ seq: 4 });
  const st = state({ seq: 5, board: after, actions: ["roll"], last: { seq: 5, side: 1, game: 1, events: [moved] } });
  const shown = playToShow(before, st);
  assert.ok(shown);
  assert.equal(shown.viewerMoves, false);
  assert.deepEqual(shown.before, positionOf(START));
  assert.deepEqual(shown.dice, [6, 4]);
  assert.equal(playToShow(null, st), null, "a first state shows nothing moving");
  assert.equal(playToShow(st, st), null, "nor does the same state again");
  const mine = { ...st, last: { ...st.last, events: [{ ...moved, side: 0 }] } };
  assert.equal(playToShow(before, mine), null, "the viewer's own play is on the board already");
  const watching = { ...mine, you: null };
  assert.equal(playToShow(before, watching).viewerMoves, true, "a spectator sees both sides move");
});

test("a play that ended the game moves from the board shown before it", () => {
  const before = state({ seq: 8, board: START, number: 1 });
  const next = state({ seq: 9, number: 2, last: { seq: 9, side: 1, game: 1, events: [moved, { type: "ended" }] } });
  assert.deepEqual(playToShow(before, next).before, positionOf(START));
  assert.equal(playToShow({ ...before, seq: 6 }, next), null, "unless states were missed");
});

test("cues: the turn coming, a double offered, the end; never on a first state", () => {
  const waiting = state({ seq: 3, actions: ["resign", "forfeit"] });
  assert.equal(cueFor(waiting, state({ seq: 4, actions: ["roll", "double", "resign"] })), "turn");
  assert.equal(cueFor(waiting, state({ seq: 4, actions: ["take", "drop"] })), "double");
  assert.equal(cueFor(state({ seq: 4, actions: ["roll"] }), state({ seq: 5, actions: ["play"] })), null);
  assert.equal(cueFor(waiting, state({ seq: 4, previous: [{ number: 1 }] })), "end");
  assert.equal(cueFor(waiting, state({ seq: 4, status: "finished" })), "end");
  assert.equal(cueFor(null, state({ seq: 4, actions: ["roll"] })), null);
  assert.equal(cueFor(waiting, { ...state({ seq: 4, actions: ["roll"] }), you: null }), null, "spectators hear nothing");
});

test("rolling by itself: never past a cube decision, but past a dead cube", () => {
  assert.ok(rollsByItself(state({ seq: 1, actions: ["roll", "resign"] })));
  assert.ok(!rollsByItself(state({ seq: 1, actions: ["play"] })));
  const money = state({ seq: 1, actions: ["roll", "double"] });
  assert.ok(!rollsByItself(money), "a money game's double is a decision");
  const match = (score, value) => state({ seq: 1, actions: ["roll", "double"], cube: { value, owner: null },
                                          series: { mode: "match", length: 5, score } });
  assert.ok(!rollsByItself(match([2, 2], 1)));
  assert.ok(rollsByItself(match([4, 2], 1)), "1 away: doubling wins nothing more");
  assert.ok(rollsByItself({ ...match([0, 0], 1), series: { mode: "match", length: 1, score: [0, 0] } }));
  assert.ok(!rollsByItself({ ...state({ seq: 1, actions: ["roll"] }), you: null }));
});
