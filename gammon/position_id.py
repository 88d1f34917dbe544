"""GNU Backgammon's Position ID, as pure functions on plain data.

The Position ID is how positions are pasted between GNU Backgammon, forums and
other programs, so it must be byte-for-byte identical to what GNU Backgammon
writes and reads. (The Match ID is in :mod:`gammon.match_id`; :mod:`gammon.ids`
offers both.)

Board convention: a board is a pair ``(mine, theirs)`` of 25 checker counts, each
from its owner's own side (index 0 = that player's 1-point ... index 23 = 24-point,
index 24 = bar); ``mine`` is the player on roll and borne-off checkers are implicit.
A point ``n`` of mine is the opponent's point ``25 - n``, so ``mine[i]`` and
``theirs[23 - i]`` are the same point.

Bit order. The GNU manual says the key starts with the player on roll,
but GNU Backgammon's code (``PositionKey`` over ``anBoard[0]`` then ``anBoard[1]``,
with ``anBoard[1]`` the player on roll) writes the *opponent* first. We follow the
code: the first half of the key is ``theirs``, the second half ``mine``. This was
checked against the gnubg-nn package, which is built from GNU Backgammon's sources
(see ``tests/test_ids.py``).
"""

from __future__ import annotations

import base64
import binascii
import operator
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from numba import njit

from gammon.errors import InvalidIdError, PositionIdError
from gammon.i18n import N_
from gammon.messages import Message
from gammon.textkernels import literal

__all__ = [
    "POSITION_ID_LENGTH",
    "decode_position_id",
    "encode_position_id",
    "position_id_of_board",
    "position_id_of_valid",
    "put_position_id",
    "side_counts",
]

POSITION_ID_LENGTH = 14
"""Characters in a Position ID: 80 bits of key in base64, ``==`` padding dropped."""

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_INDEX = {c: i for i, c in enumerate(_B64)}
_POINTS = 25  # 24 points and the bar
_MAX_CHECKERS = 15
_KEY_BITS = 80


def side_counts(
    side: Sequence[int],
    who: str,
    error: type[InvalidIdError] = PositionIdError,
    board: str = "the board",
) -> tuple[int, ...]:
    """Check one side's 25 counts (for a Position ID or an XGID) as plain ints.

    ``error`` and ``board`` name the format in the message, so each format
    reports its own error class.
    """
    if len(side) != _POINTS:
        raise error(f"{board} for {who} must have 25 entries, got {len(side)}")
    counts: list[int] = []
    for i, value in enumerate(side):
        try:
            n = operator.index(value)
        except TypeError:
            raise error(
                f"{board} for {who} must hold integers, got {value!r} at index {i}"
            ) from None
        if n < 0:
            raise error(f"{board} for {who} has {n} checkers at index {i}")
        counts.append(n)
    total = sum(counts)
    if total > _MAX_CHECKERS:
        raise error(f"{board} has {total} checkers for {who} (at most {_MAX_CHECKERS})")
    return tuple(counts)


def _check_no_shared_point(mine: Sequence[int], theirs: Sequence[int], prefix: str) -> None:
    """Rejects a point occupied by both sides, which no real position has."""
    for i in range(24):
        if mine[i] and theirs[23 - i]:
            raise PositionIdError(Message(_SHARED_POINT[prefix], mine=i + 1, theirs=24 - i))


def encode_position_id(mine: Sequence[int], theirs: Sequence[int]) -> str:
    """Returns GNU Backgammon's 14-character Position ID of a board.

    ``mine`` is the player on roll. Raises :class:`PositionIdError` for a board
    that no Position ID can describe.

    >>> start = [0] * 25
    >>> start[5], start[7], start[12], start[23] = 5, 3, 5, 2
    >>> encode_position_id(start, start)
    '4HPwATDgc/ABMA'
    >>> encode_position_id([1] + [0] * 24, [0] * 25)
    'AAAAAgAAAAAAAA'
    """
    mine_counts = side_counts(mine, "the player on roll")
    theirs_counts = side_counts(theirs, "the opponent")
    _check_no_shared_point(mine_counts, theirs_counts, "the board")
    return position_id_of_valid(mine_counts, theirs_counts)


def position_id_of_valid(mine: Sequence[int], theirs: Sequence[int]) -> str:
    """:func:`encode_position_id` without the checks, for a board already known to be valid.

    A :class:`~gammon.position.Position` is valid by construction, and a server
    writes an ID for every legal play of every roll: the checks would cost more
    than the encoding.

    >>> start = [0] * 25
    >>> start[5], start[7], start[12], start[23] = 5, 3, 5, 2
    >>> position_id_of_valid(start, start)
    '4HPwATDgc/ABMA'
    """
    # As a 54-byte board (gammon.movegen's layout): off, points 1-24 and the bar, waiting.
    return position_id_of_board(bytes((0, *mine, 0, 0, *theirs, 0)))


def position_id_of_board(board: bytes) -> str:
    """The Position ID of a 54-byte board in gammon.movegen's layout (the player on roll's
    27 bytes first: borne off, points 1-24, the bar, waiting), as
    :attr:`gammon.position.Position.raw` gives it; waiting checkers are not looked at.

    >>> from gammon.position import Position
    >>> position_id_of_board(Position.initial().raw)
    '4HPwATDgc/ABMA'
    """
    text: str = _position_id(np.frombuffer(board, dtype=np.uint8)).tobytes().decode("ascii")
    return text


_B64_BYTES: Final = literal(_B64)
_SIDE_BYTES: Final = 27


