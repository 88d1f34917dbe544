"""The post-game review in a real browser (issue 9): play the bot, review the game, upload a match.

A guest plays a short match against the bot with random plays (so there are mistakes
to find), opens the game's review from its record, steps through the marked
mistakes, clicks the equity graph, reads the teacher's explanation and the summary;
then uploads a .mat file and sees its review too. Needs Debian's chromium, as
test_browser.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.browser_helpers import (
    ARTIFACTS,
    click_action,
    have_chromium,
    js_errors,
    launch,
    needs_chromium,
    new_page,
    play_move,
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

MATCH_FILE = Path(__file__).resolve().parents[1] / "vectors" / "gnubg" / "bots_5pt.mat"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def review_server() -> Iterator[ServerProcess]:
    """A server of its own, analysing at 0-ply with one worker (quick, and one at a time)."""
    process = ServerProcess(
        database_url("review"),
        "--signup-limit", "1000/0.01",
        "--message-rate", "500",
        "--analysis-ply", "0",
        "--analysis-workers", "1",
    ).start()  # fmt: skip
    yield process
    process.stop()


def _play_out(page: Page, rng: random.Random) -> None:
    """Play the bot to the end of the match: random legal plays, taking every double."""
    looks = 0
    while state(page)["status"] == "playing":
        # A guard against a loop that never ends, by count, not by the clock: a match of
        # random plays is a few hundred looks at most.
        looks += 1
        assert looks < 5000, "the match never ended"
        now, acts = turn(page)
        if "play" in acts:
            play_move(page, rng, drag=False)
        elif "accept_resignation" in acts:
            click_action(page, "accept_resignation")
            wait_seq(page, now)
        elif "take" in acts:
            click_action(page, "take")
            wait_seq(page, now)
        elif "roll" in acts:
            click_action(page, "roll")
            wait_seq(page, now)
        else:
            wait_for_change(page, (now, acts))


def _wait_review(page: Page) -> None:
    """Wait through the queue (its place or progress is shown) until the review is drawn."""
    wait_until(
        page,
        "document.querySelector('#equity-graph') !== null || "
        "(document.querySelector('#review-error') !== null)",
        timeout_ms=120_000,
    )
    assert page.locator("#review-error").count() == 0, page.inner_text("#review-error")


def _step_through_mistakes(page: Page) -> int:
    """Press 'next mistake' until it stops moving: each stop is a marked step with words."""
    page.click("[data-action=first]")
    seen: list[str] = []
    while True:
        before = page.inner_text(".step")
        page.click("[data-action=next-mistake]")
        after = page.inner_text(".step")
        if after == before:
            break
        seen.append(after)
        current = page.locator(".review-moves li.current")
        assert current.locator(".mark.mistake").count() >= 1, after
        # The decision panel: the played play against better ones, or the cube's figures,
        # in the review's unit, named: match winning chance in a match (these are matches).
        decision = page.inner_text("#decision")
        assert "Match winning chance" in decision or "match winning chance" in decision, decision
        figures = page.locator("#decision table.candidates tbody td:nth-child(3)").all_inner_texts()
        assert all(f.endswith("%") for f in figures), figures
        assert len(seen) < 200
    return len(seen)


def test_review_a_game_against_the_bot_and_an_uploaded_match(
    review_server: ServerProcess, browser: Browser
) -> None:
    rng = random.Random(11)
    page = new_page(browser, review_server.url)
    page.goto("/#/")
    page.click("header button[name=guest]")
    page.wait_for_selector("#me:has-text('Guest-')")
    page.check("input[name=opponent][value=bot]")
    page.select_option("select[name=bot]", "expert")
    page.fill("input[name=length]", "1")
    page.click("button[name=create]")
    page.wait_for_selector(".controls [data-action=roll]")
    table = int(state(page)["table"])
    # Practice: the tutor, switched on, speaks after the first play; a mistake can be
    # taken back against the bot (the same dice, the play to make again).
    page.check("input[name=tutor]")
    while True:
        now, acts = turn(page)
        if "play" in acts:
            break
        if "roll" in acts:
            click_action(page, "roll")
            wait_seq(page, now)
        else:
            wait_for_change(page, (now, acts))  # the bot won the opening roll and plays
    dice = state(page)["game"]["dice"]
    play_move(page, rng, drag=False)
    page.wait_for_selector("#tutor")
    # A warned mistake: both answers are among the controls while the bot waits.
    if page.locator("#tutor.warn").count() and page.locator(".controls [data-action=keep]").count():
        click_action(page, "take_back")
        wait_until(page, "window.gammon.view.state.game.actions.includes('play')")
        assert state(page)["game"]["dice"] == dice
        assert state(page)["game"]["log"][-1]["type"] == "taken_back"
    page.uncheck("input[name=tutor]")  # the rest at full speed: the bot waits for nobody
    _play_out(page, rng)

    # The record page links to the review; the bot table was queued when it finished.
    page.goto(f"/#/record/{table}")
    page.click("#review-link")
    _wait_review(page)
    assert "/#/analysis/" in page.url  # the shareable link
    share = page.input_value("#share-link")
    assert share.endswith(page.url.split("#")[1]) or "/#/analysis/" in share

    # The summary: error rates, the performance rating and luck, for both players.
    summary = page.inner_text("#review-summary")
    for words in (
        "Performance rating (PR",
        "Luck in match winning chance",
        "Overall error in match winning chance per decision",
    ):
        assert words in summary
    # The graph: a line, and a mark for each mistake and each big piece of luck.
    assert page.locator("#equity-graph .graph-line").count() == 1
    mistakes = page.locator("#equity-graph .graph-mistake").count()
    assert mistakes >= 1, "random plays against the bot made no mistake?"
    # Step through every marked mistake; the teacher explains the checker plays.
    assert _step_through_mistakes(page) == len(
        {m.get_attribute("data-index") for m in page.locator("#equity-graph .graph-mistake").all()}
    )
    page.click("[data-action=first]")
    page.click("[data-action=next-mistake]")
    explained = page.locator("#decision p.why").count()
    page.locator("#decision").screenshot(path=str(ARTIFACTS / "review-decision.png"))
    # Clicking a mistake's dot on the graph goes to that step.
    dot = page.locator("#equity-graph .graph-mistake").last
    index = dot.get_attribute("data-index")
    dot.click()
    wait_until(
        page, f"document.querySelector('.review-moves li.current')?.dataset.index === '{index}'"
    )
    explained += page.locator("#decision p.why").count()
    assert explained >= 1, "no explanation shown for the mistakes"
    assert page.locator("#report-html").get_attribute("href")
    screenshot(page, "review.png")
    # The decision opens in the analysis board: its position, dice and score (issue 16, 6).
    link = page.get_attribute("#decision-on-board", "href")
    assert link and link.startswith("#/board?position=")
    page.click("#decision-on-board")
    page.wait_for_selector("#ab-ids .ab-xgid")
    assert page.locator("#ab-paste-error").is_hidden()

    # Upload a .mat file: its review, several games, with tabs.
    page.goto("/#/analyse")
    page.set_input_files("input[name=matchfile]", str(MATCH_FILE))
    page.click("button[name=upload]")
    _wait_review(page)
    assert page.locator(".game-tabs button").count() >= 2
    assert "Performance rating (PR" in page.inner_text("#review-summary")
    page.locator(".game-tabs button").nth(1).click()
    page.click("[data-action=next-mistake]")
    assert page.locator(".review-moves li.current").count() == 1
    # A file that is not a match is refused in words.
    page.goto("/#/analyse")
    page.set_input_files(
        "input[name=matchfile]",
        files=[{"name": "notes.mat", "mimeType": "text/plain", "buffer": b"hello, world\n"}],
    )
    page.click("button[name=upload]")
    page.wait_for_selector("#upload-error:not([hidden])")
    assert "not a .mat match file" in page.inner_text("#upload-error")
    assert not js_errors(page)
    page.context.close()


def _graph_end(page: Page) -> float:
    """The height (SVG units) of the graph line's last point: 36 is 100%, 134 is 0%."""
    path = page.get_attribute("#equity-graph .graph-line", "d")
    assert path
    return float(path.split("L")[-1].split()[1])


