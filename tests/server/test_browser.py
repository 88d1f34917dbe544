"""The browser client in a real browser against a real server (R13, R15).

Two people sign up in two browser contexts, meet in the lobby and play a money
game to the end with the mouse (clicks and drags), double and take once (R10),
chat, and then check every roll of the game in the browser (fair dice, R13).
A guest plays the bot, asks for a hint (R15), survives a dropped connection,
resigns, and checks the dice too.

Needs Debian's chromium (/usr/bin/chromium) and the ``playwright`` package
(never ``playwright install``: the browser comes from the system).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests import waiting
from tests.server.browser_helpers import (
    become_guest,
    click_action,
    click_point,
    destinations,
    fresh_name,
    have_chromium,
    js_errors,
    launch,
    log_in,
    log_out,
    needs_chromium,
    new_page,
    page_width,
    play_list,
    play_move,
    screenshot,
    seq,
    sign_up,
    state,
    turn,
    wait_seq,
    wait_until,
)
from tests.server.client import ServerProcess
from tests.server.js_fixtures import random_games

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page, sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def _verify_page(page: Page, table: int) -> str:
    """Open the table's record page; wait for the dice check and return its summary."""
    page.goto(f"/#/record/{table}")
    summary = page.locator("#verify-summary:not(.checking)")
    summary.wait_for()
    return summary.inner_text()


