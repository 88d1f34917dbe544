"""The server's own housekeeping, each on a server of its own: forgotten tables expire,
shutting down closes every socket with 1001, and the pages carry a Content-Security-Policy
(docs/PROTOCOL.md 1.3, 1.4, 2)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.client import Player, ServerProcess, Socket, database_url
from tests.waiting import until


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def wait_for_status(player: Player, table: int, status: str) -> Any:
    """The table's state once it has ``status`` (the expiry runs in the server's own task)."""

    async def reached() -> Any:
        state = await player.state(table)
        return state if state["status"] == status else None

    return await until(reached, what=f"table {table} {status}")


def test_forgotten_tables_expire() -> None:
    """An open table nobody joins is cancelled; a bot table its human left is forfeited."""
    # The server's clock stands still until the test moves it: "after 2 s" is exact.
    server = ServerProcess(
        database_url("expiry"),
        "--open-table-expiry", "2",
        "--bot-table-idle", "2",
        "--signup-limit", "1000/0.01",
        "--manual-time",
    ).start()  # fmt: skip

    async def scenario() -> None:
        alice = await Player(server).signup()
        open_table = await alice.create(length=1)
        guest = await Player(server).guest()
        left = await guest.create(length=1, bot="beginner")  # the guest never comes to it
        bob = await Player(server).signup()
        kept = await bob.create(length=1, bot="beginner")
        sock = await bob.table(kept)
        # Not at once: within the configured time nothing expires.
        await alice.advance_time(1.5)
        assert (await alice.state(open_table))["status"] == "open"
        assert (await guest.state(left))["status"] == "playing"
        await alice.advance_time(1.0)
        cancelled = await wait_for_status(alice, open_table, "cancelled")
        assert cancelled["last"]["type"] == "cancel" and cancelled["last"]["side"] is None
        forfeited = await wait_for_status(guest, left, "finished")
        winner = forfeited["result"]["winner"]
        assert forfeited["result"]["reason"] == "forfeit"
        assert forfeited["players"][winner]["bot"] == "beginner"  # the bot never leaves
        lobby = (await alice.http.get("/api/tables")).json()["tables"]
        assert not {t["id"] for t in lobby} & {open_table, left}
        # Bob stays at his table: it goes on however long he thinks...
        await alice.advance_time(3600)
        assert (await bob.state(kept))["status"] == "playing"
        # ... and once he has left it for the configured time, it ends too.
        await sock.close()

        async def bob_gone() -> bool:
            players = (await bob.state(kept))["players"]
            return not any(p["connected"] for p in players if p["bot"] is None)

        await until(bob_gone, what="the server to see bob leave")
        await alice.advance_time(2.5)
        ended = await wait_for_status(bob, kept, "finished")
        assert ended["result"]["reason"] == "forfeit", ended
        for p in (alice, guest, bob):
            await p.close()

    try:
        run(scenario())
    finally:
        server.stop()


def test_shutdown_closes_sockets_with_going_away() -> None:
    server = ServerProcess(database_url("shutdown")).start()

    async def scenario() -> None:
        alice = await Player(server).signup()
        table = await alice.create(length=1)
        sockets: list[Socket] = [
            await alice.table(table),
            await alice.socket("/ws/lobby"),
            await Player(server).table(table),  # an anonymous watcher
        ]
        await asyncio.to_thread(server.stop)
        for sock in sockets:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await sock.receive(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        await alice.close()

    try:
        run(scenario())
    finally:
        server.stop()


def test_pages_carry_a_content_security_policy(server: ServerProcess) -> None:
    async def scenario() -> None:
        visitor = Player(server)
        for path in ("/", "/index.html"):
            page = await visitor.http.get(path)
            assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
            policy = page.headers["content-security-policy"]
            directives = dict(
                (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
            )
            assert directives["script-src"] == ["'self'"]
            assert directives["style-src"] == ["'self'"]
            assert directives["object-src"] == ["'none'"]
            assert directives["frame-ancestors"] == ["'none'"]
            assert directives["connect-src"] == ["'self'", f"ws://127.0.0.1:{server.port}"]
            assert page.headers["x-content-type-options"] == "nosniff"
            # The page itself keeps to it: scripts only from files, no inline handlers or styles.
            html = page.text
            assert re.search(r"<script(?![^>]*\bsrc=)", html) is None
            assert re.search(r"\son[a-z]+\s*=", html) is None
            assert re.search(r"\sstyle\s*=", html) is None
        await visitor.close()

    run(scenario())
