"""Messages a player can read, on a phone (issue 16, defects 2 and 6).

The tutor's warning holds the bot: the status line says the bot waits for the player's
answer and how long, both answers ("Take it back", "Keep my play") are among the controls
on the screen, and once the wait runs out (the server's clock, moved by the test: a
``--manual-time`` server) and the bot plays, taking back is no longer offered. An action
refused by the server is said right under the controls, inside the screen. "Tutor: The best
play." goes at the next turn. Offline, the page says in words that the connection is lost
and that it reconnects. Needs Debian's chromium, as test_browser.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser_helpers import (
    click_action,
    have_chromium,
    js_errors,
    launch,
    needs_chromium,
    new_page,
    screenshot,
    state,
    turn,
    wait_for_change,
    wait_seq,
    wait_until,
)
from tests.server.client import ServerProcess, database_url

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page, sync_playwright

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def timed_server() -> Iterator[ServerProcess]:
    """The server's clock stands still until the test moves it: the bot's wait is on it."""
    process = ServerProcess(
        database_url("messages"), "--message-rate", "500", "--manual-time"
    ).start()
    yield process
    process.stop()


def _in_view(page: Page, selector: str) -> dict[str, Any]:
    """The element's box, asserted inside the screen as the page stands (no scrolling)."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    size = page.viewport_size
    assert size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box)
    return box


def _on_a_desktop(page: Page, shot: str, *selectors: str) -> None:
    """The same page at 1280x800: ``selectors`` inside the screen; a screenshot; back."""
    page.set_viewport_size(DESKTOP)
    for selector in selectors:
        _in_view(page, selector)
    screenshot(page, shot)
    page.set_viewport_size(PHONE)


def _advance(page: Page, seconds: float) -> None:
    """Move the server's clock (POST /api/test/time), as Player.advance_time does."""
    page.evaluate(
        """async (s) => { const { post } = await import("/js/api.js");
                          await post("/api/test/time", {advance_s: s}); }""",
        seconds,
    )


def _bot_table(page: Page) -> None:
    page.goto("/#/")
    page.click("header button[name=guest]")
    page.wait_for_selector("#me:has-text('Guest-')")
    page.check("input[name=opponent][value=bot]")
    page.select_option("select[name=bot]", "beginner")
    page.fill("input[name=length]", "5")
    page.click("button[name=create]")
    page.wait_for_selector(".controls [data-action=roll]")


def _until_my_play(page: Page) -> None:
    """Roll (and take a double) until there are dice to play."""
    for _ in range(200):
        now, acts = turn(page)
        if "play" in acts:
            return
        if "take" in acts:
            click_action(page, "take")
            wait_seq(page, now)
        elif "roll" in acts:
            click_action(page, "roll")
            wait_seq(page, now)
        else:
            wait_for_change(page, (now, acts))
    raise AssertionError("no dice to play")


def _hints(page: Page) -> list[dict[str, Any]]:
    """Ask for a hint with its button: every legal play, best first."""
    seq = state(page)["seq"]
    click_action(page, "hint")
    page.locator(".hints .hint-play").first.wait_for()
    wait_until(page, f"window.gammon.view.hint && window.gammon.view.state.seq === {seq}")
    plays = page.evaluate("window.gammon.view.hints")
    assert isinstance(plays, list) and plays
    return plays


def _play(page: Page, play: str) -> None:
    """Put a play on the board from the list of legal plays and confirm it."""
    before = state(page)["seq"]
    if not page.evaluate("document.querySelector('details.playlist').open"):
        page.click("details.playlist summary")
    page.select_option("select[name=legal-play]", play)
    page.click("button[name=put-play]")
    page.click(".controls [data-action=confirm]")
    wait_seq(page, before)


