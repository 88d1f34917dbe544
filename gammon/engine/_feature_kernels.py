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
    "race_features",
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


@njit(cache=True, nogil=True, inline="always")
def _mark_hits(hit: Any, me: Any, mb: int, opp: Any, ob: int, a: int, b: int, on_bar: int) -> None:
    """Mark in ``hit`` (my points 1-24) my blots the opponent can hit with the roll ``a-b``.

    The opponent's checkers (its points, 25 the bar) move toward its point 1;
    its point ``t`` is my point ``25 - t``.  Checkers on the bar enter first:
    one on the bar frees the other die (or the rest of a double) once it is in,
    two or more leave only hits made by entering.
    """
    if a != b:
        if on_bar >= 2:
            for die in (a, b):
                if me[mb + die] == 1:
                    hit[die] = True
            return
        if on_bar == 1:
            enter_a = me[mb + a] < 2
            enter_b = me[mb + b] < 2
            if enter_a and me[mb + a] == 1:
                hit[a] = True
            if enter_b and me[mb + b] == 1:
                hit[b] = True
            t = 25 - a - b  # the entering checker plays on with the other die
            if t >= 1 and me[mb + 25 - t] == 1 and (enter_a or enter_b):
                hit[25 - t] = True
            for q in range(1, 25):
                if opp[ob + q] == 0:
                    continue
                if enter_a:
                    t = q - b
                    if t >= 1 and me[mb + 25 - t] == 1:
                        hit[25 - t] = True
                if enter_b:
                    t = q - a
                    if t >= 1 and me[mb + 25 - t] == 1:
                        hit[25 - t] = True
            return
        for q in range(1, 25):
            if opp[ob + q] == 0:
                continue
            for die in (a, b):
                t = q - die
                if t >= 1 and me[mb + 25 - t] == 1:
                    hit[25 - t] = True
            t = q - a - b
            if (
                t >= 1
                and me[mb + 25 - t] == 1
                and (me[mb + 25 - (q - a)] < 2 or me[mb + 25 - (q - b)] < 2)
            ):
                hit[25 - t] = True
        return
    d = a
    steps = 4
    if on_bar > 0:
        if me[mb + d] >= 2:
            return  # cannot enter: the whole roll is lost
        if me[mb + d] == 1:
            hit[d] = True
        entered = min(on_bar, 4)
        steps = 4 - entered
        # The entered checker may run on with the rest of the double.
        t = 25 - d
        for _ in range(steps):
            t -= d
            if t < 1 or me[mb + 25 - t] >= 2:
                break
            if me[mb + 25 - t] == 1:
                hit[25 - t] = True
        if on_bar > 1 or steps == 0:
            return
    for q in range(1, 25):
        if opp[ob + q] == 0:
            continue
        t = q
        for _ in range(steps):
            t -= d
            if t < 1 or me[mb + 25 - t] >= 2:
                break
            if me[mb + 25 - t] == 1:
                hit[25 - t] = True


#: The 21 rolls (high die, low die), their weight of 36, and the rolls that show each die.
_ROLL_HIGH = np.array([h for h in range(1, 7) for lo in range(1, h + 1)], dtype=np.int64)
_ROLL_LOW = np.array([lo for h in range(1, 7) for lo in range(1, h + 1)], dtype=np.int64)
_ROLL_WEIGHT = np.where(_ROLL_HIGH == _ROLL_LOW, 1.0, 2.0)
_ROLL_INDEX = np.zeros((7, 7), dtype=np.int64)
for _r in range(21):
    _ROLL_INDEX[_ROLL_HIGH[_r], _ROLL_LOW[_r]] = _r
    _ROLL_INDEX[_ROLL_LOW[_r], _ROLL_HIGH[_r]] = _r
_DIE_ROLLS = np.array(
    [[r for r in range(21) if die in (_ROLL_HIGH[r], _ROLL_LOW[r])] for die in range(1, 7)],
    dtype=np.int64,
)


