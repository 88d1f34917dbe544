// The review page's pure logic (static/js/review-model.js) on a hand-made analysis: the
// marks in the move list, the mistakes stepped through, the decision at a step, the graph.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const model = await import(client("review-model.js"));

const log = [
  { type: "opening", dice: [3, 1] },
  { type: "moved", side: 0, play: "8/5 6/5", moves: [] },
  { type: "rolled", side: 1, dice: [6, 4] },
  { type: "moved", side: 1, play: "24/14", moves: [] },
  { type: "rolled", side: 0, dice: [5, 5] },
  { type: "moved", side: 0, play: "13/3(2)", moves: [] },
  { type: "doubled", side: 1, value: 2 },
  { type: "dropped", side: 0 },
];
const candidate = (play, equity, loss) => ({ play, equity, loss, chances: [0.6, 0.2, 0.01, 0.1, 0.01], ply: 0 });
const game = {
  number: 1, score: [0, 0], match_length: 0, winner: 1, points: 1, end: "drop",
  checker: [
    { game: 1, index: 1, side: 0, dice: [3, 1], played: "8/5 6/5", candidates: [candidate("8/5 6/5", 0.1, 0)],
      rank: 0, legal_plays: 16, loss: 0, mark: "", position_id: null },
    { game: 1, index: 5, side: 0, dice: [5, 5], played: "13/3(2)",
      candidates: [candidate("8/3(2) 6/1(2)", 0.4, 0), candidate("13/3(2)", 0.2, 0.2)],
      rank: 1, legal_plays: 20, loss: 0.2, mark: "very bad", position_id: null },
  ],
  cube: [
    { game: 1, index: 6, side: 1, cube_value: 1, chances: [0.7, 0.3, 0, 0.05, 0], no_double: 0.5,
      double_take: 0.6, double_pass: 1, verdict: "Double, take", doubled: true, response: "pass",
      doubler_loss: 0, doubler_mark: "", taker_loss: 0.3, taker_mark: "very bad", close: true },
  ],
  luck: [
    { game: 1, index: 0, side: 0, dice: [3, 1], luck: 0.2, mark: "", chances: null, equity: null, opening: true },
    { game: 1, index: 2, side: 1, dice: [6, 4], luck: -0.1, mark: "", chances: [0.45, 0.1, 0, 0.1, 0], equity: 0, opening: false },
    { game: 1, index: 4, side: 0, dice: [5, 5], luck: 0.65, mark: "very lucky", chances: [0.4, 0.1, 0, 0.1, 0], equity: 0, opening: false },
  ],
};
const doc = {
  names: ["alice", "bob"], games: [game], logs: [{ number: 1, log }],
  explanations: [{ game: 1, index: 5, side: 0, kind: "checker", played: "13/3(2)", better: "8/3(2) 6/1(2)", loss: 0.2, text: "why 5" },
                 { game: 1, index: 6, side: 0, kind: "answer", played: "pass", better: "take", loss: 0.3, text: "why take" }],
};

test("marks: each mistake at its step with GNU Backgammon's sign, luck apart", () => {
  const marks = model.gameMarks(game, log);
  assert.deepEqual(marks.get(5).map((m) => [m.kind, m.sign, m.side]), [["checker", "??", 0]]);
  // The wrong pass is the taker's (side 0), marked on the answer itself.
  assert.equal(model.answerIndex(log, 6), 7);
  assert.deepEqual(marks.get(7).map((m) => [m.kind, m.sign, m.side]), [["answer", "??", 0]]);
  assert.deepEqual(marks.get(4).map((m) => [m.kind, m.sign]), [["luck", "++"]]);
  assert.equal(marks.has(1), false); // the best play has no mark
  assert.deepEqual(model.mistakeIndices(marks), [5, 7]);
});

test("stepping through the mistakes, both ways, stops at the ends", () => {
  const indices = [5, 7];
  assert.equal(model.stepMistake(indices, 0, 1), 5);
  assert.equal(model.stepMistake(indices, 5, 1), 7);
  assert.equal(model.stepMistake(indices, 7, 1), null);
  assert.equal(model.stepMistake(indices, 7, -1), 5);
  assert.equal(model.stepMistake(indices, 5, -1), null);
});

test("the decision at a step: the candidates, the cube at the answer, the teacher's words", () => {
  const at5 = model.decisionAt(doc, game, log, 5);
  assert.equal(at5.checker.played, "13/3(2)");
  assert.deepEqual(at5.explanations.map((e) => e.text), ["why 5"]);
  const at7 = model.decisionAt(doc, game, log, 7);
  assert.equal(at7.cube.verdict, "Double, take");
  assert.deepEqual(at7.explanations.map((e) => e.text), ["why take"]);
  const at4 = model.decisionAt(doc, game, log, 4);
  assert.equal(at4.luck.mark, "very lucky");
  assert.equal(at4.checker, null);
});

test("graph points: side 0's chance before each roll, from 50% to the result", () => {
  const points = model.graphPoints(game, log.length);
  assert.deepEqual(points, [{ x: 0, y: 0.5 }, { x: 2, y: 0.55 }, { x: 4, y: 0.4 }, { x: 8, y: 0 }]);
});

test("graph points from side 1: the same game seen from the other seat", () => {
  const points = model.graphPoints(game, log.length, 1);
  assert.deepEqual(points.map((p) => p.x), [0, 2, 4, 8]);
  const zero = model.graphPoints(game, log.length, 0);
  points.forEach((p, i) => assert.ok(Math.abs(p.y - (1 - zero[i].y)) < 1e-9));
});