def test_two_people_play_a_money_game_with_the_mouse(
    server: ServerProcess, browser: Browser
) -> None:
    """Two browsers play a whole money game by clicks. The suite's longest test (about 30 s
    quiet): every checker is a real click in Chromium and every state crosses the server,
    which is what it is for; nothing in it waits on the clock."""
    rng = random.Random(2024)
    alice_page = new_page(browser, server.url)
    bob_page = new_page(browser, server.url, width=1280, height=800)
    alice, bob = fresh_name("alice"), fresh_name("bob")
    # The states Alice's browser receives at a table: after its hello, only new log events.
    delta_states: list[int] = []
    alice_page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda frame: (
                delta_states.append(1)
                if isinstance(frame, str) and '"log_from":' in frame
                else None
            ),
        ),
    )

    # The page runs under its Content-Security-Policy (docs/PROTOCOL.md 1.4): anything the
    # policy blocked would show as a console error, which the end of this test rules out.
    response = alice_page.goto("/#/login")
    assert response is not None and "script-src 'self'" in response.headers.get(
        "content-security-policy", ""
    )
    # Accounts: the server's refusal is shown inline; sign up, log out, log in.
    alice_page.fill("input[name=name]", alice)
    alice_page.fill("input[name=password]", "short")
    alice_page.click("button[name=signup]")
    error = alice_page.locator("#auth-error")
    error.wait_for()
    assert "8" in error.inner_text()  # passwords: 8-256 characters
    sign_up(alice_page, alice)
    sign_up(bob_page, bob)
    log_out(bob_page)
    log_in(bob_page, bob)

    # Alice creates a single money game; Bob sees it appear in his lobby and joins.
    bob_page.goto("/#/")
    alice_page.goto("/#/")
    alice_page.check("input[name=mode][value=money]")
    alice_page.fill("input[name=max_games]", "1")
    alice_page.click("button[name=create]")
    alice_page.wait_for_selector("text=Waiting for an opponent")
    table = int(state(alice_page)["table"])
    bob_page.click(f"tr[data-table='{table}'] a:has-text('Join')")
    for page in (alice_page, bob_page):
        wait_until(
            page, "window.gammon.view.state && window.gammon.view.state.status === 'playing'"
        )
    pages = {state(p)["you"]: p for p in (alice_page, bob_page)}
    assert set(pages) == {0, 1}  # seats drawn at random (R13)

    # Table chat, both ways.
    alice_page.fill("input[name=chat]", "good luck!")
    alice_page.press("input[name=chat]", "Enter")
    bob_page.wait_for_selector(".chat .messages li:has-text('good luck!')")
    bob_page.fill("input[name=chat]", "you too")
    bob_page.click(".chat-form button")
    alice_page.wait_for_selector(".chat .messages li:has-text('you too')")
    # Bob reports Alice's message to the operators, then mutes her (R13).
    bob_page.once("dialog", lambda dialog: dialog.accept("only testing the report button"))
    bob_page.click(".chat .messages li:has-text('good luck!') button.who")
    bob_page.click(".who-menu button:has-text('Report')")
    bob_page.wait_for_selector(".chat li.note:has-text('was reported')")
    bob_page.click(".chat .messages li:has-text('good luck!') button.who")
    bob_page.click(".who-menu button:has-text('Mute')")
    bob_page.wait_for_selector(".chat li.note:has-text('You muted')")
    assert bob_page.locator(".chat .messages li:has-text('good luck!')").count() == 0

    # Somebody watches without signing in: side 0's view, no controls.
    watcher = new_page(browser, server.url)
    watcher.goto(f"/#/table/{table}")
    watcher.wait_for_selector(".status:has-text('Watching')")
    alice_page.wait_for_selector(".info:has-text('1 watching')")
    assert watcher.locator(".controls button").count() == 0
    watcher.context.close()

    doubled = took = False
    turns = drags = clicks = 0
    shot = None
    looks = 0
    while state(alice_page)["status"] == "playing":
        # A guard against a loop that never ends, by count, not by the clock: one game of
        # random plays is a few hundred looks at most.
        looks += 1
        assert looks < 5000, "the game never ended"
        looked: list[tuple[int, list[str]]] = []  # what each page showed, as this pass saw it
        for side, page in pages.items():
            other = pages[1 - side]
            now, acts = turn(page)
            looked.append((now, acts))
            if seq(other) != now:  # let both pages see the same state
                wait_seq(other if seq(other) < now else page, min(now, seq(other)))
                break
            if "play" in acts:
                drag = turns % 2 == 1
                if turns == 6 and shot is None:
                    # Mid-game: a checker picked up shows where it may go (R4-R8).
                    game = state(page)["game"]
                    source = game["legal_plays"][0]["moves"][0][0]
                    click_point(page, source)
                    assert destinations(page)
                    shot = screenshot(page, "board.png")
                    click_point(page, source)  # put it down again
                play_move(page, rng, drag=drag)
                turns += 1
                drags += drag
                clicks += not drag
                break
            if "take" in acts:
                click_action(page, "take")
                wait_seq(page, now)
                took = True
                break
            if "double" in acts and not doubled and turns >= 4:
                click_action(page, "double")
                wait_seq(page, now)
                doubled = True
                other.wait_for_selector(".controls [data-action=take]")
                break
            if "roll" in acts:
                if turns % 3 == 0:
                    page.locator("#board").click(position={"x": 5, "y": 5})  # focus off inputs
                    page.keyboard.press("r")  # the keyboard works too
                else:
                    click_action(page, "roll")
                wait_seq(page, now)
                break
        else:
            # Nobody can act in this state: it is changing under us (an automatic pass, or
            # an action's answer on its way): wait for what either page shows to change.
            waiting.wait_until(
                lambda looked=looked: (
                    state(alice_page)["status"] != "playing"
                    or [turn(p) for p in pages.values()] != looked
                ),
                what=f"a change from {looked}, where nobody could act",
            )
    assert doubled and took and drags >= 3 and clicks >= 3 and shot is not None
    final = state(alice_page)
    # The browser asked for log_delta and games_delta (docs/PROTOCOL.md 2.2), and the log
    # and finished games it put together from what each state had new are the server's.
    assert len(delta_states) > 10
    whole = alice_page.evaluate(f"fetch('/api/tables/{table}').then(r => r.json())")
    assert final["seq"] == whole["seq"] and final["game"]["log"] == whole["game"]["log"]
    assert final["previous_games"] == whole["previous_games"]
    assert final["result"]["reason"] == "session"
    assert final["game"]["cube"]["value"] >= 2  # the double was taken (R10)
    alice_page.wait_for_selector(".info .result")

    # Fair dice: every roll recomputed in Alice's browser (R13).
    alice_page.click(".controls a:has-text('Verify the dice')")
    summary = alice_page.locator("#verify-summary:not(.checking)")
    summary.wait_for()
    rolls = sum(1 for e in final["game"]["log"] if e["type"] in ("opening", "rolled"))
    assert summary.inner_text() == f"✓ all {rolls} rolls verified"
    notes = alice_page.inner_text(".notes")
    assert "contributions from this browser found where they belong" in notes
    alice_page.wait_for_selector("#mat-link")
    # The replay steps back to the start and forward again.
    alice_page.click("[data-action=first]")
    assert alice_page.inner_text(".step").startswith("Start of game 1")
    alice_page.click("[data-action=next]")
    assert alice_page.inner_text(".step").startswith("Step 1 of")
    # Bob checks his own contributions on his own page.
    assert _verify_page(bob_page, table) == f"✓ all {rolls} rolls verified"
    assert not js_errors(alice_page) and not js_errors(bob_page)
    alice_page.context.close()
    bob_page.context.close()


