// The log_delta feature (static/js/log-delta.js, docs/PROTOCOL.md 2.2): the page keeps each
// game's whole log from states that carry only the new events.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { FEATURES, withWholeLog } = await import(client("log-delta.js"));

const rolled = (side, dice) => ({ type: "rolled", side, dice, text: `${side} rolls` });
const state = (seq, game, table = 7) => ({ type: "state", table, seq, game });
const game = (number, log, logFrom) =>
  logFrom === undefined ? { number, log } : { number, log, log_from: logFrom };

test("the client asks for log_delta", () => {
  assert.deepEqual(FEATURES, ["log_delta"]);
});

test("a state with the whole log is kept as it came", () => {
  const whole = state(3, game(1, [rolled(0, [3, 1])]));
  assert.equal(withWholeLog(null, whole), whole);
  const noGame = state(1, null);
  assert.equal(withWholeLog(whole, noGame), noGame);
});

test("new events go after the ones the page has, from log_from on", () => {
  const before = state(3, game(1, [rolled(0, [3, 1]), rolled(1, [6, 5])]));
  const delta = state(4, game(1, [rolled(0, [2, 2])], 2));
  const whole = withWholeLog(before, delta);
  assert.deepEqual(whole.game.log, [rolled(0, [3, 1]), rolled(1, [6, 5]), rolled(0, [2, 2])]);
  assert.equal("log_from" in whole.game, false);
  assert.equal(whole.seq, 4);
  // Resent from an earlier index (the table was rebuilt): what follows it is replaced.
  const again = withWholeLog(whole, state(5, game(1, [rolled(1, [4, 4])], 1)));
  assert.deepEqual(again.game.log, [rolled(0, [3, 1]), rolled(1, [4, 4])]);
  // The state it was made from is not changed.
  assert.equal(before.game.log.length, 2);
  assert.equal(delta.game.log_from, 2);
});

test("a new game starts its log at 0", () => {
  const before = state(9, game(1, [rolled(0, [3, 1])]));
  const next = withWholeLog(before, state(10, game(2, [rolled(1, [5, 2])], 0)));
  assert.deepEqual(next.game.log, [rolled(1, [5, 2])]);
});

test("events the page does not have ask for the whole log again", () => {
  const before = state(3, game(1, [rolled(0, [3, 1])]));
  assert.equal(withWholeLog(before, state(4, game(1, [rolled(1, [6, 5])], 2))), null);
  assert.equal(withWholeLog(null, state(4, game(1, [rolled(1, [6, 5])], 1))), null);
  assert.equal(withWholeLog(before, state(4, game(2, [rolled(1, [6, 5])], 1))), null);
  assert.equal(withWholeLog(before, state(4, game(1, [rolled(1, [6, 5])], 1), 8)), null);
});