test("a review is seen from the reader's seat, else from side 0", () => {
  assert.deepEqual(model.reviewSide(["alice", "bob"], "bob"), { side: 1, played: true });
  assert.deepEqual(model.reviewSide(["alice", "bob"], "alice"), { side: 0, played: true });
  assert.deepEqual(model.reviewSide(["alice", "bob"], "carol"), { side: 0, played: false });
  assert.deepEqual(model.reviewSide(["alice", "bob"], null), { side: 0, played: false });
});

test("graph geometry: pixels inside the box, 100% at the top, clicks find the nearest step", () => {
  const points = model.graphPoints(game, log.length);
  const geo = model.graphGeometry(points, { width: 640, height: 170, pad: 28, xMax: 8 });
  assert.equal(geo.sx(0), 28);
  assert.equal(geo.sx(8), 612);
  assert.equal(geo.sy(1), 28);
  assert.equal(geo.sy(0), 142);
  assert.equal(geo.mid, 85);
  for (const p of geo.pixels) {
    assert.ok(p.px >= 28 && p.px <= 612 && p.py >= 28 && p.py <= 142);
  }
  assert.ok(geo.path.startsWith("M28.0 85.0 L"));
  assert.equal(geo.path.split("L").length, points.length);
  assert.equal(geo.nearest(geo.sx(3.9)), 4);
  assert.equal(geo.nearest(0), 0);
  assert.equal(geo.valueAt(3), 0.55);
  assert.equal(geo.valueAt(5), 0.4);
});

test("what a waiting player reads: the place in the queue, then the progress", () => {
  const job = { status: "queued", position: 3, queued: 4, workers: 2, progress: null, error: null };
  assert.equal(model.waitingText(job), "Queued: number 3 in line (2 analyses run at a time).");
  assert.equal(model.waitingText({ ...job, position: 1, workers: 1 }), "Queued: yours is next (1 analysis runs at a time).");
  assert.equal(model.waitingText({ ...job, status: "running", progress: { done: 30, total: 120 } }),
    "Analysing: step 30 of 120 (25%).");
  assert.match(model.waitingText({ ...job, status: "failed", error: "boom" }), /failed: boom/);
  assert.equal(model.signed(-0.1234), "−0.123");
  assert.equal(model.pct(0.5), "50.0%");
});

test("a play taken back (practice) is undone by the replay, hits included", async () => {
  const { small } = await import("./load.mjs");
  const { Replay } = await import(client("replay.js"));
  const start = small.starts.standard;
  const replay = new Replay(start);
  const before = JSON.stringify(replay.boardFor(0));
  // Side 0 runs a back checker to the 18-point; side 1 hits it there from its 13-point
  // (18 for side 0 is 7 for side 1), then takes the hit back.
  replay.apply({ type: "moved", side: 0, moves: [[24, 18, false]] });
  const moved = JSON.stringify(replay.boardFor(0));
  replay.apply({ type: "moved", side: 1, moves: [[13, 7, true]] });
  assert.equal(replay.boardFor(0).mine[24], 1); // on the bar
  replay.apply({ type: "taken_back", side: 1, moves: [[13, 7, true]] });
  assert.equal(JSON.stringify(replay.boardFor(0)), moved);
  replay.apply({ type: "taken_back", side: 0, moves: [[24, 18, false]] });
  assert.equal(JSON.stringify(replay.boardFor(0)), before);
});

test("the lobby form asks for practice only at a table between people", async () => {
  const { readSettings } = await import(client("lobby-form.js"));
  const base = { opponent: "anyone", invite: "", bot: "expert", mode: "money", length: "3", crawford: true,
    max_games: "1", jacoby: false, beavers: false, auto_doubles: "0", stakes: "", variant: "standard",
    cube: true, clock: null, base_min: "", delay_s: "", increment_s: "" };
  const variants = [{ name: "standard", cube: true }];
  assert.equal(readSettings({ ...base, practice: true }, variants).settings.practice, true);
  assert.equal(readSettings({ ...base, practice: false }, variants).settings.practice, undefined);
  assert.equal(readSettings({ ...base, opponent: "bot", practice: true }, variants).settings.practice, undefined);
});

test("a review's figures are in its unit: equity for money, match winning chance in a match", () => {
  const money = { match_length: 0, unit: "equity" };
  const match = { match_length: 5, unit: "mwc" };
  assert.equal(model.unitName(money), "Equity");
  assert.equal(model.unitName(match), "Match winning chance");
  assert.equal(model.figure(money, 0.4771, 0.62), "+0.477");
  assert.equal(model.figure(match, 1.0, 0.6234), "62.3%");
  assert.equal(model.lossFigure(money, 0.05, 0.012), "−0.050");
  assert.equal(model.lossFigure(match, 0.05, 0.012), "−1.2%");
  assert.equal(model.gainFigure(match, -0.4, -0.031), "−3.1%");
  assert.equal(model.gainFigure(money, 0.4, null), "+0.400");
  const best = { play: "a", equity: 0.3, loss: 0, chances: [], ply: 0, mwc: 0.61 };
  const other = { play: "b", equity: 0.2, loss: 0.1, chances: [], ply: 0, mwc: 0.585 };
  assert.equal(model.candidateLoss(match, best, other), "−2.5%");
  assert.equal(model.candidateLoss(money, best, other), "−0.100");
  // An older document without `unit` goes by its match length.
  assert.equal(model.unitName({ match_length: 3 }), "Match winning chance");
});
