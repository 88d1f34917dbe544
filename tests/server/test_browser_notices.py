"""Tournaments a player cannot miss, in a real browser (issue 16, item 5): a bot-filled
Sit & Go from the lobby's form starts, and the player's ready match is announced on every
page with its show-up countdown until they come; the match's table names its tournament
with a link back; a scheduled start is shown in the player's time zone."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from tests.server.browser_helpers import (
    click_action,
    fresh_name,
    have_chromium,
    js_errors,
    needs_chromium,
    new_page,
    page_width,
    play_move,
    screenshot,
    sign_up,
    state,
    turn,
    wait_for_change,
    wait_seq,
    wait_until,
)
from tests.server.client import ServerProcess, database_url

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_ready_match_is_announced_on_every_page(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    page = new_page(browser, server.url, width=width, height=height)
    sign_up(page, fresh_name("tn"))
    page.goto("/#/")
    name = f"Notice {width}"
    page.fill("#sit-and-go input[name=name]", name)
    page.select_option("#sit-and-go select[name=seats]", "2")
    page.fill("#sit-and-go input[name=points]", "1")
    page.select_option("#sit-and-go select[name=bots]", "beginner")
    page.fill("#sit-and-go input[name=bots_after_s]", "0")
    page.click("#sit-and-go button[name=create-sit-and-go]")
    wait_until(page, "location.hash.startsWith('#/tournament/')")
    number = int(page.evaluate("location.hash.split('/')[2]"))
    page.click("button[name=register]")
    # The bot fills the other seat at once; the match is ready and the notice says so,
    # here and on any other page.
    page.wait_for_selector("#match-notice")
    page.goto("/#/players")
    page.wait_for_selector("#match-notice")
    text = " ".join(page.inner_text("#match-notice").split())
    assert re.search(f"Your match in {name} against gammon-beginner(-\\d+)? is ready", text), text
    assert re.search(r"Come within \d+:\d\d or you lose it", text), text
    assert page_width(page) <= width
    screenshot(page, f"notice-{width}.png")
    page.click("#go-to-match")
    wait_until(page, "location.hash.startsWith('#/table/')")
    page.wait_for_selector("#tournament-of")
    assert name in page.inner_text("#tournament-of")
    assert page.get_attribute("#tournament-of a", "href") == f"#/tournament/{number}"
    assert page.locator("#match-notice").count() == 0  # at the match: nothing to announce
    # Anybody at the table, a spectator too, is told whose match it is (the state says so).
    table = int(page.evaluate("window.gammon.view.state.table"))
    state = page.request.get(f"/api/tables/{table}").json()
    assert state["tournament"]["id"] == number and state["tournament"]["match"] >= 1
    watcher = new_page(browser, server.url, width=width, height=height)
    watcher.goto(f"/#/table/{table}")
    watcher.wait_for_selector("#tournament-of")
    assert f"#/tournament/{number}" == watcher.get_attribute("#tournament-of a", "href")
    assert js_errors(page) == [] and js_errors(watcher) == []
    watcher.context.close()
    page.context.close()


@pytest.fixture(scope="module")
def fresh_server() -> Iterator[ServerProcess]:
    """A server of its own: its first account is its operator, who may schedule."""
    process = ServerProcess(database_url("notices"), "--signup-limit", "1000/0.01").start()
    yield process
    process.stop()


def test_a_scheduled_start_is_shown_in_the_players_time_zone_with_a_countdown(
    browser: Browser, fresh_server: ServerProcess
) -> None:
    page = new_page(browser, fresh_server.url)
    sign_up(page, fresh_name("op"))
    start = int(page.evaluate("Date.now() / 1000")) + 3 * 3600
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "gammon_csrf")
    created = page.request.post(
        "/api/tournaments",
        data={"name": "Evening cup", "kind": "scheduled", "seats": 8, "start_at": start,
              "show_up_s": 60, "lengths": [1]},
        headers={"X-CSRF-Token": csrf},
    )  # fmt: skip
    assert created.status == 201, created.text()
    number = created.json()["tournament"]["id"]
    page.goto(f"/#/tournament/{number}")
    page.wait_for_selector("#start-at")
    zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    text = page.inner_text("#start-at")
    assert f"your time ({zone})" in text, text
    assert re.search(r"starts in [23]:\d\d:\d\d", text), text
    first = text
    wait_until(page, f"document.querySelector('#start-at').innerText !== {first!r}")
    assert js_errors(page) == []
    page.context.close()


def test_a_bot_filled_sit_and_go_is_played_to_the_end_by_one_person(
    browser: Browser, server: ServerProcess
) -> None:
    rng = random.Random(3)
    page = new_page(browser, server.url)
    sign_up(page, fresh_name("te"))
    page.goto("/#/")
    page.fill("#sit-and-go input[name=name]", "Played to the end")
    page.select_option("#sit-and-go select[name=seats]", "2")
    page.fill("#sit-and-go input[name=points]", "1")
    page.select_option("#sit-and-go select[name=bots]", "beginner")
    page.fill("#sit-and-go input[name=bots_after_s]", "0")
    page.click("#sit-and-go button[name=create-sit-and-go]")
    wait_until(page, "location.hash.startsWith('#/tournament/')")
    number = int(page.evaluate("location.hash.split('/')[2]"))
    page.click("button[name=register]")
    page.wait_for_selector("#match-notice")
    page.click("#go-to-match")
    wait_until(page, "window.gammon.view && window.gammon.view.state")
    looks = 0
    while state(page)["status"] == "playing":
        looks += 1
        assert looks < 3000, "the match never ended"  # a guard by count, not by the clock
        now, acts = turn(page)
        if "play" in acts:
            play_move(page, rng, drag=False)
        elif "roll" in acts:
            click_action(page, "roll")
            wait_seq(page, now)
        elif "take" in acts:
            click_action(page, "take")
            wait_seq(page, now)
        elif "accept_resignation" in acts:
            # The bot resigns a game it cannot save (a bear-off it has lost, say): accepted.
            click_action(page, "accept_resignation")
            wait_seq(page, now)
        else:
            wait_for_change(page, (now, acts))
    # The final is over: the tournament has its winner, on its page.
    page.goto(f"/#/tournament/{number}")
    page.wait_for_selector("#tournament-state")
    wait_until(page, "document.querySelector('#tournament-state').innerText.includes('won by')")
    t = page.request.get(f"/api/tournaments/{number}").json()["tournament"]
    assert t["status"] == "finished" and t["winner"] is not None
    assert js_errors(page) == []
    page.context.close()
