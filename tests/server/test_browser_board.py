"""The analysis board in a real browser (issue 16, item 6): a pasted XGID to the ranked
plays, played on and stepped back, a rollout with its progress bar, a position set up
by hand, the cube and score, the shared link, and the page on a phone."""

from __future__ import annotations

from typing import Any

from gammon.engine.hint import play_hints
from gammon.position import Position
from gammon.xgid import parse_xgid
from tests.server.browser_helpers import (
    become_guest,
    have_chromium,
    js_errors,
    needs_chromium,
    new_page,
    page_width,
    screenshot,
    wait_until,
)
from tests.server.client import ServerProcess
from tests.waiting import wait_until as settle

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page

# A holding game, 6-2 to play, money (XG's example layout with our own dice).
HOLDING = "XGID=-a---BC-C---cD---c-e-A--B-:0:0:1:62:0:0:0:0:10"


def _board(page: Page) -> Any:
    return page.evaluate("window.gammon.view.board.setup")


def _xgid(page: Page) -> str:
    return str(page.inner_text("#ab-ids .ab-xgid"))


def _open(page: Page, xgid: str) -> None:
    page.fill("#ab-paste", xgid)
    page.click("#ab-load")
    page.wait_for_selector(f"#ab-ids .ab-xgid:text-is('{xgid}')")


def _point(page: Page, point: int) -> tuple[float, float]:
    box = page.locator(f"#ab-board svg [data-point='{point}'] .hit").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_from_a_pasted_xgid_to_the_plays_played_on_and_stepped_back(
    browser: Browser, server: ServerProcess
) -> None:
    page = new_page(browser, server.url)
    become_guest(page)
    page.goto("/#/board")
    page.wait_for_selector("#ab-ids .ab-xgid")
    _open(page, HOLDING)
    assert "xgid=" in page.evaluate("location.hash")
    page.select_option("#ab-ply", "0")
    page.click("#ab-analyse")
    page.wait_for_selector(".ab-play")
    shown = page.eval_on_selector_all(".ab-play .notation", "els => els.map(e => e.textContent)")
    x = parse_xgid(HOLDING)
    best = [str(h.play) for h in play_hints(Position(*x.board), x.dice, ply=0)]
    assert shown == best[: len(shown)]
    assert "equity (cubeless, points a game)" in page.inner_text("#ab-analysis")
    screenshot(page, "board-desktop-plays.png")
    page.click(".ab-play:first-child .ab-play-it")
    wait_until(page, f"document.querySelector('#ab-ids .ab-xgid').textContent !== '{HOLDING}'")
    after = parse_xgid(_xgid(page))
    assert after.dice == (0, 0) and after.player_on_roll != x.player_on_roll
    played = _xgid(page)
    page.click("#ab-back")
    page.wait_for_selector(f"#ab-ids .ab-xgid:text-is('{HOLDING}')")
    page.click("#ab-forward")
    page.wait_for_selector(f"#ab-ids .ab-xgid:text-is('{played}')")
    # The share link opens the same board elsewhere.
    link = page.input_value("#ab-share")
    other = new_page(browser, server.url)
    other.goto(link)
    other.wait_for_selector(f"#ab-ids .ab-xgid:text-is('{played}')")
    assert js_errors(page) == [] and js_errors(other) == []
    other.context.close()
    page.context.close()


def test_a_rollout_shows_its_progress_and_its_figures(
    browser: Browser, server: ServerProcess
) -> None:
    page = new_page(browser, server.url)
    become_guest(page)
    page.goto("/#/board")
    page.wait_for_selector("#ab-ids .ab-xgid")
    _open(page, HOLDING)
    page.select_option("#ab-trials", "36")
    page.click("#ab-rollout")
    page.wait_for_selector("#ab-progress:not([hidden])")
    seen: list[float] = []

    def progressed() -> bool:
        seen.append(float(page.evaluate("document.querySelector('#ab-progress').value")))
        return page.locator(".ab-rolled").count() > 0

    settle(progressed, what="the rollout's figures")
    rows = page.eval_on_selector_all(
        ".ab-rolled td:nth-child(2)", "els => els.map(e => e.textContent)"
    )
    assert len(rows) == 3 and all("±" in row for row in rows)
    assert seen == sorted(seen)  # the bar never goes back
    assert page.is_hidden("#ab-progress")
    screenshot(page, "board-desktop-rollout.png")
    assert js_errors(page) == []
    page.context.close()


