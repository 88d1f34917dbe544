"""Leases and presence at scale (docs/DEPLOY.md 9.2): today's design against the one before.

    python -m bench.server_scale --database postgresql+psycopg://gammon:gammon@127.0.0.1/gammon \
        --redis redis://127.0.0.1:6379/0 --nodes 20 --tables 20000 --periods 3

Simulates the traffic of ``--tables`` live tables run by ``--nodes`` nodes on a real
PostgreSQL (a fresh database next to ``--database``, dropped after) and a real Redis, in
this process (each node a name, its own connections), for ``--periods`` renewal periods
(a third of the 5 s lease each), and prints, for each design, what one second costs:

- **leases**: rows PostgreSQL writes and its busy time. Before: each node's renewal
  extends every lease row it holds (a scratch table shaped as ``table_leases`` was before
  migration 0010). Now: each node renews its one ``node_leases`` row
  (:class:`gammon.server.leases.NodeLease`, the server's own statements).
- **presence**: messages delivered and bytes Redis sends. Before: each node's heartbeat,
  every period, lists everyone at each of its tables and is heard by every node. Now:
  each table's presence goes on its own channel when someone comes or goes
  (``--churn`` comings and goings a table a minute), heard by its owner and its watchers
  (``--watchers`` nodes a table besides the owner); which nodes live is one read of
  ``node_leases`` a node a period.

Then both are scaled to 100,000 tables on 180 nodes by the designs' own arithmetic (the
heartbeat's cost grows as nodes x tables, the per-table channels' as tables): the
figures of DEPLOY 9.2.

- **the lobby** (in this process, no database: ``--lobby-only`` runs just this part): the
  bytes a lobby socket is sent per change with ``--lobby-tables`` tables listed (a twentieth
  open), before (the whole list to every socket at each change) and now (the lobby's own
  code, gammon.server.lobby: one page of the socket's view, and only when that page
  changed), over ``--lobby-sockets`` sockets (four in five on the default view, the rest
  paging the playing tables) and random changes (a new open table, a table starting, a
  score), and the CPU of one look at every socket's page.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy
from redis.asyncio import Redis
from sqlalchemy import text

from gammon.server import migrate
from gammon.server.auth import UserInfo
from gammon.server.connections import Connection, Socket
from gammon.server.db import Database
from gammon.server.leases import DB_NOW, NodeLease
from gammon.server.lobby import Lobby, LobbyView
from gammon.server.protocol import dumps

#: A lease's time to live (the server's default) and its renewal period.
TTL_S = 5.0
PERIOD_S = TTL_S / 3
#: The scale DEPLOY 9.2 sizes for.
TARGET_TABLES = 100_000
TARGET_NODES = 180


@dataclass
class Cost:
    """One design's cost of one second, measured."""

    rows: float = 0.0
    db_seconds: float = 0.0
    messages: float = 0.0
    deliveries: float = 0.0
    bytes_out: float = 0.0


@contextlib.contextmanager
def _database(url: str) -> Iterator[str]:
    base = sqlalchemy.make_url(url)
    name = f"{base.database}_scale_{os.getpid()}"
    admin = sqlalchemy.create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _node_names(count: int) -> list[str]:
    return [f"bench-node-{n}" for n in range(count)]


def leases_before(db: Database, nodes: list[str], tables: int, periods: int) -> Cost:
    """Every node extends every lease row it holds, once a period."""
    with db.session() as session:
        session.execute(
            text(
                "CREATE TABLE scale_old_leases (table_id BIGINT PRIMARY KEY, "
                "node TEXT NOT NULL, fence BIGINT NOT NULL, expires_at DOUBLE PRECISION NOT NULL)"
            )
        )
        session.execute(text("CREATE INDEX ON scale_old_leases (node)"))
        session.execute(
            text(
                "INSERT INTO scale_old_leases SELECT t, 'bench-node-' || (t % :n), 1, 0 "
                "FROM generate_series(1, :tables) AS t"
            ),
            {"n": len(nodes), "tables": tables},
        )
        session.commit()
    rows = 0
    started = time.perf_counter()
    for _ in range(periods):
        for node in nodes:
            with db.session() as session:
                done = session.execute(
                    text(
                        f"UPDATE scale_old_leases SET expires_at = {DB_NOW} + :ttl "
                        "WHERE table_id IN (SELECT table_id FROM scale_old_leases "
                        "WHERE node = :node FOR UPDATE SKIP LOCKED)"
                    ),
                    {"node": node, "ttl": TTL_S},
                )
                rows += int(getattr(done, "rowcount", 0))
                session.commit()
    busy = time.perf_counter() - started
    seconds = periods * PERIOD_S
    return Cost(rows=rows / seconds, db_seconds=busy / seconds)


