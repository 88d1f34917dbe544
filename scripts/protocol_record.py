"""Record what a seeded session sends its two players, to compare the protocol of two versions.

Usage::

    python scripts/protocol_record.py --actions 5000 --out /tmp/now.txt
    git stash; python scripts/protocol_record.py --actions 5000 --out /tmp/before.txt; git stash pop
    cmp /tmp/before.txt /tmp/now.txt

A server of this checkout is started on a fresh SQLite file with the test clock standing
still (``--manual-time``) and seeded draws (``--dice-seed``); two accounts, ``alice`` and
``bob``, play 3-point matches one after another over their table sockets, every choice and
every roll's entropy from a seeded generator, each action sent only once both sockets
show the one before, until ``--actions`` have been played. Every frame each socket
receives is written, in order, one line each (``A`` or ``B``, then the frame's text):
the same checkout gives the same file byte for byte, so two versions whose files differ
changed what players are sent. The last line says how many actions and frames, and the
file's SHA-256.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "a long enough password 1"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start(database: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gammon.server", "--port", str(port), "--database", database,
         "--no-bot", "--manual-time", "--dice-seed", "7", "--signup-limit", "100000/0.001",
         "--message-rate", "1000"],
        cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # a guard against a server that never answers
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited at start (code {server.returncode})")
        try:
            if httpx.get(f"{base}/api/me", timeout=1).status_code == 200:
                return server, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not start within 120 s")


async def _account(base: str, name: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=60)
    await client.get("/api/me")
    csrf = client.cookies.get("gammon_csrf") or ""
    signed = await client.post(
        "/api/signup", json={"name": name, "password": PASSWORD}, headers={"X-CSRF-Token": csrf}
    )
    signed.raise_for_status()
    return client


class _Socket:
    """One player's table socket: every frame it receives, recorded as it is read."""

    def __init__(self, mark: str, ws: ClientConnection, frames: list[str]) -> None:
        self.mark, self.ws, self.frames = mark, ws, frames
        self.state: dict[str, Any] | None = None

    async def until(self, seq: int, *, started: bool = True) -> dict[str, Any]:
        while (
            self.state is None
            or self.state["seq"] < seq
            or (started and self.state["status"] == "open")
        ):
            text = await asyncio.wait_for(self.ws.recv(), 60)  # a guard against a hang
            assert isinstance(text, str)
            self.frames.append(f"{self.mark} {text}")
            message = json.loads(text)
            if message["type"] == "state":
                self.state = message
        return self.state


def _choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    game = state["game"]
    available = game["actions"] if game else []
    seq = state["seq"]
    if "play" in available:
        return {"type": "play", "play": rng.choice(game["legal_plays"])["play"], "seq": seq}
    if "take" in available:
        return {"type": "take", "seq": seq}
    if "double" in available and rng.random() < 0.05:
        return {"type": "double", "seq": seq}
    if "roll" in available:
        return {"type": "roll", "seq": seq}
    if "choose_double" in available:
        return {"type": "choose_double", "number": rng.randint(1, 6), "seq": seq}
    return None


async def _session(base: str, actions: int, frames: list[str]) -> int:
    rng = random.Random(5000)
    alice, bob = await _account(base, "alice"), await _account(base, "bob")
    played = 0
    try:
        while played < actions:
            csrf = alice.cookies.get("gammon_csrf") or ""
            made = await alice.post(
                "/api/tables", json={"length": 3}, headers={"X-CSRF-Token": csrf}
            )
            table = int(made.json()["table"]["id"])
            sockets = []
            for mark, client in (("A", alice), ("B", bob)):
                cookies = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
                ws = await connect(
                    base.replace("http://", "ws://") + f"/ws/tables/{table}",
                    additional_headers={"Cookie": cookies},
                    max_size=1 << 24,
                    compression=None,
                )
                sockets.append(_Socket(mark, ws, frames))
                await sockets[-1].until(0, started=False)
            await sockets[1].ws.send(json.dumps({"type": "join"}))
            seq = 1
            while played < actions:
                states = [await s.until(seq) for s in sockets]
                if states[0]["status"] != "playing":
                    break
                for sock, state in zip(sockets, states, strict=True):
                    action = _choose(state, rng)
                    if action is not None:
                        action["entropy"] = rng.randbytes(32).hex()
                        await sock.ws.send(json.dumps(action))
                        played += 1
                        break
                else:
                    raise SystemExit(f"nobody can act at table {table}, seq {seq}")
                seq += 1
            for sock in sockets:
                await sock.ws.close()
    finally:
        await alice.aclose()
        await bob.aclose()
    return played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=5000)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="gammon-record-")
    server, base = _start(f"sqlite:///{folder}/record.db")
    frames: list[str] = []
    try:
        played = asyncio.run(_session(base, args.actions, frames))
    finally:
        server.terminate()
        server.wait(20)
    body = "".join(f"{line}\n" for line in frames)
    digest = hashlib.sha256(body.encode()).hexdigest()
    args.out.write_text(body + f"# {played} actions, {len(frames)} frames, sha256 {digest}\n")
    print(f"{played} actions, {len(frames)} frames, sha256 {digest} -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
