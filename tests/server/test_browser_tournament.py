"""A Sit & Go in four browsers (Debian's chromium through Playwright, a real server): four
accounts register from the tournament's page, each match's loser leaves it after the winner
has thrown the opening roll, and every page sees the bracket update and the winner; the
winner's profile shows the new rating, the rating graph and the match."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.browser_helpers import (
    click_action,
    fresh_name,
    have_chromium,
    js_errors,
    launch,
    needs_chromium,
    new_page,
    sign_up,
    wait_until,
)
from tests.server.client import ServerProcess, database_url

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page, sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def own_server() -> Iterator[ServerProcess]:
    process = ServerProcess(database_url("browser-tournament"), "--signup-limit", "1000/0.01")
    process.start()
    yield process
    process.stop()


def match_of(page: Page, number: int) -> dict[str, object]:
    answer = page.evaluate(f"fetch('/api/tournaments/{number}').then(r => r.json())")
    return dict(answer["tournament"])


def play_through(pages: dict[str, Page], number: int, match: int) -> str:
    """The first player throws the opening roll at the match's table; the second leaves."""
    t = match_of(next(iter(pages.values())), number)
    found = next(m for r in t["rounds"] for m in r["matches"] if m["match"] == match)  # type: ignore[index, union-attr, attr-defined]
    winner, loser = (p["name"] for p in found["players"])
    for name in (winner, loser):
        page = pages[name]
        page.goto(f"/#/tournament/{number}")
        page.click(f".match[data-match='{match}'] a.watch")
        page.wait_for_selector(".controls")
        if name == winner:
            wait_until(page, "window.gammon.view.state && window.gammon.view.state.game")
            click_action(page, "roll")
            wait_until(page, "!!window.gammon.view.state && window.gammon.view.state.seq > 1")
        else:
            wait_until(page, "!!window.gammon.view.state && window.gammon.view.state.seq > 1")
            page.once("dialog", lambda dialog: dialog.accept())
            page.click(".controls details.menu summary")
            click_action(page, "forfeit")
            wait_until(page, "window.gammon.view.state.status === 'finished'")
    return str(winner)


def test_four_browsers_play_a_sit_and_go(own_server: ServerProcess, browser: Browser) -> None:
    names = [fresh_name("tb") for _ in range(4)]
    pages = {}
    for name in names:
        page = new_page(browser, own_server.url)
        sign_up(page, name)
        pages[name] = page
    first = pages[names[0]]
    # The lobby starts a Sit & Go of four 1-point matches.
    first.goto("/#/")
    first.fill("#sit-and-go input[name=name]", "Browser cup")
    first.select_option("#sit-and-go select[name=seats]", "4")
    first.fill("#sit-and-go input[name=points]", "1")
    first.click("#sit-and-go button[name=create-sit-and-go]")
    wait_until(first, "location.hash.startsWith('#/tournament/')")
    number = int(first.evaluate("location.hash.split('/')[2]"))
    for name, page in pages.items():
        page.goto(f"/#/tournament/{number}")
        page.click("button[name=register]")
        page.wait_for_selector(f"#registered li:has-text('{name}'), #bracket")
    # The fourth registration fills the seats: the bracket is drawn for everybody.
    for page in pages.values():
        page.wait_for_selector("#bracket .match[data-match='3']")
        assert "being played" in page.inner_text("#tournament-state")
    winners = [play_through(pages, number, 1), play_through(pages, number, 2)]
    for page in pages.values():
        page.goto(f"/#/tournament/{number}")
        page.wait_for_selector(".match[data-match='1'].status-over")
        page.wait_for_selector(".match[data-match='2'].status-over")
        final = page.inner_text(".match[data-match='3']")
        assert all(w in final for w in winners), final
    champion = play_through(pages, number, 3)
    for page in pages.values():
        page.goto(f"/#/tournament/{number}")
        banner = page.wait_for_selector("#tournament-winner")
        assert banner is not None and banner.inner_text() == f"Winner: {champion}"
        assert page.inner_text("#standings").count(champion) == 1
    # The champion's profile: a rating above 1500, the graph, the final in the history.
    page = pages[champion]
    page.click("#me")
    page.wait_for_selector("#profile-rating")
    assert int(page.inner_text("#profile-rating")) > 1500
    assert page.locator(".rating-graph path.line").count() == 1
    assert page.locator(".rating-graph circle.dot").count() == 2
    t = match_of(page, number)
    final_table = t["rounds"][1]["matches"][0]["table"]  # type: ignore[index]
    page.wait_for_selector(f"#recent tr[data-table='{final_table}']")
    assert "won" in page.inner_text(f"#recent tr[data-table='{final_table}']")
    for page in pages.values():
        assert not js_errors(page), js_errors(page)
        page.context.close()