def leases_now(db: Database, nodes: list[str], periods: int) -> Cost:
    """Every node renews its own row once a period, and reads which nodes live."""
    own = [NodeLease(node, TTL_S) for node in nodes]
    rows = 0
    started = time.perf_counter()
    for _ in range(periods):
        for lease in own:
            with db.session() as session:
                lease.renew(session)
                rows += 1
            with db.session() as session:
                lease.live_nodes(session)
    busy = time.perf_counter() - started
    seconds = periods * PERIOD_S
    return Cost(rows=rows / seconds, db_seconds=busy / seconds)


async def _bytes_out(redis: Redis) -> int:
    info = await redis.info("stats")
    return int(info["total_net_output_bytes"])


async def presence_before(url: str, nodes: list[str], tables: int, periods: int) -> Cost:
    """Each node's heartbeat lists everyone at each of its tables; every node hears it."""
    redis = Redis.from_url(url)
    channel = f"bench-scale-{os.getpid()}:presence"
    listeners = [redis.pubsub() for _ in nodes]
    for listener in listeners:
        await listener.subscribe(channel)
    per_node = tables // len(nodes)
    heartbeats = {}
    for i, node in enumerate(nodes):
        at = {str(n * len(nodes) + i): [n * 2, n * 2 + 1] for n in range(per_node)}
        heartbeats[node] = json.dumps({"node": node, "tables": at, "anonymous": {}})
    messages = deliveries = 0
    before = await _bytes_out(redis)
    for _ in range(periods):
        for node in nodes:
            deliveries += int(await redis.publish(channel, heartbeats[node]))
            messages += 1
    out = await _bytes_out(redis) - before
    for listener in listeners:
        await listener.aclose()  # type: ignore[no-untyped-call]
    await redis.aclose()
    seconds = periods * PERIOD_S
    return Cost(messages=messages / seconds, deliveries=deliveries / seconds,
                bytes_out=out / seconds)  # fmt: skip


async def presence_now(
    url: str, nodes: list[str], tables: int, periods: int, churn: float, watchers: int
) -> Cost:
    """Each coming or going is one message on the table's own channel, heard by its owner
    and its watchers."""
    redis = Redis.from_url(url)
    prefix = f"bench-scale-{os.getpid()}:presence:"
    listeners = [redis.pubsub() for _ in nodes]
    heard_by = 1 + watchers
    for table in range(tables):
        for k in range(heard_by):
            await listeners[(table + k) % len(nodes)].subscribe(prefix + str(table))
    seconds = periods * PERIOD_S
    changes = round(tables * churn / 60.0 * seconds)
    messages = deliveries = 0
    before = await _bytes_out(redis)
    for n in range(changes):
        table = (n * 7919) % tables
        message = json.dumps({"node": nodes[table % len(nodes)], "users": [n, n + 1],
                              "anonymous": 0})  # fmt: skip
        deliveries += int(await redis.publish(prefix + str(table), message))
        messages += 1
    out = await _bytes_out(redis) - before
    for listener in listeners:
        await listener.aclose()  # type: ignore[no-untyped-call]
    await redis.aclose()
    return Cost(messages=messages / seconds, deliveries=deliveries / seconds,
                bytes_out=out / seconds)  # fmt: skip


