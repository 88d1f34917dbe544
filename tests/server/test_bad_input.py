"""Every kind of bad input gets its own error, changes nothing, and the socket stays usable
(docs/PROTOCOL.md 2.1; R13: the server enforces every rule)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

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
        assert bad.status_code == 400
        assert bad.json()["error"] == {
            "code": "bad_settings",
            "message": "The match length (points) must be a whole number from 1 to 64, not 0",
            "field": "length",
        }
        bad = await alice.post("/api/tables", {"mode": "match", "beavers": True})
        error = bad.json()["error"]
        assert error["code"] == "bad_settings" and error["field"] == "beavers"
        assert "money play only" in error["message"] and "R1" not in error["message"]
        bad = await alice.post("/api/tables", {"colour": "red"})
        error = bad.json()["error"]
        assert "no setting called 'colour'" in error["message"] and error["field"] == "colour"
        anonymous = Player(server)
        refused = await anonymous.post("/api/tables", {})
        assert refused.status_code == 401
        await alice.close()
        await anonymous.close()

    run(scenario())


async def _playing(
    server: ServerProcess, **settings: object
) -> tuple[Socket, Socket, list[Player]]:
    """A started two-player table with the opening roll thrown: (mover, other, players)."""
    alice, bob = await Player(server).signup(), await Player(server).signup()
    table = await alice.create(**settings)
    a, b = await alice.table(table), await bob.table(table)
    await b.act({"type": "join"})
    await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    state = await a.act({"type": "roll"})
    await b.until(lambda m: m["type"] == "state" and m["seq"] == state["seq"])
    mover = state["game"]["turn"]
    sockets = {a.state["you"]: a, b.state["you"]: b}  # type: ignore[index]
    return sockets[mover], sockets[1 - mover], [alice, bob]


def test_hostile_json_is_refused_without_a_fault(server: ServerProcess) -> None:
    """Deep nesting, NaN, binary frames, broken Unicode: each refused by name, nothing logged."""

    async def scenario() -> None:
        me, _, players = await _playing(server, length=1)
        log_before = len(Path(server.log_path).read_text())
        nested = '{"type": "chat", "text": ' + "[" * 1000 + "]" * 1000 + "}"
        cases: list[tuple[str | bytes, str, str]] = [
            (nested, "bad_json", "nested too deeply"),
            ('{"type": "chat", "text": ' + "[" * 40 + "]" * 40 + "}", "bad_json", "nested"),
            ('{"type": "roll", "seq": NaN}', "bad_message", "NaN"),
            ('{"type": "roll", "seq": Infinity}', "bad_message", "Infinity"),
            ('{"type": "resign", "value": -Infinity}', "bad_message", "Infinity"),
            (b'{"type": "ping"}', "bad_message", "binary WebSocket frames"),
            (b"\xff\xfe", "bad_message", "binary WebSocket frames"),
            ('{"type": "chat", "text": "a\\ud800b"}', "bad_message", "surrogate"),
            ('{"type": "ping", "id": "\\udc00"}', "bad_message", "surrogate"),
        ]
        for raw, code, words in cases:
            await me.ws.send(raw)
            reply = await me.until(lambda m: m["type"] == "error")
            assert reply["code"] == code and words in reply["message"], (raw[:40], reply)
        # The socket is still open and answers; the server logged nothing about any of it.
        await me.send({"type": "ping", "id": "still here"})
        assert (await me.until(lambda m: m["type"] == "pong"))["id"] == "still here"
        logged = Path(server.log_path).read_text()[log_before:]
        assert "Traceback" not in logged and "RecursionError" not in logged, logged
        # Over HTTP too: a body nested too deeply or with NaN is a bad request, not a crash.
        for body in ("[" * 1000 + "]" * 1000, '{"length": NaN}'):
            response = await players[0].http.post(
                "/api/tables",
                content=body,
                headers={
                    "X-CSRF-Token": await players[0].csrf(),
                    "Content-Type": "application/json",
                },
            )
            assert response.status_code == 400, response.text
            assert response.json()["error"]["code"] == "bad_request"
        for p in players:
            await p.close()

    run(scenario())


def test_empty_play_and_null_fields(server: ServerProcess) -> None:
    """An empty play is an illegal play; a field set to null is the same as a field left out."""

    async def scenario() -> None:
        me, _, players = await _playing(server, length=1)
        reply = await me.request({"type": "play", "play": ""})
        assert reply["code"] == "illegal_play" and "cannot pass" in reply["message"], reply
        reply = await me.request({"type": "resign", "value": None})
        assert reply["code"] == "bad_message" and reply["field"] == "value", reply
        assert "needs 'value'" in reply["message"]
        reply = await me.request({"type": "resign", "value": 7})
        assert reply["code"] == "bad_message" and reply["field"] == "value"
        reply = await me.request({"type": "roll", "bogus": None})
        assert reply["code"] == "bad_message" and reply["field"] == "bogus"  # unknown: refused
        # "play": null with "moves": the moves are read; null "seq" and "entropy" are absent.
        assert me.state is not None
        legal = me.state["game"]["legal_plays"][0]
        moves = [[source, target] for source, target, _ in legal["moves"]]
        reply = await me.request(
            {"type": "play", "play": None, "moves": moves, "seq": None, "entropy": None}
        )
        assert reply["type"] == "ack", reply
        for p in players:
            await p.close()

    run(scenario())


def test_which_error_wins(server: ServerProcess) -> None:
    """docs/PROTOCOL.md 2.1: the message, then who sends it, then seq, then the table, then
    the rules."""

    async def scenario() -> None:
        me, other, players = await _playing(server, length=1)
        assert me.state is not None
        seq = me.state["seq"]
        eve = await Player(server).signup()
        players.append(eve)
        watcher = await eve.table(me.state["table"])
        cases = [
            # unknown type beats a bad envelope field
            (me, {"type": "fly", "entropy": "zz"}, "unknown_type"),
            # a bad field beats everything the table would say
            (other, {"type": "resign", "value": 9, "seq": 0}, "bad_message"),
            # who sends it beats a stale seq
            (watcher, {"type": "roll", "seq": 0}, "not_a_player"),
            (me, {"type": "double", "side": 1 - me.state["you"], "seq": 0}, "forbidden"),
            # a stale seq beats the table's state and the rules
            (other, {"type": "roll", "seq": seq - 1}, "stale"),
            (watcher, {"type": "join", "seq": seq - 1}, "stale"),
            (me, {"type": "double", "seq": seq - 1}, "stale"),
            # the table's state (whose turn) beats the rules
            (other, {"type": "double", "seq": seq}, "not_your_turn"),
            (me, {"type": "double", "seq": seq}, "illegal_action"),
        ]
        for sock, message, code in cases:
            reply = await sock.request(message)
            assert reply["type"] == "error" and reply["code"] == code, (message, reply)
        for p in players:
            await p.close()

    run(scenario())


def test_settings_in_plain_words(server: ServerProcess) -> None:
    """Null settings take their defaults; tavla has no cube; errors name the field apart."""

    async def scenario() -> None:
        alice = await Player(server).signup()
        table = await alice.create(length=None, cube=None, variant=None, clock=None, bot=None)
        settings = (await alice.state(table))["settings"]
        assert settings["length"] == 3 and settings["cube"] is True
        assert settings["variant"] == "standard" and settings["clock"] is None
        # A money table's settings, sent back as the server wrote them (length: null), work.
        money = await alice.create(mode="money")
        again = (await alice.state(money))["settings"]
        assert again["length"] is None
        await alice.create(**again)
        # Tavla is played without the cube: off by default, refused when asked for.
        tavla = await alice.create(variant="tavla")
        assert (await alice.state(tavla))["settings"]["cube"] is False
        bad = (await alice.post("/api/tables", {"variant": "tavla", "cube": True})).json()["error"]
        assert bad["code"] == "bad_settings" and bad["field"] == "cube"
        assert "tavla is played without it" in bad["message"]
        bad = (await alice.post("/api/tables", {"clock": {"base_s": 0}})).json()["error"]
        assert bad["field"] == "clock.base_s" and bad["message"].startswith(
            "The clock's reserve (seconds) must be a whole number from 1 to 36000"
        )
        bad = (await alice.post("/api/tables", {"max_cube": 3})).json()["error"]
        assert bad["field"] == "max_cube" and "highest cube value" in bad["message"]
        await alice.close()

    run(scenario())
