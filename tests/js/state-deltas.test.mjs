// The delta features (static/js/state-deltas.js, docs/PROTOCOL.md 2.2): the page keeps each
// game's whole log and every finished game from states that carry only what is new.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { FEATURES, wholeState } = await import(client("state-deltas.js"));

const rolled = (side, dice) => ({ type: "rolled", side, dice, text: `${side} rolls` });
const finished = (number) => ({ number, result: { winner: 0 }, commitment: "c", seed: `s${number}` });
const game = (number, log, logFrom) =>
  logFrom === undefined ? { number, log } : { number, log, log_from: logFrom };
const state = (seq, g, { table = 7, games = [], gamesFrom } = {}) => ({
  type: "state",
  table,
  seq,
  game: g,
  previous_games: games,
  ...(gamesFrom === undefined ? {} : { previous_games_from: gamesFrom }),
});

test("the client asks for both features", () => {
  assert.deepEqual(FEATURES, ["log_delta", "games_delta"]);
});

test("a whole state is kept as it came", () => {
  const whole = state(3, game(1, [rolled(0, [3, 1])]), { games: [finished(1)] });
  assert.equal(wholeState(null, whole), whole);
  const noGame = state(1, null);
  assert.equal(wholeState(whole, noGame), noGame);
});

test("new events go after the ones the page has, from log_from on", () => {
  const before = state(3, game(1, [rolled(0, [3, 1]), rolled(1, [6, 5])]));
  const delta = state(4, game(1, [rolled(0, [2, 2])], 2));
  const whole = wholeState(before, delta);
  assert.deepEqual(whole.game.log, [rolled(0, [3, 1]), rolled(1, [6, 5]), rolled(0, [2, 2])]);
  assert.equal("log_from" in whole.game, false);
  assert.equal(whole.seq, 4);
  // Resent from an earlier index (the table was rebuilt): what follows it is replaced.
  const again = wholeState(whole, state(5, game(1, [rolled(1, [4, 4])], 1)));
  assert.deepEqual(again.game.log, [rolled(0, [3, 1]), rolled(1, [4, 4])]);
  // The states it was made from are not changed.
  assert.equal(before.game.log.length, 2);
  assert.equal(delta.game.log_from, 2);
});

test("a new game starts its log at 0", () => {
  const before = state(9, game(1, [rolled(0, [3, 1])]));
  const next = wholeState(before, state(10, game(2, [rolled(1, [5, 2])], 0)));
  assert.deepEqual(next.game.log, [rolled(1, [5, 2])]);
});

test("finished games go after the ones the page has, from previous_games_from on", () => {
  const before = state(20, game(3, []), { games: [finished(1), finished(2)] });
  const same = wholeState(before, state(21, game(3, [], 0), { gamesFrom: 2 }));
  assert.deepEqual(same.previous_games, [finished(1), finished(2)]);
  assert.equal("previous_games_from" in same, false);
  const more = wholeState(same, state(30, game(4, [], 0), { games: [finished(3)], gamesFrom: 2 }));
  assert.deepEqual(more.previous_games, [finished(1), finished(2), finished(3)]);
  assert.deepEqual(more.game.log, []);
  const first = wholeState(null, state(1, null, { games: [finished(1)], gamesFrom: 0 }));
  assert.deepEqual(first.previous_games, [finished(1)]);
});

test("parts the page does not have ask for the whole state again", () => {
  const before = state(3, game(1, [rolled(0, [3, 1])]), { games: [finished(1)] });
  assert.equal(wholeState(before, state(4, game(1, [rolled(1, [6, 5])], 2))), null);
  assert.equal(wholeState(null, state(4, game(1, [rolled(1, [6, 5])], 1))), null);
  assert.equal(wholeState(before, state(4, game(2, [rolled(1, [6, 5])], 1))), null);
  assert.equal(wholeState(before, state(4, game(1, [], 1), { table: 8 })), null);
  assert.equal(wholeState(before, state(4, game(1, [], 1), { gamesFrom: 2 })), null);
  assert.equal(wholeState(null, state(4, null, { gamesFrom: 1 })), null);
});
