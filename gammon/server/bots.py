"""The bot seats and the hints: the engine, in one thread of its own.

The engine keeps caches and takes its time, so it runs in a single thread of
its own: a bot thinking never holds up the event loop or another table. A bot
acts through the same path as a person (:meth:`Hub.act <gammon.server.hub.Hub.act>`),
so its actions are checked, recorded and broadcast like anybody's (docs/PROTOCOL.md 4.1).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from gammon.actions import Action
from gammon.game import Game
from gammon.position import Position
from gammon.server.connections import LiveTable
from gammon.server.protocol import Refused
from gammon.server.table_actions import SeriesAction, TableAction
from gammon.server.table_codec import action_json

__all__ = ["Act", "Bots", "EngineChoice"]

log = logging.getLogger("gammon.server")


class Act(Protocol):
    """The hub's way to carry out an action at a table (``Hub.act``)."""

    def __call__(
        self,
        live: LiveTable,
        action: TableAction | SeriesAction,
        *,
        side: int | None,
        actor_id: int | None,
        expect_seq: int | None = None,
    ) -> Awaitable[Any]: ...


@dataclass(frozen=True)
class EngineChoice:
    """Whose nets judge the hints (``gammon serve --engine``), and which bot levels play
    with them too (``--engine-levels``); every other level plays with our own nets."""

    name: str = "gammon"
    levels: frozenset[str] = field(default_factory=frozenset)


class Bots:
    """The bots and hints of one server, on one engine thread."""

    def __init__(self, engine: EngineChoice | None = None) -> None:
        #: The engine of the hints and of the levels named (gammon.engine.engines).
        self.engine = engine if engine is not None else EngineChoice()
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="gammon-engine")
        self._bots: dict[str, Any] = {}
        #: Calls waiting for or running in the engine's thread (``/metrics``).
        self.pending = 0
        #: Awaited before each of the bot's actions: practice holds the bot while a player
        #: may take a play back (gammon.server.practice).
        self.gate: Callable[[LiveTable], Awaitable[None]] | None = None

    # -- in the engine's thread -----------------------------------------------------------

    def _bot(self, level: str) -> Any:
        from gammon.engine.bot import Bot
        from gammon.engine.engines import get_engine

        if level not in self._bots:
            engine = get_engine(self.engine.name) if level in self.engine.levels else None
            self._bots[level] = Bot(level, evaluator=engine)
        return self._bots[level]

    def decide(self, level: str, game: Game, side: int, score: tuple[int, int]) -> Action:
        """The bot's next action at ``game``; the game is only read."""
        action: Action = self._bot(level).decide(game, side, score)
        return action

    def warm_up(self) -> None:
        self._bot("expert").choose_play(Position.initial(), (3, 1))

    # -- on the event loop ---------------------------------------------------------------

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` in the engine's thread."""
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            self.pending -= 1

    async def play(self, live: LiveTable, act: Act) -> None:
        """Act for the bot as long as it must (the table's task while it is the bot's turn)."""
        failures = 0
        while live.table.bot_to_act():
            if self.gate is not None:
                await self.gate(live)
                if not live.table.bot_to_act():
                    break  # the play was taken back
            table = live.table
            game, series, side = table.game, table.series, table.bot_side
            assert game is not None and series is not None and side is not None
            seats = table.seats
            assert seats is not None
            level = seats[side].bot or "expert"
            seq = table.seq
            score = series.score if table.settings.is_match else (0, 0)
            async with live.lock:  # the engine reads the live game: nothing may change it
                if live.table.seq != seq:
                    continue  # the game moved on before the bot began (a resignation...)
                action = await self.run(self.decide, level, game, side, score)
            try:
                await act(live, action, side=side, actor_id=None, expect_seq=seq)
            except Refused as exc:
                if exc.code == "stale":
                    continue
                failures += 1
                log.error(
                    "table %s: the bot's %s was refused: %s",
                    table.id,
                    action_json(action),
                    exc,
                    extra={"table_id": table.id, "seq": seq},
                )
                if failures >= 3:
                    return

    def stop(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
