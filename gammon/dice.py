"""The dice: what a roll is (:data:`Dice`, :func:`validate_dice`, :data:`ALL_ROLLS`) and
where rolls come from (a :class:`DiceSource` hands a game one roll at a time).

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
from typing import Final, Protocol, runtime_checkable

from gammon.errors import IllegalActionError, InvalidDiceError

__all__ = ["ALL_ROLLS", "Dice", "DiceSource", "RandomDice", "ScriptedDice", "validate_dice"]

Dice = tuple[int, int]

#: The 21 distinct rolls, with how many of the 36 throws give each.
ALL_ROLLS: Final[tuple[tuple[Dice, int], ...]] = tuple(
    ((high, low), 1 if high == low else 2) for high in range(1, 7) for low in range(1, high + 1)
)


def validate_dice(dice: Iterable[int]) -> Dice:
    """Check a roll and return it as a tuple of two ints.

    >>> validate_dice([6, 4])
    (6, 4)
    >>> validate_dice((0, 3))
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidDiceError: each die must be a number from 1 to 6, got 0
    """
    try:
        values = tuple(dice)
    except TypeError:
        raise InvalidDiceError(f"dice must be a pair of numbers, got {dice!r}") from None
    if len(values) != 2:
        raise InvalidDiceError(f"a roll is two dice, got {len(values)}: {values!r}")
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise InvalidDiceError(f"each die must be a number from 1 to 6, got {value!r}")
    return values[0], values[1]


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
