// A chat panel (docs/PROTOCOL.md 6) for the lobby and the tables: the house rules,
// the messages, and for each author a small menu to mute or report them (R13).

import { h, clear, timeText } from "./util.js";

export class ChatPanel {
  /** ``send(message)`` sends over the socket and returns the message id (or null if offline). */
  constructor({ send, me, title = "Chat" }) {
    this.send = send;
    this.me = me;
    this.ids = new Set();
    this.muted = new Set();
    this.messages = [];
    this.rules = h("details", { class: "rules", hidden: true },
      h("summary", {}, "House rules"), h("pre", {}));
    this.list = h("ul", { class: "messages", "aria-live": "polite", "aria-label": `${title} messages` });
    this.errorEl = h("p", { class: "error", role: "alert", hidden: true });
    this.input = h("input", { type: "text", name: "chat", maxlength: 500, autocomplete: "off",
                              placeholder: me ? "Say something nice" : "Sign in to chat",
                              "aria-label": `${title} message`, disabled: !me });
    const form = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      this.input, h("button", { type: "submit", disabled: !me }, "Send"));
    this.el = h("section", { class: "chat", "aria-label": title },
      h("h2", {}, title), this.rules, this.list, this.errorEl, form);
  }

  setRules(text) {
    if (!text) return;
    this.rules.hidden = false;
    this.rules.querySelector("pre").textContent = text;
  }

  owns(id) {
    return this.ids.has(id);
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    const id = this.send({ type: "chat", text });
    if (id === null) {
      this.error("Not connected: the message was not sent. Reconnecting…");
      return;
    }
    this.ids.add(id);
    this.input.value = "";
    this.error(null);
  }

  error(text) {
    this.errorEl.hidden = !text;
    this.errorEl.textContent = text || "";
  }

  note(text) {
    this.list.append(h("li", { class: "note" }, text));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Take the chat messages of a socket; true when the message was for the chat. */
  handle(message) {
    switch (message.type) {
      case "chat_history":
        this.messages = message.messages || [];
        this.render();
        return true;
      case "chat":
        this.messages.push(message.message);
        this.render();
        return true;
      case "muted":
        if (message.muted) this.muted.add(message.user);
        else this.muted.delete(message.user);
        this.render();
        this.note(message.muted ? `You muted ${message.user}: you will not see their messages.`
                                : `You unmuted ${message.user}.`);
        return true;
      case "reported":
        this.note(`Thank you: ${message.user} was reported to the operators.`);
        return true;
      case "error":
        if (this.owns(message.id)) {
          this.error(message.message);
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  render() {
    const items = this.messages
      .filter((m) => !this.muted.has(m.user))
      .map((m) => {
        const mine = this.me && m.user === this.me.name;
        const who = mine
          ? h("span", { class: "who me" }, m.user)
          : h("button", { class: "who", type: "button", "aria-haspopup": "true",
                          title: `Mute or report ${m.user}`,
                          onclick: (e) => this.menu(e.currentTarget, m) }, m.user);
        return h("li", { dataset: { id: String(m.id) } }, who, " ", h("span", { class: "text" }, m.text),
          h("time", { datetime: new Date(m.ms).toISOString() }, timeText(m.ms)));
      });
    clear(this.list, items);
    this.list.scrollTop = this.list.scrollHeight;
  }

  menu(anchor, m) {
    const li = anchor.closest("li");
    const open = li.querySelector(".who-menu");
    if (open) {
      open.remove();
      return;
    }
    const mute = h("button", { type: "button", onclick: () => {
      const id = this.send({ type: "mute", user: m.user });
      if (id !== null) this.ids.add(id);
      menu.remove();
    } }, `Mute ${m.user}`);
    const report = h("button", { type: "button", onclick: () => {
      const reason = window.prompt(`Why are you reporting ${m.user}? (message: “${m.text}”)`, "");
      if (reason === null) return;
      const id = this.send({ type: "report", user: m.user,
                             reason: `${reason || "no reason given"} (message ${m.id}: ${m.text})`.slice(0, 500) });
      if (id !== null) this.ids.add(id);
      menu.remove();
    } }, "Report");
    const menu = h("span", { class: "who-menu", role: "group", "aria-label": `Actions for ${m.user}` }, mute, report);
    li.append(menu);
    mute.focus();
  }
}
