"""What a teacher reads off a board: blots and the rolls that hit them, points made, the
longest prime, anchors, back checkers, the tallest stack, the race (:class:`Shape`).

>>> from gammon.position import Position
>>> before = Position.from_points({13: 1, 6: 3, 5: 2}, {24: 2}, checkers=6)
>>> sorted(shape_of(before, mover_on_roll=True).made)
[5, 6]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gammon.position import Position

__all__ = ["TALL", "Shape", "shape_of"]

#: A stack this tall or taller is worth a sentence (and counts as stacking).
TALL: Final = 5


@dataclass(frozen=True)
class Shape:
    """What a teacher reads off a board, for the player whose checkers are ``mine``.

    Points are numbered from that player's side (1-24). ``shots`` counts the
    opponent's rolls (of 36) that hit a blot, with the opponent on roll.
    """

    blots: tuple[int, ...]
    shots: int
    made: frozenset[int]
    #: The longest run of made points: (length, highest point); (0, 0) for none.
    prime: tuple[int, int]
    home_points: int
    #: Checkers in the opponent's home board or on the bar.
    back: int
    #: The tallest stack: (checkers, point).
    tallest: tuple[int, int]
    pips: tuple[int, int]
    #: The opponent's checkers on the bar.
    hit: int
    contact: bool
    off: int

    @property
    def anchors(self) -> frozenset[int]:
        return frozenset(point for point in self.made if point >= 19)


def shape_of(position: Position, *, mover_on_roll: bool = False) -> Shape:
    """The shape of ``position`` for its mover, the player who has just played.

    A :class:`~gammon.play.Play`'s ``position`` is seen from the mover with the
    opponent to roll next: shots are counted from there. With
    ``mover_on_roll`` the mover is to roll (the board before a play), and
    shots are left at 0.
    """
    mine = position.mine
    made = frozenset(point for point in range(1, 25) if mine[point - 1] >= 2)
    blots = tuple(point for point in range(1, 25) if mine[point - 1] == 1)
    contact = position.is_contact()
    reply = position.swapped()
    in_reach = blots
    shots = 0
    if contact and not mover_on_roll and blots:
        in_reach = tuple(point for point in blots if reply.shots(25 - point) > 0)
        shots = reply.shots() if in_reach else 0
    best_run, top, run = 0, 0, 0
    for point in range(1, 26):
        if point in made:
            run += 1
            if run > best_run:
                best_run, top = run, point
        else:
            run = 0
    tallest = max((mine[point - 1], point) for point in range(1, 25))
    return Shape(
        blots=in_reach if contact else (),
        shots=shots,
        made=made,
        prime=(best_run, top),
        home_points=sum(1 for point in made if point <= 6),
        back=sum(mine[18:24]) + position.bar[0],
        tallest=tallest,
        pips=position.pips(),
        hit=position.bar[1],
        contact=contact,
        off=position.off[0],
    )
