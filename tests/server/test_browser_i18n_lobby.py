"""The lobby, the account pages and the site's general pages in the player's language, in a
real browser (static/js/i18n.js and the catalogs): a browser that asks for Finnish gets the
page in Finnish from its first byte (``lang``, ``Content-Language``); the header's switch
turns it into another language at once and for good; an account's choice follows it to
another device; and in Finnish, Swedish, Norwegian and Dutch no English word of the
interface is left on the lobby, the sign-in page, the players, a player's page, the rules,
the fair dice and the settings, and nothing is wider than a phone's 390 px.

Needs Debian's chromium, as test_browser.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.server.browser_helpers import (
    LAID_OUT,
    fresh_name,
    have_chromium,
    js_errors,
    log_in,
    needs_chromium,
    new_page,
    page_width,
    screenshot,
    sign_up,
    sticking_out,
    wait_until,
)
from tests.server.client import ServerProcess

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page

PASSWORD = "correct horse battery"
LOCALES = {"fi": "fi-FI", "sv": "sv-SE", "nb": "nb-NO", "nl": "nl-NL"}
#: The lobby's play panel heading in each language (what a test waits for).
PLAY = {"en": "Play", "fi": "Pelaa", "sv": "Spela", "nb": "Spill", "nl": "Spelen"}

#: Words that are the same in every language: backgammon's kept terms (docs/TRANSLATING.md),
#: names of things, and the languages' own names in the switch.
KEPT = {
    "gammon", "backgammon", "crawford", "jacoby", "beaver", "beavers", "ply", "sit", "go",
    "guest", "subtlecrypto", "javascript", "english", "suomi", "svenska", "norsk", "bokmål",
    "nederlands", "lobby",
    "mars",  # the tavla's word for a gammon (the rules, R14), a name in every language
}  # fmt: skip
#: Words a language writes as English does (its own word, not English left over): the
#: glossary's "match" in Swedish and Dutch and "blot" in Norwegian and Dutch, "rating" as
#: lichess's Swedish, Norwegian and Dutch say it, "seed" and "commitment" as the Dutch
#: fair-dice pages say them (the loan words of Dutch cryptography), and plain cognates.
COGNATES = {
    "fi": set(),
    "sv": {"variant", "match", "rating", "normal", "start"},
    "nb": {"variant", "rating", "normal", "start", "blot"},
    "nl": {"variant", "match", "matches", "rating", "volume", "open", "account", "blot", "seed",
           "commitment"},
}

#: The page's words: every visible text node (a select's options when the select is
#: visible), the aria-labels, titles and placeholders of visible elements, and the page's
#: title; inside `root`, leaving out what `skip` matches (a document's body, data).
_WORDS = """([root, skip]) => {
  const out = [];
  const visible = (el) => !!el && el.checkVisibility({ visibilityProperty: true });
  const left = (el) => skip && el.closest(skip) && !el.closest(".way-back");
  const top = document.querySelector(root);
  if (!top) return out;
  const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    const el = n.parentElement;
    if (!text || !el || el.closest("script, style, noscript") || left(el)) continue;
    const option = el.closest("option");
    if (option ? visible(option.closest("select")) : visible(el)) out.push(text);
  }
  for (const el of top.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!visible(el) || left(el)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = el.getAttribute(name);
      if (value) out.push(value.trim());
    }
  }
  if (root === "body") out.push(document.title);
  return out;
}"""


def _context_page(
    browser: Browser, server: ServerProcess, locale: str, width: int = 1280, height: int = 800
) -> Page:
    """A page in a fresh context whose browser speaks `locale` (its Accept-Language), with
    the lobby's table form open (as a returning player left it) so that its words show."""
    return new_page(browser, server.url, width=width, height=height, locale=locale)


def _lobby_in(page: Page, lang: str) -> None:
    page.wait_for_selector(f"#play-title:text-is('{PLAY[lang]}')")
    wait_until(page, f"document.documentElement.lang === '{lang}'")


