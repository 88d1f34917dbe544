"""The analysis board's endpoints (docs/PROTOCOL.md 9.1) on a real server: setups read and
refused, the engine's answers equal to the library's own, rollouts with their progress."""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

from gammon.engine.cube import CubeOwner, CubeState
from gammon.engine.hint import cube_hint, play_hints
from gammon.engine.met import MatchScore
from gammon.engine.rollout import RolloutSettings, rollout
from gammon.position import Position
from gammon.xgid import format_xgid, parse_xgid
from tests import waiting
from tests.server.client import Player, ServerProcess

OPENING_31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
# A holding game, cube on 2 owned by the player on roll, 3-1 to 7, no dice.
HOLDING = "XGID=-a---BC-C---cD---c-e-A--B-:1:1:1:00:3:1:0:7:10"


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def _player(server: ServerProcess) -> Player:
    return await (Player(server)).guest()


async def _read(player: Player, text: str) -> dict[str, Any]:
    response = await player.post("/api/board", {"text": text})
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_a_pasted_xgid_becomes_a_setup_that_writes_the_same_xgid(server: ServerProcess) -> None:
    async def go() -> None:
        player = await _player(server)
        read = await _read(player, OPENING_31)
        assert read["xgid"] == OPENING_31
        assert read["position_id"] == Position.initial().id
        assert read["pips"] == [167, 167] and read["off"] == [0, 0]
        setup = read["setup"]
        assert setup["dice"] == [3, 1] and setup["cube"] == {"value": 1, "owner": None}
        # The setup sent back reads to the same board (what the client edits and sends).
        again = await player.post("/api/board", {"setup": setup})
        assert again.json()["xgid"] == OPENING_31
        held = await _read(player, HOLDING)
        assert held["setup"]["cube"] == {"value": 2, "owner": "mine"}
        assert held["setup"]["match"] == {"length": 7, "score": [3, 1], "crawford": False}
        # A Position ID alone, and with its Match ID (pasted from GNU Backgammon, as in
        # tests/test_ids.py: a 9-point match at 0-0, 5-1 to play).
        plain = await _read(player, "Position ID: 4HPwATDgc/ABMA")
        assert plain["setup"]["dice"] is None and plain["position_id"] == "4HPwATDgc/ABMA"
        both = await _read(player, "g9vBASSYZ8wBBg:cIkmAQAAAAAA")
        assert both["position_id"] == "g9vBASSYZ8wBBg"
        assert both["setup"]["dice"] == [5, 1]
        assert both["setup"]["match"] == {"length": 9, "score": [0, 0], "crawford": False}
        await player.close()

    run(go())


def test_bad_setups_are_refused_naming_what_is_wrong(server: ServerProcess) -> None:
    async def go() -> None:
        player = await _player(server)
        start = (await _read(player, OPENING_31))["setup"]
        cases: list[tuple[dict[str, Any], str, str]] = [
            ({"text": "not a position"}, "text", "position"),
            ({"text": ""}, "text", "paste"),
            ({"setup": {**start, "colour": 1}}, "setup.colour", "no field"),
            ({"setup": {**start, "mine": [0] * 24}}, "setup.mine", "25 whole numbers"),
            ({"setup": {**start, "dice": [7, 1]}}, "setup", "dice"),
            ({"setup": {**start, "cube": {"value": 3, "owner": None}}}, "setup", "power of two"),
            ({"setup": {**start, "mine": [15] + [0] * 24}}, "setup", "both players"),
            ({"setup": {**start, "mine": [0] * 25}}, "setup", "game is over"),
            ({"setup": {**start, "match": {"length": 5, "score": [5, 0], "crawford": False}}},
             "setup", "below the match length"),
            ({"setup": start, "seat": 1}, "seat", "no field"),
            ({"setup": {**start, "cube": {"value": 2, "owner": None}}}, "setup", "centred cube"),
            ({"text": "XGID=-b----E-C---eE---c-e----B-:1:0:1:00:3:1:0:7:10"}, "text", "centred"),
        ]  # fmt: skip
        for body, where, words in cases:
            response = await player.post("/api/board", body)
            assert response.status_code == 400, (body, response.text)
            error = response.json()["error"]
            assert error["field"] == where, (body, error)
            assert words in error["message"], (body, error)
            assert "XGID" not in error["message"] or "text" in body, error
        await player.close()

    run(go())


