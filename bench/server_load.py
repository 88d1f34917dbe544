"""Load on the play server: N games at once over WebSockets on loopback.

Starts ``python -m gammon.server`` on a fresh SQLite database (or ``--database``),
signs up 2N guests, seats them at N match tables, and lets every pair play
random legal plays (and cube actions now and then) for ``--seconds``: as fast
as the server answers, or with ``--think MS`` of thinking before each action
(paced like people). Prints the accepted actions per second, the 50th/99th
percentile latency from sending an action to receiving the state that the
server broadcast for it (the commit to the database included), and the CPU
time the server and the clients spent per action.

    python -m bench.server_load --games 200 --seconds 30

``--profile FILE`` records the server with py-spy meanwhile and prints where its time
went (bench/server_profile.py; docs/DEPLOY.md 1.1 has the figures). ``--callgrind FILE``
runs the server under valgrind's callgrind and prints its instructions per action
(bench/server_callgrind.py): a figure the machine's other work moves far less than
seconds, for comparing two trees by the median of a few runs each (a few games,
``--games 4 --seconds 40 --warmup 10``, as the server runs some 50 times slower while
counted).

``--tournament N`` plays a knockout of N accounts instead (a scheduled tournament of
1-point matches, registered before the clock starts): each player finds their match on
the tournament's page (``GET /api/tournaments/ID`` once a second, as the browser does),
opens its table and plays their side, thinking ``--think`` ms before each action
(1500 by default there: paced like people). The same figures are printed, with how far
the bracket got.

    python -m bench.server_load --tournament 64 --seconds 60

``--nodes 1,2,4 --database postgresql+psycopg://...`` runs the games on 1, 2 and 4 nodes
in turn (bench/server_nodes.py) and prints the scaling factor.

Client and server share the machine's cores, so the figures are conservative.
As fast as possible, N games are N actions always in flight: the latency is
N / (actions per second) (Little's law), so a latency target at N games is a
throughput target. ``--client full`` reads every state in full (the whole log and
every finished game each time), as a client that does not opt in to ``log_delta`` and
``games_delta`` does (docs/PROTOCOL.md 2.2); the default ``lean`` client opts in to both,
as the browser client does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench import server_callgrind, server_profile

ROOT = Path(__file__).resolve().parents[1]
#: One TLS context for every HTTP client: httpx builds one per client otherwise (slow).
_TLS = ssl.create_default_context()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux), from /proc."""
    return _stat_seconds(Path(f"/proc/{pid}/stat"))


def _stat_seconds(stat: Path) -> float:
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _thread_cpu_seconds(pid: int) -> dict[str, float]:
    """User + system CPU time of a process's main thread (the event loop) and of all its
    other threads together (mostly the database writer), from /proc (Linux)."""
    seconds = {"event loop": 0.0, "other threads": 0.0}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):  # a thread that ended meanwhile
            name = "event loop" if task.name == str(pid) else "other threads"
            seconds[name] += _stat_seconds(task / "stat")
    return seconds


class _Seat:
    def __init__(self, http: httpx.AsyncClient, ws: ClientConnection) -> None:
        self.http = http
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.log: list[Any] = []


class _Run:
    """What every game shares: the options, the clock and the figures."""

    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.base = base
        self.lean = args.client == "lean"
        self.length = args.length
        self.compression = "deflate" if args.compression else None
        # Under callgrind the server is slow to answer even before it counts.
        self.open_timeout = 300.0 if args.callgrind else 10.0
        self.think = args.think / 1000.0
        self.start = 0.0
        self.deadline = 0.0
        self.latencies: list[float] = []
        self.actions = 0


async def _guest(base: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=120, verify=_TLS)
    await client.get("/api/me")
    csrf = client.cookies.get("gammon_csrf") or ""
    response = await client.post("/api/guest", json={}, headers={"X-CSRF-Token": csrf})
    response.raise_for_status()
    return client


async def _open(run: _Run, client: httpx.AsyncClient, table: int) -> ClientConnection:
    """The table's socket on the client's own server (with several nodes: its own node)."""
    base_ws = str(client.base_url).replace("http://", "ws://").rstrip("/")
    cookies = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    ws = await connect(
        f"{base_ws}/ws/tables/{table}",
        additional_headers={"Cookie": cookies},
        max_size=1 << 24,
        open_timeout=run.open_timeout,
        compression=run.compression,
    )
    if run.lean:
        # As the browser client does: only new log events and finished games in each state.
        await ws.send(json.dumps({"type": "hello", "features": ["log_delta", "games_delta"]}))
    return ws


