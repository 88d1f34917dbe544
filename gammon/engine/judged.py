"""The judged benchmark: decisions whose candidate plays were all rolled out, so that a
net's choices are scored in seconds, per class of position (issue 18, item 3).

Usage (:mod:`bench.judged`)::

    python -m bench.judged build [--data training/rollouts-r1.npz] \\
        [--out training/judged-r1.npz] [--second-opinion gnubg]
    python -m bench.judged score [--bench training/judged-r1.npz] [--ply 0 1 2] \\
        [--nets DIR ...] [--engine gnubg ...]

Why: head-to-head matches of 20,000 games resolve about ±0.75 mp a decision, and a
round of training gains 1-3 mp, so a round's gain is invisible in them. Scoring the
choices among candidates that a low-noise rollout has already valued costs one batch of
evaluations and pairs every net on the same decisions: the interval of a difference
between two nets is that of the per-decision differences, far narrower.

Where the decisions come from: the mined collection (:mod:`gammon.engine.supervise`
``mined``) rolls out every candidate of a decision on the same dice. One game in
:data:`HOLDOUT` of it (``game % HOLDOUT == 0``) is the benchmark's and is never trained
on (:func:`training_rows`), so the benchmark grows with the collection until a round
freezes a copy (the file this module writes, named in TRAINING.md with its size).

A decision's error for a chooser is, in millipoints (thousandths of a point of cubeless
money equity), the best candidate's rolled-out equity minus the chosen one's. Only the
rolled-out candidates compete (the miner keeps the search's best few and the 0-ply
choice), so the benchmark measures ranking among the plays that matter, as GNU
Backgammon's benchmark databases do. A second opinion (GNU Backgammon's own
2-ply: a yardstick only, never a training target) can be stored beside the
rollouts' values and judges the same choices. This module never reaches another
engine (the training paths import it: tests/engine/test_training_guard.py); the bench
computes the second opinion.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gammon.engine.evaluator import Search, swap_boards
from gammon.engine.mining import CLASSES
from gammon.engine.network import equity

__all__ = [
    "HOLDOUT",
    "ClassScore",
    "JudgedSet",
    "Score",
    "choose",
    "compare",
    "decision_errors",
    "score",
    "summarise",
    "training_rows",
]

#: One mined game in this many is the benchmark's (those with ``game % HOLDOUT == 0``).
HOLDOUT = 4
_Z95 = 1.959964
_SIDE = 27


def training_rows(games: npt.NDArray[np.integer]) -> npt.NDArray[np.bool_]:
    """Which rows of a mined collection training may use: all but the benchmark's games."""
    return np.asarray(games % HOLDOUT != 0)


@dataclass(frozen=True)
class JudgedSet:
    """Decisions with their rolled-out candidates, as flat arrays (one row a candidate).

    ``boards`` are the boards each candidate play leads to, the chooser's side first (as
    :meth:`Search.after_play <gammon.engine.evaluator.Search.after_play>` takes them);
    ``judge`` is the rollout's cubeless equity for the player who chose, ``judge_error``
    its standard error; ``start[d]`` is decision ``d``'s first row (``start[-1]`` the
    number of rows); ``kind[d]`` its class (:data:`gammon.engine.mining.CLASSES`);
    ``second`` the second opinion's equity for the chooser (NaN where none is stored).
    """

    boards: npt.NDArray[np.int8]
    judge: npt.NDArray[np.float64]
    judge_error: npt.NDArray[np.float64]
    start: npt.NDArray[np.int64]
    kind: npt.NDArray[np.str_]
    game: npt.NDArray[np.int32]
    turn: npt.NDArray[np.int32]
    second: npt.NDArray[np.float64]
    second_name: str = ""

    @property
    def decisions(self) -> int:
        return int(self.kind.shape[0])

    @property
    def candidates(self) -> int:
        return int(self.boards.shape[0])

    @classmethod
    def from_mined(
        cls,
        data: Path | str,
        pick: Callable[[npt.NDArray[np.int32]], npt.NDArray[np.bool_]] | None = None,
    ) -> JudgedSet:
        """The benchmark's decisions of a mined collection: its held-out games (or the
        games ``pick`` marks, by game number), each decision with at least two candidates."""
        with np.load(data) as mined:
            games = mined["game"]
            held = ~training_rows(games) if pick is None else pick(games)
            boards = mined["boards"][held]
            targets = mined["targets"][held]
            errors = mined["errors"][held]
            games, turns, kinds = games[held], mined["turn"][held], mined["kind"][held]
        keys = games.astype(np.int64) * 100_000 + turns.astype(np.int64)
        # Rows of one decision are adjacent (collect_mined appends whole decisions).
        firsts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        ends = np.concatenate((firsts[1:], [keys.shape[0]]))
        keep = [(a, b) for a, b in zip(firsts, ends, strict=True) if b - a >= 2]
        rows = np.concatenate([np.arange(a, b) for a, b in keep]) if keep else np.empty(0, int)
        sizes = np.array([b - a for a, b in keep], dtype=np.int64)
        start = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        firsts_kept = np.array([a for a, _ in keep], dtype=np.int64)
        return cls(
            # Stored with the opponent on roll; kept here as Search.after_play takes them.
            boards=swap_boards(boards[rows]),
            # The rollout is for the player on roll after the play: the chooser's opponent.
            judge=-equity(targets[rows]),
            judge_error=errors[rows].astype(np.float64),
            start=start,
            kind=kinds[firsts_kept] if keep else np.empty(0, dtype=np.str_),
            game=games[firsts_kept] if keep else np.empty(0, dtype=np.int32),
            turn=turns[firsts_kept] if keep else np.empty(0, dtype=np.int32),
            second=np.full(rows.shape[0], np.nan),
        )

    def with_second_opinion(self, values: npt.NDArray[np.float64], name: str) -> JudgedSet:
        """The same decisions with another judge's equity of each candidate (for the
        chooser) beside the rollouts'."""
        return JudgedSet(
            self.boards,
            self.judge,
            self.judge_error,
            self.start,
            self.kind,
            self.game,
            self.turn,
            np.asarray(values, dtype=np.float64),
            name,
        )

    def save(self, path: Path | str) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(
            tmp,
            boards=self.boards,
            judge=self.judge,
            judge_error=self.judge_error,
            start=self.start,
            kind=self.kind,
            game=self.game,
            turn=self.turn,
            second=self.second,
            second_name=np.str_(self.second_name),
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path | str) -> JudgedSet:
        with np.load(path) as saved:
            return cls(
                saved["boards"],
                saved["judge"],
                saved["judge_error"],
                saved["start"],
                saved["kind"],
                saved["game"],
                saved["turn"],
                saved["second"],
                str(saved["second_name"]),
            )


