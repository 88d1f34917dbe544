"""Where the dice come from: a :class:`DiceSource` hands a game one roll at a time.

A game never rolls dice itself; it asks its source, so the same game code plays
with random dice (:class:`RandomDice`), replays a recorded game
(:class:`ScriptedDice`) or, on the server, uses provably fair dice (R13).

>>> dice = RandomDice(seed=7)
>>> dice.roll() == RandomDice(seed=7).roll()
True
>>> scripted = ScriptedDice([(3, 1), (6, 6)])
>>> scripted.roll(), scripted.roll(), scripted.remaining
((3, 1), (6, 6), 0)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from gammon.errors import IllegalActionError
from gammon.position import Dice, validate_dice

__all__ = ["DiceSource", "RandomDice", "ScriptedDice"]


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can throw two dice.

    For the opening roll (R3) a game reads one throw as (die of side 0, die of
    side 1).
    """

    def roll(self) -> Dice:
        """Two numbers from 1 to 6."""
        ...


class RandomDice:
    """Pseudo-random dice from :class:`random.Random`; the same seed gives the same rolls."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | str | bytes | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self) -> Dice:
        randint = self._random.randint
        return randint(1, 6), randint(1, 6)

    def __repr__(self) -> str:
        return f"RandomDice(seed={self.seed!r})"


class ScriptedDice:
    """Plays back given rolls in order, to replay a recorded game or set up a test.

    >>> dice = ScriptedDice([(5, 2)])
    >>> dice.roll()
    (5, 2)
    >>> dice.roll()
    Traceback (most recent call last):
    ...
    gammon.errors.IllegalActionError: the scripted dice have no rolls left (all 1 were used)
    """

    __slots__ = ("_index", "_rolls")

    def __init__(self, rolls: Iterable[Iterable[int]]) -> None:
        self._rolls: tuple[Dice, ...] = tuple(validate_dice(roll) for roll in rolls)
        self._index = 0

    @property
    def rolls(self) -> tuple[Dice, ...]:
        """Every scripted roll, used or not."""
        return self._rolls

    @property
    def remaining(self) -> int:
        """How many rolls are left."""
        return len(self._rolls) - self._index

    def roll(self) -> Dice:
        if self._index >= len(self._rolls):
            raise IllegalActionError(
                f"the scripted dice have no rolls left (all {len(self._rolls)} were used)"
            )
        dice = self._rolls[self._index]
        self._index += 1
        return dice

    def __repr__(self) -> str:
        return f"ScriptedDice({list(self._rolls)!r}, remaining={self.remaining})"
