"""The Redis side of several nodes: one connection pool, the channels, and Redis gone and back.

:class:`RedisChannels` is what :class:`~gammon.server.redis_nodes.RedisNodes` talks
through: publishing (several messages of the moment in one pipeline, :class:`Outbox`),
one subscription and the loop that hears it, the token buckets every node shares, and
what to say and do while Redis does not answer and once it does again. It knows nothing
of logs, leases or forwarding: a message on a channel nobody subscribed to by name goes
to the ``other`` callback the nodes give (their own channel, the logs' records).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Final

import orjson

from gammon.server.auth import TokenBuckets
from gammon.server.logs import first_line, safe_url
from gammon.server.nodes import ClusterError

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

__all__ = ["REDIS_PING_S", "Outbox", "RedisChannels"]

log = logging.getLogger("gammon.server")

#: Connections a node opens to Redis at most (its subscription holds one).
REDIS_CONNECTIONS: Final = 64
#: How long a Redis command waits for a free connection before it fails.
REDIS_WAIT_S: Final = 10.0
#: How long the listening loop waits before it asks a Redis that did not answer again.
REDIS_RETRY_S: Final = 0.5
#: How long a node waits for Redis's answer to a ping, after a connection failed.
REDIS_PING_S: Final = 2.0

#: A token bucket in Redis, by Redis's clock: ARGV capacity, tokens a second; returns the
#: seconds to wait as text (0: a token was taken).
_TAKE_TOKEN: Final = """
local capacity, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or ARGV[1])
local last = tonumber(redis.call('HGET', KEYS[1], 'at') or now)
tokens = math.min(capacity, tokens + math.max(0, now - last) * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
elseif rate > 0 then
  wait = (1 - tokens) / rate
else
  wait = -1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
if rate > 0 then
  redis.call('EXPIRE', KEYS[1], math.ceil(capacity / rate) + 1)
end
return tostring(wait)
"""


def _json(message: object) -> bytes:
    """A message between nodes as compact JSON (integer keys written as strings)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


class Outbox:
    """Messages to publish, sent together: every message asked for while the previous
    batch is on its way (or in one turn of the event loop) goes in one pipeline, one
    write and one reply, in the order asked. redis-py spends about 0.1 ms of CPU on a
    command sent alone and a quarter of that in a pipeline of eight: at a few hundred
    actions a second (one record each) the difference is a large part of a node's time.
    """

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._waiting: list[tuple[str, bytes, asyncio.Future[int]]] = []
        self._sending: asyncio.Task[None] | None = None

    def publish(self, channel: str, data: bytes) -> asyncio.Future[int]:
        """Queue ``data`` for ``channel``; the future gives how many subscribers heard it."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append((channel, data, future))
        if self._sending is None:
            self._sending = asyncio.ensure_future(self._send())
        return future

    async def drain(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until every message asked for is sent."""
        if self._sending is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._sending), timeout)

    async def _send(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                pipe = self.redis.pipeline(transaction=False)
                for channel, data, _ in batch:
                    pipe.publish(channel, data)
                try:
                    heard = await pipe.execute(raise_on_error=False)
                except Exception as exc:  # the connection: every message of the batch
                    heard = [exc] * len(batch)
                for (_, _, future), answer in zip(batch, heard, strict=True):
                    if future.done():  # its sender stopped waiting
                        continue
                    if isinstance(answer, BaseException):
                        future.set_exception(answer)
                    else:
                        future.set_result(int(answer))
        finally:
            self._sending = None


class RedisChannels:
    """One node's connection to Redis: the server's channels, published and heard, and the
    shared token buckets. Every channel's name starts with :attr:`prefix` (the database's
    name): the nodes of one server share them, and two servers on one Redis (Redis's
    channels ignore its database numbers) never hear each other."""

    def __init__(self, redis_url: str, prefix: str, node: str) -> None:
        from redis.asyncio import BlockingConnectionPool, Redis

        self.redis_url = redis_url
        self.prefix = prefix
        self.node = node
        # A burst of actions (each a shared rate limit and a record to publish) waits for
        # one of the node's connections: redis-py's plain pool refuses command 101.
        pool = BlockingConnectionPool.from_url(
            redis_url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT_S
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self.outbox = Outbox(self.redis)
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {}
        self._numbered: dict[str, Callable[[int, dict[str, Any]], None]] = {}
        #: The numbered channels this node listens to now (:meth:`listen`).
        self.listening: set[str] = set()
        self._pubsub: PubSub | None = None
        self._listener: asyncio.Task[None] | None = None
        self._take_token = self.redis.register_script(_TAKE_TOKEN)
        #: Why Redis does not answer, while it does not (said once in the log, and by /readyz).
        self.redis_problem: str | None = None
        #: The subscription lost its connection: once it hears Redis again, what was missed
        #: meanwhile is put right (:attr:`after_outage`).
        self._subscription_lost = False
        #: Called once the subscription hears Redis again after losing it (the lobby's
        #: entries are written and read again: Redis may have restarted empty).
        self.after_outage: list[Callable[[], Coroutine[Any, Any, None]]] = []
        self._other: Callable[[str, dict[str, Any]], bool] = lambda channel, data: False
        self._faults: Callable[[str, Exception], None] = _log_fault
        self._spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]] = asyncio.ensure_future

    # -- subscribing -------------------------------------------------------------------------

    def subscribe(self, channel: str, handler: Callable[[dict[str, Any]], None]) -> None:
        """Hear the other nodes' messages on ``channel`` (before :meth:`open`)."""
        self._handlers[channel] = handler

    def subscribe_numbered(
        self, prefix: str, handler: Callable[[int, dict[str, Any]], None]
    ) -> None:
        """Hear the other nodes' messages on the channels ``{prefix}{number}`` listened to."""
        self._numbered[prefix] = handler

    async def listen(self, channel: str) -> None:
        if channel not in self.listening:
            self.listening.add(channel)
            await self.hear(channel)

    async def unlisten(self, channel: str) -> None:
        if channel in self.listening:
            self.listening.discard(channel)
            await self.stop_hearing(channel)

    async def hear(self, channel: str) -> None:
        """Subscribe to one more channel now (before :meth:`open`, it is up to the caller to
        name it there)."""
        if self._pubsub is not None:
            await self._pubsub.subscribe(self.prefix + channel)

    async def stop_hearing(self, channel: str) -> None:
        if self._pubsub is not None:
            await self._pubsub.unsubscribe(self.prefix + channel)

    # -- publishing and the buckets ----------------------------------------------------------

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Publish on one of the server's channels (the name after :attr:`prefix`), with
        the other messages of the moment in one pipeline (:class:`Outbox`); how many
        nodes heard it."""
        return await self.outbox.publish(self.prefix + channel, _json(message))

    def publish_soon(self, channel: str, message: dict[str, Any]) -> None:
        self._spawn(self.publish(channel, message))

    async def take(self, buckets: TokenBuckets, key: str) -> float:
        """The token bucket shared by every node (in Redis, by Redis's clock)."""
        name = f"{self.prefix}limit:{buckets.name}:{key}"
        args = [buckets.capacity, buckets.per_second]
        wait = float(await self._take_token(keys=[name], args=args))
        return math.inf if wait < 0 else wait

    # -- open and close ----------------------------------------------------------------------

    async def open(
        self,
        channels: list[str],
        patterns: list[str],
        other: Callable[[str, dict[str, Any]], bool],
        faults: Callable[[str, Exception], None],
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
    ) -> None:
        """Subscribe (the named handlers' channels, those listened to, ``channels`` and the
        ``patterns``) and start hearing them; ``other`` takes a message no named handler
        did (True: it was its)."""
        self._other, self._faults, self._spawn = other, faults, spawn
        try:
            await self.redis.ping()
        except Exception as exc:
            raise ClusterError(
                f"cannot reach Redis at {safe_url(self.redis_url)}: {first_line(exc)}"
            ) from None
        self._pubsub = self.redis.pubsub()
        names = [*channels, *self._handlers, *self.listening]
        await self._pubsub.subscribe(*(self.prefix + name for name in names))
        if patterns:
            await self._pubsub.psubscribe(*(self.prefix + pattern for pattern in patterns))
        self._listener = asyncio.ensure_future(self._listen(self._pubsub))

    async def close(self) -> None:
        """Stop hearing; the last messages asked for go out before the connection closes."""
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
            self._listener = None
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.outbox.drain(5.0)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- hearing -----------------------------------------------------------------------------

    async def _listen(self, pubsub: PubSub) -> None:
        from redis.exceptions import ConnectionError, TimeoutError

        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                self._subscription_heard()
                if message is None:
                    continue
                channel = message["channel"].decode().removeprefix(self.prefix)
                self._on_message(channel, orjson.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except (ConnectionError, TimeoutError) as exc:
                self._subscription_lost = True
                await self.redis_error(exc)
                await asyncio.sleep(REDIS_RETRY_S)
            except Exception as exc:
                self._faults("a message from another node", exc)
                await asyncio.sleep(0.1)

    def _on_message(self, channel: str, data: dict[str, Any]) -> None:
        handler = self._handlers.get(channel)
        if handler is not None:
            if data.get("node") != self.node:
                handler(data)
            return
        if self._other(channel, data):
            return
        name, _, number = channel.partition(":")
        numbered = self._numbered.get(name + ":")
        if numbered is not None and number.isdigit() and data.get("node") != self.node:
            numbered(int(number), data)

    # -- Redis gone and back -----------------------------------------------------------------

    async def unreachable(self, timeout: float) -> str | None:
        """Why this node cannot reach the other nodes now (``/readyz``), None if it can."""
        where = safe_url(self.redis_url)
        try:
            await asyncio.wait_for(self.redis.ping(), timeout)
        except TimeoutError:
            return f"cannot reach the other nodes: Redis at {where} gave no answer in {timeout:g} s"
        except Exception as exc:
            return f"cannot reach the other nodes: Redis at {where}: {first_line(exc)}"
        return None

    async def failed(self, where: str, exc: Exception) -> None:
        """A loop's step failed: a Redis connection is :meth:`redis_error`'s, else a fault."""
        from redis.exceptions import ConnectionError, TimeoutError

        if isinstance(exc, ConnectionError | TimeoutError):
            await self.redis_error(exc)
        else:
            self._faults(where, exc)

    async def redis_error(self, exc: Exception) -> None:
        """A connection to Redis failed: if Redis does not answer now either, say once, in
        words, that it is gone and what that stops, until it is back. One that answers had
        only closed that connection (it restarted): the next command opens a new one."""
        if self.redis_problem is None and await self.unreachable(REDIS_PING_S) is None:
            log.info("a connection Redis had closed is replaced: %s", first_line(exc))
            return
        problem = first_line(exc)
        if self.redis_problem is None:
            log.error(
                "cannot reach Redis at %s (%s): this node cannot reach the other nodes "
                "(forwarded actions, tables' records, chat, the lobby) until it answers again; "
                "retrying",
                safe_url(self.redis_url),
                problem,
            )
        self.redis_problem = problem

    def _subscription_heard(self) -> None:
        """The subscription heard Redis: if it was lost, what was missed is put right (the
        subscription is up again, so nothing published from now on is missed)."""
        if self.redis_problem is not None:
            self.redis_problem = None
            log.warning("Redis at %s answers again", safe_url(self.redis_url))
        if self._subscription_lost:
            self._subscription_lost = False
            for after in self.after_outage:
                self._spawn(after())


def _log_fault(where: str, exc: Exception) -> None:
    """Before :meth:`RedisChannels.open` is given the server's fault log."""
    log.error("%s: %s", where, exc, exc_info=exc)
