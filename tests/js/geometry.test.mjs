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

test("with the home board on the left, the board is mirrored and presses still find points", async () => {
  const { setHomeLeft, sx, isHomeLeft } = await import(client("geometry.js"));
  setHomeLeft(true);
  try {
    assert.ok(isHomeLeft());
    for (let p = 0; p <= 25; p++) {
      const { x, y } = pointCentre(p);
      assert.equal(pointAt(x, y), p, `point ${p}, mirrored`);
    }
    assert.ok(pointCentre(1).x < pointCentre(6).x, "the home board at the bottom left");
    assert.ok(pointCentre(0).x < pointCentre(1).x, "its tray on the left");
    assert.equal(sx(sx(123)), 123, "mirroring twice is no mirroring");
    for (let p = 1; p <= 24; p++) {
      const { x, y } = slot(p, 0, 1);
      assert.equal(pointAt(x, y), p);
      assert.ok(x > 0 && x < W && y > 0 && y < H);
    }
  } finally {
    setHomeLeft(false);
  }
});
