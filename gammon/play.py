"""What a player does with a roll: :class:`Move` (one die) and :class:`Play` (the turn).

>>> from gammon.position import Position
>>> play = Position.initial().plays((6, 5))[0]
>>> str(play), play.dice
('24/13', (6, 5))
>>> [str(m) for m in play.moves]
['24/18', '18/13']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.position import Dice, Position

__all__ = ["Move", "Play"]

BAR_POINT = 25
OFF_POINT = 0


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, points numbered by the mover (25 bar, 0 off)."""

    source: int
    target: int
    hit: bool = False

    @property
    def is_entry(self) -> bool:
        """Whether the checker comes in from the bar (or from off the board in acey-deucey)."""
        return self.source == BAR_POINT

    @property
    def is_bear_off(self) -> bool:
        return self.target == OFF_POINT

    def __str__(self) -> str:
        source = "bar" if self.source == BAR_POINT else str(self.source)
        target = "off" if self.target == OFF_POINT else str(self.target)
        return f"{source}/{target}{'*' if self.hit else ''}"


class Play:
    """One whole turn: the moves of every die played, and the position they lead to.

    Plays come from :meth:`Position.plays`; two plays are equal when they start
    from the same position and end in the same one, which is what makes them the
    same play whatever order the checkers were moved in.
    """

    __slots__ = ("_board", "_moves", "_raw_moves", "_start", "dice")

    _start: Position
    _board: bytes
    _raw_moves: bytes
    _moves: tuple[Move, ...] | None
    dice: Dice

    @classmethod
    def _from_generator(
        cls, start: Position, dice: Dice, board: bytes, raw_moves: bytes
    ) -> Play:
        play = object.__new__(cls)
        play._start = start
        play.dice = dice
        play._board = board
        play._raw_moves = raw_moves
        play._moves = None
        return play

    @property
    def start(self) -> Position:
        """The position before the play."""
        return self._start

    @property
    def position(self) -> Position:
        """The position right after the play, still seen from the player who moved."""
        from gammon.position import Position

        return Position._from_board(self._board)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves in the order they can be played, one per die used."""
        if self._moves is None:
            raw = self._raw_moves
            # The generator stores a waiting acey-deucey checker as source 26;
            # it enters from the same place as the bar.
            self._moves = tuple(
                Move(min(raw[i], BAR_POINT), raw[i + 1], bool(raw[i + 2]))
                for i in range(0, len(raw), 3)
            )
        return self._moves

    @property
    def is_pass(self) -> bool:
        """No die could be played: the turn is lost (R5, R7)."""
        return not self._raw_moves

    @property
    def hits(self) -> int:
        """How many opposing blots the play sends to the bar (R6)."""
        return sum(self._raw_moves[i + 2] for i in range(0, len(self._raw_moves), 3))

    def __str__(self) -> str:
        from gammon.notation import format_moves

        return format_moves(self.moves)

    def __repr__(self) -> str:
        return f"<Play {self} with {self.dice[0]}-{self.dice[1]}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Play)
            and self._board == other._board
            and self._start == other._start
        )

    def __hash__(self) -> int:
        return hash(self._board)
