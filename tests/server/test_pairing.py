"""Quick pairing (gammon.server.pairing, docs/PROTOCOL.md 7.1) on a real server whose time
the test drives: two seekers of one length are seated together, others wait, a seeker
who stops asking is dropped, and bad requests are refused in words."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from gammon.server.pairing import STALE_S, Pairing, clock_for, window
from gammon.server.timesource import ManualTime
from tests.server.client import Player, ServerProcess, database_url


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


@pytest.fixture(scope="module")
def paired_server() -> Iterator[ServerProcess]:
    process = ServerProcess(
        database_url("pairing"), "--signup-limit", "1000/0.01", "--manual-time"
    ).start()
    yield process
    process.stop()


async def _seek(player: Player, length: Any) -> dict[str, Any]:
    response = await player.post("/api/pairing", {"length": length})
    assert response.status_code == 200, response.text
    return dict(response.json()["pairing"])


async def _news(player: Player) -> Any:
    response = await player.http.get("/api/pairing")
    assert response.status_code == 200, response.text
    return response.json()["pairing"]


def test_two_seekers_of_one_length_are_seated_at_one_table(paired_server: ServerProcess) -> None:
    async def go() -> None:
        ann, bob, cid = [await Player(paired_server).signup() for _ in range(3)]
        first = await _seek(ann, 5)
        assert first["state"] == "waiting" and first["table"] is None
        assert first["rating"] == 1500 and first["window"] == window(0)
        other = await _seek(cid, 3)  # another length: nobody for them
        assert other["state"] == "waiting"
        second = await _seek(bob, 5)
        assert second["state"] == "paired" and second["table"] is not None
        news = await _news(ann)
        assert news["state"] == "paired" and news["table"] == second["table"]
        state = await ann.state(news["table"])
        names = {seat["name"] for seat in state["players"] if seat}
        assert names == {ann.user["name"], bob.user["name"]}  # type: ignore[index]
        assert state["settings"]["length"] == 5
        assert state["settings"]["clock"]["base_s"] == clock_for(5)["base_s"]
        assert (await _news(cid))["state"] == "waiting"
        for p in (ann, bob, cid):
            await p.close()

    run(go())


def test_a_seeker_who_stops_asking_is_dropped_and_one_may_cancel(
    paired_server: ServerProcess,
) -> None:
    async def go() -> None:
        ann, bob = await Player(paired_server).guest(), await Player(paired_server).guest()
        await _seek(ann, 7)
        await ann.advance_time(STALE_S + 1)
        # ann stopped asking: bob finds nobody, and ann's seek is gone.
        assert (await _seek(bob, 7))["state"] == "waiting"
        assert await _news(ann) is None
        cancelled = await bob.post("/api/pairing/cancel")
        assert cancelled.status_code == 200 and cancelled.json()["pairing"] is None
        assert await _news(bob) is None
        # Waiting widens the window: the news says so, on the test's clock.
        await _seek(ann, 7)
        await ann.advance_time(20)
        assert (await _news(ann))["window"] == window(20)
        for p in (ann, bob):
            await p.close()

    run(go())


def test_bad_requests_are_refused_in_words(paired_server: ServerProcess) -> None:
    async def go() -> None:
        stranger = Player(paired_server)
        refused = await stranger.post("/api/pairing", {"length": 5})
        assert refused.status_code == 401
        player = await Player(paired_server).guest()
        for body, where in (({"length": 4}, "length"), ({"length": "5"}, "length"),
                            ({"length": 5, "colour": 1}, "colour")):  # fmt: skip
            response = await player.post("/api/pairing", body)
            assert response.status_code == 400, body
            assert response.json()["error"]["field"] == where
        for p in (stranger, player):
            await p.close()

    run(go())


def test_the_closest_rating_within_the_window_is_chosen() -> None:
    # The rule on its own, with the server's own ManualTime; the table maker records the
    # pairs it is asked to seat.
    async def go() -> None:
        time = ManualTime()
        seated: list[list[str]] = []

        class Made:
            def __init__(self, number: int) -> None:
                self.id = number

        async def create(settings: dict[str, Any], pair: list[Any]) -> Any:
            assert settings["length"] == 3 and settings["clock"] == clock_for(3)
            seated.append(sorted(seeker.name for seeker in pair))
            return Made(len(seated))

        ratings = {1: 1500.0, 2: 1900.0, 3: 1620.0, 4: 2200.0}
        pairing = Pairing(create, ratings.get, lambda n: 0, time)

        class User:
            def __init__(self, number: int) -> None:
                self.id, self.name = number, f"u{number}"

        await pairing.seek(User(2), 3)  # type: ignore[arg-type]
        await pairing.seek(User(4), 3)  # type: ignore[arg-type]
        assert seated == []  # 300 apart: more than the first window
        await pairing.seek(User(1), 3)  # type: ignore[arg-type]
        await pairing.seek(User(3), 3)  # type: ignore[arg-type]
        assert seated == [["u1", "u3"]]  # 120 apart, the closest fit
        time.advance(16)  # the window is now 310: 1900 and 2200 meet
        assert (await pairing.poll(2))["state"] == "paired"  # type: ignore[index]
        assert seated == [["u1", "u3"], ["u2", "u4"]]

    run(go())
