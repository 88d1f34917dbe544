// @ts-check
// The player's settings (sound, animation, the board's look, how moves are entered), in
// one place: load, save, subscribe. They live in the browser (localStorage) so that a
// guest keeps them; whatever else stores them (an account on the server) plugs in through
// `replace` (values from elsewhere, not saved back as the player's change) and
// `subscribe` (every change, with where it came from). The page applies each change at
// once (settings-panel.js's applySettings, and each view that draws with them).

/**
 * @typedef {object} Settings
 * @property {boolean} sound sounds at your turn, at a double offered to you, at the end
 * @property {number} volume 0-1
 * @property {"off" | "fast" | "normal" | "slow"} animation how fast a play is shown moving
 * @property {"right" | "left"} homeBoard where the viewer's home board is drawn
 * @property {"classic" | "green" | "blue" | "contrast"} colours the board's colour scheme
 * @property {boolean} pips show the pip counts
 * @property {boolean} autoRoll roll by itself when there is no cube decision to make
 * @property {boolean} fastEntry one click on a checker moves it by the higher (or chosen) die
 * @property {boolean} autoConfirm send a play as soon as its last checker is moved
 * @property {"" | "en" | "fi" | "sv" | "nb" | "nl"} language the page's language ("": the browser's)
 */

/** Where a change came from: the player here, or a store elsewhere (`replace`). @typedef {"player" | "elsewhere"} Source */

/** @typedef {(settings: Settings, changed: (keyof Settings)[], source: Source) => void} Listener */

/** @type {Readonly<Settings>} */
export const DEFAULTS = Object.freeze({
  sound: true,
  volume: 0.3,
  animation: "normal",
  homeBoard: "right",
  colours: "classic",
  pips: true,
  autoRoll: false,
  fastEntry: false,
  autoConfirm: false,
  language: "",
});

/** The values a choice may take, in the order the panel offers them. */
export const CHOICES = Object.freeze({
  animation: /** @type {const} */ (["off", "fast", "normal", "slow"]),
  homeBoard: /** @type {const} */ (["right", "left"]),
  colours: /** @type {const} */ (["classic", "green", "blue", "contrast"]),
  language: /** @type {const} */ (["", "en", "fi", "sv", "nb", "nl"]),
});

/** A checker's step (one die) in ms at each animation speed; a hit's trip is shorter. */
export const STEP_MS = Object.freeze({ off: 0, fast: 110, normal: 200, slow: 380 });

/** The key in localStorage. */
export const STORAGE_KEY = "gammon.settings";

/** A setting's name or value that is not one: says which, and what would do. */
export class SettingsError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "SettingsError";
  }
}

/**
 * Whether `value` is a valid value of `key`.
 * @param {string} key
 * @param {unknown} value
 */
function valid(key, value) {
  if (!(key in DEFAULTS)) return false;
  const def = /** @type {Record<string, unknown>} */ (DEFAULTS)[key];
  if (key in CHOICES) return /** @type {readonly unknown[]} */ (/** @type {Record<string, readonly string[]>} */ (CHOICES)[key]).includes(value);
  if (key === "volume") return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1;
  return typeof value === typeof def;
}

/**
 * The changes `changes` asks for, checked: a SettingsError names the first bad one.
 * @param {Record<string, unknown>} changes
 * @returns {Partial<Settings>}
 */
export function checkChanges(changes) {
  for (const [key, value] of Object.entries(changes)) {
    if (!(key in DEFAULTS)) {
      throw new SettingsError(`There is no setting called "${key}" (the settings: ${Object.keys(DEFAULTS).join(", ")}).`);
    }
    if (!valid(key, value)) {
      const choices = /** @type {Record<string, readonly string[]>} */ (CHOICES)[key];
      const want = choices ? `one of ${choices.join(", ")}`
        : key === "volume" ? "a number from 0 to 1" : typeof (/** @type {Record<string, unknown>} */ (DEFAULTS)[key]);
      throw new SettingsError(`The setting "${key}" cannot be ${JSON.stringify(value)}: it takes ${want}.`);
    }
  }
  return /** @type {Partial<Settings>} */ (changes);
}

/**
 * Settings from stored text: every known valid value kept, the rest the defaults (a stored
 * value from an older or broken page never breaks the page).
 * @param {string | null} text
 * @returns {Settings}
 */
export function parseStored(text) {
  /** @type {Record<string, unknown>} */
  const out = { ...DEFAULTS };
  if (!text) return /** @type {Settings} */ (out);
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return /** @type {Settings} */ (out);
  }
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) if (valid(key, value)) out[key] = value;
  }
  return /** @type {Settings} */ (out);
}

/**
 * The minimal storage a store needs (localStorage has it; the tests pass a Map-backed one).
 * @typedef {{getItem: (key: string) => string | null, setItem: (key: string, value: string) => void}} Storage
 */

/** One player's settings, kept in a storage, with listeners. */
export class SettingsStore {
  /** @param {Storage | null} storage null: kept in memory only */
  constructor(storage) {
    this.storage = storage;
    /** @type {Settings} */
    this.values = parseStored(this.read());
    /** @type {Set<Listener>} */
    this.listeners = new Set();
  }

  read() {
    try {
      return this.storage ? this.storage.getItem(STORAGE_KEY) : null;
    } catch {
      return null; // storage refused (a private window): the defaults
    }
  }

  /** @returns {Settings} */
  get() {
    return { ...this.values };
  }

  /**
   * The player changes settings here: checked, saved, told to every listener.
   * @param {Partial<Record<keyof Settings, unknown>>} changes
   */
  set(changes) {
    this.apply(checkChanges(changes), "player");
  }

  /**
   * Settings that come from elsewhere (an account's, from the server): every key given is
   * taken, the others kept; told to the listeners as from "elsewhere", so that the store
   * they came from is not written back to.
   * @param {Record<string, unknown>} values
   */
  replace(values) {
    /** @type {Record<string, unknown>} */
    const known = {};
    for (const [key, value] of Object.entries(values)) if (valid(key, value)) known[key] = value;
    this.apply(/** @type {Partial<Settings>} */ (known), "elsewhere");
  }

  /**
   * @param {Partial<Settings>} changes
   * @param {Source} source
   */
  apply(changes, source) {
    /** @type {(keyof Settings)[]} */
    const changed = [];
    for (const key of /** @type {(keyof Settings)[]} */ (Object.keys(changes))) {
      if (this.values[key] !== changes[key]) changed.push(key);
    }
    if (!changed.length) return;
    this.values = { ...this.values, ...changes };
    try {
      if (this.storage) this.storage.setItem(STORAGE_KEY, JSON.stringify(this.values));
    } catch {
      // storage full or refused: the settings hold for this page
    }
    for (const listener of this.listeners) listener(this.get(), changed, source);
  }

  /**
   * Call `listener` on every change (and at once, with `now`); the function that stops it.
   * @param {Listener} listener
   * @param {{now?: boolean}} [options]
   */
  subscribe(listener, { now = false } = {}) {
    this.listeners.add(listener);
    if (now) listener(this.get(), /** @type {(keyof Settings)[]} */ (Object.keys(this.values)), "elsewhere");
    return () => {
      this.listeners.delete(listener);
    };
  }
}

/** The page's settings, in this browser's localStorage. */
export const settings = new SettingsStore(typeof localStorage === "undefined" ? null : localStorage);
