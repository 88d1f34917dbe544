"""Position evaluation and play choice: the network at 0-ply, lookahead above it.

>>> from gammon.position import Position
>>> result = evaluate(Position.initial())
>>> 0.4 < result.win < 0.6
True
>>> str(best_play(Position.initial(), (3, 1)))
'8/5 6/5'

``evaluate(position, ply)`` gives the cubeless chances of the player on roll
*before* they roll.  Choosing a play evaluates each resulting position from the
opponent's side (they are on roll next) and turns the figures round.  n-ply
looks n half-moves further: every one of the 21 rolls, the best reply found one
ply shallower, weighted by the roll's chance.  Candidate plays are first ranked
at 0-ply and only the best few are searched deeper, so each ply costs a bounded
multiple of the one below.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from gammon import movegen
from gammon.engine import _evaluator_kernels as kernels
from gammon.engine._bearoff_kernels import BINOM
from gammon.engine._feature_kernels import ESCAPES
from gammon.engine.bearoff import one_sided_means, one_sided_table
from gammon.engine.encoding import (
    CONTACT_INPUTS,
    INPUT_SIZE,
    RACE_INPUTS,
    encoder_for,
)
from gammon.engine.network import Network, equity, invert
from gammon.errors import GammonError
from gammon.play import Play, packed_boards
from gammon.position import ALL_ROLLS, Position, validate_dice

__all__ = [
    "Evaluation",
    "Evaluator",
    "NotOurEngineError",
    "Search",
    "best_play",
    "default_evaluator",
    "evaluate",
    "load_evaluator",
    "one_blas_thread",
    "rank_plays",
    "require_ours",
    "swap_boards",
    "won_outcome",
]

FloatArray = npt.NDArray[np.float32]
_SIDE = 27
_BOARD = 54
_ROLLS = [dice for dice, _ in ALL_ROLLS]
#: (candidates kept, equity margin) before each deeper stage of a play choice.
_FILTERS = ((8, 0.16), (2, 0.04))
#: The move filters of the n-ply search, (keep, margin) by stage: public for rankers
#: that score plays their own way (:func:`gammon.engine.hint.match_ranking`).
MOVE_FILTERS = _FILTERS
_ROLL_WEIGHTS = np.array([weight for _, weight in ALL_ROLLS], dtype=np.float64) / 36.0


@dataclass(frozen=True)
class Evaluation:
    """Cubeless chances for the player on roll, and the money equity they give."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @classmethod
    def from_array(cls, probs: npt.NDArray[np.floating]) -> Evaluation:
        values = [float(v) for v in probs]
        return cls(*values)

    @property
    def probabilities(self) -> tuple[float, float, float, float, float]:
        return (
            self.win,
            self.win_gammon,
            self.win_backgammon,
            self.lose_gammon,
            self.lose_backgammon,
        )

    @property
    def equity(self) -> float:
        """+1 a single win, +2 a gammon, +3 a backgammon, negative for losses."""
        return float(equity(np.array(self.probabilities, dtype=np.float32)))


