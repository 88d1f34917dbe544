"""The legal-play generator: every distinct play of a roll, by the rules R4-R8.

This is the hot path of everything above it (the bot evaluates every candidate
play, rollouts play thousands of games), so it runs as one numba-compiled
kernel over a flat byte board and hands back arrays; :meth:`Position.plays`
wraps them in :class:`~gammon.play.Play` objects.

The board is 54 bytes, 27 per side, the player on roll first, each side seen
from its owner: index 0 = borne off, 1-24 = points, 25 = bar, 26 = checkers
still waiting to enter (acey-deucey only; R14).  A checker on my point ``p`` is
on the opponent's point ``25 - p``.

The search tries every order of the dice (for doubles, moves in canonical order
of their source so each set of moves is tried once), keeps only the plays that
use the most dice (R5), and among one-die plays of a non-double only the higher
die when it can be played (R5).  Each distinct resulting board is returned once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["BOARD_SIZE", "SIDE", "OFF", "BAR", "WAITING", "generate"]

SIDE = 27
BOARD_SIZE = 2 * SIDE
OFF = 0
BAR = 25
WAITING = 26

# Sources in the order a turn must consider them: the bar first (R7), then
# checkers waiting to enter (acey-deucey), then the points from the back.
_SOURCE_ORDER = np.array([BAR, WAITING, *range(24, 0, -1)], dtype=np.int64)

_INITIAL_CAPACITY = 32
_HASH_BITS = 8  # 256 slots; doubled whenever it becomes half full.


@njit(cache=True, nogil=True)
def _try_move(board: Any, source: int, die: int, move_row: Any) -> bool:
    """Move one checker from ``source`` by ``die`` if legal; record it in ``move_row``."""
    if board[source] == 0:
        return False
    if board[BAR] > 0 and source != BAR:
        return False  # R7: everything on the bar enters first.
    target = 25 - die if source >= BAR else source - die
    if target >= 1:
        opp_index = SIDE + 25 - target
        opp = board[opp_index]
        if opp >= 2:
            return False  # R4: a point held by two or more opposing checkers.
        board[source] -= 1
        board[target] += 1
        hit = opp == 1
        if hit:  # R6: a blot is hit and goes to the bar.
            board[opp_index] = 0
            board[SIDE + BAR] += 1
        move_row[0] = source
        move_row[1] = target
        move_row[2] = 1 if hit else 0
        return True
    # Bearing off (R8): only with every checker home.
    if board[BAR] > 0 or board[WAITING] > 0:
        return False
    for p in range(7, 25):
        if board[p] > 0:
            return False
    if target < 0:
        # A die larger than needed bears off only from the highest point.
        for p in range(source + 1, 7):
            if board[p] > 0:
                return False
    board[source] -= 1
    board[OFF] += 1
    move_row[0] = source
    move_row[1] = 0
    move_row[2] = 0
    return True


@njit(cache=True, nogil=True)
def _undo_move(board: Any, move_row: Any) -> None:
    source = move_row[0]
    target = move_row[1]
    board[source] += 1
    if target == 0:
        board[OFF] -= 1
    else:
        board[target] -= 1
        if move_row[2]:
            board[SIDE + 25 - target] = 1
            board[SIDE + BAR] -= 1


@njit(cache=True, nogil=True)
def _board_hash(board: Any) -> np.uint64:
    h = np.uint64(1469598103934665603)
    for i in range(BOARD_SIZE):
        h = (h ^ np.uint64(board[i])) * np.uint64(1099511628211)
    return h


@njit(cache=True, nogil=True)
def _grow(out_boards: Any, out_moves: Any, out_used: Any, count: int) -> tuple[Any, Any, Any]:
    capacity = 2 * out_boards.shape[0]
    boards = np.empty((capacity, BOARD_SIZE), dtype=np.int8)
    boards[:count] = out_boards[:count]
    moves = np.zeros((capacity, 4, 3), dtype=np.int8)
    moves[:count] = out_moves[:count]
    used = np.zeros(capacity, dtype=np.int8)
    used[:count] = out_used[:count]
    return boards, moves, used


@njit(cache=True, nogil=True)
def _rehash(out_boards: Any, count: int, size: int) -> Any:
    table = np.full(size, -1, dtype=np.int64)
    mask = size - 1
    for j in range(count):
        s = np.int64(_board_hash(out_boards[j]) & np.uint64(mask))
        while table[s] >= 0:
            s = (s + 1) & mask
        table[s] = j
    return table


@njit(cache=True, nogil=True)
def _generate(board_in: Any, die1: int, die2: int) -> tuple[Any, Any, int]:
    """Every distinct board that a legal play of ``die1``-``die2`` reaches, its moves, and
    how many dice the plays use; a depth-first search over the dice, without recursion.

    Why this function is long: it is the move generator's kernel, and the search's state
    (the board, the moves so far, where each depth resumes) is shared by the loop's every
    step. The duplicate look-up (:func:`_slot_of`) and R5's higher-die rule
    (:func:`_only_high`) are apart at no measured cost, but taking the step down one depth
    out as a function of its own made the kernel 25-30% slower (best of 15 over the 2,000
    (position, roll) pairs of ``bench.movegen``'s sample: 97-100 ms whole against
    126-134 ms split, the two alternated in one process).
    """
    board = board_in.copy()
    is_double = die1 == die2
    n_sources = _SOURCE_ORDER.shape[0]
    moves = np.zeros((4, 3), dtype=np.int8)
    next_k = np.zeros(5, dtype=np.int64)
    moved = np.zeros(5, dtype=np.bool_)
    dice_seq = np.empty(4, dtype=np.int64)
    out_boards = np.empty((_INITIAL_CAPACITY, BOARD_SIZE), dtype=np.int8)
    out_moves = np.zeros((_INITIAL_CAPACITY, 4, 3), dtype=np.int8)
    out_used = np.zeros(_INITIAL_CAPACITY, dtype=np.int8)
    table = np.full(1 << _HASH_BITS, -1, dtype=np.int64)
    count = 0
    best = 0
    high = max(die1, die2)
    low = min(die1, die2)
    n_dice = 4 if is_double else 2
    for order in range(1 if is_double else 2):
        for i in range(n_dice):
            dice_seq[i] = die1 if is_double else (high if (i == 0) == (order == 0) else low)
        # Depth-first search over the dice, without recursion.
        depth = 0
        next_k[0] = 0
        moved[0] = False
        while depth >= 0:
            if depth < n_dice:
                k = next_k[depth]
                advanced = False
                while k < n_sources:
                    source = _SOURCE_ORDER[k]
                    k += 1
                    if board[source] > 0 and _try_move(
                        board, source, dice_seq[depth], moves[depth]
                    ):
                        next_k[depth] = k
                        moved[depth] = True
                        depth += 1
                        # Doubles: later moves never start behind earlier ones,
                        # so each set of moves is tried in one order only.
                        next_k[depth] = k - 1 if is_double else 0
                        moved[depth] = False
                        advanced = True
                        break
                if advanced:
                    continue
                next_k[depth] = n_sources
            if depth == n_dice or not moved[depth]:
                # Play stops here: keep the board if it uses the most dice (R5).
                if depth > best:
                    best = depth
                    count = 0
                    table[:] = -1
                if depth == best:
                    slot, duplicate = _slot_of(table, out_boards, board)
                    if not duplicate:
                        if count == out_boards.shape[0]:
                            out_boards, out_moves, out_used = _grow(
                                out_boards, out_moves, out_used, count
                            )
                        out_boards[count, :] = board
                        out_moves[count, :, :] = 0
                        for d in range(depth):
                            out_moves[count, d, :] = moves[d]
                        out_used[count] = dice_seq[0] if depth > 0 else 0
                        count += 1
                        if 2 * count > table.shape[0]:
                            table = _rehash(out_boards, count, 2 * table.shape[0])
                        else:
                            table[slot] = count - 1
            depth -= 1
            if depth >= 0:
                _undo_move(board, moves[depth])
    if not is_double and best == 1:
        count = _only_high(out_boards, out_moves, out_used, count, high)
    return out_boards[:count], out_moves[:count], best


@njit(cache=True, nogil=True)
def _slot_of(table: Any, out_boards: Any, board: Any) -> tuple[Any, bool]:
    """The hash table's slot for ``board``: the slot of the same board kept already
    (``True``), or the free slot where it goes (``False``); linear probing."""
    mask = table.shape[0] - 1
    slot = np.int64(_board_hash(board) & np.uint64(mask))
    while table[slot] >= 0:
        idx = table[slot]
        same = True
        for i in range(BOARD_SIZE):
            if out_boards[idx, i] != board[i]:
                same = False
                break
        if same:
            return slot, True
        slot = (slot + 1) & mask
    return slot, False


@njit(cache=True, nogil=True)
def _only_high(out_boards: Any, out_moves: Any, out_used: Any, count: int, high: int) -> int:
    """R5: when only one die can be played, the higher one must be if it can. Keeps the
    plays of the higher die at the front, if there are any; returns how many are kept."""
    has_high = False
    for i in range(count):
        if out_used[i] == high:
            has_high = True
            break
    if not has_high:
        return count
    kept = 0
    for i in range(count):
        if out_used[i] == high:
            out_boards[kept] = out_boards[i]
            out_moves[kept] = out_moves[i]
            kept += 1
    return kept


def generate(board: bytes, die1: int, die2: int) -> tuple[bytes, bytes, int, int]:
    """Every legal play of ``die1``-``die2`` from a 54-byte board.

    Returns ``(boards, moves, count, dice_used)``: ``count`` resulting boards of
    54 bytes each, concatenated, and for each 4 moves of 3 bytes
    ``(source, target, hit)`` (unused moves are zero).  With no legal move the
    single result is the unchanged board with no moves (R5: the turn is lost).
    """
    arr = np.frombuffer(board, dtype=np.int8)
    boards, moves, used = _generate(arr, die1, die2)
    return boards.tobytes(), moves.tobytes(), boards.shape[0], int(used)
