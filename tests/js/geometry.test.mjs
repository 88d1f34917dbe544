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

test("the compact (phone) board: same points found where drawn, checkers as wide as their points", async () => {
  const g = await import(client("geometry.js"));
  assert.equal(g.useLayout("compact"), true);
  try {
    assert.ok(g.W < 660, `a 390 px screen shows 2R/W of it: ${(390 * 2 * g.R) / g.W} px checkers`);
    assert.ok((390 * 2 * g.R) / g.W >= 28 && (390 * g.LABEL) / g.W >= 12);
    for (let p = 0; p <= 25; p++) {
      const { x, y } = g.pointCentre(p);
      assert.equal(g.pointAt(x, y), p, `point ${p}`);
    }
    for (let p = 1; p <= 24; p++) {
      for (const n of [1, 5, 15]) {
        for (let i = 0; i < n; i++) {
          const { x, y } = g.slot(p, i, n);
          assert.equal(g.pointAt(x, y), p);
          assert.ok(y - g.R >= g.TOP - 1 && y + g.R <= g.BOTTOM + 1, `point ${p}: ${i} of ${n} inside its zone`);
        }
      }
    }
    // The bar's checkers stay on the bar, the cube in the tray column, the numbers in the frame.
    const { x } = g.barSlot(true, 0, 1);
    assert.ok(x - g.BAR_R >= g.BAR_X && x + g.BAR_R <= g.BAR_X + g.BAR_W);
    assert.ok(g.CUBE_X + 4 >= g.TRAY_X && g.CUBE_X + 4 + g.CUBE_SIZE <= g.TRAY_X + g.TRAY_W);
    assert.ok(g.labelY(true) - g.LABEL * 0.75 >= 0 && g.labelY(false) <= g.H);
  } finally {
    g.useLayout("wide");
  }
  assert.equal(g.W, 780);
});

test("a phone's compact board mirrored (home board left): presses still find every point", async () => {
  const g = await import(client("geometry.js"));
  g.useLayout("compact");
  g.setHomeLeft(true);
  try {
    for (let p = 0; p <= 25; p++) {
      const { x, y } = g.pointCentre(p);
      assert.equal(g.pointAt(x, y), p, `point ${p}`);
    }
    assert.ok(g.pointCentre(1).x < g.pointCentre(6).x);
  } finally {
    g.setHomeLeft(false);
    g.useLayout("wide");
  }
});
