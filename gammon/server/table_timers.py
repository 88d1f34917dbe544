"""What the house does to a table when nobody acts: its clock, its bot, and expiry.

A table's clock running out, its opening roll falling due, its bot's turn and a table
everyone forgot are not anybody's message: they come from time. Each is carried out as an
action of its own through the hub's one way to act (:class:`gammon.server.bots.Act`), so
what follows it is what follows any action (:meth:`gammon.server.hub.Hub._changed`).
Only the node that runs a table sets its timer and bot (gammon.server.nodes).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Final

from gammon.actions import Forfeit, OutOfTime, Roll
from gammon.server.protocol import Refused
from gammon.server.table_actions import Cancel
from gammon.server.table_log import table_key

if TYPE_CHECKING:
    from gammon.server.bots import Act, Bots
    from gammon.server.cluster import Cluster
    from gammon.server.connections import FaultLog, LiveTable
    from gammon.server.nodes import Nodes
    from gammon.server.timesource import TimeSource

__all__ = ["BOT_TABLE_IDLE_S", "OPEN_TABLE_EXPIRY_S", "TableTimers"]

#: An open table nobody joins is cancelled after this long (docs/PROTOCOL.md 1.3).
OPEN_TABLE_EXPIRY_S: Final = 30 * 60.0
#: A table against the bot that its human left is forfeited after this long without them.
BOT_TABLE_IDLE_S: Final = 30 * 60.0

Spawn = Callable[[Coroutine[Any, Any, Any]], "asyncio.Task[Any]"]


class TableTimers:
    """The timers and bots of the tables this node runs, and the sweep for forgotten ones."""

    def __init__(
        self,
        tables: dict[int, LiveTable],
        *,
        nodes: Nodes,
        time: TimeSource,
        bots: Bots | None,
        cluster: Cluster,
        act: Act,
        spawn: Spawn,
        faults: FaultLog,
        open_table_expiry_s: float = OPEN_TABLE_EXPIRY_S,
        bot_table_idle_s: float = BOT_TABLE_IDLE_S,
    ) -> None:
        self.tables = tables
        self.nodes = nodes
        self.time = time
        self.bots = bots
        self.cluster = cluster
        self.act = act
        self.spawn = spawn
        self.faults = faults
        #: An open table nobody has joined after this long is cancelled.
        self.open_table_expiry_s = open_table_expiry_s
        #: A table against the bot with no action and its human away this long is forfeited.
        self.bot_table_idle_s = bot_table_idle_s

    def schedule(self, live: LiveTable) -> None:
        """Set the table's timer (clock, opening roll) and start its bot if it must act."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        table = live.table
        if not self.nodes.owns(table_key(table.id)):
            return  # its owner runs its clock and bot
        deadlines = [
            d
            for d in (
                table.clock.deadline() if table.clock and table.status == "playing" else None,
                table.opening_deadline(),
            )
            if d is not None
        ]
        if deadlines:
            delay = max(0.0, min(deadlines) - self.time.now()) + 0.005
            live.timer = self.time.call_later(delay, lambda: self.spawn(self._on_timer(live)))
        if (
            table.bot_to_act()
            and self.bots is not None
            and (live.bot_task is None or live.bot_task.done())
        ):
            live.bot_task = self.spawn(self.bots.play(live, self.act))

    async def _on_timer(self, live: LiveTable) -> None:
        table = live.table
        if table.status != "playing":
            return
        at = self.time.now()
        loser = table.clock.flagged(at) if table.clock is not None else None
        if loser is not None:
            with contextlib.suppress(Refused):
                await self.act(live, OutOfTime(loser), side=loser, actor_id=None)
            return
        opening = table.opening_deadline()
        if opening is not None and opening <= at:
            with contextlib.suppress(Refused):
                await self.act(live, Roll(0), side=0, actor_id=None)
            return
        self.schedule(live)

    async def expiry_loop(self) -> None:
        """Look for forgotten tables now and then (see :meth:`expire`)."""
        interval = max(0.1, min(30.0, self.open_table_expiry_s / 4, self.bot_table_idle_s / 4))
        while True:
            await self.time.sleep(interval)
            try:
                await self.expire(self.time.now())
            except Exception as exc:
                self.faults.report("expiring tables", exc)

    async def expire(self, at: float) -> None:
        """End the tables nobody will come back to (docs/PROTOCOL.md 1.3).

        An open table nobody joined within ``open_table_expiry_s`` of its creation
        is cancelled. A table against the bot whose human has not been connected
        to it, and that has seen no action, for ``bot_table_idle_s`` is forfeited
        by the human (the bot wins, ``result.reason`` ``"forfeit"``): the bot never
        leaves, so only the human can have left.
        """
        for live in list(self.tables.values()):
            table = live.table
            if not self.nodes.owns(table_key(table.id)):
                continue
            if table.status == "open":
                if at - table.created >= self.open_table_expiry_s:
                    with contextlib.suppress(Refused):
                        await self.act(live, Cancel(), side=None, actor_id=None)
                continue
            bot = table.bot_side
            if table.status != "playing" or bot is None or table.seats is None:
                continue
            human = table.seats[1 - bot].user_id
            if any(c.user is not None and c.user.id == human for c in live.conns):
                continue
            if human is not None and human in self.cluster.elsewhere(table.id):
                continue
            if at - max(table.last_at, live.seen) >= self.bot_table_idle_s:
                with contextlib.suppress(Refused):
                    await self.act(live, Forfeit(1 - bot), side=1 - bot, actor_id=None)
