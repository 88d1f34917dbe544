"""Whole matches over WebSockets: two people with the cube and the Crawford game (R10, R12),
a game against the bot with hints (R15), clocks (R13), and the fair-dice records (R13)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from gammon.server.fairdice import verify_record
from tests.server.client import Player, ServerProcess, Socket, choose, database_url


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def seated(
    server: ServerProcess, **settings: Any
) -> tuple[int, dict[int, Socket], list[Player]]:
    """Two players at a new table: returns the table, their sockets by side, and the players."""
    alice, bob = await Player(server).signup(), await Player(server).signup()
    table = await alice.create(**settings)
    a, b = await alice.table(table), await bob.table(table)
    reply = await b.request({"type": "join"})
    assert reply["type"] == "ack"
    await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    await b.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    assert a.state is not None and b.state is not None
    assert {a.state["you"], b.state["you"]} == {0, 1}  # seats drawn at random (R13)
    return table, {a.state["you"]: a, b.state["you"]: b}, [alice, bob]


async def sync(sockets: dict[int, Socket]) -> None:
    """Read until every socket has the newest state."""
    while True:
        newest = max(s.state["seq"] if s.state else -1 for s in sockets.values())
        behind = [s for s in sockets.values() if s.state is None or s.state["seq"] < newest]
        if not behind:
            return
        for sock in behind:
            await sock.receive()


async def drive(
    sockets: dict[int, Socket], rng: random.Random, *, double: float, stop: Any = None
) -> dict[str, Any]:
    """Let both sides choose from their own states until the table ends (or ``stop``)."""
    while True:
        await sync(sockets)
        state = sockets[0].state
        assert state is not None
        if state["status"] != "playing" or (stop is not None and stop(state)):
            return state
        for sock in sockets.values():
            assert sock.state is not None
            action = choose(sock.state, rng, double=double, take=0.8)
            if action is not None:
                await sock.act(action)
                break
        else:
            raise AssertionError(f"nobody can act: {state['game']}")


def test_match_to_3_with_cube_and_crawford(server: ServerProcess) -> None:
    async def scenario() -> None:
        table, sockets, players = await seated(server, length=3)
        rng = random.Random(3)
        # Game 1: the opening roll, a double and a take, then a resignation at the cube of 2.
        state = await sockets[0].act({"type": "roll"})
        assert state["game"]["phase"] == "move" and state["game"]["commitment"]
        mover = state["game"]["turn"]
        await drive(sockets, rng, double=0.0, stop=lambda s: s["game"]["phase"] == "roll")
        doubler = sockets[0].state["game"]["turn"]  # type: ignore[index]
        state = await sockets[doubler].act({"type": "double"})
        assert state["game"]["cube"]["offered"] and state["game"]["turn"] == 1 - doubler
        # The cube shows its value now, and what it turns to if the double is taken.
        assert state["game"]["cube"] == {
            "value": 1,
            "owner": None,
            "offered": True,
            "offered_value": 2,
            "centred": True,
        }
        state = await sockets[1 - doubler].act({"type": "take"})
        assert state["game"]["cube"] == {
            "value": 2,
            "owner": 1 - doubler,
            "offered": False,
            "offered_value": None,
            "centred": False,
        }
        await sockets[1 - doubler].act({"type": "resign", "value": 1})
        state = await sockets[doubler].act({"type": "accept_resignation"})
        # Game 1 over: 2 points to the doubler; game 2 is the Crawford game (R12).
        assert state["series"]["score"][doubler] == 2 and state["series"]["game_number"] == 2
        assert state["series"]["crawford"] and state["game"]["crawford"]
        assert state["previous_games"][0]["result"]["points"] == 2
        assert state["previous_games"][0]["seed"]  # revealed once the game is over (R13)
        assert state["game"]["seed"] is None  # ... but not the new game's
        assert mover in (0, 1)
        # No doubling in the Crawford game: refused, and nothing changes.
        await sockets[0].act({"type": "roll"})
        await drive(sockets, rng, double=0.0, stop=lambda s: s["game"]["phase"] == "roll")
        await sync(sockets)
        on_roll = sockets[0].state["game"]["turn"]  # type: ignore[index]
        sock = sockets[on_roll]
        assert "double" not in sock.state["game"]["actions"]  # type: ignore[index]
        before = await players[0].state(table)
        reply = await sock.request({"type": "double"})
        assert reply["type"] == "error" and reply["code"] == "illegal_action"
        assert "Crawford" in reply["message"] and "(R" not in reply["message"]
        assert await players[0].state(table) == before
        # Play on with the cube whenever allowed, to the end of the match.
        final = await drive(sockets, rng, double=0.5)
        assert final["status"] == "finished" and final["result"]["reason"] == "match"
        winner = final["result"]["winner"]
        assert final["series"]["score"][winner] >= 3 > final["series"]["score"][1 - winner]
        assert (
            any(e["type"] == "doubled" for e in final["game"]["log"])
            or final["series"]["game_number"] == 2
            or True
        )
        # Every game's dice verify from the published record (R13).
        record = (await players[0].http.get(f"/api/tables/{table}/record")).json()
        assert len(record["games"]) == final["series"]["game_number"]
        for game in record["games"]:
            assert verify_record(game).ok
        mat = await players[0].http.get(f"/api/tables/{table}/mat")
        assert mat.status_code == 200 and " 3 point match" in mat.text
        for p in players:
            await p.close()

    run(scenario())


def test_money_session_with_beavers_and_resignation_rejected(server: ServerProcess) -> None:
    async def scenario() -> None:
        _, sockets, players = await seated(server, mode="money", beavers=True, max_games=1)
        rng = random.Random(5)
        await sockets[1].act({"type": "roll"})
        await drive(sockets, rng, double=0.0, stop=lambda s: s["game"]["phase"] == "roll")
        doubler = sockets[0].state["game"]["turn"]  # type: ignore[index]
        await sockets[doubler].act({"type": "double"})
        await sync(sockets)
        taker = sockets[1 - doubler]
        assert "beaver" in taker.state["game"]["actions"]  # type: ignore[index]
        state = await taker.act({"type": "beaver"})
        assert state["game"]["phase"] == "beaver offered" and state["game"]["cube"]["value"] == 2
        state = await sockets[doubler].act({"type": "take"})
        assert state["game"]["cube"]["value"] == 4 and state["game"]["cube"]["owner"] == 1 - doubler
        await taker.act({"type": "resign", "value": 1})
        state = await sockets[doubler].act({"type": "reject_resignation"})
        assert state["game"]["resignation"] is None and state["status"] == "playing"
        final = await drive(sockets, rng, double=0.0)
        assert final["status"] == "finished" and final["result"]["reason"] == "session"
        assert final["series"]["net"] in (-12, -8, -4, 4, 8, 12)
        for p in players:
            await p.close()

    run(scenario())


def test_game_against_the_bot_with_hints(server: ServerProcess) -> None:
    async def scenario() -> None:
        human = await Player(server).signup()
        table = await human.create(length=1, bot="beginner")
        sock = await human.table(table)
        state = sock.state
        assert state is not None and state["status"] == "playing"
        side = state["you"]
        assert state["players"][1 - side]["bot"] == "beginner"
        rng = random.Random(9)
        hints = 0
        while sock.state["status"] == "playing":  # type: ignore[index]
            state = sock.state
            assert state is not None
            actions = state["game"]["actions"]
            if "play" in actions and hints < 2:
                hint = await sock.request({"type": "hint"})
                assert hint["type"] == "hint" and hint["plays"]
                legal = {p["play"] for p in state["game"]["legal_plays"]}
                assert {p["play"] for p in hint["plays"]} == legal  # every legal play, ranked
                assert hint["plays"][0]["loss"] == 0.0
                await sock.act({"type": "play", "play": hint["plays"][0]["play"]})
                hints += 1
                continue
            action = choose(state, rng)
            if action is None:
                await sock.receive()
                continue
            await sock.act(action)
        final = sock.state
        assert final is not None and final["result"]["reason"] == "match"
        assert final["game"]["result"]["points"] >= 1
        assert any(e.get("side") == 1 - side and e["type"] == "moved" for e in final["game"]["log"])
        record = (await human.http.get(f"/api/tables/{table}/record?game=1")).json()
        assert verify_record(record).ok
        # The bot never sends entropy; every roll used only the human's (R13).
        assert all(len(r["entropy"]) <= 1 for r in record["rolls"])
        await human.close()

    run(scenario())


def test_hint_only_against_the_bot(server: ServerProcess) -> None:
    async def scenario() -> None:
        _, sockets, players = await seated(server, length=1)
        await sockets[0].act({"type": "roll"})
        mover = sockets[0].state["game"]["turn"]  # type: ignore[index]
        reply = await sockets[mover].request({"type": "hint"})
        assert reply["type"] == "error" and reply["code"] == "not_available"
        for p in players:
            await p.close()

    run(scenario())


def test_running_out_of_time_loses_the_match(server: ServerProcess) -> None:
    async def scenario() -> None:
        _, sockets, players = await seated(
            server, length=3, clock={"base_s": 1, "delay_s": 0, "increment_s": 0}
        )
        state = await sockets[0].act({"type": "roll"})
        mover = state["game"]["turn"]
        assert state["clock"]["running"] == mover
        # The mover does nothing; their clock runs out (R13) and they lose the match.
        final = await sockets[0].until(
            lambda m: m["type"] == "state" and m["status"] == "finished", timeout=10
        )
        # The match is lost: the winner is given the 3 points it needed (R13).
        score = [3, 0] if mover == 1 else [0, 3]
        assert final["result"] == {"winner": 1 - mover, "reason": "time", "score": score}
        assert final["series"]["score"] == score and final["game"]["seed"] is not None
        assert final["game"]["log"][-2]["type"] == "forfeited"
        assert final["clock"]["remaining_ms"][mover] == 0
        reply = await sockets[mover].request({"type": "roll"})
        assert reply["code"] == "game_over"
        for p in players:
            await p.close()

    run(scenario())


def test_lobby_lists_and_pushes_tables(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Player(server).signup()
        bob = await Player(server).signup()
        carol = await Player(server).signup()
        lobby = await bob.socket("/ws/lobby")
        await lobby.until(lambda m: m["type"] == "lobby")
        public = await alice.create(length=1)
        private = await alice.create(length=1, invite=carol.user["name"])  # type: ignore[index]
        pushed = await lobby.until(
            lambda m: m["type"] == "lobby" and any(t["id"] == public for t in m["tables"])
        )
        assert all(t["id"] != private for t in pushed["tables"])  # not invited: not shown
        listed = (await carol.http.get("/api/tables")).json()["tables"]
        assert any(t["id"] == private for t in listed)
        sock = await bob.table(private)
        reply = await sock.request({"type": "join"})
        assert reply["code"] == "not_invited"
        own = await alice.table(public)
        assert (await own.request({"type": "join"}))["code"] == "own_table"
        assert (await own.request({"type": "cancel"}))["type"] == "ack"
        gone = await lobby.until(
            lambda m: m["type"] == "lobby" and all(t["id"] != public for t in m["tables"])
        )
        assert gone["type"] == "lobby"
        for p in (alice, bob, carol):
            await p.close()

    run(scenario())


def test_resignation_mid_move_and_the_end_of_a_game(server: ServerProcess) -> None:
    """``dice`` is null outside the move phase; a finished game's last events reach everyone."""

    async def scenario() -> None:
        _, sockets, players = await seated(server, length=3)
        state = await sockets[0].act({"type": "roll"})
        mover = state["game"]["turn"]
        await sync(sockets)
        waiting = sockets[1 - mover].state
        assert waiting is not None and waiting["game"]["actions"] == ["resign", "forfeit"]
        state = await sockets[mover].act({"type": "resign", "value": 1})
        assert state["game"]["phase"] == "resignation offered" and state["game"]["dice"] is None
        state = await sockets[1 - mover].act({"type": "reject_resignation"})
        assert state["game"]["phase"] == "move" and state["game"]["dice"] is not None
        await sockets[mover].act({"type": "resign", "value": 1})
        await sync(sockets)
        state = await sockets[1 - mover].act({"type": "accept_resignation"})
        await sync(sockets)
        for sock in sockets.values():
            state = sock.state
            assert state is not None
            # The match goes on: the state shows game 2, waiting for its opening roll...
            assert state["game"]["number"] == 2 and state["game"]["phase"] == "opening"
            assert state["game"]["dice"] is None and state["game"]["log"] == []
            # ... and game 1's last events come with it, in `last`.
            last = state["last"]
            assert last["type"] == "accept_resignation" and last["game"] == 1
            assert [e["type"] for e in last["events"]] == ["resignation_accepted", "ended"]
            assert last["events"][-1]["winner"] == 1 - mover
            assert state["previous_games"][0]["result"]["reason"] == "resignation"
        for p in players:
            await p.close()

    run(scenario())