@njit(cache=True, nogil=True)
def shot_scratch() -> tuple[Any, Any, Any]:
    """Working arrays of the shot counters: blots' points, each roll's hits (a bit per
    blot), the points one roll hits; made once per batch, not once per board."""
    return (
        np.zeros(15, dtype=np.int64),
        np.zeros(21, dtype=np.int64),
        np.zeros(25, dtype=np.bool_),
    )


@njit(cache=True, nogil=True)
def _score_hits(hits: Any, blot_points: Any) -> tuple[float, float, float]:
    """Rolls (of 36) that hit, that hit two blots, and the summed pips of the worst hits."""
    shots = 0.0
    doubles = 0.0
    loss = 0.0
    for r in range(21):
        mask = hits[r]
        if mask == 0:
            continue
        weight = _ROLL_WEIGHT[r]
        shots += weight
        if mask & (mask - 1):
            doubles += weight
        # Blots are listed from my lowest point up: the lowest set bit loses the most.
        j = 0
        while not (mask >> j) & 1:
            j += 1
        loss += weight * (25 - blot_points[j])
    return shots, doubles, loss


@njit(cache=True, nogil=True)
def _shots_by_roll(
    me: Any, mb: int, opp: Any, ob: int, on_bar: int, scratch: Any
) -> tuple[float, float, float]:
    """Shots at my blots, roll by roll (the general case: the opponent has checkers on the bar).

    ``scratch`` is :func:`shot_scratch`'s, reused from board to board.
    """
    blot_points, hits, hit = scratch
    hits[:] = 0
    for r in range(21):
        hit[:] = False
        _mark_hits(hit, me, mb, opp, ob, _ROLL_HIGH[r], _ROLL_LOW[r], on_bar)
        j = 0
        for p in range(1, 25):
            if me[mb + p] == 1:
                blot_points[j] = p
                if hit[p]:
                    hits[r] |= 1 << j
                j += 1
    return _score_hits(hits, blot_points)


@njit(cache=True, nogil=True)
def _shots_by_pair(me: Any, mb: int, opp: Any, ob: int, scratch: Any) -> tuple[float, float, float]:
    """Shots at my blots with nobody on the opponent's bar: each (checker, blot) pair once.

    Same answer as :func:`_shots_by_roll` there (a test checks), several times faster:
    a blot is only looked at from the checkers in front of it, and only with the
    rolls whose dice can cover the distance.
    """
    blot_points, hits, _ = scratch
    hits[:] = 0
    j = 0
    for p in range(1, 25):
        if me[mb + p] != 1:
            continue
        blot_points[j] = p
        bit = 1 << j
        j += 1
        t = 25 - p  # the blot, on the opponent's numbering
        for q in range(t + 1, 25):
            if opp[ob + q] == 0:
                continue
            distance = q - t
            if distance <= 6:
                for k in range(6):  # the six rolls showing this die (11 of 36)
                    hits[_DIE_ROLLS[distance - 1, k]] |= bit
            if distance <= 12:
                # Two different dice: the checker stops on one of two points on the way.
                for a in range(max(1, distance - 6), 7):
                    b = distance - a
                    if b >= a or b < 1:
                        continue
                    if me[mb + 25 - (q - a)] < 2 or me[mb + 25 - (q - b)] < 2:
                        hits[_ROLL_INDEX[a, b]] |= bit
            # Doubles: every stop on the way must be open.
            for d in range(1, 7):
                steps = distance // d
                if steps < 2 or steps > 4 or steps * d != distance:
                    continue
                open_path = True
                for s in range(1, steps):
                    if me[mb + 25 - (q - s * d)] >= 2:
                        open_path = False
                        break
                if open_path:
                    hits[_ROLL_INDEX[d, d]] |= bit
    if j == 0:
        return 0.0, 0.0, 0.0
    return _score_hits(hits, blot_points)


