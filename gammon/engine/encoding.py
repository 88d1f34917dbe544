"""The network's view of a board: a fixed-length vector of numbers per position.

Boards arrive as the raw 54-byte rows the move generator produces (27 per side,
player on roll first: 0 off, 1-24 points, 25 bar, 26 acey-deucey waiting), so a
whole roll's candidate plays are encoded in one NumPy pass without building a
:class:`~gammon.position.Position` for each.

Per side and point, four units in the manner of TD-Gammon: one checker there,
two, three, and half of the rest, so blots, points and stacks are told apart.
Then per side: the bar (halved), checkers borne off and still waiting (fifteenths),
and the pip count (hundredths); finally two race features: whether contact
remains and the pip difference.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["INPUT_SIZE", "encode_boards", "is_contact_boards"]

_SIDE = 27
_PER_SIDE = 24 * 4 + 4
INPUT_SIZE = 2 * _PER_SIDE + 2

_PIP_WEIGHTS = np.zeros(_SIDE, dtype=np.float32)
_PIP_WEIGHTS[1:25] = np.arange(1, 25)
_PIP_WEIGHTS[25] = 25
_PIP_WEIGHTS[26] = 25


def is_contact_boards(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Whether each board still has contact: some checker must pass an opposing one."""
    mine = boards[:, 1:27] > 0
    theirs = boards[:, _SIDE + 1 : _SIDE + 27] > 0
    index = np.arange(1, 27)
    my_back = np.where(mine, np.minimum(index, 25), 0).max(axis=1)
    their_back = np.where(theirs, np.minimum(index, 25), 0).max(axis=1)
    return np.asarray(my_back + their_back > 25)


def encode_boards(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """Encode ``(n, 54)`` int8 boards as ``(n, INPUT_SIZE)`` float32 inputs."""
    n = boards.shape[0]
    out = np.empty((n, INPUT_SIZE), dtype=np.float32)
    counts = boards.astype(np.float32)
    pips = counts.reshape(n, 2, _SIDE) @ _PIP_WEIGHTS
    for side in range(2):
        base = side * _SIDE
        points = counts[:, base + 1 : base + 25]
        block = out[:, side * _PER_SIDE : side * _PER_SIDE + 96].reshape(n, 24, 4)
        block[:, :, 0] = points >= 1
        block[:, :, 1] = points >= 2
        block[:, :, 2] = points >= 3
        block[:, :, 3] = np.maximum(points - 3, 0) * 0.5
        tail = side * _PER_SIDE + 96
        out[:, tail] = counts[:, base + 25] * 0.5
        out[:, tail + 1] = counts[:, base] / 15.0
        out[:, tail + 2] = counts[:, base + 26] / 15.0
        out[:, tail + 3] = pips[:, side] / 100.0
    out[:, -2] = is_contact_boards(boards)
    out[:, -1] = (pips[:, 1] - pips[:, 0]) / 50.0
    return out
