"""The board: an immutable :class:`Position`, always seen from the player on roll.

>>> start = Position.initial()
>>> start.id
'4HPwATDgc/ABMA'
>>> start.pips()
(167, 167)
>>> len(start.plays((3, 1)))
16
>>> str(start.parse_play("8/5 6/5", (3, 1)))
'8/5 6/5'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import numpy as np
from numba import njit

from gammon import movegen
from gammon.diagram import draw
from gammon.dice import ALL_ROLLS, Dice, validate_dice
from gammon.errors import InvalidPositionError
from gammon.i18n import N_
from gammon.messages import Message
from gammon.notation import parse_play
from gammon.play import Play, _Batch
from gammon.position_id import decode_position_id, position_id_of_board
from gammon.svg import board_svg
from gammon.variants import Variant, find_variant

# Dice, validate_dice and ALL_ROLLS live in gammon.dice; they are named here too
# because older code imports them from this module.
__all__ = ["Position", "Dice", "validate_dice", "ALL_ROLLS", "side_pips"]

_SIDE = movegen.SIDE
_OFF = movegen.OFF
_BAR = movegen.BAR
_WAITING = movegen.WAITING


@njit(cache=True, nogil=True)
def side_pips(board: Any, base: int) -> int:
    """The pip count (R2) of the side whose 27 bytes start at ``board[base]`` (a board in
    gammon.movegen's layout): each checker counts its point, one on the bar or waiting to
    enter 25. Compiled, for :meth:`Position.pips` and the server's compiled writers."""
    pips = 25 * (np.int64(board[base + _BAR]) + np.int64(board[base + _WAITING]))
    for point in range(1, 25):
        pips += point * np.int64(board[base + point])
    return int(pips)


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class Position:
    """Where every checker stands, seen from the player on roll (R1).

    Each side is given as 25 counts from its owner's own side: index 0 is the
    owner's 1-point, index 23 the 24-point and index 24 the bar (R1: the bar is
    point 25).  Checkers not on the board are borne off, except in acey-deucey
    where ``waiting`` counts those still to be entered (R14).
    """

    __slots__ = ("_board",)

    _board: bytes

    def __init__(
        self,
        mine: Sequence[int],
        theirs: Sequence[int],
        *,
        waiting: tuple[int, int] = (0, 0),
        checkers: int = 15,
    ) -> None:
        if not isinstance(checkers, int) or isinstance(checkers, bool) or not 1 <= checkers <= 15:
            raise InvalidPositionError(f"a side has 1 to 15 checkers, got {checkers!r}")
        if (
            not isinstance(waiting, tuple)
            or len(waiting) != 2
            or not all(_is_count(w) for w in waiting)
        ):
            raise InvalidPositionError(
                f"waiting must be a pair of whole numbers >= 0 (player on roll, opponent), "
                f"got {waiting!r}"
            )
        board = bytearray(2 * _SIDE)
        for side, counts in enumerate((mine, theirs)):
            if len(counts) != 25:
                raise InvalidPositionError(
                    f"a side needs 25 counts (points 1-24 and the bar), got {len(counts)}"
                )
            base = side * _SIDE
            on_board = sum(counts) + waiting[side] if all(map(_is_count, counts)) else -1
            if on_board < 0:
                bad = next(c for c in counts if not _is_count(c))
                raise InvalidPositionError(
                    f"checker counts must be whole numbers >= 0, got {bad!r}"
                )
            if on_board > checkers:
                raise InvalidPositionError(
                    Message(_TOO_MANY[side], count=on_board, checkers=checkers)
                )
            board[base + 1 : base + 26] = bytes(counts)
            board[base + _WAITING] = waiting[side]
            board[base + _OFF] = checkers - on_board
        for point in range(1, 25):
            if board[point] and board[_SIDE + 25 - point]:
                raise InvalidPositionError(
                    Message(
                        "both sides have checkers on the same point "
                        "(point {point} of the player on roll)",
                        point=point,
                    )
                )
        if board[_OFF] == checkers and board[_SIDE + _OFF] == checkers:
            raise InvalidPositionError(Message("both sides have borne off every checker"))
        self._board = bytes(board)

    @classmethod
    def _from_board(cls, board: bytes) -> Position:
        """Wrap a 54-byte board from the generator without checking it again."""
        position = object.__new__(cls)
        position._board = board
        return position

    @classmethod
    def from_points(
        cls,
        mine: Mapping[int, int],
        theirs: Mapping[int, int],
        *,
        waiting: tuple[int, int] = (0, 0),
        checkers: int = 15,
    ) -> Position:
        """Build a position from ``{point: count}`` maps (point 25 is the bar).

        >>> Position.from_points({6: 2}, {6: 2}, checkers=2).pips()
        (12, 12)
        """
        sides: list[list[int]] = []
        for points in (mine, theirs):
            counts = [0] * 25
            for point, count in points.items():
                if not isinstance(point, int) or not 1 <= point <= 25:
                    raise InvalidPositionError(
                        f"points are numbered 1-24 and 25 for the bar, got {point!r}"
                    )
                counts[point - 1] = count
            sides.append(counts)
        return cls(sides[0], sides[1], waiting=waiting, checkers=checkers)

    @classmethod
    def initial(cls, variant: str | Variant = "standard") -> Position:
        """The starting position of a variant (R2, R14), built from its layout.

        >>> Position.initial("hypergammon").pips()
        (69, 69)
        >>> Position.initial("acey-deucey").waiting
        (15, 15)
        """
        rules = find_variant(variant)
        if rules.acey_deucey:
            empty = [0] * 25
            count = rules.checkers
            return cls(empty, empty, waiting=(count, count), checkers=count)
        points = dict(rules.start)
        return cls.from_points(points, points, checkers=rules.checkers)

    @classmethod
    def from_id(cls, position_id: str, *, checkers: int = 15) -> Position:
        """Decode a GNU Backgammon Position ID; the first side encoded is on roll.

        >>> Position.from_id("4HPwATDgc/ABMA") == Position.initial()
        True
        """
        mine, theirs = decode_position_id(position_id)
        return cls(mine, theirs, checkers=checkers)

    @property
    def id(self) -> str:
        """The GNU Backgammon Position ID, with the player on roll as GNU's player on roll."""
        if self._board[_WAITING] or self._board[_SIDE + _WAITING]:
            raise InvalidPositionError(
                "a Position ID cannot hold acey-deucey checkers that have not entered yet"
            )
        return position_id_of_board(self._board)

    # -- the board ---------------------------------------------------------

    @property
    def raw(self) -> bytes:
        """The board as 54 bytes, for engines that encode many boards at once.

        27 bytes a side, the player on roll first, each from its owner's side:
        index 0 borne off, 1-24 the points, 25 the bar, 26 checkers waiting to
        enter (acey-deucey).  Read it with ``numpy.frombuffer(raw, numpy.int8)``.
        """
        return self._board

    @property
    def mine(self) -> tuple[int, ...]:
        """The player on roll's 25 counts (points 1-24, then the bar)."""
        return tuple(self._board[1:26])

    @property
    def theirs(self) -> tuple[int, ...]:
        """The opponent's 25 counts, from the opponent's own side."""
        return tuple(self._board[_SIDE + 1 : _SIDE + 26])

    @property
    def bar(self) -> tuple[int, int]:
        """Checkers on the bar: (player on roll, opponent)."""
        return self._board[_BAR], self._board[_SIDE + _BAR]

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        return self._board[_OFF], self._board[_SIDE + _OFF]

    @property
    def waiting(self) -> tuple[int, int]:
        """Acey-deucey checkers not yet entered: (player on roll, opponent)."""
        return self._board[_WAITING], self._board[_SIDE + _WAITING]

    @property
    def checkers(self) -> int:
        """Checkers per side (15, or 3 in hypergammon)."""
        return sum(self._board[:_SIDE])

    def point(self, point: int) -> int:
        """Checkers on ``point`` (numbered by the player on roll): mine > 0, theirs < 0.

        >>> start = Position.initial()
        >>> start.point(6), start.point(1), start.point(19)
        (5, -2, -5)
        """
        if not 1 <= point <= 24:
            raise ValueError(f"points are numbered 1-24, got {point}")
        mine = self._board[point]
        return mine if mine else -self._board[_SIDE + 25 - point]

    def pips(self) -> tuple[int, int]:
        """Pip counts (R2): player on roll first; bar and waiting checkers count 25."""
        board = np.frombuffer(self._board, dtype=np.uint8)
        return side_pips(board, 0), side_pips(board, _SIDE)

    def is_closed_out(self) -> bool:
        """Whether the player on roll has a checker on the bar against a closed board: all
        six of the opponent's home points held, so no roll enters and the turn is lost (R7).

        >>> Position.from_points({25: 1}, {p: 2 for p in range(1, 7)}, checkers=12).is_closed_out()
        True
        """
        board = self._board
        return board[_BAR] > 0 and all(board[_SIDE + point] >= 2 for point in range(1, 7))

    def swapped(self) -> Position:
        """The same board seen from the other side (the opponent now on roll)."""
        return Position._from_board(self._board[_SIDE:] + self._board[:_SIDE])

    def is_contact(self) -> bool:
        """Whether any checker of one side still has to pass one of the other's."""
        board = self._board
        my_back = max((p for p in range(26, 0, -1) if board[p]), default=0)
        their_back = max((p for p in range(26, 0, -1) if board[_SIDE + p]), default=0)
        # A waiting checker enters from the same place as the bar.
        my_back = min(my_back, 25)
        their_back = min(their_back, 25)
        return my_back + their_back > 25

    def winner(self) -> int | None:
        """0 if the player on roll has borne off every checker, 1 for the opponent."""
        total = self.checkers
        if self._board[_OFF] == total:
            return 0
        if self._board[_SIDE + _OFF] == total:
            return 1
        return None

    def win_value(self) -> int:
        """1, 2 or 3 for a single, gammon or backgammon win (R9); 0 while play goes on."""
        winner = self.winner()
        if winner is None:
            return 0
        loser = _SIDE * (1 - winner)
        board = self._board
        if board[loser + _OFF]:
            return 1
        # Backgammon: a loser's checker on the bar or in the winner's home board,
        # which is the loser's 19- to 24-point (or not yet entered at all).
        if (
            board[loser + _BAR]
            or board[loser + _WAITING]
            or any(board[loser + p] for p in range(19, 25))
        ):
            return 3
        return 2

    # -- plays -------------------------------------------------------------

    def plays(self, dice: Iterable[int]) -> list[Play]:
        """Every legal play of the roll, one per distinct resulting position (R4-R8).

        With no legal move the list holds one empty play: the turn is lost (R5, R7).
        """
        die1, die2 = validate_dice(dice)
        boards, moves, count, used = movegen.generate(self._board, die1, die2)
        batch = _Batch(self, (die1, die2), boards, moves, used)
        return list(map(Play, [batch] * count, range(count)))

    def parse_play(self, text: str, dice: Iterable[int]) -> Play:
        """The legal play that ``text`` names, or an error saying why it is illegal."""
        return parse_play(self, text, validate_dice(dice))

    def shots(self, point: int | None = None) -> int:
        """How many of the 36 rolls let the player on roll hit (R6, R15).

        ``point`` is a blot's point as the player on roll numbers it; without it,
        any blot counts.

        >>> Position.from_points({13: 1}, {18: 1}, checkers=1).shots(7)
        17
        """
        if point is not None and not 1 <= point <= 24:
            raise ValueError(f"points are numbered 1-24, got {point}")
        total = 0
        for (die1, die2), weight in ALL_ROLLS:
            # The generator's raw moves (source, target, hit), not Play objects: the
            # teacher counts shots for every blot of every play it explains.
            _, raw, _, _ = movegen.generate(self._board, die1, die2)
            moves = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3)
            hit = moves[moves[:, 2] != 0, 1]
            if hit.size if point is None else bool((hit == point).any()):
                total += weight
        return total

    # -- dunder ------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._board == other._board

    def __hash__(self) -> int:
        return hash(self._board)

    def __repr__(self) -> str:
        if self.waiting != (0, 0):
            checkers = "" if self.checkers == 15 else f", checkers={self.checkers}"
            return (
                f"Position({list(self.mine)}, {list(self.theirs)}, "
                f"waiting={self.waiting}{checkers})"
            )
        if self.checkers != 15:
            return f"Position.from_id({self.id!r}, checkers={self.checkers})"
        return f"Position.from_id({self.id!r})"

    def _repr_svg_(self) -> str:
        """The board as SVG, so a notebook shows a picture (:func:`gammon.svg.board_svg`)."""
        return board_svg(self)

    def __str__(self) -> str:
        return draw(self)


#: Too many checkers for the player on roll, for the opponent.
_TOO_MANY: Final = (
    N_("the player on roll has {count} checkers, more than the {checkers} of a side"),
    N_("the opponent has {count} checkers, more than the {checkers} of a side"),
)