async def _pair(base: str, limit: asyncio.Semaphore) -> tuple[httpx.AsyncClient, ...]:
    async with limit:
        return await _guest(base), await _guest(base)


async def _new_table(client: httpx.AsyncClient, length: int) -> int:
    """A new table, a match to ``length`` points. Asked again once if the kept-alive
    connection was closed meanwhile (a game outlasts the server's keep-alive: a race, not a
    refusal)."""
    csrf = client.cookies.get("gammon_csrf") or ""
    for attempt in (1, 2):
        try:
            created = await client.post(
                "/api/tables", json={"length": length}, headers={"X-CSRF-Token": csrf}
            )
            return int(created.json()["table"]["id"])
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def _game(
    run: _Run, first: httpx.AsyncClient, second: httpx.AsyncClient, rng: random.Random
) -> None:
    """Tables played to their end, one after another, until the deadline."""
    try:
        while time.monotonic() < run.deadline:
            table = await _new_table(first, run.length)
            seats = [_Seat(c, await _open(run, c, table)) for c in (first, second)]
            await seats[1].ws.send(json.dumps({"type": "join"}))
            await _play(run, seats, rng)
            for seat in seats:
                await seat.ws.close()
    finally:
        await first.aclose()
        await second.aclose()


async def _read(seat: _Seat, seq: int) -> None:
    """Read states until this seat has one at ``seq`` or later with the match started."""
    while seat.state is None or seat.state["seq"] < seq or seat.state["status"] == "open":
        message = json.loads(await seat.ws.recv())
        if message["type"] != "state":
            continue
        game = message["game"]
        if game is not None and "log_from" in game:  # log_delta: only the new events
            if game["log_from"] == 0:
                seat.log = []
            del seat.log[game["log_from"] :]
            seat.log.extend(game["log"])
        seat.state = message


async def _play(run: _Run, seats: list[_Seat], rng: random.Random) -> None:
    for seat in seats:
        await _read(seat, 1)
    while time.monotonic() < run.deadline:
        seq = max(seat.state["seq"] for seat in seats if seat.state)
        for seat in seats:
            await _read(seat, seq)
        state = seats[0].state
        assert state is not None
        if state["status"] != "playing":
            return
        for seat in seats:
            assert seat.state is not None
            action = _choose(seat.state, rng)
            if action is None:
                continue
            if run.think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * run.think)
            action["entropy"] = secrets.token_hex(32)
            sent = time.perf_counter()
            await seat.ws.send(json.dumps(action))
            await _read(seat, seq + 1)
            if run.start <= time.monotonic() <= run.deadline:
                run.latencies.append(time.perf_counter() - sent)
                run.actions += 1
            break


# -- tournament mode ---------------------------------------------------------------------------


async def _account(base: str, name: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=120, verify=_TLS)
    await client.get("/api/me")
    csrf = client.cookies.get("gammon_csrf") or ""
    response = await client.post(
        "/api/signup",
        json={"name": name, "password": "bench password"},
        headers={"X-CSRF-Token": csrf},
    )
    response.raise_for_status()
    return client


async def _post(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> Any:
    csrf = client.cookies.get("gammon_csrf") or ""
    response = await client.post(path, json=body, headers={"X-CSRF-Token": csrf})
    response.raise_for_status()
    return response.json()


async def _play_side(run: _Run, seat: _Seat, rng: random.Random) -> None:
    """Play one side of a table to its end (or the deadline), timing each action."""
    await _read(seat, 1)
    while time.monotonic() < run.deadline:
        state = seat.state
        assert state is not None
        if state["status"] != "playing":
            return
        action = _choose(state, rng)
        if action is None:
            await _read(seat, state["seq"] + 1)
            continue
        if run.think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * run.think)
            if seat.state is not None and seat.state["seq"] != state["seq"]:
                continue  # the clock or the opponent moved on meanwhile
        action["entropy"] = secrets.token_hex(32)
        sent = time.perf_counter()
        await seat.ws.send(json.dumps(action))
        await _read(seat, state["seq"] + 1)
        if run.start <= time.monotonic() <= run.deadline:
            run.latencies.append(time.perf_counter() - sent)
            run.actions += 1


