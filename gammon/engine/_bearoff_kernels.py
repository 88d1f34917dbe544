"""Numba kernels behind :mod:`gammon.engine.bearoff`: indexing, bear-off moves, the two DPs.

A home board is six counts ``c[0..5]`` (``c[0]`` on the 1-point).  Its index is
the combinatorial number system applied to the six "separators" of a
stars-and-bars picture read from the 6-point down::

    s_k = c[5] + c[4] + ... + c[6-k] + (k - 1)        k = 1..6
    index = C(s_1, 1) + C(s_2, 2) + ... + C(s_6, 6)

``0 <= s_1 < s_2 < ... < s_6 = n + 5`` (``n`` checkers on the board), so this is a
bijection onto ``0 .. C(21, 6) - 1`` for up to 15 checkers.  Read from the top,
every move (a checker going down, or off) lowers some ``s_k`` and raises none,
so **every play leads to a smaller index**: the DPs run in index order.  And the
boards with at most ``n`` checkers are exactly the indices below ``C(n + 6, 6)``,
so the two-sided table is a corner of the same numbering.  The empty board is 0.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from numba import njit

__all__ = [
    "POINTS",
    "MAX_CHECKERS",
    "BINOM",
    "ROLL_DICE",
    "ROLL_WEIGHTS",
    "index_of",
    "all_boards",
    "successors",
    "one_sided",
    "successor_table",
    "two_sided",
    "race",
    "race_batch",
    "board_indices",
    "home_index",
    "home_indices",
]

POINTS = 6
MAX_CHECKERS = 15


def _binomials() -> Any:
    table = np.zeros((MAX_CHECKERS + POINTS + 1, POINTS + 1), dtype=np.int64)
    for n in range(table.shape[0]):
        table[n, 0] = 1
        for k in range(1, min(n, POINTS) + 1):
            table[n, k] = table[n - 1, k - 1] + (table[n - 1, k] if k < n else 0)
    return table


#: ``BINOM[n, k]`` = C(n, k) for n <= 21, k <= 6.
BINOM = _binomials()

#: The 21 distinct rolls (high die, low die) and how many of the 36 throws give each.
ROLL_DICE = np.array([(h, lo) for h in range(1, 7) for lo in range(1, h + 1)], dtype=np.int64)
ROLL_WEIGHTS = np.array([1.0 if h == lo else 2.0 for h, lo in ROLL_DICE], dtype=np.float64)


@njit(cache=True, nogil=True)
def index_of(counts: Any) -> int:
    """The index of a home board (six counts, 1-point first); see the module docstring."""
    index = 0
    s = -1
    for k in range(1, POINTS + 1):
        s += counts[POINTS - k] + 1
        index += BINOM[s, k]
    return index


def all_boards() -> Any:
    """Every board with at most 15 checkers, as a (54264, 6) int8 table in index order."""
    # The separators are every strictly increasing 6-tuple from 0..20.
    separators = np.array(
        list(itertools.combinations(range(MAX_CHECKERS + POINTS), POINTS)), dtype=np.int64
    )
    indices = BINOM[separators, np.arange(1, POINTS + 1)].sum(axis=1)
    gaps = np.diff(separators, axis=1, prepend=-1) - 1  # c[5], c[4], ..., c[0]
    table = np.zeros((len(separators), POINTS), dtype=np.int8)
    table[indices] = gaps[:, ::-1]
    return table


@njit(cache=True, nogil=True)
def _move(counts: Any, point: int, die: int) -> bool:
    """Play one die from ``point`` (1-6) inside the home board or off, if the rules allow (R8)."""
    if counts[point - 1] == 0:
        return False
    target = point - die
    if target < 0:
        # A die larger than needed bears off only from the highest occupied point.
        for higher in range(point, POINTS):
            if counts[higher] > 0:
                return False
    counts[point - 1] -= 1
    if target > 0:
        counts[target - 1] += 1
    return True


@njit(cache=True, nogil=True)
def successors(start: Any, die1: int, die2: int, out: Any, dedupe: bool) -> int:
    """Write the indices of the boards the roll can lead to into ``out``; return how many.

    With every checker home, each die can always be played while a checker is
    left (the highest checker moves down or off), so R5 never removes a play:
    the plays are every way to move the dice, stopping when the board is empty.
    For doubles, moves are tried from non-increasing points only, which still
    reaches every result.  Without ``dedupe`` a board may be listed twice.
    """
    count = 0
    double = die1 == die2
    n_dice = 4 if double else 2
    dice = np.empty(4, dtype=np.int64)
    boards = np.empty((5, POINTS), dtype=np.int64)
    next_point = np.empty(5, dtype=np.int64)
    for order in range(1 if double else 2):
        for i in range(n_dice):
            dice[i] = die1 if (double or (i == 0) == (order == 0)) else die2
        boards[0] = start
        next_point[0] = POINTS
        depth = 0
        while depth >= 0:
            point = next_point[depth]
            if point == 0:
                depth -= 1
                continue
            next_point[depth] = point - 1
            boards[depth + 1] = boards[depth]
            if not _move(boards[depth + 1], point, dice[depth]):
                continue
            left = boards[depth + 1].sum()
            if depth + 1 == n_dice or left == 0:
                index = index_of(boards[depth + 1])
                duplicate = False
                if dedupe:
                    for k in range(count):
                        if out[k] == index:
                            duplicate = True
                            break
                if not duplicate:
                    out[count] = index
                    count += 1
            else:
                depth += 1
                next_point[depth] = point if double else POINTS
    return count


@njit(cache=True)
def one_sided(boards: Any, bins: int) -> tuple[Any, Any, Any, Any]:
    """Roll-count distributions of every board, playing to minimise the expected count.

    Returns ``(rolls, first_off, mean_rolls, mean_first_off)``: ``rolls[i, n]`` is
    the chance board ``i`` needs exactly ``n`` rolls to bear off every checker,
    ``first_off[i, n]`` the chance its first checker comes off on roll ``n`` (each
    with its own best play); the last bin also holds anything longer.  The means
    are exact (not from the truncated bins).
    """
    total = boards.shape[0]
    rolls = np.zeros((total, bins), dtype=np.float64)
    first = np.zeros((total, bins), dtype=np.float64)
    mean = np.zeros(total, dtype=np.float64)
    mean_first = np.zeros(total, dtype=np.float64)
    rolls[0, 0] = 1.0
    first[0, 0] = 1.0
    out = np.empty(2048, dtype=np.int64)
    counts = np.zeros(total, dtype=np.int64)
    for i in range(total):
        counts[i] = boards[i].sum()
    for i in range(1, total):
        m = 1.0
        mf = 1.0
        for r in range(ROLL_DICE.shape[0]):
            w = ROLL_WEIGHTS[r] / 36.0
            found = successors(boards[i], ROLL_DICE[r, 0], ROLL_DICE[r, 1], out, False)
            best = -1
            best_first = -1
            bears_off = False
            for k in range(found):
                j = out[k]
                if best < 0 or mean[j] < mean[best]:
                    best = j
                if counts[j] < counts[i]:
                    bears_off = True
                elif best_first < 0 or mean_first[j] < mean_first[best_first]:
                    best_first = j
            m += w * mean[best]
            for n in range(bins - 1):
                rolls[i, n + 1] += w * rolls[best, n]
            rolls[i, bins - 1] += w * rolls[best, bins - 1]
            if bears_off:
                first[i, 1] += w
            else:
                mf += w * mean_first[best_first]
                for n in range(bins - 1):
                    first[i, n + 1] += w * first[best_first, n]
                first[i, bins - 1] += w * first[best_first, bins - 1]
        mean[i] = m
        mean_first[i] = mf
    return rolls, first, mean, mean_first


@njit(cache=True)
def successor_table(boards: Any, size: int) -> tuple[Any, Any]:
    """Distinct successors of boards ``0 .. size-1`` for each of the 21 rolls, as CSR arrays.

    The successors of board ``i`` with roll ``r`` are
    ``succ[start[21 * i + r] : start[21 * i + r + 1]]``.
    """
    n_rolls = ROLL_DICE.shape[0]
    start = np.zeros(size * n_rolls + 1, dtype=np.int64)
    capacity = size * n_rolls * 8 + 64
    succ = np.empty(capacity, dtype=np.int32)
    out = np.empty(2048, dtype=np.int64)
    used = 0
    for i in range(size):
        for r in range(n_rolls):
            found = 0
            if i > 0:
                found = successors(boards[i], ROLL_DICE[r, 0], ROLL_DICE[r, 1], out, True)
            if used + found > succ.shape[0]:
                bigger = np.empty(2 * succ.shape[0] + found, dtype=np.int32)
                bigger[:used] = succ[:used]
                succ = bigger
            for k in range(found):
                succ[used + k] = out[k]
            used += found
            start[i * n_rolls + r + 1] = used
    return start, succ[:used].copy()


@njit(cache=True)
def two_sided(start: Any, succ: Any, size: int) -> Any:
    """Exact cubeless chances for the player on roll, both sides playing to win.

    ``table[i, j]``: I have board ``i`` and am on roll, the opponent has board
    ``j``.  A play takes me from ``i`` to a smaller ``i'``, then the opponent is on
    roll in ``table[j, i']``.  Filling shell ``m = max(i, j)`` after the smaller
    shells, first ``table[m, j < m]`` (it needs only smaller shells), then
    ``table[i <= m, m]`` (it needs row ``m`` below column ``i``), keeps every
    dependency ready.  A transposed copy makes both passes read memory in order.
    ``table[i, 0] = 0`` (the opponent is off) and ``table[0, j] = 1``.
    """
    n_rolls = ROLL_DICE.shape[0]
    table = np.zeros((size, size), dtype=np.float64)
    flipped = np.zeros((size, size), dtype=np.float64)  # flipped[j, i] = table[i, j]
    table[0, 1:] = 1.0
    flipped[1:, 0] = 1.0
    best = np.empty(size, dtype=np.float64)
    for m in range(1, size):
        # Row m, left of the diagonal: table[m, j] = sum_r w_r max_i' (1 - table[j, i']).
        row = table[m]
        row[:m] = 0.0
        for r in range(n_rolls):
            best[:m] = 0.0
            for k in range(start[m * n_rolls + r], start[m * n_rolls + r + 1]):
                column = flipped[succ[k]]
                for j in range(1, m):
                    value = 1.0 - column[j]
                    if value > best[j]:
                        best[j] = value
            w = ROLL_WEIGHTS[r] / 36.0
            for j in range(1, m):
                row[j] += w * best[j]
        for j in range(1, m):
            flipped[j, m] = row[j]
        # Column m, down to the diagonal: table[i, m] reads row m only.
        for i in range(1, m + 1):
            total = 0.0
            for r in range(n_rolls):
                top = 0.0
                for k in range(start[i * n_rolls + r], start[i * n_rolls + r + 1]):
                    value = 1.0 - row[succ[k]]
                    if value > top:
                        top = value
                total += ROLL_WEIGHTS[r] * top
            table[i, m] = total / 36.0
            flipped[m, i] = table[i, m]
    return table


@njit(cache=True, nogil=True)
def race(rolls: Any, first_off: Any, mine: int, theirs: int) -> tuple[float, float, float]:
    """(win, win gammon, lose gammon) of board ``mine`` on roll against board ``theirs``.

    I finish on my roll ``n``, when the opponent has had ``n - 1`` rolls: I win if
    they need ``n`` or more, and win a gammon if their first checker is not off
    by then.  They finish on their roll ``n``, after my ``n``-th: I lose a gammon
    if my first checker is still on.  The gammon terms hold only when the loser
    has nothing off yet; the caller decides that.
    """
    a = rolls[mine]
    b = rolls[theirs]
    my_first = first_off[mine]
    their_first = first_off[theirs]
    win = 0.0
    win_gammon = 0.0
    lose_gammon = 0.0
    b_before = 0.0  # P(they need fewer than n rolls)
    their_first_before = 0.0
    my_first_by = 0.0  # P(my first checker is off by roll n)
    for n in range(a.shape[0]):
        win += a[n] * (1.0 - b_before)
        win_gammon += a[n] * (1.0 - their_first_before)
        b_before += b[n]
        their_first_before += their_first[n]
        my_first_by += my_first[n]
        lose_gammon += b[n] * (1.0 - my_first_by)
    win = min(max(win, 0.0), 1.0)
    win_gammon = min(max(win_gammon, 0.0), win)
    lose_gammon = min(max(lose_gammon, 0.0), 1.0 - win)
    return win, win_gammon, lose_gammon


@njit(cache=True, nogil=True)
def race_batch(
    rolls: Any, first_off: Any, mine: Any, theirs: Any, my_off: Any, their_off: Any
) -> Any:
    """:func:`race` over rows, as (n, 5) chances; gammons only against a side with none off."""
    out = np.zeros((mine.shape[0], 5), dtype=np.float64)
    for row in range(mine.shape[0]):
        win, win_gammon, lose_gammon = race(rolls, first_off, mine[row], theirs[row])
        out[row, 0] = win
        if their_off[row] == 0:
            out[row, 1] = win_gammon
        if my_off[row] == 0:
            out[row, 3] = lose_gammon
    return out


@njit(cache=True, nogil=True)
def home_index(boards: Any, row: int, base: int) -> int:
    """The index of the home board of the side at ``boards[row, base:base + 27]``, or -1.

    -1 when that side has a checker outside its home board (points 7-24, the bar,
    waiting) or none or more than 15 on it.
    """
    for p in range(7, 27):
        if boards[row, base + p] != 0:
            return -1
    on_board = 0
    for p in range(1, 7):
        on_board += boards[row, base + p]
    if on_board == 0 or on_board > MAX_CHECKERS:
        return -1
    index = 0
    s = -1
    for k in range(1, POINTS + 1):
        s += boards[row, base + POINTS + 1 - k] + 1
        index += BINOM[s, k]
    return index


@njit(cache=True, nogil=True)
def board_indices(boards: Any) -> tuple[Any, Any, Any]:
    """For raw (n, 54) generator boards: which are bear-offs, and both sides' indices.

    A bear-off here: nothing on points 7-24, the bar or waiting for either side,
    1 to 15 checkers on each home board.  Indices of other rows are 0.
    """
    n = boards.shape[0]
    valid = np.zeros(n, dtype=np.bool_)
    mine = np.zeros(n, dtype=np.int64)
    theirs = np.zeros(n, dtype=np.int64)
    for row in range(n):
        my_index = home_index(boards, row, 0)
        their_index = home_index(boards, row, 27)
        if my_index >= 0 and their_index >= 0:
            valid[row] = True
            mine[row] = my_index
            theirs[row] = their_index
    return valid, mine, theirs


@njit(cache=True, nogil=True)
def home_indices(boards: Any) -> Any:
    """For raw (n, 54) boards: the index of the player on roll's home board, or -1.

    The opponent's side is not looked at (see :func:`home_index`).
    """
    n = boards.shape[0]
    out = np.full(n, -1, dtype=np.int64)
    for row in range(n):
        out[row] = home_index(boards, row, 0)
    return out
