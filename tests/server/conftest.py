"""One real server per test worker, on a free loopback port (see client.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.client import ServerProcess, database_url


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