async def _entrant(
    run: _Run, client: httpx.AsyncClient, name: str, number: int, rng: random.Random
) -> None:
    """One player of the tournament: wait for each match, play it, until out or over."""
    played: set[int] = set()
    try:
        while time.monotonic() < run.deadline:
            t = (await client.get(f"/api/tournaments/{number}")).json()["tournament"]
            if t["status"] != "running" and t["status"] != "registering":
                return
            mine = [
                m
                for r in t["rounds"]
                for m in r["matches"]
                if m["status"] == "ready"
                and m["table"] not in played
                and any(p and p["name"] == name for p in m["players"])
            ]
            entry = next((e for e in t["registered"] if e["name"] == name), None)
            if entry is not None and entry["out"] and not mine:
                return
            if not mine or not mine[0]["table"]:
                await asyncio.sleep(1.0)
                continue
            table = int(mine[0]["table"])
            played.add(table)
            seat = _Seat(client, await _open(run, client, table))
            try:
                await _play_side(run, seat, rng)
            finally:
                await seat.ws.close()
    finally:
        await client.aclose()


async def _run_tournament(args: argparse.Namespace, base: str, server_pid: int) -> None:
    run = _Run(args, base)
    rng = random.Random(1)
    stamp = secrets.token_hex(2)
    organiser = await _account(base, f"org{stamp}")  # the server's first account: its operator
    names = [f"t{stamp}n{i}" for i in range(args.tournament)]
    limit = asyncio.Semaphore(8)

    async def signed(name: str) -> httpx.AsyncClient:
        async with limit:
            return await _account(base, name)

    clients = await asyncio.gather(*(signed(name) for name in names))
    start_at = time.time() + 2.0
    created = await _post(
        organiser,
        "/api/tournaments",
        {"name": "Load cup", "kind": "scheduled", "seats": args.tournament, "start_at": start_at,
         "lengths": [1], "show_up_s": 600},
    )  # fmt: skip
    number = created["tournament"]["id"]
    for client in clients:
        await _post(client, f"/api/tournaments/{number}/register", {})
    await asyncio.sleep(max(0.0, start_at - time.time()))
    run.start = time.monotonic() + args.warmup
    run.deadline = run.start + args.seconds
    tasks = [
        asyncio.ensure_future(_entrant(run, c, n, number, random.Random(rng.random())))
        for c, n in zip(clients, names, strict=True)
    ]
    await asyncio.sleep(args.warmup)
    cpu = _CpuMeter(server_pid)
    while time.monotonic() < run.deadline and not all(task.done() for task in tasks):
        await asyncio.sleep(0.5)
    cpu.stop()
    elapsed = time.monotonic() - run.start
    await asyncio.gather(*tasks)
    t = (await organiser.get(f"/api/tournaments/{number}")).json()["tournament"]
    await organiser.aclose()
    over = sum(m["status"] == "over" for r in t["rounds"] for m in r["matches"])
    total_matches = sum(len(r["matches"]) for r in t["rounds"])
    winner = t["winner"]["name"] if t["winner"] else "none yet"
    print(
        f"tournament           {args.tournament} players, 1-point matches, think {args.think:g} ms"
    )
    print(
        f"bracket              {over}/{total_matches} matches decided, {t['status']}, "
        f"winner {winner}"
    )
    _report(run, elapsed, cpu)
    print("target               as for tables: p99 < 100 ms on 2 cores, at human pace")


