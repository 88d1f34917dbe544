"""The live server: tables in memory, their WebSockets, the bots, the clocks and the lobby.

Everything here runs on the event loop except the database (see
:mod:`gammon.server.store`) and the engine (one thread of its own, so a bot
thinking never holds up another table). An action goes: check (rules
library) -> append to the log and commit -> acknowledge -> broadcast the new
state; a table's actions are taken one at a time under its lock.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from sqlalchemy import update
from sqlalchemy.orm import Session

from gammon.actions import action_arguments
from gammon.game import Game
from gammon.position import Dice, Position
from gammon.server import chat
from gammon.server.auth import Accounts, UserInfo
from gammon.server.db import ChatMessage, Report, Sanction, TableRow, User, now, select
from gammon.server.protocol import (
    FEATURES,
    GAME_ACTIONS,
    LOBBY_MESSAGES,
    MAX_MESSAGE_BYTES,
    TABLE_MESSAGES,
    ClientMessage,
    Refused,
    dumps,
    error_json,
    loads,
    parse_message,
)
from gammon.server.store import Store, load_table, load_unfinished, write_applied
from gammon.server.table import Applied, Seat, Table, TableSettings

__all__ = ["Connection", "FaultLog", "Hub", "LiveTable", "Socket"]

log = logging.getLogger("gammon.server")

#: Messages a connection may have waiting to be sent before it counts as too slow.
MAX_QUEUED: Final = 256
#: Per connection: this many messages at once, refilled at this rate (docs/PROTOCOL.md 2).
BURST: Final = 40
RATE: Final = 20.0
MAX_REFUSALS: Final = 200
CHAT_HISTORY: Final = 50
LOBBY_DEBOUNCE_S: Final = 0.25
KEEP_FINISHED: Final = 200
#: An open table nobody joins is cancelled after this long (docs/PROTOCOL.md 1.3).
OPEN_TABLE_EXPIRY_S: Final = 30 * 60.0
#: A table against the bot that its human left is forfeited after this long without them.
BOT_TABLE_IDLE_S: Final = 30 * 60.0
#: At most one line in the log per this many seconds about unexpected faults.
FAULT_LOG_INTERVAL_S: Final = 60.0


class FaultLog:
    """Unexpected exceptions in the sockets' loops, logged one line at a time, rate-limited.

    A client that makes the server fail on purpose (the same bad message, again
    and again) must not fill the log: the first fault is logged as one line,
    then at most one line per ``interval`` seconds saying how many more there
    were. Tracebacks go to the DEBUG level only.
    """

    def __init__(self, interval: float = FAULT_LOG_INTERVAL_S) -> None:
        self.interval = interval
        self.count = 0
        self._last = -math.inf
        self._unreported = 0

    def report(self, where: str, exc: BaseException) -> None:
        self.count += 1
        log.debug("%s failed", where, exc_info=exc)
        at = time.monotonic()
        if at - self._last < self.interval:
            self._unreported += 1
            return
        more = f" (and {self._unreported} more faults since the last report)"
        log.error(
            "%s failed: %s: %s%s",
            where,
            type(exc).__name__,
            str(exc)[:200].replace("\n", " "),
            more if self._unreported else "",
        )
        self._last = at
        self._unreported = 0


class Socket(Protocol):
    """What the hub needs of a WebSocket (Starlette's, in the app)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Connection:
    """One client WebSocket: its user (fixed at the handshake), its send queue, its rate limit."""

    def __init__(
        self, socket: Socket, user: UserInfo | None, session_hash: str | None = None
    ) -> None:
        self.socket = socket
        self.user = user
        self.session_hash = session_hash
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.rate = RATE
        self.burst = float(BURST)
        self.tokens = self.burst
        self.refilled = time.monotonic()
        self.refusals = 0
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.table: LiveTable | None = None
        #: The task sending the queue (set when the socket's loop starts).
        self.writer: asyncio.Task[Any] | None = None
        #: Opt-in protocol features the client asked for (docs/PROTOCOL.md 2.2).
        self.features: frozenset[str] = frozenset()
        #: (game number, log events) of the last state sent: what a ``log_delta`` client has.
        self.log_sent: tuple[int, int] | None = None

    def allow(self) -> bool:
        """Take a token for one incoming message, or say it must be refused (flood)."""
        at = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (at - self.refilled) * self.rate)
        self.refilled = at
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.close(1013, "too slow: reconnect")
            return
        self.queue.put_nowait(message if isinstance(message, str) else dumps(message))

    def close(self, code: int, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.close_reason = reason
        self.queue.put_nowait(None)

    async def write_loop(self) -> None:
        """Send queued messages in order; close the socket when asked."""
        try:
            while True:
                item = await self.queue.get()
                if item is None:
                    break
                await self.socket.send_text(item)
        except Exception:  # the peer went away
            self.closed = True
            return
        with contextlib.suppress(Exception):
            await self.socket.close(self.close_code, self.close_reason)


@dataclass(eq=False)
class LiveTable:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    bot_task: asyncio.Task[None] | None = None
    chat: collections.deque[dict[str, Any]] | None = None
    #: When one of the table's players was last connected to it (or the table came into
    #: memory): with its last action, what says a table against the bot was left.
    seen: float = field(default_factory=now)


# -- the bot -----------------------------------------------------------------------------


class _Engine:
    """The bots and hints, in one thread of their own (the engine keeps caches)."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="gammon-engine")
        self._bots: dict[str, Any] = {}

    def _bot(self, level: str) -> Any:
        from gammon.engine.bot import Bot

        if level not in self._bots:
            self._bots[level] = Bot(level)
        return self._bots[level]

    def decide(self, level: str, game: Game, side: int, score: tuple[int, int]) -> dict[str, Any]:
        """The bot's next action at ``game`` as a protocol message; the game is only read."""
        action = self._bot(level).decide(game, side, score)
        return {"type": action.name, **action_arguments(action)}

    def hints(self, position: Position, dice: Dice) -> list[dict[str, Any]]:
        from gammon.engine.hint import play_hints

        return [
            {
                "play": str(hint.play),
                "equity": round(hint.equity, 4),
                "loss": round(hint.loss, 4),
                "win": round(hint.evaluation.win, 4),
                "win_gammon": round(hint.evaluation.win_gammon, 4),
                "win_backgammon": round(hint.evaluation.win_backgammon, 4),
                "lose_gammon": round(hint.evaluation.lose_gammon, 4),
                "lose_backgammon": round(hint.evaluation.lose_backgammon, 4),
            }
            for hint in play_hints(position, dice)
        ]

    def warm_up(self) -> None:
        self._bot("expert").choose_play(Position.initial(), (3, 1))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)