def test_a_position_set_up_by_hand_with_its_cube_and_score(
    browser: Browser, server: ServerProcess
) -> None:
    page = new_page(browser, server.url)
    become_guest(page)
    page.goto("/#/board")
    page.wait_for_selector("#ab-ids .ab-xgid")
    start = _xgid(page)
    assert start == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    page.check("#ab-edit")
    page.click("#ab-clear")
    page.wait_for_selector("#ab-setup-error:not([hidden])")
    assert "borne off every checker" in page.inner_text("#ab-setup-error")
    page.click("#ab-start")
    page.wait_for_selector("#ab-setup-error", state="hidden")
    # Remove one of the 6-point's checkers, then drag one from the mid-point to the 7.
    page.check("input[name=ab-tool][value=remove]")
    x, y = _point(page, 6)
    page.mouse.click(x, y)
    wait_until(page, "window.gammon.view.board.setup.mine[5] === 4")
    x0, y0 = _point(page, 13)
    x1, y1 = _point(page, 7)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()
    wait_until(page, "window.gammon.view.board.setup.mine[6] === 1")
    # An opponent's checker put on the bar.
    page.check("input[name=ab-tool][value=theirs]")
    page.click("#ab-start")  # the starting position has all 15: take one off first
    page.check("input[name=ab-tool][value=remove]")
    x, y = _point(page, 19)  # the opponent's 6-point
    page.mouse.click(x, y)
    page.check("input[name=ab-tool][value=theirs]")
    x, y = _point(page, 25)
    page.mouse.click(x, y)
    wait_until(page, "window.gammon.view.board.setup.theirs[24] === 1")
    # A 7-point match at 3-1, the cube on 2 with the opponent: no double, said in words.
    page.fill("#ab-length", "7")
    page.dispatch_event("#ab-length", "change")
    page.wait_for_selector("#ab-score-mine")
    page.fill("#ab-score-mine", "3")
    page.dispatch_event("#ab-score-mine", "change")
    page.fill("#ab-score-theirs", "1")
    page.dispatch_event("#ab-score-theirs", "change")
    page.select_option("#ab-cube-value", "2")
    page.select_option("#ab-cube-owner", "theirs")
    wait_until(page, "document.querySelector('#ab-ids .ab-xgid').textContent.endsWith(':7:10')")
    read = parse_xgid(_xgid(page))
    assert read.match_length == 7 and read.score == (3, 1)
    assert read.cube_value == 2 and read.cube_owner == 1
    assert read.board[1][24] == 1 and read.board[1][5] == 4
    page.click("#ab-analyse")
    page.wait_for_selector("#ab-cube-refusal")
    assert "the opponent owns the cube" in page.inner_text("#ab-cube-refusal")
    page.select_option("#ab-cube-owner", "")
    page.click("#ab-analyse")
    page.wait_for_selector("#ab-cube-action")
    assert "match winning chance" in page.inner_text("#ab-analysis")
    assert "take point" in page.inner_text("#ab-cube-words")  # the hints' own words
    screenshot(page, "board-desktop-setup.png")
    assert js_errors(page) == []
    page.context.close()


def test_the_board_on_a_phone(browser: Browser, server: ServerProcess) -> None:
    page = new_page(browser, server.url, width=390, height=844)
    become_guest(page)
    page.goto(f"/#/board?xgid={HOLDING}")
    page.wait_for_selector(f"#ab-ids .ab-xgid:text-is('{HOLDING}')")
    page.click("#ab-analyse")
    page.wait_for_selector(".ab-play")
    assert page_width(page) <= 390
    checker = page.locator("#ab-board svg .checker").first.bounding_box()
    assert checker is not None and checker["width"] >= 14  # drawn, if small (issue 16 item 8)
    screenshot(page, "board-phone.png")
    assert js_errors(page) == []
    page.context.close()


def test_a_step_of_a_replay_opens_in_the_board(browser: Browser, server: ServerProcess) -> None:
    page = new_page(browser, server.url)
    become_guest(page)
    page.goto("/#/")
    page.wait_for_selector("#play-bot")
    page.select_option("#play-bot-length", "1")
    page.click("#play-bot")
    wait_until(page, "window.gammon.view && window.gammon.view.state")
    table = int(page.evaluate("window.gammon.view.state.table"))
    page.click(".controls [data-action=roll]")  # the opening roll: either player throws it
    wait_until(page, "window.gammon.view.state.game.log.length > 0")
    # The record replays finished games: leave the match (the menu asks to confirm), at
    # the player's turn, once the bot's play (if it opened) has been shown.
    wait_until(
        page,
        "(v => v.busy === null && v.state.game.actions.includes('roll') ||"
        " v.state.game.actions.includes('play'))(window.gammon.view)",
    )
    page.on("dialog", lambda dialog: dialog.accept())
    page.click(".controls details.menu summary")
    page.click(".controls [data-action=forfeit]")
    wait_until(page, "window.gammon.view.state.status === 'finished'")
    page.goto(f"/#/record/{table}")
    page.wait_for_selector("#step-on-board")
    link = page.get_attribute("#step-on-board", "href")
    assert link and link.startswith("#/board?setup=")
    page.click("#step-on-board")
    page.wait_for_selector("#ab-ids .ab-xgid")
    assert page.locator("#ab-setup-error").is_hidden()
    setup = _board(page)
    assert sum(setup["mine"]) <= 15 and sum(setup["theirs"]) <= 15
    assert js_errors(page) == []
    page.context.close()