class _CpuMeter:
    """CPU time of the server (each of its threads) and of the clients, and the load
    average, over the measured seconds."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.threads = _thread_cpu_seconds(server_pid)
        self.server = _cpu_seconds(server_pid)
        self.client = time.process_time()
        self.load = os.getloadavg()[0]

    def stop(self) -> None:
        threads = _thread_cpu_seconds(self.server_pid)
        self.threads = {name: threads[name] - self.threads.get(name, 0.0) for name in threads}
        self.server = _cpu_seconds(self.server_pid) - self.server
        self.client = time.process_time() - self.client
        self.load = max(self.load, os.getloadavg()[0])


def _report(run: _Run, elapsed: float, cpu: _CpuMeter) -> None:
    latencies = sorted(run.latencies)
    total = run.actions

    def pct(p: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    print(f"accepted actions     {total} in {elapsed:.1f} s = {total / elapsed:.0f} actions/s")
    if latencies:
        print(f"latency p50          {pct(0.50):.1f} ms (action sent -> its state received)")
        print(f"latency p99          {pct(0.99):.1f} ms")
        print(f"latency mean         {1000 * statistics.fmean(latencies):.1f} ms")
    if total:
        print(f"server CPU           {1000 * cpu.server / total:.2f} ms per action")
        for name, seconds in cpu.threads.items():
            print(f"  {name:<19}{1000 * seconds / total:.3f} ms per action")
        print(f"client CPU           {1000 * cpu.client / total:.2f} ms per action")
    cores = os.cpu_count()
    print(f"load average         {cpu.load:.1f} on {cores} cores (other work skews figures)")


def _choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    game = state["game"]
    available = game["actions"] if game else []
    seq = state["seq"]
    if "play" in available:
        return {"type": "play", "play": rng.choice(game["legal_plays"])["play"], "seq": seq}
    if "take" in available:
        return {"type": "take", "seq": seq}
    if "accept_resignation" in available:
        return {"type": "accept_resignation", "seq": seq}
    if "double" in available and rng.random() < 0.05:
        return {"type": "double", "seq": seq}
    if "roll" in available:
        return {"type": "roll", "seq": seq}
    if "choose_double" in available:
        return {"type": "choose_double", "number": rng.randint(1, 6), "seq": seq}
    return None


async def _run(args: argparse.Namespace, base: str, server_pid: int) -> None:
    run = _Run(args, base)
    rng = random.Random(1)
    limit = asyncio.Semaphore(8)
    # Every guest signs up before the clock starts.
    pairs = await asyncio.gather(*(_pair(base, limit) for _ in range(args.games)))
    run.start = time.monotonic() + args.warmup
    run.deadline = run.start + args.seconds
    tasks = [
        asyncio.ensure_future(_game(run, first, second, random.Random(rng.random())))
        for first, second in pairs
    ]
    await asyncio.sleep(args.warmup)
    cpu = _CpuMeter(server_pid)
    if args.callgrind:
        server_callgrind.start()
    spy = None
    if args.profile:
        spy = server_profile.record(
            server_pid, args.seconds - 1, Path(args.profile), gil=args.profile_gil
        )
    await asyncio.sleep(max(0.0, run.deadline - time.monotonic()))
    cpu.stop()
    elapsed = time.monotonic() - run.start
    instructions = server_callgrind.counted(Path(args.callgrind)) if args.callgrind else None
    await asyncio.gather(*tasks)
    print(f"games at once        {args.games} ({args.client} client, think {args.think:g} ms)")
    _report(run, elapsed, cpu)
    if instructions is not None and run.actions:
        print(f"server instructions  {instructions / run.actions:,.0f} per action (callgrind)")
    print("target               200 games, p99 < 100 ms on 2 cores")
    if spy is not None:
        spy.wait(30)
        server_profile.report(Path(args.profile))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--length", type=int, default=3, help="points of each match (longer: more finished games)"
    )
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured")
    parser.add_argument(
        "--think", type=float, default=None, help="ms before each action (tournament: 1500)"
    )
    parser.add_argument(
        "--tournament", type=int, default=None, metavar="N", help="a knockout of N players"
    )
    parser.add_argument("--client", choices=("lean", "full"), default="lean")
    parser.add_argument(
        "--no-compression",
        dest="compression",
        action="store_false",
        help="no permessage-deflate (browsers always ask for it)",
    )
    parser.add_argument("--database", default=None, help="default: a temporary SQLite file")
    parser.add_argument(
        "--profile",
        default=None,
        metavar="FILE",
        help="record the server with py-spy while measured (tables only; bench/server_profile.py)",
    )
    parser.add_argument(
        "--profile-gil", action="store_true", help="--profile samples only the GIL's holder"
    )
    parser.add_argument(
        "--callgrind",
        default=None,
        metavar="FILE",
        help="count the server's instructions under callgrind (tables only; FILE.1 the count)",
    )
    parser.add_argument(
        "--nodes",
        default=None,
        metavar="N[,N...]",
        help="N nodes over PostgreSQL and Redis, each count in turn (bench/server_nodes.py)",
    )
    parser.add_argument(
        "--redis", default=None, help="with --nodes: default, a redis-server of its own"
    )
    args = parser.parse_args()
    if args.callgrind and (args.tournament or args.nodes):
        parser.error("--callgrind counts the tables' games on one node only")
    if args.think is None:
        args.think = 1500.0 if args.tournament else 0.0
    if args.nodes:
        from bench.server_nodes import run_nodes

        return run_nodes(args)
    port = _free_port()
    database = args.database or f"sqlite:///{tempfile.mkdtemp(prefix='gammon-bench-')}/load.db"
    counting = server_callgrind.command(Path(args.callgrind)) if args.callgrind else []
    server = subprocess.Popen(
        [
            *counting, sys.executable, "-m", "gammon.server",
            "--port", str(port), "--database", database, "--no-bot",
            "--signup-limit", "100000/0.001", "--message-rate", "1000",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{base}/api/me", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        if args.tournament:
            asyncio.run(_run_tournament(args, base, server.pid))
        else:
            asyncio.run(_run(args, base, server.pid))
    finally:
        server.terminate()
        server.wait(120 if args.callgrind else 10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
