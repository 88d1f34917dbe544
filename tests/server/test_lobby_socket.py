"""The lobby's pages over a real server on loopback (docs/PROTOCOL.md 7): a socket chooses
its view and pages through it, a new table reaches the page it is on, a bad view is refused
naming its field, and ``GET /api/tables`` takes the same filters in its query."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.client import Player, ServerProcess

#: A length no other test makes tables of, so the shared server's other tables stay out.
LENGTH = 13
VIEW = {"type": "lobby_view", "length": LENGTH, "variant": "hypergammon"}


def ids(message: dict[str, Any]) -> list[int]:
    return [table["id"] for table in message["tables"]]


def test_a_lobby_socket_filters_and_pages_and_hears_its_page_change(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        alice, bob = await Player(server).signup(), await Player(server).signup()
        made = [await alice.create(length=LENGTH, variant="hypergammon") for _ in range(3)]
        lobby = await bob.socket("/ws/lobby")
        first = await lobby.until(lambda m: m["type"] == "lobby")
        assert first["view"]["status"] == "open" and first["page"] == 0  # the default view
        assert len(first["tables"]) <= 50 and "tournaments" in first
        assert (await lobby.request({**VIEW, "size": 2}))["type"] == "ack"
        page = await lobby.until(lambda m: m["type"] == "lobby")
        assert ids(page) == made[:0:-1] and (page["total"], page["pages"]) == (3, 2)
        assert (await lobby.request({**VIEW, "size": 2, "page": 1}))["type"] == "ack"
        second = await lobby.until(lambda m: m["type"] == "lobby")
        assert ids(second) == made[:1] and second["page"] == 1
        # A new table is the newest, first on page 0: page 1 now holds the two oldest.
        newest = await alice.create(length=LENGTH, variant="hypergammon")
        pushed = await lobby.until(lambda m: m["type"] == "lobby")
        assert ids(pushed) == [made[1], made[0]] and pushed["total"] == 4
        # Refused as every message is: the field named, nothing changed.
        refused = await lobby.request({**VIEW, "status": "finished"})
        assert (refused["code"], refused["field"]) == ("bad_message", "status")
        refused = await lobby.request({**VIEW, "colour": "red"})
        assert (refused["code"], refused["field"]) == ("bad_message", "colour")
        # The same filters over HTTP.
        answer = await bob.http.get(
            "/api/tables", params={"length": LENGTH, "variant": "hypergammon", "size": 3}
        )
        assert answer.status_code == 200
        body = answer.json()
        assert ids(body) == [newest, made[2], made[1]] and (body["total"], body["pages"]) == (4, 2)
        bad = await bob.http.get("/api/tables", params={"size": "1000"})
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "size"
        assert bad.json()["error"]["code"] == "bad_request"
        playing = await bob.http.get("/api/tables", params={"status": "playing", "length": LENGTH})
        assert playing.json()["tables"] == []
        await lobby.close()
        for player in (alice, bob):
            await player.close()

    asyncio.run(scenario())
