"""The lobby for a newcomer in a real browser (issue 16, item 4): a welcome with the rules
and the fair dice as pages of the site, the computer in one click at a level for the
player, a person by quick pairing, the table form behind its button; on a phone the play
panel comes before the lists."""

from __future__ import annotations

from tests.server.browser_helpers import (
    have_chromium,
    js_errors,
    needs_chromium,
    new_page,
    page_width,
    screenshot,
    wait_until,
)
from tests.server.client import ServerProcess

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser


def test_a_newcomer_plays_the_computer_in_one_click(
    browser: Browser, server: ServerProcess
) -> None:
    page = new_page(browser, server.url, newcomer=True)
    page.goto("/#/")
    page.wait_for_selector("#play")
    assert page.is_visible("#welcome")
    assert page.is_hidden("form.create-form")  # behind its button
    screenshot(page, "lobby-newcomer-desktop.png")
    page.click("#open-create")
    assert page.is_visible("form.create-form")
    assert page.get_attribute("#open-create", "aria-expanded") == "true"
    # Not signed in: the click makes a guest, and a match against a newcomer's level.
    assert page.input_value("#play-level") == "casual"
    page.select_option("#play-bot-length", "1")
    page.click("#play-bot")
    page.wait_for_selector("#me:has-text('Guest-')")
    wait_until(page, "location.hash.startsWith('#/table/')")
    wait_until(page, "window.gammon.view && window.gammon.view.state")
    state = page.evaluate("window.gammon.view.state")
    assert {p["name"] for p in state["players"] if p} >= {"gammon-casual"}
    assert state["settings"]["length"] == 1
    assert js_errors(page) == []
    page.context.close()


def test_the_rules_and_the_dice_are_pages_of_the_site(
    browser: Browser, server: ServerProcess
) -> None:
    page = new_page(browser, server.url, width=390, height=844, newcomer=True)
    page.goto("/#/")
    page.click("#rules-link")
    page.wait_for_selector("#page-rules h1:has-text('Rules of play')")
    assert "R7" in page.inner_text("#page-rules")
    assert page_width(page) <= 390
    screenshot(page, "rules-phone.png")
    page.goto("/#/")
    page.click("#dice-link")
    page.wait_for_selector("#page-dice h1:has-text('Provably fair dice')")
    assert page_width(page) <= 390
    page.click("#back-to-lobby")
    page.wait_for_selector("#play")
    # The welcome can be put away, and stays away in this browser.
    page.click("#welcome button")
    page.reload()
    page.wait_for_selector("#play")
    assert page.locator("#welcome").count() == 0
    assert js_errors(page) == []
    page.context.close()


def test_two_people_are_paired_from_the_lobby(browser: Browser, server: ServerProcess) -> None:
    first = new_page(browser, server.url, newcomer=True)
    second = new_page(browser, server.url, width=390, height=844, newcomer=True)
    for page in (first, second):
        page.goto("/#/")
        page.wait_for_selector("#play")
        page.select_option("#play-person-length", "7")  # a length no other test seeks
    first.click("#play-person")
    first.wait_for_selector(".seeking")
    assert "7-point match" in first.inner_text("#seek")
    screenshot(first, "lobby-seeking-desktop.png")
    second.click("#play-person")
    for page in (first, second):
        wait_until(page, "location.hash.startsWith('#/table/')")
    assert first.evaluate("location.hash") == second.evaluate("location.hash")
    wait_until(first, "window.gammon.view && window.gammon.view.state")
    state = first.evaluate("window.gammon.view.state")
    assert state["settings"]["length"] == 7 and state["settings"]["clock"]["delay_s"] == 12
    assert js_errors(first) == [] and js_errors(second) == []
    first.context.close()
    second.context.close()


def test_on_a_phone_the_play_panel_comes_first(browser: Browser, server: ServerProcess) -> None:
    page = new_page(browser, server.url, width=390, height=844, newcomer=True)
    page.goto("/#/")
    page.wait_for_selector("#play")
    play = page.locator("#play").bounding_box()
    tables = page.locator("#tables-title").bounding_box()
    assert play is not None and tables is not None and play["y"] < tables["y"]
    assert page_width(page) <= 390
    box = page.locator("#play-bot").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844  # no scrolling to play
    screenshot(page, "lobby-newcomer-phone.png")
    page.click("#open-create")
    assert page_width(page) <= 390
    assert js_errors(page) == []
    page.context.close()