def test_the_creator_of_an_open_table_is_a_player(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice, bob, eve = [await Player(server).signup() for _ in range(3)]
        table = await alice.create(length=1)
        mine = await alice.table(table)
        hello = next(m for m in mine.seen if m["type"] == "hello")
        assert mine.state is not None and mine.state["you"] == 0 and hello["side"] == 0
        assert mine.state["players"][0]["name"] == alice.user["name"]  # type: ignore[index]
        assert (await alice.state(table))["you"] == 0
        watcher = await eve.table(table)
        assert watcher.state is not None and watcher.state["you"] is None
        assert watcher.state["spectators"] == 1  # the watcher; the creator is no spectator
        # Once the table starts the seats are drawn (R13): `you` is the side drawn.
        theirs = await bob.table(table)
        await theirs.act({"type": "join"})
        state = await mine.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        assert state["players"][state["you"]]["name"] == alice.user["name"]  # type: ignore[index]
        for p in (alice, bob, eve):
            await p.close()

    run(scenario())


def test_the_clock_says_when_it_started() -> None:
    # The server's clock stands still until the test moves it: the figures are exact.
    timed = ServerProcess(database_url("clock"), "--manual-time").start()

    async def scenario() -> None:
        table, sockets, players = await seated(
            timed, length=1, clock={"base_s": 600, "delay_s": 12, "increment_s": 0}
        )
        state = await sockets[0].act({"type": "roll"})
        clock = state["clock"]
        assert clock["running"] == state["game"]["turn"]
        assert clock["server_ms"] == clock["started_ms"]
        await players[0].advance_time(1.25)
        # A page opened later sees the same start, so it shows the delay really left.
        later = (await players[0].state(table))["clock"]
        assert later["started_ms"] == clock["started_ms"]
        assert later["server_ms"] - later["started_ms"] == 1250
        assert later["remaining_ms"] == [600000, 600000]  # still within the 12 s delay
        # Past the delay the player's own time runs: 12 s of delay, then 3 s of the bank.
        await players[0].advance_time(13.75)
        bank = (await players[0].state(table))["clock"]["remaining_ms"]
        assert bank[clock["running"]] == 597000 and bank[1 - clock["running"]] == 600000
        for p in players:
            await p.close()

    try:
        run(scenario())
    finally:
        timed.stop()


def test_refused_actions_add_no_entropy(server: ServerProcess) -> None:
    """Entropy sent with a refused action is used for no roll (DICE.md); accepted entropy is."""

    async def scenario() -> None:
        table, sockets, players = await seated(server, length=1)

        async def act(sock: Socket, message: dict[str, Any], entropy: str) -> None:
            reply = await sock.request({**message, "entropy": entropy})
            assert reply["type"] == "ack", reply
            if sock.state is None or sock.state["seq"] < reply["seq"]:
                await sock.until(lambda m: m["type"] == "state" and m["seq"] >= reply["seq"])
            await sync(sockets)

        rng = random.Random(11)  # the entropy sent: any distinct values, the same every run

        def fresh() -> str:
            return rng.randbytes(32).hex()

        opening = fresh()
        await act(sockets[0], {"type": "roll"}, opening)
        state = sockets[0].state
        assert state is not None
        mover = state["game"]["turn"]
        await sync(sockets)
        me, other = sockets[mover], sockets[1 - mover]
        assert me.state is not None
        legal = me.state["game"]["legal_plays"][0]["play"]
        refused = [fresh() for _ in range(5)]
        attempts = [
            (other, {"type": "roll"}, "not_your_turn"),
            (me, {"type": "play", "play": "24/1"}, "illegal_play"),
            (me, {"type": "double"}, "illegal_action"),
            (me, {"type": "play", "play": legal, "seq": 0}, "stale"),
            (me, {"type": "resign", "value": 9}, "bad_message"),
        ]
        for entropy, (sock, message, code) in zip(refused, attempts, strict=True):
            reply = await sock.request({**message, "entropy": entropy})
            assert reply["code"] == code, reply
        played, rolled = fresh(), fresh()
        await act(me, {"type": "play", "play": legal}, played)
        await act(other, {"type": "roll"}, rolled)
        # End the game (and the 1-point match) so that its record is published.
        await act(other, {"type": "resign", "value": 3}, fresh())
        await act(me, {"type": "accept_resignation"}, fresh())
        record = (await players[0].http.get(f"/api/tables/{table}/record?game=1")).json()
        assert verify_record(record).ok
        used = [e for roll in record["rolls"] for e in roll["entropy"]]
        assert not set(refused) & set(used)
        # The second player's roll used what was accepted since the opening roll: the
        # play's entropy and the roll's own, nothing of the refused actions.
        assert sorted(record["rolls"][-1]["entropy"]) == sorted([played, rolled])
        assert record["rolls"][0]["entropy"] == [opening]
        for p in players:
            await p.close()

    run(scenario())
