"""Every page on a phone (issue 16, item 8): at 390x844 nothing is wider than the screen,
the board's checkers are at least 28 px across and its point numbers 12 px high, the dice
big enough to read and tap, and while a game is played the controls, the status and the
last play stand under the board without scrolling. Each page is saved as a screenshot at
390x844 and 1280x800 (test-artifacts/phone-*.png, desktop-*.png) for a person to look at.

Needs Debian's chromium, as test_browser.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser_helpers import (
    click_action,
    fresh_name,
    have_chromium,
    js_errors,
    launch,
    needs_chromium,
    new_page,
    screenshot,
    sign_up,
    sticking_out,
    turn,
    wait_for_change,
    wait_seq,
    wait_until,
)
from tests.server.client import ServerProcess

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page, sync_playwright

PHONE = (390, 844)
DESKTOP = (1280, 800)
MATCH_FILE = Path(__file__).resolve().parents[1] / "vectors" / "gnubg" / "bots_5pt.mat"

#: The board as drawn: the smallest checker, point number and die, in screen pixels.
_BOARD_SIZES = """() => {
  const svg = document.querySelector("#board svg, .board-wrap svg");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const min = (xs) => xs.length ? Math.min(...xs) : null;
  const checkers = [...svg.querySelectorAll(".point:not(.barpoint) .checker")]
    .map((c) => c.getBoundingClientRect().width);
  const numbers = [...svg.querySelectorAll(".point .label")]
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  const dice = [...svg.querySelectorAll(".die rect")].map((d) => d.getBoundingClientRect().width);
  const target = svg.querySelector(".roll-target rect");
  const roll = target ? target.getBoundingClientRect() : null;
  return {checker: min(checkers), number: min(numbers), die: min(dice), points: numbers.length,
          roll: roll && [roll.width, roll.height]};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def _fits(page: Page, what: str) -> None:
    """Nothing on the page is wider than the screen, or sticks out of it."""
    found = sticking_out(page)
    assert found["scrollWidth"] <= found["width"], (what, found)
    assert found["out"] == [], (what, found)


def _in_view_at(page: Page, selector: str, size: tuple[int, int]) -> dict[str, Any]:
    """The element's box, asserted inside a screen of ``size`` as the page opens (no
    scrolling)."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    width, height = size
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
    return box


def _in_view(page: Page, selector: str) -> dict[str, Any]:
    return _in_view_at(page, selector, PHONE)


def _pages(page: Page, server: ServerProcess, me: str) -> list[tuple[str, str, str]]:
    """Make something to show on each page; (name, address, what to wait for) of each."""
    made = page.evaluate(
        """async () => {
          const { post } = await import("/js/api.js");
          const finished = (await post("/api/tables", {length: 1, bot: "beginner"})).table.id;
          const cup = (await post("/api/tournaments", {name: "Phone cup", seats: 4,
            lengths: [1]})).tournament.id;
          return {finished, cup};
        }"""
    )
    # A finished table for the record, the fair-dice check and the replay: one roll, then
    # the match is left.
    page.goto(f"/#/table/{made['finished']}")
    page.wait_for_selector(".controls [data-action=roll]")
    click_action(page, "roll")
    # Our turn (nothing changes under the open menu): dice to play, or a roll.
    wait_until(
        page,
        "(g => g.actions.includes('forfeit') && (g.actions.includes('play') ||"
        " g.actions.includes('roll')))(window.gammon.view.state.game)"
        " && window.gammon.view.busy === null",
    )
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(".controls details.menu summary")
    click_action(page, "forfeit")
    wait_until(page, "window.gammon.view.state.status === 'finished'")
    # An analysis of a match file, for the review.
    page.goto("/#/analyse")
    page.set_input_files("input[name=matchfile]", str(MATCH_FILE))
    page.click("button[name=upload]")
    wait_until(
        page,
        "location.hash.startsWith('#/analysis/') && !!document.querySelector('#equity-graph')",
        timeout_ms=120_000,
    )
    review = page.evaluate("location.hash")
    table = made["finished"]
    return [
        ("lobby", "#/", "button[name=create]"),
        ("table-finished", f"#/table/{table}", ".info .result"),
        ("record", f"#/record/{table}", "#verify-summary:not(.checking)"),
        ("replay", f"#/record/{table}/1", ".step"),
        ("review", review, "#equity-graph"),
        ("profile", f"#/player/{me}", "#profile-name"),
        ("bot-profile", "#/player/gammon-beginner", "#bot-level"),
        ("players", "#/players", "#leaderboard"),
        ("tournament", f"#/tournament/{made['cup']}", "#tournament-state"),
        ("analyse", "#/analyse", "input[name=matchfile]"),
        ("board", "#/board", "#ab-ids .ab-xgid"),
        ("rules", "#/rules", "#page-rules h1"),
        ("dice", "#/dice", "#page-dice h1"),
    ]


def test_every_page_fits_a_phone(server: ServerProcess, browser: Browser) -> None:
    page = new_page(browser, server.url, width=PHONE[0], height=PHONE[1])
    desktop = new_page(browser, server.url, width=DESKTOP[0], height=DESKTOP[1])
    me = fresh_name("phone")
    sign_up(page, me)
    page.goto("/#/login")  # signed in: the form is still a page to fit
    page.wait_for_selector("input[name=name]")
    _fits(page, "login")
    pages = _pages(page, server, me)
    for name, address, ready in pages:
        page.goto(f"/{address}")
        page.wait_for_selector(ready)
        _fits(page, name)
        if name == "record":
            # The fair-dice page opens with two plain sentences, the details below them.
            words = page.inner_text("#fair-plain")
            assert words.startswith("These dice could not be cheated: "), words
            # One roll, or more when the opening was a tie thrown again (R3): the dice decide.
            assert re.search(
                r"This browser has just checked (the one roll|all \d+ rolls) of this game", words
            ), words
            _in_view_at(page, "#fair-plain", PHONE)
        screenshot(page, f"phone-{name}.png")
        desktop.goto(f"/{address}")
        desktop.wait_for_selector(ready)
        screenshot(desktop, f"desktop-{name}.png")
    # The review's board and its decision table.
    page.goto(f"/{pages[4][1]}")
    page.wait_for_selector("#equity-graph")
    page.click("[data-action=next-mistake]")
    _fits(page, "review, at a mistake")
    sizes = page.evaluate(_BOARD_SIZES)
    assert sizes["checker"] >= 28 and sizes["number"] >= 12, sizes
    assert not js_errors(page), js_errors(page)
    assert not js_errors(desktop), js_errors(desktop)
    page.context.close()
    desktop.context.close()


def test_playing_on_a_phone_keeps_the_controls_in_view(
    server: ServerProcess, browser: Browser
) -> None:
    """A game against the bot at 390x844: the board's sizes, and at each decision the
    buttons, the status and the last play inside the screen as the page stands."""
    page = new_page(browser, server.url, width=PHONE[0], height=PHONE[1])
    sign_up(page, fresh_name("thumb"))
    page.goto("/#/")
    page.check("input[name=opponent][value=bot]")
    page.select_option("select[name=bot]", "beginner")
    page.fill("input[name=length]", "3")
    page.click("button[name=create]")
    page.wait_for_selector(".controls [data-action=roll]")
    sizes = page.evaluate(_BOARD_SIZES)
    assert sizes["points"] == 24 and sizes["checker"] >= 28 and sizes["number"] >= 12, sizes
    # The board's own Roll target: big enough for a thumb.
    assert sizes["roll"] is not None and sizes["roll"][0] >= 80 and sizes["roll"][1] >= 34, sizes
    _fits(page, "table before the first roll")
    for selector in (".controls [data-action=roll]", ".controls details.menu summary", ".status"):
        _in_view(page, selector)
    # The opening roll, then the bot's play or ours: until we have dice to play.
    for _ in range(200):
        now, acts = turn(page)
        if "play" in acts:
            break
        if "roll" in acts:
            click_action(page, "roll")
            wait_seq(page, now)
        elif "take" in acts:
            click_action(page, "take")
            wait_seq(page, now)
        else:
            wait_for_change(page, (now, acts))
    else:
        raise AssertionError("no dice to play")
    sizes = page.evaluate(_BOARD_SIZES)
    assert sizes["die"] is not None and sizes["die"] >= 26, sizes
    assert sizes["checker"] >= 28, sizes
    for selector in (
        ".controls [data-action=undo]",
        ".controls [data-action=confirm]",
        ".status",
    ):
        _in_view(page, selector)
    assert page.inner_text("#last-play").startswith("Last: ")
    _in_view(page, "#last-play")
    _fits(page, "table with dice to play")
    screenshot(page, "phone-table.png")
    # The resign menu opens inside the screen, every item in view.
    page.click(".controls details.menu summary")
    _fits(page, "the resign menu")
    for item in ("resign-1", "resign-2", "resign-3", "forfeit"):
        _in_view(page, f".controls [data-action={item}]")
    screenshot(page, "phone-resign-menu.png")
    page.click(".controls details.menu summary")
    assert not js_errors(page), js_errors(page)
    page.context.close()
