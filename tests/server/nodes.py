"""Several nodes of one server for the tests: a Redis, one PostgreSQL database, N processes.

Real ``redis-server`` (Debian's), real PostgreSQL, real ``python -m gammon.server``
processes on loopback: nothing is mocked. :func:`cluster_or_skip` says why a test
cannot run here (no PostgreSQL given, no redis-server installed).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy

from tests import waiting
from tests.server.client import Player, ServerProcess, database_url, free_port


def cluster_or_skip() -> None:
    """Skip unless PostgreSQL (``GAMMON_TEST_DATABASE_URL``) and a Redis are at hand."""
    if not os.environ.get("GAMMON_TEST_DATABASE_URL"):
        pytest.skip("several nodes need PostgreSQL: set GAMMON_TEST_DATABASE_URL (test.sh does)")
    if not os.environ.get("GAMMON_TEST_REDIS_URL") and shutil.which("redis-server") is None:
        pytest.skip("several nodes need Redis: install redis-server (scripts/system-deps.sh)")


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis URL: ``GAMMON_TEST_REDIS_URL``, or a ``redis-server`` of our own on a free port.

    Every server's channels are named after its database, so tests sharing one Redis
    never hear each other.
    """
    given = os.environ.get("GAMMON_TEST_REDIS_URL")
    if given:
        yield given
        return
    with OwnRedis() as own:
        yield own.url


class OwnRedis:
    """A ``redis-server`` of the test's own on a free port, nothing saved: a test may stop it
    (as ``redis-cli shutdown nosave`` does) and start it again, empty, on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="gammon-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        from redis import Redis

        self.process = process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.folder],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = Redis(port=self.port)

        def answers() -> bool:  # polled: no event says that another process is listening
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited at start ({process.returncode})")
            try:
                return bool(client.ping())
            except Exception:
                return False

        try:
            waiting.wait_until(answers, what="redis-server to answer a ping")
        finally:
            client.close()
        return self

    def stop(self) -> None:
        """Stop it at once; what it held is gone (nothing is saved)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def __enter__(self) -> OwnRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class Nodes:
    """N nodes of one server (one database, one Redis), each a :class:`ServerProcess`."""

    def __init__(self, redis: str, count: int, name: str, *extra: str, ttl: float = 2.0) -> None:
        self.database = database_url(name)
        self.redis = redis
        args = ("--redis", redis, "--lease-ttl", str(ttl), "--message-rate", "500",
                # Every node counts one bucket of sign-ups per IP: the tests make many.
                "--signup-limit", "1000/1", *extra)  # fmt: skip
        self.servers = [ServerProcess(self.database, *args) for _ in range(count)]

    def start(self) -> Nodes:
        for server in self.servers:
            server.start()
        return self

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def __getitem__(self, index: int) -> ServerProcess:
        return self.servers[index]

    def query(self, sql: str, **params: Any) -> list[Any]:
        """Rows from the shared database (the action log, the leases)."""
        engine = sqlalchemy.create_engine(self.database)
        try:
            with engine.begin() as connection:
                return list(connection.execute(sqlalchemy.text(sql), params).all())
        finally:
            engine.dispose()

    def log(self, table_id: int) -> list[Any]:
        """A table's action log: (seq, action) in order."""
        return self.query(
            "SELECT seq, action FROM actions WHERE table_id = :t ORDER BY seq", t=table_id
        )


def on(player: Player, server: ServerProcess) -> Player:
    """The same user agent (its cookies: its session) talking to another node."""
    other = Player(server)
    other.http.cookies = player.http.cookies
    other.user = player.user
    return other
