"""Tesauro's pubeval: the classic linear benchmark opponent, with his published weights.

Gerald Tesauro released ``pubeval.c`` (IBM Research, 1993) so that backgammon
programs could be compared against one fixed, public player.  It scores the
position *after* a move, from the mover's side, as a dot product of one of two
weight vectors (contact or race) with 122 inputs that describe the board:

* five inputs for each point, taken from the mover's 24-point down to the
  1-point (block ``k`` is the mover's point ``24 - k``), for that point's count
  ``n`` (mover's checkers positive, opponent's negative):
  ``n == -1`` (an opposing blot), ``n == 1``, ``n >= 2``, ``n == 3`` and
  ``(n - 3) / 2`` when ``n >= 4``; opposing points of two or more are not seen;
* input 120: the opponent's checkers on the bar, halved;
* input 121: the mover's checkers borne off, over 15.

The mover's own bar checkers are not an input.  A move that bears off the last
checker scores 99999999.  The weight set is chosen once per roll from the
position *before* the move (a race when no contact remains), as the original's
documentation asks, so that all candidate plays are scored on one scale.

This module is our own implementation; the weights are the published numbers,
compared with public copies of ``pubeval.c`` (OpenBSD's, GNU Backgammon's
``pub_eval.c``), and the scores and chosen plays with GNU Backgammon's own
pubeval (through the ``gnubg-nn`` package, in the tests only).

>>> from gammon.position import Position
>>> start = Position.initial()
>>> str(PubevalPlayer().choose_play(start, (3, 1)))
'8/5 6/5'
>>> round(pubeval(start), 5)
6.84055
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt
from numba import njit

from gammon.play import Play, packed_boards
from gammon.position import Dice, Position

__all__ = [
    "CONTACT_WEIGHTS",
    "INPUTS",
    "RACE_WEIGHTS",
    "WIN_SCORE",
    "PubevalPlayer",
    "pubeval",
    "pubeval_inputs",
    "score_boards",
]

# The weight vectors as published in pubeval.c (G. Tesauro, IBM Research, 1993):
# ``wr`` for race positions and ``wc`` for contact positions, in input order.
_WR: Final = (
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471,
    0.00000, -1.40375, -1.05121, 0.07217, -0.01351,
    0.00000, -1.29506, -2.16183, 0.13246, -1.03508,
    0.00000, -2.29847, -2.34631, 0.17253, 0.08302,
    0.00000, -1.27266, -2.87401, -0.07456, -0.34240,
    0.00000, -1.34640, -2.46556, -0.13022, -0.01591,
    0.00000, 0.27448, 0.60015, 0.48302, 0.25236,
    0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685,
    0.00000, 0.17405, 0.00430, 0.74427, 0.00576,
    0.00000, 0.12392, 0.31202, -0.91035, -0.16270,
    0.00000, 0.01418, -0.10839, -0.02781, -0.88035,
    0.00000, 1.07274, 2.00366, 1.16242, 0.22520,
    0.00000, 0.85631, 1.06349, 1.49549, 0.18966,
    0.00000, 0.37183, -0.50352, -0.14818, 0.12039,
    0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728,
    0.00000, -0.13597, -0.19412, -0.09308, -1.26062,
    0.00000, 3.05454, 5.16874, 1.50680, 5.35000,
    0.00000, 2.19605, 3.85390, 0.88296, 2.30052,
    0.00000, 0.92321, 1.08744, -0.11696, -0.78560,
    0.00000, -0.09795, -0.83050, -1.09167, -4.94251,
    0.00000, -1.00316, -3.66465, -2.56906, -9.67677,
    0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
)  # fmt: skip
_WC: Final = (
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398,
    -0.16092, -1.11725, -1.06654, -0.92830, -1.99558,
    -1.10388, -0.80802, 0.09856, -0.62086, -1.27999,
    -0.59220, -0.73667, 0.89032, -0.38933, -1.59847,
    -1.50197, -0.60966, 1.56166, -0.47389, -1.80390,
    -0.83425, -0.97741, -1.41371, 0.24500, 0.10970,
    -1.36476, -1.05572, 1.15420, 0.11069, -0.38319,
    -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786,
    -1.18435, -0.43363, 1.06169, -0.21329, 0.04798,
    -0.94373, -0.22982, 1.22737, -0.13099, -0.06295,
    -0.75882, -0.13658, 1.78389, 0.30416, 0.36797,
    -0.69851, 0.13003, 1.23070, 0.40868, -0.21081,
    -0.64073, 0.31061, 1.59554, 0.65718, 0.25429,
    -0.80789, 0.08240, 1.78964, 0.54304, 0.41174,
    -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777,
    -0.83711, -0.33248, 2.64983, 0.52698, 0.82132,
    -0.58897, -1.18223, 3.35809, 0.62017, 0.57353,
    -0.07276, -0.36214, 4.37655, 0.45481, 0.21746,
    0.10504, -0.61977, 3.54001, 0.04612, -0.18108,
    0.63211, -0.87046, 2.47673, -0.48016, -1.27157,
    0.86505, -1.11342, 1.24612, -0.82385, -2.77082,
    1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
)  # fmt: skip

FloatArray = npt.NDArray[np.float64]


def _frozen(values: tuple[float, ...]) -> FloatArray:
    array = np.array(values, dtype=np.float64)
    array.setflags(write=False)
    return array


#: Tesauro's race weights (``wr``), one per input.
RACE_WEIGHTS: Final[FloatArray] = _frozen(_WR)
#: Tesauro's contact weights (``wc``), one per input.
CONTACT_WEIGHTS: Final[FloatArray] = _frozen(_WC)
#: The score of a play that bears off the mover's last checker, as in the original.
WIN_SCORE: Final = 99999999.0

#: How many inputs pubeval reads: 5 per point, the opponent's bar, the mover's off.
INPUTS: Final = 122
_SIDE = 27
_BOARD = 54
_OPP_BAR = _SIDE + 25
# Block k (0-23) is the mover's point 24 - k, which is the opponent's point k + 1.
_MY_POINTS = slice(24, 0, -1)
_THEIR_POINTS = slice(_SIDE + 1, _SIDE + 25)
_MAX_COUNT = 128  # any count a byte board can hold


def _point_tables(weights: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Each block's contribution for every count, mover's and opponent's, precomputed.

    The five inputs of a block depend only on that point's count, so a table
    lookup per point replaces building the 120 point inputs.
    """
    counts = np.arange(_MAX_COUNT, dtype=np.float64)
    blocks = weights[:120].reshape(24, 5)
    mine = (
        np.outer(blocks[:, 1], counts == 1)
        + np.outer(blocks[:, 2], counts >= 2)
        + np.outer(blocks[:, 3], counts == 3)
        + np.outer(blocks[:, 4], np.maximum(counts - 3, 0) / 2)
    )
    theirs = np.outer(blocks[:, 0], counts == 1)
    return mine, theirs


