"""Every route of the API answers a malformed id, an unknown body field or a wrong-typed one
with the protocol's JSON error (docs/PROTOCOL.md 1), never plain text, and changes nothing.

The routes are read from the application's own router, so a route added later is walked
too; the requests go to a real server on loopback.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.routing import Route, WebSocketRoute
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from gammon.server.app import ServerConfig, create_app
from tests.server.client import Player, ServerProcess

#: What an outside client may put where an id belongs.
MALFORMED_IDS = ("abc", "-1", "0", "1.5", "1e3", "99999999999999999999", "%E2%82%AC", "%20")
_PARAM = re.compile(r"\{([a-z_]+)(?::[a-z]+)?\}")
#: Routes whose body is not a JSON object: the upload of a match file (its own errors).
_NOT_JSON_BODIES = {"/api/analyses"}


def app_routes(tmp: Path) -> list[Any]:
    """The routes of an application built as the test server is (it is never started)."""
    app = create_app(ServerConfig(database=f"sqlite:///{tmp / 'routes.db'}"))
    return [r for r in app.routes if isinstance(r, Route | WebSocketRoute)]


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Any]]:
    yield app_routes(tmp_path_factory.mktemp("routes"))


def filled(path: str, value: str) -> str:
    return _PARAM.sub(value, path)


def assert_json_error(response: httpx.Response, what: str) -> dict[str, Any]:
    """A 4xx answer in the protocol's error format, with a code and a message in words."""
    assert 400 <= response.status_code < 500, (what, response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/json"), (
        what,
        response.headers["content-type"],
        response.text[:200],
    )
    error = response.json()["error"]
    assert isinstance(error["code"], str) and error["code"], what
    assert isinstance(error["message"], str) and error["message"], what
    return dict(error)


async def _close_code(player: Player, path: str) -> int | None:
    ws = await connect(
        f"{player.server.ws_url}{path}", additional_headers={"Cookie": player.cookie_header()}
    )
    try:
        await asyncio.wait_for(ws.recv(), 30)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    finally:
        await ws.close()
    return None


def test_every_route_answers_malformed_ids_with_a_json_error(
    server: ServerProcess, routes: list[Any]
) -> None:
    with_ids = [r for r in routes if _PARAM.search(r.path)]
    # The walk covers the routes the protocol names (a sanity check, not the list walked).
    paths = {_PARAM.sub(lambda m: "{" + m.group(1) + "}", r.path) for r in with_ids}
    assert {"/api/tables/{table_id}", "/api/tournaments/{tournament_id}/{action}"} <= paths
    assert "/ws/tables/{table_id}" in paths

    async def scenario() -> None:
        alice = await Player(server).signup()
        walked = 0
        for route in with_ids:
            for value in MALFORMED_IDS:
                path = filled(route.path, value)
                if isinstance(route, WebSocketRoute):
                    assert await _close_code(alice, path) == 4404, path
                    walked += 1
                    continue
                for method in sorted(route.methods - {"HEAD"}):
                    if method == "POST":
                        response = await alice.post(path, {})
                    else:
                        response = await alice.http.request(method, path)
                    error = assert_json_error(response, f"{method} {path}")
                    if value in ("abc", "-1") and "{tournament_id}" in route.path:
                        assert error["code"] == "no_such_tournament", (path, error)
                        assert response.status_code == 404
                    if value in ("abc", "-1") and route.path.startswith("/api/tables/{table_id}"):
                        assert error["code"] == "no_such_table", (path, error)
                    walked += 1
        assert walked >= len(with_ids) * len(MALFORMED_IDS)
        # The issue's own examples, exactly.
        for method, path in (
            ("POST", "/api/tournaments/abc/register"),
            ("POST", "/api/tournaments/-1/register"),
            ("GET", "/api/tournaments/abc"),
        ):
            response = await alice.post(path) if method == "POST" else await alice.http.get(path)
            assert response.status_code == 404, response.text
            assert response.json()["error"]["code"] == "no_such_tournament"
        missing = await alice.http.get("/api/tournaments/999999")
        assert missing.json()["error"]["code"] == "no_such_tournament"
        await alice.close()

    asyncio.run(scenario())


