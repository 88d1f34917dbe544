"""Several nodes serve one lobby (issue 11): three ``gammon serve --redis`` processes on one
PostgreSQL database and one Redis, players on different nodes, a node killed mid-game.

Each test starts real processes; they are slow, so each does much.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from gammon.server.auth import TokenBuckets
from gammon.server.fairdice import verify_record
from gammon.server.redis_channels import Outbox
from gammon.server.redis_nodes import RedisNodes
from gammon.server.store import Store
from tests import waiting
from tests.server.client import Player, Socket, choose
from tests.server.nodes import Nodes, cluster_or_skip, on, redis_server
from tests.server.test_analysis import VECTORS, upload
from tests.server.test_practice import until_my_play

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture(scope="module")
def redis() -> Iterator[str]:
    cluster_or_skip()
    with redis_server() as url:
        yield url


#: The first account of a server is its operator (R13); the module's nodes make this one first.
OPERATOR = ("root", "correct horse")


@pytest.fixture(scope="module")
def nodes(redis: str) -> Iterator[Nodes]:
    three = Nodes(redis, 3, "nodes").start()
    try:

        async def operator() -> None:
            root = await Player(three[0]).signup(*OPERATOR)
            assert root.user is not None and root.user["operator"]
            await root.close()

        asyncio.run(operator())
        yield three
    finally:
        three.stop()


def to_act(socks: list[Socket], rng: random.Random) -> tuple[Socket, dict[str, Any]]:
    """The socket of the player to act, and an action for them."""
    via, action = next(
        (s, choose(s.state, rng))  # type: ignore[arg-type]
        for s in socks
        if choose(s.state, random.Random(0)) is not None  # type: ignore[arg-type]
    )
    assert action is not None
    return via, action


async def caught_up(socks: list[Socket], seq: int = 0) -> None:
    """Read until every socket has the newest state any of them has (and ``seq`` at least)."""
    for sock in socks:
        while sock.state is None or sock.state["seq"] < max(
            seq, *(s.state["seq"] if s.state else 0 for s in socks)
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


async def state_until(sock: Socket, predicate: Any, timeout: float = 15) -> dict[str, Any]:
    """The socket's state once ``predicate`` holds for it (perhaps the one it has)."""
    if sock.state is not None and predicate(sock.state):
        return sock.state
    return await sock.until(lambda m: m["type"] == "state" and predicate(m), timeout)


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
        log = nodes.log(table)
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


def _tables_in_memory(server: Any, status: str) -> float:
    """The node's ``gammon_tables`` gauge for ``status``: the tables it holds in memory."""
    for line in httpx.get(f"{server.url}/metrics", timeout=10).text.splitlines():
        if line.startswith(f'gammon_tables{{status="{status}"}}'):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no gammon_tables for {status}")


