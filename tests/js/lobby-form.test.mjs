// Reading the create-table form (static/js/lobby-form.js): refused in the player's words.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client, small } from "./load.mjs";

const { inFormWords, lobbyView, PAGE_SIZE, readSettings } = await import(client("lobby-form.js"));

const variants = Object.entries(small.starts).map(([name, board]) => ({
  name, description: "", cube: name !== "tavla", board,
}));

function form(overrides = {}) {
  return {
    opponent: "anyone", invite: "", bot: "beginner", mode: "match", length: "3", crawford: true,
    max_games: "", jacoby: false, beavers: false, auto_doubles: "0", stakes: "", variant: "standard",
    cube: true, clock: null, base_min: "10", delay_s: "12", increment_s: "0", ...overrides,
  };
}

test("a match needs its points: a blank is refused, not made a 3-point match", () => {
  const answer = readSettings(form({ length: "" }), variants);
  assert.equal(answer.settings, undefined);
  assert.equal(answer.field, "length");
  assert.match(answer.error, /^Points: enter a whole number from 1 to 64\./);
});

test("out-of-range and non-whole numbers are refused, named as the form names them", () => {
  for (const bad of ["0", "65", "2.5", "-1", "x"]) {
    const answer = readSettings(form({ length: bad }), variants);
    assert.equal(answer.field, "length", bad);
    assert.equal(answer.error, `Points: ${bad} is not a whole number from 1 to 64.`);
    assert.doesNotMatch(answer.error, /length/);
  }
  assert.equal(readSettings(form({ mode: "money", stakes: "0" }), variants).field, "stakes");
  assert.equal(readSettings(form({ clock: "custom", base_min: "" }), variants).field, "base_min");
});

test("the settings as the protocol names them", () => {
  assert.deepEqual(readSettings(form({ length: " 7 " }), variants).settings,
                   { mode: "match", variant: "standard", cube: true, length: 7, crawford: true });
  const money = readSettings(form({ mode: "money", max_games: "1", opponent: "bot" }), variants).settings;
  assert.deepEqual(money, { mode: "money", variant: "standard", cube: true, jacoby: false, beavers: false,
                            auto_doubles: 0, max_games: 1, bot: "beginner" });
  assert.deepEqual(readSettings(form({ clock: "custom", base_min: "2", delay_s: "" }), variants).settings.clock,
                   { base_s: 120, delay_s: 0, increment_s: 0 });
  assert.equal(readSettings(form({ opponent: "invite", invite: " " }), variants).field, "invite");
});

test("no cube for a variant without one (tavla), whatever the box says", () => {
  assert.equal(readSettings(form({ variant: "tavla", cube: true }), variants).settings.cube, false);
  assert.equal(readSettings(form({ variant: "nackgammon", cube: true }), variants).settings.cube, true);
});

test("the server's refusal in the form's words", () => {
  assert.equal(inFormWords("'length' must be a whole number from 1 to 64, got 0"),
               "Points must be a whole number from 1 to 64, got 0");
  assert.equal(inFormWords("'invite' and 'bot' cannot both be set"), "invite and bot cannot both be set");
});

test("the lobby's filters become a lobby_view: blanks are left out, the page is the server's", () => {
  const any = { status: "open", rated: "", length: "", variant: "" };
  assert.deepEqual(lobbyView(any, 0), { type: "lobby_view", status: "open", page: 0, size: PAGE_SIZE });
  assert.deepEqual(lobbyView({ status: "playing", rated: "unrated", length: " 5 ", variant: "tavla" }, 2),
    { type: "lobby_view", status: "playing", page: 2, size: PAGE_SIZE, length: 5, variant: "tavla", rated: false });
  // A length being typed (or out of range) filters nothing rather than being refused.
  assert.equal(lobbyView({ ...any, length: "0" }, 0).length, undefined);
  assert.equal(lobbyView({ ...any, length: "2.5" }, 0).length, undefined);
  assert.equal(lobbyView({ ...any, rated: "rated" }, 0).rated, true);
});
