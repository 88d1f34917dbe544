"""The suite's one place that waits by polling: for a state another process or thread owns.

A test waits for an event where it can (a message read, a future, a process's exit). Where
no event can be awaited, because the state lives in another process (a server's database
row, a Redis key, a file it writes), the test polls for it here, as CPython's
``test.support.sleeping_retry`` does: the condition is checked again every ``interval``
until it holds. The timeout is only a guard against a hang, generous so that a loaded
machine never fails a test that would have passed; when it runs out the AssertionError
names what was awaited and the last value seen.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

__all__ = ["TIMEOUT", "poll", "until", "wait_until"]

T = TypeVar("T")

#: How long a wait may take before the test calls it a hang (CPython's SHORT_TIMEOUT is 30 s;
#: this suite's servers share two cores with the tests, so twice that).
TIMEOUT = 60.0


def wait_until(
    condition: Callable[[], T],
    *,
    timeout: float = TIMEOUT,
    interval: float = 0.05,
    what: str = "the condition",
) -> T:
    """Call ``condition`` until it returns something true, and return that.

    Raises AssertionError, naming ``what`` and the last value, if ``timeout`` seconds pass.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}: last {value!r}")
        time.sleep(interval)


async def until(
    condition: Callable[[], T | Awaitable[T]],
    *,
    timeout: float = TIMEOUT,
    interval: float = 0.05,
    what: str = "the condition",
) -> T:
    """:func:`wait_until` on the event loop: ``condition`` may be a coroutine function.

    The loop runs other tasks between the checks (the wait is an ``asyncio.sleep``).
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}: last {value!r}")
        await asyncio.sleep(interval)


def poll(
    condition: Callable[[], object], *, timeout: float = TIMEOUT, interval: float = 0.05
) -> bool:
    """Whether ``condition()`` became true within ``timeout`` seconds, for a caller with
    something better to do than fail (the test client asks a stuck server for its stacks)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)
    return True
