"""Work shared by several nodes (issue 11): analysis jobs run once, tournaments run by one
node at a time and finished elsewhere when it dies.

Real ``gammon serve --redis`` processes on one PostgreSQL database and one Redis, as in
test_nodes.py; each test starts its own nodes.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests import waiting
from tests.server.client import Player, ServerProcess
from tests.server.nodes import Nodes, cluster_or_skip, on, redis_server
from tests.server.test_analysis import VECTORS, upload
from tests.server.test_analysis import finished as analysis_finished
from tests.server.test_tournament_server import play_table, play_tournament, wait_for

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


async def finished(player: Player, key: str) -> dict[str, Any]:
    """The job, polled through any node until it is done or failed."""
    return await analysis_finished(player, key, 180, in_line_here=False)


@pytest.fixture(scope="module")
def redis() -> Iterator[str]:
    cluster_or_skip()
    with redis_server() as url:
        yield url


def test_analysis_jobs_uploaded_through_two_nodes_each_run_once(redis: str) -> None:
    """A node whose queue is paused keeps its running job while it lives, and its queued
    one is taken by the idle node once it has waited; killed, its running job runs on the
    other; every job runs once."""
    nodes = Nodes(redis, 1, "nodes_analysis", "--analysis-workers", "0").start()
    paused = nodes[0]
    working = ServerProcess(
        nodes.database, "--redis", redis, "--lease-ttl", "2.0", "--signup-limit", "1000/1",
        "--analysis-workers", "1",
    )  # fmt: skip
    keys: dict[str, list[str]] = {"paused": [], "working": []}
    files = ("one_point.mat", "double_drop.mat")

    async def queue_on_paused() -> None:
        player = await Player(paused).guest()
        for name in files:
            response = await upload(player, name, (VECTORS / name).read_bytes())
            assert response.status_code == 202, response.text
            keys["paused"].append(response.json()["analysis"]["key"])
        await player.close()

    async def queue_on_working_and_wait() -> None:
        player = await Player(working).guest()
        for name in files:
            response = await upload(player, name, (VECTORS / name).read_bytes())
            assert response.status_code == 202, response.text
            keys["working"].append(response.json()["analysis"]["key"])
        for key in keys["working"]:
            job = await finished(player, key)
            assert job["status"] == "done", job["error"]
        await player.close()

    async def wait_for_paused_jobs(which: list[str] | None = None) -> None:
        player = Player(working)
        for key in keys["paused"] if which is None else which:
            job = await finished(player, key)
            assert job["status"] == "done", job["error"]
            assert job["document"]["games"]
        await player.close()

    try:
        asyncio.run(queue_on_paused())
        # The first as if a worker of the paused node were running it.
        nodes.query(
            "UPDATE analyses SET status = 'running' WHERE key = :k RETURNING key",
            k=keys["paused"][0],
        )
        working.start()
        asyncio.run(queue_on_working_and_wait())
        # The paused node lives and renews its claims: its running job stays its own, and
        # its queued one, waiting there, is taken by the idle node and run there once.
        asyncio.run(wait_for_paused_jobs(keys["paused"][1:]))
        rows = nodes.query(
            "SELECT status, runs, node FROM analyses WHERE key IN (:a, :b, :w) ORDER BY id",
            a=keys["paused"][0],
            b=keys["paused"][1],
            w=keys["working"][0],
        )
        working_node = rows[2].node
        assert tuple(rows[0])[:2] == ("running", 0) and rows[0].node != working_node
        assert tuple(rows[1]) == ("done", 1, working_node)
        paused.kill()
        asyncio.run(wait_for_paused_jobs())
        runs = nodes.query("SELECT key, status, runs, node FROM analyses ORDER BY id")
        assert len(runs) == 4
        assert all(row.status == "done" and row.runs == 1 for row in runs), runs
        # The dead node's jobs were claimed by the living one before they ran.
        assert {row.node for row in runs} == {runs[-1].node}
        # A node stopped gently hands its jobs on at once, not after its claims' time.
        paused.start()
        keys["paused"].clear()
        asyncio.run(queue_on_paused())
        held = {
            row.node for row in nodes.query("SELECT node FROM analyses WHERE status = 'queued'")
        }
        paused.stop()
        # Each is free at once, or already taken by the living node.
        handed = nodes.query(
            "SELECT key FROM analyses WHERE key IN (:a, :b) AND (node <> :held "
            "OR claimed_until < EXTRACT(EPOCH FROM clock_timestamp()))",
            a=keys["paused"][0],
            b=keys["paused"][1],
            held=held.pop(),
        )
        assert sorted(row.key for row in handed) == sorted(keys["paused"])
        asyncio.run(wait_for_paused_jobs())
        runs = nodes.query("SELECT status, runs FROM analyses")
        assert len(runs) == 6 and all(tuple(row) == ("done", 1) for row in runs), runs
    finally:
        working.stop()
        nodes.stop()


async def _visible(player: Player, number: int) -> None:
    """Wait until the player's node knows the tournament made on another node."""

    async def known() -> bool:  # polled: the node learns of it from the others (Redis)
        return (await player.http.get(f"/api/tournaments/{number}")).status_code == 200

    await waiting.until(known, what=f"tournament {number} to reach this node")


