"""The end of a game and of a match in a real browser (issue 16, item 3): between games a
result screen over the board (who won what, the score, the next game), at the end of the
match Rematch, Analyse, Replay, .mat and the way back, and a rematch both players asked for
opening the new table. The opponent and the player's own other connection are the test's
client (tests/server/client.py), the page shows the player's side."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from tests.server.browser_helpers import (
    have_chromium,
    js_errors,
    log_in,
    needs_chromium,
    new_page,
    page_width,
    screenshot,
    wait_until,
)
from tests.server.client import ServerProcess
from tests.server.test_play import seated

pytestmark = needs_chromium
T = TypeVar("T")


class Background:
    """The test client's event loop in a thread of its own: Playwright's sync API keeps a
    loop running in the test's thread, where no other may run."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run_until_complete(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=120)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()


if have_chromium():
    from playwright.sync_api import Browser


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_result_screens_and_a_rematch(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    loop = Background()
    table, sockets, players = loop.run_until_complete(seated(server, length=3))
    names = [p.user["name"] for p in players]  # type: ignore[index]
    page = new_page(browser, server.url, width=width, height=height)
    log_in(page, names[0], "correct horse")
    page.goto(f"/#/table/{table}")
    wait_until(page, "window.gammon.view && window.gammon.view.state")
    mine = int(page.evaluate("window.gammon.view.state.you"))
    me, them = sockets[mine], sockets[1 - mine]

    # Game 1: the opening roll, then the page's player resigns a single game and the
    # opponent accepts.
    opener = me if me.state is not None and "roll" in me.state["game"]["actions"] else them
    loop.run_until_complete(opener.act({"type": "roll"}))
    loop.run_until_complete(me.act({"type": "resign", "value": 1}))
    loop.run_until_complete(them.act({"type": "accept_resignation"}))
    page.wait_for_selector("#result-screen:not([hidden])")
    text = page.inner_text("#result-screen")
    assert "Game 1 is over" in text and f"{names[1]} wins" in text
    assert "Match to 3:" in text and "Next: game 2." in text
    assert page_width(page) <= width
    screenshot(page, f"result-game-{width}.png")
    page.click("#next-game")
    page.wait_for_selector("#result-screen", state="hidden")

    # The match: the page's player leaves it; the panel offers what comes next.
    loop.run_until_complete(me.act({"type": "forfeit"}))
    page.wait_for_selector("#result-screen:not([hidden]) #rematch")
    for link in ("Analyse", "Replay", ".mat", "Back to the lobby"):
        assert page.locator(f"#result-screen :text-is('{link}')").count() == 1, link
    assert page.get_attribute("#analyse-match", "href") == f"#/review/{table}"
    screenshot(page, f"result-match-{width}.png")
    page.click("#rematch")
    page.wait_for_selector("#rematch-note:has-text('waiting for your opponent')")
    answer = loop.run_until_complete(players[1].post(f"/api/tables/{table}/rematch"))
    new = answer.json()["rematch"]["rematch"]
    wait_until(page, f"location.hash === '#/table/{new}'")
    wait_until(page, f"window.gammon.view.state && window.gammon.view.state.table === {new}")
    assert js_errors(page) == []
    page.context.close()
    for p in players:
        loop.run_until_complete(p.close())
    loop.close()
