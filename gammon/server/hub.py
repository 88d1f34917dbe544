"""The live server: tables in memory, acting at them, broadcasting, and the timers.

Everything here runs on the event loop except the database (see
:mod:`gammon.server.store`) and the engine (:mod:`gammon.server.bots`, one
thread of its own, so a bot thinking never holds up another table). Each table
in memory has a runner (:mod:`gammon.server.runner`): an action goes socket ->
runner (check, append to the log and commit, acknowledge) -> :meth:`Hub._changed`,
the one place for what follows a change of a table (broadcast, the lobby, timers,
the bot, ratings, listeners, moderation), here and on replicas alike. The sockets
themselves are :mod:`gammon.server.connections`; the chat, with its moderation, is
:mod:`gammon.server.chatroom`. With several nodes (:mod:`gammon.server.nodes`) a table
is run by one of them: an action at a table another node runs goes there, and this node
keeps a copy that follows that node's records only while one of its sockets is at the
table (:mod:`gammon.server.cluster`); the lobby then comes from the entries every node
writes for its own tables (:meth:`Hub.lobby_entry`).

(Past 600 lines, for now: the tables' life cycle in one place (acting, broadcast,
timers, expiry, the lobby's entries and the listeners that tournaments and analyses hang
on). The lobby's pages and views are :mod:`gammon.server.lobby`.)
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from gammon.actions import Forfeit, OutOfTime, PlayDice, Roll
from gammon.messages import Message
from gammon.server import chat, plays_text
from gammon.server.auth import Accounts, UserInfo
from gammon.server.bots import Bots, EngineChoice
from gammon.server.chance import Chance, SystemChance
from gammon.server.chatroom import CHAT_MESSAGES, ChatRoom, TournamentRoom
from gammon.server.client_vocabulary import (
    FEATURES,
    GAME_ACTIONS,
    LOBBY_MESSAGES,
    TABLE_MESSAGES,
    TOURNAMENT_MESSAGES,
)
from gammon.server.cluster import Cluster, RedisCluster
from gammon.server.connections import (
    RATE,
    Acknowledgement,
    AlreadyAnswered,
    Connection,
    FaultLog,
    LiveTable,
    Sockets,
    answer_fault,
    answer_flood,
    answer_refusal,
    text_frame,
)
from gammon.server.fairdice import SEED_BYTES
from gammon.server.lobby import Lobby, LobbyView
from gammon.server.metrics import ACTION_BUCKETS, Histogram
from gammon.server.nodes import Nodes, Request
from gammon.server.players import all_ratings
from gammon.server.practice import TAKE_BACK, Practice, can_take_back
from gammon.server.protocol import ClientMessage, Refused, parse_message
from gammon.server.ratings import BOT_RATINGS
from gammon.server.redis_nodes import RedisNodes
from gammon.server.runner import Committed, Runner
from gammon.server.settings import TableSettings
from gammon.server.store import Store, create_table, load_unfinished
from gammon.server.table import Applied, Seat, Table
from gammon.server.table_actions import ENDED, Cancel, SeriesAction, Start, TableAction
from gammon.server.table_codec import action_from_json, action_json
from gammon.server.table_log import TableLog, table_key
from gammon.server.timesource import SystemTime, TimeSource
from gammon.server.views import summary_json

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
#: An open table nobody joins is cancelled after this long (docs/PROTOCOL.md 1.3).
OPEN_TABLE_EXPIRY_S: Final = 30 * 60.0
#: A table against the bot that its human left is forfeited after this long without them.
BOT_TABLE_IDLE_S: Final = 30 * 60.0

#: What a player sends to act at the table: the game's actions, leaving, and taking a play
#: back in practice against the bot (gammon.server.practice).
_ACTING: Final = frozenset(GAME_ACTIONS) | {Forfeit.name, TAKE_BACK}


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
        #: The server's draws: dice seeds, who sits first against the bot (gammon.server.chance).
        self.chance: Chance = chance if chance is not None else SystemChance()
        #: The game's time (clocks, expiries, rate limits): the system's, or a test's
        #: (gammon.server.timesource).
        self.time: TimeSource = time if time is not None else SystemTime()
        #: The other nodes (gammon.server.nodes); the default is this node alone.
        self.nodes = nodes if nodes is not None else Nodes()
        #: An open table nobody has joined after this long is cancelled.
        self.open_table_expiry_s = open_table_expiry_s
        #: A table against the bot with no action and its human away this long is forfeited.
        self.bot_table_idle_s = bot_table_idle_s
        #: Every open WebSocket (anonymous ones too).
        self.sockets = Sockets(message_rate)
        self.store = store
        self.accounts = accounts
        self.bots_enabled = bots
        self.bots = Bots(engine) if bots else None
        #: Hints, the tutor and take-backs (R15).
        self.practice = self._practice()
        self.tables: dict[int, LiveTable] = {}
        #: How a table's runner applies, appends and reads back its actions, its new games
        #: seeded by the server's chance.
        self.table_log = TableLog(store, lambda: self.chance.token_bytes(SEED_BYTES))
        self.lobby: set[Connection] = set()
        self.chat = self._chat_room(moderator)
        #: Its pages, the view each lobby socket chose (gammon.server.lobby).
        self.lobby_pages = Lobby(
            self.lobby,
            self._lobby_entries,
            self._rating,
            lambda: self.lobby_extras() if self.lobby_extras is not None else {},
        )
        self._tasks: set[asyncio.Task[Any]] = set()
        self._table_loads: dict[int, asyncio.Future[LiveTable | None]] = {}
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
        #: Ratings by user id, for the lobby (gammon.server.players keeps them).
        self.ratings: dict[int, float] = {}
        #: What the lobby lists besides tables (the tournaments, when they are running).
        self.lobby_extras: Callable[[], dict[str, Any]] | None = None
        #: The tables' part on several nodes: replicas, the lobby's entries, presence, the
        #: chat's relays (gammon.server.cluster); nothing on one node alone.
        self.cluster: Cluster = (
            RedisCluster(self.nodes, self) if isinstance(self.nodes, RedisNodes) else Cluster()
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

    def _tell(self, moment: TableMoment, live: LiveTable, user_id: int | None = None) -> None:
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
            self._schedule(live)
        await self.chat.load()
        self.ratings = await self.store.run(all_ratings)
        if self.bots is not None:
            self._spawn(self.bots.run(self.bots.warm_up))
        self._spawn(asyncio.to_thread(plays_text.warm_up))
        self._spawn(self._expiry_loop())
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
        self._schedule(live)
        self.lobby_changed()

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

    async def act(
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
    ) -> Applied:
        """Check, record, acknowledge and broadcast one action (docs/PROTOCOL.md 4).

        The table's runner carries it out (gammon.server.runner), on the node that runs the
        table, and :meth:`_changed` does what follows. ``hold_bot``: a play the tutor
        judges, after which the bot waits while it may be taken back.
        """
        request = Request(
            action_json(action), side=side, actor_id=actor_id, entropy=entropy,
            expect_seq=expect_seq, hold_bot=hold_bot,
        )  # fmt: skip
        answer = None
        if conn is not None:
            answer = Acknowledgement(conn, message_id, received, self._observe_latency)
        return await live.runner.act(request, answer)

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
        self.broadcast_state(live)
        if applied is None:  # read again: taken over, stood down, or a commit failed
            if here:
                self._schedule(live)
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
                self.practice.hold(live)  # before the bot starts (_schedule)
            self._schedule(live)
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
                self._tell("status", live)
        if changed and table.status == "finished":
            if table.seats is not None:
                self._spawn(self._refresh_ratings(table))
            if here:
                self._tell("finished", live)
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

    # -- several nodes: taking a table over and standing down (gammon.server.cluster) -------

    async def adopt(self, table_id: int, run_here: Callable[[], None]) -> None:
        """This node runs the table now (it took the lease): rebuild it from its log, which
        has every action the last owner committed, and start its clock and bot."""
        live = self.tables.get(table_id)
        if live is not None:
            await live.runner.adopt(run_here)
            return
        table = await self.table_log.load(table_id, self.time.now())
        run_here()
        if table is None:
            return
        live = self.tables.get(table_id)  # a socket may have read it meanwhile
        if live is None:
            live = self.install(table)
        live.runner.replace(table, here=True)

    async def demote(self, live: LiveTable) -> None:
        """Another node runs the table now: stop its clock and bot here, keep it as a replica
        (as the database has it: an action here may not have been committed)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.bot_task is not None and live.bot_task is not asyncio.current_task():
            live.bot_task.cancel()
        await live.runner.restore()

    def state_for(self, live: LiveTable, viewer: int | None, lang: str = "en") -> dict[str, Any]:
        connected, spectators = self._watchers(live, {c: live.side(c) for c in live.conns})
        return live.view.state_json(
            viewer, at=self.time.now(), connected=connected, spectators=spectators, lang=lang
        )

    def _watchers(
        self, live: LiveTable, sides: dict[Connection, int | None]
    ) -> tuple[set[int], int]:
        """The users at the table on any node, and its spectators: the sockets here without
        a seat (``sides``: each socket's side), and (several nodes) the users at it through
        other nodes who neither play nor are here, and those there who have not signed in."""
        here = {c.user.id for c in sides if c.user is not None}
        elsewhere, anonymous = self.cluster.watching(live.table.id)
        spectators = sum(1 for side in sides.values() if side is None) + anonymous
        if elsewhere:
            seated = {seat.user_id for seat in live.table.seats or []}
            spectators += len(elsewhere - seated - here)
        return here | elsewhere, spectators

    def broadcast_state(self, live: LiveTable) -> None:
        """Send the state to everybody at the table: one text for each side, and spectators.

        A ``log_delta`` connection gets the events it has not had yet, a ``games_delta``
        one the finished games it has not had yet; connections that have had the same
        share one text too.
        """
        view = live.view
        at = self.time.now()
        sides = {conn: live.side(conn) for conn in live.conns}
        connected, spectators = self._watchers(live, sides)
        length = view.log_length()
        games = view.previous_games_count()
        cache: dict[tuple[int | None, int | None, int | None, str], str] = {}
        for conn, viewer in sides.items():
            log_from: int | None = None
            if "log_delta" in conn.features:
                sent = conn.log_sent
                log_from = sent[1] if sent is not None and sent[0] == length[0] else 0
                if log_from > length[1]:
                    log_from = 0  # the table was rebuilt after a failed commit
            games_from: int | None = None
            if "games_delta" in conn.features:
                had = conn.games_sent
                games_from = had if had is not None and had <= games else 0
            key = (viewer, log_from, games_from, conn.lang)
            text = cache.get(key)
            if text is None:
                text = cache[key] = view.state_text(
                    viewer,
                    at=at,
                    connected=connected,
                    spectators=spectators,
                    log_from=log_from,
                    games_from=games_from,
                    lang=conn.lang,
                )
            conn.send(text)
            conn.log_sent = length
            conn.games_sent = games

    # -- clocks and bots ---------------------------------------------------------------------

    def _schedule(self, live: LiveTable) -> None:
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
            live.timer = self.time.call_later(delay, lambda: self._spawn(self._on_timer(live)))
        if (
            table.bot_to_act()
            and self.bots is not None
            and (live.bot_task is None or live.bot_task.done())
        ):
            live.bot_task = self._spawn(self.bots.play(live, self.act))

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
        self._schedule(live)

    async def _expiry_loop(self) -> None:
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

    async def _forfeit_kicked(self, live: LiveTable, side: int, operator_id: int) -> None:
        """A player an operator removed from the table forfeits the match there (R13)."""
        with contextlib.suppress(Refused):
            await self.act(live, Forfeit(side), side=side, actor_id=operator_id)

    # -- sockets ---------------------------------------------------------------------------

    async def join_table(self, live: LiveTable, conn: Connection) -> None:
        """Send what a new table connection needs: hello, chat history, the state."""
        table_id = live.table.id
        if self.nodes.shared and table_id not in self.tables:
            # Its replica was dropped after the last socket left (a page reloaded): again.
            self.tables[table_id] = live
            await self.cluster.loaded(live)
        live.conns.add(conn)
        conn.table = live
        self.sockets.register(conn)
        conn.send(self.chat.hello(conn, table=live.table.id, side=live.side(conn)))
        conn.send({"type": "chat_history", "messages": list(await self.chat.history(live))})
        self.broadcast_state(live)
        self.cluster.present(live)
        self._spectators_changed(live)
        if conn.user is not None:
            self._tell("joined", live, conn.user.id)

    def leave_table(self, live: LiveTable, conn: Connection) -> None:
        if live.side(conn) is not None:
            live.seen = self.time.now()
        live.conns.discard(conn)
        self.sockets.unregister(conn)
        if not conn.closed:
            conn.close(1000)
        self.broadcast_state(live)
        self.cluster.present(live)
        self._spectators_changed(live)
        if not live.conns:
            self.cluster.unwatched(live)

    def _spectators_changed(self, live: LiveTable) -> None:
        """Someone came or went: the lobby entry's spectators follow (where the table runs)."""
        if self.nodes.shared and self.nodes.owns(table_key(live.table.id)):
            self.cluster.publish_entry(live)

    async def on_table_message(self, live: LiveTable, conn: Connection, raw: str | None) -> None:
        """One message from a table socket (``raw`` None: a binary frame, which is refused)."""
        received = time.monotonic()
        message_id: object = None
        try:
            if not conn.allow():
                answer_flood(conn, raw)
            conn.refusals = 0
            message = parse_message(text_frame(raw), TABLE_MESSAGES)
            message_id = message.id
            await self._table_message(live, conn, message, received)
        except Refused as exc:
            answer_refusal(conn, exc, message_id)
        except AlreadyAnswered:
            pass
        except Exception as exc:
            answer_fault(
                conn, self.faults, f"table {live.table.id}: a message", exc, message_id,
                table_id=live.table.id,
            )  # fmt: skip

    async def _table_message(
        self, live: LiveTable, conn: Connection, message: ClientMessage, received: float
    ) -> None:
        """One checked message from a table socket: what needs no one signed in (ping, chat,
        hello), then who sends it, then what it asks (docs/PROTOCOL.md 2.1, 4)."""
        kind = message.type
        if kind == "ping":
            conn.send(
                {"type": "pong", "id": message.id} if message.id is not None else {"type": "pong"}
            )
            return
        if kind in CHAT_MESSAGES:
            await self.chat.handle(conn, live, message)
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
            raise Refused(
                "not_signed_in", Message("sign in (or play as a guest) to act at a table")
            )
        table = live.table
        side = table.side_of(user.id)
        # Who sends it comes before the seq and the table's state (docs/PROTOCOL.md 2.1).
        if message.side is not None and side is not None and message.side != side:
            raise Refused(
                "forbidden",
                Message(
                    "you play side {side} and cannot act for side {other}",
                    side=side,
                    other=message.side,
                ),
            )
        if kind in _ACTING:
            await self._player_action(live, conn, user, side, message, received)
        elif kind == "join":
            await self._join(live, conn, user, message)
        elif kind == "cancel":
            await self._cancel(live, conn, user, message)
        elif kind == "hint":
            await self._hint(live, conn, side, message)
        elif kind == "tutor":
            on = bool(message.fields["on"])
            self.practice.set_tutor(table, user.id, on)
            reply = {"type": "ack", "tutor": on}
            if message.id is not None:
                reply["id"] = message.id
            conn.send(reply)
        elif kind == "keep":
            self.practice.release(table.id)
            conn.send({"type": "ack", **({"id": message.id} if message.id is not None else {})})

    async def _player_action(
        self,
        live: LiveTable,
        conn: Connection,
        user: UserInfo,
        side: int | None,
        message: ClientMessage,
        received: float,
    ) -> None:
        """A player's action at the table (the edge: the message becomes the action's
        value here), with practice's tutor around a play and its take-back."""
        table = live.table
        kind = message.type
        if table.viewer_side(user.id) is None:
            raise Refused(
                "not_a_player",
                Message("you are watching this table: only its players act here"),
            )
        action = action_from_json({"type": kind, **message.fields}, side)
        tutor = self.practice.before_play(live, side, user.id) if kind == "play" else None
        applied = await self.act(
            live,
            action,
            side=side,
            actor_id=user.id,
            entropy=message.entropy,
            conn=conn,
            message_id=message.id,
            expect_seq=message.seq,
            received=received,
            hold_bot=tutor is not None,
        )
        if kind == TAKE_BACK:
            self.practice.release(table.id)
        elif (
            tutor is not None
            and side is not None
            and isinstance(played := applied.action, PlayDice)
        ):
            # Nothing has been awaited since the play: the bot has not started yet.
            await self.practice.after_play(live, conn, side, tutor, applied.seq, str(played.play))

    async def _cancel(
        self, live: LiveTable, conn: Connection, user: UserInfo, message: ClientMessage
    ) -> None:
        if user.id != live.table.creator.user_id:
            raise Refused("forbidden", Message("only the table's creator can cancel it"))
        await self.act(
            live,
            Cancel(),
            side=None,
            actor_id=user.id,
            conn=conn,
            message_id=message.id,
            expect_seq=message.seq,
        )

    async def _join(
        self, live: LiveTable, conn: Connection, user: UserInfo, message: ClientMessage
    ) -> None:
        table = live.table
        table.check_seq(message.seq)
        table.check_join(user.id)
        if self.moderator.is_kicked(user.name, str(table.id)):
            raise Refused("forbidden", Message("an operator removed you from this table"))
        players = [table.creator, Seat(user.id, user.name)]
        if self.chance.randbelow(2):
            players.reverse()  # R13: seats are drawn at random
        await self.act(
            live,
            Start(tuple(players)),
            side=None,
            actor_id=user.id,
            conn=conn,
            message_id=message.id,
            expect_seq=message.seq,
        )

    async def _hint(
        self, live: LiveTable, conn: Connection, side: int | None, message: ClientMessage
    ) -> None:
        reply = await self.practice.hint(live.table, side, message.fields, conn.lang)
        if message.id is not None:
            reply["id"] = message.id
        conn.send(reply)

    # -- the lobby ---------------------------------------------------------------------------

    def lobby_entry(self, live: LiveTable) -> dict[str, Any] | None:
        """What the lobby needs of the table, viewer aside (None: it is not listed).

        With several nodes the node running the table writes this for every node
        (:meth:`Cluster.publish_entry`): ``summary`` is its entry in docs/PROTOCOL.md 1.3
        less ``ratings`` (each node has its own), which come from ``seats``.
        """
        table = live.table
        if table.status not in ("open", "playing"):
            return None
        _, spectators = self._watchers(live, {c: live.side(c) for c in live.conns})
        seats = table.seats if table.seats is not None else [table.creator, None]
        return {
            "summary": summary_json(table, spectators),
            "seats": [[seat.user_id, seat.bot] if seat is not None else None for seat in seats],
            "invite_id": table.invite_id,
            "creator_id": table.creator.user_id,
        }

    def _lobby_entries(self) -> list[dict[str, Any]]:
        """Every listed table's entry: this node's, and with several nodes the others'."""
        shared = self.cluster.lobby_entries()
        if shared is None:
            return [entry for live in self.tables.values() if (entry := self.lobby_entry(live))]
        mine = {table_id: self.lobby_entry(live) for table_id, live in self.tables.items()
                if self.nodes.owns(table_key(table_id))}  # fmt: skip
        entries = [entry for table_id, entry in shared.items() if table_id not in mine]
        return entries + [entry for entry in mine.values() if entry is not None]

    def lobby_json(self, viewer: UserInfo | None, view: LobbyView | None = None) -> dict[str, Any]:
        """One page of the lobby as ``viewer`` sees it (docs/PROTOCOL.md 7)."""
        return self.lobby_pages.page_json(viewer, view if view is not None else LobbyView())

    def lobby_changed(self) -> None:
        self.lobby_pages.changed()

    async def join_lobby(self, conn: Connection) -> None:
        self.lobby_pages.join(conn)
        self.sockets.register(conn)
        conn.send(self.chat.hello(conn))
        conn.send({"type": "chat_history", "messages": list(await self.chat.history(None))})
        self.lobby_pages.show(conn)

    def leave_lobby(self, conn: Connection) -> None:
        self.lobby_pages.leave(conn)
        self.sockets.unregister(conn)
        if not conn.closed:
            conn.close(1000)

    async def on_lobby_message(self, conn: Connection, raw: str | None) -> None:
        await self.on_chat_socket_message(conn, raw, None, "a lobby message")

    async def on_chat_socket_message(
        self,
        conn: Connection,
        raw: str | None,
        room: TournamentRoom | None,
        where: str,
    ) -> None:
        """One message on a chat socket, the lobby's (``room`` None) or a tournament's:
        chat, moderation and ping, with the flood, refusal and fault answers of every socket.
        A tournament's message from a socket not in its room is dropped."""
        message_id: object = None
        try:
            if not conn.allow():
                answer_flood(conn, raw)
            conn.refusals = 0
            allowed = LOBBY_MESSAGES if room is None else TOURNAMENT_MESSAGES
            message = parse_message(text_frame(raw), allowed)
            message_id = message.id
            if message.type == "ping":
                conn.send({"type": "pong"})
                return
            if message.type == "lobby_view":
                self.lobby_pages.choose(conn, message.fields, message.id)
                return
            if room is not None and conn not in room.conns:
                return
            await self.chat.handle(conn, room, message)
        except Refused as exc:
            answer_refusal(conn, exc, message_id)
        except AlreadyAnswered:
            pass
        except Exception as exc:
            answer_fault(conn, self.faults, where, exc, message_id)