def test_a_finnish_browser_gets_the_lobby_in_finnish(
    browser: Browser, server: ServerProcess
) -> None:
    page = _context_page(browser, server, "fi-FI")
    response = page.goto("/")
    assert response is not None
    assert response.headers.get("content-language") == "fi"
    html = response.text()
    assert '<html lang="fi">' in html
    assert ">Siirry sisältöön<" in html and ">Ladataan…<" in html
    assert "JavaScriptin" in html and "Skip to content" not in html
    _lobby_in(page, "fi")
    page.click("header button[name=guest]")
    page.wait_for_selector("#me:has-text('Guest-')")
    assert page.inner_text("#me").endswith("(vieras)")
    assert page.inner_text("#tables-title") == "Pöydät"
    assert page.inner_text("#play-bot") == "Pelaa tietokonetta vastaan"
    assert page.get_attribute("a.skip", "href") == "#main"
    assert page.title() == "gammon"
    assert js_errors(page) == []
    page.context.close()


def test_the_language_switch_turns_the_page_at_once_and_for_good(
    browser: Browser, server: ServerProcess
) -> None:
    page = _context_page(browser, server, "en-US")
    page.goto("/#/")
    _lobby_in(page, "en")
    page.select_option("select#language", "sv")
    _lobby_in(page, "sv")
    assert page.inner_text("#tables-title") == "Bord"
    assert page.inner_text("#signin") == "Logga in"
    assert page.input_value("select#language") == "sv"
    page.reload()
    _lobby_in(page, "sv")
    assert (page.text_content("a.skip") or "").strip() == "Hoppa till innehållet"
    page.goto("/#/players")
    page.wait_for_selector("h2:text-is('Spelare')")
    assert page.title() == "Spelare · gammon"
    # Back to the browser's own language.
    page.select_option("select#language", "")
    page.wait_for_selector("h2:text-is('Players')")
    assert js_errors(page) == []
    page.context.close()


def test_an_accounts_language_follows_it_to_another_browser(
    browser: Browser, server: ServerProcess
) -> None:
    name = fresh_name("kieli")
    desk = new_page(browser, server.url)
    sign_up(desk, name)
    desk.select_option("select#language", "nl")
    desk.wait_for_selector("#play-title:text-is('Spelen')")
    wait_until(
        desk,
        "fetch('/api/me/settings').then(r => r.json()).then(b => b.settings.language === 'nl')",
    )
    phone = new_page(browser, server.url, width=390, height=844)
    phone.goto("/#/")
    _lobby_in(phone, "en")
    log_in(phone, name)
    phone.goto("/#/")
    _lobby_in(phone, "nl")
    assert phone.inner_text("button[name=logout]") == "Uitloggen"
    phone.reload()
    _lobby_in(phone, "nl")
    assert js_errors(desk) == [] and js_errors(phone) == []
    desk.context.close()
    phone.context.close()


# -- no English left, nothing too wide -----------------------------------------------------


def _info(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("fetch('/api/info').then(r => r.json())"))


def _names(info: dict[str, Any], account: str) -> list[str]:
    """What the server names (the variants, the computer's levels and its words for them)
    and the account's name: the same in every language, or not ours to translate here."""
    names = [v["name"] for v in info.get("variants", [])]
    for level in info.get("bot_levels", []):
        names += [level["name"], level.get("description") or ""]
    return sorted({account, *names} - {""}, key=len, reverse=True)


def _english_left(text: str, lang: str, names: list[str]) -> bool:
    """Whether `text`, the same in English and `lang`, has a word of the interface: a word
    of 4+ letters that is no name, number, notation or kept term."""
    for name in names:
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?:Guest|gammon)-\w+|[\w/]+\.md\b", " ", text)
    words = re.findall(r"[^\W\d_]{4,}", text)
    return any(w.lower() not in KEPT | COGNATES[lang] for w in words)


#: The pages compared, each with what of it is compared: `root` and what to leave out.
#: The lobby's chat (chat.js) and tournament lines (tournament-text.js) are the table side's
#: words, and the fair-dice page's code (its formulas, the record's fields, the worked
#: example) is the same in every language (tests/server/test_pages_i18n.py): they are left
#: out; the way back from each page is compared.
PAGES = {
    "lobby": ("/#/", "#play-title", "body", ".chat, #tournaments li, .tables tbody"),
    "signin": ("/#/login", "#auth-title", "body", ""),
    "players": ("/#/players", "#leaderboard", "body", "#leaderboard tbody"),
    "player": ("/#/player/{name}", "#profile-name", "body", ""),
    "rules": ("/#/rules", "#page-rules h1", "body", ""),
    "dice": ("/#/dice", "#page-dice h1", "body", "#page-dice pre, #page-dice code"),
}


