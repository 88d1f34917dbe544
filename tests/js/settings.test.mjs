// The player's settings (static/js/settings.js): saved as they change, read back after a
// reload, a broken or old stored value read as the default, a bad change refused with
// words that say what is wrong, and values from elsewhere (an account) not saved back as
// the player's change.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { DEFAULTS, STORAGE_KEY, SettingsError, SettingsStore, parseStored } = await import(client("settings.js"));

function memory(initial = null) {
  const data = new Map(initial === null ? [] : [[STORAGE_KEY, initial]]);
  return { getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, v), data };
}

test("the defaults, and every change saved and read back by the next page", () => {
  const storage = memory();
  const store = new SettingsStore(storage);
  assert.deepEqual(store.get(), { ...DEFAULTS });
  assert.equal(DEFAULTS.sound, true);
  assert.ok(DEFAULTS.volume > 0 && DEFAULTS.volume <= 0.5, "on, at a low volume");
  store.set({ animation: "slow", homeBoard: "left", fastEntry: true, volume: 0.8 });
  const again = new SettingsStore(storage);
  assert.equal(again.get().animation, "slow");
  assert.equal(again.get().homeBoard, "left");
  assert.equal(again.get().fastEntry, true);
  assert.equal(again.get().volume, 0.8);
});

test("a stored value that is no setting's is read as the default", () => {
  const s = parseStored(JSON.stringify({ animation: "warp", volume: 7, sound: "yes", colours: "green", old: 1 }));
  assert.equal(s.animation, DEFAULTS.animation);
  assert.equal(s.volume, DEFAULTS.volume);
  assert.equal(s.sound, DEFAULTS.sound);
  assert.equal(s.colours, "green");
  assert.ok(!("old" in s));
  assert.deepEqual(parseStored("{not json"), { ...DEFAULTS });
  assert.deepEqual(parseStored("[1]"), { ...DEFAULTS });
});

test("a bad change is refused, naming the setting and what it takes", () => {
  const store = new SettingsStore(memory());
  assert.throws(() => store.set({ animation: "warp" }),
    (e) => e instanceof SettingsError && /"animation"/.test(e.message) && /off, fast, normal, slow/.test(e.message));
  assert.throws(() => store.set({ volume: 2 }), (e) => e instanceof SettingsError && /0 to 1/.test(e.message));
  assert.throws(() => store.set({ speed: 1 }), (e) => e instanceof SettingsError && /no setting called "speed"/.test(e.message));
  assert.deepEqual(store.get(), { ...DEFAULTS }, "nothing changed");
});

test("subscribers hear each change once, with its source; replace is from elsewhere", () => {
  const store = new SettingsStore(memory());
  const heard = [];
  const stop = store.subscribe((s, changed, source) => heard.push([changed, source, s.pips]));
  store.set({ pips: false });
  store.set({ pips: false }); // no change: nothing told
  store.replace({ pips: true, autoRoll: true, animation: "warp" });
  stop();
  store.set({ sound: false });
  assert.deepEqual(heard, [[["pips"], "player", false], [["pips", "autoRoll"], "elsewhere", true]]);
  assert.equal(store.get().animation, DEFAULTS.animation, "an invalid value from elsewhere is ignored");
  const now = [];
  store.subscribe((s) => now.push(s.sound), { now: true });
  assert.deepEqual(now, [false]);
});

test("a storage that refuses (a private window) leaves the settings for the page", () => {
  const refusing = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); } };
  const store = new SettingsStore(refusing);
  store.set({ colours: "blue" });
  assert.equal(store.get().colours, "blue");
});
