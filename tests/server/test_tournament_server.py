"""Tournaments on a real server over HTTP and WebSockets: a Sit & Go of eight accounts played
to its winner with random legal plays, ratings as the FIBS formula says, a no-show forfeiting
on the clock, a satellite's winner seated in the target, and a server killed mid-round."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from gammon.server.ratings import Rating, rate_match
from tests.server.client import Player, ServerProcess, choose, database_url
from tests.waiting import until


def serve(name: str, *extra: str) -> ServerProcess:
    return ServerProcess(
        database_url(name),
        "--login-limit", "1000/0.01",
        "--signup-limit", "1000/0.01",
        "--message-rate", "500",
        *extra,
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
    played: set[int] = set()

    async def next_step() -> str | int | None:
        status, table = await my_table(player, number)
        if status in ("finished", "cancelled"):
            return status
        return table if table is not None and table not in played else None

    while True:
        step = await until(next_step, timeout=240, what=f"a match or the end of {number}")
        if isinstance(step, str):
            return
        await play_table(player, step, rng)
        played.add(step)


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


async def wait_for(player: Player, number: int, ok: Any, timeout: float = 60) -> dict[str, Any]:
    async def there() -> dict[str, Any] | None:
        t = await tournament(player, number)
        return t if ok(t) else None

    return await until(there, timeout=timeout, what=f"tournament {number} there")


def test_a_sit_and_go_filled_by_bots_starts_and_one_person_plays_it_out() -> None:
    """Bots take the empty seats after the wait, and the full Sit & Go starts at once (it
    stayed "registration open, 4/4" for good: the start was scheduled only when a person
    registered)."""
    server = serve("botfill", "--manual-time")
    try:

        async def main() -> None:
            ann = await Player(server).signup("ann")
            created = await ann.post(
                "/api/tournaments",
                {"name": "Solo", "seats": 4, "lengths": [1], "bots": "beginner",
                 "bots_after_s": 30},
            )  # fmt: skip
            assert created.status_code == 201, created.text
            number = created.json()["tournament"]["id"]
            assert (await ann.post(f"/api/tournaments/{number}/register")).status_code == 200
            await ann.advance_time(29)
            waiting = await tournament(ann, number)
            assert waiting["status"] == "registering" and len(waiting["registered"]) == 1
            await ann.advance_time(1.5)
            running = await wait_for(ann, number, lambda t: t["status"] == "running")
            assert len(running["registered"]) == 4
            assert sum(e["bot"] is not None for e in running["registered"]) == 3
            await play_tournament(ann, number, random.Random(7))
            done = await tournament(ann, number)
            assert done["status"] == "finished" and done["winner"] is not None
            await ann.close()

        asyncio.run(main())
    finally:
        server.stop()


def test_a_no_show_forfeits_on_the_clock_and_a_satellite_seats_its_winner() -> None:
    # The server's clock stands still until the test moves it: the start and the show-up
    # time are exact, and nobody waits for them.
    server = serve("noshow", "--manual-time")
    try:

        async def main() -> None:
            operator = await Player(server).signup("oper")  # the server's first account
            a, b, c, d = [await Player(server).signup(n) for n in ("ann", "bob", "cyd", "dot")]
            now = await operator.advance_time(0)
            # Only operators schedule tournaments.
            start_at = now + 3
            scheduled = {
                "name": "Evening cup", "kind": "scheduled", "seats": 8, "start_at": start_at,
                "show_up_s": 10, "lengths": [1],
            }  # fmt: skip
            refused = await a.post("/api/tournaments", scheduled)
            assert refused.status_code == 403, refused.text
            created = await operator.post("/api/tournaments", scheduled)
            assert created.status_code == 201, created.text
            cup = created.json()["tournament"]["id"]
            target = await operator.post(
                "/api/tournaments",
                {**scheduled, "name": "Main event", "start_at": now + 3600},
            )
            main_event = target.json()["tournament"]["id"]
            satellite = await c.post(
                "/api/tournaments",
                {
                    "name": "Qualifier",
                    "seats": 2,
                    "lengths": [1],
                    "satellite": {"target": main_event},
                },
            )
            assert satellite.status_code == 201, satellite.text
            qualifier = satellite.json()["tournament"]["id"]
            for player in (a, b):
                assert (await player.post(f"/api/tournaments/{cup}/register")).status_code == 200
            # Registering twice is refused and changes nothing.
            again = await a.post(f"/api/tournaments/{cup}/register")
            assert again.json()["error"]["code"] == "already_registered"

            # At the start time the bracket is drawn and the match's table made.
            await operator.advance_time(3.5)
            t = await wait_for(
                a, cup, lambda t: t["status"] == "running" and t["rounds"][0]["matches"][0]["table"]
            )
            match = t["rounds"][0]["matches"][0]
            assert match["status"] == "ready" and match["show_up_by"] is not None
            # Ann comes to her table; Bob never does, and after the show-up time he is out.
            sock = await a.table(match["table"])
            await operator.advance_time(9)
            assert (await tournament(a, cup))["status"] == "running"
            await operator.advance_time(1.5)
            t = await wait_for(a, cup, lambda t: t["status"] == "finished")
            assert t["winner"]["name"] == "ann"
            assert t["rounds"][0]["matches"][0]["how"] == "no_show"
            await sock.until(lambda m: m["type"] == "state" and m["status"] == "finished")
            table = await a.state(match["table"])
            assert table["result"]["reason"] == "forfeit"
            assert table["players"][table["result"]["winner"]]["name"] == "ann"
            bob = (await b.http.get("/api/players/bob")).json()["player"]
            assert bob["matches"] == 0 and bob["rating"] == 1500  # not rated: Bob never came
            assert bob["recent"][0]["result"] == "lost" and bob["recent"][0]["how"] == "forfeit"
            await sock.close()

            # The satellite: two seats, it starts when they are taken; its winner is
            # registered in the main event.
            for player in (c, d):
                assert (
                    await player.post(f"/api/tournaments/{qualifier}/register")
                ).status_code == 200
            await asyncio.gather(
                play_tournament(c, qualifier, random.Random(1)),
                play_tournament(d, qualifier, random.Random(2)),
            )
            q = await tournament(c, qualifier)
            assert q["status"] == "finished" and [e["name"] for e in q["qualified"]] == [
                q["winner"]["name"]
            ]
            # The seat is given once the satellite's result is committed: a moment after
            # the satellite shows "finished".
            winner = q["winner"]["name"]
            target_now = await wait_for(
                c, main_event, lambda t: any(e["name"] == winner for e in t["registered"])
            )
            seated = {e["name"]: e for e in target_now["registered"]}
            assert seated[winner]["qualified_from"] == qualifier
            for player in (operator, a, b, c, d):
                await player.close()

        asyncio.run(main())
    finally:
        server.stop()


def test_a_match_neither_player_came_to_ends_without_a_winner_on_record() -> None:
    """Nobody goes through (1.6), and the table is no forfeit won by side 1: no winner in its
    result, no win or loss in either profile or record against the other, no .mat."""
    server = serve("noshow_both", "--manual-time")
    try:

        async def main() -> None:
            a, b = [await Player(server).signup() for _ in range(2)]
            created = await a.post(
                "/api/tournaments",
                {"name": "Nobody came", "seats": 2, "show_up_s": 10, "lengths": [1]},
            )
            assert created.status_code == 201, created.text
            number = created.json()["tournament"]["id"]
            for player in (a, b):
                response = await player.post(f"/api/tournaments/{number}/register")
                assert response.status_code == 200, response.text
            t = await wait_for(
                a, number, lambda t: t["rounds"] and t["rounds"][0]["matches"][0]["table"]
            )
            table = t["rounds"][0]["matches"][0]["table"]
            await a.advance_time(10.5)
            t = await wait_for(a, number, lambda t: t["status"] == "finished")
            match = t["rounds"][0]["matches"][0]
            assert match["how"] == "no_show" and match["winner"] is None and t["winner"] is None

            async def ended() -> dict[str, Any] | None:
                state = await a.state(table)
                return state if state["status"] == "finished" else None

            state = await until(ended, timeout=60, what="the no-show table to end")
            assert state["result"] == {"winner": None, "reason": "no_show", "score": [0, 0]}
            assert state["last"]["type"] == "no_show" and state["last"]["side"] is None
            for player, other in ((a, b), (b, a)):
                assert player.user is not None and other.user is not None
                name = player.user["name"]
                profile = (await player.http.get(f"/api/players/{name}")).json()["player"]
                assert profile["matches"] == 0 and profile["wins"] == 0, profile
                assert profile["rating"] == 1500 and profile["rating_history"] == []
                assert [m["result"] for m in profile["recent"]] == ["unplayed"]
                assert profile["recent"][0]["how"] == "no_show"
                assert profile["opponents"] == [] and profile["recent"][0]["mat"] is None
            mat = await a.http.get(f"/api/tables/{table}/mat")
            assert mat.status_code == 404, mat.text
            assert mat.json()["error"]["code"] == "no_such_game"
            await a.close()
            await b.close()
            # A restart rebuilds the table from its log: the same end.
            server.stop()
            server.start()
            reader = Player(server)
            assert (await reader.state(table))["result"] == state["result"]
            await reader.close()

        asyncio.run(main())
    finally:
        server.stop()


def test_a_server_killed_mid_round_restarts_and_the_bracket_continues() -> None:
    server = serve("tournament-kill")
    try:

        async def first_half() -> tuple[int, dict[str, Any]]:
            players = [await Player(server).signup(f"kk{i}") for i in range(4)]
            created = await players[0].post(
                "/api/tournaments", {"name": "Crash cup", "seats": 4, "lengths": [1, 3]}
            )
            number = created.json()["tournament"]["id"]
            for player in players:
                assert (await player.post(f"/api/tournaments/{number}/register")).status_code == 200
            t = await tournament(players[0], number)
            first, second = t["rounds"][0]["matches"]
            # The first match is played to its end; the second is left in the middle.
            by_name = {p.user["name"]: p for p in players if p.user}
            await asyncio.gather(
                *(
                    play_table(by_name[p["name"]], first["table"], random.Random(i))
                    for i, p in enumerate(first["players"])
                )
            )
            socks = [await by_name[p["name"]].table(second["table"]) for p in second["players"]]
            rng = random.Random(5)
            for _ in range(6):
                for sock in socks:
                    if sock.state and (action := choose(sock.state, rng)):
                        await sock.request(action)
            t = await wait_for(
                players[0], number, lambda t: t["rounds"][0]["matches"][0]["status"] == "over"
            )
            for player in players:
                await player.close()
            return number, t

        number, before = asyncio.run(first_half())
        server.kill()
        server.start()

        async def second_half() -> None:
            players = []
            for i in range(4):
                player = Player(server)
                login = await player.post(
                    "/api/login", {"name": f"kk{i}", "password": "correct horse"}
                )
                assert login.status_code == 200
                player.user = login.json()["user"]
                players.append(player)
            after = await tournament(players[0], number)
            for key in ("status", "registered", "size", "rounds", "standings"):
                assert after[key] == before[key], key
            await asyncio.gather(
                *(play_tournament(p, number, random.Random(10 + i)) for i, p in enumerate(players))
            )
            done = await tournament(players[0], number)
            assert done["status"] == "finished"
            final = done["rounds"][1]["matches"][0]
            assert (
                final["players"][0]["name"]
                == before["rounds"][0]["matches"][0]["players"][
                    [p["entry"] for p in before["rounds"][0]["matches"][0]["players"]].index(
                        before["rounds"][0]["matches"][0]["winner"]
                    )
                ]["name"]
            )
            for player in players:
                await player.close()

        asyncio.run(second_half())
    finally:
        server.stop()


def test_a_tournaments_socket_pushes_the_bracket_and_carries_its_chat() -> None:
    """PROTOCOL.md 6.1: /ws/tournaments/ID sends the tournament on connect and on every
    change (no polling), and is the tournament's chat room under the house rules."""
    server = serve("tournament_room")

    async def main() -> None:
        operator = await Player(server).signup()  # the first account: the operator
        alice, bob = await Player(server).signup(), await Player(server).signup()
        assert alice.user is not None and bob.user is not None
        made = await alice.post("/api/tournaments", {"name": "Chatty", "seats": 2, "lengths": [1]})
        assert made.status_code == 201, made.text
        number = made.json()["tournament"]["id"]
        path = f"/ws/tournaments/{number}"

        a = await alice.socket(path)
        hello = await a.until(lambda m: m["type"] == "hello")
        assert hello["tournament"] == number and "English" in hello["house_rules"]
        assert (await a.until(lambda m: m["type"] == "chat_history"))["messages"] == []
        first = await a.until(lambda m: m["type"] == "tournament")
        assert first["tournament"]["status"] == "registering"
        assert first["tournament"]["registered"] == []

        # The bracket pushed as it changes: a registration, then the start and its table.
        assert (await alice.post(f"/api/tournaments/{number}/register")).status_code == 200
        pushed = await a.until(lambda m: m["type"] == "tournament", timeout=10)
        assert [e["name"] for e in pushed["tournament"]["registered"]] == [alice.user["name"]]
        b = await bob.socket(path)
        await b.until(lambda m: m["type"] == "tournament")
        assert (await bob.post(f"/api/tournaments/{number}/register")).status_code == 200
        running = await a.until(
            lambda m: (
                m["type"] == "tournament"
                and m["tournament"]["rounds"]
                and m["tournament"]["rounds"][0]["matches"][0]["table"] is not None
            ),
            timeout=10,
        )
        assert running["tournament"]["status"] == "running"

        # The chat, under the house rules: masked, refused, muted, and not for the anonymous.
        reply = await a.request({"type": "chat", "text": "good luck, you moron"})
        assert reply["type"] == "ack", reply
        said = await b.until(lambda m: m["type"] == "chat", timeout=10)
        assert said["message"]["user"] == alice.user["name"]
        assert said["message"]["text"] == "good luck, you *****"
        refused = await b.request({"type": "chat", "text": "visit http://spam.example"})
        assert refused["type"] == "error" and refused["code"] == "chat_refused"
        assert (await b.request({"type": "mute", "user": alice.user["name"]}))["type"] == "ack"
        assert (await a.request({"type": "chat", "text": "can you hear me"}))["type"] == "ack"
        assert any(m["type"] == "chat" and m["message"]["text"] == "can you hear me"
                   for m in a.seen)  # fmt: skip
        await b.send({"type": "ping"})
        await b.until(lambda m: m["type"] == "pong")  # everything sent to b before it is in
        assert not any(
            m["type"] == "chat" and m["message"]["text"] == "can you hear me" for m in b.seen
        )
        anonymous = await Player(server).socket(path)
        await anonymous.until(lambda m: m["type"] == "tournament")
        nobody = await anonymous.request({"type": "chat", "text": "hello"})
        assert nobody["code"] == "not_signed_in"
        reported = await b.request({"type": "report", "user": alice.user["name"],
                                    "reason": "name-calling"})  # fmt: skip
        assert reported["type"] == "ack"
        assert any(m["type"] == "reported" for m in b.seen)

        # The history comes back on a new connection (from memory, or from the database
        # once the server has seen all leave: the same lines either way).
        for sock in (a, b, anonymous):
            await sock.close()
        again = await bob.socket(path)
        history = await again.until(lambda m: m["type"] == "chat_history")
        assert [m["text"] for m in history["messages"]] == [
            "good luck, you *****",
            "can you hear me",
        ]
        # It is the tournament's own: the lobby's chat does not have it.
        lobby = await bob.socket("/ws/lobby")
        lobby_history = await lobby.until(lambda m: m["type"] == "chat_history")
        assert lobby_history["messages"] == []

        # The operator's ban closes the banned player's socket (4403); kick is for tables.
        op = await operator.socket(path)
        await op.until(lambda m: m["type"] == "tournament")
        kick = await op.request({"type": "kick", "user": bob.user["name"]})
        assert kick["type"] == "error" and kick["code"] == "bad_message"
        ban = await op.request({"type": "ban", "user": bob.user["name"], "minutes": 5})
        assert ban["type"] == "ack"
        with pytest.raises(ConnectionClosed) as closed:
            await again.until(lambda m: False, timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        for sock in (op, lobby):
            await sock.close()
        for player in (operator, alice, bob):
            await player.close()

        # No such tournament: closed with 4404.
        with pytest.raises(ConnectionClosed) as missing:
            ghost = await Player(server).socket("/ws/tournaments/999999")
            await ghost.receive(timeout=10)
        assert missing.value.rcvd is not None and missing.value.rcvd.code == 4404

    try:
        asyncio.run(main())
    finally:
        server.stop()
