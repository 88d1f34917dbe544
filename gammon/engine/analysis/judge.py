"""The figures behind each review: cubeful equities of plays, cube actions and rolls.

Everything rests on the engine's public interface: an
:class:`~gammon.engine.evaluator.Evaluator` ranks plays and evaluates
positions (cubeless chances), and :mod:`gammon.engine.cube` turns chances into
cubeful equity (money) or match winning chance (match) with the cube and score
of the moment. A play is worth what the position after it is worth to the
mover with the opponent on roll, who may double: the opponent's cube decision
(right action, right answer) seen from the other side. A better network or
deeper search in the engine improves every figure here without a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from gammon.engine.cube import (
    CubeState,
    cube_decision,
    cube_efficiency,
    cubeful_equity,
    may_double,
)
from gammon.engine.evaluator import Evaluation
from gammon.play import Play, packed_boards
from gammon.position import ALL_ROLLS, Dice, Position

__all__ = [
    "CUBEFUL_CANDIDATES",
    "Engine",
    "Frame",
    "Judge",
    "RankedPlay",
    "average_roll",
    "flip",
    "value_after",
    "value_before_roll",
]

#: Candidates whose cubeful equity is worked out (besides the one played): the best
#: few by the engine's ranking. The rest are not shown and cannot be best.
CUBEFUL_CANDIDATES = 8

_ROLLS = tuple(dice for dice, _ in ALL_ROLLS)


class Engine(Protocol):
    """What the analysis asks of an evaluator: :class:`~gammon.engine.evaluator.Search`'s
    public methods. Any engine with them (a stronger network, or another program's,
    for a second opinion: :mod:`gammon.engine.engines`) can stand in."""

    #: The engine's name, for the label every review carries (``"gammon"`` for ours).
    @property
    def name(self) -> str: ...

    def evaluate(self, position: Position, ply: int = 0) -> Evaluation: ...

    def rank_plays(
        self, position: Position, dice: Dice, ply: int = 0
    ) -> list[tuple[Play, Evaluation]]: ...

    def rank_plays_searched(
        self, position: Position, dice: Dice, ply: int = 0
    ) -> list[tuple[Play, Evaluation, int]]: ...

    def after_play(self, boards: npt.NDArray[np.int8], ply: int) -> npt.NDArray[np.float32]: ...


def flip(evaluation: Evaluation) -> Evaluation:
    """The same chances seen from the other player."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = evaluation.probabilities
    return Evaluation(1.0 - win, lose_gammon, lose_backgammon, win_gammon, win_backgammon)


@dataclass(frozen=True)
class Frame:
    """The cube and score of a decision, from the side taking it, and its units.

    Native figures are money equity per unit of the cube (money) or MWC
    (match). ``normalise`` turns a difference of native figures into
    normalised equity (EMG at this score and cube); ``cost`` into the game's
    currency (points or MWC).
    """

    state: CubeState
    cube: int

    @property
    def is_money(self) -> bool:
        return self.state.score is None

    @property
    def _spread(self) -> float:
        """MWC between winning and losing a game at this cube (match only)."""
        score = self.state.score
        assert score is not None
        return score.after(self.cube, 0) - score.after(0, self.cube)

    def normalise(self, difference: float) -> float:
        if self.is_money:
            return difference
        return 2.0 * difference / self._spread

    def equity(self, native: float) -> float:
        """An absolute native figure as normalised equity (EMG for a match)."""
        score = self.state.score
        if score is None:
            return native
        win, lose = score.after(self.cube, 0), score.after(0, self.cube)
        return (2.0 * native - win - lose) / (win - lose)

    def cost(self, difference: float) -> float:
        return difference * self.cube if self.is_money else difference

    def other(self, value: float) -> float:
        """A native figure of one side as the other side's."""
        return -value if self.is_money else 1.0 - value

    def swapped(self) -> Frame:
        return Frame(self.state.swapped(), self.cube)


def value_before_roll(chances: Evaluation, state: CubeState, position: Position) -> float:
    """Native value to the side on roll of ``position`` with the cube action still to take."""
    efficiency = cube_efficiency(position)
    if may_double(state):
        return cube_decision(chances, state, efficiency).equity
    return cubeful_equity(chances, state, efficiency)


def value_after(mover: Evaluation, after: Position, frame: Frame) -> float:
    """Native value to the mover of the position ``after`` their play (seen from them).

    The opponent is on roll there and may double: their best cube action, and
    the mover's best answer, are part of the value.
    """
    opponent = frame.swapped()
    theirs = value_before_roll(flip(mover), opponent.state, after.swapped())
    return frame.other(theirs)