def _lobby_entry(table_id: int, status: str, rng: random.Random) -> dict[str, Any]:
    """A lobby entry shaped as LobbySockets.entry writes it (a 3-7 point match, two players)."""
    length = rng.choice((3, 5, 7))
    settings = {"mode": "match", "length": length, "variant": "standard", "cube": True,
                "max_cube": 64, "crawford": True, "jacoby": False, "beavers": False,
                "auto_doubles": 0, "max_games": None, "stakes": None, "clock": None,
                "invite": None, "bot": None, "rated": True, "practice": False}  # fmt: skip
    first, second = 2 * table_id, 2 * table_id + 1
    players = [f"player{first}", f"player{second}" if status == "playing" else None]
    summary = {"id": table_id, "status": status, "created_by": players[0], "players": players,
               "settings": settings, "invite": None, "bot": None, "score": [0, 0],
               "spectators": 0, "created_ms": 1_767_225_600_000 + table_id}  # fmt: skip
    seats = [[first, None], [second, None] if status == "playing" else None]
    return {"summary": summary, "seats": seats, "invite_id": None, "creator_id": first}


@dataclass
class LobbyCost:
    """Bytes a lobby socket is sent per change, and the CPU of one look at every page."""

    whole_bytes: float
    page_bytes: float
    sent_bytes: float
    push_ms: float


def lobby_traffic(tables: int, sockets: int, changes: int, seed: int = 17) -> LobbyCost:
    """The lobby's messages per change and socket with ``tables`` listed, before and now."""
    rng = random.Random(seed)
    entries = {n: _lobby_entry(n, "open" if n % 20 == 0 else "playing", rng)
               for n in range(1, tables + 1)}  # fmt: skip
    ratings = {user: 1500.0 + rng.uniform(-300, 300) for user in range(2, 2 * tables + 2)}
    lobby = Lobby(set(), entries.values, lambda user, _bot: ratings.get(user or 0),
                  lambda: {"tournaments": []})  # fmt: skip
    conns = [Connection(cast(Socket, None), UserInfo(100_000_000 + n, f"viewer{n}"))
             for n in range(sockets)]  # fmt: skip
    for n, conn in enumerate(conns):
        lobby.join(conn)
        if n % 5 == 4:  # paging through the playing tables
            lobby.views[conn] = LobbyView(status="playing", page=n % 7)
        lobby.show(conn)
    # Before: each change sent every socket the whole list (the viewer aside, the same).
    whole = lobby.page_json(conns[0].user, LobbyView(status="all", size=tables + 1))
    del whole["total"], whole["page"], whole["pages"], whole["view"]
    whole_bytes = len(dumps(whole).encode())
    page_bytes = len(dumps(lobby.page_json(conns[0].user, LobbyView())).encode())
    for conn in conns:  # what joining sent is not a change
        while not conn.queue.empty():
            conn.queue.get_nowait()
    sent = 0
    busy = 0.0
    next_id = tables + 1
    for _ in range(changes):
        kind = rng.random()
        if kind < 0.1:  # a new open table
            entries[next_id] = _lobby_entry(next_id, "open", rng)
            next_id += 1
        elif kind < 0.2:  # an open table starts
            opened = [n for n, e in entries.items() if e["summary"]["status"] == "open"]
            entries[rng.choice(opened)]["summary"]["status"] = "playing"
        else:  # a game of a match ends: its score
            table = entries[rng.randrange(1, tables + 1)]["summary"]
            table["score"] = [table["score"][0] + 1, table["score"][1]]
        started = time.perf_counter()
        lobby.push()
        busy += time.perf_counter() - started
        for conn in conns:
            while not conn.queue.empty():
                text = conn.queue.get_nowait()
                sent += len(text.encode()) if text is not None else 0
    per_socket = sent / (changes * sockets)
    return LobbyCost(whole_bytes, page_bytes, per_socket, busy / changes * 1000)


