"""Numba kernels behind the hand-made inputs of :mod:`gammon.engine.encoding`.

Each kernel reads raw ``(n, 54)`` generator boards (27 bytes per side, the
player on roll first: 0 off, 1-24 points, 25 bar, 26 waiting) and writes one
row of float32 inputs per board, for both sides, so a whole roll's candidates
are described in one compiled loop.  What each input means, and why it
matters, is written next to its name in :mod:`gammon.engine.encoding`.

Geometry, for a side ``me`` and its opponent ``opp`` (each counted in its own
numbering, 1 = its own ace point): my point ``p`` is the opponent's point
``25 - p``; moving ``k`` pips takes my checker from ``p`` to ``p - k``, the
opponent's from ``q`` to ``q - k``.  A point is *made* (blocks) with two or
more checkers on it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = [
    "CONTACT_FEATURES",
    "ESCAPES",
    "RACE_FEATURES",
    "contact_features",
    "contact_flags",
    "has_contact",
    "race_features",
    "raw_inputs",
]

#: Inputs per side written by :func:`contact_features` and :func:`race_features`.
CONTACT_FEATURES = 21
RACE_FEATURES = 9

_SIDE = 27


def _escape_table() -> Any:
    """Rolls of 36 that carry a checker past a 12-point window of blocks, per block mask.

    Bit ``k - 1`` of the mask is set when the point ``k`` pips ahead is made by
    the opponent.  A non-double ``a-b`` escapes when the point ``a + b`` ahead is
    open and at least one of the points ``a`` or ``b`` ahead (where the checker
    would stop between dice) is open; a double ``d-d`` when the points ``d`` and
    ``2d`` ahead are open.  This is GNU Backgammon's count of escaping rolls.
    """
    table = np.zeros(1 << 12, dtype=np.float32)
    for mask in range(1 << 12):
        count = 0
        for a in range(1, 7):
            for b in range(1, 7):
                if a == b:
                    ok = not (mask >> (a - 1)) & 1 and not (mask >> (2 * a - 1)) & 1
                else:
                    ok = not (mask >> (a + b - 1)) & 1 and not (
                        (mask >> (a - 1)) & 1 and (mask >> (b - 1)) & 1
                    )
                count += ok
        table[mask] = count
    return table


#: ``ESCAPES[mask]``: rolls of 36 that escape the blocks in ``mask`` (see above).
ESCAPES = _escape_table()


@njit(cache=True, nogil=True, inline="always")
def blocks(blocker: Any, bb: int) -> int:
    """The points ``blocker`` has made, as its opponent (the runner) numbers them, in bits.

    Bit ``24 - t`` is set when the runner's point ``t`` (1-24) is made, so the
    12 points ahead of a runner on ``p`` are the 12 bits from ``25 - p`` up.
    """
    bits = 0
    for t in range(1, 25):
        if blocker[bb + 25 - t] >= 2:
            bits |= 1 << (24 - t)
    return bits


@njit(cache=True, nogil=True, inline="always")
def escapes(blocked: int, p: int, table: Any) -> float:
    """Escaping rolls for a checker on its point ``p`` (25 the bar) past :func:`blocks`."""
    return float(table[(blocked >> (25 - p)) & 0xFFF])


#: The 21 rolls (high die, low die) and their weight of 36.
_ROLL_HIGH = np.array([h for h in range(1, 7) for lo in range(1, h + 1)], dtype=np.int64)
_ROLL_LOW = np.array([lo for h in range(1, 7) for lo in range(1, h + 1)], dtype=np.int64)
_ROLL_WEIGHT = np.where(_ROLL_HIGH == _ROLL_LOW, 1.0, 2.0)
#: The opponent's bar as a bit (see :func:`_shots`).
_BAR_BIT = 1 << 25


@njit(cache=True, nogil=True)
def _shots(me: Any, mb: int, opp: Any, ob: int, on_bar: int) -> tuple[float, float, float]:
    """The opponent's rolls (of 36) that hit a blot of mine, that can hit two, and the
    pips of the worst hit summed over them.

    Points are bits: bit ``t`` is the opponent's point ``t`` (my ``25 - t``), bit 25
    its bar, so a checker moving ``d`` pips is a shift right by ``d``.  Each roll's
    hits are a few shifts of the opponent's checkers, kept to the points it may
    stop on (fewer than two of mine) between dice and masked by my blots.  With
    ``on_bar`` checkers on its bar the opponent enters first: one on the bar frees
    the other die (or the rest of a double) once it is in, two or more leave only
    what the entering checkers hit.  ``tests/engine/test_encoding.py`` holds this
    to a roll-by-roll reading of the same rules.
    """
    checkers, stops, blots = _shot_points(me, mb, opp, ob)
    if blots == 0:
        return 0.0, 0.0, 0.0
    shots = 0.0
    doubles = 0.0
    loss = 0.0
    for r in range(21):
        a = _ROLL_HIGH[r]
        b = _ROLL_LOW[r]
        if a != b:
            hit = _hits_of_a_roll(a, b, on_bar, checkers, stops) & blots
        else:
            hit = _hits_of_a_double(a, on_bar, checkers, stops) & blots
        if hit == 0:
            continue
        weight = _ROLL_WEIGHT[r]
        shots += weight
        if hit & (hit - 1):
            doubles += weight
        # The worst hit is on my lowest point: the opponent's highest.
        t = 24
        while not (hit >> t) & 1:
            t -= 1
        loss += weight * t
    return shots, doubles, loss


@njit(cache=True, nogil=True, inline="always")
def _shot_points(me: Any, mb: int, opp: Any, ob: int) -> tuple[int, int, int]:
    """In :func:`_shots`'s bits: the opponent's checkers, the points it may stop on
    (fewer than two of mine) and my blots."""
    checkers = 0
    stops = 0
    blots = 0
    for t in range(1, 25):
        if opp[ob + t] > 0:
            checkers |= 1 << t
        mine = me[mb + 25 - t]
        if mine < 2:
            stops |= 1 << t
            if mine == 1:
                blots |= 1 << t
    return checkers, stops, blots


@njit(cache=True, nogil=True, inline="always")
def _hits_of_a_roll(a: int, b: int, on_bar: int, checkers: int, stops: int) -> int:
    """The points a non-double ``a-b`` reaches, in :func:`_shots`'s bits."""
    if on_bar == 0:
        # Either die alone, or both with a stop between on an open point.
        hit = (checkers >> a) | (checkers >> b)
        return hit | ((checkers >> a) & stops) >> b | ((checkers >> b) & stops) >> a
    in_a = (_BAR_BIT >> a) & stops
    in_b = (_BAR_BIT >> b) & stops
    hit = in_a | in_b
    if on_bar == 1:
        # The entering checker or any other plays the other die.
        hit |= (in_a >> b) | (in_b >> a)
        if in_a:
            hit |= checkers >> b
        if in_b:
            hit |= checkers >> a
    return hit


