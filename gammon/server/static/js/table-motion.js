// @ts-check
// What moves on the table page besides the player's own checkers: the opponent's play
// shown moving (read off the `moved` event of the state's last action, docs/PROTOCOL.md
// 3, `last`), the dice each side last played kept on the board until the next roll, the
// last play replayed on demand, the sounds at your turn, at a double offered to you and at
// the end, and rolling by itself (settings.js). table.js hands it each state and draws
// the board through it; the buttons under the board (replay, mute, settings) are its own.

import { BoardAnimator } from "./board-animator.js";
import { t } from "./i18n.js";
import { usedDice } from "./moves.js";
import { flightsOf, lastPlay, positionBefore, spentDice } from "./play-path.js";
import { STEP_MS, settings } from "./settings.js";
import { openSettings } from "./settings-panel.js";
import { sounds } from "./sound.js";
import { h } from "./util.js";

/** @typedef {import("./protocol.js").State} State */
/** @typedef {import("./protocol.js").Board} Board */
/** @typedef {import("./protocol.js").GameEvent} GameEvent */
/** @typedef {import("./protocol.js").ActionType} ActionType */
/** @typedef {import("./board.js").BoardView} BoardView */
/** @typedef {import("./board.js").BoardModel} BoardModel */
/** @typedef {import("./play-path.js").Position} Position */
/** @typedef {import("./sound.js").Cue} Cue */

/**
 * The action that made a state (docs/PROTOCOL.md 3, `last`): its seq, the side that acted,
 * the game its events belong to, and the events.
 * @typedef {{seq: number, side: number | null, type: string, game: number | null, events: GameEvent[]}} LastAction
 */

/**
 * A play to show moving: the position before it, whose checkers move, the moves, the dice.
 * @typedef {{before: Position, viewerMoves: boolean, moves: import("./protocol.js").Move[], dice: number[]}} Shown
 */

/**
 * What the motion needs from the table page.
 * @typedef {object} Page
 * @property {() => State | null} state
 * @property {() => BoardModel} model the board as the page would draw it now
 * @property {() => void} redraw draw the board again (the orientation changed)
 * @property {(type: ActionType) => void} act
 * @property {() => boolean} busy an action is on its way
 */

/** The actions that mean the receiver must decide something now. */
const TO_ACT = new Set(["roll", "play", "double", "take", "drop", "beaver", "choose_double",
                        "accept_resignation", "reject_resignation"]);

/**
 * A server board (the viewer's side) as a drawn position.
 * @param {Board} b
 * @returns {Position}
 */
export function positionOf(b) {
  return { mine: b.mine.slice(), theirs: b.theirs.slice(), off: b.off.slice(),
           waiting: (b.waiting || [0, 0]).slice() };
}

/** @param {State} st */
function viewerOf(st) {
  return st.you !== null ? st.you : 0;
}

/**
 * The play to show moving when `st` follows `previous`: another side's play in the action
 * that made `st` (for a spectator, either side's), from the position before it; null when
 * there is none, or `previous` is not the state just before (a first state, a reconnect
 * that skipped states: nothing is shown moving that the page did not see coming).
 * @param {State | null} previous
 * @param {State} st
 * @returns {Shown | null}
 */
export function playToShow(previous, st) {
  const last = /** @type {LastAction | null} */ (st.last);
  if (!previous || previous.table !== st.table || !last || last.seq !== st.seq || previous.seq >= st.seq) return null;
  const viewer = viewerOf(st);
  const moved = (last.events || []).filter((e) => e.type === "moved" && e.moves &&
                                                  (st.you === null || e.side !== st.you));
  const play = moved[moved.length - 1];
  if (!play || !play.moves) return null;
  const viewerMoves = play.side === viewer;
  const g = st.game;
  if (g && g.number === last.game) {
    return { before: positionBefore(positionOf(g.board), viewerMoves, play.moves), viewerMoves,
             moves: play.moves, dice: play.dice || [] };
  }
  // The play ended the game and the state shows the next one: from the board shown before.
  const was = previous.game;
  if (was && was.number === last.game && previous.seq === st.seq - 1) {
    return { before: positionOf(was.board), viewerMoves, moves: play.moves, dice: play.dice || [] };
  }
  return null;
}

/**
 * The sound for `st` after `previous`: the end of a game or match, a double offered to the
 * receiver, the receiver's turn coming; null for none (and none for a first state).
 * @param {State | null} previous
 * @param {State} st
 * @returns {Cue | null}
 */
export function cueFor(previous, st) {
  if (!previous || previous.table !== st.table || st.you === null) return null;
  if (st.status === "finished" && previous.status !== "finished") return "end";
  if ((st.previous_games || []).length > (previous.previous_games || []).length) return "end";
  if (st.status !== "playing") return null;
  const actions = (/** @type {State} */ s) => (s.game && s.status === "playing" ? s.game.actions : []);
  const now = actions(st);
  const before = actions(previous);
  if (now.includes("take") && !before.includes("take")) return "double";
  const toAct = (/** @type {string[]} */ a) => a.some((x) => TO_ACT.has(x));
  if (toAct(now) && !toAct(before)) return "turn";
  return null;
}

/**
 * Whether to roll by itself (the setting): the receiver may roll and has no cube decision,
 * either because it may not double or because doubling cannot help it: in a match, a
 * player who needs no more points than the cube already gives (a dead cube: the double
 * would win nothing more, and hand the opponent the cube).
 * @param {State} st
 */
export function rollsByItself(st) {
  const g = st.game;
  if (st.you === null || st.status !== "playing" || g === null || !g.actions.includes("roll")) return false;
  if (!g.actions.includes("double")) return true;
  const series = st.series;
  return series !== null && series.mode === "match" && series.length - series.score[st.you] <= g.cube.value;
}