def test_unknown_api_paths_and_methods_answer_json(
    server: ServerProcess, routes: list[Any]
) -> None:
    async def scenario() -> None:
        alice = await Player(server).signup()
        for route in routes:
            if isinstance(route, WebSocketRoute) or not route.path.startswith("/api/"):
                continue
            path = filled(route.path, "1")
            other = "DELETE"
            response = await alice.http.request(
                other, path, headers={"X-CSRF-Token": await alice.csrf()}
            )
            error = assert_json_error(response, f"{other} {path}")
            assert response.status_code == 405 and error["code"] == "method_not_allowed", path
        for path in ("/api/nothing", "/api/tables/1/nothing", "/api/tournaments/1/2/3"):
            response = await alice.http.get(path)
            error = assert_json_error(response, path)
            assert response.status_code == 404 and error["code"] == "not_found", path
        # Outside the API the static files still answer as a web server does.
        page = await alice.http.get("/no-such-page.html")
        assert page.status_code == 404 and not page.headers["content-type"].startswith(
            "application/json"
        )
        await alice.close()

    asyncio.run(scenario())


def test_every_post_refuses_a_field_it_does_not_know_and_changes_nothing(
    server: ServerProcess, routes: list[Any]
) -> None:
    async def scenario() -> None:
        alice = await Player(server).signup()
        table = await alice.create(length=1)
        created = await alice.post("/api/tournaments", {"name": "Walk", "seats": 4})
        assert created.status_code == 201, created.text
        number = created.json()["tournament"]["id"]
        values = {"table_id": str(table), "tournament_id": str(number)}
        actions = ("register", "unregister", "withdraw", "remove", "cancel", "start")
        walked = 0
        for route in routes:
            if not isinstance(route, Route) or "POST" not in (route.methods or ()):
                continue
            if route.path in _NOT_JSON_BODIES or not route.path.startswith("/api/"):
                continue
            for action in actions if "{action}" in route.path else ("",):
                given = {**values, "action": action}
                path = _PARAM.sub(lambda m, given=given: given[m.group(1)], route.path)
                response = await alice.post(path, {"bogus_field": None})
                error = assert_json_error(response, path)
                assert response.status_code == 400, (path, response.text)
                assert error["field"] == "bogus_field", (path, error)
                assert "bogus_field" in error["message"], (path, error)
                walked += 1
        assert walked >= 10
        # Still signed in (logout refused), the tournament untouched, the table still open.
        me = (await alice.http.get("/api/me")).json()["user"]
        assert me is not None and me["name"] == alice.user["name"]  # type: ignore[index]
        t = (await alice.http.get(f"/api/tournaments/{number}")).json()["tournament"]
        assert t["status"] == "registering" and t["registered"] == []
        assert (await alice.state(table))["status"] == "open"
        await alice.close()

    asyncio.run(scenario())


def test_tournament_action_bodies_are_checked_field_by_field(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice, bob = await Player(server).signup(), await Player(server).signup()
        created = await alice.post("/api/tournaments", {"name": "Fields", "seats": 4})
        number = created.json()["tournament"]["id"]
        base = f"/api/tournaments/{number}"
        cases = [
            ("register", {"seat": 1}, "seat"),
            ("remove", {"name": bob.user["name"], "ban": True}, "ban"),  # type: ignore[index]
            ("cancel", {"reason": "x", "force": True}, "force"),
            ("cancel", {"reason": 5}, "reason"),
            ("cancel", {"reason": ["x"]}, "reason"),
            ("remove", {"name": 7}, "name"),
            ("remove", {}, "name"),
        ]
        for action, body, field in cases:
            response = await alice.post(f"{base}/{action}", body)
            error = assert_json_error(response, f"{action} {body}")
            assert response.status_code == 400 and error["code"] == "bad_request", body
            assert error["field"] == field, (body, error)
        wrong = await alice.post(f"{base}/cancel", {"reason": 5})
        assert wrong.json()["error"]["message"] == "'reason' must be text, not 5"
        t = (await alice.http.get(base)).json()["tournament"]
        assert t["status"] == "registering" and t["registered"] == []
        # The same bodies without the extra fields are carried out.
        assert (await bob.post(f"{base}/register", {})).status_code == 200
        cancelled = await alice.post(f"{base}/cancel", {"reason": "rain"})
        assert cancelled.status_code == 200, cancelled.text
        t = cancelled.json()["tournament"]
        assert t["status"] == "cancelled" and t["cancel_reason"] == "rain"
        unknown = await alice.post(f"{base}/explode", {})
        assert unknown.json()["error"]["code"] == "unknown_type"
        await alice.close()
        await bob.close()

    asyncio.run(scenario())
