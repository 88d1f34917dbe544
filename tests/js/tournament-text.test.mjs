// Tournaments in words (static/js/tournament-text.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { endText, howText, lengthsText, matchText, stateText } = await import(client("tournament-text.js"));

const summary = {
  id: 1, name: "Friday", kind: "sit_and_go", status: "registering", seats: 8, registered: 3,
  start_at: null, lengths: [3], variant: "standard", rated: true, satellite: null, winner: null,
};

test("a tournament's state in one line", () => {
  assert.equal(stateText(summary), "Sit & Go: registration open, 3/8, starts when 8 have registered");
  assert.equal(stateText({ ...summary, status: "running" }), "Sit & Go: being played");
  assert.equal(stateText({ ...summary, status: "finished", winner: "ann" }), "Sit & Go: won by ann");
  assert.match(stateText({ ...summary, kind: "scheduled", start_at: 0 }), /^Scheduled: .* starts 19\d\d-/);
});

test("matches in words, with no codes or rule numbers", () => {
  const ann = { entry: 1, name: "ann" }, bob = { entry: 2, name: "bob" };
  const base = { match: 1, table: 5, show_up_by: null, winner: null, how: null, arrived: [true, false] };
  assert.equal(matchText({ ...base, players: [ann, null], status: "waiting" }), "ann against to be decided: waiting");
  assert.equal(matchText({ ...base, players: [ann, bob], status: "ready" }), "ann against bob: waiting for bob");
  assert.equal(matchText({ ...base, players: [ann, bob], status: "ready", arrived: [true, true] }),
               "ann against bob: being played");
  assert.equal(matchText({ ...base, players: [ann, bob], status: "over", winner: 1, how: "no_show" }),
               "ann went through: the opponent did not come");
  assert.equal(matchText({ ...base, players: [ann, bob], status: "over", winner: null, how: "no_show" }),
               "ann against bob: nobody went through");
  assert.equal(endText({ ...base, players: [ann, bob], status: "over", winner: 1, how: "no_show" }),
               "the opponent did not come");
  assert.equal(endText({ ...base, players: [ann, bob], status: "over", winner: null, how: "no_show" }),
               "neither came: nobody went through");
  for (const how of ["bye", "walkover", "withdrew", "removed", "lot", "forfeit", "time", "match", "some_new_way"]) {
    assert.doesNotMatch(howText(how), /_|R\d/);
  }
  assert.equal(lengthsText([3]), "3-point matches");
  assert.equal(lengthsText([3, 5]), "3, 5-point matches (by round, the last repeating)");
});
