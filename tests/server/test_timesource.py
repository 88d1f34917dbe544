"""The server's injected time and chance (gammon.server.timesource, gammon.server.chance):
the manual clock the tests drive, its route on a --manual-time server, and seeded dice."""

from __future__ import annotations

import asyncio
import time

import pytest

from gammon.server.chance import SeededChance, SystemChance
from gammon.server.timesource import ManualTime, SystemTime
from tests.server.client import Player, ServerProcess, database_url


def test_manual_time_fires_what_falls_due_in_order_each_at_its_own_time() -> None:
    clock = ManualTime(start=50.0)
    fired: list[tuple[str, float]] = []
    clock.call_later(3.0, lambda: fired.append(("late", clock.now())))
    clock.call_later(1.0, lambda: fired.append(("early", clock.now())))
    clock.call_later(1.0, lambda: fired.append(("tie, set second", clock.now())))
    cancelled = clock.call_later(2.0, lambda: fired.append(("cancelled", clock.now())))
    cancelled.cancel()
    assert clock.now() == 50.0 and clock.monotonic() == 0.0
    clock.advance(0.999)
    assert fired == []
    clock.advance(5.0)
    assert fired == [("early", 51.0), ("tie, set second", 51.0), ("late", 53.0)]
    assert clock.now() == pytest.approx(55.999) and clock.monotonic() == pytest.approx(5.999)


def test_manual_time_only_moves_forward() -> None:
    clock = ManualTime()
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="only moves forward"):
            clock.advance(bad)
    assert clock.now() == ManualTime().now()


def test_manual_sleep_and_wait_for_end_when_the_clock_says() -> None:
    async def scenario() -> None:
        clock = ManualTime()
        slept = asyncio.ensure_future(clock.sleep(10))
        never: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        waited = asyncio.ensure_future(clock.wait_for(never, 5))
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        answered = asyncio.ensure_future(clock.wait_for(done, 5))
        await asyncio.sleep(0)
        done.set_result(7)
        assert await answered == 7  # an answer before the time: its result
        clock.advance(4.9)
        await asyncio.sleep(0)
        assert not slept.done() and not waited.done()
        clock.advance(0.2)
        with pytest.raises(TimeoutError):
            await waited
        assert never.cancelled()
        assert not slept.done()
        clock.advance(5)
        await slept

    asyncio.run(scenario())


def test_system_time_is_the_clock_on_the_wall() -> None:
    async def scenario() -> None:
        clock = SystemTime()
        assert abs(clock.now() - time.time()) < 60
        woke = asyncio.get_running_loop().create_future()
        clock.call_later(0, lambda: woke.set_result(True))
        assert await clock.wait_for(woke, 60)

    asyncio.run(scenario())


def test_seeded_chance_repeats_and_system_chance_does_not() -> None:
    a, b = SeededChance(3), SeededChance(3)
    assert [a.token_bytes(32) for _ in range(3)] == [b.token_bytes(32) for _ in range(3)]
    assert [a.randbelow(2) for _ in range(20)] == [b.randbelow(2) for _ in range(20)]
    assert SeededChance(4).token_bytes(32) != SeededChance(3).token_bytes(32)
    system = SystemChance()
    assert system.token_bytes(32) != system.token_bytes(32)
    assert all(0 <= system.randbelow(6) < 6 for _ in range(50))


def test_the_time_route_exists_only_on_a_manual_time_server(server: ServerProcess) -> None:
    """A real server has no way to move its clock; a --manual-time one refuses bad moves."""

    async def scenario() -> None:
        player = Player(server)
        answer = await player.post("/api/test/time", {"advance_s": 5})
        assert answer.status_code in (404, 405)
        await player.close()

    asyncio.run(scenario())
    manual = ServerProcess(database_url("manual"), "--manual-time").start()
    try:

        async def moves() -> None:
            player = Player(manual)
            start = await player.advance_time(0)
            assert await player.advance_time(2.5) == start + 2.5
            for bad in ({"advance_s": -1}, {"advance_s": "5"}, {"advance_s": True}, {}, []):
                refused = await player.post("/api/test/time", bad)
                assert refused.status_code == 400 and refused.json()["error"]["code"] == (
                    "bad_request"
                ), bad
            assert await player.advance_time(0) == start + 2.5  # nothing refused moved it
            await player.close()

        asyncio.run(moves())
    finally:
        manual.stop()


def test_a_dice_seed_gives_the_same_games_on_every_run() -> None:
    """Two servers started with one --dice-seed commit to the same dice for the same table."""
    commitments = []
    for run in range(2):
        seeded = ServerProcess(database_url(f"seeded{run}"), "--dice-seed", "42").start()
        try:

            async def first_commitment(server: ServerProcess = seeded) -> str:
                alice, bob = await Player(server).guest(), await Player(server).guest()
                table = await alice.create(length=1)
                sock = await bob.table(table)
                await sock.act({"type": "join"})
                state = await alice.state(table)
                for player in (alice, bob):
                    await player.close()
                return str(state["game"]["commitment"])

            commitments.append(asyncio.run(first_commitment()))
        finally:
            seeded.stop()
    assert commitments[0] == commitments[1]
