"""Where the server's chance comes from: the system's secure source, or a seeded one for tests.

Every draw the server makes goes through a :class:`Chance`: each game's secret dice seed
(DICE.md), who sits first against the bot, the lot between two bots in a tournament and a
tournament's draw. A real server uses :class:`SystemChance` (``secrets``: unpredictable,
which is what makes the dice fair). ``gammon serve --dice-seed N`` uses :class:`SeededChance`,
so a test's games are the same on every run: predictable by anyone who knows N, so never
for a site people play on.

>>> a, b = SeededChance(7), SeededChance(7)
>>> a.token_bytes(4) == b.token_bytes(4), a.randbelow(2) == b.randbelow(2)
(True, True)
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol

__all__ = ["Chance", "SeededChance", "SystemChance"]


class Chance(Protocol):
    """Random bytes and numbers for the server's draws."""

    def token_bytes(self, count: int) -> bytes: ...

    def randbelow(self, bound: int) -> int: ...


class SystemChance:
    """The operating system's secure source (``secrets``): what a real server runs on."""

    def token_bytes(self, count: int) -> bytes:
        return secrets.token_bytes(count)

    def randbelow(self, bound: int) -> int:
        return secrets.randbelow(bound)


class SeededChance:
    """A generator seeded by ``seed``: the same draws in the same order on every run."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def token_bytes(self, count: int) -> bytes:
        return self._random.randbytes(count)

    def randbelow(self, bound: int) -> int:
        return self._random.randrange(bound)
