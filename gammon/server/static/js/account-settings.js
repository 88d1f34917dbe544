// @ts-check
// An account's settings follow the player (docs/PROTOCOL.md 1.2): at sign-in the account's
// saved settings replace this browser's (settings.js), and each change the player makes is
// saved to the account (all of them, so an account with none saved yet gets this
// browser's at the first change).

import { get, post } from "./api.js";
import { settings } from "./settings.js";

/** @typedef {import("./protocol.js").User} User */

/** @type {(() => void) | null} */
let stop = null;
/** @type {number | null} */
let following = null;

/**
 * Follow `me`'s account (null: nobody signed in, the browser's settings alone).
 * @param {User | null} me
 */
export async function followAccount(me) {
  if (me && me.id === following) return;
  if (stop) stop();
  stop = null;
  following = me ? me.id : null;
  if (!me) return;
  // Listen from the start: a change the player makes while the account's settings are on
  // their way (the language, picked right after signing in) is kept and saved, not lost.
  let loaded = false;
  /** @type {Set<string>} */
  const changedMeanwhile = new Set();
  const save = () => post("/api/me/settings", { settings: settings.get() }).catch(() => {});
  const unsubscribe = settings.subscribe((_values, changed, source) => {
    if (source !== "player") return;
    if (loaded) save();
    else for (const key of changed) changedMeanwhile.add(key);
  });
  stop = unsubscribe;
  try {
    const saved = (await get("/api/me/settings")).settings;
    if (following !== me.id) return;
    // None saved yet: this browser's hold, and the player's first change saves them all
    // (writing them now could undo a change made elsewhere a moment later). The player's
    // changes made meanwhile win over the saved values of the same settings.
    /** @type {Record<string, unknown>} */
    const taken = {};
    for (const [key, value] of Object.entries(saved)) if (!changedMeanwhile.has(key)) taken[key] = value;
    if (Object.keys(taken).length) settings.replace(taken);
  } catch {
    // The server keeps no settings (an older one) or cannot now: this browser's hold.
  }
  if (following !== me.id) return;
  loaded = true;
  if (changedMeanwhile.size) save();
}