def test_guest_plays_the_bot_with_a_hint_and_a_reconnect(
    server: ServerProcess, browser: Browser
) -> None:
    rng = random.Random(7)
    page = new_page(browser, server.url, width=390, height=844)  # a phone-width screen
    page.goto("/#/")
    page.click("header button[name=guest]")
    page.wait_for_selector("#me:has-text('Guest-')")
    page.check("input[name=opponent][value=bot]")
    page.select_option("select[name=bot]", "beginner")
    page.fill("input[name=length]", "1")
    page.click("button[name=create]")
    page.wait_for_selector(".controls [data-action=roll]")
    table = int(state(page)["table"])
    assert state(page)["settings"]["length"] == 1 and state(page)["settings"]["bot"] == "beginner"
    hinted = reconnected = False
    while state(page)["status"] == "playing":
        now, acts = turn(page)
        if "play" in acts and not hinted:
            click_action(page, "hint")
            first = page.locator(".hints .hint-play").first
            first.wait_for()
            best = first.locator(".play").inner_text()
            first.click()  # the hint's play goes on the board, waiting for Confirm
            confirm = page.locator(".controls [data-action=confirm]")
            assert confirm.is_enabled() and best in confirm.inner_text()
            confirm.click()
            wait_seq(page, now)
            hinted = True
            screenshot(page, "phone.png")
        elif "play" in acts:
            play_move(page, rng, drag=False)
            if not reconnected:
                # The connection drops: a notice, then the client resyncs by itself.
                page.evaluate("window.gammon.view.live.drop()")
                page.wait_for_selector("#notice:has-text('Reconnecting')")
                page.wait_for_selector("#notice", state="hidden")
                reconnected = True
            else:
                # Enough: resign a backgammon, which the bot accepts (R9).
                wait_until(page, "window.gammon.view.state.game.actions.includes('resign')")
                page.click(".controls details.menu summary")
                click_action(page, "resign-3")
                wait_until(page, "window.gammon.view.state.status === 'finished'")
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
            wait_seq(page, now)
    assert hinted and reconnected
    # The client asked for the deltas again on the new connection; its state is the server's.
    whole = page.evaluate(f"fetch('/api/tables/{table}').then(r => r.json())")
    assert state(page)["game"]["log"] == whole["game"]["log"]
    assert state(page)["previous_games"] == whole["previous_games"]
    assert state(page)["result"] is not None
    summary = _verify_page(page, table)
    assert summary.startswith("✓ all ") and summary.endswith(" rolls verified")
    # Against the bot every contribution in the record is the player's own (DICE.md).
    assert "every contribution is one this browser sent" in page.inner_text(".notes")
    assert not js_errors(page)
    page.context.close()