def test_a_node_holds_replicas_only_of_tables_its_sockets_are_at_and_lists_every_table(
    redis: str,
) -> None:
    """Node 3 has only a lobby socket: it holds no replica of a match played through nodes 1
    and 2, yet its lobby lists it exactly as node 1's does; a spectator there brings a replica
    up (and is counted in every lobby), and leaving drops it again."""
    three = Nodes(redis, 3, "replicas").start()

    def listed(message: dict[str, Any], table: int) -> dict[str, Any] | None:
        return next((t for t in message["tables"] if t["id"] == table), None)

    def spectators(message: dict[str, Any]) -> int | None:
        entry = listed(message, table)
        return entry["spectators"] if entry is not None else None

    table = 0

    async def go() -> None:
        nonlocal table
        carol = await Player(three[2]).signup()
        lobby3 = await carol.socket("/ws/lobby")
        await lobby3.until(lambda m: m["type"] == "lobby")
        await lobby3.request({"type": "lobby_view", "status": "playing"})
        alice, bob, table, a, b = await two_players(three, 0, 1, length=3)
        seen3 = await lobby3.until(
            lambda m: m["type"] == "lobby" and (listed(m, table) or {}).get("status") == "playing",
            15,
        )
        lobby1 = await alice.socket("/ws/lobby")
        await lobby1.until(lambda m: m["type"] == "lobby")
        await lobby1.request({"type": "lobby_view", "status": "playing"})
        seen1 = await lobby1.until(lambda m: m["type"] == "lobby")
        assert listed(seen3, table) == listed(seen1, table) is not None
        assert set(listed(seen3, table) or {}) == {
            "id", "status", "created_by", "players", "settings", "invite", "bot", "score",
            "spectators", "created_ms", "ratings",
        }  # fmt: skip
        await play([a, b], random.Random(11), {}, steps=6)
        assert _tables_in_memory(three[2], "playing") == 0
        assert _tables_in_memory(three[0], "playing") == 1
        assert _tables_in_memory(three[1], "playing") == 1
        # A spectator on node 3: a replica from the log, then each move relayed to it.
        c = await carol.table(table)
        await caught_up([a, b, c])
        assert _tables_in_memory(three[2], "playing") == 1
        await lobby3.until(lambda m: m["type"] == "lobby" and spectators(m) == 1, 15)
        await play([a, b], random.Random(12), {}, steps=6)
        await caught_up([a, b, c])
        # The spectator sees the board as side 0 does.
        side0 = next(s.state for s in (a, b) if s.state and s.state["you"] == 0)
        assert c.state is not None and c.state["seq"] == side0["seq"]
        assert c.state["game"]["board"] == side0["game"]["board"]
        await c.close()
        # Polled: the replica goes when node 3 has heard the spectator leave (no event says so).
        await waiting.until(
            lambda: _tables_in_memory(three[2], "playing") == 0,
            what="node 3 to drop its replica once its spectator left",
        )
        await lobby3.until(lambda m: m["type"] == "lobby" and spectators(m) == 0, 15)
        # The match ends on nodes 1 and 2: it leaves node 3's lobby too.
        await a.act({"type": "forfeit"})
        await lobby3.until(lambda m: m["type"] == "lobby" and listed(m, table) is None, 15)
        for p in (alice, bob, carol):
            await p.close()

    try:
        asyncio.run(go())
    finally:
        three.stop()


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
            # A table against the bot, run by node 1 too.
            bot_table = await alice.create(length=1, bot="beginner")
            bot_sock = await alice.table(bot_table)
            killed_at = bot_sock.state["seq"]  # type: ignore[index]
            # The player to act sends an action through node 2, which forwards it to node 1,
            # and node 1 is killed while it is on its way: acknowledged or not, the log
            # has it at most once, and if it was acknowledged, it is there.
            vias = [await on(p, nodes[1]).table(table) for p in (alice, bob)]
            await caught_up(vias, max(acked))
            via, action = to_act(vias, rng)
            flying = asyncio.ensure_future(via.request({**action, "entropy": "cd" * 32}))
            # A yield, not a wait: the request's task runs to its wait for the answer, its
            # frame written, and node 1 dies with the action sent, wherever it is by then.
            await asyncio.sleep(0)
            nodes[0].kill()
            reply = await flying
            if reply["type"] == "ack":
                acked[reply["seq"]] = action["type"]
            else:  # never stale: a try again after the commit is answered with its ack
                assert reply["code"] == "server_error", reply
            # The next action, sent while node 1's lease still runs: node 2 waits it out
            # until it, or another node, has taken the table over from the log.
            await caught_up(vias, max(acked))
            via, action = to_act(vias, rng)
            reply = await via.request({**action, "entropy": "ef" * 32})
            assert reply["type"] == "ack", reply
            acked[reply["seq"]] = action["type"]
            # Alice reconnects to node 3, Bob stays on node 2; they play the match out.
            alice3 = on(alice, nodes[2])
            a3 = await alice3.table(table)
            assert a3.state is not None and a3.state["seq"] >= before["seq"]
            await caught_up([a3, b], max(acked))
            await play([a3, b], rng, acked)
            final = a3.state
            assert final is not None and final["status"] == "finished"
            log = nodes.log(table)
            assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
            assert len(log) == final["seq"]
            types = {seq: action["type"] for seq, action in log}
            assert all(types[seq] == kind for seq, kind in acked.items())
            lease = nodes.query("SELECT node, fence FROM table_leases WHERE table_id = :t", t=table)
            assert lease == [] or lease[0][0] != owner[0][0]
            # The bot plays on where its table went: Alice acts on node 3, the bot answers.
            bot3 = await alice3.table(bot_table)
            for _ in range(6):
                state = await state_until(
                    bot3,
                    lambda m: m["status"] != "playing" or choose(m, random.Random(0)) is not None,
                )
                if state["status"] != "playing":
                    break
                action = choose(state, rng)
                assert action is not None
                await bot3.act(action)
            bot_log = nodes.query(
                "SELECT seq FROM actions WHERE table_id = :t AND actor_id IS NULL AND seq > :s",
                t=bot_table,
                s=killed_at,
            )
            assert bot_log, "the bot did not act after its node was killed"
            for number in range(1, final["series"]["game_number"] + 1):
                record = (await bob.http.get(f"/api/tables/{table}/record?game={number}")).json()
                assert verify_record(record).ok, number
            for p in (alice, alice3, bob):
                await p.close()

        asyncio.run(go())
    finally:
        nodes.stop()


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    plan=st.lists(
        st.tuples(st.sets(st.integers(0, 2), min_size=1), st.booleans()), min_size=6, max_size=14
    ),
    seed=st.integers(0, 1000),
)
def test_racing_actions_through_every_node_and_takeovers_apply_once(
    nodes: Nodes, plan: list[tuple[set[int], bool]], seed: int
) -> None:
    """Each step, the player to act sends one action through the sockets of several nodes
    at once (the same seq); some steps take the table's lease away from its owner at
    the same moment, so another node takes the table over while actions are in flight.
    Exactly one of each step's copies is acknowledged, the log has each once, in order,
    and every node, and a replay of the log, agree on the table."""

    async def go() -> None:
        alice = await Player(nodes[0]).signup()
        bob = await Player(nodes[1]).signup()
        table = await alice.create(length=5)
        b0 = await bob.table(table)
        await b0.act({"type": "join"})
        players = [alice, bob]
        socks = [[await on(p, node).table(table) for node in nodes.servers] for p in players]
        everyone = [s for row in socks for s in row]
        rng = random.Random(seed)
        acked: dict[int, str] = {}
        for senders, take_away in plan:
            await caught_up(everyone, max(acked, default=0))
            state = everyone[0].state
            assert state is not None
            if state["status"] != "playing":
                break
            for row in socks:
                action = choose(row[0].state, rng, double=0.1)  # type: ignore[arg-type]
                if action is not None:
                    break
            else:
                continue
            message = {**action, "entropy": "ab" * 32}
            sends = [row[node].request(message) for node in sorted(senders)]
            if take_away:
                nodes.query(
                    "UPDATE table_leases SET node = 'taken-by-the-test' "
                    "WHERE table_id = :t RETURNING fence",
                    t=table,
                )
            replies = await asyncio.gather(*sends)
            acks = [r for r in replies if r["type"] == "ack"]
            assert len(acks) == 1, replies
            assert all(r["code"] == "stale" for r in replies if r["type"] == "error"), replies
            acked[acks[0]["seq"]] = action["type"]
        await caught_up(everyone, max(acked, default=0))
        final = everyone[0].state
        assert final is not None
        log = nodes.log(table)
        assert [seq for seq, _ in log] == list(range(1, final["seq"] + 1))
        types = {seq: action["type"] for seq, action in log}
        assert all(types[seq] == kind for seq, kind in acked.items())
        assert len(log) == 1 + len(acked)  # the join, then exactly the acknowledged actions
        views = [(await Player(node).state(table)) for node in nodes.servers]  # spectators
        for view in views:
            for key in ("seq", "status", "series", "game"):
                assert view[key] == views[0][key], key
        lease = nodes.query("SELECT fence FROM table_leases WHERE table_id = :t", t=table)
        if lease and any(take_away for _, take_away in plan):
            assert lease[0][0] >= 2  # the table changed hands under fire
        replayed = _replay(nodes, table)
        assert replayed["seq"] == final["seq"]
        assert replayed["game"]["board"] == views[0]["game"]["board"]
        for p in players:
            await p.close()

    asyncio.run(go())


