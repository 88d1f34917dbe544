"""``bench/server_load.py --nodes 1,2,4``: the same client load on 1, 2 and 4 nodes in turn.

Each count gets a fresh PostgreSQL database (made next to ``--database``, dropped after)
and N ``python -m gammon.server --redis`` processes on one Redis (``--redis``, or a
``redis-server`` of its own). The games are spread over the nodes; with N > 1 the two
players of each game sit on different nodes (the creator's node runs the table, the other
player's forwards every action of theirs and follows a relayed replica): the worst case.
N = 1 is a cluster of one (same PostgreSQL and Redis, nothing forwarded). Prints, for each
N, actions/s, p50/p99 latency, server CPU per action on each node and in all, and the
scaling factor of actions/s against the first count of the same invocation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import sqlalchemy

from bench.server_load import (
    ROOT,
    _cpu_seconds,
    _free_port,
    _game,
    _guest,
    _Run,
)


@dataclass
class _Figures:
    nodes: int
    actions: int
    elapsed: float
    p50: float
    p99: float
    cpu: list[float]
    load: float
    #: Over the measured time: Redis PUBLISH calls and all commands; PostgreSQL commits
    #: and rows inserted + updated in the database.
    publishes: float = 0.0
    commands: float = 0.0
    commits: float = 0.0
    rows: float = 0.0

    @property
    def rate(self) -> float:
        return self.actions / self.elapsed


@contextlib.contextmanager
def _redis(url: str | None) -> Iterator[str]:
    """``url``, or a ``redis-server`` of our own on a free port."""
    if url:
        yield url
        return
    if shutil.which("redis-server") is None:
        raise SystemExit("--nodes needs Redis: give --redis URL or install redis-server")
    port = _free_port()
    folder = tempfile.mkdtemp(prefix="gammon-bench-redis-")
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        time.sleep(0.5)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _database(url: str) -> Iterator[str]:
    """A fresh database on the PostgreSQL server of ``url``, dropped afterwards."""
    base = sqlalchemy.make_url(url)
    name = f"{base.database}_nodes_{secrets.token_hex(4)}"
    admin = sqlalchemy.create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _start(database: str, redis: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gammon.server", "--port", str(port), "--database", database,
            "--redis", redis, "--no-bot", "--signup-limit", "100000/0.001",
            "--message-rate", "1000",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        if server.poll() is not None:
            raise SystemExit(f"a node exited at start (code {server.returncode})")
        try:
            if httpx.get(f"{base}/api/me", timeout=1).status_code == 200:
                return server, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("a node did not start within 120 s")


def _counters(redis: str, database: str) -> tuple[float, float, float, float]:
    """Redis's PUBLISH calls and commands, PostgreSQL's commits and rows written so far."""
    from redis import Redis

    client = Redis.from_url(redis)
    try:
        publish = client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0)
        commands = client.info("stats")["total_commands_processed"]
    finally:
        client.close()
    url = sqlalchemy.make_url(database)
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text("SELECT pg_stat_force_next_flush()"))
            commits, rows = connection.execute(
                sqlalchemy.text(
                    "SELECT xact_commit, tup_inserted + tup_updated FROM pg_stat_database "
                    "WHERE datname = :name"
                ),
                {"name": url.database},
            ).one()
    finally:
        engine.dispose()
    return float(publish), float(commands), float(commits), float(rows)


async def _measure(
    args: argparse.Namespace, bases: list[str], pids: list[int], redis: str, database: str
) -> _Figures:
    run = _Run(args, bases[0])
    rng = random.Random(1)
    limit = asyncio.Semaphore(8)
    count = len(bases)

    async def pair(index: int) -> tuple[httpx.AsyncClient, httpx.AsyncClient]:
        # Game i: its creator on node i mod N, the other player on the next node.
        async with limit:
            return await _guest(bases[index % count]), await _guest(bases[(index + 1) % count])

    pairs = await asyncio.gather(*(pair(i) for i in range(args.games)))
    run.start = time.monotonic() + args.warmup
    run.deadline = run.start + args.seconds
    tasks = [
        asyncio.ensure_future(_game(run, first, second, random.Random(rng.random())))
        for first, second in pairs
    ]
    await asyncio.sleep(args.warmup)
    cpu = [_cpu_seconds(pid) for pid in pids]
    counted = await asyncio.to_thread(_counters, redis, database)
    load = os.getloadavg()[0]
    await asyncio.sleep(max(0.0, run.deadline - time.monotonic()))
    cpu = [_cpu_seconds(pid) - before for pid, before in zip(pids, cpu, strict=True)]
    after = await asyncio.to_thread(_counters, redis, database)
    counts = [b - a for a, b in zip(counted, after, strict=True)]
    load = max(load, os.getloadavg()[0])
    elapsed = time.monotonic() - run.start
    failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True) if r is not None]
    for failure in failed[:3]:
        print(f"a game stopped: {failure!r}")  # an overloaded machine: a socket timed out
    latencies = sorted(run.latencies) or [0.0]

    def pct(p: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    return _Figures(count, run.actions, elapsed, pct(0.50), pct(0.99), cpu, load, *counts)


def _report(figures: _Figures, first: _Figures) -> None:
    actions = max(1, figures.actions)
    per_node = " ".join(f"{1000 * c / actions:.2f}" for c in figures.cpu)
    print(f"-- {figures.nodes} node(s)")
    print(f"accepted actions     {figures.actions} in {figures.elapsed:.1f} s = "
          f"{figures.rate:.0f} actions/s")  # fmt: skip
    print(f"latency p50 / p99    {figures.p50:.1f} / {figures.p99:.1f} ms")
    print(f"server CPU per node  {per_node} ms per action (each node's CPU / all actions)")
    print(f"server CPU in all    {1000 * sum(figures.cpu) / actions:.2f} ms per action")
    print(f"scaling factor       {figures.rate / max(first.rate, 1e-9):.2f} "
          f"(actions/s against {first.nodes} node(s), this invocation)")  # fmt: skip
    print(f"Redis per action     {figures.publishes / actions:.2f} PUBLISH, "
          f"{figures.commands / actions:.2f} commands (all nodes)")  # fmt: skip
    print(f"PostgreSQL           {figures.commits / actions:.2f} commits, "
          f"{figures.rows / actions:.2f} rows inserted or updated per action")  # fmt: skip
    print(f"load average         {figures.load:.1f} on {os.cpu_count()} cores")


def run_nodes(args: argparse.Namespace) -> int:
    """Each node count of ``--nodes`` in turn, on fresh databases; the figures of each."""
    counts = [int(n) for n in str(args.nodes).split(",")]
    if (args.database is None or not args.database.startswith("postgresql")) and max(counts) > 1:
        raise SystemExit("--nodes N > 1 needs --database postgresql+psycopg://...")
    print(f"games at once        {args.games} ({args.client} client, think {args.think:g} ms); "
          "the two players of a game on different nodes when N > 1")  # fmt: skip
    results: list[_Figures] = []
    with _redis(args.redis) as redis:
        for count in counts:
            with _database(args.database) as database:
                servers: list[subprocess.Popen[bytes]] = []
                try:
                    bases = []
                    for _ in range(count):  # one at a time: the first makes the schema
                        server, base = _start(database, redis)
                        servers.append(server)
                        bases.append(base)
                    pids = [server.pid for server in servers]
                    figures = asyncio.run(_measure(args, bases, pids, redis, database))
                finally:
                    for server in servers:
                        server.terminate()
                    for server in servers:
                        server.wait(20)
            results.append(figures)
            _report(figures, results[0])
    return 0