def _bracket(t: dict[str, Any]) -> tuple[Any, ...]:
    return t["status"], t["rounds"], t["standings"], t["winner"]


async def _same_everywhere(nodes: list[ServerProcess], number: int) -> dict[str, Any]:
    """The finished tournament's page on every node, once each shows it finished: the same."""
    pages = []
    for node in nodes:
        viewer = Player(node)
        pages.append(await wait_for(viewer, number, lambda t: t["status"] == "finished", 30))
        listed = (await viewer.http.get("/api/tournaments")).json()["tournaments"]
        assert any(s["id"] == number and s["status"] == "finished" for s in listed)
        await viewer.close()
    assert all(_bracket(page) == _bracket(pages[0]) for page in pages)
    return pages[0]


def test_a_sit_and_go_made_on_one_node_registered_through_three_played_to_its_winner(
    redis: str,
) -> None:
    nodes = Nodes(redis, 3, "nodes_sitandgo").start()
    try:

        async def main() -> None:
            players = [await Player(nodes[i % 3]).signup(f"ns{i}") for i in range(4)]
            created = await players[0].post(
                "/api/tournaments",
                {"name": "Three nodes", "kind": "sit_and_go", "seats": 4, "lengths": [1, 1]},
            )
            assert created.status_code == 201, created.text
            number = created.json()["tournament"]["id"]
            # A page and a lobby open on node 3 (not the runner): pushed every change.
            watcher = players[2]
            await _visible(watcher, number)
            page = await watcher.socket(f"/ws/tournaments/{number}")
            await page.until(lambda m: m["type"] == "tournament")
            lobby = await watcher.socket("/ws/lobby")
            await lobby.until(lambda m: m["type"] == "lobby")
            # Each player registers through their own node; node 3's page and lobby follow.
            for i, player in enumerate(players):
                await _visible(player, number)
                answer = await player.post(f"/api/tournaments/{number}/register")
                assert answer.status_code == 200, (i, answer.text)
                assert len(answer.json()["tournament"]["registered"]) == i + 1
                await page.until(
                    lambda m, n=i + 1: (
                        m["type"] == "tournament" and len(m["tournament"]["registered"]) == n
                    ),
                    timeout=10,
                )
            await lobby.until(
                lambda m: (
                    m["type"] == "lobby"
                    and any(
                        s["id"] == number and s["status"] == "running" for s in m["tournaments"]
                    )
                ),
                timeout=10,
            )
            await page.close()
            await lobby.close()
            again = await on(players[1], nodes[2]).post(f"/api/tournaments/{number}/register")
            assert again.json()["error"]["code"] == "not_registering", again.text
            for player in players:
                await wait_for(player, number, lambda t: t["status"] == "running", 10)
            await asyncio.gather(
                *(play_tournament(p, number, random.Random(i)) for i, p in enumerate(players))
            )
            page = await _same_everywhere(nodes.servers, number)
            assert page["winner"] is not None and page["standings"][0]["place"] == "1"
            # One runner wrote the log: one seq each, and the lease is given back at the end.
            seqs = nodes.query(
                "SELECT seq FROM tournament_actions WHERE tournament_id = :t ORDER BY seq",
                t=number,
            )
            assert [row.seq for row in seqs] == list(range(1, len(seqs) + 1))
            # An ended tournament is run by nobody: refused where it is asked, not taken over.
            for node in nodes.servers:
                late = await on(players[0], node).post(f"/api/tournaments/{number}/register")
                assert late.json()["error"]["code"] == "not_registering", late.text
            leases = nodes.query(
                "SELECT * FROM tournament_leases WHERE tournament_id = :t", t=number
            )
            assert leases == []
            for player in players:
                await player.close()

        asyncio.run(main())
    finally:
        nodes.stop()


