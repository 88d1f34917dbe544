"""The lobby's filters and pages in a real browser (issue 17): the server filters and pages
the tables (docs/PROTOCOL.md 7), the page shows 20 of them with previous and next, and the
filters and pager fit a 390 px phone."""

from __future__ import annotations

import httpx

from tests.server.browser_helpers import (
    have_chromium,
    js_errors,
    needs_chromium,
    new_page,
    page_width,
    screenshot,
)
from tests.server.client import ServerProcess, unique_name

pytestmark = needs_chromium

if have_chromium():
    from playwright.sync_api import Browser, Page

#: A length no other test makes tables of (test_lobby_socket uses 13), so the shared
#: server's other tables stay out of the filtered list (each test its own variant).
LENGTH = 17


def _tables(server: ServerProcess, count: int, variant: str) -> list[int]:
    """``count`` open tables of one new player, made over HTTP (the oldest first)."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        csrf = http.get("/api/me").json()["csrf"]
        headers = {"X-CSRF-Token": csrf}
        signup = {"name": unique_name("pager"), "password": "correct horse"}
        assert http.post("/api/signup", json=signup, headers=headers).status_code == 201
        settings = {"length": LENGTH, "variant": variant}
        return [
            int(http.post("/api/tables", json=settings, headers=headers).json()["table"]["id"])
            for _ in range(count)
        ]


def _rows(page: Page) -> list[int]:
    return [
        int(n)
        for n in page.eval_on_selector_all(
            ".tables tr[data-table]", "rows => rows.map(r => r.dataset.table)"
        )
    ]


def _filter(page: Page, variant: str) -> None:
    page.fill("#filters input[name=length]", str(LENGTH))
    page.select_option("#filters select[name=variant]", variant)


def test_the_lobby_filters_and_pages_through_the_tables(
    browser: Browser, server: ServerProcess
) -> None:
    made = _tables(server, 23, "nackgammon")
    page = new_page(browser, server.url)
    page.goto("/#/")
    page.wait_for_selector("#filters")
    _filter(page, "nackgammon")
    page.wait_for_selector("#pager:has-text('Page 1 of 2 (23 tables)')")
    assert _rows(page) == made[:2:-1]  # the newest 20 first
    assert page.is_disabled("#pager button[name=previous]")
    screenshot(page, "lobby-pages-desktop.png")
    page.click("#pager button[name=next]")
    page.wait_for_selector("#pager:has-text('Page 2 of 2')")
    assert _rows(page) == made[2::-1]
    assert page.is_disabled("#pager button[name=next]")
    page.click("#pager button[name=previous]")
    page.wait_for_selector("#pager:has-text('Page 1 of 2')")
    # Changing a filter starts again from the first page; none of these is being played.
    page.select_option("#filters select[name=status]", "playing")
    page.wait_for_selector(".tables:has-text('No table matches the filters.')")
    assert page.is_hidden("#pager")
    page.select_option("#filters select[name=status]", "all")
    page.wait_for_selector("#pager:has-text('Page 1 of 2 (23 tables)')")
    assert js_errors(page) == []
    page.context.close()


def test_the_filters_and_the_pager_fit_a_phone(browser: Browser, server: ServerProcess) -> None:
    _tables(server, 21, "hypergammon")
    page = new_page(browser, server.url, width=390, height=844)
    page.goto("/#/")
    page.wait_for_selector("#filters")
    _filter(page, "hypergammon")
    page.wait_for_selector("#pager:has-text('Page 1 of 2 (21 tables)')")
    assert page_width(page) <= 390
    page.locator("#filters").scroll_into_view_if_needed()
    screenshot(page, "lobby-filters-phone.png")
    page.locator("#pager").scroll_into_view_if_needed()
    screenshot(page, "lobby-pager-phone.png")
    for button in ("previous", "next"):
        box = page.locator(f"#pager button[name={button}]").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert js_errors(page) == []
    page.context.close()