@njit(cache=True, nogil=True)
def _contact_side(
    me: Any, mb: int, opp: Any, ob: int, out: Any, row: int, col: int, table: Any, scratch: Any
) -> None:
    """The :data:`CONTACT_FEATURES` inputs of the side at ``me[mb:]`` against ``opp[ob:]``."""
    my_bar = me[mb + 25] + me[mb + 26]
    opp_bar = opp[ob + 25] + opp[ob + 26]
    # My rearmost checker (25 = bar) and the opponent's, each in its own numbering.
    back = 25 if my_bar > 0 else 0
    if back == 0:
        for p in range(24, 0, -1):
            if me[mb + p] > 0:
                back = p
                break
    opp_back = 25 if opp_bar > 0 else 0
    if opp_back == 0:
        for q in range(24, 0, -1):
            if opp[ob + q] > 0:
                opp_back = q
                break

    # 0, 1: escapes of my rearmost checker and of the next one behind.
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

    # 2: my containment: the fewest escaping rolls of an opponent checker on its 15-24 points.
    fewest = 36.0
    theirs_blocked = blocks(me, mb)
    for q in range(15, 25):
        e = escapes(theirs_blocked, q, table)
        if e < fewest:
            fewest = e
    out[row, col + 2] = (36.0 - fewest) / 36.0

    # 3: my longest prime; 4, 5: my longest prime in front of the opponent's rearmost
    # checker and how far in front of it that prime starts.
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

    # 6, 7, 8: the opponent's shots at my blots over its 36 rolls: rolls that hit,
    # rolls that can hit two blots, and the pips the worst hit costs me.
    if opp_back > 0:
        if opp_bar > 0:
            shots, doubles, loss = _shots_by_roll(me, mb, opp, ob, opp_bar, scratch)
        else:
            shots, doubles, loss = _shots_by_pair(me, mb, opp, ob, scratch)
    else:
        shots, doubles, loss = 0.0, 0.0, 0.0
    out[row, col + 6] = shots / 36.0
    out[row, col + 7] = doubles / 36.0
    out[row, col + 8] = loss / (36.0 * 12.0)

    # 9: timing: pips my spare checkers outside home can play before they reach it.
    timing = my_bar * 19
    for p in range(7, 25):
        c = me[mb + p]
        spare = c - 2 if c >= 2 else c
        timing += spare * (p - 6)
    out[row, col + 9] = timing / 100.0

    # 10: checkers buried on my 1-3 points (wasted in a contact game).
    out[row, col + 10] = (me[mb + 1] + me[mb + 2] + me[mb + 3]) / 15.0

    # 11: mobility: share of (checker, die) moves that land on a point not made by the
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

    # 12, 13: an anchor in the opponent's home board, and my most advanced point on the
    # opponent's 1- to 10-points (its point number, twelfths).
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

    # 14: crossovers: quarters of the board my checkers still cross to get home.
    # 15: checkers home or off.  16: pips I need to pass every opponent checker.
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

    # 17: the chance I stay on the bar (dance) this turn; 18: my home points made.
    closed = 0
    mine_made = 0
    for t in range(1, 7):
        if opp[ob + t] >= 2:
            closed += 1
        if me[mb + t] >= 2:
            mine_made += 1
    out[row, col + 17] = (closed / 6.0) ** 2 if my_bar > 0 else 0.0
    out[row, col + 18] = mine_made / 6.0

    # 19: my rearmost checker's point; 20: my checkers in the opponent's home or on the bar.
    out[row, col + 19] = back / 25.0
    deep = my_bar
    for p in range(19, 25):
        deep += me[mb + p]
    out[row, col + 20] = deep / 15.0


@njit(cache=True, nogil=True)
def contact_features(boards: Any, out: Any, col: int, table: Any) -> None:
    """Write both sides' contact inputs of each board into ``out[:, col:]`` (mine first)."""
    scratch = shot_scratch()
    for row in range(boards.shape[0]):
        board = boards[row]
        _contact_side(board, 0, board, _SIDE, out, row, col, table, scratch)
        _contact_side(board, _SIDE, board, 0, out, row, col + CONTACT_FEATURES, table, scratch)


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
def contact_flags(boards: Any) -> Any:
    """Whether each board still has contact: some checker must pass an opposing one."""
    n = boards.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    for row in range(n):
        backs = [0, 0]
        for side in range(2):
            base = side * _SIDE
            for p in range(26, 0, -1):
                if boards[row, base + p] > 0:
                    backs[side] = min(p, 25)
                    break
        out[row] = backs[0] + backs[1] > 25
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