_TABLES: Final = {False: _point_tables(CONTACT_WEIGHTS), True: _point_tables(RACE_WEIGHTS)}


@njit(cache=True, nogil=True)
def _score_kernel(
    boards: Any,
    mine_table: Any,
    their_table: Any,
    bar_weight: float,
    off_weight: float,
    checkers: int,
) -> Any:  # pragma: no cover - compiled
    count = boards.shape[0]
    scores = np.empty(count, dtype=np.float64)
    for i in range(count):
        if boards[i, 0] >= checkers:
            scores[i] = WIN_SCORE
            continue
        total = bar_weight * boards[i, _OPP_BAR] + off_weight * boards[i, 0]
        for block in range(24):
            total += mine_table[block, boards[i, 24 - block]]
            total += their_table[block, boards[i, _SIDE + 1 + block]]
        scores[i] = total
    return scores


@njit(cache=True, nogil=True)
def _race_and_checkers(board: Any) -> tuple[bool, int]:  # pragma: no cover - compiled
    """Whether no contact remains on a board (as Position.is_contact), and checkers a side."""
    backs = [0, 0]
    for side in range(2):
        base = side * _SIDE
        for point in range(26, 0, -1):
            if board[base + point] > 0:
                backs[side] = min(point, 25)  # a waiting checker enters like one on the bar
                break
    checkers = 0
    for index in range(_SIDE):
        checkers += board[index]
    return backs[0] + backs[1] <= 25, checkers