def test_the_review_is_seen_from_the_side_you_sat(
    review_server: ServerProcess, browser: Browser
) -> None:
    """Sitting second (side 1), the review's graph is your winning chance and its boards
    are drawn from your side (they were the opponent's); a switch shows the other side.
    At 1280 and at 390 px."""
    rng = random.Random(4)
    page = new_page(browser, review_server.url)
    page.goto("/#/")
    page.click("header button[name=guest]")
    page.wait_for_selector("#me:has-text('Guest-')")
    # Seats are drawn by lot (R13): new tables until this guest sits second.
    for _ in range(30):
        table = page.evaluate(
            """async () => { const { post } = await import("/js/api.js");
               return (await post("/api/tables", {length: 1, bot: "beginner"})).table.id; }"""
        )
        page.goto(f"/#/table/{table}")
        wait_until(page, "!!window.gammon.view.state && window.gammon.view.state.you !== null")
        if state(page)["you"] == 1:
            break
    else:
        raise AssertionError("never seated second in 30 tables")
    # Three plays, then a backgammon resigned, which the bot accepts: it wins.
    plays = 0
    while plays < 3:
        now, acts = turn(page)
        if "play" in acts:
            play_move(page, rng, drag=False)
            plays += 1
        elif "take" in acts:
            click_action(page, "take")
            wait_seq(page, now)
        elif "roll" in acts:
            click_action(page, "roll")
            wait_seq(page, now)
        else:
            wait_for_change(page, (now, acts))
    while True:  # our turn to roll: nothing changes under the open menu
        now, acts = turn(page)
        if "roll" in acts:
            break
        if "take" in acts:
            click_action(page, "take")
            wait_seq(page, now)
        elif "play" in acts:
            play_move(page, rng, drag=False)
        else:
            wait_for_change(page, (now, acts))
    page.click(".controls details.menu summary")
    click_action(page, "resign-3")
    wait_until(page, "window.gammon.view.state.status === 'finished'")
    assert state(page)["result"]["winner"] == 0
    score = state(page)["result"]["score"]  # in seat order: the bot's first
    assert score[0] > score[1]

    page.goto(f"/#/review/{table}")
    _wait_review(page)
    me = page.inner_text("#me").split()[0]
    assert page.inner_text("#review-side").startswith(f"Seen from your side ({me})")
    assert page.get_attribute("#equity-graph", "data-side") == "1"
    assert me in (page.get_attribute("#equity-graph", "aria-label") or "")
    assert _graph_end(page) == 134.0  # the bot won: your chance ends at 0%
    # The starting board, from your side: your (dark) checkers on your 6-point.
    page.click("[data-action=first]")
    fills = page.eval_on_selector_all(
        ".replay-board svg [data-point='6'] .checker", "cs => cs.map(c => c.getAttribute('fill'))"
    )
    assert fills == ["#2c2c2e"] * 5, fills
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "review-side-1280.png")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The board takes the phone's layout (redrawn when the screen's width crosses 600 px):
    # its checkers as wide as item 8 asks.
    wait_until(
        page,
        "document.querySelector(\".replay-board svg [data-point='6'] .checker\")"
        ".getBoundingClientRect().width >= 28",
    )
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "review-side-390.png")
    # The switch: the bot's side.
    page.click("button[name=flip-side]")
    assert page.get_attribute("#equity-graph", "data-side") == "0"
    assert _graph_end(page) == 36.0
    fills = page.eval_on_selector_all(
        ".replay-board svg [data-point='6'] .checker", "cs => cs.map(c => c.getAttribute('fill'))"
    )
    assert fills == ["#f5f0e6"] * 5, fills
    assert page.inner_text("#review-side").startswith("Seen from gammon-beginner's side")
    # Somebody who did not play: the first seat, said so, with the switch.
    other = new_page(browser, review_server.url)
    other.goto(page.url.replace(review_server.url, ""))
    _wait_review(other)
    assert "you did not play this match" in other.inner_text("#review-side")
    assert other.get_attribute("#equity-graph", "data-side") == "0"
    # The profile reads the result from the player's side too ("lost 0-3"), not in the
    # seat order ("lost 3-0").
    page.goto(f"/#/player/{me}")
    row = page.locator(f"#recent tr[data-table='{table}']")
    row.wait_for()
    assert f"lost {score[1]}-{score[0]}" in row.inner_text(), (row.inner_text(), score)
    assert not js_errors(page) and not js_errors(other)
    other.context.close()


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_hints_figures_are_in_a_named_unit(
    review_server: ServerProcess, browser: Browser, width: int, height: int
) -> None:
    """In a match the hint's plays and the cube hint show match winning chance in per cent
    and say so (the cube hint printed +0.477 under "the doubler's match winning chance"),
    with the take point as the taker's chance of the games."""
    rng = random.Random(5)
    page = new_page(browser, review_server.url, width=width, height=height)
    page.goto("/#/")
    page.click("header button[name=guest]")
    page.wait_for_selector("#me:has-text('Guest-')")
    page.check("input[name=opponent][value=bot]")
    page.select_option("select[name=bot]", "beginner")
    page.fill("input[name=length]", "5")
    page.click("button[name=create]")
    page.wait_for_selector(".controls [data-action]")
    seen = set()
    looks = 0
    while seen != {"plays", "cube"} and state(page)["status"] == "playing":
        looks += 1
        assert looks < 500, seen
        now, acts = turn(page)
        if "double" in acts and "cube" not in seen:
            click_action(page, "hint")
            page.wait_for_selector("#cube-hint")
            cells = page.locator("#cube-hint td").all_inner_texts()
            figures = cells[1:4]  # no double, double take, double pass
            assert all(re.fullmatch(r"\d+\.\d%", f) for f in figures), cells
            assert "of the games" in cells[4] and cells[5].endswith("of the games")
            assert cells[6].startswith("the taker needs")
            # The words under the table put the chances against the window and take point.
            words = page.inner_text("#cube-words")
            assert words.startswith("The doubler wins") and "take point" in words, words
            assert "match winning chance" in page.inner_text(".hints")
            screenshot(page, f"hint-cube-{width}.png")
            seen.add("cube")
        elif "play" in acts and "plays" not in seen:
            click_action(page, "hint")
            page.locator(".hints .hint-play").first.wait_for()
            figures = page.locator(".hints .hint-play .equity").all_inner_texts()
            assert figures and all(re.fullmatch(r"\d+\.\d%", f) for f in figures), figures
            assert "Match winning chance after each play" in page.inner_text(".hints")
            screenshot(page, f"hint-plays-{width}.png")
            seen.add("plays")
            play_move(page, rng, drag=False)
        elif "play" in acts:
            play_move(page, rng, drag=False)
        elif "take" in acts:
            click_action(page, "take")
            wait_seq(page, now)
        elif "roll" in acts:
            click_action(page, "roll")
            wait_seq(page, now)
        elif "accept_resignation" in acts:
            click_action(page, "accept_resignation")
            wait_seq(page, now)
        else:
            wait_for_change(page, (now, acts))
    assert seen == {"plays", "cube"}
    assert not js_errors(page)
    page.context.close()