def test_the_tutor_says_the_bot_waits_and_errors_show_by_the_controls(
    timed_server: ServerProcess, browser: Browser
) -> None:
    page = new_page(browser, timed_server.url, **PHONE)
    _bot_table(page)
    page.check("input[name=tutor]")
    # The best play: the tutor approves; its words stay while the bot plays and go when
    # the player acts again (they stayed for several turns).
    _until_my_play(page)
    _play(page, _hints(page)[0]["play"])
    page.wait_for_selector("#tutor.ok:has-text('The best play.')")
    wait_until(
        page,
        "(g => g.actions.includes('roll') || g.actions.includes('take'))"
        "(window.gammon.view.state.game)",
    )
    assert page.locator("#tutor.ok").is_visible()  # still there as the bot has played
    now, acts = turn(page)
    click_action(page, "roll" if "roll" in acts else "take")
    wait_seq(page, now)
    assert page.locator("#tutor").count() == 0, page.inner_text(".tutor-box")

    # Worse plays until the tutor warns of one (random games: the worst play of a roll is
    # nearly always a mistake).
    warned = False
    for _ in range(10):
        _until_my_play(page)
        _play(page, _hints(page)[-1]["play"])
        page.wait_for_selector("#tutor")
        if page.locator("#tutor.warn").count() and state(page)["game"]["actions"].count(
            "take_back"
        ):
            warned = True
            break
    assert warned, "no play the tutor warned of"
    status = page.inner_text(".status")
    assert re.fullmatch(
        r"The bot waits for your answer: keep your play or take it back \([12]:\d\d left\)\.",
        status,
    ), status
    # Both answers among the controls, inside the phone's screen.
    _in_view(page, ".controls [data-action=take_back]")
    _in_view(page, ".controls [data-action=keep]")
    assert page.inner_text(".controls [data-action=take_back]") == "Take it back"
    assert page.inner_text(".controls [data-action=keep]") == "Keep my play"
    # The tutor's words begin on the screen, right under the board's column.
    words = page.locator("#tutor").bounding_box()
    assert words is not None and words["y"] + 40 <= PHONE["height"], words
    screenshot(page, "phone-tutor-waits.png")
    _on_a_desktop(
        page,
        "desktop-tutor-waits.png",
        ".controls [data-action=take_back]",
        ".controls [data-action=keep]",
        ".status",
        "#tutor",
    )
    held = state(page)["seq"]

    # 119 s on the server's clock: still waiting. Then the wait runs out: the bot plays,
    # and taking back is no longer offered.
    _advance(page, 119)
    assert state(page)["seq"] == held
    _advance(page, 2)
    wait_until(
        page,
        f"window.gammon.view.state.seq > {held} &&"
        " !window.gammon.view.state.game.actions.includes('take_back')",
    )
    # The bot's turn is over only when the player has something to do: a take-back sent
    # while the bot's play is still being committed is refused as stale (said nowhere).
    wait_until(
        page,
        "(g => ['roll', 'take', 'play'].some(a => g.actions.includes(a)))"
        "(window.gammon.view.state.game)",
    )
    page.wait_for_selector(".controls [data-action=take_back]", state="detached")
    assert page.locator(".controls [data-action=keep]").count() == 0
    assert "waits for your answer" not in page.inner_text(".status")

    # A take-back that crossed the bot's play (sent as the button sends it): the refusal
    # is said right under the controls, inside the screen.
    now = state(page)["seq"]
    page.evaluate("window.gammon.view.act('take_back')")
    error = page.locator(".board-col > .error")
    error.wait_for()
    assert "can be taken back" in error.inner_text(), error.inner_text()
    box = _in_view(page, ".board-col > .error")
    controls = _in_view(page, ".controls")
    assert 0 <= box["y"] - (controls["y"] + controls["height"]) <= 12, (box, controls)
    assert state(page)["seq"] >= now
    screenshot(page, "phone-action-error.png")
    _on_a_desktop(page, "desktop-action-error.png", ".board-col > .error", ".controls")
    assert not js_errors(page), js_errors(page)
    page.context.close()


def test_offline_the_table_says_the_connection_is_lost(
    timed_server: ServerProcess, browser: Browser
) -> None:
    page = new_page(browser, timed_server.url, **PHONE)
    _bot_table(page)
    assert page.locator("#connection").is_hidden()
    page.context.set_offline(True)
    line = page.locator("#connection")
    line.wait_for()
    words = line.inner_text()
    assert "offline" in words and "reconnects" in words, words
    _in_view(page, "#connection")
    assert page.locator(".controls [data-action=roll]").is_disabled()
    screenshot(page, "phone-offline.png")
    _on_a_desktop(page, "desktop-offline.png", "#connection")
    page.context.set_offline(False)
    line.wait_for(state="hidden")
    wait_until(page, "window.gammon.view.live.open")
    assert page.locator(".controls [data-action=roll]").is_enabled()
    # The game goes on after it.
    now, _acts = turn(page)
    click_action(page, "roll")
    wait_seq(page, now)
    assert not js_errors(page), js_errors(page)
    page.context.close()
