// The analysis board's hand edits (static/js/board-setup.js): what a hand can do on a board.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const {
  BAR, addChecker, boardLink, emptySetup, moveChecker, onBoard, ownerAt, removeChecker,
  startSetup, swapSides,
} = await import(client("board-setup.js"));

test("the starting position has 15 checkers a side, the viewer's 6-point and the opponent's 19", () => {
  const start = startSetup();
  assert.equal(onBoard(start, "mine"), 15);
  assert.equal(onBoard(start, "theirs"), 15);
  assert.equal(ownerAt(start, 6), "mine");
  assert.equal(ownerAt(start, 19), "theirs"); // the opponent's 6-point
  assert.equal(ownerAt(start, 1), "theirs"); // their back checkers on the viewer's ace point
  assert.equal(ownerAt(start, 2), null);
});

test("a checker is added only from those off the board, never onto the other side's point", () => {
  const start = startSetup();
  assert.equal(addChecker(start, 2, "mine"), null); // all 15 on the board already
  const lifted = removeChecker(start, 6);
  assert.ok(lifted);
  assert.equal(onBoard(lifted, "mine"), 14);
  assert.equal(addChecker(lifted, 19, "mine"), null); // the opponent's point
  const placed = addChecker(lifted, 2, "mine");
  assert.ok(placed);
  assert.equal(placed.mine[1], 1);
  assert.equal(start.mine[5], 5, "the edits never change the setup they start from");
});

test("the bar holds both sides' checkers; removing there takes the viewer's first", () => {
  let s = emptySetup();
  s = addChecker(s, BAR, "mine");
  s = addChecker(s, BAR, "theirs");
  assert.equal(s.mine[24], 1);
  assert.equal(s.theirs[24], 1);
  s = removeChecker(s, BAR);
  assert.equal(s.mine[24], 0);
  assert.equal(s.theirs[24], 1);
  assert.equal(removeChecker(emptySetup(), 5), null);
});

test("a moved checker keeps its side; off the board and from the tray", () => {
  const start = startSetup();
  const moved = moveChecker(start, 1, 5); // an opponent's back checker
  assert.ok(moved);
  assert.equal(moved.theirs[23], 1);
  assert.equal(moved.theirs[19], 1); // the viewer's 5-point is their 20-point
  assert.equal(moveChecker(start, 6, 19), null); // onto the other side's point
  assert.equal(moveChecker(start, 2, 3), null); // nothing there
  const off = moveChecker(start, 6, 0);
  assert.equal(onBoard(off, "mine"), 14);
  const back = moveChecker(off, 0, 4); // from the tray: one of the viewer's
  assert.equal(back.mine[3], 1);
  assert.equal(onBoard(back, "mine"), 15);
});

test("swapping sides turns the board, the cube's owner and the score, and clears the dice", () => {
  const s = { ...startSetup(), dice: [3, 1], cube: { value: 2, owner: "mine" },
              match: { length: 7, score: [4, 1], crawford: false } };
  s.mine = s.mine.slice();
  s.mine[5] -= 1;
  s.mine[24] = 1;
  const turned = swapSides(s);
  assert.deepEqual(turned.theirs, s.mine);
  assert.deepEqual(turned.mine, s.theirs);
  assert.equal(turned.dice, null);
  assert.deepEqual(turned.cube, { value: 2, owner: "theirs" });
  assert.deepEqual(turned.match.score, [1, 4]);
  assert.deepEqual(swapSides(turned).mine, s.mine);
});

test("a board's link carries its XGID, escaped", () => {
  const xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10";
  const link = boardLink(xgid);
  assert.ok(link.startsWith("#/board?xgid="));
  assert.equal(new URLSearchParams(link.split("?")[1]).get("xgid"), xgid);
});