_CHECK_MOVE_INPUT = """
async (text) => {
  const { MoveInput } = await import("/js/moves.js");
  const { replayFrames } = await import("/js/replay.js");
  const data = JSON.parse(text);
  const bad = [];
  let walks = 0;
  for (const c of data.cases) {
    const input = new MoveInput(c.board, c.dice, c.plays);
    for (const play of c.plays) {
      // As a person clicks: each move from the board's own destinations, in the listed order.
      input.reset();
      const made = play.moves.every(([from, to]) => input.move(from, to));
      if (!made || !input.complete || input.complete.play !== play.play) {
        bad.push(["cannot click its moves", play.play, input.steps, c.board, c.dice]);
      }
      if (!input.setPlay(play) || input.complete.play !== play.play) {
        bad.push(["cannot show it", play.play, c.board, c.dice]);
      }
    }
    // Random clicks on what the board offers always end on a legal play: no dead end.
    for (let walk = 0; walk < 4; walk++) {
      input.reset();
      for (let n = 0; !input.complete; n++) {
        const sources = [...input.movable()];
        if (!sources.length || n > 4) {
          bad.push(["stuck", input.steps, c.board, c.dice]);
          break;
        }
        const from = sources[Math.floor(Math.random() * sources.length)];
        const targets = [...input.destinations(from).keys()];
        input.move(from, targets[Math.floor(Math.random() * targets.length)]);
      }
      walks += 1;
    }
  }
  // Replaying each log from the server's starting board gives its boards and cube.
  const info = await (await fetch("/api/info")).json();
  const starts = Object.fromEntries(info.variants.map((v) => [v.name, v.board]));
  let replayed = 0;
  for (const g of data.games) {
    const frames = replayFrames(starts[g.variant], g.log);
    for (const check of g.checks) {
      const r = frames[check.upto].replay;
      const b = r.boardFor(0);
      const same = ["mine", "theirs", "off", "waiting"].every(
        (k) => JSON.stringify(b[k]) === JSON.stringify(check.board[k]));
      if (!same || r.cube.value !== check.cube[0] || r.cube.owner !== check.cube[1]) {
        bad.push(["replay differs", g.variant, check.upto, b, check.board, r.cube, check.cube]);
      }
      replayed += 1;
    }
  }
  return { bad: bad.slice(0, 5), walks, replayed };
}
"""


def test_checkers_move_die_by_die_to_every_legal_play(
    server: ServerProcess, browser: Browser
) -> None:
    """The client's moves reach exactly the server's legal plays (R4-R8, R14), and its replay
    of a game log from the server's starting boards gives the server's positions and cube
    (R10): the same checks as tests/js/, in the browser that runs them."""
    data = random_games()
    cases = data["cases"]
    assert len(cases) > 300
    page = new_page(browser, server.url)
    page.goto("/#/login")
    result = page.evaluate(_CHECK_MOVE_INPUT, json.dumps(data))  # one string: fast to pass
    assert result["bad"] == []
    assert result["walks"] == 4 * len(cases)
    assert result["replayed"] == sum(len(game["checks"]) for game in data["games"])
    assert not js_errors(page)
    page.context.close()


def _holds(play: dict[str, Any], steps: list[tuple[int, int]]) -> bool:
    """Whether ``steps`` (from, to) are moves of ``play`` not yet made."""
    left = [(m[0], m[1]) for m in play["moves"]]
    for step in steps:
        if step not in left:
            return False
        left.remove(step)
    return True


def _check_play_list(page: Page) -> None:
    """Put a play that is not the list's first on the board by clicks: the list shows it."""
    before = state(page)
    plays = before["game"]["legal_plays"]
    chosen = plays[-1]
    moves = [(m[0], m[1]) for m in chosen["moves"]]
    for source, target in moves:
        click_point(page, source)
        click_point(page, target)
    confirm = page.locator(".controls [data-action=confirm]")
    assert confirm.inner_text() == f"Confirm {chosen['play']}"
    selected, options = play_list(page)
    assert selected == chosen["play"], (selected, chosen["play"])
    # One move taken back: the list offers only the plays that go on from the board.
    click_action(page, "undo")
    selected, options = play_list(page)
    assert set(options) == {p["play"] for p in plays if _holds(p, moves[:-1])}
    assert chosen["play"] in options
    page.select_option("select[name=legal-play]", chosen["play"])
    page.click("button[name=put-play]")
    assert confirm.inner_text() == f"Confirm {chosen['play']}"
    confirm.click()
    wait_seq(page, before["seq"])