@njit(cache=True, nogil=True)
def _position_id(board: Any) -> Any:
    out = np.empty(POSITION_ID_LENGTH, dtype=np.uint8)
    put_position_id(out, 0, board, 0, np.empty(12, dtype=np.uint8))
    return out


@njit(cache=True, nogil=True)
def put_position_id(out: Any, pos: int, board: Any, base: int, key: Any) -> int:
    """Write the Position ID of the 54-byte board at ``board[base]`` into ``out`` at ``pos``
    (14 characters); returns where it ends. ``key`` is 12 bytes of scratch.

    The key: each point's checkers as that many one bits then a zero, bit 0 first, the
    opponent's 25 points (with the bar) first, then the player on roll's; 80 bits, in
    base64 without the padding.
    """
    key[:] = 0
    bit = 0
    for side_base in (base + _SIDE_BYTES, base):
        for point in range(1, 26):
            for _ in range(board[side_base + point]):
                key[bit >> 3] |= 1 << (bit & 7)
                bit += 1
            bit += 1
    # 12 bytes (the key's 10, then zeros) in base64: the ID is the first 14 characters.
    for char in range(POSITION_ID_LENGTH):
        first = (char * 6) >> 3
        shift = (char * 6) & 7
        pair = (np.int64(key[first]) << 8) | np.int64(key[first + 1])
        out[pos] = _B64_BYTES[(pair >> (10 - shift)) & 63]
        pos += 1
    return pos


def check_base64(text: str, what: str, error: type[ValueError]) -> None:
    """Names the first character that is not standard base64 (both IDs are base64)."""
    for i, c in enumerate(text):
        if c not in _B64_INDEX:
            raise error(
                Message(
                    "{what} has an invalid character {char} at position {index} "
                    "(expected A-Z, a-z, 0-9, + or /)",
                    what=what,
                    char=repr(c),
                    index=i + 1,
                )
            )


def decode_position_id(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Returns the board ``(mine, theirs)`` of a GNU Backgammon Position ID.

    Surrounding whitespace is ignored; anything else that GNU Backgammon would
    not write (wrong length, stray bits, more than 15 checkers a side, a point
    held by both sides) raises :class:`PositionIdError` naming the problem.

    >>> mine, theirs = decode_position_id("4HPwATDgc/ABMA")
    >>> mine == theirs
    True
    >>> {i + 1: n for i, n in enumerate(mine) if n}
    {6: 5, 8: 3, 13: 5, 24: 2}
    >>> decode_position_id("4HPwATDgc")
    Traceback (most recent call last):
    ...
    gammon.errors.PositionIdError: Position ID must be 14 characters, got 9
    """
    key = _key_of(text.strip())
    theirs, mine, bit = _counts_of(key)
    for counts, too_many in zip((mine, theirs), _TOO_MANY_CHECKERS, strict=True):
        total = sum(counts)
        if total > _MAX_CHECKERS:
            raise PositionIdError(Message(too_many, count=total, most=_MAX_CHECKERS))
    if key >> bit:
        raise PositionIdError(
            Message(
                "Position ID has stray 1 bits after the last point (from bit {bit} of "
                "{bits}); GNU Backgammon always leaves them 0",
                bit=bit + 1,
                bits=_KEY_BITS,
            )
        )
    _check_no_shared_point(mine, theirs, "Position ID")
    return tuple(mine), tuple(theirs)


def _key_of(text: str) -> int:
    """The 80-bit key of a Position ID's 14 characters, once they are base64 that
    GNU Backgammon could have written."""
    if len(text) != POSITION_ID_LENGTH:
        raise PositionIdError(
            Message(
                "Position ID must be {length} characters, got {count}",
                length=POSITION_ID_LENGTH,
                count=len(text),
            )
        )
    check_base64(text, "Position ID", PositionIdError)
    last = text[-1]
    if _B64_INDEX[last] & 0x0F:
        raise PositionIdError(
            Message(
                "Position ID cannot end in {char}: its last character carries only 2 bits "
                "and must be one of A, Q, g or w",
                char=repr(last),
            )
        )
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error as exc:  # pragma: no cover - the checks above rule this out
        raise PositionIdError(f"Position ID is not valid base64: {exc}") from None
    return int.from_bytes(raw, "little")


def _counts_of(key: int) -> tuple[list[int], list[int], int]:
    """The checker counts the key spells, the opponent's 25 first (see the module's
    docstring), and the bit after the last point's ending zero."""
    sides: list[list[int]] = []
    bit = 0
    for _ in range(2):
        counts: list[int] = []
        for _ in range(_POINTS):
            n = 0
            while bit < _KEY_BITS and (key >> bit) & 1:
                n += 1
                bit += 1
            if bit >= _KEY_BITS:
                raise PositionIdError(
                    Message(
                        "Position ID has too many checkers: its 80 bits run out before "
                        "all 50 points and bars are described"
                    )
                )
            bit += 1  # the zero that ends this point
            counts.append(n)
        sides.append(counts)
    theirs, mine = sides
    return theirs, mine, bit


#: A point held by both sides, by what was read (the player on roll's point, the opponent's).
_SHARED_POINT: Final = {
    "Position ID": N_(
        "Position ID has checkers of both players on one point "
        "(the player on roll's {mine}-point, the opponent's {theirs}-point)"
    ),
    "the board": N_(
        "the board has checkers of both players on one point "
        "(the player on roll's {mine}-point, the opponent's {theirs}-point)"
    ),
}
#: Too many checkers for the player on roll, for the opponent.
_TOO_MANY_CHECKERS: Final = (
    N_("Position ID has {count} checkers for the player on roll (at most {most})"),
    N_("Position ID has {count} checkers for the opponent (at most {most})"),
)
