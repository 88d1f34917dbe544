// @ts-check
// A chat panel (docs/PROTOCOL.md 6) for the lobby and the tables: the house rules, the
// messages, and for each author a small menu to mute or report them (R13).
//
// A message stays in the input until the server accepts it (its ack): a refused one can
// be mended and sent again. Notes (muted, reported) stay in the list among the messages.

import { t } from "./i18n.js";
import { clear, h, timeText } from "./util.js";

/** @typedef {import("./protocol.js").ChatMessage} ChatMessage */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./protocol.js").User} User */

/** A line of the list: a message, or a note for this reader. @typedef {ChatMessage | {note: string}} Line */

export class ChatPanel {
  /**
   * @param {{send: (m: Record<string, unknown>) => number | null, me: User | null, title?: string}} options
   *   `send(message)` sends over the socket and returns the message id (null if offline)
   */
  constructor({ send, me, title = t("Chat") }) {
    this.send = send;
    this.me = me;
    /** @type {Set<number | string>} ids of what this panel sent */
    this.ids = new Set();
    /** @type {Map<number | string, string>} chat messages sent and not yet answered: their text */
    this.pending = new Map();
    /** @type {Set<string>} */
    this.muted = new Set();
    /** @type {Line[]} */
    this.lines = [];
    this.rules = h("details", { class: "rules", hidden: true },
      h("summary", {}, t("House rules")), h("pre", {}));
    this.list = h("ul", { class: "messages", "aria-live": "polite", "aria-label": t("{title} messages", { title }) });
    this.errorEl = h("p", { class: "error", role: "alert", hidden: true });
    this.input = /** @type {HTMLInputElement} */ (h("input", {
      type: "text", name: "chat", maxlength: 500, autocomplete: "off",
      placeholder: me ? t("Say something nice") : t("Sign in to chat"),
      "aria-label": t("{title} message", { title }), disabled: !me,
    }));
    const form = h("form", { class: "chat-form", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.submit(); } },
      this.input, h("button", { type: "submit", disabled: !me }, t("Send")));
    this.el = h("section", { class: "chat", "aria-label": title },
      h("h2", {}, title), this.rules, this.list, this.errorEl, form);
  }

  /** @param {string | undefined} text */
  setRules(text) {
    if (!text) return;
    this.rules.hidden = false;
    const pre = this.rules.querySelector("pre");
    if (pre) pre.textContent = text;
  }

  /** @param {number | string | undefined} id */
  owns(id) {
    return id !== undefined && this.ids.has(id);
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    const id = this.send({ type: "chat", text });
    if (id === null) {
      this.error(t("Not connected: the message was not sent. Reconnecting…"));
      return;
    }
    this.ids.add(id);
    this.pending.set(id, this.input.value);
    this.error(null);
  }

  /** @param {string | null} text */
  error(text) {
    this.errorEl.hidden = !text;
    this.errorEl.textContent = text || "";
  }

  /** @param {string} text */
  note(text) {
    this.lines.push({ note: text });
    this.render();
  }

  /**
   * Take the chat messages of a socket.
   * @param {ServerMessage} message
   * @returns {boolean} whether the message was for the chat
   */
  handle(message) {
    switch (message.type) {
      case "chat_history":
        // The history replaces the messages; this reader's notes stay.
        this.lines = [...(message.messages || []), ...this.lines.filter((l) => "note" in l)];
        this.render();
        return true;
      case "chat":
        this.lines.push(message.message);
        this.render();
        return true;
      case "muted":
        if (message.muted) this.muted.add(message.user);
        else this.muted.delete(message.user);
        this.note(message.muted ? t("You muted {user}: you will not see their messages.", { user: message.user })
                                : t("You unmuted {user}.", { user: message.user }));
        return true;
      case "reported":
        this.note(t("Thank you: {user} was reported to the operators.", { user: message.user }));
        return true;
      case "ack": {
        if (!this.owns(message.id)) return false;
        const id = /** @type {number | string} */ (message.id);
        const sent = this.pending.get(id);
        this.pending.delete(id);
        // Accepted: clear the input, unless the player has started another message.
        if (sent !== undefined && this.input.value === sent) this.input.value = "";
        return true;
      }
      case "error":
        if (this.owns(message.id)) {
          // Refused: the text stays in the input, to be mended.
          if (message.id !== undefined) this.pending.delete(message.id);
          this.error(message.message);
          this.input.focus();
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  render() {
    const items = this.lines
      .filter((m) => "note" in m || !this.muted.has(m.user))
      .map((m) => {
        if ("note" in m) return h("li", { class: "note" }, m.note);
        const mine = this.me && m.user === this.me.name;
        const who = mine
          ? h("span", { class: "who me" }, m.user)
          : h("button", { class: "who", type: "button", "aria-haspopup": "true",
                          title: t("Mute or report {user}", { user: m.user }),
                          onclick: (/** @type {Event} */ e) => this.menu(/** @type {HTMLElement} */ (e.currentTarget), m) }, m.user);
        return h("li", { dataset: { id: String(m.id) } }, who, " ", h("span", { class: "text" }, m.text),
          h("time", { datetime: new Date(m.ms).toISOString() }, timeText(m.ms)));
      });
    clear(this.list, items);
    this.list.scrollTop = this.list.scrollHeight;
  }

  /**
   * The small menu by an author's name: mute, report.
   * @param {HTMLElement} anchor
   * @param {ChatMessage} m
   */
  menu(anchor, m) {
    const li = anchor.closest("li");
    if (!li) return;
    const open = li.querySelector(".who-menu");
    if (open) {
      open.remove();
      return;
    }
    const mute = h("button", { type: "button", onclick: () => {
      const id = this.send({ type: "mute", user: m.user });
      if (id !== null) this.ids.add(id);
      menu.remove();
    } }, t("Mute {user}", { user: m.user }));
    const report = h("button", { type: "button", onclick: () => {
      const reason = window.prompt(t("Why are you reporting {user}? (message: “{text}”)", { user: m.user, text: m.text }), "");
      if (reason === null) return;
      const id = this.send({ type: "report", user: m.user,
                             reason: `${reason || "no reason given"} (message ${m.id}: ${m.text})`.slice(0, 500) });
      if (id !== null) this.ids.add(id);
      menu.remove();
    } }, t("Report"));
    const menu = h("span", { class: "who-menu", role: "group", "aria-label": t("Actions for {user}", { user: m.user }) }, mute, report);
    li.append(menu);
    mute.focus();
  }
}
