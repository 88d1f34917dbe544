"""Accounts over HTTP (docs/PROTOCOL.md 1): sign-up, login, logout, guests, CSRF, rate limits."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.client import Player, ServerProcess, database_url, unique_name


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def name() -> str:
    return unique_name("u")


def test_signup_login_logout(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = Player(server)
        who = name()
        await alice.signup(who, "a long password")
        me = (await alice.http.get("/api/me")).json()
        assert me["user"]["name"] == who and me["user"]["guest"] is False
        assert me["csrf"] == alice.http.cookies.get("gammon_csrf")
        session_cookie = next(c for c in alice.http.cookies.jar if c.name == "gammon_session")
        assert session_cookie.has_nonstandard_attr("HttpOnly")
        # Logout clears the session; the next request is anonymous.
        assert (await alice.post("/api/logout")).status_code == 200
        assert (await alice.http.get("/api/me")).json()["user"] is None
        # Logging in again with the right password works, with a wrong one does not.
        bad = await alice.post("/api/login", {"name": who, "password": "wrong password"})
        assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_credentials"
        unknown = await alice.post("/api/login", {"name": name(), "password": "whatever1"})
        assert unknown.json()["error"] == bad.json()["error"]  # no hint which part was wrong
        good = await alice.post("/api/login", {"name": who.upper(), "password": "a long password"})
        assert good.status_code == 200 and good.json()["user"]["name"] == who
        await alice.close()

    run(scenario())


def test_signup_refusals(server: ServerProcess) -> None:
    async def scenario() -> None:
        player = Player(server)
        taken = name()
        await player.signup(taken)
        cases = [
            ({"name": "ab", "password": "long enough"}, 400, "bad_name"),
            ({"name": "guest-x", "password": "long enough"}, 400, "bad_name"),
            ({"name": "has space", "password": "long enough"}, 400, "bad_name"),
            ({"name": name(), "password": "short"}, 400, "bad_password"),
            ({"name": taken.upper(), "password": "long enough"}, 409, "name_taken"),
            ({"name": 5, "password": "long enough"}, 400, "bad_name"),
            # ASCII only: no accents, no other scripts, no look-alikes (docs/PROTOCOL.md 1.2).
            ({"name": "Zoë_12", "password": "long enough"}, 400, "bad_name"),
            ({"name": "Алиса", "password": "long enough"}, 400, "bad_name"),
            ({"name": "\u212aelvin", "password": "long enough"}, 400, "bad_name"),
            (
                {"name": "\uff41\uff4c\uff49\uff43\uff45", "password": "long enough"},
                400,
                "bad_name",
            ),
            ({"name": "alice\n", "password": "long enough"}, 400, "bad_name"),
        ]
        for body, status, code in cases:
            response = await player.post("/api/signup", body)
            assert (response.status_code, response.json()["error"]["code"]) == (status, code)
        await player.close()

    run(scenario())


def test_guest_can_play(server: ServerProcess) -> None:
    async def scenario() -> None:
        guest = await Player(server).guest()
        assert (
            guest.user is not None
            and guest.user["guest"]
            and guest.user["name"].startswith("Guest-")
        )
        table = await guest.create(length=1)
        assert (await guest.state(table))["status"] == "open"
        await guest.close()

    run(scenario())


def test_csrf_is_required_for_every_post(server: ServerProcess) -> None:
    async def scenario() -> None:
        player = Player(server)
        await player.csrf()
        body = {"name": name(), "password": "long enough"}
        missing = await player.http.post("/api/signup", json=body)
        assert missing.status_code == 403 and missing.json()["error"]["code"] == "csrf"
        wrong = await player.http.post("/api/signup", json=body, headers={"X-CSRF-Token": "x"})
        assert wrong.status_code == 403
        other_site = await player.post("/api/signup", body, Origin="http://evil.example")
        assert other_site.status_code == 403 and "Origin" in other_site.json()["error"]["message"]
        # Nothing was created by the refused requests.
        login = await player.post(
            "/api/login", {"name": body["name"], "password": body["password"]}
        )
        assert login.status_code == 401
        ok = await player.post("/api/signup", body, Origin=server.url)
        assert ok.status_code == 201
        await player.close()

    run(scenario())


def test_logout_closes_that_sessions_sockets(server: ServerProcess) -> None:
    async def scenario() -> None:
        player = await Player(server).signup()
        table = await player.create(length=1)
        sock = await player.table(table)
        assert sock.state is not None and sock.state["you"] == 0  # the creator, until the draw
        await player.post("/api/logout")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await sock.receive(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        await player.close()

    run(scenario())


def test_websocket_from_another_site_is_refused(server: ServerProcess) -> None:
    async def scenario() -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        with pytest.raises((InvalidStatus, ConnectionClosed)):
            ws = await connect(f"{server.ws_url}/ws/lobby", origin="http://evil.example")  # type: ignore[arg-type]
            await ws.recv()

    run(scenario())


def test_rate_limits_on_login_and_signup() -> None:
    # The server's time stands still (--manual-time): no bucket refills while the test runs,
    # however slowly a loaded machine runs it, so every count below is exact.
    limited = ServerProcess(
        database_url("limits"),
        "--login-limit", "3/1000",
        "--signup-limit", "2/1000",
        "--manual-time",
    ).start()  # fmt: skip
    try:

        async def scenario() -> None:
            player = Player(limited)
            await player.signup("ratelimited", "long enough")
            await player.signup("ratelimited2", "long enough")
            third = await player.post("/api/signup", {"name": "third1", "password": "long enough"})
            assert third.status_code == 429 and third.json()["error"]["code"] == "rate_limited"
            assert third.headers["Retry-After"] == "1000"  # one more sign-up every 1000 s
            codes = []
            for _ in range(4):
                response = await player.post(
                    "/api/login", {"name": "ratelimited", "password": "wrong guess"}
                )
                codes.append(response.status_code)
            assert codes == [401, 401, 401, 429]
            # Time refills the buckets: one more login attempt 1000 s on.
            await player.advance_time(999)
            early = await player.post(
                "/api/login", {"name": "ratelimited", "password": "wrong guess"}
            )
            assert early.status_code == 429 and 1 <= int(early.headers["Retry-After"]) <= 2
            await player.advance_time(1)
            again = await player.post(
                "/api/login", {"name": "ratelimited", "password": "wrong guess"}
            )
            assert again.status_code == 401
            # WebSocket floods: 20 messages a second, bursts of 40 (docs/PROTOCOL.md 2).
            sock = await player.socket("/ws/lobby")
            seen: dict[str, int] = {}

            async def read() -> int | None:
                try:
                    while True:
                        message = await sock.receive()
                        key = message.get("code", message["type"])
                        seen[key] = seen.get(key, 0) + 1
                except ConnectionClosed as exc:
                    return exc.rcvd.code if exc.rcvd else None

            reader = asyncio.ensure_future(read())
            for i in range(300):
                await sock.send({"type": "ping", "id": i})
            code = await reader
            # The burst of 40 is answered, then 200 refusals in a row close the connection:
            # 199 are answered rate_limited, and the 200th is the close.
            assert seen["pong"] == 40 and seen["rate_limited"] == 199, seen
            assert code == 1008
            await player.close()

        run(scenario())
    finally:
        limited.stop()


def test_first_account_is_the_operator(server: ServerProcess) -> None:
    # The shared server's first sign-up (whichever test made it) is the operator; later ones not.
    response = httpx.get(f"{server.url}/api/me")
    assert response.status_code == 200

    async def scenario() -> None:
        player = await Player(server).signup()
        assert player.user is not None and player.user["operator"] is False
        await player.close()

    run(scenario())