def _replay(nodes: Nodes, table_id: int) -> dict[str, Any]:
    """The table as its log replays (the recovery's code), seen by a spectator."""
    from gammon.server.db import Database
    from gammon.server.store import load_table
    from gammon.server.views import TableView

    db = Database(nodes.database)
    try:
        with db.session() as session:
            table = load_table(session, table_id)
        assert table is not None
        return TableView(table).state_json(None, at=0.0, connected=set(), spectators=0)
    finally:
        db.dispose()


def test_sessions_presence_rate_limits_and_bans_hold_across_nodes(nodes: Nodes) -> None:
    async def go() -> None:
        # Presence: each player sees the other connected, through another node.
        alice, bob, _, a, b = await two_players(nodes, 0, 1, length=1)
        for sock in (a, b):
            await state_until(sock, lambda m: all(p["connected"] for p in m["players"]))
        await b.close()
        await state_until(a, lambda m: not all(p["connected"] for p in m["players"]))
        # A session ended on node 1 ends on node 2: its socket there is closed, it is unknown.
        bob2 = on(bob, nodes[1])
        lobby = await bob2.socket("/ws/lobby")
        await lobby.until(lambda m: m["type"] == "lobby")
        assert (await bob.post("/api/logout")).status_code == 200
        with pytest.raises(Exception):  # noqa: B017 (websockets' ConnectionClosed)
            await lobby.until(lambda m: False, 15)
        assert lobby.ws.close_code == 4401
        assert (await bob2.http.get("/api/me")).json()["user"] is None
        name = alice.user["name"]  # type: ignore[index]
        # An operator's ban on node 1 holds on node 3: the socket there is closed (4403).
        root = Player(nodes[0])
        login = {"name": OPERATOR[0], "password": OPERATOR[1]}
        assert (await root.post("/api/login", login)).status_code == 200
        alice3 = on(alice, nodes[2])
        lobby3 = await alice3.socket("/ws/lobby")
        await lobby3.until(lambda m: m["type"] == "lobby")
        room = await root.socket("/ws/lobby")
        await room.until(lambda m: m["type"] == "lobby")
        reply = await room.request({"type": "ban", "user": name, "minutes": 5})
        assert reply["type"] == "ack", reply
        with pytest.raises(Exception):  # noqa: B017
            await lobby3.until(lambda m: False, 15)
        assert lobby3.ws.close_code == 4403
        # One login bucket for a name (and an IP), whichever node is asked: 10 at once.
        codes = []
        for attempt in range(15):
            guesser = Player(nodes[attempt % 3])
            answer = await guesser.post("/api/login", {"name": name, "password": "wrong guess"})
            codes.append(answer.status_code)
            await guesser.close()
        assert codes.count(429) >= 4, codes
        for p in (alice, bob, bob2, root, alice3):
            await p.close()

    asyncio.run(go())


