// The rating chart's geometry (static/js/rating-graph.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { ratingGraph, tickStep } = await import(client("rating-graph.js"));

const day = 86400;

test("one dot per match, the line starting from the rating before the first", () => {
  const points = [
    { at: 10 * day, rating: 1510 },
    { at: 11 * day, rating: 1496.5 },
    { at: 12 * day, rating: 1530 },
  ];
  const model = ratingGraph(points, { width: 600, height: 220 });
  assert.equal(model.dots.length, 3);
  assert.equal(model.path.split(" L").length, 4);
  assert.match(model.path, /^M48 /);
  // Evenly spaced along x, the last at the right edge of the plot.
  assert.equal(model.dots[2].x, model.plot.right);
  // Higher ratings are drawn higher (smaller y).
  assert.ok(model.dots[2].y < model.dots[0].y && model.dots[1].y > model.dots[0].y);
  // The rating axis covers every point and is labelled on round numbers.
  const labels = model.yTicks.map((t) => Number(t.label));
  assert.ok(labels[0] <= 1496.5 && labels[labels.length - 1] >= 1530);
  assert.ok(labels.every((r) => r % tickStep(44) === 0));
  assert.deepEqual(model.xTicks.map((t) => t.label), ["1970-01-11", "1970-01-13"]);
});

test("no matches: nothing to draw, an axis around the start", () => {
  const model = ratingGraph([]);
  assert.equal(model.path, "");
  assert.deepEqual(model.dots, []);
  assert.ok(model.yTicks.length >= 2);
  assert.deepEqual(model.xTicks, []);
});

test("a flat history still gets a rating axis of its own", () => {
  const model = ratingGraph([{ at: 0, rating: 1500 }]);
  const labels = model.yTicks.map((t) => Number(t.label));
  assert.ok(labels[0] < 1500 && labels[labels.length - 1] > 1500);
  assert.equal(model.dots[0].y, ratingGraph([{ at: 0, rating: 1500 }]).dots[0].y);
});

test("tick steps stay readable", () => {
  assert.equal(tickStep(40), 10);
  assert.equal(tickStep(400), 100);
  assert.equal(tickStep(3000), 1000);
});