@njit(cache=True, nogil=True, inline="always")
def _hits_of_a_double(a: int, on_bar: int, checkers: int, stops: int) -> int:
    """The points ``a-a`` reaches: up to four steps of ``a``, each from a point the
    checker may stop on; none if it cannot enter from the bar."""
    hit = 0
    steps = 4
    if on_bar > 0:
        reach = (_BAR_BIT >> a) & stops
        if reach == 0:
            return 0  # cannot enter: the whole roll is lost
        hit = reach
        entered = min(on_bar, 4)
        steps = 4 - entered
        for _ in range(steps):  # one entered checker runs on
            reach = (reach >> a) & stops
            hit |= reach
    if on_bar <= 1:
        reach = checkers
        for _ in range(steps):
            reach >>= a
            hit |= reach
            reach &= stops
    return hit


@njit(cache=True, nogil=True, inline="always")
def _rearmost(side: Any, base: int, on_bar: int) -> int:
    """The side's rearmost checker's point in its own numbering (25: the bar, 0: none)."""
    if on_bar > 0:
        return 25
    for p in range(24, 0, -1):
        if side[base + p] > 0:
            return p
    return 0


@njit(cache=True, nogil=True, inline="always")
def _escape_features(
    me: Any, mb: int, opp: Any, ob: int, my_bar: int, back: int, out: Any, row: int, col: int,
    table: Any,
) -> None:  # fmt: skip
    """0, 1: escapes of my rearmost checker and of the next one behind; 2: my containment,
    the fewest escaping rolls of an opponent checker on its 15-24 points."""
    mine_blocked = blocks(opp, ob)
    out[row, col + 0] = escapes(mine_blocked, back, table) / 36.0 if back > 0 else 1.0
    second = back
    count_back = my_bar if back == 25 else (me[mb + back] if back > 0 else 0)
    if count_back < 2:
        second = 0
        for p in range(back - 1, 0, -1):
            if me[mb + p] > 0:
                second = p
                break
    out[row, col + 1] = escapes(mine_blocked, second, table) / 36.0 if second > 0 else 1.0
    fewest = 36.0
    theirs_blocked = blocks(me, mb)
    for q in range(15, 25):
        e = escapes(theirs_blocked, q, table)
        if e < fewest:
            fewest = e
    out[row, col + 2] = (36.0 - fewest) / 36.0


