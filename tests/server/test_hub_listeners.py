"""The hub tells the rest of the server of a table's moments through one mechanism,
:meth:`Hub.listen` (the tournaments and the analysis queue both use it)."""

from __future__ import annotations

import asyncio
from typing import Any

from gammon.actions import Forfeit, Roll
from gammon.match import SeriesRules
from gammon.server.auth import Accounts, UserInfo
from gammon.server.connections import Connection
from gammon.server.hub import TABLE_MOMENTS, Hub, TableEvent
from gammon.server.settings import TableSettings
from gammon.server.table import Seat, Table
from gammon.server.table_actions import Start


class _Store:
    """Just enough of the store: every action is recorded, every query finds nothing."""

    def __init__(self) -> None:
        self.appended: list[int] = []

    async def append(self, table_id: int, applied: Any, check: Any = None) -> None:
        self.appended.append(applied.seq)

    async def run(self, query: Any) -> Any:
        return {}


class _Socket:
    async def send_text(self, text: str) -> None:
        pass


def test_the_hub_has_one_listener_mechanism() -> None:
    hub = Hub(_Store(), Accounts(), bots=False)  # type: ignore[arg-type]
    assert not {"table_listeners", "join_listeners", "finished_hooks"} & set(vars(hub))
    assert TABLE_MOMENTS == ("status", "finished", "joined")


def test_listeners_hear_start_finish_and_joins() -> None:
    async def main() -> list[tuple[str, bool, int | None]]:
        hub = Hub(_Store(), Accounts(), bots=False)  # type: ignore[arg-type]
        heard: list[tuple[str, bool, int | None]] = []

        def listener(event: TableEvent) -> None:
            heard.append((event.moment, event.live.table.status == "finished", event.user_id))

        for moment in TABLE_MOMENTS:
            hub.listen(moment, listener)
        table = Table(1, TableSettings(SeriesRules(length=1)), Seat(1, "alice"), created=0.0)
        live = hub.install(table)
        await hub.table_sockets.join(live, Connection(_Socket(), UserInfo(2, "bob")))  # type: ignore[arg-type]
        await hub.table_sockets.join(live, Connection(_Socket(), None))  # type: ignore[arg-type]
        seats = (Seat(1, "alice"), Seat(2, "bob"))
        await hub.act(live, Start(seats), side=None, actor_id=2)
        await hub.act(live, Roll(0), side=0, actor_id=1)  # no status change: silent
        await hub.act(live, Forfeit(0), side=0, actor_id=1)
        return heard

    assert asyncio.run(main()) == [
        ("joined", False, 2),  # a signed-in user opened the socket; the anonymous one is not told
        ("status", False, None),  # the start
        ("status", True, None),  # the end, then
        ("finished", True, None),
    ]
