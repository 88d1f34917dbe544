"""Moves a player can follow, and the player's settings, in a real browser (issue 16).

A guest plays the bot in Chromium on a desktop and a phone screen: the bot's play is seen
moving on the board (the flying checker's spot changes from frame to frame, and the board
it ends on is the server's), it is skipped by a click, a key or the next state, the dice of
both sides stay on the board until the next roll, the last play is replayed, a sound is
scheduled on the page's real AudioContext at the player's turn (and none once muted), and
every setting of the panel is saved and applied at once and after a reload: the speed,
the orientation, the colours, the pip counts, rolling by itself, one-click moves by the
higher and by the chosen die, confirming by itself, and undo before confirming.

The animation runs on the browser's own frames (requestAnimationFrame): the tests wait for
its events (started, ended), never for a time.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser_helpers import (
    become_guest,
    click_action,
    click_point,
    have_chromium,
    js_errors,
    launch,
    needs_chromium,
    new_page,
    play_move,
    point_xy,
    screenshot,
    state,
    turn,
    wait_for_change,
    wait_seq,
    wait_until,
)
from tests.server.client import ServerProcess

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page, sync_playwright

DESKTOP = (1280, 800)
PHONE = (390, 844)

#: Records every note the page starts on an AudioContext: the sound module's own oscillators,
#: seen from outside it (an init script runs before the page's modules).
AUDIO_PROBE = """
window.__notes = [];
window.__peaks = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (when) {
  window.__notes.push({ when, state: this.context.state, freq: this.frequency.value });
  return start.call(this, when);
};
const ramp = AudioParam.prototype.exponentialRampToValueAtTime;
AudioParam.prototype.exponentialRampToValueAtTime = function (value, time) {
  if (value > 0.001) window.__peaks.push(Math.round(value * 1000) / 1000);
  return ramp.call(this, value, time);
};
"""

#: Samples the flying checker's spot on the screen at every animation frame.
FRAME_SAMPLER = """() => {
  window.__flights = [];
  const look = () => {
    const el = document.querySelector('#board svg .checker.flying');
    if (el) {
      const r = el.getBoundingClientRect();
      window.__flights.push([Math.round(r.x * 10) / 10, Math.round(r.y * 10) / 10]);
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""

ANIM = "window.gammon.view.motion.anim"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def _page(browser: Browser, server: ServerProcess, size: tuple[int, int]) -> Page:
    page = new_page(browser, server.url, width=size[0], height=size[1])
    page.context.add_init_script(AUDIO_PROBE)
    return page


def _use_settings(page: Page, **values: Any) -> None:
    """Settings as a returning player has them (the panel's own test sets them by hand):
    stored in this browser and, when signed in, on the account, whose settings the page
    takes at every load (account-settings.js), read by the page as it loads."""
    page.evaluate(
        "values => localStorage.setItem('gammon.settings', JSON.stringify(values))", values
    )
    csrf = next((c["value"] for c in page.context.cookies() if c["name"] == "gammon_csrf"), "")
    if page.locator("#me").count():
        full = {**page.evaluate("JSON.parse(localStorage.getItem('gammon.settings'))")}
        saved = page.request.post(
            "/api/me/settings", data={"settings": full}, headers={"X-CSRF-Token": csrf}
        )
        assert saved.ok, saved.text()
    page.reload()
    page.wait_for_selector("#me, #signin")


def _bot_table(page: Page, length: int = 1) -> int:
    """A match against the beginner bot, created as the lobby's form does, and opened."""
    table = int(
        page.evaluate(
            """async (length) => {
              const { post } = await import("/js/api.js");
              const answer = await post("/api/tables", {length, bot: "beginner"});
              return answer.table.id;
            }""",
            length,
        )
    )
    page.goto(f"/#/table/{table}")
    # Not the Roll button: a page that rolls by itself may be past it already.
    wait_until(page, "(v => !!(v && v.state && v.state.status === 'playing'))(window.gammon.view)")
    page.wait_for_selector("#board svg .checker")
    return table


def _shown(page: Page) -> int:
    return int(page.evaluate(f"{ANIM}.shown"))


def _running(page: Page) -> bool:
    return bool(page.evaluate(f"{ANIM}.running"))


def _checkers_on_board(page: Page) -> dict[str, int]:
    """What the board draws: each point's checkers, the bars, the trays (no flying one)."""
    return dict(
        page.evaluate(
            """() => {
              const svg = document.querySelector('#board svg');
              const out = {};
              for (let p = 1; p <= 24; p++) {
                out[p] = svg.querySelectorAll(`[data-point="${p}"] .checker`).length;
              }
              out.bar = svg.querySelectorAll('.barpoint .checker').length;
              out.all = svg.querySelectorAll('.checker:not(.ghost)').length;
              out.flying = svg.querySelectorAll('.checker.flying').length;
              out.slabs = svg.querySelectorAll('.slab').length;
              return out;
            }"""
        )
    )


def _board_is_the_states(page: Page) -> None:
    """The board drawn is the server's board of the state shown: point by point."""
    board = state(page)["game"]["board"]
    drawn = _checkers_on_board(page)
    for p in range(1, 25):
        want = board["mine"][p - 1] + board["theirs"][24 - p]
        assert drawn[str(p)] == want, (p, drawn, board)
    assert drawn["bar"] == board["mine"][24] + board["waiting"][0]
    assert drawn["flying"] == 0
    on_board = sum(board["mine"]) + sum(board["theirs"]) + sum(board["waiting"])
    assert drawn["all"] == on_board, (drawn, board)
    assert drawn["slabs"] == sum(board["off"])


def _until_the_bot_has_played(page: Page, rng: random.Random, shown: int) -> None:
    """Play (rolls, quiet plays) until the page has shown more than ``shown`` plays of the bot.
    What was shown and what the player may do are read at once: a roll clicked just after
    the bot's play arrived would take the player past the position to look at."""
    while True:
        count, now, acts = page.evaluate(
            f"(v => [{ANIM}.shown, v.state.seq, v.busy === null ? v.state.game.actions : []])"
            "(window.gammon.view)"
        )
        if count > shown:
            return
        assert state(page)["status"] == "playing", "the game ended before the bot played"
        if "play" in acts:
            play_move(page, rng, drag=False)
        elif "roll" in acts:
            click_action(page, "roll")
            wait_for_change(page, (now, acts))
        elif "take" in acts:
            click_action(page, "take")
            wait_seq(page, now)
        else:
            wait_for_change(page, (now, acts))


#: The page's log entries of a kind made by its player (a JavaScript function of the kind).
MY_LOG = (
    "(kind => { const st = window.gammon.view.state;"
    " return st.game.log.filter(e => e.type === kind && e.side === st.you); })"
)


def _my_log(page: Page, kind: str) -> int:
    """How many entries of ``kind`` the player's log shows (this game's)."""
    return int(page.evaluate(f"({MY_LOG})({kind!r}).length"))


def _the_bots_last_play(page: Page) -> dict[str, Any]:
    st = state(page)
    moved = [e for e in st["game"]["log"] if e["type"] == "moved"]
    assert moved and moved[-1]["side"] != st["you"], moved[-1:]
    return dict(moved[-1])


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_bots_play_is_seen_moving_with_both_sides_dice_and_a_replay(
    server: ServerProcess, browser: Browser, size: tuple[int, int]
) -> None:
    rng = random.Random(16)
    page = _page(browser, server, size)
    become_guest(page)
    _use_settings(page, animation="slow")
    _bot_table(page)
    page.evaluate(FRAME_SAMPLER)
    _until_the_bot_has_played(page, rng, 0)
    # Seen moving: over several frames the flying checker was drawn at several spots.
    wait_until(page, f"!{ANIM}.running")
    spots = [tuple(s) for s in page.evaluate("window.__flights")]
    assert len(spots) >= 6, spots
    assert len(set(spots)) >= 4, spots
    _board_is_the_states(page)
    # The bot's dice stay on its side of the board, beside the player's Roll.
    played = _the_bots_last_play(page)
    if "roll" in turn(page)[1]:
        dice = "-".join(map(str, played["dice"]))
        spent = page.locator("#board svg .dice.spent.theirs")
        assert spent.get_attribute("aria-label") == f"dice played {dice}"
        assert page.locator("#board svg .roll-target").count() == 1
        screenshot(page, f"moves-both-dice-{size[0]}.png")
        # The player's roll replaces them: the player's dice on the player's side (unless
        # the roll has no legal play: the turn then passes at once and the bot rolls next).
        rolls, passes = _my_log(page, "rolled"), _my_log(page, "passed")
        click_action(page, "roll")
        wait_until(page, f"({MY_LOG})('rolled').length > {rolls}")
        if _my_log(page, "passed") == passes:
            wait_until(page, "!!document.querySelector('#board svg .dice.mine')")
            assert page.locator("#board svg .dice.spent").count() == 0
        else:  # the bot's next turn: replay from the board once it is shown and still
            wait_until(
                page,
                f"!{ANIM}.running && window.gammon.view.busy === null"
                " && window.gammon.view.state.game.actions.length > 0",
            )
    # Replay of the last play: from the position before it, moving, back to the board now.
    page.evaluate("window.__flights = []")
    before = _checkers_on_board(page)
    page.click("button[name=replay-last]")
    assert _running(page)
    screenshot(page, f"moves-mid-animation-{size[0]}.png")
    wait_until(page, f"!{ANIM}.running")
    assert len(set(tuple(s) for s in page.evaluate("window.__flights"))) >= 4
    assert _checkers_on_board(page) == before
    assert not js_errors(page)
    page.context.close()


def test_a_play_shown_moving_is_skipped_by_a_click_a_key_or_the_next_state(
    server: ServerProcess, browser: Browser
) -> None:
    rng = random.Random(61)
    page = _page(browser, server, DESKTOP)
    become_guest(page)
    _use_settings(page, animation="slow")
    table = _bot_table(page)
    # A click on the board finishes the play at once, on the server's board.
    _until_the_bot_has_played(page, rng, 0)
    wait_until(page, f"!{ANIM}.running")
    skipped = int(page.evaluate(f"{ANIM}.skipped"))
    page.click("button[name=replay-last]")
    assert _running(page)
    x, y = point_xy(page, 12)
    page.mouse.click(x, y)
    assert not _running(page)
    assert page.evaluate(f"{ANIM}.skipped") == skipped + 1
    _board_is_the_states(page)
    # So does a key.
    page.click("button[name=replay-last]")
    assert _running(page)
    page.keyboard.press("Escape")
    assert not _running(page)
    assert page.evaluate(f"{ANIM}.skipped") == skipped + 2
    _board_is_the_states(page)

    # A spectator watches with slow moves; the player has them off and rolls by itself, so
    # the player's roll reaches the spectator while the bot's play is still moving there.
    watcher = _page(browser, server, DESKTOP)
    watcher.goto("/#/")
    _use_settings(watcher, animation="slow")
    watcher.goto(f"/#/table/{table}")
    watcher.wait_for_selector(".status:has-text('Watching')")
    _use_settings(page, animation="off", autoRoll=True)
    page.reload()
    page.wait_for_selector("#board svg .checker")
    # The plays the watcher has shown and finished: one still moving now (the bot's, while
    # the page reloaded) may be the one the next state skips.
    watched = int(watcher.evaluate(f"{ANIM}.shown - ({ANIM}.running ? 1 : 0)"))
    while int(watcher.evaluate(f"{ANIM}.skipped")) == 0:
        assert state(page)["status"] == "playing", "the game ended before a skip was seen"
        now, acts = turn(page)
        if "play" in acts:
            play_move(page, rng, drag=False)
        else:
            wait_for_change(page, (now, acts))
    assert _shown(watcher) > watched
    wait_until(watcher, f"!{ANIM}.running")
    # Nothing lost or drawn twice: once the states stop, the board is the last state's.
    wait_until(
        page,
        "(s => s.status !== 'playing' || s.game.actions.includes('play'))"
        "(window.gammon.view.state)",
    )
    wait_until(watcher, f"window.gammon.view.state.seq === {state(page)['seq']}")
    _board_is_the_states(watcher)
    assert not js_errors(page) and not js_errors(watcher)
    watcher.context.close()
    page.context.close()


def test_a_sound_is_scheduled_at_your_turn_and_none_once_muted(
    server: ServerProcess, browser: Browser
) -> None:
    rng = random.Random(5)
    page = _page(browser, server, PHONE)
    become_guest(page)
    _use_settings(page, animation="fast")
    _bot_table(page)
    assert page.inner_text("button[name=mute]") == "Sound on"
    _until_the_bot_has_played(page, rng, 0)
    wait_until(page, f"!{ANIM}.running")
    # The bot played: the player's turn, and a cue of notes on a running AudioContext.
    wait_until(page, "window.__notes.length >= 2")
    notes = page.evaluate("window.__notes")
    assert all(n["state"] == "running" for n in notes), notes
    assert [n["freq"] for n in notes[:2]] == [660, 880]  # the turn's rising pair
    assert page.evaluate("window.__peaks")[:2] == [0.15, 0.15]  # on by default, quietly
    # Muted from the table: the next turn is silent, and the switch holds after a reload.
    page.click("button[name=mute]")
    assert page.inner_text("button[name=mute]") == "Sound off"
    assert page.get_attribute("button[name=mute]", "aria-pressed") == "true"
    heard = len(page.evaluate("window.__notes"))
    _until_the_bot_has_played(page, rng, _shown(page))
    wait_until(page, f"!{ANIM}.running")
    assert len(page.evaluate("window.__notes")) == heard
    page.reload()
    page.wait_for_selector("button[name=mute]")
    assert page.inner_text("button[name=mute]") == "Sound off"
    # The panel's Try plays at the volume chosen, muted or not.
    page.click("button[name=table-settings]")
    page.locator("dialog#settings input[name=volume]").fill("60")
    page.click("dialog#settings button[name=test-sound]")
    wait_until(page, "window.__peaks.includes(0.3)")
    assert not js_errors(page)
    page.context.close()


def _stored(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("JSON.parse(localStorage.getItem('gammon.settings') || '{}')"))


def _home_board_left(page: Page) -> bool:
    """Whether point 1 is drawn left of point 12 (read at once: the board may be redrawn)."""
    return bool(
        page.evaluate(
            """() => {
              const x = (p) => document.querySelector(`#board svg [data-point="${p}"] .hit`)
                .getBoundingClientRect().x;
              return x(1) < x(12);
            }"""
        )
    )


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_setting_is_saved_and_applied_at_once_and_after_a_reload(
    server: ServerProcess, browser: Browser, size: tuple[int, int]
) -> None:
    page = _page(browser, server, size)
    become_guest(page)
    # From the header, on the lobby: the defaults, then every one changed.
    page.click("header button[name=settings]")
    panel = page.locator("dialog#settings")
    panel.wait_for()
    assert panel.locator("input[name=sound]").is_checked()
    assert panel.locator("select[name=animation]").input_value() == "normal"
    assert panel.locator("input[name=volume]").input_value() == "30"
    screenshot(page, f"settings-panel-{size[0]}.png")
    panel.locator("input[name=sound]").uncheck()
    panel.locator("input[name=volume]").fill("60")
    panel.locator("select[name=animation]").select_option("fast")
    panel.locator("select[name=homeBoard]").select_option("left")
    panel.locator("select[name=colours]").select_option("green")
    panel.locator("input[name=pips]").uncheck()
    for name in ("autoRoll", "fastEntry", "autoConfirm"):
        panel.locator(f"input[name={name}]").check()
    want = {
        "sound": False, "volume": 0.6, "animation": "fast", "homeBoard": "left",
        "colours": "green", "pips": False, "autoRoll": True, "fastEntry": True,
        "autoConfirm": True, "language": "",  # the header's switch sets the language
    }  # fmt: skip
    assert _stored(page) == want
    root = "document.documentElement.dataset"
    assert page.evaluate(f"[{root}.boardColours, {root}.pips]") == ["green", "off"]
    page.click("dialog#settings button[name=close-settings]")
    page.locator("dialog#settings").wait_for(state="detached")

    # At a table: mirrored, green, no pip counts, muted, and the opening roll thrown by itself.
    _bot_table(page)
    assert _home_board_left(page)
    felt = page.evaluate("getComputedStyle(document.querySelector('#board svg .felt')).fill")
    assert felt == "rgb(63, 122, 74)", felt
    pips = "getComputedStyle(document.querySelector('.player .pips')).visibility"
    assert page.evaluate(pips) == "hidden"  # read at once: the players' rows are redrawn
    assert page.inner_text("button[name=mute]") == "Sound off"
    wait_until(page, "window.gammon.view.state.game.log.some(e => e.type === 'opening')")
    screenshot(page, f"settings-applied-{size[0]}.png")
    # A 1-point match's cube is dead: the page rolls by itself at the player's turn too.
    mine = "(v => v.state.game.log.some(e => e.type === 'rolled' && e.side === v.state.you))"
    clicked = False
    while not (clicked and page.evaluate(f"{mine}(window.gammon.view)")):
        assert state(page)["status"] == "playing", "the game ended before the player's roll"
        now, acts = turn(page)
        game = state(page)["game"]
        sources = _single_moves(game, max(game["dice"])) if "play" in acts else []
        if sources and not clicked and not game["board"]["mine"][24]:
            # A click on the mirrored board finds its checker: it moves by the higher die.
            click_point(page, sources[0])
            moved = page.evaluate("(v => v.input ? v.input.steps.length : -1)(window.gammon.view)")
            assert moved != 0, "the click on the mirrored board moved nothing"
            clicked = True
        elif "play" in acts:
            _play_from_the_list(page)
        else:  # never a click on Roll: a roll left to the player would never change
            wait_for_change(page, (now, acts))

    # After a reload: all the same, and the table's own button opens the same values.
    page.reload()
    page.wait_for_selector("#board svg .checker")
    assert _stored(page) == want
    assert _home_board_left(page)
    assert page.evaluate(f"[{root}.boardColours, {root}.pips]") == ["green", "off"]
    page.click("button[name=table-settings]")
    panel = page.locator("dialog#settings")
    assert not panel.locator("input[name=sound]").is_checked()
    assert panel.locator("input[name=volume]").input_value() == "60"
    assert panel.locator("select[name=animation]").input_value() == "fast"
    assert panel.locator("select[name=homeBoard]").input_value() == "left"
    assert panel.locator("select[name=colours]").input_value() == "green"
    assert not panel.locator("input[name=pips]").is_checked()
    for name in ("autoRoll", "fastEntry", "autoConfirm"):
        assert panel.locator(f"input[name={name}]").is_checked()
    # Back to the home board on the right: the board turns at once.
    panel.locator("select[name=homeBoard]").select_option("right")
    page.keyboard.press("Escape")
    assert not _home_board_left(page)
    assert not js_errors(page)
    page.context.close()


def _play_from_the_list(page: Page) -> None:
    """Play the list's first legal play and confirm it (clicks on checkers move by a die)."""
    before = state(page)["seq"]
    if not page.evaluate("document.querySelector('details.playlist').open"):
        page.click("details.playlist summary")
    page.click("button[name=put-play]")
    confirm = page.locator(".controls [data-action=confirm]")
    if confirm.count() and confirm.is_enabled():
        confirm.click()
    wait_seq(page, before)


def _steps(page: Page) -> list[list[int]]:
    return list(page.evaluate("window.gammon.view.input.steps.map(s => [s.from, s.to])"))


def _single_moves(game: dict[str, Any], die: int) -> list[int]:
    """The points a checker leaves by `die` alone in some legal play (not bearing off)."""
    mine = game["board"]["mine"]
    return sorted(
        {
            move[0]
            for play in game["legal_plays"]
            for move in play["moves"]
            if move[1] != 0 and move[0] - move[1] == die and mine[move[0] - 1] > 0
        }
    )


def test_one_click_moves_by_the_higher_die_and_by_the_chosen_die(
    server: ServerProcess, browser: Browser
) -> None:
    page = _page(browser, server, PHONE)
    become_guest(page)
    _use_settings(page, fastEntry=True, animation="off")
    _bot_table(page, length=3)
    checked = False
    while not checked:
        assert state(page)["status"] == "playing", "no turn to try one-click moves on"
        now, acts = turn(page)
        if "play" not in acts:
            if "roll" in acts:
                click_action(page, "roll")
            elif "take" in acts:
                click_action(page, "take")
            wait_for_change(page, (now, acts))
            continue
        game = state(page)["game"]
        high, low = max(game["dice"]), min(game["dice"])
        by_high, by_low = _single_moves(game, high), _single_moves(game, low)
        if high == low or game["board"]["mine"][24] or not by_high or not by_low:
            _play_from_the_list(page)
            continue
        # One tap on a checker: it moves by the higher die.
        click_point(page, by_high[0])
        assert _steps(page) == [[by_high[0], by_high[0] - high]]
        click_action(page, "undo")
        assert _steps(page) == []
        # A tap on the lower die chooses it: the next tap moves by it.
        index = game["dice"].index(low)
        page.locator(f"#board svg .dice [data-die='{index}']").click()
        assert (
            page.locator(f"#board svg .dice [data-die='{index}']").get_attribute("class")
            == "die chosen"
        )
        click_point(page, by_low[0])
        assert _steps(page) == [[by_low[0], by_low[0] - low]]
        screenshot(page, "moves-one-click-390.png")
        click_action(page, "undo")
        _play_from_the_list(page)
        checked = True
    assert not js_errors(page)
    page.context.close()


def test_a_finished_play_confirms_itself_and_undo_works_until_then(
    server: ServerProcess, browser: Browser
) -> None:
    page = _page(browser, server, DESKTOP)
    become_guest(page)
    _use_settings(page, autoConfirm=True, animation="off")
    _bot_table(page, length=3)
    confirmed_by_itself = undone_when_complete = False
    while not (confirmed_by_itself and undone_when_complete):
        assert state(page)["status"] == "playing", "no turn to try confirming on"
        now, acts = turn(page)
        if "play" not in acts:
            if "roll" in acts:
                click_action(page, "roll")
            elif "take" in acts:
                click_action(page, "take")
            wait_for_change(page, (now, acts))
            continue
        game = state(page)["game"]
        plays = [p for p in game["legal_plays"] if len(p["moves"]) >= 2]
        if not plays:
            _play_from_the_list(page)
            continue
        play = plays[0]
        s1, t1, _hit = play["moves"][0]
        # The first checker, taken back by the button and by the key: the board as before.
        for undo in ("button", "key"):
            click_point(page, s1)
            click_point(page, t1)
            assert _steps(page) == [[s1, t1]]
            if undo == "button":
                click_action(page, "undo")
            else:
                page.keyboard.press("u")
            assert _steps(page) == []
            _board_is_the_states(page)
        if not confirmed_by_itself:
            # Every checker of the play: it goes to the server without a Confirm.
            for source, target, _hit in play["moves"]:
                click_point(page, source)
                click_point(page, target)
            wait_seq(page, now)
            mine = [
                e for e in state(page)["game"]["log"]
                if e["type"] == "moved" and e["side"] == state(page)["you"]
            ]  # fmt: skip
            assert mine[-1]["play"] == play["play"]
            confirmed_by_itself = True
            # Confirming by itself off again, from the table's panel: at once.
            page.click("button[name=table-settings]")
            page.locator("dialog#settings input[name=autoConfirm]").uncheck()
            page.click("dialog#settings button[name=close-settings]")
            continue
        # Without it, a complete play waits for Confirm, and Undo still takes a checker back.
        for source, target, _hit in play["moves"]:
            click_point(page, source)
            click_point(page, target)
        confirm = page.locator(".controls [data-action=confirm]")
        assert confirm.is_enabled() and confirm.inner_text() == f"Confirm {play['play']}"
        click_action(page, "undo")
        assert not confirm.is_enabled()
        assert len(_steps(page)) == len(play["moves"]) - 1
        source, target, _hit = play["moves"][-1]
        click_point(page, source)
        click_point(page, target)
        confirm.click()
        wait_seq(page, now)
        undone_when_complete = True
    assert not js_errors(page)
    page.context.close()


def test_a_persons_play_moves_on_the_other_screen_and_each_sides_dice_stay(
    server: ServerProcess, browser: Browser
) -> None:
    """Two people: the play of one is seen moving on the other's screen (a phone), and
    each side's dice stay on both boards until the other side throws."""
    rng = random.Random(1616)
    pages = [_page(browser, server, DESKTOP), _page(browser, server, PHONE)]
    for page in pages:
        become_guest(page)
        _use_settings(page, animation="slow")
    table = int(
        pages[0].evaluate(
            """async () => {
              const { post } = await import("/js/api.js");
              return (await post("/api/tables", {length: 1})).table.id;
            }"""
        )
    )
    pages[0].goto(f"/#/table/{table}")
    pages[1].goto(f"/#/table/{table}?join")
    for page in pages:
        wait_until(
            page, "(v => !!(v && v.state && v.state.status === 'playing'))(window.gammon.view)"
        )
    pages[0].click(".controls [data-action=roll]")  # the opening roll
    wait_until(pages[0], "window.gammon.view.state.game.phase === 'move'")
    side = state(pages[0])["game"]["turn"]
    mover = next(p for p in pages if state(p)["you"] == side)
    other = next(p for p in pages if p is not mover)
    wait_until(other, "window.gammon.view.state.game.phase === 'move'")
    shown = _shown(other)
    other.evaluate(FRAME_SAMPLER)
    play_move(mover, rng, drag=False)
    played = "-".join(map(str, state(mover)["game"]["log"][-1]["dice"]))
    # The mover's dice stay on the mover's own board while the other has not thrown.
    assert mover.locator("#board svg .dice.spent.mine").get_attribute("aria-label") == (
        f"dice played {played}"
    )
    # On the other screen the play moves, then its dice stay beside the Roll.
    wait_until(other, f"{ANIM}.shown > {shown}")
    wait_until(other, f"!{ANIM}.running")
    assert len(set(tuple(s) for s in other.evaluate("window.__flights"))) >= 4
    _board_is_the_states(other)
    assert other.locator("#board svg .dice.spent.theirs").get_attribute("aria-label") == (
        f"dice played {played}"
    )
    assert other.locator("#board svg .roll-target").count() == 1
    width = (other.viewport_size or {"width": 0})["width"]
    screenshot(other, f"moves-person-{width}.png")
    # The other throws: on the mover's board its dice replace the mover's.
    now = state(mover)["seq"]
    other.click(".controls [data-action=roll]")
    wait_seq(mover, now)
    assert mover.locator("#board svg .dice.spent").count() == 0
    assert mover.locator("#board svg .dice.theirs").count() == 1
    assert not js_errors(mover) and not js_errors(other)
    for page in pages:
        page.context.close()