# -- the hub -------------------------------------------------------------------------------


_ACTING: Final = frozenset(GAME_ACTIONS) | {"forfeit"}


class Hub:
    """Every live table and socket of one server."""

    def __init__(
        self,
        store: Store,
        accounts: Accounts,
        *,
        bots: bool = True,
        moderator: chat.ChatModerator | None = None,
        message_rate: float = RATE,
        open_table_expiry_s: float = OPEN_TABLE_EXPIRY_S,
        bot_table_idle_s: float = BOT_TABLE_IDLE_S,
    ) -> None:
        self.message_rate = message_rate
        #: An open table nobody has joined after this long is cancelled.
        self.open_table_expiry_s = open_table_expiry_s
        #: A table against the bot with no action and its human away this long is forfeited.
        self.bot_table_idle_s = bot_table_idle_s
        #: Every open WebSocket (anonymous ones too).
        self.conns: set[Connection] = set()
        self.store = store
        self.accounts = accounts
        self.bots_enabled = bots
        self.moderator = moderator if moderator is not None else chat.ChatModerator()
        self.engine = _Engine() if bots else None
        self.tables: dict[int, LiveTable] = {}
        self.lobby: set[Connection] = set()
        self.lobby_chat: collections.deque[dict[str, Any]] | None = None
        self.user_conns: dict[int, set[Connection]] = collections.defaultdict(set)
        self._lobby_pending = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._table_loads: dict[int, asyncio.Future[LiveTable | None]] = {}
        self.actions = 0
        self.faults = FaultLog()
        self.latencies: collections.deque[float] = collections.deque(maxlen=100_000)

    @property
    def bot_levels(self) -> list[str]:
        if not self.bots_enabled:
            return []
        from gammon.engine.bot import SKILL_LEVELS

        return list(SKILL_LEVELS)

    # -- start and stop -----------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table from its log and set its clock and bot going."""
        tables = await self.store.run(load_unfinished)
        at = now()
        for table in tables:
            table.resume(at)
            live = LiveTable(table)
            self.tables[table.id] = live
            self._schedule(live)
        operators, bans = await self.store.run(_moderation_state)
        self.moderator = chat.ChatModerator(self.moderator.config, operators=operators, bans=bans)
        if self.engine is not None:
            self._spawn(self.engine.run(self.engine.warm_up))
        self._spawn(self._expiry_loop())
        log.info("recovered %d unfinished tables", len(tables))

    async def going_away(self, timeout: float = 2.0) -> None:
        """Close every socket with 1001 (the server is going away) and let the closes go out.

        ``gammon serve`` calls this when it is told to stop, before uvicorn closes
        the connections itself (with 1012, which the protocol does not use).
        """
        writers = []
        for conn in list(self.conns):
            conn.close(1001, "server going away")
            if conn.writer is not None:
                writers.append(conn.writer)
        if writers:
            await asyncio.wait(writers, timeout=timeout)

    async def stop(self) -> None:
        for live in self.tables.values():
            if live.timer is not None:
                live.timer.cancel()
            if live.bot_task is not None:
                live.bot_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        for conn in list(self.conns):
            conn.close(1001, "server going away")
        if self.engine is not None:
            self.engine.pool.shutdown(wait=False, cancel_futures=True)

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            exc = task.exception()
            if exc is not None:
                self.faults.report("a background task (a clock, a bot, a socket's writer)", exc)

    # -- tables --------------------------------------------------------------------------

    async def create_table(self, user: UserInfo, settings: TableSettings) -> Table:
        """Record a new table; a table against the bot starts at once (seats drawn, R13)."""
        if settings.bot is not None and not self.bots_enabled:
            raise Refused("not_available", "the bots are switched off on this server")
        invite_id: int | None = None
        if settings.invite is not None:
            invited = await self.store.run(lambda s: self.accounts.find(s, settings.invite or ""))
            if invited is None:
                raise Refused(
                    "no_such_user",
                    f"there is no user called {settings.invite!r} to invite",
                    field="invite",
                )
            if invited.id == user.id:
                raise Refused(
                    "bad_settings",
                    "you cannot invite yourself: invite another player, or leave it out",
                    field="invite",
                )
            invite_id = invited.id
        at = now()
        seats = None
        if settings.bot is not None:
            human = Seat(user.id, user.name)
            bot = Seat(None, f"gammon-{settings.bot}", settings.bot)
            seats = [human, bot] if secrets.randbelow(2) == 0 else [bot, human]

        def create(session: Session) -> Table:
            row = TableRow(
                created_by=user.id,
                created=at,
                settings=settings.to_json(),
                status="open",
                invite_id=invite_id,
                bot_level=settings.bot,
            )
            session.add(row)
            session.flush()
            table = Table(
                row.id, settings, Seat(user.id, user.name), created=at, invite_id=invite_id
            )
            if seats is not None:
                applied = table.apply(
                    {"type": "start", "seats": [seat.to_json() for seat in seats]},
                    side=None,
                    actor_id=user.id,
                    at=at,
                )
                write_applied(session, row.id, applied)
            return table

        table = await self.store.write(create)
        live = LiveTable(table)
        self.tables[table.id] = live
        self._schedule(live)
        self.lobby_changed()
        return table

    async def live_table(self, table_id: int) -> LiveTable | None:
        """The table in memory, rebuilt from the database if it is not (a finished one)."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        pending = self._table_loads.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._table_loads[table_id] = pending
            try:
                table = await self.store.run(lambda s: load_table(s, table_id))
                live = self.tables.get(table_id)
                if live is None and table is not None:
                    live = LiveTable(table)
                    self.tables[table_id] = live
                    self._evict_finished()
                pending.set_result(live)
            except Exception as exc:
                pending.set_exception(exc)
                raise
            finally:
                self._table_loads.pop(table_id, None)
            return live
        return await pending

    def _evict_finished(self) -> None:
        finished = [
            live
            for live in self.tables.values()
            if live.table.status in ("finished", "cancelled") and not live.conns
        ]
        for live in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            self.tables.pop(live.table.id, None)

    async def act(
        self,
        live: LiveTable,
        action: dict[str, Any],
        *,
        side: int | None,
        actor_id: int | None,
        entropy: bytes | None = None,
        conn: Connection | None = None,
        message_id: object = None,
        expect_seq: int | None = None,
        received: float | None = None,
    ) -> Applied:
        """Check, record, acknowledge and broadcast one action (docs/PROTOCOL.md 4)."""
        async with live.lock:
            table = live.table
            _check_seq(table, expect_seq)
            was_status = table.status
            applied = table.apply(action, side=side, actor_id=actor_id, at=now(), entropy=entropy)
            try:
                await asyncio.shield(self.store.append(table.id, applied))
            except Exception:
                log.exception("table %s: action %s not recorded; rebuilding", table.id, applied.seq)
                await self._reload(live)
                raise Refused(
                    "server_error", "the action could not be recorded; nothing changed"
                ) from None
            self.actions += 1
            if conn is not None:
                ack: dict[str, Any] = {"type": "ack", "seq": applied.seq}
                if message_id is not None:
                    ack["id"] = message_id
                conn.send(ack)
            self.broadcast_state(live)
            if received is not None:
                self.latencies.append(time.monotonic() - received)
            self._schedule(live)
            if table.status != was_status or action["type"] == "start":
                self.lobby_changed()
            if table.status in ("finished", "cancelled"):
                self.moderator.close_table(str(table.id))
                self._evict_finished()  # a busy server keeps only the recent ones in memory
            return applied

    async def _reload(self, live: LiveTable) -> None:
        """After a failed commit: the table as the database has it."""
        table = await self.store.run(lambda s: load_table(s, live.table.id))
        if table is not None:
            table.resume(now())
            live.table = table
        self.broadcast_state(live)

    def state_for(self, live: LiveTable, viewer: int | None) -> dict[str, Any]:
        connected = {c.user.id for c in live.conns if c.user is not None}
        spectators = sum(1 for c in live.conns if self._side(live, c) is None)
        return live.table.state_json(viewer, at=now(), connected=connected, spectators=spectators)

    def broadcast_state(self, live: LiveTable) -> None:
        """Send the state to everybody at the table: one text for each side, and spectators.

        A ``log_delta`` connection gets the events it has not had yet; connections
        that have had the same events share one text too.
        """
        table = live.table
        at = now()
        sides = {conn: self._side(live, conn) for conn in live.conns}
        connected = {c.user.id for c in sides if c.user is not None}
        spectators = sum(1 for side in sides.values() if side is None)
        length = table.log_length()
        cache: dict[tuple[int | None, int | None], str] = {}
        for conn, viewer in sides.items():
            log_from: int | None = None
            if "log_delta" in conn.features:
                sent = conn.log_sent
                log_from = sent[1] if sent is not None and sent[0] == length[0] else 0
                if log_from > length[1]:
                    log_from = 0  # the table was rebuilt after a failed commit
            key = (viewer, log_from)
            text = cache.get(key)
            if text is None:
                text = cache[key] = table.state_text(
                    viewer, at=at, connected=connected, spectators=spectators, log_from=log_from
                )
            conn.send(text)
            conn.log_sent = length

    @staticmethod
    def _side(live: LiveTable, conn: Connection) -> int | None:
        return live.table.viewer_side(conn.user.id) if conn.user is not None else None

    # -- clocks and bots ---------------------------------------------------------------------

    def _schedule(self, live: LiveTable) -> None:
        """Set the table's timer (clock, opening roll) and start its bot if it must act."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        table = live.table
        deadlines = [
            d
            for d in (
                table.clock.deadline() if table.clock and table.status == "playing" else None,
                table.opening_deadline(),
            )
            if d is not None
        ]
        if deadlines:
            delay = max(0.0, min(deadlines) - now()) + 0.005
            loop = asyncio.get_running_loop()
            live.timer = loop.call_later(delay, lambda: self._spawn(self._on_timer(live)))
        if (
            table.bot_to_act()
            and self.engine is not None
            and (live.bot_task is None or live.bot_task.done())
        ):
            live.bot_task = self._spawn(self._bot_loop(live))

    async def _on_timer(self, live: LiveTable) -> None:
        table = live.table
        if table.status != "playing":
            return
        at = now()
        clock = table.clock
        if clock is not None and clock.running is not None:
            deadline = clock.deadline()
            if deadline is not None and deadline <= at:
                loser = clock.running
                with contextlib.suppress(Refused):
                    await self.act(
                        live, {"type": "timeout", "side": loser}, side=loser, actor_id=None
                    )
                return
        opening = table.opening_deadline()
        if opening is not None and opening <= at:
            with contextlib.suppress(Refused):
                await self.act(live, {"type": "roll"}, side=0, actor_id=None)
            return
        self._schedule(live)

    async def _expiry_loop(self) -> None:
        """Look for forgotten tables now and then (see :meth:`expire`)."""
        interval = max(0.1, min(30.0, self.open_table_expiry_s / 4, self.bot_table_idle_s / 4))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.expire(now())
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
            if table.status == "open":
                if at - table.created >= self.open_table_expiry_s:
                    with contextlib.suppress(Refused):
                        await self.act(live, {"type": "cancel"}, side=None, actor_id=None)
                continue
            bot = table.bot_side
            if table.status != "playing" or bot is None or table.seats is None:
                continue
            human = table.seats[1 - bot].user_id
            if any(c.user is not None and c.user.id == human for c in live.conns):
                continue
            if at - max(table.last_at, live.seen) >= self.bot_table_idle_s:
                with contextlib.suppress(Refused):
                    await self.act(live, {"type": "forfeit"}, side=1 - bot, actor_id=None)

    async def _bot_loop(self, live: LiveTable) -> None:
        assert self.engine is not None
        failures = 0
        while live.table.bot_to_act():
            table = live.table
            game, series, side = table.game, table.series, table.bot_side
            assert game is not None and series is not None and side is not None
            seats = table.seats
            assert seats is not None
            level = seats[side].bot or "expert"
            seq = table.seq
            score = series.score if table.settings.mode == "match" else (0, 0)
            async with live.lock:  # the engine reads the live game: nothing may change it
                if live.table.seq != seq:
                    continue  # the game moved on before the bot began (a resignation...)
                action = await self.engine.run(self.engine.decide, level, game, side, score)
            try:
                await self.act(live, action, side=side, actor_id=None, expect_seq=seq)
            except Refused as exc:
                if exc.code == "stale":
                    continue
                failures += 1
                log.error("table %s: the bot's %s was refused: %s", table.id, action, exc)
                if failures >= 3:
                    return

    # -- sockets ---------------------------------------------------------------------------

    def register(self, conn: Connection) -> None:
        conn.rate = self.message_rate
        conn.burst = conn.tokens = 2.0 * self.message_rate
        self.conns.add(conn)
        if conn.user is not None:
            self.user_conns[conn.user.id].add(conn)

    def unregister(self, conn: Connection) -> None:
        self.conns.discard(conn)
        if conn.user is not None:
            conns = self.user_conns.get(conn.user.id)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    self.user_conns.pop(conn.user.id, None)

    def close_user(
        self, user_id: int, code: int, reason: str, *, session_hash: str | None = None
    ) -> None:
        """Close a user's sockets (all, or one session's): sign-out, kick, ban."""
        for conn in list(self.user_conns.get(user_id, ())):
            if session_hash is None or conn.session_hash == session_hash:
                conn.close(code, reason)

    async def join_table(self, live: LiveTable, conn: Connection) -> None:
        """Send what a new table connection needs: hello, chat history, the state."""
        live.conns.add(conn)
        conn.table = live
        self.register(conn)
        user = conn.user
        conn.send(
            {
                "type": "hello",
                "user": user.to_json() if user else None,
                "table": live.table.id,
                "side": self._side(live, conn),
                "house_rules": self.moderator.house_rules,
            }
        )
        conn.send({"type": "chat_history", "messages": list(await self._chat_history(live))})
        self.broadcast_state(live)

    def leave_table(self, live: LiveTable, conn: Connection) -> None:
        if self._side(live, conn) is not None:
            live.seen = now()
        live.conns.discard(conn)
        self.unregister(conn)
        if not conn.closed:
            conn.close(1000)
        self.broadcast_state(live)

    async def on_table_message(self, live: LiveTable, conn: Connection, raw: str | None) -> None:
        """One message from a table socket (``raw`` None: a binary frame, which is refused)."""
        received = time.monotonic()
        message_id: object = None
        try:
            if not conn.allow():
                self._flooded(conn, raw)
            conn.refusals = 0
            message = parse_message(_text_frame(raw), TABLE_MESSAGES)
            message_id = message.id
            await self._table_message(live, conn, message, received)
        except Refused as exc:
            self._refuse(conn, exc, message_id)
        except _AlreadyAnswered:
            pass
        except Exception as exc:
            self._fault(conn, f"table {live.table.id}: a message", exc, message_id)

    @staticmethod
    def _refuse(conn: Connection, exc: Refused, message_id: object) -> None:
        ident = message_id if message_id is not None else exc.message_id
        conn.send(error_json(exc.code, exc.message, ident, field=exc.field))

    def _fault(self, conn: Connection, where: str, exc: Exception, message_id: object) -> None:
        """An exception nobody expected: answer ``server_error``, log one line (rate-limited)."""
        self.faults.report(where, exc)
        ident = message_id if isinstance(message_id, str | int) else None
        with contextlib.suppress(Exception):
            conn.send(
                error_json(
                    "server_error",
                    "the server failed while handling this message (a fault on our side, "
                    "now logged); the next state shows the table as it is",
                    ident,
                )
            )

    def _flooded(self, conn: Connection, raw: str | None) -> None:
        """Refuse a message over the connection's rate; too many in a row close it (1008)."""
        conn.refusals += 1
        if conn.refusals >= MAX_REFUSALS:
            conn.close(1008, "flooding")
        message_id = None
        if raw is not None and len(raw) <= MAX_MESSAGE_BYTES:
            with contextlib.suppress(ValueError):
                data = loads(raw)
                if isinstance(data, dict):
                    message_id = data.get("id")
        conn.send(
            error_json(
                "rate_limited",
                f"at most {conn.rate:g} messages a second (bursts of {conn.burst:g}): slow down",
                message_id if isinstance(message_id, str | int) else None,
            )
        )
        raise _AlreadyAnswered

    async def _table_message(
        self, live: LiveTable, conn: Connection, message: ClientMessage, received: float
    ) -> None:
        kind = message.type
        if kind == "ping":
            conn.send(
                {"type": "pong", "id": message.id} if message.id is not None else {"type": "pong"}
            )
            return
        if kind in ("chat", "report", "kick", "ban", "unban", "mute", "unmute"):
            await self._chat_message(conn, live, message)
            return
        if kind == "hello":
            conn.features = FEATURES.intersection(message.fields["features"])
            reply: dict[str, Any] = {"type": "ack", "features": sorted(conn.features)}
            if message.id is not None:
                reply["id"] = message.id
            conn.send(reply)
            return
        user = conn.user
        if user is None:
            raise Refused("not_signed_in", "sign in (or play as a guest) to act at a table")
        table = live.table
        side = table.side_of(user.id)
        # Who sends it comes before the seq and the table's state (docs/PROTOCOL.md 2.1).
        if message.side is not None and side is not None and message.side != side:
            raise Refused(
                "forbidden",
                f"you play side {side} and cannot act for side {message.side}",
            )
        if kind in _ACTING:
            if table.viewer_side(user.id) is None:
                raise Refused(
                    "not_a_player", "you are watching this table: only its players act here"
                )
            action = {"type": kind, **message.fields}
            await self.act(
                live,
                action,
                side=side,
                actor_id=user.id,
                entropy=message.entropy,
                conn=conn,
                message_id=message.id,
                expect_seq=message.seq,
                received=received,
            )
        elif kind == "join":
            await self._join(live, conn, user, message)
        elif kind == "cancel":
            if user.id != table.creator.user_id:
                raise Refused("forbidden", "only the table's creator can cancel it")
            await self.act(
                live,
                {"type": "cancel"},
                side=None,
                actor_id=user.id,
                conn=conn,
                message_id=message.id,
                expect_seq=message.seq,
            )
        elif kind == "hint":
            await self._hint(live, conn, side, message)

    async def _join(
        self, live: LiveTable, conn: Connection, user: UserInfo, message: ClientMessage
    ) -> None:
        table = live.table
        _check_seq(table, message.seq)
        if table.status == "playing":
            raise Refused("table_full", "both seats are taken")
        if table.status != "open":
            raise Refused("not_open", f"the table is {table.status}")
        if user.id == table.creator.user_id:
            raise Refused("own_table", "you created this table: wait for an opponent")
        if table.invite_id is not None and table.invite_id != user.id:
            raise Refused("not_invited", "this table is for an invited player")
        if self.moderator.is_kicked(user.name, str(table.id)):
            raise Refused("forbidden", "an operator removed you from this table")
        players = [table.creator, Seat(user.id, user.name)]
        if secrets.randbelow(2):
            players.reverse()  # R13: seats are drawn at random
        await self.act(
            live,
            {"type": "start", "seats": [seat.to_json() for seat in players]},
            side=None,
            actor_id=user.id,
            conn=conn,
            message_id=message.id,
            expect_seq=message.seq,
        )

    async def _hint(
        self, live: LiveTable, conn: Connection, side: int | None, message: ClientMessage
    ) -> None:
        table = live.table
        if side is None:
            raise Refused("not_a_player", "hints are for the player at the table")
        if self.engine is None:
            raise Refused("not_available", "the engine is switched off on this server")
        if table.bot_side is None:
            raise Refused("not_available", "hints are for practice games against the bot only")
        if "hint" not in table.actions_for(side):
            raise Refused(
                "not_available", "a hint is for your own move, when you have dice to play"
            )
        game = table.game
        assert game is not None and game.dice is not None
        seq = table.seq
        plays = await self.engine.run(self.engine.hints, game.position, game.dice)
        reply: dict[str, Any] = {"type": "hint", "seq": seq, "plays": plays}
        if message.id is not None:
            reply["id"] = message.id
        conn.send(reply)

    # -- the lobby ---------------------------------------------------------------------------

    def lobby_json(self, viewer: UserInfo | None) -> dict[str, Any]:
        tables = []
        for live in self.tables.values():
            table = live.table
            if table.status == "playing" or (
                table.status == "open"
                and (
                    table.invite_id is None
                    or (
                        viewer is not None and viewer.id in (table.invite_id, table.creator.user_id)
                    )
                )
            ):
                spectators = sum(1 for c in live.conns if self._side(live, c) is None)
                tables.append(table.summary_json(spectators))
        tables.sort(key=lambda t: (t["status"] != "open", -t["id"]))
        return {"type": "lobby", "tables": tables, "you": viewer.to_json() if viewer else None}

    def lobby_changed(self) -> None:
        if self._lobby_pending or not self.lobby:
            return
        self._lobby_pending = True

        def push() -> None:
            self._lobby_pending = False
            for conn in list(self.lobby):
                conn.send(self.lobby_json(conn.user))

        asyncio.get_running_loop().call_later(LOBBY_DEBOUNCE_S, push)

    async def join_lobby(self, conn: Connection) -> None:
        self.lobby.add(conn)
        self.register(conn)
        conn.send(
            {
                "type": "hello",
                "user": conn.user.to_json() if conn.user else None,
                "house_rules": self.moderator.house_rules,
            }
        )
        conn.send({"type": "chat_history", "messages": list(await self._chat_history(None))})
        conn.send(self.lobby_json(conn.user))

    def leave_lobby(self, conn: Connection) -> None:
        self.lobby.discard(conn)
        self.unregister(conn)
        if not conn.closed:
            conn.close(1000)

    async def on_lobby_message(self, conn: Connection, raw: str | None) -> None:
        message_id: object = None
        try:
            if not conn.allow():
                self._flooded(conn, raw)
            conn.refusals = 0
            message = parse_message(_text_frame(raw), LOBBY_MESSAGES)
            message_id = message.id
            if message.type == "ping":
                conn.send({"type": "pong"})
                return
            await self._chat_message(conn, None, message)
        except Refused as exc:
            self._refuse(conn, exc, message_id)
        except _AlreadyAnswered:
            pass
        except Exception as exc:
            self._fault(conn, "a lobby message", exc, message_id)

    # -- chat and moderation (R13) ---------------------------------------------------------------

    async def _chat_history(self, live: LiveTable | None) -> collections.deque[dict[str, Any]]:
        if live is not None and live.chat is not None:
            return live.chat
        if live is None and self.lobby_chat is not None:
            return self.lobby_chat
        table_id = live.table.id if live is not None else None

        def load(session: Session) -> list[dict[str, Any]]:
            rows = session.execute(
                select(ChatMessage, User.name)
                .join(User, User.id == ChatMessage.user_id)
                .where(
                    ChatMessage.table_id == table_id
                    if table_id is not None
                    else ChatMessage.table_id.is_(None)
                )
                .order_by(ChatMessage.id.desc())
                .limit(CHAT_HISTORY)
            ).all()
            return [_chat_json(row, name) for row, name in reversed(rows)]

        history = collections.deque(await self.store.run(load), maxlen=CHAT_HISTORY)
        if live is not None:
            if live.chat is None:
                live.chat = history
            return live.chat
        if self.lobby_chat is None:
            self.lobby_chat = history
        return self.lobby_chat

    def _audience(self, live: LiveTable | None) -> set[Connection]:
        return live.conns if live is not None else self.lobby

    async def _chat_message(
        self, conn: Connection, live: LiveTable | None, message: ClientMessage
    ) -> None:
        user = conn.user
        if user is None:
            raise Refused("not_signed_in", "sign in (or play as a guest) to chat")
        kind, fields = message.type, message.fields
        table_key = str(live.table.id) if live is not None else None
        moderator = self.moderator
        try:
            if kind == "chat":
                await self._post(conn, user, live, table_key, fields["text"])
            elif kind == "mute":
                moderator.mute(user.name, fields["user"])
                conn.send({"type": "muted", "user": fields["user"], "muted": True})
            elif kind == "unmute":
                moderator.unmute(user.name, fields["user"])
                conn.send({"type": "muted", "user": fields["user"], "muted": False})
            elif kind == "report":
                await self._report(conn, user, live, table_key, fields)
            elif kind in ("kick", "ban", "unban"):
                await self._operator(conn, user, live, kind, fields)
        except chat.ChatError as exc:
            raise Refused("forbidden", str(exc)) from None
        if message.id is not None:
            conn.send({"type": "ack", "id": message.id})

    async def _post(
        self,
        conn: Connection,
        user: UserInfo,
        live: LiveTable | None,
        table_key: str | None,
        text: str,
    ) -> None:
        decision = self.moderator.moderate(user.name, text, table=table_key)
        if isinstance(decision, chat.Rejected):
            code = "banned" if decision.rule is chat.Rule.BANNED else "chat_refused"
            raise Refused(code, decision.reason)
        at = now()
        table_id = live.table.id if live is not None else None

        def store(session: Session) -> int:
            row = ChatMessage(table_id=table_id, user_id=user.id, text=decision.text, at=at)
            session.add(row)
            session.commit()
            return row.id

        message_id = await self.store.run(store)
        entry = {
            "id": message_id,
            "user": user.name,
            "text": decision.text,
            "ms": int(at * 1000),
        }
        (await self._chat_history(live)).append(entry)
        audience = self._audience(live)
        names = [c.user.name for c in audience if c.user is not None]
        allowed = set(self.moderator.audience(user.name, names))
        out = dumps({"type": "chat", "message": entry})
        for other in list(audience):
            if other.user is None or other.user.name in allowed:
                other.send(out)

    async def _report(
        self,
        conn: Connection,
        user: UserInfo,
        live: LiveTable | None,
        table_key: str | None,
        fields: dict[str, Any],
    ) -> None:
        target_name = fields.get("user")
        if not isinstance(target_name, str):
            raise Refused("bad_message", "a 'report' message needs 'user'")
        target = await self.store.run(lambda s: self.accounts.find(s, target_name))
        if target is None:
            raise Refused("no_such_user", f"there is no user called {target_name!r}")
        report = self.moderator.report(
            user.name, target.name, fields.get("reason", ""), table=table_key
        )

        def store(session: Session) -> None:
            session.add(
                Report(
                    reporter_id=user.id,
                    target_id=target.id,
                    reason=json.dumps(
                        {"reason": report.reason, "table": table_key, "evidence": report.evidence}
                    ),
                    at=report.at,
                )
            )
            session.commit()

        await self.store.run(store)
        conn.send({"type": "reported", "user": target.name, "number": report.number})

    async def _operator(
        self,
        conn: Connection,
        user: UserInfo,
        live: LiveTable | None,
        kind: str,
        fields: dict[str, Any],
    ) -> None:
        target_name = fields["user"]
        target = await self.store.run(lambda s: self.accounts.find(s, target_name))
        if target is None:
            raise Refused("no_such_user", f"there is no user called {target_name!r}")
        reason = fields.get("reason", "")
        at = now()
        if kind == "kick":
            if live is None:
                raise Refused(
                    "bad_message", "kick from a table's socket: it removes the user from that table"
                )
            self.moderator.kick(user.name, target.name, str(live.table.id), reason)
            await self._sanction(target.id, "kick", None, user.id, reason, at)
            for other in list(live.conns):
                if other.user is not None and other.user.id == target.id:
                    other.close(4403, "removed from the table by an operator")
            side = live.table.side_of(target.id)
            if side is not None and live.table.status == "playing":
                with contextlib.suppress(Refused):
                    await self.act(live, {"type": "forfeit"}, side=side, actor_id=user.id)
        elif kind == "ban":
            minutes = fields.get("minutes")
            seconds = minutes * 60.0 if isinstance(minutes, int) else None
            banned = self.moderator.ban(user.name, target.name, reason, seconds=seconds)
            await self._sanction(target.id, "ban", banned.until, user.id, reason, at)
            if banned.until is None:
                await self.store.run(lambda s: _set_banned(s, target.id, True))
            self.accounts.forget_user(target.id)
            self.close_user(target.id, 4403, "banned by an operator")
        elif kind == "unban":
            self.moderator.unban(user.name, target.name)
            await self._sanction(target.id, "unban", None, user.id, reason, at)
            await self.store.run(lambda s: _set_banned(s, target.id, False))
            self.accounts.forget_user(target.id)
        conn.send({"type": "moderated", "action": kind, "user": target.name})

    async def _sanction(
        self, user_id: int, kind: str, until: float | None, by: int, reason: str, at: float
    ) -> None:
        def store(session: Session) -> None:
            session.add(
                Sanction(user_id=user_id, kind=kind, until=until, by_id=by, reason=reason, at=at)
            )
            session.commit()

        await self.store.run(store)

    def is_banned(self, user: UserInfo) -> bool:
        return user.banned or self.moderator.is_banned(user.name)


