// The fair-dice page's two plain sentences (static/js/fairdice.js plainWords).
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { plainWords } = await import(client("fairdice.js"));

const roll = (mine) => ({ index: 1, dice: [3, 1], entropy: ["ab"], expected: [3, 1], ok: true, mine, problem: null });

test("a checked game: why the dice are fair, then what this browser found, in two sentences", () => {
  const [why, checked] = plainWords({ ok: true, summary: "all 3 rolls verified", problems: [], notes: [],
                                      rolls: [roll(1), roll(0), roll(1)] });
  assert.match(why, /^These dice could not be cheated: .*\.$/);
  assert.equal(why.split(". ").length, 1);
  assert.equal(checked, "This browser has just checked all 3 rolls of this game against the seed revealed "
    + "at its end, 2 of them with numbers this browser sent itself: each is exactly the roll it had to be.");
  const [, one] = plainWords({ ok: true, summary: "", problems: [], notes: [], rolls: [roll(0)] });
  assert.ok(one.includes("checked the one roll of this game") && !one.includes("numbers this browser sent"));
  const [, own] = plainWords({ ok: true, summary: "", problems: [], notes: [], rolls: [roll(1)] });
  assert.ok(own.includes("the one roll of this game against the seed revealed at its end, which mixed in numbers"));
});

test("a game that fails the check says so first, naming the problem", () => {
  const [, checked] = plainWords({ ok: false, summary: "the seed does not match the commitment",
                                   problems: ["the seed does not match the commitment"], notes: [], rolls: [] });
  assert.equal(checked, "This browser checked this game's rolls and found a problem (the seed does not match "
    + "the commitment): the details are below.");
});
