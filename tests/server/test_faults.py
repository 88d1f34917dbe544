"""A fault of the server's own (a bug) while handling a socket: the client gets an answer,
the connection lives on, and the log gets one line however often it happens
(docs/PROTOCOL.md 2, 2.1).

The server runs in this process (uvicorn on a loopback port, the real database), so that
a fault can be put into it: no message a client can send makes this server fail any more.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed

from gammon.server.app import ServerConfig, create_app
from gammon.server.table_sockets import TableSockets
from tests import waiting
from tests.server.client import Player, ServerProcess, database_url


class InProcessServer(ServerProcess):
    """The same app ``gammon serve`` runs, served by uvicorn in a thread of this process."""

    def __init__(self) -> None:
        super().__init__(database_url("faults"))
        self.app = create_app(ServerConfig(database=self.database, bots=False))
        self.uvicorn = uvicorn.Server(
            uvicorn.Config(
                self.app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                ws="websockets-sansio",
                lifespan="on",
            )
        )
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)

    def start(self) -> InProcessServer:
        self.thread.start()
        # Polled: uvicorn says it has started only by this flag, which its thread sets.
        waiting.wait_until(lambda: self.uvicorn.started, what="the server to start")
        return self

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(10)


@pytest.fixture
def local_server() -> Iterator[InProcessServer]:
    server = InProcessServer().start()
    yield server
    server.stop()


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_a_fault_is_answered_and_logged_once(
    local_server: InProcessServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    original = TableSockets._table_message

    async def faulty(
        self: TableSockets, live: Any, conn: Any, message: Any, received: float
    ) -> None:
        if message.type == "chat":
            raise RuntimeError("injected fault")
        await original(self, live, conn, message, received)

    monkeypatch.setattr(TableSockets, "_table_message", faulty)
    caplog.set_level(logging.DEBUG, logger="gammon.server")

    async def scenario() -> None:
        alice = await Player(local_server).signup()
        table = await alice.create(length=1)
        sock = await alice.table(table)
        for number in range(30):
            reply = await sock.request({"type": "chat", "text": f"hello {number}"})
            assert reply["type"] == "error" and reply["code"] == "server_error", reply
            assert "fault on our side" in reply["message"]
        # The connection goes on working, and the table is as it was.
        await sock.send({"type": "ping", "id": "after"})
        assert (await sock.until(lambda m: m["type"] == "pong"))["id"] == "after"
        assert (await alice.state(table))["status"] == "open"
        await alice.close()

    run(scenario())
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    assert errors[0].exc_info is None  # one line: no traceback at the ERROR level
    assert "RuntimeError: injected fault" in errors[0].getMessage()
    details = [r for r in caplog.records if r.levelno == logging.DEBUG and r.exc_info]
    assert len(details) == 30  # the tracebacks are there for whoever turns DEBUG on
    assert local_server.app.state.hub.faults.count == 30


def test_a_fault_outside_any_message_closes_with_1011(
    local_server: InProcessServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def faulty(self: TableSockets, live: Any, conn: Any) -> None:
        raise RuntimeError("injected fault on join")

    monkeypatch.setattr(TableSockets, "join", faulty)

    async def scenario() -> None:
        alice = await Player(local_server).signup()
        table = await alice.create(length=1)
        sock = await alice.socket(f"/ws/tables/{table}")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await sock.receive(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
        # The server itself is fine: the lobby still answers.
        lobby = await alice.socket("/ws/lobby")
        await lobby.until(lambda m: m["type"] == "lobby")
        await alice.close()

    run(scenario())
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "injected fault on join" in errors[0].getMessage()
    assert errors[0].exc_info is None