@njit(cache=True, nogil=True, inline="always")
def _prime_features(me: Any, mb: int, opp_back: int, out: Any, row: int, col: int) -> None:
    """3: my longest prime; 4, 5: my longest prime in front of the opponent's rearmost
    checker and how far in front of it that prime starts."""
    longest = 0
    run = 0
    for p in range(1, 25):
        if me[mb + p] >= 2:
            run += 1
            if run > longest:
                longest = run
        else:
            run = 0
    out[row, col + 3] = longest / 6.0
    trap = 0
    gap = 24
    if opp_back > 0:
        start = 25 - opp_back  # the opponent's rearmost checker, in my numbering
        run = 0
        for p in range(start + 1, 25):
            if me[mb + p] >= 2:
                run += 1
                if run > trap:
                    trap = run
                    gap = p - run + 1 - start - 1  # empty points between checker and prime
            else:
                run = 0
    out[row, col + 4] = trap / 6.0
    out[row, col + 5] = min(gap, 6) / 6.0 if trap > 0 else 1.0


@njit(cache=True, nogil=True, inline="always")
def _progress_features(
    me: Any, mb: int, my_bar: int, opp_back: int, out: Any, row: int, col: int
) -> None:
    """How far my checkers have to go: 9 timing (pips my spare checkers outside home can
    play before they reach it), 10 checkers buried on my 1-3 points, 14 crossovers, 15
    checkers home or off, 16 pips I need to pass every opponent checker."""
    timing = my_bar * 19
    for p in range(7, 25):
        c = me[mb + p]
        spare = c - 2 if c >= 2 else c
        timing += spare * (p - 6)
    out[row, col + 9] = timing / 100.0
    out[row, col + 10] = (me[mb + 1] + me[mb + 2] + me[mb + 3]) / 15.0
    cross = my_bar * 4
    home = me[mb + 0]
    for p in range(1, 25):
        c = me[mb + p]
        if p <= 6:
            home += c
        else:
            cross += c * ((p - 1) // 6)
    out[row, col + 14] = cross / 30.0
    out[row, col + 15] = home / 15.0
    passing = 0
    if opp_back > 0:
        front = 25 - opp_back  # the opponent's rearmost checker on my numbering
        for p in range(front + 1, 26):
            c = my_bar if p == 25 else me[mb + p]
            passing += c * (p - front + 1)
    out[row, col + 16] = passing / 100.0


@njit(cache=True, nogil=True, inline="always")
def _board_features(
    me: Any, mb: int, opp: Any, ob: int, my_bar: int, back: int, out: Any, row: int, col: int
) -> None:
    """Where my checkers stand against the opponent's points: 11 mobility, 12 an anchor in
    its home board, 13 my most advanced point there, 17 the chance I dance, 18 my home
    points made, 19 my rearmost checker's point, 20 my checkers in its home or on the bar."""
    # Mobility: share of (checker, die) moves that land on a point not made by the
    # opponent (moves to or past my own 0 point are not counted).
    free = 0
    tried = 0
    for p in range(1, 26):
        c = my_bar if p == 25 else me[mb + p]
        if c == 0:
            continue
        for d in range(1, 7):
            t = p - d
            if t < 1:
                break
            tried += c
            if opp[ob + 25 - t] < 2:
                free += c
    out[row, col + 11] = free / tried if tried > 0 else 1.0
    # The anchor, and my most advanced point on the opponent's 1- to 10-points (twelfths).
    anchor = 0.0
    forward = 0.0
    for p in range(15, 25):
        if me[mb + p] >= 2:
            if p >= 19:
                anchor = 1.0
            if forward == 0.0:
                forward = (25 - p) / 12.0
    out[row, col + 12] = anchor
    out[row, col + 13] = forward
    closed = 0
    mine_made = 0
    for t in range(1, 7):
        if opp[ob + t] >= 2:
            closed += 1
        if me[mb + t] >= 2:
            mine_made += 1
    out[row, col + 17] = (closed / 6.0) ** 2 if my_bar > 0 else 0.0
    out[row, col + 18] = mine_made / 6.0
    out[row, col + 19] = back / 25.0
    deep = my_bar
    for p in range(19, 25):
        deep += me[mb + p]
    out[row, col + 20] = deep / 15.0


@njit(cache=True, nogil=True)
def _contact_side(
    me: Any, mb: int, opp: Any, ob: int, out: Any, row: int, col: int, table: Any
) -> None:
    """The :data:`CONTACT_FEATURES` inputs of the side at ``me[mb:]`` against ``opp[ob:]``,
    by group (each inlined here by Numba: one compiled function, as before the split)."""
    my_bar = me[mb + 25] + me[mb + 26]
    opp_bar = opp[ob + 25] + opp[ob + 26]
    back = _rearmost(me, mb, my_bar)
    opp_back = _rearmost(opp, ob, opp_bar)
    _escape_features(me, mb, opp, ob, my_bar, back, out, row, col, table)
    _prime_features(me, mb, opp_back, out, row, col)
    # 6, 7, 8: the opponent's shots at my blots over its 36 rolls: rolls that hit,
    # rolls that can hit two blots, and the pips the worst hit costs me.
    if opp_back > 0:
        shots, doubles, loss = _shots(me, mb, opp, ob, opp_bar)
    else:
        shots, doubles, loss = 0.0, 0.0, 0.0
    out[row, col + 6] = shots / 36.0
    out[row, col + 7] = doubles / 36.0
    out[row, col + 8] = loss / (36.0 * 12.0)
    _progress_features(me, mb, my_bar, opp_back, out, row, col)
    _board_features(me, mb, opp, ob, my_bar, back, out, row, col)


@njit(cache=True, nogil=True)
def contact_features(boards: Any, out: Any, col: int, table: Any) -> None:
    """Write both sides' contact inputs of each board into ``out[:, col:]`` (mine first)."""
    for row in range(boards.shape[0]):
        board = boards[row]
        _contact_side(board, 0, board, _SIDE, out, row, col, table)
        _contact_side(board, _SIDE, board, 0, out, row, col + CONTACT_FEATURES, table)


@njit(cache=True, nogil=True)
def race_features(
    boards: Any, out: Any, col: int, binom: Any, mean_rolls: Any, mean_first: Any
) -> None:
    """Write both sides' race inputs of each board into ``out[:, col:]`` (mine first).

    ``mean_rolls`` and ``mean_first`` are the one-sided bear-off database's
    expected rolls to finish and to take the first checker off, by home-board index.
    """
    for row in range(boards.shape[0]):
        for side in range(2):
            base = side * _SIDE
            c0 = col + side * RACE_FEATURES
            bar = boards[row, base + 25] + boards[row, base + 26]
            cross = bar * 4
            outside = bar
            bear_in = bar * 19
            for p in range(7, 25):
                c = boards[row, base + p]
                outside += c
                cross += c * ((p - 1) // 6)
                bear_in += c * (p - 6)
            out[row, c0 + 0] = cross / 30.0
            out[row, c0 + 1] = outside / 15.0
            out[row, c0 + 2] = bear_in / 100.0
            # Wastage in the home board: stacks, and gaps on the high points.
            stacked = 0
            gaps = 0
            low = 0
            for p in range(1, 7):
                c = boards[row, base + p]
                if c > 3:
                    stacked += c - 3
                if c == 0 and p >= 4:
                    gaps += 1
                if p <= 3:
                    low += c
            out[row, c0 + 3] = stacked / 15.0
            out[row, c0 + 4] = gaps / 3.0
            out[row, c0 + 5] = low / 15.0
            # Exact one-sided expectations once every checker is home.
            if outside == 0:
                index = 0
                s = -1
                for k in range(1, 7):
                    s += boards[row, base + 7 - k] + 1
                    index += binom[s, k]
                out[row, c0 + 6] = 1.0
                out[row, c0 + 7] = mean_rolls[index] / 10.0
                out[row, c0 + 8] = mean_first[index] / 5.0 if boards[row, base] == 0 else 0.0
            else:
                out[row, c0 + 6] = 0.0
                out[row, c0 + 7] = 0.0
                out[row, c0 + 8] = 0.0


@njit(cache=True, nogil=True)
def has_contact(boards: Any, row: int) -> bool:
    """Whether the board still has contact: some checker must pass an opposing one."""
    backs = 0
    for base in (0, _SIDE):
        for p in range(26, 0, -1):
            if boards[row, base + p] > 0:
                backs += min(p, 25)
                break
    return backs > 25


@njit(cache=True, nogil=True)
def contact_flags(boards: Any) -> Any:
    """:func:`has_contact` of each board."""
    n = boards.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    for row in range(n):
        out[row] = has_contact(boards, row)
    return out


@njit(cache=True, nogil=True)
def raw_inputs(boards: Any, out: Any) -> None:
    """The raw encoding (see :func:`gammon.engine.encoding.encode_boards`) into ``out[:, :202]``."""
    n = boards.shape[0]
    contact = contact_flags(boards)
    for row in range(n):
        pips = [0, 0]
        for side in range(2):
            base = side * _SIDE
            col = side * 100
            total = 0
            for p in range(1, 25):
                c = boards[row, base + p]
                k = col + (p - 1) * 4
                out[row, k] = 1.0 if c >= 1 else 0.0
                out[row, k + 1] = 1.0 if c >= 2 else 0.0
                out[row, k + 2] = 1.0 if c >= 3 else 0.0
                out[row, k + 3] = (c - 3) * 0.5 if c > 3 else 0.0
                total += p * c
            bar = boards[row, base + 25]
            waiting = boards[row, base + 26]
            total += 25 * (bar + waiting)
            pips[side] = total
            out[row, col + 96] = bar * 0.5
            out[row, col + 97] = boards[row, base] / 15.0
            out[row, col + 98] = waiting / 15.0
            out[row, col + 99] = total / 100.0
        out[row, 200] = 1.0 if contact[row] else 0.0
        out[row, 201] = (pips[1] - pips[0]) / 50.0
