"""The server's WebSockets: each client connection, its send queue and its rate limit.

A :class:`Connection` wraps one socket: messages to the client are written at
once when the socket can take them, else go through its queue (a client that
falls too far behind is closed, 1013), messages from it
are counted against a token bucket (:meth:`Connection.allow`; a flood is
refused ``rate_limited`` and, kept up, closed with 1008). :class:`LiveTable` is
a table in memory with the connections watching it. The functions at the end
answer a message that cannot be carried out: a refusal, a flood, or a fault of
the server's own, logged one line at a time by :class:`FaultLog`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Protocol

from gammon.messages import Message
from gammon.server.auth import UserInfo
from gammon.server.db import now
from gammon.server.protocol import dumps
from gammon.server.table import Applied, Table
from gammon.server.timesource import SystemTime, Timer, TimeSource
from gammon.server.views import TableView

if TYPE_CHECKING:
    from gammon.server.runner import Runner

__all__ = [
    "BURST",
    "MAX_QUEUED",
    "MAX_REFUSALS",
    "RATE",
    "Connection",
    "DirectSocket",
    "FaultLog",
    "LiveTable",
    "Socket",
    "Sockets",
]

log = logging.getLogger("gammon.server")

#: Messages a connection may have waiting to be sent before it counts as too slow.
MAX_QUEUED: Final = 256
#: Per connection: this many messages at once, refilled at this rate (docs/PROTOCOL.md 2).
BURST: Final = 40
RATE: Final = 20.0
#: Refusals for flooding in a row that close the connection (1008).
MAX_REFUSALS: Final = 200
#: At most one line in the log per this many seconds about unexpected faults.
FAULT_LOG_INTERVAL_S: Final = 60.0


#: The most a WebSocket close frame's reason holds: 123 bytes of UTF-8 (RFC 6455, 5.5).
MAX_CLOSE_REASON_BYTES: Final = 123


def close_reason(reason: str | Message, lang: str) -> str:
    """``reason`` in ``lang``, cut to what a close frame carries (whole characters)."""
    text = reason.translated(lang) if isinstance(reason, Message) else reason
    data = text.encode()
    if len(data) <= MAX_CLOSE_REASON_BYTES:
        return text
    return data[:MAX_CLOSE_REASON_BYTES].decode(errors="ignore")


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

    def report(self, where: str, exc: BaseException, **context: object) -> None:
        """Count a fault; log it (with ``context``: ``table_id``, ``user``) unless rate-limited."""
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
            extra=context,
        )
        self._last = at
        self._unreported = 0


class Socket(Protocol):
    """What the hub needs of a WebSocket (Starlette's, in the app)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class DirectSocket(Protocol):
    """What a socket offers besides ASGI (:class:`gammon.server.wsprotocol.WebSocketProtocol`)."""

    def send_now(self, text: str) -> bool:
        """Send ``text`` at once; False (nothing sent) when it must wait in the queue."""
        ...

    def hold(self) -> None: ...

    def release(self) -> None: ...


class _Held:
    """:meth:`Connection.together`'s block: a plain context manager, as it is entered on
    every action (contextlib's generator-based one costs several times more)."""

    __slots__ = ("direct",)

    def __init__(self, direct: DirectSocket) -> None:
        self.direct = direct

    def __enter__(self) -> None:
        self.direct.hold()

    def __exit__(self, *exc: object) -> None:
        self.direct.release()


_NOT_HELD: Final = contextlib.nullcontext()


class Connection:
    """One client WebSocket: its user (fixed at the handshake), its send queue, its rate limit."""

    def __init__(
        self,
        socket: Socket,
        user: UserInfo | None,
        session_hash: str | None = None,
        direct: DirectSocket | None = None,
        time: TimeSource | None = None,
        lang: str = "en",
    ) -> None:
        self.socket = socket
        #: The language its player reads (gammon.server.pages.spoken, at the upgrade): the
        #: refusals' messages and the game log's words are written in it.
        self.lang = lang
        #: The clock its rate limit refills by (gammon.server.timesource).
        self.time: TimeSource = time if time is not None else SystemTime()
        self.user = user
        self.session_hash = session_hash
        #: Writes a message at once, or says it cannot (gammon.server.wsprotocol.DIRECT):
        #: most messages then cost no queue and no step of the writer task.
        self.direct = direct
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        #: Messages in the queue or being sent by the writer task: while there are any,
        #: a new message queues behind them (messages go out in order).
        self.queued = 0
        self.rate = RATE
        self.burst = float(BURST)
        self.tokens = self.burst
        self.refilled = self.time.monotonic()
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
        #: Finished games in the last state sent: what a ``games_delta`` client has.
        self.games_sent: int | None = None

    def limit(self, rate: float) -> None:
        """Allow ``rate`` messages a second on average, in bursts of twice that."""
        self.rate = rate
        self.burst = self.tokens = 2.0 * rate

    def allow(self) -> bool:
        """Take a token for one incoming message, or say it must be refused (flood)."""
        at = self.time.monotonic()
        self.tokens = min(self.burst, self.tokens + (at - self.refilled) * self.rate)
        self.refilled = at
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        text = message if isinstance(message, str) else dumps(message)
        if not self.queued and self.direct is not None and self.direct.send_now(text):
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.close(1013, "too slow: reconnect")
            return
        self.queued += 1
        self.queue.put_nowait(text)

    def together(self) -> contextlib.AbstractContextManager[None]:
        """Messages sent inside go out in one socket write (their frames unchanged); the
        block must not await."""
        return _NOT_HELD if self.direct is None else _Held(self.direct)

    def close(self, code: int, reason: str | Message = "") -> None:
        """Close after what is queued; a :class:`Message` reason in this socket's language
        (the browser shows the reason of a close for good to the player)."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.close_reason = close_reason(reason, self.lang)
        self.queue.put_nowait(None)

    async def write_loop(self) -> None:
        """Send queued messages in order; close the socket when asked."""
        try:
            while True:
                item = await self.queue.get()
                if item is None:
                    break
                await self.socket.send_text(item)
                self.queued -= 1
        except Exception:  # the peer went away
            self.closed = True
            return
        with contextlib.suppress(Exception):
            await self.socket.close(self.close_code, self.close_reason)


class Sockets:
    """Every open connection of one server (anonymous ones too), and each user's."""

    def __init__(self, rate: float = RATE) -> None:
        #: Messages a second each connection may send on average (bursts of twice that).
        self.rate = rate
        self.all: set[Connection] = set()
        self.by_user: dict[int, set[Connection]] = collections.defaultdict(set)

    def register(self, conn: Connection) -> None:
        conn.limit(self.rate)
        self.all.add(conn)
        if conn.user is not None:
            self.by_user[conn.user.id].add(conn)

    def unregister(self, conn: Connection) -> None:
        self.all.discard(conn)
        if conn.user is not None:
            conns = self.by_user.get(conn.user.id)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    self.by_user.pop(conn.user.id, None)

    def close_user(
        self, user_id: int, code: int, reason: str | Message, *, session_hash: str | None = None
    ) -> None:
        """Close a user's sockets (all, or one session's): sign-out, kick, ban."""
        for conn in list(self.by_user.get(user_id, ())):
            if session_hash is None or conn.session_hash == session_hash:
                conn.close(code, reason)

    async def close_all(
        self, code: int, reason: str | Message, *, timeout: float | None = None
    ) -> None:
        """Close every socket; with ``timeout``, wait that long for the closes to go out."""
        writers = []
        for conn in list(self.all):
            conn.close(code, reason)
            if conn.writer is not None:
                writers.append(conn.writer)
        if writers and timeout is not None:
            await asyncio.wait(writers, timeout=timeout)


@dataclass(eq=False)
class LiveTable:
    """A table in memory: its runner (the table's state, its lock, acting and following:
    gammon.server.runner), its sockets, its timer and bot."""

    runner: Runner[Table, Applied]
    conns: set[Connection] = field(default_factory=set)
    timer: Timer | None = None
    bot_task: asyncio.Task[None] | None = None
    chat: collections.deque[dict[str, Any]] | None = None
    #: When one of the table's players was last connected to it (or the table came into
    #: memory): with its last action, what says a table against the bot was left.
    seen: float = field(default_factory=now)
    _view: TableView | None = None

    @property
    def table(self) -> Table:
        """The table as it stands (a reload puts a new one in its runner)."""
        return self.runner.state

    @property
    def lock(self) -> asyncio.Lock:
        """One action at a time (the bot holds it while it reads the game)."""
        return self.runner.lock

    @property
    def view(self) -> TableView:
        """What the clients see of the table (a new table after a reload gets a new view)."""
        table = self.runner.state
        view = self._view
        if view is None or view.table is not table:
            view = self._view = TableView(table)
        return view

    def side(self, conn: Connection) -> int | None:
        """The side ``conn``'s user sees the table from (None: a spectator)."""
        return self.runner.state.viewer_side(conn.user.id) if conn.user is not None else None


@dataclass
class Acknowledgement:
    """A socket waiting for its action's ``ack`` (docs/PROTOCOL.md 2): the runner's
    :class:`~gammon.server.runner.Answer` for a table's socket."""

    conn: Connection
    message_id: object = None
    #: When the action was read (``time.monotonic``), and who hears how long it took
    #: until its state was queued for every socket (``/metrics``).
    received: float | None = None
    observe: Callable[[float], None] | None = None

    def acknowledge(self, seq: int) -> None:
        ack: dict[str, Any] = {"type": "ack", "seq": seq}
        if self.message_id is not None:
            ack["id"] = self.message_id
        self.conn.send(ack)

    def together(self) -> contextlib.AbstractContextManager[None]:
        """The ack and the actor's state: one socket write (as :meth:`Connection.together`),
        then how long it took heard. The acknowledgement is its own block: it is entered on
        every action, and one object is cheaper than two."""
        return self

    def __enter__(self) -> None:
        direct = self.conn.direct
        if direct is not None:
            direct.hold()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        direct = self.conn.direct
        if direct is not None:
            direct.release()
        if kind is None and self.received is not None and self.observe is not None:
            self.observe(time.monotonic() - self.received)