def choose(search: Search, judged: JudgedSet, ply: int = 0) -> npt.NDArray[np.int64]:
    """The row ``search`` picks in each decision: its best candidate at ``ply``, in one
    batch (the first of equals, as the engine's own ranking is stable)."""
    if not judged.decisions:
        return np.empty(0, dtype=np.int64)
    values = equity(search.after_play(judged.boards, ply))
    return _best_rows(values, judged.start)


def _best_rows(
    values: npt.NDArray[np.float64], start: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    return np.array(
        [a + int(np.argmax(values[a:b])) for a, b in itertools.pairwise(start)],
        dtype=np.int64,
    )


def decision_errors(
    judged: JudgedSet, chosen: npt.NDArray[np.int64], *, by_second: bool = False
) -> npt.NDArray[np.float64]:
    """Each decision's error in millipoints: the best candidate's value minus the chosen
    one's, by the rollouts (or by the stored second opinion)."""
    values = judged.second if by_second else judged.judge
    best = np.maximum.reduceat(values, judged.start[:-1]) if judged.decisions else values[:0]
    return np.asarray(1000.0 * (best - values[chosen]), dtype=np.float64)


@dataclass(frozen=True)
class ClassScore:
    """A mean over decisions with its 95% interval (half-width)."""

    kind: str
    decisions: int
    mean: float
    interval: float

    def __str__(self) -> str:
        return f"{self.kind} {self.mean:.2f} ± {self.interval:.2f} mp ({self.decisions})"


@dataclass(frozen=True)
class Score:
    """Mean error per decision, over all and per class, with 95% intervals."""

    overall: ClassScore
    classes: tuple[ClassScore, ...]

    def __str__(self) -> str:
        return "; ".join(str(part) for part in (self.overall, *self.classes))


def _summary(kind: str, values: npt.NDArray[np.float64]) -> ClassScore:
    n = int(values.shape[0])
    mean = float(values.mean()) if n else math.nan
    spread = float(values.std(ddof=1)) if n > 1 else math.nan
    return ClassScore(kind, n, mean, _Z95 * spread / math.sqrt(n) if n > 1 else math.nan)


def summarise(judged: JudgedSet, values: npt.NDArray[np.float64]) -> Score:
    """Per-decision figures (errors, or differences of errors) as a :class:`Score`."""
    classes = tuple(
        _summary(kind, values[judged.kind == kind])
        for kind in CLASSES
        if np.any(judged.kind == kind)
    )
    return Score(_summary("all", values), classes)


def score(search: Search, judged: JudgedSet, ply: int = 0, *, by_second: bool = False) -> Score:
    """``search``'s mean error per decision at ``ply``, over all and per class."""
    chosen = choose(search, judged, ply)
    return summarise(judged, decision_errors(judged, chosen, by_second=by_second))


def compare(
    judged: JudgedSet,
    a: npt.NDArray[np.int64],
    b: npt.NDArray[np.int64],
    *,
    by_second: bool = False,
) -> Score:
    """The paired difference of two choosers' errors (a minus b: negative when a is
    better), decision by decision, with its interval: the figure that shows a round's
    gain."""
    return summarise(
        judged,
        decision_errors(judged, a, by_second=by_second)
        - decision_errors(judged, b, by_second=by_second),
    )
