"""Players over HTTP: a guest who signs up keeps the matches they played, profiles and the
leaderboard answer, and a rated match against the bot moves the rating as the formula says."""

from __future__ import annotations

import asyncio

from gammon.server.ratings import BOT_RATINGS, Rating, rate_match
from tests.server.client import Player, ServerProcess, database_url


def test_a_guest_who_signs_up_keeps_their_games(server: ServerProcess) -> None:
    async def main() -> None:
        guest = await Player(server).guest()
        assert guest.user is not None
        table = await guest.create(length=1, bot="beginner")
        sock = await guest.table(table)
        assert sock.state is not None
        if "roll" in sock.state["game"]["actions"]:
            await sock.act({"type": "roll"})
        assert (await sock.act({"type": "forfeit"}))["status"] == "finished"
        await sock.close()
        as_guest = (await guest.http.get(f"/api/players/{guest.user['name']}")).json()["player"]
        assert as_guest["guest"] and as_guest["recent"][0]["table"] == table
        assert as_guest["matches"] == 0  # guests are unrated

        signed = await guest.post("/api/signup", {"name": "keeper", "password": "correct horse"})
        assert signed.status_code == 201, signed.text
        user = signed.json()["user"]
        assert user["id"] == guest.user["id"] and user["name"] == "keeper" and not user["guest"]
        profile = (await guest.http.get("/api/players/keeper")).json()["player"]
        assert not profile["guest"] and profile["recent"][0]["table"] == table
        assert profile["recent"][0]["opponent"] == "gammon-beginner"
        assert profile["recent"][0]["result"] == "lost"
        missing = await guest.http.get(f"/api/players/{guest.user['name']}")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_such_player"
        # The new account logs in with its password and is the same user.
        again = Player(server)
        login = await again.post("/api/login", {"name": "keeper", "password": "correct horse"})
        assert login.json()["user"]["id"] == guest.user["id"]
        for p in (guest, again):
            await p.close()

    asyncio.run(main())


def test_a_rated_match_against_the_bot_and_the_leaderboard(server: ServerProcess) -> None:
    async def main() -> None:
        me = await Player(server).signup("botrated")
        table = await me.create(length=1, bot="expert")
        sock = await me.table(table)
        assert sock.state is not None
        if "roll" in sock.state["game"]["actions"]:
            await sock.act({"type": "roll"})
        assert (await sock.act({"type": "forfeit"}))["status"] == "finished"
        await sock.close()
        profile = (await me.http.get("/api/players/botrated")).json()["player"]
        _, expected = rate_match(Rating(BOT_RATINGS["expert"], 10_000), Rating(), 1)
        assert abs(profile["rating"] - expected.rating) < 0.01 and profile["experience"] == 1
        assert profile["recent"][0]["rating_change"] < 0
        board = (await me.http.get("/api/players?search=BOTRAT")).json()
        assert board["total"] == 1 and board["players"][0]["name"] == "botrated"
        assert board["players"][0]["provisional"]
        none = (await me.http.get("/api/players?search=%25")).json()  # '%' is not a wildcard
        assert none["total"] == 0
        await me.close()

    asyncio.run(main())


def test_a_bot_has_a_page_with_its_level_rating_and_record_against_people() -> None:
    """The bot's name is a link like any player's: its page says what it is, its fixed
    rating and how it did against people, each score from the bot's side."""
    own = ServerProcess(database_url("botpage")).start()
    try:

        async def main() -> None:
            people = [await Player(own).signup(f"botfoe{i}") for i in range(2)]
            for person in people:
                table = await person.create(length=1, bot="advanced")
                sock = await person.table(table)
                assert sock.state is not None
                if "roll" in sock.state["game"]["actions"]:
                    await sock.act({"type": "roll"})
                assert (await sock.act({"type": "forfeit"}))["status"] == "finished"
                await sock.close()
            answer = await people[0].http.get("/api/players/gammon-advanced")
            assert answer.status_code == 200, answer.text
            bot = answer.json()["player"]
            assert bot["name"] == "gammon-advanced" and bot["rating"] == BOT_RATINGS["advanced"]
            assert bot["bot"]["level"] == "advanced" and bot["bot"]["engine"] == "gammon"
            assert bot["bot"]["ply"] >= 0 and bot["bot"]["description"]
            assert bot["record"] == {"wins": 2, "losses": 0}
            assert [m["opponent"] for m in bot["recent"]] == ["botfoe1", "botfoe0"]
            assert all(m["result"] == "won" and m["score"] == [1, 0] for m in bot["recent"])
            for missing in ("gammon-nobody", "gammon", "gammon-"):
                refused = await people[0].http.get(f"/api/players/{missing}")
                assert refused.status_code == 404, missing
                assert refused.json()["error"]["code"] == "no_such_player"
            for person in people:
                await person.close()

        asyncio.run(main())
    finally:
        own.stop()


def test_a_profile_shows_each_score_from_the_players_side() -> None:
    """A player who sat second read "lost 0-1" for a loss scored 1-0 in seat order: now every
    score is from the profile's player, whichever seat they had (tables until both seats
    were seen: the seat draw is the server's, seeded)."""
    own = ServerProcess(database_url("sides")).start()
    try:

        async def main() -> None:
            me = await Player(own).signup("sideseer")
            seats: set[int] = set()
            for _ in range(16):
                table = await me.create(length=1, bot="beginner")
                sock = await me.table(table)
                assert sock.state is not None
                seats.add(sock.state["you"])
                if "roll" in sock.state["game"]["actions"]:
                    await sock.act({"type": "roll"})
                assert (await sock.act({"type": "forfeit"}))["status"] == "finished"
                await sock.close()
                if seats == {0, 1}:
                    break
            assert seats == {0, 1}
            profile = (await me.http.get("/api/players/sideseer")).json()["player"]
            assert profile["recent"]
            assert all(m["result"] == "lost" and m["score"] == [0, 1] for m in profile["recent"])
            await me.close()

        asyncio.run(main())
    finally:
        own.stop()
