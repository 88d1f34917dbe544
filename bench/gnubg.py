"""GNU Backgammon's 0-ply evaluation as a player, for benchmarks only (``gnubg-nn``).

Our move generator lists the plays and GNU Backgammon's network judges each
resulting position, so the match measures evaluation, nothing else.  Never a
source of training data (issue 8): a yardstick.
"""

from __future__ import annotations

import numpy as np

from gammon.engine.network import equity
from gammon.play import Play
from gammon.position import Dice, Position

__all__ = ["GnubgPlayer", "gnubg_board"]

_SIDE = 27


def gnubg_board(raw: bytes) -> list[list[int]]:
    """A 54-byte board (player on roll first) as GNU's ``[not on roll, on roll]`` 2x25 lists."""
    counts = list(raw)
    sides = []
    for base in (_SIDE, 0):
        sides.append([counts[base + p] for p in range(1, 25)] + [counts[base + 25]])
    return sides


class GnubgPlayer:
    """Chooses the play GNU Backgammon's nets rate best at ``ply`` (0 by default)."""

    def __init__(self, ply: int = 0) -> None:
        import gnubg_nn

        self._probabilities = gnubg_nn.probabilities
        self.ply = ply
        self.name = f"gnubg-{ply}ply"

    def choose_play(self, position: Position, dice: Dice) -> Play:
        plays = position.plays(dice)
        if len(plays) == 1:
            return plays[0]
        best, best_equity = plays[0], -np.inf
        for play in plays:
            after = play.position
            if after.winner() is not None:
                return play
            # After the play the opponent is on roll: GNU rates it from their side.
            theirs = np.array(
                self._probabilities(gnubg_board(after.swapped().raw), self.ply), dtype=np.float32
            )
            mine = -float(equity(theirs))
            if mine > best_equity:
                best, best_equity = play, mine
        return best
