"""The table in the player's language, in a real browser: Chromium set to Finnish, Swedish,
Norwegian Bokmål or Dutch (its Accept-Language), a guest plays the bot for a few turns, and
the table's status line, action buttons, resign menu, board labels and log speak that
language: every text the page shows (and its aria-labels, titles and placeholders) is
compared with the same page in English, and none that reads as English words is left the
same. The page's ``<html lang>`` is the language, and at 390 px nothing is wider than the
screen. Screenshots of the Finnish and Dutch tables at 390 px and 1280 px are saved in
test-artifacts/ (i18n-table-*.png) for a person to look at.

Needs Debian's chromium, as test_browser.py.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.server.browser_helpers import (
    LAID_OUT,
    TIMEOUT_MS,
    click_action,
    have_chromium,
    js_errors,
    needs_chromium,
    play_move,
    screenshot,
    state,
    sticking_out,
    turn,
    wait_for_change,
    wait_until,
)
from tests.server.client import ServerProcess

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page

#: Our languages and the browser's locale for each.
LOCALES = {"fi": "fi-FI", "sv": "sv-SE", "nb": "nb-NO", "nl": "nl-NL"}
#: Words the same in English and the language by right: the game's own terms that every
#: language keeps (docs/TRANSLATING.md), and words the language writes as English does.
KEPT = {
    "gammon",
    "backgammon",
    "crawford",
    "beaver",
    "jacoby",
    "ply",
    "chat",  # Norwegian and Dutch: chat
    "hint",
    "hints",  # Dutch: hint, hints
    "send",  # Norwegian: send (the imperative of sende)
    "score",  # Dutch: score
    "pips",  # Dutch: pips (the players' word, as in pipcount)
}

#: What the table shows: its visible texts and the aria-labels, titles and placeholders of
#: its elements. Left out: the table's settings line (util.js describeSettings, a module of
#: the lobby's) and what the server writes (its log lines, refusals, the tutor's words and the
#: house rules, translated on the server's side).
_TEXTS = """() => {
  const root = document.querySelector(".table-view");
  const skip = (el) => el.closest(".info > p.muted") || el.closest(".log li:not(:has(.who))")
    || el.closest(".error") || el.closest(".cube-words") || el.closest(".tutor")
    || el.closest(".rules pre");
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = (n.textContent || "").trim();
    if (!text || !el || skip(el) || el.closest("[hidden]") || !el.getClientRects().length) continue;
    out.push(text);
  }
  for (const el of root.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (skip(el)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = el.getAttribute(name);
      if (value) out.push(value.trim());
    }
  }
  out.push(document.title);
  return out;
}"""

_WORD = re.compile(r"[^\W\d_]{4,}")


def _page(browser: Browser, server: ServerProcess, locale: str) -> Page:
    context = browser.new_context(
        base_url=server.url, viewport={"width": 390, "height": 844}, locale=locale
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.js_errors = errors  # type: ignore[attr-defined]
    return page


def _guest(page: Page) -> str:
    page.goto("/#/")
    page.click("header button[name=guest]")
    page.wait_for_selector("#me:has-text('Guest-')")
    return page.inner_text("#me").split()[0]


def _bot_table(page: Page) -> int:
    table = int(
        page.evaluate(
            """async () => {
              const { post } = await import("/js/api.js");
              const answer = await post("/api/tables", {length: 3, bot: "beginner"});
              return answer.table.id;
            }"""
        )
    )
    page.goto(f"/#/table/{table}")
    _wait_playing(page)
    return table


def _wait_playing(page: Page) -> None:
    wait_until(page, "(v => !!(v && v.state && v.state.status === 'playing'))(window.gammon.view)")
    page.wait_for_selector("#board svg .checker")


def _until(page: Page, rng: random.Random, wanted: str, plays: int) -> None:
    """Play on (roll, quiet plays, takes) through ``plays`` of the guest's plays, then until
    the guest may do ``wanted``."""
    played = 0
    while True:
        looked = turn(page)
        acts = looked[1]
        assert state(page)["status"] == "playing", "the match ended"
        if wanted in acts and played >= plays:
            return
        if "play" in acts:
            play_move(page, rng, drag=False)
            played += 1
        elif "roll" in acts:
            click_action(page, "roll")
            wait_for_change(page, looked)
        elif "take" in acts:
            click_action(page, "take")
            wait_for_change(page, looked)
        else:
            wait_for_change(page, looked)


def _texts(page: Page) -> list[str]:
    if page.locator("details.menu").count():
        page.evaluate("document.querySelector('details.menu').open = true")
    return list(page.evaluate(_TEXTS))


def _use(page: Page, lang: str) -> None:
    """Speak ``lang`` (the language setting, as the header's switch sets it): the table is
    drawn again in it."""
    page.evaluate(
        """async (lang) => {
          const { settings } = await import("/js/settings.js");
          settings.set({ language: lang });
        }""",
        lang,
    )
    wait_until(page, f"document.documentElement.lang === {lang!r}")
    _wait_playing(page)


def _english_left(texts: list[str], english: list[str], names: set[str]) -> list[str]:
    """The texts shown the same in English that read as English words (a word of 4+ letters
    that is not a name, a number, the notation or a kept term)."""
    same = set(texts) & set(english)
    left = []
    for text in sorted(same):
        rest = text
        for name in names:
            rest = rest.replace(name, " ")
        words = [w for w in _WORD.findall(rest) if w.lower() not in KEPT]
        if words:
            left.append(text)
    return left


def _fits(page: Page, what: str) -> None:
    box: dict[str, Any] = sticking_out(page)
    assert box["scrollWidth"] <= 390, (what, box)
    assert box["out"] == [], (what, box)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_table_speaks_the_language_and_fits_a_phone(
    browser: Browser, server: ServerProcess, lang: str
) -> None:
    page = _page(browser, server, LOCALES[lang])
    rng = random.Random(f"i18n-table-{lang}")
    guest = _guest(page)
    _bot_table(page)
    assert page.evaluate("document.documentElement.lang") == lang
    names = {guest, *(p["name"] for p in state(page)["players"] if p)}

    # A few turns in, the guest to play: the status line, Undo / Confirm, the resign menu,
    # the board's labels and the log lines the page writes.
    _until(page, rng, "play", plays=2)
    status = page.inner_text("p.status")
    assert status and "Click or drag" not in status, status
    labels = page.locator(".controls button, .controls summary").all_inner_texts()
    assert "Confirm" not in labels and "Undo" not in labels, labels
    log = page.locator(".log li").all_inner_texts()
    assert log, "the log is empty"
    mine = _texts(page)
    _fits(page, f"{lang}: the guest to play, the resign menu open")
    if lang in ("fi", "nl"):
        screenshot(page, f"i18n-table-{lang}-390.png")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.evaluate(LAID_OUT)
        screenshot(page, f"i18n-table-{lang}-1280.png")
        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate(LAID_OUT)

    # The same page in English: what stays the same must be a name, a number, the
    # notation or a kept term.
    _use(page, "en")
    english = _texts(page)
    assert "Confirm" in " ".join(english) or "Undo" in english, english
    left = _english_left(mine, english, names)
    assert left == [], f"{lang}: shown in English: {left}"

    # Back in the language, the guest to roll: the roll's button and status line.
    _use(page, lang)
    _until(page, rng, "roll", plays=0)
    status = page.inner_text("p.status")
    assert status and "Your turn" not in status, status
    rolled = _texts(page)
    _fits(page, f"{lang}: the guest to roll")
    _use(page, "en")
    left = _english_left(rolled, _texts(page), names)
    assert left == [], f"{lang}: shown in English: {left}"
    assert js_errors(page) == []
    page.context.close()


@pytest.mark.parametrize("lang", ["fi", "nl"])
def test_the_result_screen_speaks_the_language(
    browser: Browser, server: ServerProcess, lang: str
) -> None:
    """The guest resigns a backgammon through the resign menu (3 points: the 3-point match
    is over) and the bot accepts: the result screen, its buttons and the status line in
    the language, fitting a phone."""
    page = _page(browser, server, LOCALES[lang])
    rng = random.Random(f"i18n-result-{lang}")
    guest = _guest(page)
    _bot_table(page)
    names = {guest, *(p["name"] for p in state(page)["players"] if p)}
    # Past the opening roll (no resigning there), the guest to roll.
    _until(page, rng, "resign", plays=0)
    if "roll" not in turn(page)[1]:
        _until(page, rng, "roll", plays=0)
    assert {"roll", "resign"} <= set(turn(page)[1]), turn(page)
    page.click("details.menu summary")
    page.click("[data-action=resign-3]")
    page.wait_for_selector("#result-screen:not([hidden]) #rematch")
    wait_until(page, "window.gammon.view.state.status === 'finished'")
    title = page.inner_text("#result-title")
    assert title and "over" not in title, title
    mine = list(page.evaluate(_TEXTS))
    _fits(page, f"{lang}: the result screen")
    screenshot(page, f"i18n-result-{lang}-390.png")
    _use_finished(page, "en")
    left = _english_left(mine, list(page.evaluate(_TEXTS)), names)
    assert left == [], f"{lang}: shown in English: {left}"
    assert js_errors(page) == []
    page.context.close()


def _use_finished(page: Page, lang: str) -> None:
    """As :func:`_use`, at a finished table (nothing is played there any more)."""
    page.evaluate(
        """async (lang) => {
          const { settings } = await import("/js/settings.js");
          settings.set({ language: lang });
        }""",
        lang,
    )
    wait_until(page, f"document.documentElement.lang === {lang!r}")
    wait_until(page, "(v => !!(v && v.state && v.state.status === 'finished'))(window.gammon.view)")
    page.wait_for_selector("#result-screen:not([hidden]) #rematch")