def _as_boards(boards: npt.ArrayLike) -> npt.NDArray[np.int8]:
    array = np.ascontiguousarray(boards, dtype=np.int8)
    if array.ndim != 2 or array.shape[1] != _BOARD:
        raise ValueError(f"boards must have shape (n, {_BOARD}), got {array.shape}")
    return array


def pubeval_inputs(boards: npt.ArrayLike) -> FloatArray:
    """The 122 inputs of each 54-byte board (mover first), shape ``(n, 122)``.

    The straightforward encoding, kept as the reference that the table lookup
    in :func:`score_boards` must agree with.
    """
    array = _as_boards(boards).astype(np.int64)
    mine = array[:, _MY_POINTS]
    theirs = array[:, _THEIR_POINTS]
    x = np.zeros((array.shape[0], 24, 5), dtype=np.float64)
    x[:, :, 0] = theirs == 1
    x[:, :, 1] = mine == 1
    x[:, :, 2] = mine >= 2
    x[:, :, 3] = mine == 3
    x[:, :, 4] = np.maximum(mine - 3, 0) / 2
    return np.concatenate(
        [x.reshape(-1, 120), array[:, _OPP_BAR, None] / 2, array[:, 0, None] / 15], axis=1
    )


def score_boards(boards: npt.ArrayLike, race: bool, checkers: int = 15) -> FloatArray:
    """Pubeval's score of each 54-byte board (mover first, after the move).

    ``race`` chooses the weights; a board where the mover has borne off all
    ``checkers`` scores :data:`WIN_SCORE`.
    """
    array = _as_boards(boards)
    mine_table, their_table = _TABLES[bool(race)]
    weights = RACE_WEIGHTS if race else CONTACT_WEIGHTS
    scores: FloatArray = _score_kernel(
        array, mine_table, their_table, weights[120] / 2, weights[121] / 15, checkers
    )
    return scores


def pubeval(position: Position, race: bool | None = None) -> float:
    """Pubeval's score of ``position`` for the player who just moved to it.

    ``race`` defaults to whether the position itself has no contact; when
    choosing a play, pass the answer for the position before the play.
    """
    if race is None:
        race = not position.is_contact()
    board = np.frombuffer(position.raw, dtype=np.int8)[None, :]
    return float(score_boards(board, race, position.checkers)[0])


class PubevalPlayer:
    """Plays the legal play with the highest pubeval score (first one on a tie).

    A deterministic, fixed-strength opponent: the usual yardstick for a new
    backgammon bot, and a fair sparring partner for beginners.
    """

    name: str

    def __init__(self, name: str = "pubeval") -> None:
        self.name = name

    def choose_play(self, position: Position, dice: Dice) -> Play:
        plays = position.plays(dice)
        if len(plays) == 1:
            return plays[0]
        boards = np.frombuffer(packed_boards(plays), dtype=np.int8)
        race, checkers = _race_and_checkers(np.frombuffer(position.raw, dtype=np.int8))
        mine_table, their_table = _TABLES[race]
        weights = RACE_WEIGHTS if race else CONTACT_WEIGHTS
        scores = _score_kernel(
            boards.reshape(len(plays), _BOARD),
            mine_table,
            their_table,
            weights[120] / 2,
            weights[121] / 15,
            checkers,
        )
        return plays[int(np.argmax(scores))]

    def __repr__(self) -> str:
        return f"PubevalPlayer(name={self.name!r})"
