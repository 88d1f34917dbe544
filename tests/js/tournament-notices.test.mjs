// A tournament's match ready for the player (static/js/tournament-notices.js): found in the
// bracket for the right player only, and the countdown's words.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { countdownText, readyMatch, stillIn } = await import(client("tournament-notices.js"));

const me = { id: 7, name: "ann", guest: false, operator: false };
const entry = (n, user, name, out = null) => ({ entry: n, user, name, bot: null, qualified_from: null, out });
const tournament = (status, match) => ({
  id: 3, status, settings: { name: "Friday eight" },
  registered: [entry(0, 7, "ann"), entry(1, 8, "bob")],
  rounds: [{ round: 1, name: "Final", length: 1, matches: [match] }],
});
const match = (over) => ({
  match: 1, players: [{ entry: 0, name: "ann", user: 7, bot: null }, { entry: 1, name: "bob", user: 8, bot: null }],
  status: "ready", table: 12, show_up_by: 1000, arrived: [false, false], winner: null, how: null, ...over,
});

test("the ready match waits for its player, until they arrive", () => {
  const ready = readyMatch(tournament("running", match({})), me);
  assert.deepEqual(ready, { tournament: 3, name: "Friday eight", match: 1, table: 12, opponent: "bob", by: 1000 });
  assert.equal(readyMatch(tournament("running", match({ arrived: [true, false] })), me), null);
  assert.equal(readyMatch(tournament("running", match({ status: "waiting", table: null })), me), null);
  assert.equal(readyMatch(tournament("running", match({})), { ...me, id: 9, name: "cid" }), null);
  assert.equal(readyMatch(tournament("registering", match({})), me), null);
  assert.equal(readyMatch(tournament("running", match({})), null), null);
});

test("a player is in a tournament while registered and not out", () => {
  assert.ok(stillIn(tournament("registering", match({})), me));
  assert.ok(stillIn(tournament("running", match({})), me));
  const out = { ...tournament("running", match({})), registered: [entry(0, 7, "ann", "lost")] };
  assert.ok(!stillIn(out, me));
  assert.ok(!stillIn(tournament("finished", match({})), me));
  assert.ok(!stillIn(tournament("running", match({})), { ...me, id: 99 }));
});

test("countdowns read as a clock, and never below zero", () => {
  assert.equal(countdownText(272.2), "4:33");
  assert.equal(countdownText(59), "0:59");
  assert.equal(countdownText(3723), "1:02:03");
  assert.equal(countdownText(-5), "0:00");
});
