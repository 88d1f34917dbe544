"""Cube decisions searched 0, 1 or 2 plies deep: the one cube function of the engine.

At 0-ply the cubeful equities come from Janowski's model (:mod:`gammon.engine.cube`)
on the position's cubeless chances, with the position's cube efficiency. Deeper,
the cube decision is worked out the way GNU Backgammon does: for each of the 21
rolls the best play is found (by cubeless 0-ply equity, as the evaluator's n-ply
search picks its replies), and the position after it, with the opponent on roll
and free to double or redouble, is valued cubefully one ply shallower, with the
opponent's best cube action and the mover's best answer; the average over the
36 throws is the equity of playing on. Doing that once with the cube as it is
(no double) and once with the cube turned and owned by the taker (double, take;
money with beavers also at four times, owned by the beaver) gives the equities
the decision compares, and the cubeful leaves at the bottom are Janowski's.
So the model only judges the position a roll or two later, and what happens
on those rolls (a cash that becomes a pass, a market lost, a last roll with a
dead cube) is counted exactly.

The bot (:mod:`gammon.engine.bot`), the hints (:mod:`gammon.engine.hint`) and the
analysis (:mod:`gammon.engine.analysis`) all take their cube actions from
:func:`analyse_cube`, each at its own depth.

>>> from gammon.position import Position
>>> from gammon.engine.cube import CubeState
>>> # Last roll: 2 checkers to bear off (3- and 1-points), the opponent off next turn.
>>> last = Position.from_points({3: 1, 1: 1}, {1: 1}, checkers=15)
>>> result = analyse_cube(last, CubeState(), ply=1)
>>> str(result.decision), round(result.decision.no_double, 4)  # 2 * 34/36 - 1
('Double, pass', 0.8889)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from gammon import movegen
from gammon.dice import ALL_ROLLS
from gammon.engine.cube import (
    CubeDecision,
    CubeOwner,
    CubeState,
    best_action_equity,
    cube_action_equity,
    cube_decision,
    cube_efficiency,
    cubeful_equity,
    may_double,
    with_equities,
)
from gammon.engine.evaluator import Evaluation, default_evaluator
from gammon.engine.network import equity as cubeless_equity
from gammon.engine.take import close_take
from gammon.position import Position

__all__ = ["MAX_CUBE_PLY", "CubeAnalysis", "CubeEngine", "analyse_cube"]

#: The deepest cubeful search offered (each ply costs about 21 times the one above).
MAX_CUBE_PLY = 2

_BOARD = 54


class CubeEngine(Protocol):
    """What the search asks of an evaluator (:class:`~gammon.engine.evaluator.Evaluator`)."""

    def evaluate(self, position: Position, ply: int = 0) -> Evaluation: ...

    def after_play(self, boards: npt.NDArray[np.int8], ply: int) -> npt.NDArray[np.float32]: ...


@dataclass(frozen=True)
class CubeAnalysis:
    """The cube seen from the player on roll, searched ``ply`` deep."""

    #: Cubeless chances of the player on roll, searched ``ply`` deep.
    chances: Evaluation
    #: The decision (None when the player on roll may not double).
    decision: CubeDecision | None
    #: Cubeful equity of playing on without doubling (money per unit of cube, or MWC).
    no_double: float
    #: The cubeful value with the best cube action and the best answer.
    equity: float
    #: The root position's cube efficiency (that of the 0-ply model).
    efficiency: float
    ply: int


@dataclass(eq=False)
class _Node:
    """A position with the player on roll, and the positions after each roll's best play."""

    position: Position
    chances: Evaluation  # 0-ply (exact once the game is over)
    finished: bool
    efficiency: float = -1.0
    children: list[tuple[int, _Node]] = field(default_factory=list)  # (throws of 36, node)

    def x(self) -> float:
        if self.efficiency < 0.0:
            self.efficiency = cube_efficiency(self.position)
        return self.efficiency


def _flip(values: npt.NDArray[np.floating]) -> Evaluation:
    win, wg, wbg, lg, lbg = (float(v) for v in values)
    return Evaluation(1.0 - win, lg, lbg, wg, wbg)


