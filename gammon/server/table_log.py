"""A table's log as its runner runs it (:class:`gammon.server.runner.LogKind` for tables).

The table (:class:`gammon.server.table.Table`) decides; this says how its requests are
applied, appended and read back, and what the nodes following a table hear of each
action: the action's record as the log keeps it, with the seeds of the games it started,
so that a replica applies it exactly as a replay of the log does (dice and clock agree).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from gammon.messages import Message
from gammon.server.db import Action, GameRow
from gammon.server.leases import FenceCheck
from gammon.server.nodes import LogKey, Request
from gammon.server.store import Store, load_table
from gammon.server.table import Applied, Changes, Table
from gammon.server.table_actions import ENDED
from gammon.server.table_codec import action_from_json, action_json

__all__ = ["ENDED", "TableLog", "applied_json", "table_key"]

#: The fields of an action's row a replica needs to apply it.
_FIELDS: Final = ("seq", "action", "side", "actor_id", "entropy", "clock", "at")


def table_key(table_id: int) -> LogKey:
    """A table's log, as the nodes name it."""
    return (TableLog.name, table_id)


def applied_json(applied: Applied) -> dict[str, Any]:
    """An action's record, as the owner publishes it and answers a forwarded request."""
    return {
        "seq": applied.seq,
        "action": action_json(applied.action),
        "side": applied.side,
        "actor_id": applied.actor_id,
        "entropy": applied.entropy,
        "events": applied.events,
        "clock": applied.clock,
        "at": applied.at,
        "seeds": [[number, seed] for number, _, seed in applied.changes.new_games],
    }


def _applied(data: dict[str, Any], request: str | None = None) -> Applied:
    return Applied(
        seq=data["seq"],
        action=action_from_json(data["action"], data["side"]),
        side=data["side"],
        actor_id=data["actor_id"],
        entropy=data["entropy"],
        events=data.get("events", []),
        clock=data["clock"],
        at=data["at"],
        changes=Changes(),
        request=request,
    )


class TableLog:
    """How a runner applies, appends and reads back a table's actions."""

    name = "table"

    def __init__(self, store: Store, new_seed: Callable[[], bytes]) -> None:
        self.store = store
        #: Where a table's new games get their seeds (the server's chance).
        self.new_seed = new_seed

    def ended(self, state: Table) -> bool:
        return state.status.ended

    def apply(self, state: Table, request: Request, at: float) -> Applied:
        state.check_seq(request.expect_seq)
        action = request.value
        if action is None:  # forwarded by another node
            action = action_from_json(request.action, request.side)
        applied = state.apply(
            action,
            side=request.side,
            actor_id=request.actor_id,
            at=at,
            entropy=request.entropy,
        )
        applied.request = request.request_id
        return applied

    def append(
        self, state: Table, applied: Applied, fence: FenceCheck | None
    ) -> asyncio.Future[None]:
        return self.store.append(state.id, applied, fence)

    async def load(self, number: int, at: float | None) -> Table | None:
        table = await self.store.run(lambda session: load_table(session, number))
        if table is None:
            return None
        table.new_seed = self.new_seed
        if at is not None:
            table.resume(at)
        return table

    def record(self, applied: Applied) -> dict[str, Any]:
        return applied_json(applied)

    def from_record(self, record: dict[str, Any]) -> Applied:
        return _applied(record)

    def follow(self, state: Table, record: dict[str, Any]) -> Applied:
        for number, seed in record["seeds"]:
            state.learn_seed(int(number), bytes.fromhex(seed))
        entropy = record["entropy"]
        applied = state.apply(
            action_from_json(record["action"], record["side"]),
            side=record["side"],
            actor_id=record["actor_id"],
            at=record["at"],
            entropy=bytes.fromhex(entropy) if entropy else None,
        )
        state.restore_clock(record["clock"])
        return applied

    async def missed(self, state: Table) -> list[dict[str, Any]]:
        table_id, after = state.id, state.seq

        def missed(session: Session) -> list[dict[str, Any]]:
            seeds = [
                [number, seed]
                for number, seed in session.execute(
                    select(GameRow.number, GameRow.seed)
                    .where(GameRow.table_id == table_id)
                    .order_by(GameRow.number)
                )
            ]
            rows = session.scalars(
                select(Action)
                .where(Action.table_id == table_id, Action.seq > after)
                .order_by(Action.seq)
            ).all()
            return [
                {**{name: getattr(row, name) for name in _FIELDS}, "seeds": seeds} for row in rows
            ]

        return await self.store.run(missed)

    async def logged(self, number: int, request_id: str) -> Applied | None:
        def logged(session: Session) -> Action | None:
            return session.scalars(
                select(Action).where(Action.table_id == number, Action.request_id == request_id)
            ).first()

        row = await self.store.run(logged)
        if row is None:
            return None
        return _applied({name: getattr(row, name) for name in (*_FIELDS, "events")}, row.request_id)

    def moved(self, number: int) -> Message:
        return Message("the table moved between servers: act again")
