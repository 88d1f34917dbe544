"""Several nodes serve one lobby (issue 11): three ``gammon serve --redis`` processes on one
PostgreSQL database and one Redis, players on different nodes, a node killed mid-game.

Each test starts real processes; they are slow, so each does much.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon.server.fairdice import verify_record
from tests.server.client import Player, Socket, choose
from tests.server.nodes import Nodes, cluster_or_skip, on, redis_server

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture(scope="module")
def redis() -> Iterator[str]:
    cluster_or_skip()
    with redis_server() as url:
        yield url


@pytest.fixture(scope="module")
def nodes(redis: str) -> Iterator[Nodes]:
    three = Nodes(redis, 3, "nodes").start()
    try:
        yield three
    finally:
        three.stop()


async def caught_up(socks: list[Socket]) -> None:
    """Read until every socket has the newest state any of them has."""
    for sock in socks:
        while sock.state is None or sock.state["seq"] < max(
            s.state["seq"] if s.state else 0 for s in socks
        ):
            await sock.receive()


async def play(
    socks: list[Socket], rng: random.Random, acked: dict[int, str], *, steps: int = 100_000
) -> None:
    """Play on from the sockets' states (random legal plays) until the table is over, or
    ``steps`` actions; each acknowledged action's seq and type go into ``acked``."""
    for _ in range(steps):
        await caught_up(socks)
        if socks[0].state is not None and socks[0].state["status"] != "playing":
            return
        for sock in socks:
            action = choose(sock.state, rng, double=0.05)  # type: ignore[arg-type]
            if action is not None:
                await sock.act(action)
                acked[_ack_seq(sock)] = action["type"]
                break
        else:
            await socks[0].receive()


def _ack_seq(sock: Socket) -> int:
    acks = [m for m in sock.seen if m.get("type") == "ack" and "seq" in m]
    return int(acks[-1]["seq"])


async def two_players(nodes: Nodes, first: int, second: int, **settings: Any) -> Any:
    alice = await Player(nodes[first]).signup()
    bob = await Player(nodes[second]).signup()
    table = await alice.create(**settings)
    a, b = await alice.table(table), await bob.table(table)
    await b.act({"type": "join"})
    await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    return alice, bob, table, a, b


def test_players_on_two_nodes_play_a_match_a_spectator_on_a_third_sees_every_move(
    nodes: Nodes,
) -> None:
    async def go() -> None:
        alice, bob, table, a, b = await two_players(nodes, 0, 1, length=3)
        watcher = await Player(nodes[2]).signup()
        w = await watcher.table(table)
        assert w.state is not None
        first_seen = w.state["seq"]
        acked: dict[int, str] = {}
        await play([a, b], random.Random(3), acked)
        final = a.state
        assert final is not None and final["status"] == "finished"
        await w.until(lambda m: m["type"] == "state" and m["seq"] == final["seq"])
        seen = {m["seq"] for m in w.seen if m["type"] == "state"}
        assert set(range(first_seen, final["seq"] + 1)) <= seen  # every move, in order
        assert w.state is not None and w.state["result"] == final["result"]
        for key in ("seq", "status", "series", "result"):
            assert b.state is not None and b.state[key] == final[key], key
        # Each game's dice verify (DICE.md), whichever node rolled them.
        games = final["series"]["game_number"]
        for number in range(1, games + 1):
            record = (await watcher.http.get(f"/api/tables/{table}/record?game={number}")).json()
            assert verify_record(record).ok, number
        # Every acknowledged action is in the log once, in order.
        log = nodes.query("SELECT seq, action FROM actions WHERE table_id = :t ORDER BY seq", t=table)
        assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
        types = {seq: action["type"] for seq, action in log}
        assert all(types[seq] == kind for seq, kind in acked.items())
        for p in (alice, bob, watcher):
            await p.close()

    asyncio.run(go())


def test_chat_and_the_lobby_are_shared(nodes: Nodes) -> None:
    async def go() -> None:
        carol = await Player(nodes[2]).signup()
        lobby3 = await carol.socket("/ws/lobby")
        await lobby3.until(lambda m: m["type"] == "lobby")
        dave = await Player(nodes[1]).signup()
        lobby2 = await dave.socket("/ws/lobby")
        await lobby2.until(lambda m: m["type"] == "lobby")
        # A table made on node 1 is in node 3's lobby.
        erin = await Player(nodes[0]).signup()
        table = await erin.create(length=1)
        await lobby3.until(
            lambda m: m["type"] == "lobby" and any(t["id"] == table for t in m["tables"]), 15
        )
        # The lobby's chat from node 1 reaches nodes 2 and 3.
        lobby1 = await erin.socket("/ws/lobby")
        await lobby1.until(lambda m: m["type"] == "lobby")
        reply = await lobby1.request({"type": "chat", "text": "hello from node one"})
        assert reply["type"] == "ack", reply
        for sock in (lobby2, lobby3):
            line = await sock.until(lambda m: m["type"] == "chat", 15)
            assert line["message"]["text"] == "hello from node one"
        # A table's chat: its creator on node 1, a player on node 2, a spectator on node 3.
        e, d, c = await erin.table(table), await dave.table(table), await carol.table(table)
        await d.act({"type": "join"})
        reply = await e.request({"type": "chat", "text": "good luck"})
        assert reply["type"] == "ack", reply
        for sock in (d, c):
            line = await sock.until(lambda m: m["type"] == "chat", 15)
            assert line["message"]["text"] == "good luck"
        for p in (carol, dave, erin):
            await p.close()

    asyncio.run(go())


def test_a_node_killed_mid_game_its_tables_go_on_elsewhere_nothing_lost(redis: str) -> None:
    nodes = Nodes(redis, 3, "nodes_kill").start()
    try:

        async def go() -> None:
            # The table is created on node 1, so node 1 runs it.
            alice, bob, table, a, b = await two_players(nodes, 0, 1, length=3)
            owner = nodes.query("SELECT node FROM table_leases WHERE table_id = :t", t=table)
            assert len(owner) == 1
            acked: dict[int, str] = {}
            rng = random.Random(5)
            await play([a, b], rng, acked, steps=12)
            await caught_up([a, b])
            before = b.state
            assert before is not None and before["status"] == "playing"
            nodes[0].kill()
            # Alice reconnects to node 3, Bob stays on node 2; they play the match out.
            alice3 = on(alice, nodes[2])
            a3 = await alice3.table(table)
            assert a3.state is not None and a3.state["seq"] == before["seq"]
            await play([a3, b], rng, acked)
            final = a3.state
            assert final is not None and final["status"] == "finished"
            log = nodes.query(
                "SELECT seq, action FROM actions WHERE table_id = :t ORDER BY seq", t=table
            )
            assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
            assert len(log) == final["seq"]
            types = {seq: action["type"] for seq, action in log}
            assert all(types[seq] == kind for seq, kind in acked.items())
            lease = nodes.query("SELECT node, fence FROM table_leases WHERE table_id = :t", t=table)
            assert lease == [] or lease[0][0] != owner[0][0]
            for number in range(1, final["series"]["game_number"] + 1):
                record = (await bob.http.get(f"/api/tables/{table}/record?game={number}")).json()
                assert verify_record(record).ok, number
            for p in (alice, alice3, bob):
                await p.close()

        asyncio.run(go())
    finally:
        nodes.stop()
