"""Tournaments on a real server over HTTP and WebSockets: a Sit & Go of eight accounts played
to its winner with random legal plays, ratings as the FIBS formula says, a no-show forfeiting
on the clock, a satellite's winner seated in the target, and a server killed mid-round."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from gammon.server.ratings import Rating, rate_match
from tests.server.client import Player, ServerProcess, choose, database_url


def serve(name: str) -> ServerProcess:
    return ServerProcess(
        database_url(name),
        "--login-limit", "1000/0.01",
        "--signup-limit", "1000/0.01",
        "--message-rate", "500",
    ).start()  # fmt: skip


async def tournament(player: Player, number: int) -> dict[str, Any]:
    response = await player.http.get(f"/api/tournaments/{number}")
    assert response.status_code == 200, response.text
    return dict(response.json()["tournament"])


async def my_table(player: Player, number: int) -> tuple[str, int | None]:
    """The tournament's status, and the table of the match this player must play now."""
    t = await tournament(player, number)
    assert player.user is not None
    for round_ in t["rounds"]:
        for match in round_["matches"]:
            names = [p["name"] for p in match["players"] if p]
            if match["status"] == "ready" and player.user["name"] in names and match["table"]:
                return t["status"], match["table"]
    return t["status"], None


async def play_table(player: Player, table: int, rng: random.Random) -> None:
    sock = await player.table(table)
    try:
        while sock.state is None or sock.state["status"] != "finished":
            action = choose(sock.state, rng) if sock.state else None
            if action is not None:
                reply = await sock.request(action)
                if reply["type"] == "error" and reply["code"] not in ("stale", "not_your_turn"):
                    raise AssertionError(reply)
            else:
                await sock.receive(timeout=60)
    finally:
        await sock.close()


async def play_tournament(player: Player, number: int, rng: random.Random) -> None:
    """Play every match this player is drawn into, until the tournament is over."""
    deadline = time.monotonic() + 240
    played: set[int] = set()
    while time.monotonic() < deadline:
        status, table = await my_table(player, number)
        if status in ("finished", "cancelled"):
            return
        if table is not None and table not in played:
            await play_table(player, table, rng)
            played.add(table)
        else:
            await asyncio.sleep(0.2)
    raise AssertionError("the tournament did not finish in time")


def check_ratings(profiles: dict[str, dict[str, Any]]) -> None:
    """Every rated match, replayed in order through the formula, gives the ratings shown."""
    matches: dict[int, dict[str, Any]] = {}
    for name, profile in profiles.items():
        for match in profile["recent"]:
            entry = matches.setdefault(
                match["table"], {"at": match["at"], "length": match["length"]}
            )
            entry["won" if match["result"] == "won" else "lost"] = name
    ratings = {name: Rating() for name in profiles}
    for _, match in sorted(matches.items(), key=lambda kv: (kv[1]["at"], kv[0])):
        won, lost = rate_match(ratings[match["won"]], ratings[match["lost"]], match["length"])
        ratings[match["won"]], ratings[match["lost"]] = won, lost
    for name, profile in profiles.items():
        assert abs(profile["rating"] - ratings[name].rating) < 0.01, name
        assert profile["experience"] == ratings[name].experience
        assert len(profile["rating_history"]) == profile["matches"]


def test_eight_accounts_play_a_sit_and_go_to_its_winner() -> None:
    server = serve("sitandgo")
    try:

        async def main() -> None:
            players = [await Player(server).signup(f"sg{i}") for i in range(8)]
            created = await players[0].post(
                "/api/tournaments",
                {"name": "Friday eight", "kind": "sit_and_go", "seats": 8, "lengths": [1, 1, 3]},
            )
            assert created.status_code == 201, created.text
            number = created.json()["tournament"]["id"]
            guest = await Player(server).guest()
            refused = await guest.post(f"/api/tournaments/{number}/register")
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
            for player in players:
                answer = await player.post(f"/api/tournaments/{number}/register")
                assert answer.status_code == 200, answer.text
            t = await tournament(players[0], number)
            assert t["status"] == "running" and t["size"] == 8
            listed = (await players[0].http.get("/api/tournaments")).json()["tournaments"]
            assert any(s["id"] == number and s["status"] == "running" for s in listed)
            await asyncio.gather(
                *(play_tournament(p, number, random.Random(i)) for i, p in enumerate(players))
            )
            t = await tournament(players[0], number)
            assert t["status"] == "finished" and t["winner"] is not None
            assert all(m["status"] == "over" for r in t["rounds"] for m in r["matches"])
            assert [row["place"] for row in t["standings"]][:2] == ["1", "2"]
            profiles = {}
            for player in players:
                assert player.user is not None
                response = await player.http.get(f"/api/players/{player.user['name']}")
                profiles[player.user["name"]] = response.json()["player"]
            winner = profiles[t["winner"]["name"]]
            assert winner["wins"] == 3 and winner["matches"] == 3
            check_ratings(profiles)
            board = (await players[0].http.get("/api/players?search=sg")).json()
            assert board["total"] == 8 and board["players"][0]["name"] == t["winner"]["name"]
            for p in [*players, guest]:
                await p.close()

        asyncio.run(main())
    finally:
        server.stop()