def test_phone_lobby_form_crawford_forfeit_and_replay(
    server: ServerProcess, browser: Browser
) -> None:
    """At 390 px: the lobby fits in every state; the form refuses a blank or wrong number of
    points in its own words and offers no cube for tavla (R14); the legal-play list shows
    the play on the board; the Crawford game shows no cube value (R12); leaving the match is
    said in plain words (R13); the replay opens at its top."""
    rng = random.Random(5)
    page = new_page(browser, server.url, width=390, height=844)
    me = become_guest(page)
    widths = {}
    for opponent in ("anyone", "invite", "bot"):
        page.check(f"input[name=opponent][value={opponent}]")
        for mode in ("match", "money"):
            page.check(f"input[name=mode][value={mode}]")
            for clock in ("none", "custom"):
                page.select_option("select[name=clock]", clock)
                widths[(opponent, mode, clock)] = page_width(page)
    assert max(widths.values()) <= 390, widths
    page.check("input[name=opponent][value=bot]")
    page.check("input[name=mode][value=match]")
    page.select_option("select[name=clock]", "none")
    # A tap on the level's menu lands on it, inside the screen.
    box = page.locator("select[name=bot]").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    tapped = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).name",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert tapped == "bot"
    page.select_option("select[name=bot]", "beginner")

    # The points: a blank is refused (not a silent 3-point match), and so is 99, in the
    # form's words.
    error = page.locator("#create-error")
    page.fill("input[name=length]", "")
    page.click("button[name=create]")
    error.wait_for()
    assert error.inner_text().startswith("Points:"), error.inner_text()
    page.fill("input[name=length]", "99")
    page.click("button[name=create]")
    page.wait_for_selector("#create-error:has-text('99')")
    assert "Points" in error.inner_text() and "length" not in error.inner_text()
    assert page.evaluate("document.body.dataset.route") == "lobby"
    mine = page.evaluate("fetch('/api/tables').then(r => r.json())")["tables"]
    assert not [t for t in mine if t["created_by"] == me], "a table was created"
    # Tavla has no cube (R14): the box is off and cannot be ticked; back to standard, it can.
    cube = page.locator("input[name=cube]")
    page.select_option("select[name=variant]", "tavla")
    assert cube.is_disabled() and not cube.is_checked()
    assert page.locator(".cube-note").is_visible()
    page.select_option("select[name=variant]", "standard")
    assert cube.is_enabled() and cube.is_checked()

    # A 2-point match against the bot.
    page.fill("input[name=length]", "2")
    page.click("button[name=create]")
    page.wait_for_selector(".controls [data-action=roll]")
    table = int(state(page)["table"])
    listed = False
    while state(page)["game"]["number"] == 1:
        assert state(page)["status"] == "playing"
        now, acts = turn(page)
        plays = state(page)["game"]["legal_plays"]
        if "play" in acts and not listed and len(plays) >= 2:
            _check_play_list(page)
            listed = True
        elif "roll" in acts and listed:  # my turn: nothing changes under the menu
            # Resign a single (the cube is still 1), which the bot accepts: it leads 1-0.
            page.click(".controls details.menu summary")
            click_action(page, "resign-1")
            wait_until(
                page,
                "(g => g.number === 2 || g.log.some(e => e.type === 'resignation_rejected'))"
                "(window.gammon.view.state.game)",
            )
            game = state(page)["game"]
            assert game["number"] == 2, (game["phase"], game["log"][-4:])
        elif "play" in acts:
            play_move(page, rng, drag=False)
        elif "roll" in acts:
            click_action(page, "roll")
            wait_seq(page, now)
        elif "drop" in acts:
            # The bot doubles: dropping gives it the one point it needs for the Crawford game.
            click_action(page, "drop")
            wait_until(page, "window.gammon.view.state.game.number === 2")
        else:
            wait_seq(page, now)
    # The Crawford game: nobody may double, and the board shows no cube (no "64").
    crawford = state(page)
    assert crawford["game"]["crawford"] and crawford["series"]["score"][1 - crawford["you"]] == 1
    page.wait_for_selector(".crawford-note")
    assert page.locator("#board svg .cube").count() == 0
    # Leaving the match: said in plain words, without a score that means nothing.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(".controls details.menu summary")
    click_action(page, "forfeit")
    wait_until(page, "window.gammon.view.state.status === 'finished'")
    result = page.inner_text(".info .result strong")
    assert result == f"{me} left the match: gammon-beginner wins.", result
    assert page.inner_text(".status") == result
    # The replay of game 1 opens at the top of the page.
    page.goto(f"/#/record/{table}/1")
    page.locator("#verify-summary:not(.checking)").wait_for()
    assert page.evaluate("window.scrollY") == 0
    assert page.inner_text(".step").startswith("Step ")
    assert page_width(page) <= 390
    assert not js_errors(page)
    page.context.close()