export class TableMotion {
  /**
   * @param {BoardView} board
   * @param {Page} page
   */
  constructor(board, page) {
    this.page = page;
    this.anim = new BoardAnimator(board);
    /** @type {Shown | null} the last play shown, for a replay once its game is over */
    this.lastShown = null;
    /** @type {number | null} the seq rolled on by itself */
    this.autoRolled = null;
    this.replayButton = /** @type {HTMLButtonElement} */ (h("button", {
      type: "button", name: "replay-last", title: t("Show the last play again"), onclick: () => this.replay() },
    t("Replay last play")));
    this.muteButton = /** @type {HTMLButtonElement} */ (h("button", {
      type: "button", name: "mute", onclick: () => settings.set({ sound: !settings.get().sound }) }));
    this.tools = h("div", { class: "board-tools", role: "group", "aria-label": t("Board") },
      this.replayButton, this.muteButton,
      h("button", { type: "button", name: "table-settings", onclick: () => openSettings() }, t("Settings")));
    this.renderMute();
    this.unsubscribe = settings.subscribe((s, changed) => {
      if (changed.includes("sound")) this.renderMute();
      if (changed.includes("homeBoard") || changed.includes("fastEntry")) {
        // The board turns round, or shows (or stops showing) the die a click uses.
        this.anim.finish();
        this.page.redraw();
      }
      if (changed.includes("autoRoll")) this.autoRoll();
    });
  }

  destroy() {
    this.unsubscribe();
    this.anim.stop();
  }

  renderMute() {
    const on = settings.get().sound;
    this.muteButton.textContent = on ? t("Sound on") : t("Sound off");
    this.muteButton.setAttribute("aria-pressed", on ? "false" : "true");
    this.muteButton.title = on ? t("Mute the table's sounds") : t("Turn the sounds back on");
    this.muteButton.classList.toggle("muted-sound", !on);
  }

  /**
   * Draw the board, or, while a play is shown moving, hand the model to end on.
   * @param {BoardModel} model
   */
  draw(model) {
    if (this.anim.running) this.anim.setFinal(model);
    else this.anim.view.render(model);
  }

  /** A click or key while a play is shown moving finishes it; whether one was. */
  skip() {
    if (!this.anim.running) return false;
    this.anim.finish();
    return true;
  }

  /**
   * A state arrived (before the page draws it): end the play being shown, and start
   * showing the one that made this state, if another side's.
   * @param {State | null} previous
   * @param {State} st
   */
  onState(previous, st) {
    this.anim.finish();
    const shown = playToShow(previous, st);
    if (!shown) return;
    this.lastShown = shown;
    this.show(shown, STEP_MS[settings.get().animation]);
  }

  /**
   * After the page drew `st`: its sound and the roll by itself, once the play shown ends.
   * @param {State | null} previous
   * @param {State} st
   */
  afterRender(previous, st) {
    const g = st.game;
    this.replayButton.disabled = !((g && lastPlay(g.log)) || this.lastShown);
    const cue = cueFor(previous, st);
    this.anim.whenDone(() => {
      if (cue) sounds.play(cue);
      this.autoRoll();
    });
  }

  autoRoll() {
    const st = this.page.state();
    if (!st || !settings.get().autoRoll || !rollsByItself(st) || this.page.busy() || this.anim.running) return;
    if (this.autoRolled === st.seq) return;
    this.autoRolled = st.seq;
    this.page.act("roll");
  }

  /**
   * @param {Shown} shown
   * @param {number} stepMs
   */
  show(shown, stepMs) {
    const { flights } = flightsOf(shown.before, shown.viewerMoves, shown.moves);
    const dice = shown.dice.length === 2 && shown.dice[0] === shown.dice[1]
      ? [shown.dice[0], shown.dice[0], shown.dice[0], shown.dice[0]] : shown.dice;
    const final = this.page.model();
    const played = (/** @type {number} */ done) => shown.moves.slice(0, done).map(([from, to]) => ({ from, to }));
    this.anim.play({
      flights,
      stepMs,
      final,
      frame: (under, done) => ({
        ...final, ...under,
        // Each die fades as its checker lands, as the player's own do.
        dice: dice.map((value, i) => ({ value, used: usedDice(dice, played(done))[i] })),
        diceMine: shown.viewerMoves, spent: null,
        selected: null, dests: new Set(), movable: new Set(), canRoll: false, last: new Set(),
        diceClickable: false,
      }),
    });
  }

  /** Show the last play again, from the position before it (at the normal speed when off). */
  replay() {
    const st = this.page.state();
    if (!st) return;
    const g = st.game;
    const play = g ? lastPlay(g.log) : null;
    /** @type {Shown | null} */
    let shown = this.lastShown;
    if (g && play && play.moves) {
      const viewerMoves = play.side === viewerOf(st);
      shown = { before: positionBefore(positionOf(g.board), viewerMoves, play.moves), viewerMoves,
                moves: play.moves, dice: play.dice || [] };
    }
    if (!shown) return;
    const speed = settings.get().animation;
    this.show(shown, STEP_MS[speed === "off" ? "normal" : speed]);
    this.anim.whenDone(() => this.autoRoll());
  }

  /**
   * The dice each side last played, as the board shows them until the next roll.
   * @param {State} st
   * @returns {{values: number[], mine: boolean} | null}
   */
  spent(st) {
    const g = st.game;
    const spent = g ? spentDice(g.log) : null;
    return spent ? { values: spent.values, mine: spent.side === viewerOf(st) } : null;
  }
}
