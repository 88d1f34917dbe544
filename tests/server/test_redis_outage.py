"""Redis gone and back, restarted empty (docs/DEPLOY.md 9: "the nodes carry on"): while it is
down every node's ``/readyz`` says it cannot reach its peers and its log says why, once;
once it is back the lobby lists every node's tables again, those made during the outage too.

Real processes: a ``redis-server`` of the test's own (stopped and started again, empty, on
its port), PostgreSQL, two ``gammon serve --redis`` nodes.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import waiting
from tests.server.client import Player, ServerProcess
from tests.server.nodes import Nodes, OwnRedis, cluster_or_skip

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


def ready(server: ServerProcess) -> tuple[int, dict[str, Any]]:
    answer = httpx.get(f"{server.url}/readyz", timeout=30)
    return answer.status_code, answer.json()


def logged(server: ServerProcess, text: str) -> bool:
    return text in Path(server.log_path).read_text()


async def listed(player: Player, *tables: int) -> bool:
    answer = await player.http.get("/api/tables")
    ids = {t["id"] for t in answer.json()["tables"]}
    return set(tables) <= ids


def test_redis_down_then_back_empty_readiness_log_and_the_lobby() -> None:
    cluster_or_skip()
    if shutil.which("redis-server") is None:
        pytest.skip("this test stops a redis-server of its own: install redis-server")
    with OwnRedis() as redis:
        nodes = Nodes(redis.url, 2, "outage").start()
        try:
            one, two = nodes[0], nodes[1]

            async def go() -> None:
                ann, bob = await Player(one).signup(), await Player(two).signup()
                open_one, open_two = await ann.create(length=1), await bob.create(length=1)
                await waiting.until(lambda: listed(ann, open_one, open_two), what="both lists")
                await waiting.until(lambda: listed(bob, open_one, open_two), what="both lists")
                for node in (one, two):
                    status, body = ready(node)
                    assert status == 200 and body["checks"]["peers"] == "ok", body

                redis.stop()
                for node in (one, two):
                    status, body = await waiting.until(
                        lambda node=node: (r := ready(node))[0] == 503 and r,
                        what="/readyz to say the peers are out of reach",
                    )
                    assert body["status"] == "not_ready", body
                    peers = body["checks"]["peers"]
                    assert peers.startswith("cannot reach the other nodes: Redis at "), peers
                    assert body["checks"]["database"] == "ok", body
                    await waiting.until(
                        lambda node=node: logged(node, f"cannot reach Redis at {redis.url}"),
                        what="the log to say Redis is out of reach",
                    )
                # A table made while Redis is down (the database is up: it is made).
                during = await ann.create(length=1)

                redis.start()  # on its port, empty
                for node in (one, two):
                    await waiting.until(
                        lambda node=node: ready(node)[0] == 200, what="/readyz to be 200 again"
                    )
                    await waiting.until(
                        lambda node=node: logged(node, "answers again"),
                        what="the log to say Redis is back",
                    )
                # Each owner has written its entries again: every node lists every table.
                every = (open_one, open_two, during)
                await waiting.until(lambda: listed(bob, *every), what="node two's lobby")
                await waiting.until(lambda: listed(ann, *every), what="node one's lobby")
                # Said once, not once a loop or a second.
                for node in (one, two):
                    text = Path(node.log_path).read_text()
                    assert text.count("cannot reach Redis at") == 1, text[-3000:]
                    assert "a tournament message from another node failed" not in text
                await ann.close()
                await bob.close()

            asyncio.run(go())
        finally:
            nodes.stop()
