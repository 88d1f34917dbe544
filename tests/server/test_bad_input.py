"""Every kind of bad input gets its own error, changes nothing, and the socket stays usable
(docs/PROTOCOL.md 2.1; R13: the server enforces every rule)."""

from __future__ import annotations

import asyncio
import json

from tests.server.client import Player, ServerProcess, Socket


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def error_for(sock: Socket, raw: object) -> dict[str, object]:
    """Send ``raw`` (a dict gets an id) and return the error answering it."""
    if isinstance(raw, dict):
        reply = await sock.request(raw)
    else:
        await sock.send(raw if isinstance(raw, str) else json.dumps(raw))
        reply = await sock.until(lambda m: m["type"] == "error")
    assert reply["type"] == "error", reply
    return reply


def test_bad_input_is_refused_and_changes_nothing(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Player(server).signup()
        bob = await Player(server).signup()
        eve = await Player(server).signup()
        table = await alice.create(length=3)
        a, b = await alice.table(table), await bob.table(table)
        await b.act({"type": "join"})
        await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        state = await a.act({"type": "roll"})
        await b.until(lambda m: m["type"] == "state" and m["seq"] == state["seq"])
        mover = state["game"]["turn"]
        sockets = {a.state["you"]: a, b.state["you"]: b}  # type: ignore[index]
        me, other = sockets[mover], sockets[1 - mover]
        watcher = await eve.table(table)
        before = await alice.state(table)
        legal = me.state["game"]["legal_plays"]  # type: ignore[index]
        illegal_cases = [
            (me, "{not json", "bad_json"),
            (me, "[1, 2]", "bad_json"),
            (me, {"type": "fly"}, "unknown_type"),
            (me, {"nope": 1}, "unknown_type"),
            (me, "x" * 20000, "too_large"),
            (me, {"type": "play"}, "bad_message"),
            (me, {"type": "play", "play": "8/5", "moves": [[8, 5]]}, "bad_message"),
            (me, {"type": "play", "moves": [[30, 5]]}, "bad_message"),
            (me, {"type": "resign", "value": 7}, "bad_message"),
            (me, {"type": "roll", "entropy": "not hex"}, "bad_message"),
            (me, {"type": "roll", "bogus": True}, "bad_message"),
            (me, {"type": "play", "play": "13-x"}, "illegal_play"),
            (me, {"type": "play", "play": "24/1"}, "illegal_play"),
            (me, {"type": "play", "moves": [[1, 0]]}, "illegal_play"),
            (me, {"type": "double"}, "illegal_action"),  # the dice are rolled (R10)
            (me, {"type": "take"}, "illegal_action"),
            (me, {"type": "play", "play": legal[0]["play"], "side": 1 - mover}, "forbidden"),
            (me, {"type": "play", "play": legal[0]["play"], "seq": 1}, "stale"),
            (other, {"type": "play", "play": legal[0]["play"]}, "not_your_turn"),
            (other, {"type": "roll"}, "not_your_turn"),
            (watcher, {"type": "play", "play": legal[0]["play"]}, "not_a_player"),
            (watcher, {"type": "join"}, "table_full"),
            (me, {"type": "join"}, "table_full"),
            (me, {"type": "cancel"}, "forbidden")
            if me is b
            else (me, {"type": "hint"}, "not_available"),
        ]
        for sock, raw, code in illegal_cases:
            reply = await error_for(sock, raw)
            assert reply["code"] == code, (raw if not isinstance(raw, str) else raw[:30], reply)
            assert reply["message"]
        # Nothing changed, and every connection still works.
        assert await alice.state(table) == before
        state = await me.act({"type": "play", "play": legal[0]["play"]})
        assert state["seq"] == before["seq"] + 1
        await watcher.send({"type": "ping", "id": "w"})
        assert (await watcher.until(lambda m: m["type"] == "pong"))["id"] == "w"
        for p in (alice, bob, eve):
            await p.close()

    run(scenario())


def test_anonymous_watchers_cannot_act(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Player(server).signup()
        table = await alice.create(length=1)
        anonymous = Player(server)
        sock = await anonymous.table(table)
        assert sock.state is not None and sock.state["you"] is None
        reply = await sock.request({"type": "join"})
        assert reply["code"] == "not_signed_in"
        await alice.close()
        await anonymous.close()

    run(scenario())


def test_unknown_table(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Player(server).signup()
        response = await alice.http.get("/api/tables/999999")
        assert response.status_code == 404 and response.json()["error"]["code"] == "no_such_table"
        bad = await alice.post("/api/tables", {"length": 0})
        assert bad.status_code == 400 and "'length'" in bad.json()["error"]["message"]
        bad = await alice.post("/api/tables", {"mode": "match", "beavers": True})
        assert (
            bad.json()["error"]["code"] == "bad_settings" and "R1" in bad.json()["error"]["message"]
        )
        bad = await alice.post("/api/tables", {"colour": "red"})
        assert "unknown setting 'colour'" in bad.json()["error"]["message"]
        anonymous = Player(server)
        refused = await anonymous.post("/api/tables", {})
        assert refused.status_code == 401
        await alice.close()
        await anonymous.close()

    run(scenario())
