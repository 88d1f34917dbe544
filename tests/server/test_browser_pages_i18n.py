"""The rule book in the browser's language, in a real browser: Chromium set to Finnish,
Swedish, Norwegian or Dutch sends its Accept-Language with the page's request, and the
server answers in that language (gammon.server.pages); the long Finnish and Dutch words fit
a phone's 390 px."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.browser_helpers import (
    TIMEOUT_MS,
    have_chromium,
    launch,
    needs_chromium,
    page_width,
    screenshot,
)
from tests.server.client import ServerProcess

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page, sync_playwright

#: The browser's locale, and the rule book's title in its language.
TITLES = {
    "fi-FI": "Pelisäännöt (R1-R15)",
    "sv-SE": "Spelregler (R1-R15)",
    "nb-NO": "Spilleregler (R1-R15)",
    "nl-NL": "Spelregels (R1-R15)",
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def _page(browser: Browser, server: ServerProcess, locale: str, width: int, height: int) -> Page:
    context = browser.new_context(
        base_url=server.url, viewport={"width": width, "height": height}, locale=locale
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


@pytest.mark.parametrize("locale", TITLES)
def test_the_rules_in_the_browsers_language_fit_a_phone(
    browser: Browser, server: ServerProcess, locale: str
) -> None:
    page = _page(browser, server, locale, 390, 844)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/#/rules")
    page.wait_for_selector(f"#page-rules h1:has-text('{TITLES[locale]}')")
    text = page.inner_text("#page-rules")
    assert "R15." in text and "Rules of play" not in text
    assert page_width(page) <= 390
    lang = locale.split("-")[0]
    screenshot(page, f"rules-{lang}-phone.png")
    page.locator("#page-rules table").first.scroll_into_view_if_needed()
    screenshot(page, f"rules-{lang}-phone-table.png")
    assert errors == []
    page.context.close()


def test_the_finnish_rules_on_a_desktop(browser: Browser, server: ServerProcess) -> None:
    page = _page(browser, server, "fi-FI", 1280, 800)
    page.goto("/#/rules")
    page.wait_for_selector("#page-rules h1:has-text('Pelisäännöt')")
    page.locator("#page-rules h2:has-text('R9.')").scroll_into_view_if_needed()
    assert page_width(page) <= 1280
    screenshot(page, "rules-fi-desktop.png")
    page.context.close()
