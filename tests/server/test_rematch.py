"""Rematches (gammon.server.rematch, docs/PROTOCOL.md 4.6) on a real server: against the bot
at once, between people when both ask (each hears of the offer and of the new table on the
old table's socket), the seats swapped, and the refusals in words."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.client import Player, ServerProcess
from tests.server.test_play import seated


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def _rematch(player: Player, table: int) -> Any:
    return await player.post(f"/api/tables/{table}/rematch")


def test_two_players_who_both_ask_get_a_new_table_with_the_seats_swapped(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        table, sockets, players = await seated(server, length=3)
        early = await _rematch(players[0], table)
        assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_over"
        state = await sockets[0].act({"type": "forfeit"})
        assert state["status"] == "finished"
        by_name = {p.user["name"]: p for p in players}  # type: ignore[index]
        first, second = (by_name[seat["name"]] for seat in state["players"])  # side 0, side 1
        offered = await _rematch(first, table)
        assert offered.status_code == 200, offered.text
        assert offered.json()["rematch"]["offered_by"] == [0]
        assert offered.json()["rematch"]["rematch"] is None
        heard = await sockets[1].until(lambda m: m["type"] == "rematch")
        assert heard["offered_by"] == [0] and heard["table"] == table
        stranger = await Player(server).signup()
        refused = await _rematch(stranger, table)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_a_player"
        accepted = (await _rematch(second, table)).json()["rematch"]
        new = accepted["rematch"]
        assert isinstance(new, int) and new != table
        for sock in sockets.values():
            told = await sock.until(lambda m: m["type"] == "rematch" and m["rematch"] is not None)
            assert told["rematch"] == new
        again = (await _rematch(first, table)).json()["rematch"]
        assert again["rematch"] == new  # asked twice: the same table
        old, fresh = await first.state(table), await first.state(new)
        assert fresh["status"] == "playing"
        assert [p["name"] for p in fresh["players"]] == [
            p["name"] for p in reversed(old["players"])
        ]
        assert fresh["settings"] == old["settings"]
        assert "tournament" not in fresh  # the field is for a tournament's match only
        for p in (*players, stranger):
            await p.close()

    run(go())


def test_against_the_bot_the_rematch_starts_at_once(server: ServerProcess) -> None:
    async def go() -> None:
        human = await Player(server).signup()
        table = await human.create(length=1, bot="beginner")
        sock = await human.table(table)
        assert sock.state is not None and "forfeit" in sock.state["game"]["actions"]
        final = await sock.act({"type": "forfeit"})
        assert final["status"] == "finished"
        answer = (await _rematch(human, table)).json()["rematch"]
        assert answer["offered_by"] == [] and isinstance(answer["rematch"], int)
        fresh = await human.state(answer["rematch"])
        assert fresh["settings"]["bot"] == "beginner" and fresh["settings"]["length"] == 1
        missing = await _rematch(human, 987654)
        assert missing.status_code == 404
        await human.close()

    run(go())
