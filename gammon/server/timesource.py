"""Where the server's time comes from: the system's clock, or a clock a test moves by hand.

Everything the rules of the site measure in time reads it here: the game clocks and
the opening's deadline (R13), the rate limits (docs/PROTOCOL.md 2), the expiry of
forgotten tables and of sessions, the tutor's hold on the bot and the tournaments'
schedules. A server started with ``--manual-time`` runs on a :class:`ManualTime` that
stands still until a test moves it (``POST /api/test/time``), so a test of "after two
seconds" or "twenty messages a second" is exact on a loaded machine and never sleeps
(the model is Twisted's ``task.Clock``).

What measures the machine, not the game, keeps the system's clock: latency metrics,
the debounce of lobby pushes, the leases and heartbeats between nodes.

>>> clock = ManualTime(start=100.0)
>>> fired = []
>>> _ = clock.call_later(2.0, lambda: fired.append(clock.now()))
>>> clock.advance(1.5); fired
[]
>>> clock.advance(0.5); fired, clock.now()
([102.0], 102.0)
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

__all__ = ["ManualTime", "SystemTime", "TimeSource", "Timer"]

T = TypeVar("T")


class Timer(Protocol):
    """A callback waiting for its time; :meth:`cancel` means it never runs."""

    def cancel(self) -> None: ...


class TimeSource(Protocol):
    """The clock of a server: what time it is, and callbacks at a later time."""

    def now(self) -> float:
        """Seconds since the epoch: the times stored and shown."""
        ...

    def monotonic(self) -> float:
        """Seconds that never go back: for rates and intervals."""
        ...

    def call_later(self, delay: float, callback: Callable[[], object]) -> Timer:
        """Run ``callback`` (in the event loop) ``delay`` seconds from now."""
        ...

    async def sleep(self, delay: float) -> None:
        """Return ``delay`` seconds from now."""
        ...

    async def wait_for(self, awaitable: Awaitable[T], timeout: float) -> T:
        """``awaitable``'s result, or TimeoutError once ``timeout`` seconds have passed."""
        ...


class SystemTime:
    """The system's clocks and the event loop's timers: what a real server runs on."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], object]) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback)

    async def sleep(self, delay: float) -> None:
        await asyncio.sleep(delay)

    async def wait_for(self, awaitable: Awaitable[T], timeout: float) -> T:
        return await asyncio.wait_for(awaitable, timeout)


class _ManualTimer:
    __slots__ = ("callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[[], object]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualTime:
    """A clock that stands still until :meth:`advance` moves it, firing what falls due.

    Callbacks run in the order of their times (ties in the order they were set), each
    with the clock at its own time, as if that much time had really passed.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = float(start)
        self._start = float(start)
        self._timers: list[tuple[float, int, _ManualTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._now - self._start

    def call_later(self, delay: float, callback: Callable[[], object]) -> Timer:
        timer = _ManualTimer(self._now + max(0.0, delay), callback)
        heapq.heappush(self._timers, (timer.when, next(self._order), timer))
        return timer

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, running every callback due by then."""
        if not seconds >= 0:
            raise ValueError(f"time only moves forward: cannot advance by {seconds!r} s")
        until = self._now + seconds
        while self._timers and self._timers[0][0] <= until:
            when, _, timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._now = max(self._now, when)
            timer.callback()
        self._now = until

    async def sleep(self, delay: float) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not done.done():
                done.set_result(None)

        timer = self.call_later(delay, wake)
        try:
            await done
        finally:
            timer.cancel()

    async def wait_for(self, awaitable: Awaitable[T], timeout: float) -> T:
        task: asyncio.Future[T] = asyncio.ensure_future(awaitable)
        timer = self.call_later(timeout, task.cancel)
        try:
            return await task
        except asyncio.CancelledError:
            if task.cancelled() and _current_not_cancelling():
                raise TimeoutError(f"not done within {timeout} s of the manual clock") from None
            raise
        finally:
            timer.cancel()


def _current_not_cancelling() -> bool:
    """Whether the waiting task itself is not being cancelled (only the awaited one was)."""
    current: Any = asyncio.current_task()
    return current is None or not current.cancelling()
