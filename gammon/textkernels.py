"""Compiled writers of text into byte buffers: whole numbers and the notation of plays.

The move generator hands a roll's plays back as bytes (gammon.movegen); writing
their notation one play at a time in Python costs more than generating them.
:func:`format_rows` writes the notation of every play of a roll in one compiled
call, exactly as :func:`gammon.notation.format_moves` does (the tests compare
them); the ``put_*`` kernels are for other compiled writers (the server's
``legal_plays`` text).

>>> from gammon.position import Position
>>> plays = Position.initial().plays((6, 6))
>>> format_rows(plays[0]._batch.moves, len(plays), 4)[:2]
['24/18(2) 13/7(2)', '24/18(2) 13/7 8/2']
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numba import njit

__all__ = ["format_rows", "literal", "put", "put_int", "put_notation"]

_MOVE_BYTES: Final = 12
_BAR: Final = 25


def literal(text: str) -> Any:
    """ASCII ``text`` as a byte array for :func:`put` (compiled code takes it as a constant)."""
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).copy()


_NO_PLAY: Final = literal("(no play)")
_BAR_NAME: Final = literal("bar")
_OFF_NAME: Final = literal("off")


def format_rows(moves: bytes, count: int, used: int) -> list[str]:
    """The notation of ``count`` plays from the generator's move rows (12 bytes a play,
    ``used`` moves of 3 bytes used in each): ``format_moves`` for a whole roll at once."""
    if count == 0:
        return []
    out = _format_rows(np.frombuffer(moves, dtype=np.uint8), count, used)
    texts: list[str] = out.tobytes().decode("ascii").split("\n")
    return texts


@njit(cache=True, nogil=True)
def _format_rows(moves: Any, count: int, used: int) -> Any:
    out = np.empty(count * 64, dtype=np.uint8)
    segments = np.empty((4, 3), dtype=np.int64)
    keys = np.empty((4, 3), dtype=np.int64)
    pos = 0
    for index in range(count):
        if index > 0:
            out[pos] = 10  # newline between plays
            pos += 1
        pos = put_notation(out, pos, moves, index * _MOVE_BYTES, used, segments, keys)
    return out[:pos]


@njit(cache=True, nogil=True)
def put(out: Any, pos: int, text: Any) -> int:
    """Copy ``text`` (see :func:`literal`) into ``out`` at ``pos``; returns where it ends."""
    for i in range(text.shape[0]):
        out[pos + i] = text[i]
    return pos + int(text.shape[0])


@njit(cache=True, nogil=True)
def put_int(out: Any, pos: int, value: Any) -> int:
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
def _put_point(out: Any, pos: int, point: int) -> int:
    if point == _BAR:
        return put(out, pos, _BAR_NAME)
    if point == 0:
        return put(out, pos, _OFF_NAME)
    return put_int(out, pos, point)


@njit(cache=True, nogil=True)
def put_notation(
    out: Any, pos: int, moves: Any, first: int, used: int, segments: Any, keys: Any
) -> int:
    """The play in standard notation, as gammon.notation.format_moves writes it
    (``segments`` and ``keys``: 4 by 3 of scratch)."""
    if used == 0:
        return put(out, pos, _NO_PLAY)
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
            pos = put_int(out, pos + 1, repeat)
            out[pos] = 41  # )
            pos += 1
        index += repeat
    return pos
