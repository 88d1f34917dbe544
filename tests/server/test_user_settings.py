"""An account's settings kept on the server (gammon.server.user_settings, docs/PROTOCOL.md
1.2): read back as saved, refused in words when they are not a small flat object, and in a
real browser carried to another device of the same account."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.browser_helpers import (
    fresh_name,
    have_chromium,
    js_errors,
    log_in,
    new_page,
    sign_up,
    wait_until,
)
from tests.server.client import Player, ServerProcess


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_settings_are_kept_per_account_and_refused_in_words(server: ServerProcess) -> None:
    async def go() -> None:
        stranger = Player(server)
        assert (await stranger.http.get("/api/me/settings")).status_code == 401
        player = await Player(server).signup()
        assert (await player.http.get("/api/me/settings")).json() == {"settings": {}}
        mine = {"sound": False, "volume": 0.6, "homeBoard": "left", "animation": "fast"}
        saved = await player.post("/api/me/settings", {"settings": mine})
        assert saved.status_code == 200 and saved.json()["settings"] == mine
        assert (await player.http.get("/api/me/settings")).json()["settings"] == mine
        other = await Player(server).signup()
        assert (await other.http.get("/api/me/settings")).json()["settings"] == {}
        bad: list[tuple[Any, str]] = [
            ([1, 2], "settings"),
            ({f"s{i}": True for i in range(33)}, "settings"),
            ({"no spaces": True}, "settings"),
            ({"colours": {"deep": "nesting"}}, "settings.colours"),
            ({"colours": "x" * 33}, "settings.colours"),
            ({"volume": None}, "settings.volume"),
        ]
        for value, where in bad:
            response = await player.post("/api/me/settings", {"settings": value})
            assert response.status_code == 400, value
            assert response.json()["error"]["field"] == where, value
        extra = await player.post("/api/me/settings", {"settings": {}, "also": 1})
        assert extra.status_code == 400 and extra.json()["error"]["field"] == "also"
        assert (await player.http.get("/api/me/settings")).json()["settings"] == mine
        for p in (stranger, player, other):
            await p.close()

    run(go())


if have_chromium():
    from playwright.sync_api import Browser


def test_a_setting_changed_on_one_device_applies_on_another(
    browser: Browser, server: ServerProcess
) -> None:
    name = fresh_name("devices")
    desk = new_page(browser, server.url)
    sign_up(desk, name)
    desk.click("header button[name=settings]")
    panel = desk.locator("dialog#settings")
    panel.locator("select[name=homeBoard]").select_option("left")
    panel.locator("select[name=colours]").select_option("blue")
    # Saved to the account (read from the server, not from this browser).
    wait_until(
        desk,
        "fetch('/api/me/settings').then(r => r.json())"
        ".then(b => b.settings.homeBoard === 'left' && b.settings.colours === 'blue')",
    )
    phone = new_page(browser, server.url, width=390, height=844)
    log_in(phone, name)
    stored = "JSON.parse(localStorage.getItem('gammon.settings') || '{}')"
    wait_until(phone, f"{stored}.colours === 'blue'")
    assert phone.evaluate("document.documentElement.dataset.boardColours") == "blue"
    # And after a reload there, still the account's.
    phone.reload()
    wait_until(phone, "document.documentElement.dataset.boardColours === 'blue'")
    assert js_errors(desk) == [] and js_errors(phone) == []
    desk.context.close()
    phone.context.close()
