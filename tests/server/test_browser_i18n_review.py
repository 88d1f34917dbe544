"""The analysis and review pages in Finnish and Dutch in a real browser: the analysis board
with a position and its analysis, a game's review, its record and replay, and a
tournament's page, each with the language chosen in the page's settings. On each: the page
says its language (``<html lang>``), no English word of these pages is left (every visible
text and label is compared with the same page in English), and nothing runs off a 390 px
phone. Screenshots of the analysis board in Finnish (desktop and phone) go to
test-artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.server.browser_helpers import (
    become_guest,
    fresh_name,
    have_chromium,
    js_errors,
    needs_chromium,
    new_page,
    screenshot,
    sign_up,
    sticking_out,
    wait_until,
)
from tests.server.client import ServerProcess, database_url

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page

# A holding game, 6-2 to play, money; and the same without dice (the cube's analysis).
HOLDING = "XGID=-a---BC-C---cD---c-e-A--B-:0:0:1:62:0:0:0:0:10"
HOLDING_CUBE = "XGID=-a---BC-C---cD---c-e-A--B-:0:0:1:00:0:0:0:0:10"
LANGUAGES = ("fi", "nl")
#: Words a page keeps in every language: the glossary's (docs/TRANSLATING.md), names of
#: programs, formats and the position's identifiers.
KEPT = {
    "gammon", "gammons", "backgammon", "crawford", "jacoby", "beaver", "xgid", "html", "json",
    "mat", "sgf", "gnubg", "standard",
}  # fmt: skip
#: Where the words are another module's or the server's (the page's header and skip link,
#: the board's drawing (board.js), the log's events, the teacher's explanations, the
#: summary's rows, the fair-dice report, the settings' line, the chat), translated elsewhere.
FOREIGN = ", ".join([
    "header.top", "a.skip", ".board-wrap svg", "#tournament-chat", ".log li",
    "#review-summary tbody", "#review-patterns li",
    ".why", "#ab-cube-words", ".verify-summary", ".verify .notes", ".verify .problems",
    "#fair-plain", ".record:not(.review) > header > p.muted", ".graph-label",
])  # fmt: skip

#: Every visible text node and label (aria-label, title, placeholder) of the page.
TEXTS = """(foreign) => {
  const out = [];
  const shown = (el) => el && !el.closest(foreign) && el.getClientRects().length > 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const el = n.parentElement;
    if (text && shown(el) && !el.closest("script, style, code, option")) out.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], option")) {
    if (el.closest(foreign)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = el.getAttribute(name);
      if (value) out.push(value.trim());
    }
    if (el.tagName === "OPTION") out.push(el.textContent.trim());
  }
  return out;
}"""


@dataclass
class Pages:
    table: int
    analysis: str
    tournament: int
    names: set[str]


@pytest.fixture(scope="module")
def own_server() -> Iterator[ServerProcess]:
    """A server of its own, analysing at 0-ply with one worker (quick)."""
    process = ServerProcess(
        database_url("i18n-review"),
        "--signup-limit", "1000/0.01",
        "--message-rate", "500",
        "--analysis-ply", "0",
        "--analysis-workers", "1",
    ).start()  # fmt: skip
    yield process
    process.stop()


@pytest.fixture(scope="module")
def pages(own_server: ServerProcess, browser: Browser) -> Iterator[Pages]:
    """A finished game against the bot with its analysis, and a Sit & Go under way."""
    page = new_page(browser, own_server.url)
    name = fresh_name("ir")
    sign_up(page, name)
    page.goto("/#/")
    page.wait_for_selector("#play-bot")
    page.select_option("#play-bot-length", "1")
    page.click("#play-bot")
    wait_until(page, "window.gammon.view && window.gammon.view.state")
    table = int(page.evaluate("window.gammon.view.state.table"))
    page.click(".controls [data-action=roll]")
    wait_until(page, "window.gammon.view.state.game.log.length > 0")
    wait_until(
        page,
        "(v => v.busy === null && v.state.game.actions.includes('roll') ||"
        " v.state.game.actions.includes('play'))(window.gammon.view)",
    )
    page.on("dialog", lambda dialog: dialog.accept())
    page.click(".controls details.menu summary")
    page.click(".controls [data-action=forfeit]")
    wait_until(page, "window.gammon.view.state.status === 'finished'")
    page.goto(f"/#/review/{table}")
    wait_until(page, "document.querySelector('#equity-graph') !== null", timeout_ms=120_000)
    analysis = str(page.evaluate("location.hash.split('/')[2]"))
    record = page.evaluate(f"fetch('/api/tables/{table}/record').then(r => r.json())")
    names = {p for p in record["players"] if p}
    # A Sit & Go of four, the empty seats filled by bots at once.
    page.goto("/#/")
    page.fill("#sit-and-go input[name=name]", "Helsinki cup")
    page.select_option("#sit-and-go select[name=seats]", "4")
    page.fill("#sit-and-go input[name=points]", "1")
    page.select_option("#sit-and-go select[name=bots]", "beginner")
    page.fill("#sit-and-go input[name=bots_after_s]", "0")
    page.click("#sit-and-go button[name=create-sit-and-go]")
    wait_until(page, "location.hash.startsWith('#/tournament/')")
    number = int(page.evaluate("location.hash.split('/')[2]"))
    page.click("button[name=register]")
    page.wait_for_selector("#bracket .match[data-match='3']")
    tournament = page.evaluate(f"fetch('/api/tournaments/{number}').then(r => r.json())")
    names |= {e["name"] for e in tournament["tournament"]["registered"]}
    names |= {"Helsinki", "cup"}
    assert not js_errors(page), js_errors(page)
    yield Pages(table, analysis, number, names)
    page.context.close()


def _open(browser: Browser, url: str, lang: str, width: int = 390, height: int = 844) -> Page:
    page = new_page(browser, url, width=width, height=height)
    page.context.add_init_script(
        f'localStorage.setItem("gammon.settings", JSON.stringify({{language: "{lang}"}}))'
    )
    become_guest(page)  # the engine answers players (a guest is one)
    return page


def _visit(page: Page, where: str, lang: str) -> None:
    """Open one of the pages and wait until it is drawn in full."""
    page.goto(where)
    wait_until(page, f"document.documentElement.lang === '{lang}'")
    if where.startswith("/#/board"):
        page.wait_for_selector("#ab-ids .ab-xgid")
        page.select_option("#ab-ply", "0")
        page.click("#ab-analyse")
        page.wait_for_selector(".ab-play, #ab-cube-action, #ab-analysis .error, #ab-cube-refusal")
        assert page.locator(".ab-play, #ab-cube-action").count(), (
            page.inner_text("#ab-analysis"),
            js_errors(page),
        )
        page.check("#ab-edit")  # the hand set-up's tools
    elif where.startswith("/#/analysis"):
        page.wait_for_selector("#equity-graph")
    elif where.startswith("/#/record"):
        page.wait_for_selector("#verify-summary:not(.checking)")
        wait_until(page, "!document.querySelector('.mat').textContent.includes('…')")
    else:
        page.wait_for_selector("#bracket .match")


def _english_left(english: list[str], translated: list[str], names: set[str]) -> list[str]:
    """The texts shown alike in both with a word (4+ letters) that is not kept or a name."""
    left = []
    for text in sorted(set(english) & set(translated)):
        words = re.findall(r"[^\W\d_]{4,}", text)
        words = [w for w in words if w.lower() not in KEPT and w not in names]
        if words and not any(text.replace("Guest-", "") == n for n in names):
            left.append(text)
    return left


def _where(p: Pages) -> list[str]:
    return [
        f"/#/board?xgid={HOLDING}",
        f"/#/board?xgid={HOLDING_CUBE}",
        f"/#/analysis/{p.analysis}",
        f"/#/record/{p.table}",
        f"/#/tournament/{p.tournament}",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_analysis_pages_speak_the_language(
    own_server: ServerProcess, browser: Browser, pages: Pages, lang: str
) -> None:
    english = _open(browser, own_server.url, "en")
    page = _open(browser, own_server.url, lang)
    for where in _where(pages):
        _visit(english, where, "en")
        _visit(page, where, lang)
        assert page.evaluate("document.documentElement.lang") == lang
        left = _english_left(
            english.evaluate(TEXTS, FOREIGN), page.evaluate(TEXTS, FOREIGN), pages.names
        )
        assert left == [], (where, left)
        width = sticking_out(page)
        assert width["scrollWidth"] <= 390 and width["out"] == [], (where, width)
        screenshot(page, f"i18n-{lang}-{where.split('/')[2].split('?')[0]}-phone.png")
    assert js_errors(page) == [] and js_errors(english) == []
    english.context.close()
    page.context.close()


def test_the_analysis_board_in_finnish_on_a_desktop_and_a_phone(
    own_server: ServerProcess, browser: Browser
) -> None:
    for width, height, label in ((1280, 900, "desktop"), (390, 844, "phone")):
        page = _open(browser, own_server.url, "fi", width, height)
        _visit(page, f"/#/board?xgid={HOLDING}", "fi")
        text = page.inner_text("#ab-analysis")
        assert "odotusarvon mukaan" in text
        # Equities as Finnish writes them: a decimal comma and a true minus.
        figures: list[Any] = page.locator(".ab-play td:nth-child(3)").all_inner_texts()
        assert figures and all(re.fullmatch("[+\u2212]\\d,\\d{3}", f) for f in figures), figures
        screenshot(page, f"i18n-fi-board-{label}.png")
        _visit(page, f"/#/board?xgid={HOLDING_CUBE}", "fi")
        assert "Tuplauspäätös" in page.inner_text("#ab-cube-action")
        screenshot(page, f"i18n-fi-board-cube-{label}.png")
        assert js_errors(page) == []
        page.context.close()
