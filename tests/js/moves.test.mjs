// The move logic (static/js/moves.js): clicks and drags make exactly the server's legal
// plays, in any order of their moves, with no dead end.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client, many, small } from "./load.mjs";

const { MoveInput, applyMove, boardKey, fromServer, usedDice } = await import(client("moves.js"));

/** A small deterministic random source, so a failure can be replayed. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

const same = (input, play) => boardKey(input.board) === boardKey(fromServer(play.board));

function checkCase(c, random) {
  const input = new MoveInput(c.board, c.dice, c.plays);
  for (const play of c.plays) {
    // As a person clicks: each move from the board's own destinations, in the listed order.
    input.reset();
    for (const [from, to] of play.moves) {
      assert.ok(input.movable().has(from), `${play.play}: ${from} cannot move (${c.dice})`);
      assert.ok(input.move(from, to), `${play.play}: ${from}/${to} refused (${c.dice})`);
    }
    assert.equal(input.complete && input.complete.play, play.play);
    assert.ok(same(input, play), `${play.play}: the board differs from the server's`);
    // The moves in the opposite order, where the board allows it, make the same play.
    input.reset();
    let reversed = true;
    for (const [from, to] of [...play.moves].reverse()) {
      if (!input.move(from, to)) {
        reversed = false;
        break;
      }
    }
    if (reversed) {
      assert.equal(input.complete && input.complete.play, play.play);
      assert.ok(same(input, play), `${play.play} reversed: the board differs from the server's`);
    }
    assert.ok(input.setPlay(play), `${play.play}: cannot be put on the board`);
    assert.ok(same(input, play));
  }
  // Random clicks on what the board offers always end on a legal play: no dead end.
  for (let walk = 0; walk < 6; walk++) {
    input.reset();
    for (let n = 0; !input.complete; n++) {
      const sources = [...input.movable()];
      assert.ok(sources.length && n <= 4, `stuck after ${JSON.stringify(input.steps)} (${c.dice})`);
      const from = sources[random(sources.length)];
      const targets = [...input.destinations(from).keys()];
      assert.ok(input.move(from, targets[random(targets.length)]));
      for (const play of input.choices()) {
        assert.ok(c.plays.includes(play), "a choice that is not a legal play");
      }
    }
    assert.ok(same(input, input.complete), "the board is not the complete play's");
    assert.equal(input.movable().size, 0, "a complete play offers more moves");
  }
}

test("every listed play can be clicked, reversed, shown; random clicks end on a play", () => {
  const random = rng(7);
  for (const c of small.cases) checkCase(c, random);
});

test("the same on random games of every variant (from the pytest hook)", { skip: !many && "GAMMON_JS_CASES not set" }, () => {
  const random = rng(11);
  for (const c of many.cases) checkCase(c, random);
});

const START = {
  side: 0,
  mine: [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
  theirs: [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
  off: [0, 0], waiting: [0, 0], pips: [167, 167],
};

/** The board after `moves` from START, as a legal play would carry it. */
function play(text, moves) {
  let b = fromServer(START);
  for (const [from, to] of moves) b = applyMove(b, from, to).board;
  return { play: text, moves: moves.map(([f, t]) => [f, t, false]),
           board: { ...START, mine: b.mine, theirs: b.theirs, off: [b.off, 0], waiting: [b.waiting, 0] } };
}

test("a run over two points is one drag; the steps show both dice used", () => {
  const plays = [play("24/13", [[24, 18], [18, 13]]), play("24/18 13/8", [[24, 18], [13, 8]]),
                 play("13/8 13/7", [[13, 8], [13, 7]])];
  const input = new MoveInput(START, [6, 5], plays);
  const dests = input.destinations(24);
  assert.deepEqual([...dests.keys()].sort((a, b) => a - b), [13, 18]);
  assert.ok(input.move(24, 13));
  assert.equal(input.steps.length, 2);
  assert.equal(input.complete.play, "24/13");
  assert.deepEqual(input.diceState(), [{ value: 6, used: true }, { value: 5, used: true }]);
  assert.ok(input.undo());
  assert.equal(input.complete, null);
  assert.deepEqual(input.diceState().map((d) => d.used), [true, false]);
  // After 24/18 only the plays that go on from it remain to choose from.
  assert.deepEqual(input.choices().map((p) => p.play), ["24/13", "24/18 13/8"]);
  assert.ok(!input.move(13, 7), "13/7 is no play's move after 24/18");
});

test("checkers on the bar enter first, and a lone checker is hit", () => {
  const board = { ...START, mine: START.mine.slice(), theirs: START.theirs.slice() };
  board.mine[24] = 1;
  board.mine[23] = 1;
  board.theirs[3] = 1; // their 4-point: my 21-point
  board.theirs[5] = 4;
  const b = fromServer(board);
  const enter = applyMove(b, 25, 21);
  assert.equal(enter.hit, true);
  assert.equal(enter.board.theirs[24], 1);
  assert.equal(enter.board.theirs[3], 0);
  const plays = [{ play: "bar/21* 13/11", moves: [[25, 21, true], [13, 11, false]], board }];
  const input = new MoveInput(board, [4, 2], plays);
  assert.deepEqual([...input.movable()], [25]);
  assert.equal(input.destinations(13).size, 0);
  assert.ok(input.move(25, 21));
  assert.deepEqual([...input.movable()], [13]);
});

test("a checker borne off uses the smallest die that reaches off", () => {
  assert.deepEqual(usedDice([6, 3], [{ from: 2, to: 0 }]), [false, true]);
  assert.deepEqual(usedDice([6, 3], [{ from: 2, to: 0 }, { from: 5, to: 0 }]), [true, true]);
  assert.deepEqual(usedDice([4, 4, 4, 4], [{ from: 8, to: 4 }, { from: 4, to: 0 }]), [true, true, false, false]);
});

test("one click (fast entry): the higher die, or the chosen one, else the die that can move", () => {
  const plays = [play("13/7 13/8", [[13, 7], [13, 8]]), play("24/18 13/8", [[24, 18], [13, 8]]),
                 play("24/13", [[24, 18], [18, 13]]), play("13/7 8/3", [[13, 7], [8, 3]]),
                 play("8/2 6/1", [[8, 2], [6, 1]]), play("24/18 24/19", [[24, 18], [24, 19]]),
                 play("13/8 6/0", [[13, 8], [6, 0]])];
  const input = new MoveInput(START, [6, 5], plays.filter((p) => !p.moves.some(([, t]) => t === 0)));
  assert.equal(input.oneClickDie(), 6);
  assert.equal(input.oneClickDie(5), 5);
  assert.equal(input.oneClickTarget(13), 7, "the higher die first");
  assert.equal(input.oneClickTarget(13, 5), 8, "the chosen die");
  assert.equal(input.oneClickTarget(13, 4), 7, "a value not rolled is no choice");
  assert.ok(input.move(13, 7));
  assert.equal(input.oneClickTarget(13), 8, "the 6 used: the 5");
  assert.equal(input.oneClickDie(6), 5, "a chosen die once used is no longer chosen");
  assert.equal(input.oneClickTarget(6), null, "no single die moves this checker now");
  input.reset();
  assert.equal(input.oneClickTarget(24), 18);
  assert.equal(input.oneClickTarget(24, 5), 19);
});
