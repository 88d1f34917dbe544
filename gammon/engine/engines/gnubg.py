"""GNU Backgammon's nets as an engine (``pip install 'gammon[gnubg]'``: gnubg-nn, GPL).

GNU's net judges a position for the player on roll: ``gnubg_nn.probabilities(board, 0)``
with ``board`` two lists of 25 counts, ``[player not on roll, player on roll]``, each
from its owner's side (points 1-24, then the bar), and gives (win, win gammon, win
backgammon, lose gammon, lose backgammon) for the player on roll, cumulative as ours.
Bear-offs come from GNU's own databases, as ``probabilities`` gives them.

Only its 0-ply is used: the search above it is ours (:class:`~.base.Adapter`), so that
"2-ply" means the same move filters and cube search whichever net judges.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gammon.engine.engines.base import Adapter
from gammon.engine.evaluator import FloatArray

__all__ = ["GnubgEngine", "gnubg_board"]

_SIDE = 27


def gnubg_board(board: npt.NDArray[np.int8]) -> list[list[int]]:
    """One 54-byte board (first side on roll) as gnubg_nn's ``[not on roll, on roll]``."""
    return [board[_SIDE + 1 : _SIDE + 26].tolist(), board[1:26].tolist()]


class GnubgEngine(Adapter):
    """GNU Backgammon's 0-ply nets (contact, crashed, race, bear-off databases)."""

    name = "gnubg"
    native_after = False

    def __init__(self) -> None:
        import gnubg_nn  # noqa: F401  (the missing extra is said now, not at the first board)

    def native(self, boards: npt.NDArray[np.int8]) -> FloatArray:
        import gnubg_nn

        probabilities = gnubg_nn.probabilities
        out = np.empty((boards.shape[0], 5), dtype=np.float32)
        for row, board in enumerate(boards):
            out[row] = probabilities(gnubg_board(board), 0)
        return out
