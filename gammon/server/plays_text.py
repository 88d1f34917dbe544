"""The ``legal_plays`` of a state as JSON text, written for a whole roll at once.

Every state of the side on roll lists each legal play with its notation, its
moves, the Position ID after it and the board after it (docs/PROTOCOL.md 3):
20-odd plays a roll, hundreds for some doubles. Built play by play as Python
values this was a fifth of the server's time per action; here one compiled
kernel writes the whole list from the move generator's own bytes (the moves
and boards of every play of the roll), ten times faster. The text is exactly
what ``dumps([play_json(play, side) for play in plays])`` gives, notation
included (gammon.notation's rules: moves of one checker joined, segments
sorted, repeats counted); the tests compare the two over random games of every
variant.

>>> from gammon.position import Position
>>> from gammon.server.protocol import dumps, play_json
>>> plays = Position.initial().plays((3, 1))
>>> legal_plays_text(plays, 0) == dumps([play_json(play, 0) for play in plays])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from numba import njit

from gammon.play import Play, packed_boards, packed_moves

__all__ = ["legal_plays_text"]

_BOARD_SIZE: Final = 54
_SIDE: Final = 27
_MOVE_BYTES: Final = 12
_BAR: Final = 25
#: Longest text the kernel writes for one play (notation, moves, ID, 54 counts, pips, keys):
#: well under this.
_MAX_ENTRY: Final = 640


def legal_plays_text(plays: Sequence[Play], side: int) -> str:
    """``plays`` (one roll's, of ``side``, who is on roll) as the state's ``legal_plays`` text."""
    if not plays:
        return "[]"
    boards = np.frombuffer(packed_boards(plays), dtype=np.uint8)
    moves = np.frombuffer(packed_moves(plays), dtype=np.uint8)
    used = len(plays[0].raw_moves) // 3
    text: str = _entries(boards, moves, used, side).tobytes().decode("ascii")
    return text


def _literal(text: str) -> Any:
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).copy()


_PLAY: Final = _literal('{"play":"')
_NO_PLAY: Final = _literal("(no play)")
_MOVES: Final = _literal('","moves":[')
_TRUE: Final = _literal("true]")
_FALSE: Final = _literal("false]")
_POSITION_ID: Final = _literal('],"position_id":')
_BOARD: Final = _literal(',"board":{"side":')
_MINE: Final = _literal(',"mine":[')
_THEIRS: Final = _literal('],"theirs":[')
_OFF: Final = _literal('],"off":[')
_WAITING: Final = _literal('],"waiting":[')
_PIPS: Final = _literal('],"pips":[')
_END: Final = _literal("]}}")
_BAR_NAME: Final = _literal("bar")
_OFF_NAME: Final = _literal("off")
_NULL: Final = _literal("null")
_B64: Final = _literal("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


@njit(cache=True, nogil=True)
def _put(out: Any, pos: int, literal: Any) -> int:
    for i in range(literal.shape[0]):
        out[pos + i] = literal[i]
    return pos + int(literal.shape[0])


@njit(cache=True, nogil=True)
def _put_int(out: Any, pos: int, value: Any) -> int:
    """A whole number >= 0 in decimal (counts and pip counts: at most 4 digits)."""
    if value >= 1000:
        out[pos] = 48 + value // 1000
        pos += 1
    if value >= 100:
        out[pos] = 48 + (value // 100) % 10
        pos += 1
    if value >= 10:
        out[pos] = 48 + (value // 10) % 10
        pos += 1
    out[pos] = 48 + value % 10
    return pos + 1


@njit(cache=True, nogil=True)
def _put_counts(out: Any, pos: int, board: Any, base: int) -> int:
    """Points 1-24 and the bar of the side at ``base``, comma-separated."""
    for point in range(1, 26):
        if point > 1:
            out[pos] = 44  # ,
            pos += 1
        pos = _put_int(out, pos, board[base + point])
    return pos


@njit(cache=True, nogil=True)
def _put_position_id(out: Any, pos: int, board: Any, base: int, key: Any) -> int:
    """GNU's Position ID (gammon.ids.position_id_of_valid): the opponent's points first,
    each point's checkers as that many one bits then a zero, bit 0 first, in base64.
    ``key`` is 12 bytes of scratch."""
    key[:] = 0
    bit = 0
    for side_base in (base + _SIDE, base):
        for point in range(1, 26):
            for _ in range(board[side_base + point]):
                key[bit >> 3] |= 1 << (bit & 7)
                bit += 1
            bit += 1
    out[pos] = 34  # "
    pos += 1
    # 12 bytes (the key's 10, then zeros) in base64: the ID is the first 14 characters.
    for char in range(14):
        first = (char * 6) >> 3
        shift = (char * 6) & 7
        pair = (np.int64(key[first]) << 8) | np.int64(key[first + 1])
        out[pos] = _B64[(pair >> (10 - shift)) & 63]
        pos += 1
    out[pos] = 34
    return pos + 1


@njit(cache=True, nogil=True)
def _put_point(out: Any, pos: int, point: int) -> int:
    if point == _BAR:
        return _put(out, pos, _BAR_NAME)
    if point == 0:
        return _put(out, pos, _OFF_NAME)
    return _put_int(out, pos, point)


@njit(cache=True, nogil=True)
def _put_notation(
    out: Any, pos: int, moves: Any, first: int, used: int, segments: Any, keys: Any
) -> int:
    """The play in standard notation, as gammon.notation.format_moves writes it
    (``segments`` and ``keys``: 4 by 3 of scratch)."""
    if used == 0:
        return _put(out, pos, _NO_PLAY)
    # Segments (source, target, hit): a move extends an open segment that ends where it
    # starts, unless that segment ended with a hit.
    count = 0
    for index in range(used):
        at = first + 3 * index
        source = min(np.int64(moves[at]), _BAR)
        target = np.int64(moves[at + 1])
        hit = np.int64(moves[at + 2] != 0)
        extended = False
        for k in range(count):
            if segments[k, 1] == source and segments[k, 2] == 0:
                segments[k, 1] = target
                segments[k, 2] = hit
                extended = True
                break
        if not extended:
            segments[count, 0] = source
            segments[count, 1] = target
            segments[count, 2] = hit
            count += 1
    # Sorted by source, then target (off last), then hits first: all descending.
    for k in range(count):
        keys[k, 0] = -segments[k, 0]
        keys[k, 1] = -segments[k, 1] if segments[k, 1] != 0 else 1
        keys[k, 2] = -segments[k, 2]
    for k in range(1, count):  # insertion sort: at most 4
        j = k
        while j > 0 and (
            keys[j, 0] < keys[j - 1, 0]
            or (keys[j, 0] == keys[j - 1, 0] and keys[j, 1] < keys[j - 1, 1])
            or (
                keys[j, 0] == keys[j - 1, 0]
                and keys[j, 1] == keys[j - 1, 1]
                and keys[j, 2] < keys[j - 1, 2]
            )
        ):
            for c in range(3):
                keys[j, c], keys[j - 1, c] = keys[j - 1, c], keys[j, c]
                segments[j, c], segments[j - 1, c] = segments[j - 1, c], segments[j, c]
            j -= 1
    index = 0
    while index < count:
        repeat = 1
        while (
            index + repeat < count
            and segments[index + repeat, 0] == segments[index, 0]
            and segments[index + repeat, 1] == segments[index, 1]
            and segments[index + repeat, 2] == segments[index, 2]
        ):
            repeat += 1
        if index > 0:
            out[pos] = 32  # space
            pos += 1
        pos = _put_point(out, pos, segments[index, 0])
        out[pos] = 47  # /
        pos = _put_point(out, pos + 1, segments[index, 1])
        if segments[index, 2]:
            out[pos] = 42  # *
            pos += 1
        if repeat > 1:
            out[pos] = 40  # (
            pos = _put_int(out, pos + 1, repeat)
            out[pos] = 41  # )
            pos += 1
        index += repeat
    return pos


@njit(cache=True, nogil=True)
def _entries(boards: Any, moves: Any, used: int, side: int) -> Any:
    """The JSON list of every play (its moves and the board after it)."""
    count = boards.shape[0] // _BOARD_SIZE
    out = np.empty(2 + count * _MAX_ENTRY, dtype=np.uint8)
    out[0] = 91  # [
    pos = 1
    segments = np.empty((4, 3), dtype=np.int64)
    keys = np.empty((4, 3), dtype=np.int64)
    key = np.empty(12, dtype=np.uint8)
    for index in range(count):
        if index > 0:
            out[pos] = 44
            pos += 1
        first = index * _MOVE_BYTES
        pos = _put(out, pos, _PLAY)
        pos = _put_notation(out, pos, moves, first, used, segments, keys)
        pos = _put(out, pos, _MOVES)
        for move in range(used):
            at = first + 3 * move
            if move > 0:
                out[pos] = 44
                pos += 1
            out[pos] = 91
            pos = _put_int(out, pos + 1, min(np.int64(moves[at]), _BAR))
            out[pos] = 44
            pos = _put_int(out, pos + 1, moves[at + 1])
            out[pos] = 44
            pos = _put(out, pos + 1, _TRUE if moves[at + 2] else _FALSE)
        base = index * _BOARD_SIZE
        theirs = base + _SIDE
        pos = _put(out, pos, _POSITION_ID)
        if boards[base + 26] == 0 and boards[theirs + 26] == 0:
            pos = _put_position_id(out, pos, boards, base, key)
        else:
            pos = _put(out, pos, _NULL)  # acey-deucey checkers still waiting: no ID holds them
        pos = _put(out, pos, _BOARD)
        pos = _put_int(out, pos, side)
        pos = _put(out, pos, _MINE)
        pos = _put_counts(out, pos, boards, base)
        pos = _put(out, pos, _THEIRS)
        pos = _put_counts(out, pos, boards, theirs)
        pos = _put(out, pos, _OFF)
        pos = _put_int(out, pos, boards[base])
        out[pos] = 44
        pos = _put_int(out, pos + 1, boards[theirs])
        pos = _put(out, pos, _WAITING)
        pos = _put_int(out, pos, boards[base + 26])
        out[pos] = 44
        pos = _put_int(out, pos + 1, boards[theirs + 26])
        pos = _put(out, pos, _PIPS)
        for first_index in (base, theirs):
            if first_index == theirs:
                out[pos] = 44
                pos += 1
            pips = 25 * np.int64(boards[first_index + 26])
            for point in range(1, 26):
                pips += point * np.int64(boards[first_index + point])
            pos = _put_int(out, pos, pips)
        pos = _put(out, pos, _END)
    out[pos] = 93  # ]
    return out[: pos + 1]
