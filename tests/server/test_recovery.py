"""Nothing is lost (docs/PROTOCOL.md 4.3): a server killed with SIGKILL mid-game and started
again on the same database resumes every table exactly, dice included (R13)."""

from __future__ import annotations

import asyncio
import random

from gammon.server.fairdice import verify_record
from tests.server.client import Player, ServerProcess, choose, database_url


def test_sigkill_mid_game_then_resume() -> None:
    server = ServerProcess(database_url("recovery"), "--message-rate", "500").start()
    try:

        async def before_kill() -> tuple[int, dict[str, object], dict[str, object], list[Player]]:
            alice, bob = await Player(server).signup("alice1"), await Player(server).signup("bob1")
            table = await alice.create(length=5)
            a, b = await alice.table(table), await bob.table(table)
            await b.act({"type": "join"})
            await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            rng = random.Random(11)
            socks = [a, b]
            for _ in range(25):
                for sock in socks:
                    while sock.state is None or sock.state["seq"] < max(
                        s.state["seq"] if s.state else 0 for s in socks
                    ):
                        await sock.receive()
                for sock in socks:
                    action = choose(sock.state, rng, double=0.1)  # type: ignore[arg-type]
                    if action is not None:
                        await sock.act(action)
                        break
            bot_table = await alice.create(length=1, bot="intermediate")
            bot_sock = await alice.table(bot_table)
            if "roll" in bot_sock.state["game"]["actions"]:  # type: ignore[index]
                await bot_sock.act({"type": "roll"})
            last = a.state
            assert last is not None
            # What a player saw last is what the server had committed (commit before broadcast).
            result = (table, await alice.state(table), await alice.state(bot_table), [alice, bob])
            for p in (alice, bob):
                await p.close()
            return result

        table, seen, bot_seen, _ = asyncio.run(before_kill())
        server.kill()
        server.start()

        async def after_restart() -> None:
            alice, bob = Player(server), Player(server)
            for player, name in ((alice, "alice1"), (bob, "bob1")):
                login = await player.post("/api/login", {"name": name, "password": "correct horse"})
                assert login.status_code == 200
            again = await alice.state(table)
            for key in ("seq", "status", "series", "game", "previous_games", "result"):
                assert again[key] == seen[key], key
            bot_again = await alice.state(bot_seen["table"])  # type: ignore[arg-type]
            assert bot_again["seq"] >= bot_seen["seq"]  # type: ignore[operator]
            assert (
                bot_again["game"]["log"][: len(bot_seen["game"]["log"])] == bot_seen["game"]["log"]
            )  # type: ignore[index]
            # Reconnect and play the game on, past the end of a game, with the same sockets' code.
            a, b = await alice.table(table), await bob.table(table)
            assert a.state is not None and a.state["seq"] == seen["seq"]
            rng = random.Random(12)
            socks = [a, b]
            number = a.state["series"]["game_number"]
            while a.state["status"] == "playing" and a.state["series"]["game_number"] == number:
                for sock in socks:
                    while sock.state is None or sock.state["seq"] < max(
                        s.state["seq"] if s.state else 0 for s in socks
                    ):
                        await sock.receive()
                for sock in socks:
                    action = choose(sock.state, rng)  # type: ignore[arg-type]
                    if action is not None:
                        await sock.act(action)
                        break
            # The game that spanned the crash verifies, rolls before and after it alike.
            record = (await alice.http.get(f"/api/tables/{table}/record?game={number}")).json()
            assert verify_record(record).ok and len(record["rolls"]) > 5
            for p in (alice, bob):
                await p.close()

        asyncio.run(after_restart())
    finally:
        server.stop()
