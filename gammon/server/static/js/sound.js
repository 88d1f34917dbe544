// @ts-check
// The table's sounds, made on the spot with the Web Audio API (no audio files): a short
// rising pair of notes at your turn, a three-note call at a double offered to you, a
// little run at the end of a game or match. Quiet by default, off with the mute switch
// (settings.js). A browser lets a page make sound only after a click or a key on it, so
// the audio starts at the first one; a cue before that is not played (and not counted).

import { settings } from "./settings.js";

/** @typedef {"turn" | "double" | "end"} Cue */

/** Each cue's notes: [frequency Hz, start s, length s], on one waveform. */
export const CUES = Object.freeze({
  turn: { wave: /** @type {OscillatorType} */ ("sine"), notes: [[660, 0, 0.09], [880, 0.1, 0.14]] },
  double: { wave: /** @type {OscillatorType} */ ("triangle"), notes: [[523, 0, 0.1], [659, 0.11, 0.1], [784, 0.22, 0.18]] },
  end: { wave: /** @type {OscillatorType} */ ("triangle"),
         notes: [[523, 0, 0.12], [659, 0.13, 0.12], [784, 0.26, 0.12], [1047, 0.39, 0.3]] },
});

/** The sounds of one page. */
export class Sounds {
  constructor() {
    /** @type {AudioContext | null} */
    this.ctx = null;
    /** The cues scheduled on a running audio context, for the tests: {cue, at (s), gain}. */
    /** @type {{cue: Cue, at: number, gain: number}[]} */
    this.played = [];
    const unlock = () => this.unlock();
    if (typeof document !== "undefined") {
      document.addEventListener("pointerdown", unlock, { capture: true });
      document.addEventListener("keydown", unlock, { capture: true });
    }
  }

  /** Start the audio on a click or key (the browser's rule): make the context, resume it. */
  unlock() {
    const Context = typeof window !== "undefined" ? window.AudioContext : undefined;
    if (!Context) return;
    if (!this.ctx) this.ctx = new Context();
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
  }

  /**
   * Play a cue, unless muted or the audio is not started yet; whether it was scheduled.
   * `tryOut` (the panel's Try button) plays it at the volume chosen even while muted.
   * @param {Cue} cue
   * @param {{tryOut?: boolean}} [options]
   */
  play(cue, { tryOut = false } = {}) {
    const s = settings.get();
    const ctx = this.ctx;
    if ((!s.sound && !tryOut) || s.volume <= 0 || !ctx || ctx.state !== "running") return false;
    const { wave, notes } = CUES[cue];
    const t0 = ctx.currentTime + 0.02;
    const peak = 0.5 * s.volume;
    for (const [freq, start, length] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      const at = t0 + start;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(peak, at + 0.012);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + length + 0.02);
    }
    this.played.push({ cue, at: t0, gain: peak });
    return true;
  }

  /**
   * The panel's Try: start the audio (this is a click) and play a cue once it runs.
   * @param {Cue} cue
   */
  async tryOut(cue) {
    this.unlock();
    if (this.ctx && this.ctx.state !== "running") await this.ctx.resume().catch(() => {});
    return this.play(cue, { tryOut: true });
  }
}

/** The page's sounds. */
export const sounds = new Sounds();