def test_missing_table_time_loss_and_chat_that_keeps_its_words(
    server: ServerProcess, browser: Browser
) -> None:
    """A table that does not exist says so; a match lost on time says who ran out of time
    (R13); a refused chat message stays in the input, and a note stays in the chat."""
    page = new_page(browser, server.url)
    page.goto("/#/table/987654")
    page.wait_for_selector("h1:has-text('No such table')")
    assert "There is no table 987654" in page.inner_text("main")
    assert page.locator("#board").count() == 0
    page.click("main a:has-text('Back to the lobby')")
    page.wait_for_selector("button[name=create]")

    # Lobby chat: a refused message keeps its words; mended, it goes and the input clears.
    alice, bob = fresh_name("alice"), fresh_name("bob")
    sign_up(page, alice)
    other = new_page(browser, server.url)
    sign_up(other, bob)
    page.goto("/#/")
    other.goto("/#/")
    chat = page.locator("input[name=chat]")
    spam = "cheap chips at www.example.com"
    chat.fill(spam)
    chat.press("Enter")
    page.wait_for_selector(".chat .error:has-text('links')")
    assert chat.input_value() == spam
    chat.fill(f"hello from {alice}")
    chat.press("Enter")
    other.wait_for_selector(f".chat .messages li:has-text('hello from {alice}')")
    wait_until(page, "document.querySelector('input[name=chat]').value === ''")
    assert page.locator(".chat .error").is_hidden()
    # Bob reports it; the note stays when the next message redraws the list.
    other.once("dialog", lambda dialog: dialog.accept("testing the report"))
    other.click(f".chat .messages li:has-text('hello from {alice}') button.who")
    other.click(".who-menu button:has-text('Report')")
    other.wait_for_selector(".chat li.note:has-text('was reported')")
    chat.fill("and a second message")
    chat.press("Enter")
    other.wait_for_selector(".chat .messages li:has-text('and a second message')")
    assert other.locator(".chat li.note:has-text('was reported')").count() == 1
    other.context.close()

    # A match against the bot with a 2-second clock: someone runs out of time (R13).
    table = page.evaluate(
        """async () => {
          const { post } = await import("/js/api.js");
          const answer = await post("/api/tables", {length: 1, bot: "beginner",
            clock: {base_s: 2, delay_s: 0, increment_s: 0}});
          return answer.table.id;
        }"""
    )
    page.goto(f"/#/table/{table}")
    page.click(".controls [data-action=roll]")
    wait_until(page, "window.gammon.view.state.status === 'finished'")
    final = state(page)
    assert final["result"]["reason"] == "time"
    winner = final["players"][final["result"]["winner"]]["name"]
    loser = final["players"][1 - final["result"]["winner"]]["name"]
    result = page.inner_text(".info .result strong")
    assert result == f"{winner} wins the match: {loser} ran out of time.", result
    assert not js_errors(page)
    page.context.close()


def test_a_bots_name_opens_its_page(server: ServerProcess, browser: Browser) -> None:
    """The bot's page (it answered "there is no player called 'gammon-beginner'"), on a
    phone as well: its level, depth, fixed rating and record, nothing wider than the screen."""
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(browser, server.url, width=width, height=height)
        page.goto("/#/player/gammon-beginner")
        page.wait_for_selector("#bot-level")
        assert page.inner_text("#profile-name").startswith("gammon-beginner")
        assert "beginner" in page.inner_text("#bot-level")
        assert "fixed" in page.inner_text(".rating-line")
        assert page.locator("#bot-record").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"bot-profile-{width}.png")
        assert not js_errors(page), js_errors(page)
        page.context.close()


def test_a_missing_page_player_or_analysis_says_so_with_a_way_back(
    server: ServerProcess, browser: Browser
) -> None:
    """An address that is no page said nothing and showed the lobby; a missing player or
    analysis was bare red text with no way on. Each says what is missing and links back."""
    page = new_page(browser, server.url, width=390, height=844)
    page.goto("/#/no-such-thing")
    page.wait_for_selector("#not-found")
    assert "no page at #/no-such-thing" in page.inner_text("#not-found")
    page.click("#back-to-lobby")
    page.wait_for_selector("#sit-and-go, #lobby, button[name=create]")
    assert page.locator("#not-found").count() == 0
    page.goto("/#/player/nobody-here")
    page.wait_for_selector("#profile-error")
    assert "nobody-here" in page.inner_text("#profile-error")
    assert page.locator(".way-back a[href='#/players']").count() == 1
    page.goto("/#/analysis/no-such-key")
    page.wait_for_selector("#review-error")
    assert page.locator("#back-to-lobby").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not js_errors(page), js_errors(page)
    page.context.close()
