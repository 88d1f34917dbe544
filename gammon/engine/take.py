"""When the taker's answer is close enough to be searched a ply deeper (issue 18, item 5).

Janowski's model (:mod:`gammon.engine.cube`) answers a double from the net's 0-ply
chances. Where the net misreads them (an ace-point game, a blitz against a checker on
the bar) a wrong take or pass costs a lot, and a few percent of winning chance moves
the double/take equity by about four times as much in points: near the take point
the model's answer is decided by the net's noise. :func:`close_take` says when the
model's take and pass are near enough for that noise to decide;
:func:`gammon.engine.cubeful.analyse_cube` then searches the decision one ply deeper
(cubeful, over the 21 rolls), which costs one batch of the net (about 21 x 20
positions) instead of one position, and only on those decisions.

>>> from gammon.engine.cube import CubeState, cube_decision
>>> # No gammons, contact efficiency: the take point is 21.4%; each 1% of winning
>>> # chance moves the double/take by 0.047 of a point.
>>> round(take_margin(cube_decision((0.75, 0, 0, 0, 0), CubeState()), CubeState()), 3)
0.17
>>> close_take(cube_decision((0.75, 0, 0, 0, 0), CubeState()), CubeState())
True
>>> close_take(cube_decision((0.6, 0, 0, 0, 0), CubeState()), CubeState())  # a clear take
False
"""

from __future__ import annotations

from gammon.engine.cube import CubeDecision, CubeState

__all__ = ["TAKE_MARGIN", "close_take", "take_margin"]

#: How near the model's double/take must be to its double/pass (points of the current
#: cube, match equities normalised as the analysis shows them) for the answer to be
#: searched a ply deeper. Chosen with ``python -m bench.errors --take-sweep``: see the
#: cube section of gammon/engine/TRAINING.md for the figures behind it.
TAKE_MARGIN = 0.2


def take_margin(decision: CubeDecision, state: CubeState) -> float:
    """How far the model's take is from its pass, in points of the current cube.

    Money equities are per unit of the current cube already; match equities (MWC)
    are normalised by the MWC between winning and losing a game at the cube, twice
    over, so that a margin means the same share of a game at any score.
    """
    difference = abs(decision.double_take - decision.double_pass)
    if state.score is None:
        return difference
    spread = state.score.after(state.value, 0) - state.score.after(0, state.value)
    return 2.0 * difference / spread if spread > 0 else float("inf")


def close_take(decision: CubeDecision, state: CubeState, margin: float = TAKE_MARGIN) -> bool:
    """Whether the taker's answer in ``decision`` is within ``margin`` of the other answer."""
    return take_margin(decision, state) < margin