@dataclass(frozen=True)
class RankedPlay:
    play: Play
    chances: Evaluation
    ply: int
    #: Native cubeful value for the mover.
    value: float


class Judge:
    """The engine's figures for one analysis, with each searched position remembered.

    The position after a play, searched ``ply`` deep to rank the play, is the
    one the opponent's cube decision looks at next: remembering it saves a
    search at every turn.
    """

    def __init__(self, evaluator: Engine) -> None:
        self.evaluator = evaluator
        self._memo: dict[tuple[bytes, int], Evaluation] = {}

    def forget(self) -> None:
        self._memo.clear()

    def evaluate(self, position: Position, ply: int) -> Evaluation:
        """Cubeless chances of the side on roll, before rolling, searched ``ply`` deep."""
        if position.winner() is not None:
            ply = 0  # the evaluator scores a finished game exactly at 0-ply
        key = (position.raw, ply)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self.evaluator.evaluate(position, ply)
        return found

    def _after(self, play: Play, ply: int) -> Evaluation:
        """The mover's chances after ``play``, searched ``ply`` deep."""
        return flip(self.evaluate(play.position.swapped(), ply))

    def _remember(self, play: Play, chances: Evaluation, ply: int) -> None:
        after = play.position.swapped()
        if after.winner() is None:
            self._memo.setdefault((after.raw, ply), flip(chances))

    def rank_plays(
        self, position: Position, dice: Dice, ply: int, frame: Frame, played: Play | None = None
    ) -> tuple[list[RankedPlay], int]:
        """The best candidates by cubeful value (the played one among them), and its rank.

        The engine ranks every legal play (searching the best few ``ply``
        deep); the best :data:`CUBEFUL_CANDIDATES` and the played play get
        cubeful values, the played one searched to ``ply`` like the best even
        where the engine's pruning left it shallower (as GNU Backgammon does).
        The rank is the played play's place among all legal plays (cubeless
        order below the candidates).
        """
        ranked = self.evaluator.rank_plays_searched(position, dice, ply)
        top = ranked[:CUBEFUL_CANDIDATES]
        rank = next((i for i, (play, _, _) in enumerate(ranked) if play == played), -1)
        chosen: list[RankedPlay] = []
        for play, chances, depth in top:
            if depth == ply:
                self._remember(play, chances, ply)
            elif play == played:
                chances, depth = self._after(play, ply), ply
            chosen.append(
                RankedPlay(play, chances, depth, value_after(chances, play.position, frame))
            )
        if played is not None and rank >= len(top):
            chances = self._after(played, ply)
            chosen.append(
                RankedPlay(played, chances, ply, value_after(chances, played.position, frame))
            )
        # Deeper figures first (they are the better informed), then by value.
        chosen.sort(key=lambda c: (-c.ply, -c.value))
        if played is not None:
            place = next(i for i, c in enumerate(chosen) if c.play == played)
            if rank < len(top) or place < len(chosen) - 1:
                rank = place
        return chosen, rank

    def roll_values(
        self, position: Position, frame: Frame, ply: int, rolls: Sequence[Dice] = _ROLLS
    ) -> dict[Dice, float]:
        """Native value to the side on roll of each roll (all 21 by default) after its best play.

        The best play is the engine's (by cubeless equity). At 0-ply every
        roll's plays go through the evaluator in one batch.
        """
        values: dict[Dice, float] = {}
        if ply > 0:
            for dice in rolls:
                play, chances = self.evaluator.rank_plays(position, dice, ply)[0]
                values[dice] = value_after(chances, play.position, frame)
            return values
        options = [position.plays(dice) for dice in rolls]
        boards = np.frombuffer(
            b"".join(packed_boards(plays) for plays in options), dtype=np.int8
        ).reshape(-1, len(position.raw))
        table = self.evaluator.after_play(boards, 0).astype(np.float64)
        equities = 2.0 * table[:, 0] - 1.0 + table[:, 1] + table[:, 2] - table[:, 3] - table[:, 4]
        start = 0
        for dice, plays in zip(rolls, options, strict=True):
            best = start + int(np.argmax(equities[start : start + len(plays)]))
            mover = Evaluation.from_array(table[best])
            values[dice] = value_after(mover, plays[best - start].position, frame)
            start += len(plays)
        return values


def average_roll(values: dict[Dice, float]) -> float:
    """The mean over the 36 throws of the values of the 21 rolls."""
    return sum(values[dice] * weight for dice, weight in ALL_ROLLS) / 36.0
