// The paths of a play on the board (static/js/play-path.js): every flight starts on the
// checker's point and lands on its target as geometry.js draws them, no checker is lost or
// drawn twice on the way, and the play ends on the server's board, from either side and
// with the board mirrored.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client, many, small } from "./load.mjs";

const { flightsOf, positionBefore, lastPlay, spentDice } = await import(client("play-path.js"));
const { pointAt, setHomeLeft, BAR_X, BAR_W, TRAY_X, TRAY_W, sx, MID } = await import(client("geometry.js"));

/** The position a board draws from the mover's side (viewer moves) or the other's. */
function viewOf(board, viewerMoves) {
  const off = board.off.slice();
  const waiting = (board.waiting || [0, 0]).slice();
  return viewerMoves
    ? { mine: board.mine.slice(), theirs: board.theirs.slice(), off, waiting }
    : { mine: board.theirs.slice(), theirs: board.mine.slice(), off: off.reverse(), waiting: waiting.reverse() };
}

const count = (p) => [p.mine.reduce((a, b) => a + b, 0) + p.off[0] + p.waiting[0],
                      p.theirs.reduce((a, b) => a + b, 0) + p.off[1] + p.waiting[1]];

/** Where on the board a spot is: a point, "bar", "tray", or null. */
function spotOf({ x, y }) {
  const lx = sx(x);
  if (lx >= BAR_X && lx < BAR_X + BAR_W) return "bar";
  if (lx >= TRAY_X && lx <= TRAY_X + TRAY_W) return "tray";
  return pointAt(x, y);
}

function checkPlay(board, play, viewerMoves) {
  const before = viewOf(board, viewerMoves);
  const { flights, after } = flightsOf(before, viewerMoves, play.moves);
  const want = viewOf(play.board, viewerMoves);
  for (const key of ["mine", "theirs", "off", "waiting"]) {
    assert.deepEqual(after[key], want[key], `${play.play}: ${key} after the flights`);
  }
  assert.deepEqual(positionBefore(after, viewerMoves, play.moves).off, before.off);
  const again = positionBefore(after, viewerMoves, play.moves);
  assert.deepEqual(count(again), count(before));
  const hits = play.moves.filter((m) => m[2]).length;
  assert.equal(flights.length, play.moves.length + hits, `${play.play}: a flight per move and per hit`);
  const total = count(before);
  assert.deepEqual(flights.map((f) => f.done).filter((d, k, all) => k && d < all[k - 1]), [], "moves made only grow");
  flights.forEach((f, k) => {
    // The board under a flying checker and that checker make every checker, once.
    const under = count(f.under);
    assert.equal(under[f.side] + 1, total[f.side], `${play.play}: one checker in the air`);
    assert.equal(under[1 - f.side], total[1 - f.side]);
    // On landing all are on the board, but a hit blot, which flies next.
    const landed = count(f.landed);
    const next = flights[k + 1];
    if (next && next.kind === "hit") landed[next.side] += 1;
    assert.deepEqual(landed, total, `${play.play}: no checker lost on landing`);
    const from = spotOf(f.from);
    const to = spotOf(f.to);
    if (f.kind === "off") assert.equal(to, "tray", `${play.play}: borne off into the tray`);
    if (f.kind === "hit") {
      assert.equal(to, "bar", `${play.play}: the hit checker goes to the bar`);
      assert.ok((f.to.y < MID) === viewerMoves, "the opponent's bar is the upper half");
    }
    assert.ok(from !== null && to !== null, `${play.play}: a flight from ${from} to ${to}`);
  });
  let i = 0;
  for (const [from, to, hit] of play.moves) {
    const f = flights[i];
    const vp = (p) => (viewerMoves ? p : 25 - p);
    assert.equal(spotOf(f.from), from === 25 ? "bar" : vp(from), `${play.play}: leaves ${from}`);
    if (to !== 0) assert.equal(spotOf(f.to), vp(to), `${play.play}: lands on ${to}`);
    i += hit ? 2 : 1;
  }
  return flights.length;
}

function checkCases(cases) {
  let n = 0;
  for (const c of cases) {
    for (const play of c.plays) {
      for (const viewerMoves of [true, false]) n += checkPlay(c.board, play, viewerMoves) ? 1 : 0;
    }
  }
  return n;
}

test("the committed cases: flights from either side end on the server's board", () => {
  assert.ok(checkCases(small.cases) > 20);
});

test("mirrored (home board on the left), the flights follow the drawn points", () => {
  setHomeLeft(true);
  try {
    assert.ok(checkCases(small.cases) > 20);
  } finally {
    setHomeLeft(false);
  }
});

test("random games of every variant (from the pytest hook)", { skip: !many && "GAMMON_JS_CASES not set" }, () => {
  assert.ok(checkCases(many.cases) > 100);
});

test("a hit: the hitter lands on the blot, then the blot flies to its bar", () => {
  const empty = () => new Array(25).fill(0);
  const mine = empty();
  const theirs = empty();
  mine[12] = 2; // the viewer's 13
  theirs[17] = 1; // the opponent's 18 = the viewer's 7
  const before = { mine, theirs, off: [0, 0], waiting: [0, 0] };
  const { flights, after } = flightsOf(before, true, [[13, 7, true]]);
  assert.deepEqual(flights.map((f) => f.kind), ["move", "hit"]);
  assert.deepEqual(flights.map((f) => f.done), [0, 1], "the hit flies once the hitter's move is made");
  assert.equal(flights[0].landed.theirs[17], 0, "the blot leaves the point as the hitter lands");
  assert.equal(flights[0].landed.theirs[24], 0, "and is in the air, not yet on the bar");
  assert.equal(after.theirs[24], 1);
  assert.equal(after.mine[6], 1);
  assert.deepEqual(flights[1].from, flights[0].to);
  assert.deepEqual(positionBefore(after, true, [[13, 7, true]]), before);
});

test("the last play is the last one not taken back; the dice stay until the next roll", () => {
  const log = [
    { type: "opening", dice: [3, 1] },
    { type: "moved", side: 0, dice: [3, 1], play: "8/5 6/5", moves: [[8, 5, false], [6, 5, false]] },
    { type: "rolled", side: 1, dice: [6, 4] },
    { type: "moved", side: 1, dice: [6, 4], play: "24/14", moves: [[24, 18, false], [18, 14, false]] },
  ];
  assert.equal(lastPlay(log).play, "24/14");
  assert.deepEqual(spentDice(log), { side: 1, values: [6, 4] });
  const back = [...log, { type: "taken_back", side: 1, play: "24/14", moves: [] }];
  assert.equal(lastPlay(back).play, "8/5 6/5");
  assert.equal(spentDice(back), null);
  const rolled = [...log, { type: "rolled", side: 0, dice: [2, 2] }];
  assert.equal(spentDice(rolled), null, "a new roll clears the dice played before");
  const passed = [...rolled, { type: "passed", side: 0, reason: "no legal play" }];
  assert.deepEqual(spentDice(passed), { side: 0, values: [2, 2] });
  assert.equal(lastPlay([]), null);
});