def _expand(engine: CubeEngine, nodes: list[_Node]) -> list[_Node]:
    """Give each unfinished node its 21 children (one batch through the engine)."""
    live = [node for node in nodes if not node.finished]
    if not live:
        return []
    parts: list[bytes] = []
    counts: list[int] = []
    for node in live:
        raw = node.position.raw
        for (die1, die2), _ in ALL_ROLLS:
            generated, _moves, count, _used = movegen.generate(raw, die1, die2)
            parts.append(generated)
            counts.append(count)
    boards = np.frombuffer(b"".join(parts), dtype=np.int8).reshape(-1, _BOARD)
    values = engine.after_play(boards, 0)
    scores = cubeless_equity(values)
    children: list[_Node] = []
    start = 0
    slot = 0
    for node in live:
        for _, weight in ALL_ROLLS:
            count = counts[slot]
            best = start + int(np.argmax(scores[start : start + count]))
            mover = boards[best]
            won = int(mover[0]) == int(mover[: _BOARD // 2].sum())
            after = mover.tobytes()
            # The opponent is on roll next: the board seen from their side.
            # _from_board: the generator's boards are valid by construction.
            child = _Node(
                Position._from_board(after[_BOARD // 2 :] + after[: _BOARD // 2]),
                _flip(values[best]),
                won,
            )
            node.children.append((weight, child))
            children.append(child)
            start += count
            slot += 1
    return children


def _taken(state: CubeState, factor: int) -> CubeState:
    """The state after a double (factor 2) or a beaver (4): the cube the taker's."""
    return CubeState(
        state.value * factor,
        CubeOwner.OPPONENT,
        state.score,
        state.jacoby,
        state.beavers,
        state.max_cube,
        state.available,
        state.gammons,
    )


def _double_pass(state: CubeState) -> float:
    return 1.0 if state.score is None else state.score.after(state.value, 0)


class _Search:
    def __init__(self) -> None:
        self._memo: dict[tuple[int, CubeState, int, bool], float] = {}

    def play_on(self, node: _Node, state: CubeState, depth: int) -> float:
        """The on-roll player's cubeful equity if no one doubles now."""
        if depth == 0 or node.finished:
            return cubeful_equity(node.chances, state, node.x())
        key = (id(node), state, depth, False)
        found = self._memo.get(key)
        if found is None:
            theirs = state.swapped()
            total = 0.0
            for weight, child in node.children:
                value = self.value(child, theirs, depth - 1)
                total += weight * (-value if state.score is None else 1.0 - value)
            found = self._memo[key] = total / 36.0
        return found

    def equities(
        self, node: _Node, state: CubeState, depth: int
    ) -> tuple[float, float, float | None]:
        """No double, double/take and double/beaver (money with beavers), per unit of cube."""
        no_double = self.play_on(node, state, depth)
        money = state.score is None
        double_take = self.play_on(node, _taken(state, 2), depth) * (2.0 if money else 1.0)
        double_beaver = None
        if money and state.beavers and 4 * state.value <= state.max_cube:
            double_beaver = 4.0 * self.play_on(node, _taken(state, 4), depth)
        return no_double, double_take, double_beaver

    def value(self, node: _Node, state: CubeState, depth: int) -> float:
        """The on-roll player's cubeful equity with the best cube action and answer."""
        if not may_double(state):
            return self.play_on(node, state, depth)
        if depth == 0 or node.finished:
            return cube_action_equity(node.chances, state, node.x())
        key = (id(node), state, depth, True)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = best_action_equity(
                *self.equities(node, state, depth), _double_pass(state)
            )
        return found


def _chances(node: _Node, depth: int) -> Evaluation:
    """Cubeless chances searched ``depth`` deep: the evaluator's n-ply, from the same tree."""
    if depth == 0 or node.finished:
        return node.chances
    total = np.zeros(5)
    for weight, child in node.children:
        win, wg, wbg, lg, lbg = _chances(child, depth - 1).probabilities
        total += weight * np.array((1.0 - win, lg, lbg, wg, wbg))
    return Evaluation.from_array(total / 36.0)


def analyse_cube(
    position: Position,
    state: CubeState,
    *,
    ply: int = 0,
    evaluator: CubeEngine | None = None,
    chances: Evaluation | None = None,
    take_margin: float = 0.0,
) -> CubeAnalysis:
    """The cube decision of the player on roll of ``position``, searched ``ply`` deep (0-2).

    ``chances``, the 0-ply evaluation of ``position``, saves it when the caller has it. When
    the player on roll may not double the analysis still gives the cubeful
    equity of playing on (``decision`` is None).

    At 0-ply, a decision whose take and pass are within ``take_margin`` of each other
    (:func:`gammon.engine.take.close_take`) is searched one ply deeper, and the 1-ply
    analysis (``ply`` 1) is returned: the net's misread chances decide such answers
    (issue 18). The bot passes :data:`~gammon.engine.take.TAKE_MARGIN`; the default 0
    keeps every 0-ply decision the model's (the analysis and the hints, whose 0-ply
    figures must agree with the model's equities they show beside).
    """
    if ply not in range(MAX_CUBE_PLY + 1):
        raise ValueError(f"the cube is searched 0 to {MAX_CUBE_PLY} plies deep, got {ply!r}")
    engine: CubeEngine = evaluator or default_evaluator()
    efficiency = cube_efficiency(position)
    if ply == 0 or position.winner() is not None:
        found = chances or engine.evaluate(position, 0)
        if not may_double(state):
            no_double = cubeful_equity(found, state, efficiency)
            return CubeAnalysis(found, None, no_double, no_double, efficiency, 0)
        decision = cube_decision(found, state, efficiency)
        if position.winner() is None and close_take(decision, state, take_margin):
            return _searched(position, state, 1, engine, found, efficiency)
        return CubeAnalysis(found, decision, decision.no_double, decision.equity, efficiency, 0)
    return _searched(position, state, ply, engine, chances, efficiency)


def _searched(
    position: Position,
    state: CubeState,
    ply: int,
    engine: CubeEngine,
    chances: Evaluation | None,
    efficiency: float,
) -> CubeAnalysis:
    """The cubeful search of :func:`analyse_cube`, ``ply`` (1 or 2) deep."""
    root = _Node(position, chances or engine.evaluate(position, 0), False, efficiency)
    level = [root]
    for _ in range(ply):
        level = _expand(engine, level)
    searched = _chances(root, ply)
    search = _Search()
    if not may_double(state):
        no_double = search.play_on(root, state, ply)
        return CubeAnalysis(searched, None, no_double, no_double, efficiency, ply)
    no_double, double_take, double_beaver = search.equities(root, state, ply)
    model = cube_decision(searched, state, efficiency)
    decision = with_equities(model, no_double, double_take, double_beaver)
    return CubeAnalysis(searched, decision, no_double, decision.equity, efficiency, ply)
