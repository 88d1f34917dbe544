// The table page's words (static/js/table-text.js): how games and matches end, the cube.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const textModule = await import(client("table-text.js"));
const { cubeModel, gameResultText, resultText, statusText } = textModule;

function state(overrides = {}) {
  return {
    type: "state", table: 5, seq: 9, status: "finished",
    settings: { mode: "match", length: 3, variant: "standard", cube: true },
    you: 0,
    players: [{ name: "alice", bot: null, connected: true }, { name: "bob", bot: null, connected: true }],
    spectators: 0,
    series: { mode: "match", length: 3, score: [0, 0], game_number: 1, crawford: false },
    game: null, previous_games: [], clock: null, result: null, last: null,
    ...overrides,
  };
}

test("a match lost on time or by leaving says so, without a meaningless score", () => {
  const time = resultText(state({ result: { winner: 0, reason: "time", score: [0, 0] } }));
  assert.equal(time, "alice wins the match: bob ran out of time.");
  const left = resultText(state({ result: { winner: 1, reason: "forfeit", score: [0, 0] } }));
  assert.equal(left, "alice left the match: bob wins.");
  assert.doesNotMatch(time + left, /0-0/);
});

test("a won match and a session give the final score, the winner's first", () => {
  assert.equal(resultText(state({ result: { winner: 1, reason: "match", score: [1, 3] } })),
               "bob wins the match 3-1.");
  const money = { settings: { mode: "money", variant: "standard", cube: true },
                  series: { mode: "money", length: 0, score: [2, 5], game_number: 3, crawford: false } };
  assert.equal(resultText(state({ ...money, result: { winner: 1, reason: "session", score: [2, 5] } })),
               "bob wins the session 5-2.");
  assert.equal(resultText(state({ ...money, result: { winner: 0, reason: "time", score: [4, 1] } })),
               "alice wins the session: bob ran out of time (final score 4-1).");
  assert.equal(resultText(state({ ...money, result: { winner: null, reason: "session", score: [2, 2] } })),
               "The session ended even, 2-2.");
  assert.equal(resultText(state({ result: { winner: null, reason: "no_show", score: [0, 0] } })),
               "Neither player came to this tournament match: nobody went through.");
});

test("a game's end in plain words", () => {
  const st = state();
  assert.equal(gameResultText(st, { winner: 0, points: 2, kind: "gammon", reason: "bear-off" }),
               "alice wins a gammon: 2 points.");
  assert.equal(gameResultText(st, { winner: 1, points: 1, kind: "single", reason: "resignation" }),
               "alice resigned a single: bob wins 1 point.");
  assert.equal(gameResultText(st, { winner: 0, points: 4, kind: "single", reason: "drop" }),
               "bob dropped the double: alice wins 4 points.");
});

test("no cube value in the Crawford game; 64 is only the centred cube of other games", () => {
  const game = { number: 2, phase: "roll", turn: 0, on_roll: 0, dice: null,
                 cube: { value: 1, owner: null, offered: false, centred: true }, resignation: null,
                 crawford: true, board: null, actions: ["roll"], legal_plays: [], log: [], result: null };
  assert.equal(cubeModel(state({ status: "playing", game }), 0), null);
  const normal = cubeModel(state({ status: "playing", game: { ...game, crawford: false } }), 0);
  assert.deepEqual({ value: normal.value, owner: normal.owner }, { value: 1, owner: null });
  assert.equal(cubeModel(state({ settings: { mode: "match", variant: "tavla", cube: false } }), 0), null);
});

test("the status line: the player's move, a spectator", () => {
  const game = { number: 1, phase: "move", turn: 0, on_roll: 0, dice: [6, 4],
                 cube: { value: 1, owner: null, offered: false, centred: true }, resignation: null,
                 crawford: false, actions: ["play"], legal_plays: [], log: [], result: null };
  assert.equal(statusText(state({ status: "playing", game })), "Your move: 6-4. Click or drag a checker.");
  assert.equal(statusText(state({ status: "playing", game }), "8/2 6/2"), "Confirm 8/2 6/2, or undo.");
  assert.equal(statusText(state({ status: "playing", game, you: null })), "Watching: alice to play 6-4.");
});

test("a page opened mid-turn counts the delay from when the clock started, not from now", () => {
  const { shownReserve } = textModule;
  const clock = {
    base_s: 600, delay_s: 12, increment_s: 0, remaining_ms: [500000, 600000], running: 0,
    started_ms: 1_000_000, server_ms: 1_010_000,
  };
  // 10 s of the 12 s delay had gone when the state was made: 2 s later the reserve starts.
  assert.equal(shownReserve(clock, 0, 0), 500000);
  assert.equal(shownReserve(clock, 0, 2000), 500000);
  assert.equal(shownReserve(clock, 0, 5000), 497000);
  // Opened long after the delay ended: the reserve goes down at once.
  const late = { ...clock, server_ms: 1_100_000 };
  assert.equal(shownReserve(late, 0, 3000), 497000);
  // The side not running keeps its reserve.
  assert.equal(shownReserve(clock, 1, 5000), 600000);
});
