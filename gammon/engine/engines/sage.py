"""Open Sage's nets as an engine (``pip install 'gammon[sage]'``: bgsage, MPL-2.0).

Open Sage's net judges a board after a play, for the player who just moved (its
"post-move" evaluation, what ``BgBotAnalyzer(eval_level="1ply").post_move_analytics``
gives): a 26-element list from the mover's side, index 1-24 the points (the mover's
checkers positive, the opponent's negative), 25 the mover's bar and 0 the opponent's
(both as counts). Its "1-ply" is our 0-ply (it counts plies as eXtreme Gammon does).
Bear-offs come from its own database, as its analyzer sets it up.

Open Sage picks among its nets by the game plan of the board before the play when it
ranks a roll's plays itself; its post-move evaluation (and so this engine, which sees
only the board after the play) picks by the board after it, so a roll's figures here
can differ from its own checker-play analysis by a few thousandths. Only its 0-ply is
used, under our search, and only boards from our move generator: its own generator
lets a last checker bear off where our rules (and GNU's) do not.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gammon.engine.engines.base import Adapter
from gammon.engine.evaluator import FloatArray

__all__ = ["SageEngine", "sage_board"]

_SIDE = 27


def sage_board(board: npt.NDArray[np.int8]) -> list[int]:
    """One 54-byte board (first side having moved) as Open Sage's 26-element list."""
    mine = board[:_SIDE].astype(np.int64)
    theirs = board[_SIDE:].astype(np.int64)
    out = [0] * 26
    for point in range(1, 25):
        out[point] = int(mine[point]) - int(theirs[25 - point])
    out[25] = int(mine[25])
    out[0] = int(theirs[25])
    return out


class SageEngine(Adapter):
    """Open Sage's production nets at its 1-ply (our 0-ply)."""

    name = "sage"
    native_after = True

    def __init__(self) -> None:
        self._strategy: Any = None
        self._bearoff: Any = None
        self._load()

    def _load(self) -> Any:
        """The production nets with the bear-off database in front, as ``BgBotAnalyzer``
        sets them up: exact figures where both sides bear off."""
        if self._strategy is None:
            import bgbot_cpp
            from bgsage.weights import bearoff_db_path, default_weights

            weights = default_weights()
            strategy = bgbot_cpp.create_strategy(
                weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list
            )
            path = bearoff_db_path()
            if path:
                database = bgbot_cpp.BearoffDB()
                if database.load(path):
                    self._bearoff = database  # kept: the strategy only borrows it
                    strategy = bgbot_cpp.BearoffStrategy(strategy, database)
            self._strategy = strategy
        return self._strategy

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the compiled nets (a Ray task loads its own)."""
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._strategy = self._bearoff = None

    def native(self, boards: npt.NDArray[np.int8]) -> FloatArray:
        """Its post-move chances, nested as its own results are (``Probabilities``
        clamps a backgammon to at most the gammon, a gammon to at most the win)."""
        from bgsage import Probabilities

        evaluate = self._load().evaluate_board
        clamp = Probabilities.clamp_list
        out = np.empty((boards.shape[0], 5), dtype=np.float32)
        for row, board in enumerate(boards):
            listed = sage_board(board)
            out[row] = clamp(list(evaluate(listed, listed)["probs"]))
        return out