def _words_of(page: Page, what: str, name: str) -> list[str]:
    path, ready, root, skip = PAGES[what]
    page.goto(path.format(name=name))
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")  # the lists that come by fetch
    page.evaluate(LAID_OUT)
    return list(page.evaluate(_WORDS, [root, skip]))


def _settings_words(page: Page) -> list[str]:
    page.goto("/#/")
    page.wait_for_selector("#play-title")
    page.click("header button[name=settings]")
    page.wait_for_selector("dialog#settings[open]")
    words = list(page.evaluate(_WORDS, ["dialog#settings", ""]))
    page.click("dialog#settings button[name=close-settings]")
    return words


@pytest.fixture(scope="module")
def account(browser: Browser, server: ServerProcess) -> str:
    """One signed-up account, whose pages every language's browser looks at."""
    name = fresh_name("sanat")
    page = new_page(browser, server.url)
    sign_up(page, name, PASSWORD)
    page.context.close()
    return name


@pytest.fixture(scope="module")
def english(browser: Browser, server: ServerProcess, account: str) -> dict[str, list[str]]:
    """The words of each page in English, at a phone's width as the languages are read."""
    page = _context_page(browser, server, "en-US", 390, 844)
    log_in(page, account, PASSWORD)
    words = {what: _words_of(page, what, account) for what in PAGES}
    words["settings"] = _settings_words(page)
    words["names"] = _names(_info(page), account)
    assert "Tables" in words["lobby"] and "Settings" in words["settings"]
    page.context.close()
    return words


@pytest.mark.parametrize("lang", LOCALES)
def test_no_english_is_left_and_nothing_is_too_wide(
    browser: Browser,
    server: ServerProcess,
    account: str,
    english: dict[str, list[str]],
    lang: str,
) -> None:
    page = _context_page(browser, server, LOCALES[lang], 390, 844)
    log_in(page, account, PASSWORD)
    left: dict[str, list[str]] = {}
    wide: dict[str, Any] = {}
    for what in [*PAGES, "settings"]:
        words = _settings_words(page) if what == "settings" else _words_of(page, what, account)
        assert page.evaluate("document.documentElement.lang") == lang, what
        same = sorted(
            {w for w in words if w in english[what] and _english_left(w, lang, english["names"])}
        )
        if same:
            left[what] = same
        if what == "settings":
            page.click("header button[name=settings]")
            page.wait_for_selector("dialog#settings[open]")
        out = sticking_out(page)["out"]
        if out or page_width(page) > 390:
            wide[what] = {"scrollWidth": page_width(page), "out": out}
            screenshot(page, f"i18n-{lang}-{what}-phone.png")
        if what == "settings":
            page.click("dialog#settings button[name=close-settings]")
    assert left == {}, "English left in " + json.dumps(left, ensure_ascii=False, indent=1)
    assert wide == {}, f"wider than 390 px: {wide}"
    assert js_errors(page) == []
    page.context.close()


@pytest.mark.parametrize("lang", ["fi", "nl"])
def test_the_lobby_in_finnish_and_dutch_for_a_person_to_look_at(
    browser: Browser, server: ServerProcess, lang: str
) -> None:
    """Screenshots (test-artifacts/i18n-lobby-*.png) of the lobby with its longest words,
    at a desktop's and a phone's width."""
    for width, height, where in ((1280, 800, "desktop"), (390, 844, "phone")):
        page = _context_page(browser, server, LOCALES[lang], width, height)
        page.goto("/#/")
        _lobby_in(page, lang)
        page.click("header button[name=guest]")
        page.wait_for_selector("#me:has-text('Guest-')")
        assert sticking_out(page)["out"] == [] and page_width(page) <= width
        screenshot(page, f"i18n-lobby-{lang}-{where}.png")
        page.locator("form.create-form").scroll_into_view_if_needed()
        screenshot(page, f"i18n-lobby-{lang}-{where}-form.png")
        page.click("header button[name=settings]")
        page.wait_for_selector("dialog#settings[open]")
        screenshot(page, f"i18n-settings-{lang}-{where}.png")
        assert js_errors(page) == []
        page.context.close()
