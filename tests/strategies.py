"""Positions and dice for tests: hypothesis strategies and seeded random games.

Positions are reached by legal play from a variant's start (R2, R14), so every
position a test sees is one a real game can reach, in every variant, including
checkers on the bar, acey-deucey checkers still waiting to enter, and the
bear-off.  Plain-``random`` walkers serve the differential tests, which want
thousands of positions cheaply and reproducibly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from hypothesis import strategies as st

from gammon.position import Dice, Position
from gammon.variants import VARIANTS

__all__ = [
    "VARIANT_NAMES",
    "bearoff_positions",
    "dice",
    "pos",
    "positions",
    "random_bearoff_position",
    "random_game",
]

#: Every variant gammon knows (R14), by name.
VARIANT_NAMES: tuple[str, ...] = tuple(v.name for v in VARIANTS)


def pos(
    mine: Mapping[int, int],
    opp: Mapping[int, int] | None = None,
    *,
    checkers: int = 15,
    waiting: tuple[int, int] = (0, 0),
) -> Position:
    """A position with the opponent's checkers keyed by *the player on roll's* numbering.

    Hand-made cases read more easily this way: ``opp={9: 2}`` is "the opponent
    holds my 9-point" (their 16-point, R1).  Point 25 in ``mine`` is the bar;
    unlisted checkers are borne off.
    """
    theirs = {25 - point: count for point, count in (opp or {}).items()}
    return Position.from_points(mine, theirs, checkers=checkers, waiting=waiting)


def dice() -> st.SearchStrategy[Dice]:
    """Any of the 36 throws, as (first die, second die)."""
    return st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(
    draw: st.DrawFn, variants: Sequence[str] = VARIANT_NAMES, max_turns: int = 250
) -> Position:
    """A position reached by random legal play from the start of one of ``variants``.

    The game stops early when a play would end it, so the position is always
    one with a player on roll.  Each turn draws its roll and its play from
    hypothesis, which lets failures shrink to short games.
    """
    position = Position.initial(draw(st.sampled_from(tuple(variants))))
    for _ in range(draw(st.integers(0, max_turns))):
        plays = position.plays(draw(dice()))
        after = plays[draw(st.integers(0, len(plays) - 1))].position
        if after.winner() is not None:
            break
        position = after.swapped()
    return position


def random_game(variant: str, rng: random.Random) -> Iterator[tuple[Position, Dice]]:
    """Every (position, roll) of one game of random legal play, until someone wins."""
    position = Position.initial(variant)
    while True:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        yield position, roll
        after = rng.choice(position.plays(roll)).position
        if after.winner() is not None:
            return
        position = after.swapped()


def random_bearoff_position(rng: random.Random, checkers: int = 15) -> Position:
    """A bear-off for the player on roll (R8), sometimes still in contact.

    The player on roll has every checker home or borne off, or sometimes one on
    the bar (hit during the bear-off) or just outside; the opponent is either
    racing home or keeps checkers back in the player's home board, and may have
    one on the bar.
    """
    mine = [0] * 25
    for _ in range(rng.randint(1, checkers)):
        mine[rng.randrange(6)] += 1
    straggler = rng.random()
    if straggler < 0.15 and sum(mine) < checkers:
        mine[24] += 1
    elif straggler < 0.3 and sum(mine) < checkers:
        mine[rng.randrange(6, 12)] += 1
    theirs = [0] * 25
    contact = rng.random() < 0.4
    for _ in range(rng.randint(1, checkers)):
        if contact and rng.random() < 0.3:
            # The opponent's 19- to 24-point is the player on roll's 1- to 6-point.
            index = rng.randrange(18, 24)
        else:
            index = rng.randrange(12 if contact else 6)
        if not mine[23 - index]:
            theirs[index] += 1
    if rng.random() < 0.1 and sum(theirs) < checkers:
        theirs[24] += 1
    return Position(mine, theirs, checkers=checkers)


@st.composite
def bearoff_positions(draw: st.DrawFn) -> Position:
    """:func:`random_bearoff_position` under hypothesis (15 or 3 checkers)."""
    checkers = draw(st.sampled_from((15, 3)))
    return random_bearoff_position(draw(st.randoms(use_true_random=False)), checkers)
