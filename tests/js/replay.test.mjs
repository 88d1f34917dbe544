// The replay (static/js/replay.js) from the server's starting boards gives the server's
// boards and cube after every play.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client, many, small } from "./load.mjs";

const { replayFrames, steppedFrame } = await import(client("replay.js"));

function checkGames(data) {
  let checked = 0;
  for (const g of data.games) {
    const frames = replayFrames(data.starts[g.variant], g.log);
    assert.equal(frames.length, g.log.length + 1);
    assert.equal(frames[0].event, null);
    for (const check of g.checks) {
      const r = frames[check.upto].replay;
      const b = r.boardFor(0);
      for (const key of ["mine", "theirs", "off", "waiting", "pips"]) {
        assert.deepEqual(b[key], check.board[key], `${g.variant} after event ${check.upto}: ${key}`);
      }
      assert.deepEqual([r.cube.value, r.cube.owner], check.cube, `${g.variant} after event ${check.upto}: cube`);
      checked += 1;
    }
  }
  return checked;
}

test("the committed game replays to the server's boards", () => {
  assert.ok(checkGames(small) > 5);
});

test("random games of every variant replay (from the pytest hook)", { skip: !many && "GAMMON_JS_CASES not set" }, () => {
  assert.ok(checkGames(many) > 100);
});

test("the start frame is the variant's starting board, from either side", () => {
  const start = small.starts.nackgammon;
  const [first] = replayFrames(start, []);
  assert.deepEqual(first.replay.boardFor(0).mine, start.mine);
  assert.deepEqual(first.replay.boardFor(1).mine, start.theirs);
  const acey = replayFrames(small.starts["acey-deucey"], [])[0].replay.boardFor(1);
  assert.deepEqual(acey.waiting, [15, 15]);
});

test("a step goes to the first, the one before, the one after or the last frame, and stays inside", () => {
  assert.equal(steppedFrame(3, 9, "first"), 0);
  assert.equal(steppedFrame(3, 9, "prev"), 2);
  assert.equal(steppedFrame(0, 9, "prev"), 0);
  assert.equal(steppedFrame(3, 9, "next"), 4);
  assert.equal(steppedFrame(9, 9, "next"), 9);
  assert.equal(steppedFrame(3, 9, "last"), 9);
  assert.equal(steppedFrame(3, 9, "next-mistake"), null);
});
