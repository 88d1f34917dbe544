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
  try {
    const saved = (await get("/api/me/settings")).settings;
    if (following !== me.id) return;
    // None saved yet: this browser's hold, and the player's first change saves them all
    // (writing them now could undo a change made elsewhere a moment later).
    if (Object.keys(saved).length) settings.replace(saved);
  } catch {
    // The server keeps no settings (an older one) or cannot now: this browser's hold.
  }
  if (following !== me.id) return;
  stop = settings.subscribe((values, _changed, source) => {
    if (source === "player") post("/api/me/settings", { settings: values }).catch(() => {});
  });
}
