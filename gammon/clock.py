"""The game clock (R13): each side's reserve for the whole series, a delay, an increment.

A :class:`Clock` is an immutable value, as scalachess's Clock is: every change
returns a new clock, and the time is always passed in as a number of seconds
(from whatever source of time the caller has: a server's injected clock, a
test's counter), never read here, so a clock's behaviour is a function of the
times it is given.

The side that must act has its clock running; nothing is charged for the first
``delay_s`` seconds of its turn (a simple delay), then its reserve runs down.
:meth:`Clock.press` ends the running side's turn: it pays what it used, earns
its ``increment_s`` if the caller says the action earns it, and the clock of the
side to act next starts. A side whose reserve is used up has lost on time
(:meth:`Clock.flagged`); the rules library's action for that is
:class:`~gammon.actions.OutOfTime`.

>>> clock = Clock.start(base_s=60, delay_s=2)
>>> clock = clock.press(100.0, to=0)             # side 0's turn starts at t = 100 s
>>> clock.remaining(101.5)                       # still in its delay: nothing charged
(60000.0, 60000.0)
>>> clock.remaining(112.0)
(50000.0, 60000.0)
>>> clock = clock.press(112.0, to=1)             # side 0 acts: 10 s paid, side 1 to act
>>> clock.reserves, clock.running
((50000.0, 60000.0), 1)
>>> clock.deadline(), clock.flagged(173.9), clock.flagged(174.0)
(174.0, None, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from gammon.errors import InvalidClockError

__all__ = ["Clock"]

#: The most seconds of reserve, delay or increment a clock takes (a year: far past any game).
_MAX_SECONDS = 366 * 24 * 3600


def _seconds(name: str, value: object) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not 0 <= value <= _MAX_SECONDS
    ):
        raise InvalidClockError(
            f"the clock's {name} must be a number of seconds from 0 to {_MAX_SECONDS}, "
            f"got {value!r}"
        )
    return float(value)


@dataclass(frozen=True, slots=True)
class Clock:
    """Both sides' reserves (milliseconds), whose clock runs, and since when.

    ``since`` is when the running side's turn began (seconds, on the caller's time);
    the reserves are what each side had then, before the turn's charge.
    """

    delay_s: float
    increment_s: float
    reserves: tuple[float, float]
    running: int | None = None
    since: float = 0.0

    @classmethod
    def start(cls, base_s: float, delay_s: float = 0, increment_s: float = 0) -> Clock:
        """A clock with ``base_s`` seconds for each side and nobody's clock running yet.

        >>> Clock.start(base_s=-1)
        Traceback (most recent call last):
        ...
        gammon.errors.InvalidClockError: the clock's reserve must be a number of seconds \
from 0 to 31622400, got -1
        """
        base = _seconds("reserve", base_s)
        return cls(
            _seconds("delay", delay_s),
            _seconds("increment", increment_s),
            (base * 1000.0, base * 1000.0),
        )

    def used_ms(self, now: float) -> float:
        """What the running side has been charged so far this turn (its delay is free)."""
        if self.running is None:
            return 0.0
        return max(0.0, (now - self.since) * 1000.0 - self.delay_s * 1000.0)

    def remaining(self, now: float) -> tuple[float, float]:
        """Each side's reserve at ``now`` (milliseconds), the running side's charged so far."""
        reserves = self.reserves
        side = self.running
        if side is None:
            return reserves
        left = max(0.0, reserves[side] - self.used_ms(now))
        return (left, reserves[1]) if side == 0 else (reserves[0], left)

    def deadline(self) -> float | None:
        """When the running side runs out of time (on the caller's time); None if none runs."""
        if self.running is None:
            return None
        return self.since + self.delay_s + self.reserves[self.running] / 1000.0

    def flagged(self, now: float) -> int | None:
        """The side that has run out of time by ``now``, if one has."""
        deadline = self.deadline()
        return self.running if deadline is not None and deadline <= now else None

    def press(self, now: float, *, to: int | None, earned: bool = False) -> Clock:
        """End the running side's turn at ``now`` and run ``to``'s clock (None: nobody's).

        The running side pays what it used (never below zero) and, when ``earned``,
        gets its increment; with no clock running, only the time of the next turn's
        start is set.
        """
        if to not in (0, 1, None):
            raise InvalidClockError(f"a clock runs for side 0 or 1, or for nobody, not {to!r}")
        reserves = self.reserves
        side = self.running
        if side is not None:
            left = max(0.0, reserves[side] - self.used_ms(now))
            if earned:
                left += self.increment_s * 1000.0
            reserves = (left, reserves[1]) if side == 0 else (reserves[0], left)
        return Clock(self.delay_s, self.increment_s, reserves, to, now)

    def with_reserves(self, reserves: tuple[float, float]) -> Clock:
        """The same clock with these reserves (milliseconds): as a record kept them."""
        return replace(self, reserves=(float(reserves[0]), float(reserves[1])))

    def resumed(self, now: float) -> Clock:
        """The running side's turn begins again at ``now``: the time between is not charged
        (a server that was down charges nobody for it)."""
        return replace(self, since=now)
