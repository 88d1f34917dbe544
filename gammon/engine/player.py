"""Who chooses the plays: the :class:`Player` protocol and the random baseline.

Anything with a ``name`` and a ``choose_play`` method is a player, so the
engine's bots, pubeval and (later) a person at the server all fit the same
game loop (:mod:`gammon.engine.selfplay`).

>>> from gammon.position import Position
>>> start = Position.initial()
>>> play = RandomPlayer(seed=7).choose_play(start, (3, 1))
>>> play in start.plays((3, 1))
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from gammon.play import Play
from gammon.position import Dice, Position

__all__ = ["Player", "RandomPlayer"]


@runtime_checkable
class Player(Protocol):
    """Chooses one play for a roll; must return an element of ``position.plays(dice)``.

    ``position`` is seen from the player choosing (the player on roll), as
    every :class:`~gammon.position.Position` is.  When no move is possible the
    only legal play is the pass (R5, R7), which a player must return too.
    """

    @property
    def name(self) -> str:
        """A short label for tables and logs ("pubeval", "random", ...)."""
        ...

    def choose_play(self, position: Position, dice: Dice) -> Play:
        """The play this player makes with ``dice`` in ``position``."""
        ...


class RandomPlayer:
    """Picks uniformly among the distinct legal plays: the weakest possible opponent.

    Useful as the floor of any strength scale and as a gentle first opponent.
    ``seed`` makes its choices repeatable.
    """

    name: str

    def __init__(self, seed: int | None = None, *, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose_play(self, position: Position, dice: Dice) -> Play:
        return self._rng.choice(position.plays(dice))

    def __repr__(self) -> str:
        return f"RandomPlayer(name={self.name!r})"