def _lobby_report(sizes: list[int], sockets: int, changes: int) -> None:
    print(f"the lobby: {sockets} sockets, {changes} changes (bytes per change per socket):")
    for size in sizes:
        cost = lobby_traffic(size, sockets, changes)
        print(f"  {size:>7,} tables: whole list {cost.whole_bytes:>12,.0f} B   one page "
              f"{cost.page_bytes:>7,.0f} B   sent now {cost.sent_bytes:>8,.1f} B "
              f"({cost.whole_bytes / max(cost.sent_bytes, 1e-9):,.0f}x less)   "
              f"a look at every page {cost.push_ms:,.1f} ms")  # fmt: skip


def _line(what: str, before: float, now: float, unit: str) -> str:
    if now <= 0 or before <= 0:
        ratio = "-"
    elif now <= before:
        ratio = f"{before / now:,.1f}x less"
    else:
        ratio = f"{now / before:,.1f}x more"
    return f"  {what:<28} before {before:>14,.3f} {unit:<8} now {now:>12,.3f} {unit:<8} {ratio}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--database", help="PostgreSQL (a fresh database is made next to it)")
    parser.add_argument("--redis", help="a Redis URL")
    parser.add_argument("--nodes", type=int, default=20)
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--periods", type=int, default=3, help="renewal periods measured")
    parser.add_argument("--churn", type=float, default=1.0, help="comings and goings a minute")
    parser.add_argument("--watchers", type=int, default=1, help="watching nodes besides the owner")
    parser.add_argument("--lobby-tables", default="1000,10000,100000",
                        help="the lobby's sizes, tables listed (comma-separated)")  # fmt: skip
    parser.add_argument("--lobby-sockets", type=int, default=100)
    parser.add_argument("--lobby-changes", type=int, default=40)
    parser.add_argument("--lobby-only", action="store_true", help="only the lobby's part")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.lobby_tables.split(",")]
    _lobby_report(sizes, args.lobby_sockets, args.lobby_changes)
    if args.lobby_only:
        return 0
    if not args.database or not args.redis:
        parser.error("--database and --redis are needed (or --lobby-only)")
    nodes = _node_names(args.nodes)
    print(f"{args.tables:,} tables, {args.nodes} nodes, {args.periods} periods of {PERIOD_S:.2f} s")
    with _database(args.database) as url:
        db = Database(url)
        migrate.upgrade(db)
        lease_before = leases_before(db, nodes, args.tables, args.periods)
        lease_now = leases_now(db, nodes, args.periods)
        db.dispose()
    presence_old = asyncio.run(presence_before(args.redis, nodes, args.tables, args.periods))
    presence_new = asyncio.run(
        presence_now(args.redis, nodes, args.tables, args.periods, args.churn, args.watchers)
    )
    print("measured, a second:")
    print(_line("lease rows written", lease_before.rows, lease_now.rows, "rows/s"))
    print(_line("PostgreSQL busy", lease_before.db_seconds, lease_now.db_seconds, "s/s"))
    print(_line("presence messages", presence_old.messages, presence_new.messages, "msg/s"))
    print(_line("presence deliveries", presence_old.deliveries, presence_new.deliveries, "msg/s"))
    print(_line("Redis bytes out", presence_old.bytes_out, presence_new.bytes_out, "B/s"))
    # The designs' arithmetic, from the measured per-unit costs.
    tables, nodes_n = TARGET_TABLES / args.tables, TARGET_NODES / args.nodes
    print(f"scaled to {TARGET_TABLES:,} tables on {TARGET_NODES} nodes:")
    old_rows, new_rows = lease_before.rows * tables, lease_now.rows * nodes_n
    print(_line("lease rows written", old_rows, new_rows, "rows/s"))
    # Before: each node's heartbeat heard by every node (nodes^2), its size as its tables.
    old_deliveries = presence_old.deliveries * nodes_n * nodes_n
    print(_line("presence deliveries", old_deliveries, presence_new.deliveries * tables, "msg/s"))
    print(_line("Redis bytes out", presence_old.bytes_out * nodes_n * tables,
                presence_new.bytes_out * tables, "B/s"))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
