"""The live server of one node: its tables in memory, acting at them, and what follows.

Everything here runs on the event loop except the database (see
:mod:`gammon.server.store`) and the engine (:mod:`gammon.server.bots`, one
thread of its own, so a bot thinking never holds up another table). Each table
in memory has a runner (:mod:`gammon.server.runner`): an action goes socket ->
runner (check, append to the log and commit, acknowledge) -> :meth:`Hub._changed`,
the one place for what follows a change of a table (broadcast, the lobby, timers,
the bot, ratings, listeners, moderation), here and on replicas alike. What the hub's
parts do is theirs: a table's sockets and what they send, :mod:`gammon.server.table_sockets`;
its clock, bot and expiry, :mod:`gammon.server.table_timers`; the lobby's entries and
sockets, :mod:`gammon.server.lobby_sockets` (its pages, :mod:`gammon.server.lobby`); the
sockets themselves, :mod:`gammon.server.connections`; the chat, with its moderation,
:mod:`gammon.server.chatroom`. With several nodes (:mod:`gammon.server.nodes`) a table
is run by one of them: an action at a table another node runs goes there, and this node
keeps a copy that follows that node's records only while one of its sockets is at the
table (:mod:`gammon.server.cluster`); the lobby then comes from the entries every node
writes for its own tables (:meth:`LobbySockets.entry
<gammon.server.lobby_sockets.LobbySockets.entry>`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from gammon.actions import Forfeit
from gammon.messages import Message
from gammon.server import chat, plays_text
from gammon.server.auth import Accounts, UserInfo
from gammon.server.bots import Bots, EngineChoice
from gammon.server.chance import Chance, SystemChance
from gammon.server.chatroom import ChatRoom
from gammon.server.cluster import Cluster, RedisCluster
from gammon.server.connections import (
    RATE,
    Acknowledgement,
    Connection,
    FaultLog,
    LiveTable,
    Sockets,
)
from gammon.server.fairdice import SEED_BYTES
from gammon.server.lobby import Lobby
from gammon.server.lobby_sockets import LobbySockets
from gammon.server.metrics import ACTION_BUCKETS, Histogram
from gammon.server.nodes import Nodes, Request
from gammon.server.players import all_ratings
from gammon.server.practice import Practice, can_take_back
from gammon.server.protocol import Refused
from gammon.server.ratings import BOT_RATINGS
from gammon.server.redis_nodes import RedisNodes
from gammon.server.runner import Committed, Runner, adopt_log
from gammon.server.settings import TableSettings
from gammon.server.store import Store, create_table, load_unfinished
from gammon.server.table import Applied, Seat, Table
from gammon.server.table_actions import ENDED, SeriesAction, TableAction
from gammon.server.table_codec import action_json
from gammon.server.table_log import TableLog, table_key
from gammon.server.table_sockets import TableSockets
from gammon.server.table_timers import BOT_TABLE_IDLE_S, OPEN_TABLE_EXPIRY_S, TableTimers
from gammon.server.timesource import SystemTime, TimeSource

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

__all__ = ["TABLE_MOMENTS", "Hub", "TableEvent", "TableMoment"]

log = logging.getLogger("gammon.server")

#: The moments of a table others may listen to (:meth:`Hub.listen`): ``status`` after an
#: action that changed the table's status (or started it), ``finished`` once when it has
#: just finished (after ``status``), ``joined`` when a signed-in user opens its socket.
TableMoment = Literal["status", "finished", "joined"]
TABLE_MOMENTS: Final[tuple[TableMoment, ...]] = ("status", "finished", "joined")


@dataclass(frozen=True)
class TableEvent:
    """One moment of one table, as listeners hear of it."""

    moment: TableMoment
    live: LiveTable
    #: ``joined``: the user who opened the table's socket.
    user_id: int | None = None


KEEP_FINISHED: Final = 200


def _action_histogram() -> Histogram:
    return Histogram(
        "gammon_action_seconds",
        "Seconds from a player's action read to its state queued for every socket "
        "(the commit included).",
        ACTION_BUCKETS,
    )


class Hub:
    """Every live table and socket of one server."""

    def __init__(
        self,
        store: Store,
        accounts: Accounts,
        *,
        bots: bool = True,
        engine: EngineChoice | None = None,
        moderator: chat.ChatModerator | None = None,
        message_rate: float = RATE,
        open_table_expiry_s: float = OPEN_TABLE_EXPIRY_S,
        bot_table_idle_s: float = BOT_TABLE_IDLE_S,
        nodes: Nodes | None = None,
        time: TimeSource | None = None,
        chance: Chance | None = None,
    ) -> None:
        self.store = store
        self.accounts = accounts
        #: The server's draws: dice seeds, who sits first against the bot (gammon.server.chance).
        self.chance: Chance = chance if chance is not None else SystemChance()
        #: The game's time (clocks, expiries, rate limits): the system's, or a test's
        #: (gammon.server.timesource).
        self.time: TimeSource = time if time is not None else SystemTime()
        #: The other nodes (gammon.server.nodes); the default is this node alone.
        self.nodes = nodes if nodes is not None else Nodes()
        #: Every open WebSocket (anonymous ones too).
        self.sockets = Sockets(message_rate)
        self._bookkeeping()
        self.bots_enabled = bots
        self.bots = Bots(engine) if bots else None
        #: Hints, the tutor and take-backs (R15).
        self.practice = self._practice()
        self.tables: dict[int, LiveTable] = {}
        #: How a table's runner applies, appends and reads back its actions, its new games
        #: seeded by the server's chance.
        self.table_log = TableLog(store, lambda: self.chance.token_bytes(SEED_BYTES))
        self._table_loads: dict[int, asyncio.Future[LiveTable | None]] = {}
        self._lobby_and_chat(moderator)
        #: The tables' part on several nodes: replicas, the lobby's entries, presence, the
        #: chat's relays (gammon.server.cluster); nothing on one node alone.
        self.cluster: Cluster = (
            RedisCluster(self.nodes, self) if isinstance(self.nodes, RedisNodes) else Cluster()
        )
        self.timers = TableTimers(
            self.tables, nodes=self.nodes, time=self.time, bots=self.bots, cluster=self.cluster,
            act=self.act, spawn=self._spawn, faults=self.faults,
            open_table_expiry_s=open_table_expiry_s, bot_table_idle_s=bot_table_idle_s,
        )  # fmt: skip
        self.table_sockets = TableSockets(self)

    def _bookkeeping(self) -> None:
        """What the hub keeps of itself: its background tasks, its counts for ``/metrics``,
        its faults, and whether it is ready."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.actions = 0
        #: Accepted actions by type (``/metrics``).
        self.action_counts: collections.Counter[str] = collections.Counter()
        self.faults = FaultLog()
        self.latencies: collections.deque[float] = collections.deque(maxlen=100_000)
        #: From a player's action read to its state queued for every socket (``/metrics``).
        self.action_seconds = _action_histogram()
        #: Set once the tables are recovered and the timers run (``/readyz``).
        self.started = False
        #: Who listens to which moments of the tables (:meth:`listen`).
        self._listeners: dict[TableMoment, list[Callable[[TableEvent], None]]] = {
            moment: [] for moment in TABLE_MOMENTS
        }

    def _lobby_and_chat(self, moderator: chat.ChatModerator | None) -> None:
        """The lobby's sockets and pages, the ratings it shows, and the chat rooms."""
        self.lobby: set[Connection] = set()
        self.chat = self._chat_room(moderator)
        #: Ratings by user id, for the lobby (gammon.server.players keeps them).
        self.ratings: dict[int, float] = {}
        #: What the lobby lists besides tables (the tournaments, when they are running).
        self.lobby_extras: Callable[[], dict[str, Any]] | None = None
        self.lobby_sockets = LobbySockets(self)
        #: Its pages, the view each lobby socket chose (gammon.server.lobby).
        self.lobby_pages = Lobby(
            self.lobby,
            self.lobby_sockets.entries,
            self._rating,
            lambda: self.lobby_extras() if self.lobby_extras is not None else {},
        )

    def _practice(self) -> Practice:
        """Practice with the bots: the bot waits at its gate while a play may be taken back,
        and a hold is released where the table runs when its player is on another node."""
        practice = Practice(self.bots, self.time)
        practice.release_elsewhere = lambda table_id: self.nodes.tell(
            table_key(table_id), {"release_bot": 1}
        )
        if self.bots is not None:
            self.bots.gate = practice.gate
        return practice

    def _chat_room(self, moderator: chat.ChatModerator | None) -> ChatRoom:
        """The chat rooms, given what they may do to the server: close a user's sockets,
        forfeit a removed player's match."""
        return ChatRoom(
            self.store,
            self.accounts,
            moderator if moderator is not None else chat.ChatModerator(clock=self.time.now),
            lobby=self.lobby,
            close_user=self.sockets.close_user,
            forfeit=self._forfeit_kicked,
            time=self.time,
        )

    def listen(self, moment: TableMoment, listener: Callable[[TableEvent], None]) -> None:
        """Call ``listener`` at each ``moment`` of every table (:data:`TABLE_MOMENTS`).

        The one way for the rest of the server (the tournaments, the analysis queue) to
        hear of the tables: listeners run on the event loop right after the moment, in
        the order they were added, and must not block (spawn what takes time).
        """
        self._listeners[moment].append(listener)

    def tell(self, moment: TableMoment, live: LiveTable, user_id: int | None = None) -> None:
        """Tell the listeners of ``moment`` (:meth:`listen`) that it came at ``live``."""
        event = TableEvent(moment, live, user_id)
        for listener in list(self._listeners[moment]):
            listener(event)

    @property
    def bot_levels(self) -> list[str]:
        if not self.bots_enabled:
            return []
        from gammon.engine.bot import SKILL_LEVELS

        return list(SKILL_LEVELS)

    @property
    def moderator(self) -> chat.ChatModerator:
        """The house rules, mutes, kicks and bans (the chat room's)."""
        return self.chat.moderator

    def is_banned(self, user: UserInfo) -> bool:
        return self.chat.is_banned(user)

    # -- start and stop -----------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table from its log and set its clock and bot going.

        With several nodes the tables come as this node takes them over (the nodes'
        sweep, once :meth:`join_nodes` starts it), and replicas as its sockets open them.
        """
        tables = [] if self.nodes.shared else await self.store.run(load_unfinished)
        at = self.time.now()
        for table in tables:
            table.resume(at)
            live = self.install(table)
            self.timers.schedule(live)
        await self.chat.load()
        self.ratings = await self.store.run(all_ratings)
        if self.bots is not None:
            self._spawn(self.bots.run(self.bots.warm_up))
        self._spawn(asyncio.to_thread(plays_text.warm_up))
        self._spawn(self.timers.expiry_loop())
        log.info("recovered %d unfinished tables", len(tables))

    async def join_nodes(self) -> None:
        """Start hearing the other nodes and take over the logs nobody runs (tables and
        tournaments together: after the tournaments are read); then the server is ready."""
        await self.nodes.start(self.faults.report, self._spawn)
        self.started = True

    async def going_away(self, timeout: float = 2.0) -> None:
        """Close every socket with 1001 (the server is going away) and let the closes go out.

        ``gammon serve`` calls this when it is told to stop, before uvicorn closes
        the connections itself (with 1012, which the protocol does not use).
        """
        await self.sockets.close_all(1001, "server going away", timeout=timeout)

    async def stop(self) -> None:
        self.started = False
        await self.nodes.stop()
        for live in self.tables.values():
            if live.timer is not None:
                live.timer.cancel()
            if live.bot_task is not None:
                live.bot_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.sockets.close_all(1001, "server going away")
        if self.bots is not None:
            self.bots.stop()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coroutine`` in the background; a failure goes to the fault log."""
        return self._spawn(coroutine)

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
            raise Refused("not_available", Message("the bots are switched off on this server"))
        invite_id: int | None = None
        if settings.invite is not None:
            invited = await self.store.run(lambda s: self.accounts.find(s, settings.invite or ""))
            if invited is None:
                raise Refused(
                    "no_such_user",
                    Message("there is no user called {name} to invite", name=repr(settings.invite)),
                    field="invite",
                )
            if invited.id == user.id:
                raise Refused(
                    "bad_settings",
                    Message("you cannot invite yourself: invite another player, or leave it out"),
                    field="invite",
                )
            invite_id = invited.id
        at = self.time.now()
        seats = None
        if settings.bot is not None:
            human = Seat(user.id, user.name)
            bot = Seat(None, f"gammon-{settings.bot}", settings.bot)
            seats = [human, bot] if self.chance.randbelow(2) == 0 else [bot, human]

        creator = Seat(user.id, user.name)
        table = await self.store.write(
            lambda s: self._created(
                s, create_table(s, settings, creator, at=at, invite_id=invite_id, seats=seats)
            )
        )
        self._opened(table)
        log.info(
            "table %s: created by %s",
            table.id,
            user.name,
            extra={"table_id": table.id, "user_id": user.id, "user": user.name},
        )
        return table

    async def create_tournament_table(
        self,
        settings: TableSettings,
        seats: list[Seat],
        *,
        tournament: tuple[int, int],
        creator: Seat,
    ) -> Table:
        """A tournament match's table, started at once with its seats (already drawn by lot)."""
        return await self.create_seated_table(
            settings, seats, creator=creator, tournament=tournament
        )

    async def create_seated_table(
        self,
        settings: TableSettings,
        seats: list[Seat],
        *,
        creator: Seat,
        tournament: tuple[int, int] | None = None,
    ) -> Table:
        """A table started at once with its seats, in their order: a tournament's match,
        or two players paired by gammon.server.pairing."""
        at = self.time.now()
        table = await self.store.write(
            lambda s: self._created(
                s,
                create_table(
                    s, settings, creator, at=at, invite_id=None, seats=seats, tournament=tournament
                ),
            )
        )
        self._opened(table)
        return table

    def _created(self, session: Session, table: Table) -> Table:
        """A table being created in ``session`` (not committed): this node runs it."""
        self.nodes.acquire(session, table_key(table.id))
        return table

    def _opened(self, table: Table) -> None:
        """A new table is committed: in memory, in the lobby, its clock and bot going."""
        self.nodes.created(table_key(table.id))
        live = self.install(table)
        self.cluster.opened(live)
        self.cluster.publish_entry(live)
        self.timers.schedule(live)
        self.lobby_changed()

    def install(self, table: Table) -> LiveTable:
        """Put ``table`` in memory, with a runner of its own (its new games seeded by the
        server's chance)."""
        table.new_seed = self.table_log.new_seed
        live: LiveTable
        runner: Runner[Table, Applied] = Runner(
            self.table_log,
            table,
            nodes=self.nodes,
            time=self.time,
            spawn=self._spawn,
            on_change=lambda change: self._changed(live, change),
        )
        live = self.tables[table.id] = LiveTable(runner)
        return live

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
                table = await self.table_log.load(table_id, None)
                live = self.tables.get(table_id)
                if live is None and table is not None:
                    live = self.install(table)
                    self._evict_finished()
                    await self.cluster.loaded(live)
                pending.set_result(live)
            except Exception as exc:
                pending.set_exception(exc)
                raise
            finally:
                self._table_loads.pop(table_id, None)
            return live
        return await pending

    def forget(self, live: LiveTable) -> None:
        """Drop a replica of a table another node runs (no socket here is at it)."""
        if self.tables.get(live.table.id) is live and not live.conns:
            del self.tables[live.table.id]
            if live.timer is not None:
                live.timer.cancel()
            self.lobby_changed()

    def _evict_finished(self) -> None:
        finished = [
            live
            for live in self.tables.values()
            if live.table.status in ("finished", "cancelled") and not live.conns
        ]
        for live in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            self.tables.pop(live.table.id, None)

    def act(
        self,
        live: LiveTable,
        action: TableAction | SeriesAction,
        *,
        side: int | None,
        actor_id: int | None,
        entropy: bytes | None = None,
        conn: Connection | None = None,
        message_id: object = None,
        expect_seq: int | None = None,
        received: float | None = None,
        hold_bot: bool = False,
        sent: dict[str, Any] | None = None,
    ) -> Coroutine[Any, Any, Applied]:
        """Check, record, acknowledge and broadcast one action (docs/PROTOCOL.md 4).

        The table's runner carries it out (gammon.server.runner), on the node that runs the
        table, and :meth:`_changed` does what follows. ``hold_bot``: a play the tutor
        judges, after which the bot waits while it may be taken back. ``sent``: the client's
        checked JSON, the request's as it is. A plain def: one frame less on each await.
        """
        request = Request(
            sent if sent is not None else action_json(action), side=side, actor_id=actor_id,
            entropy=entropy, expect_seq=expect_seq, hold_bot=hold_bot, value=action,
        )  # fmt: skip
        answer = None
        if conn is not None:
            answer = Acknowledgement(conn, message_id, received, self._observe_latency)
        return live.runner.act(request, answer)

    def _observe_latency(self, elapsed: float) -> None:
        self.latencies.append(elapsed)
        self.action_seconds.observe(elapsed)

    def _changed(self, live: LiveTable, change: Committed[Table, Applied]) -> None:
        """Everything that follows a change of a table: the one place, for an action
        committed here, a record followed as a replica, and a table read again.

        Every socket at the table gets its state; where the table runs, its clock and bot
        are set, and its lobby entry is written; a change of status reaches the lobby and
        the listeners (:meth:`listen`), a finished table its players' ratings, and an
        ended one closes its moderation and may leave memory.
        """
        table, applied, here = change.state, change.applied, change.here
        self.table_sockets.broadcast_state(live)
        if applied is None:  # read again: taken over, stood down, or a commit failed
            if here:
                self.timers.schedule(live)
                self.cluster.publish_entry(live)
            self.lobby_changed()
            return
        kind = applied.action.name
        changed = table.status != change.before
        request = change.request
        if here:
            self.actions += 1
            self.action_counts[kind] += 1
            if request is not None and request.hold_bot and can_take_back(table, request.side):
                self.practice.hold(live)  # before the bot starts (timers.schedule)
            self.timers.schedule(live)
            if changed:
                log.info(
                    "table %s: %s",
                    table.id,
                    table.status,
                    extra={"table_id": table.id, "status": table.status, "seq": applied.seq,
                           "user_id": applied.actor_id, "action": kind},
                )  # fmt: skip
        if changed or kind == "start":
            if here:
                self.cluster.publish_entry(live)
            self.lobby_changed()
            if here:
                self.tell("status", live)
        if changed and table.status == "finished":
            if table.seats is not None:
                self._spawn(self._refresh_ratings(table))
            if here:
                self.tell("finished", live)
        if changed and table.status in ENDED:
            self.moderator.close_table(str(table.id))
            self._evict_finished()  # a busy server keeps only the recent ones in memory

    async def _refresh_ratings(self, table: Table) -> None:
        """The lobby's ratings of a finished table's players (rated in the commit that ended it)."""
        await self.refresh_ratings(
            [seat.user_id for seat in table.seats or [] if seat.user_id is not None]
        )

    async def refresh_ratings(self, users: list[int]) -> None:
        """Read these users' ratings again (a table of theirs finished, here or elsewhere)."""
        self.ratings.update(await self.store.run(lambda s: all_ratings(s, users)))
        self.lobby_changed()

    def rating_of(self, seat: Seat | None) -> float | None:
        return self._rating(seat.user_id, seat.bot) if seat is not None else None

    def _rating(self, user_id: int | None, bot: str | None) -> float | None:
        if bot is not None:
            return BOT_RATINGS.get(bot)
        return self.ratings.get(user_id) if user_id is not None else None

    def lobby_changed(self) -> None:
        """Something the lobby lists changed: its sockets get their pages again."""
        self.lobby_pages.changed()

    # -- several nodes: taking a table over and standing down (gammon.server.cluster) -------

    async def adopt(self, table_id: int, run_here: Callable[[], None]) -> None:
        """This node runs the table now (it took the lease): rebuild it from its log, which
        has every action the last owner committed, and start its clock and bot."""
        await adopt_log(
            self.table_log,
            table_id,
            run_here,
            time=self.time,
            live=lambda: self.tables.get(table_id),
            install=self.install,
        )

    async def demote(self, live: LiveTable) -> None:
        """Another node runs the table now: stop its clock and bot here, keep it as a replica
        (as the database has it: an action here may not have been committed)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.bot_task is not None and live.bot_task is not asyncio.current_task():
            live.bot_task.cancel()
        await live.runner.restore()

    async def _forfeit_kicked(self, live: LiveTable, side: int, operator_id: int) -> None:
        """A player an operator removed from the table forfeits the match there (R13)."""
        with contextlib.suppress(Refused):
            await self.act(live, Forfeit(side), side=side, actor_id=operator_id)