def _past(seq: int) -> Any:
    """A state after ``seq``, or the table's end."""
    return lambda m: m["seq"] > seq or m["status"] != "playing"


def test_the_bot_waits_for_a_take_back_asked_through_another_node(nodes: Nodes) -> None:
    """The tutor at the player's node, the bot at the table's: after a warned mistake the
    bot waits while the player may take it back (a take-back works), and goes on at once
    once the player keeps the play (the release reaches the bot's node)."""

    async def go() -> None:
        human = await Player(nodes[0]).signup()
        table = await human.create(length=5, bot="expert")  # run by node 0, where it was made
        far = on(human, nodes[1])
        sock = await far.table(table)
        ack = await sock.request({"type": "tutor", "on": True})
        assert ack["type"] == "ack" and ack["tutor"] is True
        rng = random.Random(8)
        taken_back = kept = False
        for _ in range(40):
            state = await until_my_play(sock, rng)
            hint = await sock.request({"type": "hint"})
            worst, best = hint["plays"][-1], hint["plays"][0]
            play = worst if worst["loss"] >= 0.04 else best
            await sock.send({"type": "play", "play": play["play"], "seq": state["seq"]})
            tutor = await sock.until(lambda m: m["type"] == "tutor")
            played = await state_until(sock, _past(state["seq"]))
            if not tutor["take_back"]:
                continue  # no mistake: the bot goes on
            if not taken_back:
                # The bot, on node 0, waits for the answer given on node 1: no new state.
                with pytest.raises(TimeoutError):
                    await state_until(sock, _past(played["seq"]), 1.5)
                back = await sock.act({"type": "take_back", "seq": played["seq"]})
                assert back["game"]["log"][-1]["type"] == "taken_back"
                assert back["game"]["dice"] == state["game"]["dice"]
                taken_back = True
                continue  # the same dice to play again
            # Kept: the bot plays on at once, not after its longest wait (HOLD_S, 120 s).
            await sock.request({"type": "keep"})
            moved = await state_until(sock, _past(played["seq"]))
            assert moved["seq"] > played["seq"]
            kept = True
            break
        assert taken_back and kept
        for player in (far, human):
            await player.close()

    asyncio.run(go())


