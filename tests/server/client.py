"""A real server in a subprocess and real clients (httpx, websockets), for the server tests.

Nothing is mocked: each test talks to ``python -m gammon.server`` on a free
loopback port over HTTP and WebSockets, exactly as a browser or an outside
program would (docs/PROTOCOL.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.waiting import poll

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def database_url(name: str) -> str:
    """A fresh, empty database for one server.

    With ``GAMMON_TEST_DATABASE_URL`` (a PostgreSQL server) a new database is
    created on that server for each call, so test workers and tests that run a
    server of their own never share one; it is dropped when the run ends.
    Without it, a fresh SQLite file.
    """
    url = os.environ.get("GAMMON_TEST_DATABASE_URL")
    if url:
        return _fresh_postgres_database(url, name)
    folder = tempfile.mkdtemp(prefix="gammon-test-")
    return f"sqlite:///{folder}/{name}.db"


def _fresh_postgres_database(url: str, name: str) -> str:
    import atexit

    import sqlalchemy

    base = sqlalchemy.make_url(url)
    database = f"{base.database}_{name}_{os.getpid()}_{next(_DATABASES)}".lower()
    admin = sqlalchemy.create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f'CREATE DATABASE "{database}"'))

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(
                sqlalchemy.text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            )
        admin.dispose()

    atexit.register(drop)
    return base.set(database=database).render_as_string(hide_password=False)


_DATABASES = itertools.count()
_NAMES = itertools.count(1)


_STARTED: dict[tuple[str, str], int] = {}


def _test_seed(what: str) -> int:
    """A seed from the running test and how many ``what`` it made before: the same test
    gets the same seeds on every run, whatever ran before it in its worker (the shared
    server of a test worker is started by whichever test comes first there)."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    count = _STARTED[test, what] = _STARTED.get((test, what), 0) + 1
    return zlib.crc32(f"{test}#{what}#{count}".encode())


def _dice_seed() -> int:
    """A server's dice seed (gammon serve --dice-seed)."""
    return _test_seed("server")


def unique_name(prefix: str) -> str:
    """A name no other test of this run has taken (3-20 characters, as names must be):
    the process and a count, so every server and database of the run sees it once."""
    return f"{prefix}{os.getpid()}n{next(_NAMES)}"
#: Seconds to wait for an answer the server owes: generous, because CI runs the tests
#: two at a time on two cores beside their servers and browsers (a hang still fails).
WAIT = 60.0


