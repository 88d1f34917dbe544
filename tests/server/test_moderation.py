"""Chat at the tables and in the lobby, with the house rules (R13) and operators' bans."""

from __future__ import annotations

import asyncio

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.client import Player, ServerProcess, database_url


def test_chat_rules_and_an_operators_ban() -> None:
    server = ServerProcess(database_url("moderation")).start()
    try:

        async def scenario() -> None:
            operator = await Player(server).signup("operator")  # the first account (R13)
            assert operator.user is not None and operator.user["operator"]
            alice = await Player(server).signup("alice")
            bob = await Player(server).signup("bob")
            table = await alice.create(length=1)
            a, b = await alice.table(table), await bob.table(table)
            reply = await a.request({"type": "chat", "text": "good luck, you idiot"})
            assert reply["type"] != "error"
            said = await b.until(lambda m: m["type"] == "chat")
            assert said["message"]["user"] == "alice"
            assert said["message"]["text"] == "good luck, you *****"  # abuse masked
            link = await a.request({"type": "chat", "text": "see www.casino.example.com"})
            assert link["type"] == "error" and link["code"] == "chat_refused"
            # A new connection gets the table's recent chat.
            late = await bob.socket(f"/ws/tables/{table}")
            history = await late.until(lambda m: m["type"] == "chat_history")
            assert [m["text"] for m in history["messages"]] == ["good luck, you *****"]
            # Only an operator may ban; a ban closes the user's sockets at once (4403).
            refused = await a.request({"type": "ban", "user": "bob"})
            assert refused["code"] == "forbidden"
            lobby = await bob.socket("/ws/lobby")
            ops = await operator.socket("/ws/lobby")
            done = await ops.request({"type": "ban", "user": "bob", "reason": "spam"})
            assert done["type"] != "error"
            for sock in (b, late, lobby):
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        await sock.receive(10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
            login = await Player(server).post(
                "/api/login", {"name": "bob", "password": "correct horse"}
            )
            assert login.status_code == 403 and login.json()["error"]["code"] == "banned"
            for p in (operator, alice, bob):
                await p.close()

        asyncio.run(scenario())
    finally:
        server.stop()
