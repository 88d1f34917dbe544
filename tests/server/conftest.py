"""One real server per test worker, on a free loopback port (see client.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from gammon.server import migrate
from gammon.server.db import Database, User
from gammon.server.store import Store
from tests.server.client import ServerProcess, database_url

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="session")
def server() -> Iterator[ServerProcess]:
    """A server with generous rate limits, so tests do not trip over each other."""
    process = ServerProcess(
        database_url("shared"),
        "--login-limit",
        "1000/0.01",
        "--signup-limit",
        "1000/0.01",
        "--message-rate",
        "500",
    ).start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium driven by Playwright, one for each test module (skipped without
    it: tests/server/browser_helpers.py says where it is looked for)."""
    from tests.server.browser_helpers import have_chromium, launch

    if not have_chromium():
        pytest.skip("no chromium for the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def postgres_store(request: pytest.FixtureRequest) -> Iterator[Store]:
    """A store on a fresh PostgreSQL database of the module's own, with the accounts ann
    (id 1) and bob (id 2): for what only PostgreSQL has (the leases of several nodes)."""
    if not os.environ.get("GAMMON_TEST_DATABASE_URL"):
        pytest.skip("leases live in PostgreSQL: set GAMMON_TEST_DATABASE_URL (test.sh does)")
    db = Database(database_url(request.module.__name__.rsplit(".", 1)[-1]))
    migrate.upgrade(db)
    with db.session() as session:
        for name in ("ann", "bob"):
            session.add(User(name=name, name_key=name, created=0.0))
        session.commit()
    store = Store(db)
    try:
        yield store
    finally:
        store.stop()
        db.dispose()
