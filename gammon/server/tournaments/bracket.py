"""Knockout brackets: their size, the draw by lot with byes, the rounds' names.

A field of ``n`` players plays in a bracket of ``size`` slots, the smallest power of two
that holds them; the ``size - n`` empty slots are byes. The draw is by lot (R13: who
sits where is decided by lot): the players are shuffled and take the seed numbers 1 to
``n`` in that order, the byes take ``n + 1`` to ``size``, and the seeds are laid out in the
usual bracket order (1 meets ``size``, 2 meets ``size - 1``...). That order sends every
bye against a player (never two byes in one match) and spreads the byes evenly over
the bracket, so byes never meet again in the second round while other players wait.

>>> seed_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> import random
>>> draw(["ann", "bob", "cy", "dee", "eve"], random.Random(1))
['cy', None, 'ann', 'bob', 'dee', None, 'eve', None]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["bracket_size", "draw", "round_count", "round_name", "seed_order"]

T = TypeVar("T")


def bracket_size(players: int) -> int:
    """The number of slots for ``players`` players: the smallest power of two that holds them.

    >>> [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 16, 17)]
    [2, 4, 4, 8, 8, 16, 16, 32]
    """
    if players < 2:
        raise ValueError(f"a knockout needs at least 2 players, not {players}")
    size = 2
    while size < players:
        size *= 2
    return size


def round_count(size: int) -> int:
    """How many rounds a bracket of ``size`` slots plays (``size`` a power of two)."""
    return size.bit_length() - 1


def seed_order(size: int) -> list[int]:
    """The seeds 1..``size`` in bracket order: slots ``2k`` and ``2k + 1`` meet in round 1.

    Built by doubling: each seed ``s`` of the bracket of half the size is followed by
    its opponent ``size + 1 - s``, so the two best seeds can meet only in the final.

    >>> seed_order(2), seed_order(4)
    ([1, 2], [1, 4, 2, 3])
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two slots (2, 4, 8...), not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def draw(players: Sequence[T], rng: random.Random) -> list[T | None]:
    """The first round's slots, drawn by lot: ``None`` is a bye.

    Every match has at least one player, and a player facing ``None`` goes through.
    """
    size = bracket_size(len(players))
    shuffled = list(players)
    rng.shuffle(shuffled)
    return [shuffled[seed - 1] if seed <= len(shuffled) else None for seed in seed_order(size)]


def round_name(round_number: int, rounds: int) -> str:
    """A round's name in players' words (``round_number`` from 1).

    >>> [round_name(r, 4) for r in (1, 2, 3, 4)]
    ['round of 16', 'quarter-finals', 'semi-finals', 'final']
    """
    left = rounds - round_number
    if left == 0:
        return "final"
    if left == 1:
        return "semi-finals"
    if left == 2:
        return "quarter-finals"
    return f"round of {2 ** (left + 1)}"