def swap_boards(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """Raw boards seen from the other side (see ``Position.raw``)."""
    n = boards.shape[0]
    return np.ascontiguousarray(boards.reshape(n, 2, _SIDE)[:, ::-1, :].reshape(n, _BOARD))


def won_outcome(boards: npt.NDArray[np.int8]) -> FloatArray:
    """Outcome values for the player who just moved on boards where they bore off all."""
    n = boards.shape[0]
    out = np.zeros((n, 5), dtype=np.float32)
    out[:, 0] = 1.0
    loser = boards[:, _SIDE:]
    gammon = loser[:, 0] == 0
    out[:, 1] = gammon
    out[:, 2] = gammon & (
        (loser[:, 25] > 0) | (loser[:, 26] > 0) | (loser[:, 19:25].sum(axis=1) > 0)
    )
    return out


class NotOurEngineError(GammonError, ValueError):
    """Another program's engine where only our own nets may serve (training data)."""


class Search:
    """The search every engine shares: n-ply lookahead, move filters, play ranking.

    A subclass gives the 0-ply chances of a batch of boards (:meth:`_zero_ply`);
    everything above it (the 1- and 2-ply search here, the cube, hints, the bot,
    rollouts and the analysis on top) is the same code whatever judges the boards,
    so two engines differ only in their 0-ply figures. Our nets are
    :class:`Evaluator`; other programs' plug in through :mod:`gammon.engine.engines`.
    The boards always come from our move generator: an engine never chooses a play.
    """

    #: The engine's name as ``--engine`` takes it and the reports show it.
    name: str = "unnamed"
    #: Whether the figures are our own nets' (only those may become training data:
    #: :func:`require_ours`).
    is_ours: bool = False

    def _zero_ply(self, boards: npt.NDArray[np.int8], *, after: bool) -> FloatArray:
        """0-ply chances of each board: for the player on roll, or with ``after`` for the
        player who just moved (the opponent is on roll)."""
        raise NotImplementedError

    # -- 0-ply on raw boards -------------------------------------------

    def on_roll(self, boards: npt.NDArray[np.int8]) -> FloatArray:
        """0-ply chances for the player on roll of each board."""
        return self._zero_ply(boards, after=False)

    def after_play(self, boards: npt.NDArray[np.int8], ply: int) -> FloatArray:
        """Chances, for the player who just moved, of each board they moved to."""
        if ply == 0:
            return self._zero_ply(boards, after=True)
        boards = boards.reshape(-1, _BOARD)
        out = np.empty((boards.shape[0], 5), dtype=np.float32)
        won = boards[:, 0] == boards[:, :_SIDE].sum(axis=1)
        if won.any():
            out[won] = won_outcome(boards[won])
        live = ~won
        if live.any():
            out[live] = invert(self._before_roll(swap_boards(boards[live]), ply))
        return out

    def before_roll(self, boards: npt.NDArray[np.int8], ply: int) -> FloatArray:
        """Chances of the player on roll of each board, searched ``ply`` deep, in one batch
        (what supervised training fits a net to: :mod:`gammon.engine.supervise`)."""
        if ply == 0:
            return self.on_roll(boards)
        return self._before_roll(boards.reshape(-1, _BOARD), ply)

    def _before_roll(self, boards: npt.NDArray[np.int8], ply: int) -> FloatArray:
        """n-ply chances of the player on roll of each board: over the 21 rolls, weighted.

        For each roll the reply is the best at 0-ply and only that reply is
        searched deeper, as GNU Backgammon does; all boards' and rolls'
        candidates go through the network in one batch per level, so n-ply costs
        about 21 times (n-1)-ply.
        """
        parts = []
        counts = np.empty(boards.shape[0] * len(_ROLLS), dtype=np.int64)
        slot = 0
        for board in boards:
            raw = board.tobytes()
            for die1, die2 in _ROLLS:
                generated, _moves, count, _used = movegen.generate(raw, die1, die2)
                parts.append(generated)
                counts[slot] = count
                slot += 1
        after = np.frombuffer(b"".join(parts), dtype=np.int8).reshape(-1, _BOARD)
        values = self.after_play(after, 0)
        scores = equity(values)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        best = np.array(
            [
                start + int(np.argmax(scores[start : start + n]))
                for start, n in zip(starts, counts, strict=True)
            ]
        )
        chosen = values[best] if ply == 1 else self.after_play(after[best], ply - 1)
        per_roll = chosen.astype(np.float64).reshape(boards.shape[0], len(_ROLLS), 5)
        return np.asarray(np.einsum("r,brk->bk", _ROLL_WEIGHTS, per_roll), dtype=np.float32)

    @staticmethod
    def _prune(scores: npt.NDArray[np.float64], keep: int, margin: float) -> npt.NDArray[np.intp]:
        """Indices of the best ``keep`` scores within ``margin`` of the best."""
        order = np.argsort(-scores, kind="stable")[:keep]
        return np.asarray(order[scores[order] >= scores[order[0]] - margin])

    # -- the public interface --------------------------------------------

    def evaluate(self, position: Position, ply: int = 0) -> Evaluation:
        """Cubeless chances of the player on roll before rolling, searched ``ply`` deep."""
        board = np.frombuffer(position.raw, dtype=np.int8).reshape(1, _BOARD)
        return Evaluation.from_array(self.before_roll(board, ply)[0])

    def rank_plays(
        self, position: Position, dice: tuple[int, int], ply: int = 0
    ) -> list[tuple[Play, Evaluation]]:
        """Legal plays from best to worst, each with its evaluation for the mover."""
        return [
            (play, evaluation)
            for play, evaluation, _ in self.rank_plays_searched(position, dice, ply)
        ]

    def rank_plays_searched(
        self, position: Position, dice: tuple[int, int], ply: int = 0
    ) -> list[tuple[Play, Evaluation, int]]:
        """:meth:`rank_plays` with the depth each play was searched to.

        Beyond 0-ply only the candidates that survive pruning are searched deeper;
        the rest keep their 0-ply figures and rank below them.
        """
        plays = position.plays(validate_dice(dice))
        after = np.frombuffer(packed_boards(plays), dtype=np.int8).reshape(-1, _BOARD)
        values = self.after_play(after, 0)
        depth = np.zeros(len(plays), dtype=np.int64)
        alive = np.arange(len(plays))
        # Each stage keeps the best few of the one before and searches them a ply
        # deeper: GNU Backgammon's move filters (8 within 0.16, then 2 within 0.04).
        for stage in range(1, ply + 1):
            if alive.size <= 1:
                break
            keep, margin = _FILTERS[min(stage, len(_FILTERS)) - 1]
            alive = alive[self._prune(equity(values[alive]), keep, margin)]
            values[alive] = self.after_play(after[alive], stage)
            depth[alive] = stage
        # Deeper figures first (they are the better informed), then by equity.
        order = np.lexsort((-equity(values), -depth))
        return [(plays[i], Evaluation.from_array(values[i]), int(depth[i])) for i in order]

    def best_play(self, position: Position, dice: tuple[int, int], ply: int = 0) -> Play:
        """The play with the highest cubeless equity for the mover."""
        if ply > 0:
            return self.rank_plays(position, dice, ply)[0][0]
        plays = position.plays(validate_dice(dice))
        if len(plays) == 1:
            return plays[0]
        after = np.frombuffer(packed_boards(plays), dtype=np.int8).reshape(-1, _BOARD)
        return plays[kernels.best_equity(self._zero_ply(after, after=True))]


class Evaluator(Search):
    """Nets and exact databases behind one evaluation interface.

    Each position goes to the method made for its class: a finished game or a
    bear-off (both sides home) to exact counting, a race (no contact left) to
    ``race`` when there is one, everything else to ``network``, the contact
    net.  Each net reads the encoding it was trained on
    (:func:`~gammon.engine.encoding.encoder_for`, by its number of inputs).
    """

    name = "gammon"
    is_ours = True

    def __init__(
        self, network: Network, *, race: Network | None = None, bearoff: bool = True
    ) -> None:
        self.network = network
        #: The net for races (no contact), or None to leave them to ``network``.
        self.race = race
        #: Whether both-sides-bearing-off positions come from the bear-off database.
        self.bearoff = bearoff

    def _zero_ply(self, boards: npt.NDArray[np.int8], *, after: bool) -> FloatArray:
        """Finished games are scored exactly, and so are games the player on roll
        finishes with any roll; bear-offs come from the database, the rest from
        the network (one compiled pass: :func:`~gammon.engine._evaluator_kernels.zero_ply`).
        """
        boards = np.ascontiguousarray(boards.reshape(-1, _BOARD), dtype=np.int8)
        out = np.empty((boards.shape[0], 5), dtype=np.float32)
        contact = self.network
        race = self.race or contact
        contact_kind = _encoding_kind(contact.w1.shape[0])
        race_kind = _encoding_kind(race.w1.shape[0])
        kernels.zero_ply(
            boards,
            after,
            out,
            _bearoff_arrays() if self.bearoff else None,
            (contact.w1, contact.b1, contact.w2, contact.b2),
            contact_kind,
            (race.w1, race.b1, race.w2, race.b2),
            race_kind,
            _encoder_tables(kernels.RACE in (contact_kind, race_kind)),
        )
        return out


def require_ours(evaluator: Search, what: str) -> None:
    """Refuse an engine that is not our own nets where ``what`` makes training data.

    Other programs' engines are yardsticks and second opinions, never teachers: their
    answers must not flow into our nets (issue 18), whatever their licence says.
    """
    if not evaluator.is_ours:
        raise NotOurEngineError(
            f"{what} learns only from our own nets, not from the {evaluator.name!r} engine"
        )


_KINDS = {INPUT_SIZE: kernels.RAW, CONTACT_INPUTS: kernels.CONTACT, RACE_INPUTS: kernels.RACE}


@functools.cache
def _encoding_kind(inputs: int) -> int:
    """The kernels' name of the encoding a net of ``inputs`` inputs reads."""
    encoder_for(inputs)  # the error for a net no encoding fits
    return _KINDS[inputs]


@functools.cache
def _bearoff_arrays() -> tuple[FloatArray, FloatArray]:
    """The one-sided database as the kernels read it (plain arrays: quicker to pass)."""
    table = one_sided_table()
    return np.asarray(table.rolls), np.asarray(table.first_off)


_NO_MEANS = np.zeros(1, dtype=np.float64)


@functools.cache
def _encoder_tables(
    race: bool,
) -> tuple[FloatArray, npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The encoders' tables; the one-sided means (the database) only for the race encoding."""
    mean_rolls, mean_first = one_sided_means() if race else (_NO_MEANS, _NO_MEANS)
    return ESCAPES, BINOM, mean_rolls, mean_first


WEIGHTS = Path(str(resources.files("gammon.engine") / "weights"))


@functools.cache
def one_blas_thread() -> None:
    """Limit BLAS to one thread, once per process: the engine multiplies small matrices,
    where extra threads only wait on each other (measured: a 0-ply game took 0.41 s with
    OpenBLAS's default threads on a busy 2-core machine, 0.056 s with one).

    A threaded program calls it before its threads start: threadpoolctl walks the loaded
    libraries with a Python callback under the dynamic loader's lock, and a thread loading
    an extension module meanwhile holds the GIL while it waits for that lock, so both
    wait forever (seen as a server that stopped answering during its warm-up).
    """
    threadpool_limits(limits=1, user_api="blas")


def load_evaluator(folder: Path) -> Evaluator:
    """The nets of a weights folder: ``contact.npz``, and ``race.npz`` if it has one."""
    race = folder / "race.npz"
    return Evaluator(
        Network.load(folder / "contact.npz"),
        race=Network.load(race) if race.exists() else None,
    )


@functools.cache
def default_evaluator() -> Evaluator:
    """The shipped network, loaded once (BLAS limited to one thread: :func:`one_blas_thread`)."""
    one_blas_thread()
    return load_evaluator(WEIGHTS)


def evaluate(position: Position, ply: int = 0) -> Evaluation:
    """Cubeless chances of the player on roll with the shipped network."""
    return default_evaluator().evaluate(position, ply)


def rank_plays(
    position: Position, dice: tuple[int, int], ply: int = 0
) -> list[tuple[Play, Evaluation]]:
    """Legal plays ranked by the shipped network, best first."""
    return default_evaluator().rank_plays(position, dice, ply)


def best_play(position: Position, dice: tuple[int, int], ply: int = 0) -> Play:
    """The shipped network's choice (an element of ``position.plays(dice)``)."""
    return default_evaluator().best_play(position, dice, ply)
