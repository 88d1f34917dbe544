// Board geometry (static/js/geometry.js): where a point is drawn is where a press finds it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { H, MID, W, pointAt, pointCentre, slot } = await import(client("geometry.js"));

test("a press on a point's centre names that point (24 points, the bar, the tray)", () => {
  for (let p = 0; p <= 25; p++) {
    const { x, y } = pointCentre(p);
    assert.equal(pointAt(x, y), p, `point ${p}`);
  }
});

test("every checker of a stack is drawn on its point, inside the board", () => {
  for (let p = 1; p <= 24; p++) {
    for (const n of [1, 5, 15]) {
      for (let i = 0; i < n; i++) {
        const { x, y } = slot(p, i, n);
        assert.equal(pointAt(x, y), p, `point ${p}, checker ${i} of ${n}`);
        assert.ok(x > 0 && x < W && y > 0 && y < H);
      }
    }
  }
});

test("the home board is bottom right, the opponent's bar half is no target", () => {
  assert.ok(pointCentre(1).x > pointCentre(6).x);
  assert.ok(pointCentre(1).y > MID && pointCentre(24).y < MID);
  assert.equal(pointAt(pointCentre(25).x, MID - 40), null);
});
