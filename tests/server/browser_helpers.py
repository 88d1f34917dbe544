"""Driving the browser client like a person: Debian's chromium through Playwright.

The pages are the real client (gammon/server/static/) talking to a real server
on loopback. A test reads the table state the page holds (``window.gammon``) only
to choose what a person would choose; every action goes through the page's own
buttons, clicks and drags.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests import waiting

if TYPE_CHECKING:  # imported for real only where chromium is installed (test_browser.py)
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TIMEOUT_MS = 45_000


_NAMES = itertools.count(1)


def fresh_name(prefix: str) -> str:
    """An account name no other browser test of this run has taken: the process and a
    count, not chance. Names are 3-20 characters (gammon.server.auth.check_name): keep
    ``prefix`` a letter and at most 10 more."""
    return f"{prefix}{os.getpid()}b{next(_NAMES)}"


def have_chromium() -> bool:
    return CHROMIUM.exists() or shutil.which("chromium") is not None


#: Every browser test module's mark: skipped, saying why, where Debian's chromium is missing.
needs_chromium = pytest.mark.skipif(
    not have_chromium(),
    reason="no chromium at /usr/bin/chromium (apt-get install chromium): browser tests skipped",
)


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")),
        args=CHROMIUM_ARGS,
    )


def new_page(
    browser: Browser,
    base_url: str,
    *,
    width: int = 1280,
    height: int = 800,
    newcomer: bool = False,
    locale: str | None = None,
) -> Page:
    """A page in a fresh browser context; ``newcomer``: a browser that has never been here
    (the lobby's table form closed behind its button); ``locale``: the language the browser
    speaks (its Accept-Language), Playwright's default (en-US) if not given."""
    options: dict[str, Any] = {"locale": locale} if locale else {}
    context: BrowserContext = browser.new_context(
        base_url=base_url, viewport={"width": width, "height": height}, **options
    )
    context.set_default_timeout(TIMEOUT_MS)
    if not newcomer:
        # A returning player's browser: the lobby's table form was left open (lobby.js
        # remembers it), so the tests that create tables find the form as they always did.
        context.add_init_script("localStorage.setItem('gammon.lobby.create', 'open')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    page.js_errors = errors  # type: ignore[attr-defined]
    return page


def js_errors(page: Page) -> list[str]:
    """Uncaught exceptions and console errors (an HTTP error answer or a dropped socket is fine)."""
    return [
        e
        for e in page.js_errors  # type: ignore[attr-defined]
        if "WebSocket" not in e and "Failed to load resource" not in e
    ]


# -- accounts --------------------------------------------------------------------------------


def sign_up(page: Page, name: str, password: str = "correct horse battery") -> None:
    page.goto("/#/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button[name=signup]")
    page.wait_for_selector(f"#me:has-text('{name}')")


def log_in(page: Page, name: str, password: str = "correct horse battery") -> None:
    page.goto("/#/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button[name=login]")
    page.wait_for_selector(f"#me:has-text('{name}')")


def log_out(page: Page) -> None:
    page.click("button[name=logout]")
    page.wait_for_selector("#signin")


# -- reading the page's table ------------------------------------------------------------------


def state(page: Page) -> dict[str, Any]:
    value = page.evaluate("window.gammon.view && window.gammon.view.state")
    assert isinstance(value, dict), "the page shows no table state"
    return value


def seq(page: Page) -> int:
    return int(page.evaluate("window.gammon.view.state ? window.gammon.view.state.seq : -1"))


def wait_until(page: Page, expression: str, timeout_ms: int = TIMEOUT_MS) -> None:
    """Poll a JavaScript expression until it is true (tests/waiting.py: the page's state is
    the browser's, and the page has no event to await for it).

    Not ``page.wait_for_function``: Playwright turns its predicate into a function with
    ``eval`` inside the page, which the pages' Content-Security-Policy (no
    ``unsafe-eval``) rightly forbids; ``page.evaluate`` goes through the DevTools
    protocol, which the policy does not govern.
    """
    waiting.wait_until(
        lambda: page.evaluate(expression), timeout=timeout_ms / 1000, what=expression
    )


def wait_seq(page: Page, above: int) -> None:
    try:
        wait_until(
            page,
            "window.gammon.view && window.gammon.view.state && "
            f"window.gammon.view.state.seq > {int(above)}",
        )
    except AssertionError as error:
        # Say what the stuck page holds and whether its socket is up (a run at a load of
        # 19 once saw a page stay a seq behind for 45 s).
        socket = page.evaluate(
            "(v => v && v.live ? {open: !!(v.live.ws && v.live.ws.readyState === 1),"
            " notice: (document.getElementById('notice') || {}).textContent}"
            " : null)(window.gammon.view)"
        )
        raise AssertionError(
            f"{error}; the page shows {_what_page_shows(page)}; its socket {socket}"
        ) from None


def actions(page: Page) -> list[str]:
    game = state(page).get("game")
    return list(game["actions"]) if game else []


def turn(page: Page) -> tuple[int, list[str]]:
    """The seq of the state the page shows and what its player may do there, read at once.

    Read with ``seq(page)`` and then ``actions(page)``, the two may come from different
    states (one can arrive in between): a click made on the later state's actions and then
    ``wait_seq`` on the earlier seq returns before the click's answer, so the next look
    sees the same actions again and clicks a control that is disabled while its action is
    on its way, and gone once the answer comes. While an action is on its way
    (``view.busy``) the actions are empty: there is nothing to click until its answer.
    """
    value = page.evaluate(
        "(v => v && v.state ? [v.state.seq, v.busy === null && v.state.game"
        " ? v.state.game.actions : []] : [-1, []])(window.gammon.view)"
    )
    return int(value[0]), list(value[1])


def wait_for_change(page: Page, looked: tuple[int, list[str]]) -> None:
    """Wait until the page shows other than ``looked`` (what :func:`turn` read): where its
    player has nothing to do, the next state (the opponent's or the bot's move, an automatic
    pass) or the answer to an action on its way; or until the table is no longer being
    played, when nothing more will come (the caller read the status before ``looked``, so
    ``looked`` may already be the last state: the bot's winning play)."""

    def changed() -> bool:
        return turn(page) != looked or not _playing(page)

    try:
        waiting.wait_until(changed, what=f"a change from {looked}")
    except AssertionError as error:
        raise AssertionError(f"{error}; the page shows {_what_page_shows(page)}") from None


def _playing(page: Page) -> bool:
    return bool(
        page.evaluate("(v => !!(v && v.state && v.state.status === 'playing'))(window.gammon.view)")
    )


def _what_page_shows(page: Page) -> Any:
    """What a stuck page's view holds: enough to tell a held bot from a lost answer."""
    return page.evaluate(
        "(v => v && v.state ? {status: v.state.status, seq: v.state.seq, you: v.state.you,"
        " busy: v.busy, turn: v.state.game && v.state.game.turn,"
        " actions: v.state.game && v.state.game.actions,"
        " log: v.state.game && v.state.game.log.slice(-4),"
        " tutor: (document.querySelector('#tutor') || {}).innerText,"
        " error: (document.querySelector('.error') || {}).innerText} : null)(window.gammon.view)"
    )


def click_action(page: Page, action: str) -> None:
    page.click(f".controls [data-action='{action}']")


# -- moving checkers ---------------------------------------------------------------------------


def point_xy(page: Page, point: int) -> tuple[float, float]:
    """Screen coordinates of a point of the board (25: the viewer's bar, 0: their tray), the
    whole board scrolled into view first, as a player would: the mouse clicks where it is
    told, and on a phone Playwright's own clicks on the hints and Confirm, below the board,
    scroll the page (once 438 px at 390x844, leaving the top points above the screen)."""
    page.eval_on_selector("#board svg", "el => el.scrollIntoView({block: 'nearest'})")
    box = page.locator(f"#board svg [data-point='{point}'] .hit").bounding_box()
    assert box is not None, f"point {point} is not on the board"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_point(page: Page, point: int) -> tuple[float, float]:
    """Click a point of the board where it is on the screen; the spot clicked."""
    x, y = point_xy(page, point)
    page.mouse.click(x, y)
    return x, y


def _what_is_at(page: Page, point: int, x: float, y: float) -> Any:
    """For a click that did nothing: what the page has at the spot clicked now, where the
    point is now and how far the page is scrolled (a click can land off the board when the
    page moved, or on something over it)."""
    return page.evaluate(
        """([p, x, y]) => {
          const el = document.elementFromPoint(x, y);
          const hit = document.querySelector(`#board svg [data-point='${p}'] .hit`);
          const r = hit && hit.getBoundingClientRect();
          return {at: el && (el.outerHTML || '').slice(0, 120),
                  box: r && [r.x, r.y, r.width, r.height],
                  scroll: [window.scrollX, window.scrollY], viewport: [innerWidth, innerHeight],
                  busy: window.gammon.view.busy, lost: window.gammon.view.lost,
                  running: window.gammon.view.motion.anim.running,
                  shown: window.gammon.view.motion.anim.shown,
                  skipped: window.gammon.view.motion.anim.skipped};
        }""",
        [point, x, y],
    )


def drag_point(page: Page, source: int, target: int) -> None:
    x0, y0 = point_xy(page, source)
    x1, y1 = point_xy(page, target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()


def choose_play(plays: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A play a cautious person might choose: no hits when possible, so games stay short."""
    quiet = [p for p in plays if not any(hit for _, _, hit in p["moves"])]
    return rng.choice(quiet or plays)


def destinations(page: Page) -> list[int]:
    return [
        int(v)
        for v in page.eval_on_selector_all(
            "#board svg .point.dest", "els => els.map(e => e.dataset.point)"
        )
    ]


def settled(page: Page) -> None:
    """Wait until no play is being shown moving (table-motion.js): while one is, the first
    press on the board only finishes it (a player's click there is a skip, not a move)."""
    wait_until(
        page,
        "(v => !v || !v.motion || !v.motion.anim || !v.motion.anim.running)(window.gammon.view)",
    )


def play_move(page: Page, rng: random.Random, *, drag: bool) -> str:
    """Play the dice on the board, die by die, by clicks or drags; confirm; return the play."""
    settled(page)
    before = state(page)
    play = choose_play(before["game"]["legal_plays"], rng)
    for source, target, _hit in play["moves"]:
        if drag:
            drag_point(page, source, target)
        else:
            x, y = click_point(page, source)
            assert target in destinations(page), (
                play["play"],
                source,
                target,
                (x, y),
                _moves_made(page),
                _what_is_at(page, source, x, y),
            )
            click_point(page, target)
    confirm = page.locator(".controls [data-action=confirm]")
    assert confirm.is_enabled(), f"the moves of {play['play']} did not make a play"
    text = confirm.inner_text()
    confirm.click()
    wait_seq(page, before["seq"])
    return text


def _moves_made(page: Page) -> Any:
    return page.evaluate(
        "(v => v.input && {steps: v.input.steps, dice: v.input.dice, selected: v.selected})"
        "(window.gammon.view)"
    )


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path


def become_guest(page: Page) -> str:
    """Play as a guest from the lobby's header; the guest's name."""
    page.goto("/#/")
    page.click("header button[name=guest]")
    page.wait_for_selector("#me:has-text('Guest-')")
    return page.inner_text("#me").split()[0]


def page_width(page: Page) -> int:
    """How wide the page's content is: more than the viewport means a sideways scroll."""
    return int(page.evaluate("document.documentElement.scrollWidth"))


def play_list(page: Page) -> tuple[str, list[str]]:
    """The legal-play list's selected play and its choices (opening the list if closed)."""
    if not page.evaluate("document.querySelector('details.playlist').open"):
        page.click("details.playlist summary")
    select = page.locator("select[name=legal-play]")
    options = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    return select.input_value(), [str(o) for o in options]


#: Every element's box against the screen: those wider than it or past its edges. The
#: content of a box that scrolls sideways of its own (a wide table in .table-scroll) is
#: checked as that box is; the skip link and screen-reader-only text are left out.
_STICKING_OUT = """() => {
  const width = window.innerWidth;
  const inScroller = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") {
        return p !== document.body && p !== document.documentElement;
      }
    }
    return false;
  };
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest(".skip, .sr-only")) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || inScroller(el)) continue;
    if (r.width > width + 0.5 || r.right > width + 0.5 || r.left < -0.5) {
      const name = el.className.baseVal ?? el.className;
      const at = `${Math.round(r.left)}..${Math.round(r.right)}`;
      out.push(`${el.tagName.toLowerCase()}#${el.id}.${name} ${at}`);
    }
  }
  return {scrollWidth: document.scrollingElement.scrollWidth, width, out: out.slice(0, 10)};
}"""


def sticking_out(page: Page) -> dict[str, Any]:
    """``{"scrollWidth", "width", "out"}``: the page's width, the screen's, and up to ten
    elements wider than the screen or past its edges (a phone's layout has none)."""
    return dict(page.evaluate(_STICKING_OUT))


#: Resolves once the page has laid itself out and drawn twice (after a resize or a render):
#: the frames, not a guess at how long that takes.
LAID_OUT = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
