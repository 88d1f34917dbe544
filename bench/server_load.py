"""Load on the play server: N games at once over WebSockets on loopback.

Starts ``python -m gammon.server`` on a fresh SQLite database (or ``--database``),
signs up 2N guests, seats them at N match tables, and lets every pair play
random legal plays (and cube actions now and then) as fast as the server
answers, for ``--seconds``. Prints the accepted actions per second and the
50th/99th percentile latency from sending an action to receiving the state
that the server broadcast for it (the commit to the database included).

    python -m bench.server_load --games 200 --seconds 30

Client and server share the machine's cores, so the figures are conservative.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _Seat:
    def __init__(self, http: httpx.AsyncClient, ws: ClientConnection) -> None:
        self.http = http
        self.ws = ws
        self.state: dict[str, Any] | None = None


async def _guest(base: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=60)
    await client.get("/api/me")
    csrf = client.cookies.get("gammon_csrf") or ""
    response = await client.post("/api/guest", json={}, headers={"X-CSRF-Token": csrf})
    response.raise_for_status()
    return client


async def _open(base_ws: str, client: httpx.AsyncClient, table: int) -> ClientConnection:
    cookies = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    return await connect(
        f"{base_ws}/ws/tables/{table}", additional_headers={"Cookie": cookies}, max_size=1 << 24
    )


async def _game(
    base: str, base_ws: str, deadline: float, latencies: list[float], rng: random.Random
) -> int:
    """One table played to its end (new tables after that) until the deadline; returns actions."""
    actions = 0
    first, second = await _guest(base), await _guest(base)
    try:
        while time.monotonic() < deadline:
            csrf = first.cookies.get("gammon_csrf") or ""
            created = await first.post(
                "/api/tables", json={"length": 3}, headers={"X-CSRF-Token": csrf}
            )
            table = int(created.json()["table"]["id"])
            seats = [_Seat(c, await _open(base_ws, c, table)) for c in (first, second)]
            await seats[1].ws.send(json.dumps({"type": "join"}))
            actions += await _play(seats, deadline, latencies, rng)
            for seat in seats:
                await seat.ws.close()
    finally:
        await first.aclose()
        await second.aclose()
    return actions


async def _play(
    seats: list[_Seat], deadline: float, latencies: list[float], rng: random.Random
) -> int:
    actions = 0

    async def read(seat: _Seat, seq: int) -> None:
        while seat.state is None or seat.state["seq"] < seq or seat.state["status"] == "open":
            message = json.loads(await seat.ws.recv())
            if message["type"] == "state":
                seat.state = message

    for seat in seats:
        await read(seat, 1)
    while time.monotonic() < deadline:
        seq = max(seat.state["seq"] for seat in seats if seat.state)
        for seat in seats:
            await read(seat, seq)
        state = seats[0].state
        assert state is not None
        if state["status"] != "playing":
            return actions
        for seat in seats:
            assert seat.state is not None
            action = _choose(seat.state, rng)
            if action is None:
                continue
            action["entropy"] = secrets.token_hex(32)
            sent = time.perf_counter()
            await seat.ws.send(json.dumps(action))
            await read(seat, seq + 1)
            latencies.append(time.perf_counter() - sent)
            actions += 1
            break
    return actions


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


async def _run(games: int, seconds: float, base: str, base_ws: str) -> None:
    latencies: list[float] = []
    rng = random.Random(1)
    start = time.monotonic()
    deadline = start + seconds
    counts = await asyncio.gather(
        *(
            _game(base, base_ws, deadline, latencies, random.Random(rng.random()))
            for _ in range(games)
        )
    )
    elapsed = time.monotonic() - start
    total = sum(counts)
    latencies.sort()

    def pct(p: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    print(f"games at once        {games}")
    print(f"accepted actions     {total} in {elapsed:.1f} s = {total / elapsed:.0f} actions/s")
    if latencies:
        print(f"latency p50          {pct(0.50):.1f} ms (action sent -> its state received)")
        print(f"latency p99          {pct(0.99):.1f} ms")
        print(f"latency mean         {1000 * statistics.fmean(latencies):.1f} ms")
    print("target               200 games, p99 < 100 ms on 2 cores")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--database", default=None, help="default: a temporary SQLite file")
    args = parser.parse_args()
    port = _free_port()
    database = args.database or f"sqlite:///{tempfile.mkdtemp(prefix='gammon-bench-')}/load.db"
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gammon.server", "--port", str(port), "--database", database,
            "--no-bot", "--signup-limit", "100000/0.001", "--message-rate", "1000",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    base, base_ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{base}/api/me", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        asyncio.run(_run(args.games, args.seconds, base, base_ws))
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