class _AlreadyAnswered(Exception):
    """The message was refused and the refusal sent."""


def _check_seq(table: Table, expect_seq: int | None) -> None:
    """Refuse an action meant for another state of the table (``stale``)."""
    if expect_seq is not None and expect_seq != table.seq:
        raise Refused(
            "stale",
            f"the action was meant for seq {expect_seq}, but the table is at seq "
            f"{table.seq}: look at the new state and act again",
        )


def _text_frame(raw: str | None) -> str:
    """The text of a message; a binary frame (None) is refused: the protocol is JSON text."""
    if raw is None:
        raise Refused(
            "bad_message",
            "binary WebSocket frames are not read: send each message as a text frame of JSON",
        )
    return raw


def _chat_json(row: ChatMessage, name: str) -> dict[str, Any]:
    return {"id": row.id, "user": name, "text": row.text, "ms": int(row.at * 1000)}


def _set_banned(session: Session, user_id: int, banned: bool) -> None:
    session.execute(update(User).where(User.id == user_id).values(banned=banned))
    session.commit()


def _moderation_state(session: Session) -> tuple[list[str], dict[str, float | None]]:
    """Operators' names and the bans in force, from the database (server start)."""
    operators = list(session.scalars(select(User.name).where(User.is_operator.is_(True))))
    bans: dict[str, float | None] = {
        name: None for name in session.scalars(select(User.name).where(User.banned.is_(True)))
    }
    at = now()
    rows = session.execute(
        select(User.name, Sanction.kind, Sanction.until)
        .join(User, User.id == Sanction.user_id)
        .where(Sanction.kind.in_(("ban", "unban")))
        .order_by(Sanction.id)
    ).all()
    for name, kind, until in rows:
        if kind == "unban":
            bans.pop(name, None)
        elif until is None or until > at:
            bans[name] = until
    return operators, bans