def test_the_ranked_plays_are_the_engines_with_the_setup_each_leads_to(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        player = await _player(server)
        setup = (await _read(player, OPENING_31))["setup"]
        response = await player.post("/api/board/analyse", {"setup": setup, "ply": 0})
        assert response.status_code == 200, response.text
        analysis = response.json()["analysis"]
        assert analysis["unit"] == "equity" and analysis["cube"] is None
        hints = play_hints(Position.initial(), (3, 1), ply=0)
        assert [p["play"] for p in analysis["plays"]] == [str(h.play) for h in hints]
        assert analysis["plays"][0]["equity"] == round(hints[0].equity, 4)
        first = parse_xgid(analysis["plays"][0]["after"])
        assert first.dice == (0, 0) and first.player_on_roll == 1
        turned = hints[0].play.position.swapped()
        assert first.board == (turned.mine, turned.theirs)
        # Playing on: the after-play setup reads like any pasted one.
        after = await _read(player, analysis["plays"][0]["after"])
        assert after["setup"]["dice"] is None
        await player.close()

    run(go())


def test_without_dice_the_board_gives_the_cube_action_at_the_match_score(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        player = await _player(server)
        setup = (await _read(player, HOLDING))["setup"]
        response = await player.post("/api/board/analyse", {"setup": setup, "ply": 1})
        analysis = response.json()["analysis"]
        assert analysis["unit"] == "mwc" and analysis["plays"] is None
        x = parse_xgid(HOLDING)
        state = CubeState(2, CubeOwner.ME, MatchScore(4, 6))
        expected = cube_hint(Position(*x.board), state, ply=1)
        assert analysis["cube"]["action"] == str(expected.decision)
        assert analysis["cube"]["no_double"] == round(expected.decision.no_double, 4)
        # The opponent owns the cube: no cube action, and the reason in words.
        theirs = {**setup, "cube": {"value": 2, "owner": "theirs"}}
        refused = await player.post("/api/board/analyse", {"setup": theirs})
        body = refused.json()["analysis"]
        assert body["cube"] is None and body["cube_refusal"] == "the opponent owns the cube"
        bad = await player.post("/api/board/analyse", {"setup": setup, "ply": 3})
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "ply"
        await player.close()

    run(go())


async def _finished(player: Player, job: dict[str, Any]) -> dict[str, Any]:
    seen: list[int] = []

    async def done() -> dict[str, Any] | None:
        response = await player.http.get(f"/api/board/rollouts/{job['id']}")
        assert response.status_code == 200, response.text
        now = response.json()["rollout"]
        seen.append(now["done"])
        return now if now["state"] != "running" else None

    final = await waiting.until(done, what="the board's rollout to finish")
    assert seen == sorted(seen)  # progress never goes back
    return final


def test_a_rollout_reports_progress_and_gives_the_librarys_figures(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        player = await _player(server)
        setup = (await _read(player, HOLDING))["setup"]
        response = await player.post("/api/board/rollouts", {"setup": setup, "trials": 72})
        assert response.status_code == 202, response.text
        job = response.json()["rollout"]
        assert job["trials"] == 72 and job["done"] <= 72
        final = await _finished(player, job)
        assert final["state"] == "done" and final["done"] == 72
        [result] = final["results"]
        # The same rollout in this process: the seed is the setup's own.
        x = parse_xgid(HOLDING)
        seed = zlib.crc32(format_xgid(x).encode())
        settings = RolloutSettings(variance_reduction=True, stratify=True)
        mine = rollout(Position(*x.board), trials=72, seed=seed, batch=36, settings=settings)
        assert result["play"] is None and result["trials"] == 72
        assert result["equity"] == round(mine.evaluation.equity, 4)
        assert result["interval"] == round(1.96 * mine.equity_error, 4)
        await player.close()

    run(go())


def test_with_dice_the_best_plays_are_rolled_out_on_the_same_dice(server: ServerProcess) -> None:
    async def go() -> None:
        player = await _player(server)
        setup = (await _read(player, OPENING_31))["setup"]
        job = (await player.post("/api/board/rollouts", {"setup": setup, "trials": 36})).json()
        final = await _finished(player, job["rollout"])
        assert final["trials"] == 108 and final["done"] == 108
        plays = [r["play"] for r in final["results"]]
        best = [str(h.play) for h in play_hints(Position.initial(), (3, 1), ply=0)[:3]]
        assert sorted(plays) == sorted(best)
        equities = [r["equity"] for r in final["results"]]
        assert equities == sorted(equities, reverse=True)
        assert all(r["interval"] > 0 for r in final["results"])
        await player.close()

    run(go())


def test_rollouts_are_refused_in_words_and_a_new_one_replaces_the_old(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        player = await _player(server)
        setup = (await _read(player, HOLDING))["setup"]
        odd = await player.post("/api/board/rollouts", {"setup": setup, "trials": 100})
        assert odd.status_code == 400 and "1296" in odd.json()["error"]["message"]
        missing = await player.http.get("/api/board/rollouts/999999")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "no_such_rollout"
        stranger = Player(server)
        refused = await stranger.post("/api/board/rollouts", {"setup": setup, "trials": 36})
        assert refused.status_code == 401
        first = await player.post("/api/board/rollouts", {"setup": setup, "trials": 1296})
        second = await player.post("/api/board/rollouts", {"setup": setup, "trials": 36})
        one, two = first.json()["rollout"], second.json()["rollout"]
        old = (await player.http.get(f"/api/board/rollouts/{one['id']}")).json()["rollout"]
        assert old["state"] == "cancelled"
        assert (await _finished(player, two))["state"] == "done"
        await stranger.close()
        await player.close()

    run(go())
