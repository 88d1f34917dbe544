"""What a player does with a roll: :class:`Move` (one die) and :class:`Play` (the turn).

>>> from gammon.position import Position
>>> play = Position.initial().plays((6, 5))[0]
>>> str(play), play.dice
('24/13', (6, 5))
>>> [str(m) for m in play.moves]
['24/18', '18/13']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gammon.dice import Dice
from gammon.notation import BAR_POINT, OFF_POINT, format_rows

if TYPE_CHECKING:
    # Only for annotations: position imports this module to make plays.
    from gammon.position import Position

__all__ = ["Move", "Play", "notations", "packed_boards", "packed_moves"]


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, points numbered by the mover (25 bar, 0 off)."""

    source: int
    target: int
    hit: bool = False

    @property
    def is_bear_off(self) -> bool:
        return self.target == OFF_POINT

    def __str__(self) -> str:
        source = "bar" if self.source == BAR_POINT else str(self.source)
        target = "off" if self.target == OFF_POINT else str(self.target)
        return f"{source}/{target}{'*' if self.hit else ''}"


class _Batch:
    """What all plays of one roll share: the start, the dice and the generator's output."""

    __slots__ = ("boards", "dice", "moves", "start", "texts", "used")

    def __init__(self, start: Position, dice: Dice, boards: bytes, moves: bytes, used: int) -> None:
        self.start = start
        self.dice = dice
        self.boards = boards
        self.moves = moves
        self.used = used
        #: Every play's notation, written together the first time one is asked for.
        self.texts: list[str] | None = None

    def notations(self) -> list[str]:
        """Every play's notation, in the generator's order."""
        texts = self.texts
        if texts is None:
            texts = self.texts = format_rows(self.moves, len(self.boards) // _BOARD_SIZE, self.used)
        return texts


_BOARD_SIZE = 54
_MOVE_BYTES = 12


class Play:
    """One whole turn: the moves of every die played, and the position they lead to.

    Plays come from :meth:`Position.plays`; two plays are equal when they start
    from the same position and end in the same one, which is what makes them the
    same play whatever order the checkers were moved in.  A play is a view into
    the generator's output, decoded only when asked, because the bot makes
    thousands and looks at most of them only once.
    """

    __slots__ = ("_batch", "_index", "_moves")

    _batch: _Batch
    _index: int
    _moves: tuple[Move, ...]

    def __init__(self, batch: _Batch, index: int) -> None:
        self._batch = batch
        self._index = index

    @property
    def start(self) -> Position:
        """The position before the play."""
        return self._batch.start

    @property
    def dice(self) -> Dice:
        """The roll this play uses."""
        return self._batch.dice

    @property
    def _board(self) -> bytes:
        offset = self._index * _BOARD_SIZE
        return self._batch.boards[offset : offset + _BOARD_SIZE]

    @property
    def raw_moves(self) -> bytes:
        """The moves as the generator wrote them, 3 bytes each (source, target, hit): what
        compiled writers read (gammon.notation.put_notation); a waiting acey-deucey checker
        is 26."""
        offset = self._index * _MOVE_BYTES
        return self._batch.moves[offset : offset + 3 * self._batch.used]

    @property
    def position(self) -> Position:
        """The position right after the play, still seen from the player who moved."""
        # Built by the start's own class, so this module needs Position only for types.
        return self._batch.start._from_board(self._board)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves in the order they can be played, one per die used."""
        try:
            return self._moves
        except AttributeError:
            raw = self.raw_moves
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
        return self._batch.used == 0

    @property
    def hits(self) -> int:
        """How many opposing blots the play sends to the bar (R6)."""
        raw = self.raw_moves
        return sum(raw[i + 2] for i in range(0, len(raw), 3))

    def __str__(self) -> str:
        # The whole roll's at once (one compiled call): a played text is matched against
        # every legal play's (Game.play), and a list of plays is usually shown whole.
        return self._batch.notations()[self._index]

    def __repr__(self) -> str:
        dice = self._batch.dice
        return f"<Play {self} with {dice[0]}-{dice[1]}>"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Play)
            and self._board == other._board
            and self._batch.start == other._batch.start
        )

    def __hash__(self) -> int:
        return hash(self._board)


def _whole_batch(plays: Sequence[Play]) -> _Batch | None:
    """The batch ``plays`` are, when they are all of one roll's, in the generator's order
    (one list comprehension, not a generator step per play: a server asks once a roll)."""
    if not plays:
        return None
    batch = plays[0]._batch
    if len(plays) * _BOARD_SIZE != len(batch.boards):
        return None
    indices = [play._index for play in plays if play._batch is batch]
    return batch if indices == list(range(len(plays))) else None


def notations(plays: Sequence[Play]) -> list[str]:
    """Each play's notation (``str``), written in one compiled call when ``plays`` is a
    whole list from :meth:`Position.plays`: what a played text is looked up in."""
    batch = _whole_batch(plays)
    if batch is not None:
        return batch.notations()
    return [str(play) for play in plays]


def packed_boards(plays: Sequence[Play]) -> bytes:
    """The positions after ``plays`` as one bytes object of 54-byte rows (see ``Position.raw``).

    Free when ``plays`` is a whole list from :meth:`Position.plays`, which is
    how engines evaluate every candidate of a roll in one pass.
    """
    batch = _whole_batch(plays)
    if batch is not None:
        return batch.boards
    return b"".join(play._board for play in plays)


def packed_moves(plays: Sequence[Play]) -> bytes:
    """The moves of ``plays`` as one bytes object of 12-byte rows: 4 moves of 3 bytes
    (source, target, hit), as many used as ``len(plays[0].raw_moves) // 3``.

    Free when ``plays`` is a whole list from :meth:`Position.plays` (see :func:`packed_boards`).
    """
    batch = _whole_batch(plays)
    if batch is not None:
        return batch.moves
    return b"".join(play._batch.moves[play._index * _MOVE_BYTES :][:_MOVE_BYTES] for play in plays)