def test_a_burst_of_redis_commands_waits_for_connections_rather_than_failing(
    redis: str, postgres_store: Store
) -> None:
    """Hundreds of actions at once on a node each ask Redis something (a shared rate limit,
    a record to publish): they queue for the node's connections, none is refused."""

    async def go() -> None:
        nodes = RedisNodes(postgres_store, redis)
        try:
            buckets = TokenBuckets(10_000, 1_000, name="burst")
            waits = await asyncio.gather(*(nodes.take(buckets, f"key{i % 7}") for i in range(600)))
            assert waits == [0.0] * 600
            ended = ({"node": "gone", "user_id": i, "hash": "hash"} for i in range(600))
            await asyncio.gather(*(nodes.publish("sessions", message) for message in ended))
            assert nodes.redis.connection_pool.max_connections <= 64
        finally:
            await nodes.redis.aclose()

    asyncio.run(go())


def test_messages_published_together_arrive_in_order_and_each_is_answered(
    redis: str, postgres_store: Store
) -> None:
    """The outbox sends the messages of a moment in one pipeline: each sender still learns
    how many heard its message, and a subscriber gets them in the order they were asked."""

    async def go() -> None:
        nodes = RedisNodes(postgres_store, redis)
        listener = nodes.redis.pubsub()
        try:
            await listener.subscribe(nodes.prefix + "order")
            await listener.get_message(timeout=1)  # the subscription's confirmation
            heard = await asyncio.gather(
                *(nodes.publish("order", {"n": n}) for n in range(300)),
                nodes.publish("nobody", {"n": -1}),
            )
            assert heard == [1] * 300 + [0]
            got = []
            while len(got) < 300:
                message = await listener.get_message(ignore_subscribe_messages=True, timeout=5)
                assert message is not None
                got.append(json.loads(message["data"])["n"])
            assert got == list(range(300))
            # What is asked for before a stop goes out: drain waits for it.
            last = nodes.outbox.publish(nodes.prefix + "order", b'{"n": 300}')
            await nodes.outbox.drain(5.0)
            assert last.done() and last.result() == 1
        finally:
            await listener.aclose()  # type: ignore[no-untyped-call]
            await nodes.redis.aclose()
        # No Redis there: every message of the batch gets the connection's error.
        nowhere = Outbox(Redis.from_url("redis://127.0.0.1:1/0"))
        answers = await asyncio.gather(
            *(nowhere.publish("x", b"y") for _ in range(3)), return_exceptions=True
        )
        assert all(isinstance(answer, RedisConnectionError) for answer in answers), answers

    asyncio.run(go())


def test_the_analysis_request_limit_is_one_across_nodes(nodes: Nodes) -> None:
    """Ten analyses at once (then one every 20 s) for a player, whichever nodes are asked:
    the eleventh, spread over three nodes (four, four and three), is refused as too many;
    with a limit per node none would be."""

    async def go() -> None:
        first = await Player(nodes[0]).signup()
        through = [first, on(first, nodes[1]), on(first, nodes[2])]
        body = (VECTORS / "gnubg" / "bots_5pt.mat").read_bytes()
        answers = [await upload(through[i % 3], "bots_5pt.mat", body) for i in range(11)]
        # Accepted, or refused as a queue already holding three of this player's (busy):
        # either way a token was taken.
        assert all(a.status_code in (202, 503) for a in answers[:10]), answers
        assert answers[0].status_code == 202
        last = answers[10]
        assert last.status_code == 429, last.text
        assert last.json()["error"]["code"] == "rate_limited"
        assert "too many analyses" in last.json()["error"]["message"]
        for player in through:
            await player.close()

    asyncio.run(go())


