"""Numba kernel behind :class:`gammon.engine.evaluator.Evaluator` at 0-ply.

``Evaluator.on_roll`` sends each board to the method made for its class: a lost
game and a game sure to be won are counted, a bear-off comes from the one-sided
database, a race goes to the race net and the rest to the contact net.  Written
as NumPy masks, that is a dozen small array operations per call, and a 0-ply
play choice calls it on one roll's candidates (about 20 boards), where those
operations cost more than the network itself.  :func:`zero_ply` walks the
boards once instead: it classifies each, fills the exact rows, encodes the rest
for their net (the encoders of :mod:`gammon.engine._feature_kernels`) and runs
the nets' forward pass, reading only the inputs that are not zero (three in
four are: most points are empty).

The figures are the NumPy definition's to float32 rounding: the sums of the
first layer run in another order than BLAS's, and ``exp`` is the C library's
rather than NumPy's (``tests/engine/test_evaluator_kernels.py`` compares the
two on random boards).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from gammon.engine._bearoff_kernels import home_index, race
from gammon.engine._feature_kernels import (
    contact_features,
    has_contact,
    race_features,
    raw_inputs,
)

__all__ = ["CONTACT", "RACE", "RAW", "best_equity", "zero_ply"]

#: Encodings a net may read, named by :func:`zero_ply`'s ``kind`` arguments.
RAW = 0
CONTACT = 1
RACE = 2

_SIDE = 27
_BOARD = 54
_RAW_INPUTS = 202
#: Bear-offs that finish in one roll with this chance or more are certain (R9).
_CERTAIN = 1.0 - 1e-6


@njit(cache=True, nogil=True)
def _won(boards: Any, row: int, winner: int, out: Any, k: int) -> None:
    """``out[k]``: the outcome for the side at ``winner`` that bore off all (R9)."""
    loser = _SIDE - winner
    out[k, 0] = 1.0
    out[k, 1] = 0.0
    out[k, 2] = 0.0
    out[k, 3] = 0.0
    out[k, 4] = 0.0
    if boards[row, loser] == 0:
        out[k, 1] = 1.0
        back = boards[row, loser + 25] > 0 or boards[row, loser + 26] > 0
        for p in range(19, 25):
            if boards[row, loser + p] > 0:
                back = True
        if back:
            out[k, 2] = 1.0


@njit(cache=True, nogil=True)
def _invert_row(out: Any, k: int) -> None:
    """``out[k]`` seen from the other side: my win is their loss, my gammon theirs."""
    win, win_gammon, win_bg = out[k, 0], out[k, 1], out[k, 2]
    out[k, 0] = np.float32(1.0) - win
    out[k, 1] = out[k, 3]
    out[k, 2] = out[k, 4]
    out[k, 3] = win_gammon
    out[k, 4] = win_bg


@njit(cache=True, nogil=True)
def _sigmoid(x: Any) -> Any:
    one = np.float32(1.0)
    return one / (one + np.exp(-x))


@njit(cache=True, nogil=True)
def _forward(x: Any, count: int, net: Any, rows: Any, out: Any) -> None:
    """The net's five chances of ``x[:count]`` into ``out[rows[:count]]``.

    As :meth:`gammon.engine.network.Network.forward`, including its clipping; the
    first layer adds up only the weights of inputs that are not zero.
    """
    w1, b1, w2, b2 = net
    inputs, hidden = w1.shape
    h = np.empty(hidden, dtype=np.float32)
    for r in range(count):
        h[:] = 0.0
        for i in range(inputs):
            v = x[r, i]
            if v != 0.0:
                for j in range(hidden):
                    h[j] += v * w1[i, j]
        for j in range(hidden):
            h[j] = _sigmoid(h[j] + b1[j])
        k = rows[r]
        s0 = s1 = s2 = s3 = s4 = np.float32(0.0)
        for j in range(hidden):  # five sums side by side, each in the order of j
            hj = h[j]
            s0 += hj * w2[j, 0]
            s1 += hj * w2[j, 1]
            s2 += hj * w2[j, 2]
            s3 += hj * w2[j, 3]
            s4 += hj * w2[j, 4]
        out[k, 0] = _sigmoid(s0 + b2[0])
        out[k, 1] = _sigmoid(s1 + b2[1])
        out[k, 2] = _sigmoid(s2 + b2[2])
        out[k, 3] = _sigmoid(s3 + b2[3])
        out[k, 4] = _sigmoid(s4 + b2[4])
        win = out[k, 0]
        out[k, 1] = min(out[k, 1], win)
        out[k, 2] = min(out[k, 2], out[k, 1])
        out[k, 3] = min(out[k, 3], np.float32(1.0) - win)
        out[k, 4] = min(out[k, 4], out[k, 3])


@njit(cache=True, nogil=True)
def _encode(boards: Any, x: Any, kind: int, tables: Any) -> None:
    """``boards`` in the encoding ``kind`` (see :mod:`gammon.engine.encoding`) into ``x``."""
    escapes, binom, mean_rolls, mean_first = tables
    raw_inputs(boards, x)
    if kind == CONTACT:
        contact_features(boards, x, _RAW_INPUTS, escapes)
    elif kind == RACE:
        race_features(boards, x, _RAW_INPUTS, binom, mean_rolls, mean_first)


@njit(cache=True, nogil=True)
def zero_ply(
    boards: Any,
    after: bool,
    out: Any,
    bearoff: Any,
    contact_net: Any,
    contact_kind: int,
    race_net: Any,
    race_kind: int,
    tables: Any,
) -> None:
    """0-ply chances of raw ``(n, 54)`` boards into ``out`` (``(n, 5)`` float32).

    ``after`` False: each board has its player on roll, and ``out`` holds that
    player's chances (``Evaluator.on_roll``).  ``after`` True: each board was just
    moved to by its first side, and ``out`` holds the mover's chances with the
    other side on roll (``Evaluator.after_play`` at 0-ply).

    ``bearoff`` is the one-sided database's ``(rolls, first_off)``, or ``None`` to
    send bear-offs to the nets; ``contact_net`` and ``race_net`` are
    ``(w1, b1, w2, b2)`` with the encoding each reads (the same net twice when
    races have none of their own); ``tables`` are the encoders' tables
    (``ESCAPES``, ``BINOM`` and the one-sided means).
    """
    n = boards.shape[0]
    seen = np.empty((n, _BOARD), dtype=np.int8)
    kind = np.empty(n, dtype=np.int64)
    for row in range(n):
        kind[row] = _classify(boards, row, after, seen, out, bearoff)
    for which in range(2):
        rows = np.flatnonzero(kind == which)
        if rows.size == 0:
            continue
        net = contact_net if which == 0 else race_net
        encoding = contact_kind if which == 0 else race_kind
        x = np.empty((rows.size, net[0].shape[0]), dtype=np.float32)
        _encode(seen[rows], x, encoding, tables)
        _forward(x, rows.size, net, rows, out)
        if after:
            for k in rows:
                _invert_row(out, int(k))


@njit(cache=True, nogil=True, inline="always")
def _classify(boards: Any, row: int, after: bool, seen: Any, out: Any, bearoff: Any) -> int:
    """Which net reads board ``row``: 0 the contact net, 1 the race net, -1 none, its
    chances counted here into ``out[row]`` (a game over, a bear-off, a sure win).

    ``seen[row]`` gets the board from the side on roll, the one the nets read.
    """
    if after:
        total = 0
        for p in range(_SIDE):
            total += boards[row, p]
        if boards[row, 0] == total:  # the mover bore off all
            _won(boards, row, 0, out, row)
            return -1
        for p in range(_SIDE):
            seen[row, p] = boards[row, _SIDE + p]
            seen[row, _SIDE + p] = boards[row, p]
    else:
        seen[row] = boards[row]
    total = 0
    for p in range(_SIDE):
        total += seen[row, p]
    if seen[row, _SIDE] == total:  # the side not on roll bore off all
        _won(seen, row, _SIDE, out, row)
        _invert_row(out, row)
    elif bearoff is None or not _counted(seen, row, bearoff, out):
        return 0 if has_contact(seen, row) else 1
    if after:
        _invert_row(out, row)
    return -1


@njit(cache=True, nogil=True)
def _counted(seen: Any, row: int, bearoff: Any, out: Any) -> bool:
    """Fill ``out[row]`` from the one-sided database if the game is a bear-off or sure
    to be won this roll by the side on roll; whether it was."""
    rolls, first_off = bearoff
    mine = home_index(seen, row, 0)
    if mine < 0:
        return False
    theirs = home_index(seen, row, _SIDE)
    if theirs >= 0:
        win, win_gammon, lose_gammon = race(rolls, first_off, mine, theirs)
        out[row, 0] = win
        out[row, 1] = win_gammon if seen[row, _SIDE] == 0 else 0.0
        out[row, 2] = 0.0
        out[row, 3] = lose_gammon if seen[row, 0] == 0 else 0.0
        out[row, 4] = 0.0
        return True
    if rolls[mine, 1] > _CERTAIN:  # bears off whatever the dice: decided (R9)
        _won(seen, row, 0, out, row)
        return True
    return False


@njit(cache=True, nogil=True)
def best_equity(values: Any) -> int:
    """The first row of the highest cubeless equity (:func:`gammon.engine.network.equity`)."""
    best = 0
    top = -np.inf
    for row in range(values.shape[0]):
        p = values[row]
        e = 2.0 * np.float64(p[0]) - 1.0 + np.float64(p[1]) - np.float64(p[3])
        e = e + np.float64(p[2]) - np.float64(p[4])
        if e > top:
            best, top = row, e
    return best