def test_the_node_running_a_tournament_killed_mid_round_it_finishes_on_the_others(
    redis: str,
) -> None:
    nodes = Nodes(redis, 3, "nodes_tournament_kill").start()
    try:

        async def main() -> None:
            creator = await Player(nodes[0]).signup("nk0")
            players = [creator] + [
                await Player(nodes[1 + i % 2]).signup(f"nk{i}") for i in (1, 2, 3)
            ]
            created = await creator.post(
                "/api/tournaments", {"name": "Kill cup", "kind": "sit_and_go", "seats": 4,
                                     "lengths": [1, 1]},
            )  # fmt: skip
            assert created.status_code == 201, created.text
            number = created.json()["tournament"]["id"]
            runner = nodes.query(
                "SELECT node FROM tournament_leases WHERE tournament_id = :t", t=number
            )[0].node
            # The creator goes on through node 2: node 0 is about to die.
            players[0] = on(creator, nodes[2])
            for player in players:
                await _visible(player, number)
                answer = await player.post(f"/api/tournaments/{number}/register")
                assert answer.status_code == 200, answer.text
            t = await wait_for(players[1], number, lambda t: t["status"] == "running", 10)
            first = t["rounds"][0]["matches"][0]
            by_name = {p.user["name"]: p for p in players if p.user}
            await asyncio.gather(
                *(
                    play_table(by_name[p["name"]], first["table"], random.Random(i))
                    for i, p in enumerate(first["players"])
                )
            )
            before = await wait_for(
                players[1], number, lambda t: t["rounds"][0]["matches"][0]["status"] == "over", 30
            )
            nodes[0].kill()
            # Once the dead node's lease runs out, another node takes the tournament over
            # from its log, under a new fence.
            # Polled: the lease is a database row the other nodes write.
            lease = await waiting.until(
                lambda: [
                    row
                    for row in nodes.query(
                        "SELECT node, fence FROM tournament_leases WHERE tournament_id = :t",
                        t=number,
                    )
                    if row.node != runner
                ],
                interval=0.2,
                what="another node to take the tournament over",
            )
            assert lease[0].fence >= 2
            await asyncio.gather(
                *(play_tournament(p, number, random.Random(20 + i)) for i, p in enumerate(players))
            )
            page = await _same_everywhere(nodes.servers[1:], number)
            assert page["rounds"][0]["matches"][0] == before["rounds"][0]["matches"][0]
            logged = nodes.query(
                "SELECT action FROM tournament_actions WHERE tournament_id = :t ORDER BY seq",
                t=number,
            )
            assert logged[-1].action["type"] == "result"
            for player in players:
                await player.close()

        asyncio.run(main())
    finally:
        nodes.stop()


def test_a_scheduled_tournament_whose_node_died_starts_on_time_on_another(redis: str) -> None:
    """Its runner killed before the start: a registration arriving meanwhile waits for the
    takeover, and the new runner's timer starts it and the field plays it out."""
    nodes = Nodes(redis, 3, "nodes_scheduled").start()
    try:

        async def main() -> None:
            operator = await Player(nodes[0]).signup("nsop")  # the server's first account
            ann = await Player(nodes[1]).signup("nsann")
            bob = await Player(nodes[2]).signup("nsbob")
            cyd = await Player(nodes[2]).signup("nscyd")
            start_at = time.time() + 12
            created = await operator.post(
                "/api/tournaments",
                {"name": "Evening cup", "kind": "scheduled", "seats": 8, "start_at": start_at,
                 "lengths": [1, 1]},
            )  # fmt: skip
            assert created.status_code == 201, created.text
            number = created.json()["tournament"]["id"]
            for player in (ann, bob):
                await _visible(player, number)
                answer = await player.post(f"/api/tournaments/{number}/register")
                assert answer.status_code == 200, answer.text
            nodes[0].kill()
            # Its lease is still live: this one waits until a node takes the tournament over.
            await _visible(cyd, number)
            answer = await cyd.post(f"/api/tournaments/{number}/register")
            assert answer.status_code == 200, answer.text
            assert len(answer.json()["tournament"]["registered"]) == 3
            t = await wait_for(ann, number, lambda t: t["status"] == "running", 30)
            assert t["started_at"] >= start_at
            await asyncio.gather(
                *(play_tournament(p, number, random.Random(40 + i))
                  for i, p in enumerate((ann, bob, cyd)))
            )  # fmt: skip
            page = await _same_everywhere(nodes.servers[1:], number)
            assert page["winner"]["name"] in ("nsann", "nsbob", "nscyd")
            for player in (operator, ann, bob, cyd):
                await player.close()

        asyncio.run(main())
    finally:
        nodes.stop()