def test_the_lobby_makes_a_sit_and_go_that_bots_fill(
    own_server: ServerProcess, browser: Browser
) -> None:
    """A player alone: the lobby's form asks for bots in the empty seats, which come after
    the chosen wait (none here), and the Sit & Go starts with them."""
    page = new_page(browser, own_server.url)
    name = fresh_name("tl")
    sign_up(page, name)
    page.goto("/#/")
    page.fill("#sit-and-go input[name=name]", "Alone with bots")
    page.select_option("#sit-and-go select[name=seats]", "4")
    page.fill("#sit-and-go input[name=points]", "1")
    page.select_option("#sit-and-go select[name=bots]", "beginner")
    page.fill("#sit-and-go input[name=bots_after_s]", "0")
    page.click("#sit-and-go button[name=create-sit-and-go]")
    wait_until(page, "location.hash.startsWith('#/tournament/')")
    number = int(page.evaluate("location.hash.split('/')[2]"))
    page.click("button[name=register]")
    page.wait_for_selector("#bracket .match[data-match='3']")
    assert "being played" in page.inner_text("#tournament-state")
    t = match_of(page, number)
    assert t["settings"]["bots"] == "beginner" and t["settings"]["bots_after_s"] == 0
    entries = t["registered"]
    assert [e["name"] for e in entries if e["bot"] is None] == [name]
    assert sum(e["bot"] == "beginner" for e in entries) == 3
    assert not js_errors(page), js_errors(page)
    page.context.close()


def test_the_tournament_page_is_live_and_has_its_chat(
    own_server: ServerProcess, browser: Browser
) -> None:
    """PROTOCOL.md 6.1: the page hears of changes over the tournament's socket (it does not
    poll), and carries the tournament's chat under the house rules."""
    names = [fresh_name("tc") for _ in range(2)]
    pages = {}
    for name in names:
        page = new_page(browser, own_server.url)
        sign_up(page, name)
        pages[name] = page
    first, second = pages[names[0]], pages[names[1]]
    # The page's timers on a clock this test moves (time still flows as it will), so that
    # "it does not poll" is shown on the page's own time, below, not by waiting.
    first.clock.install()
    first.goto("/#/")
    first.fill("#sit-and-go input[name=name]", "Chat cup")
    first.select_option("#sit-and-go select[name=seats]", "4")
    first.fill("#sit-and-go input[name=points]", "1")
    first.click("#sit-and-go button[name=create-sit-and-go]")
    wait_until(first, "location.hash.startsWith('#/tournament/')")
    number = int(first.evaluate("location.hash.split('/')[2]"))
    second.goto(f"/#/tournament/{number}")
    second.wait_for_selector("#tournament-chat input[name=chat]")
    first.wait_for_selector("#tournament-chat input[name=chat]")
    asked: list[str] = []
    first.on("request", lambda r: asked.append(r.url) if "/api/tournaments/" in r.url else None)
    # A registration on one page shows on the other at once, without asking the server.
    second.click("button[name=register]")
    # (At once: were it read by a poll instead, ``asked`` below would say so.)
    first.wait_for_selector(f"#registered li:has-text('{names[1]}')")
    # The page used to read the tournament every 2 s: 2.5 s of its time, every timer due in
    # them fired at once; a round trip to the page then brings any request it made.
    first.clock.run_for(2500)
    first.evaluate("0")
    assert asked == [], asked
    # The chat: a line from one page reaches the other, abuse masked by the house rules.
    first.fill("#tournament-chat input[name=chat]", "good luck, moron")
    first.press("#tournament-chat input[name=chat]", "Enter")
    line = second.wait_for_selector("#tournament-chat .messages li .text")
    assert line is not None and line.inner_text() == "good luck, *****"
    assert "House rules" in second.inner_text("#tournament-chat")
    # A link is refused; the text stays in the input to be mended.
    second.fill("#tournament-chat input[name=chat]", "see http://spam.example")
    second.press("#tournament-chat input[name=chat]", "Enter")
    second.wait_for_selector("#tournament-chat .error:not([hidden])")
    assert second.input_value("#tournament-chat input[name=chat]") == "see http://spam.example"
    for page in pages.values():
        assert not js_errors(page), js_errors(page)
        page.context.close()
