"""Compiled writers of text into byte buffers: literals and whole numbers.

The rules library's compiled writers (a roll's notation, gammon.notation; the Position
ID, gammon.position_id; the pip count, gammon.position) and the server's (the ``legal_plays``
text, gammon.server.plays_text) write ASCII into one numpy byte buffer and decode it
once: these are the pieces they share, and nothing of the rules.

>>> import numpy as np
>>> out = np.zeros(8, dtype=np.uint8)
>>> end = put_int(out, put(out, 0, literal("pips ")), 167)
>>> out[:end].tobytes()
b'pips 167'
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["literal", "put", "put_int"]


def literal(text: str) -> Any:
    """ASCII ``text`` as a byte array for :func:`put` (compiled code takes it as a constant)."""
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).copy()


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