class ServerProcess:
    """``python -m gammon.server`` on a free port; :meth:`kill` sends SIGKILL."""

    def __init__(self, database: str, *extra: str) -> None:
        self.database = database
        self.extra = extra
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        # PYTHONFAULTHANDLER: a server that hangs at start is sent SIGABRT below, which
        # writes every thread's stack to its log, so the failure says where it hung.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"}
        handle, name = tempfile.mkstemp(prefix="gammon-server-", suffix=".log")
        self.log = os.fdopen(handle, "w")
        self.log_path = name
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "gammon.server",
                "--port", str(self.port),
                "--database", self.database,
                # Post-game analyses (of every finished bot table) at 0-ply: quick, so
                # they never compete with the tests for the CPU; a test may ask for more.
                *(() if "--analysis-ply" in self.extra else ("--analysis-ply", "0")),
                # Seeded dice and draws (gammon.server.chance): a test's games are the same
                # on every run; a test may give its own seed.
                *(() if "--dice-seed" in self.extra else ("--dice-seed", str(_dice_seed()))),
                *self.extra,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )  # fmt: skip
        last: list[object] = ["no answer"]
        process = self.process

        def answered() -> bool:
            if process.poll() is not None:
                return True
            try:
                answer = httpx.get(f"{self.url}/api/me", timeout=1)
            except httpx.HTTPError as error:
                last[0] = repr(error)
                return False
            last[0] = f"HTTP {answer.status_code}: {answer.text[:200]}"
            return answer.status_code == 200

        if poll(answered, timeout=WAIT):
            if process.poll() is not None:
                err = Path(self.log_path).read_text()
                raise RuntimeError(f"the server exited at start:\n{err}")
            return self
        self.process.send_signal(signal.SIGABRT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        self.stop()
        err = Path(self.log_path).read_text()
        raise RuntimeError(
            f"the server did not start within {WAIT:g} s (last answer: {last[0]}); "
            f"its log:\n{err[-20000:]}"
        )

    def stacks(self) -> str:
        """Every thread's stack of the running server (SIGUSR1, which it answers by
        writing them to its log; SIGUSR2 if it does not) and the log's end: what a server
        that owes an answer is doing."""
        if self.process is None or self.process.poll() is not None:
            return "(the server is not running)"
        log = Path(self.log_path)
        before = log.stat().st_size

        def written() -> bool:
            return log.stat().st_size > before or self.process is None or (
                self.process.poll() is not None
            )

        self.process.send_signal(signal.SIGUSR1)
        if not poll(written, timeout=10) and self.process.poll() is None:
            # Python itself is stuck (the main thread never got to the handler): the
            # low-level dump, which may crash a server whose threads are running.
            self.process.send_signal(signal.SIGUSR2)
            poll(written, timeout=10)
        text = log.read_text()
        # Whole: with many threads the dump is tens of kB, and its first threads matter.
        return f"its log (the stacks at the end):\n{text[max(0, before - 4000) :]}"

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs (the crash the durability promise is about)."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.process = None


class _Client(httpx.AsyncClient):
    """httpx, whose timeouts carry the server's thread stacks (the cause of a hang)."""

    def __init__(self, server: ServerProcess, **options: Any) -> None:
        super().__init__(**options)
        self.server = server

    async def send(self, request: httpx.Request, **options: Any) -> httpx.Response:
        try:
            return await super().send(request, **options)
        except httpx.TimeoutException as error:
            stacks = await asyncio.to_thread(self.server.stacks)
            raise AssertionError(
                f"{request.method} {request.url.path}: no answer ({error!r}); {stacks}"
            ) from error


class Player:
    """One user agent: a cookie jar for HTTP, and WebSockets opened with its cookies."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        # The server closes a keep-alive connection once it has been idle 5 s (uvicorn's
        # timeout_keep_alive), and httpx keeps one 5 s too: a request sent on it as the
        # server closes it fails with "Server disconnected without sending a response"
        # (seen after a tournament match played over the socket left HTTP idle). Letting go
        # of idle connections after 1 s never meets the server's close.
        self.http = _Client(
            server,
            base_url=server.url,
            timeout=WAIT,
            limits=httpx.Limits(keepalive_expiry=1.0),
        )
        self.user: dict[str, Any] | None = None

    async def close(self) -> None:
        await self.http.aclose()

    async def csrf(self) -> str:
        token = self.http.cookies.get("gammon_csrf")
        if token is None:
            await self.http.get("/api/me")
            token = self.http.cookies.get("gammon_csrf")
        assert token
        return token

    async def post(self, path: str, body: object = None, **headers: str) -> httpx.Response:
        headers = {"X-CSRF-Token": await self.csrf(), **headers}
        return await self.http.post(path, json=body if body is not None else {}, headers=headers)

    async def advance_time(self, seconds: float) -> float:
        """Move a ``--manual-time`` server's clock ``seconds`` on (gammon.server.timesource);
        what fell due has been started when this returns. The server's new time."""
        response = await self.post("/api/test/time", {"advance_s": seconds})
        assert response.status_code == 200, response.text
        return float(response.json()["now"])

    async def signup(self, name: str | None = None, password: str = "correct horse") -> Player:
        name = name or unique_name("p")
        response = await self.post("/api/signup", {"name": name, "password": password})
        assert response.status_code == 201, response.text
        self.user = response.json()["user"]
        return self

    async def guest(self) -> Player:
        response = await self.post("/api/guest")
        assert response.status_code == 201, response.text
        self.user = response.json()["user"]
        return self

    async def create(self, **settings: Any) -> int:
        response = await self.post("/api/tables", settings)
        assert response.status_code == 201, response.text
        return int(response.json()["table"]["id"])

    async def state(self, table: int) -> dict[str, Any]:
        response = await self.http.get(f"/api/tables/{table}")
        assert response.status_code == 200, response.text
        return dict(response.json())

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    async def socket(self, path: str) -> Socket:
        ws = await connect(
            f"{self.server.ws_url}{path}",
            additional_headers={"Cookie": self.cookie_header()},
            max_size=1 << 24,
        )
        return Socket(ws, self.server)

    async def table(self, table: int) -> Socket:
        sock = await self.socket(f"/ws/tables/{table}")
        await sock.until(lambda m: m["type"] == "state")
        return sock


class Socket:
    """A WebSocket that remembers the latest state and queues everything else."""

    def __init__(self, ws: ClientConnection, server: ServerProcess | None = None) -> None:
        self.ws = ws
        self.server = server
        self.state: dict[str, Any] | None = None
        self.seen: list[dict[str, Any]] = []
        self._next_id = 0
        #: The entropy sent with each action: seeded, so a test's messages are the same
        #: every run (the dice still depend on the server's secret seed, DICE.md).
        self._entropy = random.Random(_test_seed("socket"))

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message. Without ``timeout`` it is owed (only a hang guard, :data:`WAIT`,
        whose failure shows the server's stacks); with one, TimeoutError says none came."""
        try:
            raw = await asyncio.wait_for(self.ws.recv(), WAIT if timeout is None else timeout)
        except TimeoutError:
            if timeout is not None:
                raise
            stacks = "(no server known)"
            if self.server is not None:
                stacks = await asyncio.to_thread(self.server.stacks)
            raise AssertionError(
                f"no message within {WAIT:g} s (the last: {self.seen[-1:]}); {stacks}"
            ) from None
        message = json.loads(raw)
        assert isinstance(message, dict)
        if message.get("type") == "state":
            self.state = message
        self.seen.append(message)
        return message

    async def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float | None = None
    ) -> dict[str, Any]:
        """The first message that ``predicate`` accepts (``timeout`` as for :meth:`receive`)."""
        if timeout is None:
            while True:
                message = await self.receive()
                if predicate(message):
                    return message
        deadline = time.monotonic() + timeout
        while True:
            message = await self.receive(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    async def request(
        self, message: dict[str, Any], timeout: float | None = None
    ) -> dict[str, Any]:
        """Send with a fresh id; return the ``ack`` or ``error`` answering it."""
        self._next_id += 1
        ident = self._next_id
        await self.send({**message, "id": ident})
        return await self.until(
            lambda m: m.get("type") in ("ack", "error", "hint") and m.get("id") == ident, timeout
        )

    async def act(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send an action that must be accepted; return the new state it produced."""
        reply = await self.request({**message, "entropy": self._entropy.randbytes(32).hex()})
        assert reply["type"] == "ack", reply
        seq = reply["seq"]
        if self.state is None or self.state["seq"] < seq:
            await self.until(lambda m: m["type"] == "state" and m["seq"] >= seq)
        assert self.state is not None
        return self.state

    async def close(self) -> None:
        await self.ws.close()


def choose(
    state: dict[str, Any], rng: random.Random, *, double: float = 0.0, take: float = 1.0
) -> dict[str, Any] | None:
    """A scripted player's next action from its own state: legal plays at random, cube by chance."""
    game = state["game"]
    actions = game["actions"] if game else []
    if "play" in actions:
        play = rng.choice(game["legal_plays"])
        return {"type": "play", "play": play["play"], "seq": state["seq"]}
    if "choose_double" in actions:
        return {"type": "choose_double", "number": rng.randint(1, 6), "seq": state["seq"]}
    if "take" in actions:
        kind = "take" if rng.random() < take else "drop"
        return {"type": kind, "seq": state["seq"]}
    if "accept_resignation" in actions:
        return {"type": "accept_resignation", "seq": state["seq"]}
    if "double" in actions and rng.random() < double:
        return {"type": "double", "seq": state["seq"]}
    if "roll" in actions:
        return {"type": "roll", "seq": state["seq"]}
    return None