def test_a_user_s_chat_rate_holds_across_nodes(nodes: Nodes) -> None:
    """Five lines in ten seconds (the house rule), whichever nodes the user writes through:
    three through one node and three through another, the sixth is refused as too fast
    (each node alone would have let all six through)."""

    async def go() -> None:
        fay = await Player(nodes[0]).signup()
        elsewhere = on(fay, nodes[1])
        socks = [await fay.socket("/ws/lobby"), await elsewhere.socket("/ws/lobby")]
        for sock in socks:
            await sock.until(lambda m: m["type"] == "lobby")
        lines = ("good morning all", "anyone for a game", "the weather is fine",
                 "who plays tonight", "great match earlier", "see you later")  # fmt: skip
        replies = [
            await socks[i // 3].request({"type": "chat", "text": line})
            for i, line in enumerate(lines)
        ]
        assert [r["type"] for r in replies[:5]] == ["ack"] * 5, replies
        assert replies[5]["type"] == "error" and replies[5]["code"] == "chat_refused"
        assert "too fast" in replies[5]["message"]
        for player in (fay, elsewhere):
            await player.close()

    asyncio.run(go())


def _text(message: dict[str, Any]) -> str:
    return str(message["message"]["text"])


def test_a_mute_holds_on_every_node_of_the_user(nodes: Nodes) -> None:
    """A user who mutes someone through one node no longer gets their lines through
    another node either (a second tab, a reconnection elsewhere)."""

    async def go() -> None:
        gil = await Player(nodes[0]).signup()
        hal = await Player(nodes[1]).signup()
        ivy = await Player(nodes[2]).signup()
        gil_here, gil_there = gil, on(gil, nodes[2])
        socks = {
            name: await player.socket("/ws/lobby")
            for name, player in (("gil0", gil_here), ("gil2", gil_there), ("hal", hal),
                                 ("ivy", ivy))
        }  # fmt: skip
        for sock in socks.values():
            await sock.until(lambda m: m["type"] == "lobby")
        hal_name = hal.user["name"]  # type: ignore[index]
        reply = await socks["gil0"].request({"type": "mute", "user": hal_name})
        assert reply["type"] == "ack", reply
        # The mute leaves node 1 for the others in its Redis queue, and a line gil says
        # after it goes in the same queue after it, to the one subscription each node reads
        # in order: once gil's tab on node 3 has that line, node 3 holds the mute.
        reply = await socks["gil0"].request({"type": "chat", "text": "gil is here"})
        assert reply["type"] == "ack", reply
        await socks["gil2"].until(lambda m: m["type"] == "chat" and _text(m) == "gil is here")
        reply = await socks["hal"].request({"type": "chat", "text": "can anyone hear me"})
        assert reply["type"] == "ack", reply
        await socks["ivy"].until(lambda m: m["type"] == "chat" and _text(m) == "can anyone hear me")
        # Node 3 sends a line to each of its sockets that may have it at once: ivy's has it,
        # so gil's there was sent it before this pong, or never (R13: it never was).
        await socks["gil2"].send({"type": "ping"})
        await socks["gil2"].until(lambda m: m["type"] == "pong")
        heard = [_text(m) for m in socks["gil2"].seen if m["type"] == "chat"]
        assert heard == ["gil is here"], heard
        for player in (gil, gil_there, hal, ivy):
            await player.close()

    asyncio.run(go())


def test_spectators_on_other_nodes_are_counted_signed_in_or_not(nodes: Nodes) -> None:
    """The players' states and the lobby count every spectator of a table, on whichever
    node they watch, with an account or without."""

    async def go() -> None:
        alice, bob, table, a, b = await two_players(nodes, 0, 1, length=3)
        watcher = await Player(nodes[2]).signup()
        anonymous = Player(nodes[2])
        w, n = await watcher.table(table), await anonymous.table(table)
        for sock in (a, b):
            state = await state_until(sock, lambda m: m["spectators"] == 2)
            assert state["spectators"] == 2
        lobby = await Player(nodes[0]).socket("/ws/lobby")
        await lobby.until(lambda m: m["type"] == "lobby")
        await lobby.request({"type": "lobby_view", "status": "playing"})
        await lobby.until(
            lambda m: (
                m["type"] == "lobby"
                and any(t["id"] == table and t["spectators"] == 2 for t in m["tables"])
            ),
            15,
        )
        await n.close()
        await state_until(a, lambda m: m["spectators"] == 1)
        await w.close()
        for player in (alice, bob, watcher, anonymous):
            await player.close()

    asyncio.run(go())


def test_redis_on_sqlite_is_refused_with_a_plain_message(tmp_path: Any) -> None:
    """A SQLite file is one process's: ``--redis`` with it is refused before anything starts."""
    import subprocess
    import sys

    from tests.server.client import ROOT

    done = subprocess.run(
        [sys.executable, "-m", "gammon.server", "--database", str(tmp_path / "one.db"),
         "--redis", "redis://127.0.0.1:1/0"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--redis runs several nodes on one database, which must be PostgreSQL" in done.stderr
    assert not (tmp_path / "one.db").exists()


def test_a_forwarded_action_asked_again_after_its_commit_is_acknowledged_not_stale(
    redis: str,
) -> None:
    """PROTOCOL 2.1, 5: a forward whose answer was lost (the owner killed after its commit,
    or Redis losing the answer) is asked again, pinned to the seq it was meant for; the
    owner, and the node that took the table over from the log, answer it with the action
    that was committed, never ``stale`` for an action that was applied. The test is the
    forwarding node itself, on the nodes' own Redis channels, so each try is sent exactly
    when the scenario needs it."""
    nodes = Nodes(redis, 2, "nodes_retry").start()
    try:

        async def go() -> None:
            alice, bob, table, a, b = await two_players(nodes, 0, 0, length=3)
            seq = a.state["seq"]  # type: ignore[index]
            sock, player = next(
                (s, p)
                for s, p in ((a, alice), (b, bob))
                if "roll" in s.state["game"]["actions"]  # type: ignore[index]
            )
            side = sock.state["you"]  # type: ignore[index]
            prefix = f"gammon:{sqlalchemy.make_url(nodes.database).database}:"
            client = Redis.from_url(redis)
            answers = client.pubsub()
            await answers.subscribe(prefix + "node:the-test")

            async def forward(
                node: str, rid: str, retry: bool, request: str = "the-tests-request"
            ) -> dict[str, Any]:
                message = {
                    "rid": rid, "from": "the-test", "k": "table", "t": table,
                    "action": {"type": "roll"},
                    "side": side, "actor_id": player.user["id"],  # type: ignore[index]
                    "entropy": "ab" * 32, "expect_seq": seq, "hold_bot": False,
                    "request_id": request, "retry": retry,
                }  # fmt: skip
                assert await client.publish(prefix + "node:" + node, json.dumps(message)) == 1

                async def answer() -> dict[str, Any] | None:
                    got = await answers.get_message(ignore_subscribe_messages=True, timeout=1)
                    return json.loads(got["data"]) if got else None

                reply = await waiting.until(answer, what=f"the answer to {rid}")
                assert reply["rid"] == rid, reply
                return dict(reply)

            def owner() -> str:
                rows = nodes.query("SELECT node FROM table_leases WHERE table_id = :t", t=table)
                return str(rows[0][0]) if rows else ""

            first_owner = owner()
            first = await forward(first_owner, "try-1", retry=False)
            assert first["record"]["seq"] == seq + 1, first
            # Its answer lost: asked again, pinned to the seq it was meant for.
            again = await forward(first_owner, "try-2", retry=True)
            assert "refused" not in again, again
            assert again["record"]["seq"] == seq + 1
            assert again["record"]["entropy"] == first["record"]["entropy"] == "ab" * 32
            # The owner is killed; the other node takes the table over from the log and
            # answers the next try from the log too.
            nodes[0].kill()
            taken = await waiting.until(
                lambda: (node := owner()) not in ("", first_owner) and node,
                what="the table taken over",
            )
            # The lease row may name the new owner a moment before it has rebuilt the table
            # in memory; until then it answers not_owner, and a forwarder asks again (as
            # the nodes forward does).
            tries = iter(range(1, 1000))

            async def asked() -> dict[str, Any] | None:
                reply = await forward(taken, f"try-3.{next(tries)}", retry=True)
                return None if "not_owner" in reply else reply

            third = await waiting.until(asked, what="the new owner's answer")
            assert "refused" not in third, third
            assert third["record"]["seq"] == seq + 1
            # Applied once: one roll, with the request's entropy, and nothing after it.
            log = nodes.log(table)
            assert [s for s, _ in log] == list(range(1, seq + 2))
            rows = nodes.query(
                "SELECT entropy, request_id FROM actions WHERE table_id = :t AND seq = :s",
                t=table, s=seq + 1,
            )  # fmt: skip
            assert rows == [("ab" * 32, "the-tests-request")]
            # A play asked anew with a stale seq is still refused stale (nothing changes).
            fresh = await forward(taken, "try-4", retry=False, request="another-request")
            assert fresh["refused"][0] in ("stale", "not_your_turn"), fresh
            await answers.aclose()
            await client.aclose()
            for closing in (a, b):
                with contextlib.suppress(Exception):
                    await closing.close()

        asyncio.run(go())
    finally:
        nodes.stop()
