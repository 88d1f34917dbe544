"""Low-noise rollouts of mined positions: round 1's targets and on (TRAINING.md).

:func:`collect_mined` rolls out the positions of :mod:`gammon.engine.mining` (the best
plays of decisions where 0-ply and 2-ply disagree, each decision's plays on the same
dice) with variance reduction and stratified dice
(:class:`~gammon.engine.rollout.RolloutSettings`), and saves with each position its
standard error and trials. ``python -m gammon.engine.supervise mined`` runs it.

Why a module of its own: its data file (:data:`MINED_FIELDS`) and its resume, a rerun
that is one uninterrupted run, are a contract of their own that a long collection
rests on; the plain collection and the fitting in :mod:`gammon.engine.supervise` do not
share it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from gammon.engine.evaluator import Evaluator, default_evaluator, require_ours
from gammon.engine.mining import Decision, make_up, mine
from gammon.engine.rollout import RolloutSettings, SiblingRollout, rollout_siblings
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.engine.cluster import RayCluster

__all__ = ["MINED_FIELDS", "MINED_SETTINGS", "collect_mined"]


#: The low-noise setting of ``mined``, chosen by ``python -m bench.rollout_noise`` (TRAINING.md,
#: round 1): 2.9 times less variance a CPU second than plain rollouts, and 23 plies leave
#: half the difference from played-out rollouts that 7 or 11 plies leave (0.04-0.055 RMS).
MINED_SETTINGS = RolloutSettings(variance_reduction=True, stratify=True, truncate=23)
#: The fields of a ``mined`` data file, one row per position.
MINED_FIELDS = ("boards", "targets", "errors", "trials", "game", "turn", "kind")


def collect_mined(
    data: Path,
    positions: int,
    seed: int,
    *,
    trials: int = 72,
    settings: RolloutSettings = MINED_SETTINGS,
    cluster: RayCluster | None = None,
    evaluator: Evaluator | None = None,
    save_every: int = 100,
    ply: int = 2,
    on_save: Callable[[int], None] | None = None,
) -> None:
    """Roll out mined positions (:func:`gammon.engine.mining.mine`, seed ``seed``) into
    ``data`` until it holds at least ``positions``, resuming what is there.

    Each decision's candidates are rolled out together on the same dice
    (:func:`~gammon.engine.rollout.rollout_siblings`) with the seed
    ``(seed * 1_000_003 + game) * 1_000 + turn``, here or, with ``cluster``, one Ray task a
    decision: the data are the same. Whole decisions are appended in the miner's order
    and saved every ``save_every`` positions, so the file always holds a prefix of one
    uninterrupted run; a rerun re-mines only the last saved game and goes on after its
    last saved decision. ``on_save(rows)`` is called after each save (tests stop there).
    """
    from rich.progress import Progress

    evaluator = evaluator or default_evaluator()
    require_ours(evaluator, "supervised training's mined targets")
    mined = _MinedFile.load(data, positions, save_every, on_save)
    last = mined.last_decision()
    decisions = (
        d for d in mine(seed, evaluator, start=last[0], ply=ply) if (d.game, d.turn) > last
    )
    width = 1 if cluster is None else 2 * cluster.cpus
    with Progress(disable=not sys.stdout.isatty()) as progress:
        task = progress.add_task("mined rollouts", total=positions, completed=mined.done)
        while mined.count < positions:
            chunk = _next_decisions(decisions, positions - mined.count, width)
            results = _roll_out_decisions(chunk, trials, seed, settings, cluster, evaluator)
            for decision, result in zip(chunk, results, strict=True):
                mined.keep(decision, result)
                progress.advance(task, len(decision.candidates))
    if mined.unsaved:
        mined.save()


@dataclass
class _MinedFile:
    """The rows of a ``mined`` data file (:data:`MINED_FIELDS`), saved every
    ``save_every`` positions with a line on how the run goes."""

    data: Path
    positions: int
    save_every: int
    on_save: Callable[[int], None] | None
    rows: dict[str, list[Any]]
    #: The rows there were when this run began, for its rate.
    done: int
    started: float = field(default_factory=time.perf_counter)
    #: This run's decisions, for the make-up of what it mined.
    kept: list[Decision] = field(default_factory=list)
    unsaved: int = 0

    @classmethod
    def load(
        cls,
        data: Path,
        positions: int,
        save_every: int,
        on_save: Callable[[int], None] | None,
    ) -> _MinedFile:
        """The rows already in ``data``, none if it is not there yet."""
        rows: dict[str, list[Any]] = {name: [] for name in MINED_FIELDS}
        if data.exists():
            with np.load(data) as saved:
                for name in MINED_FIELDS:
                    rows[name] = list(saved[name])
        return cls(data, positions, save_every, on_save, rows, len(rows["boards"]))

    @property
    def count(self) -> int:
        return len(self.rows["boards"])

    def last_decision(self) -> tuple[int, int]:
        """The (game, turn) of the last saved decision; (0, -1) before the first."""
        if not self.count:
            return (0, -1)
        return (int(self.rows["game"][-1]), int(self.rows["turn"][-1]))

    def keep(self, decision: Decision, result: SiblingRollout) -> None:
        """Append one decision's candidates with their rollouts; save when it is time."""
        rows = self.rows
        for candidate, outcome in zip(decision.candidates, result.results, strict=True):
            rows["boards"].append(np.frombuffer(candidate.position.raw, dtype=np.int8).copy())
            rows["targets"].append(np.array(outcome.evaluation.probabilities))
            rows["errors"].append(np.float64(outcome.equity_error))
            rows["trials"].append(np.int32(outcome.trials))
            rows["game"].append(np.int32(decision.game))
            rows["turn"].append(np.int32(decision.turn))
            rows["kind"].append(np.str_(decision.kind))
        self.kept.append(decision)
        self.unsaved += len(decision.candidates)
        if self.unsaved >= self.save_every or self.count >= self.positions:
            self.save()
            self.unsaved = 0
            if not sys.stdout.isatty():
                print(self._progress_line(decision), flush=True)
            if self.on_save is not None:
                self.on_save(self.count)

    def _progress_line(self, decision: Decision) -> str:
        rate = (self.count - self.done) / max(time.perf_counter() - self.started, 1e-9)
        errors = np.asarray(self.rows["errors"][-self.save_every :], dtype=np.float64)
        return (
            f"{self.count}/{self.positions} positions (game {decision.game}), "
            f"{rate:.2f}/s, mean SE {errors.mean():.4f}; this run: {make_up(self.kept)}"
        )

    def save(self) -> None:
        _save_fields(self.data, self.rows)


def _next_decisions(decisions: Iterator[Decision], room: int, width: int) -> list[Decision]:
    """Up to ``width`` decisions from the miner, fewer once they fill ``room`` positions."""
    chunk: list[Decision] = []
    wanted = 0
    while wanted < room and len(chunk) < width:
        decision = next(decisions)
        chunk.append(decision)
        wanted += len(decision.candidates)
    return chunk


def _roll_out_decisions(
    chunk: list[Decision],
    trials: int,
    seed: int,
    settings: RolloutSettings,
    cluster: RayCluster | None,
    evaluator: Evaluator,
) -> list[SiblingRollout]:
    """Each decision's siblings rolled out, here or as Ray tasks, in the chunk's order."""
    jobs = [
        (
            [c.position.raw for c in d.candidates],
            trials,
            (seed * 1_000_003 + d.game) * 1_000 + d.turn,
            settings,
        )
        for d in chunk
    ]
    if cluster is None:
        return [_siblings_task(*job, evaluator=evaluator) for job in jobs]
    finished = dict(cluster.map(_siblings_task, jobs))
    return [finished[i] for i in range(len(jobs))]


def _siblings_task(
    raws: list[bytes],
    trials: int,
    seed: int,
    settings: RolloutSettings,
    evaluator: Evaluator | None = None,
) -> SiblingRollout:
    """One decision's rollouts, as a task (the shipped nets when ``evaluator`` is None)."""
    if evaluator is not None:
        require_ours(evaluator, "supervised training's mined targets")
    positions = [Position._from_board(raw) for raw in raws]
    return rollout_siblings(
        positions, trials=trials, seed=seed, settings=settings, evaluator=evaluator
    )


def _save_fields(data: Path, rows: dict[str, list[Any]]) -> None:
    """Write every field at once, through a temporary file: the data file is never half
    written."""
    data.parent.mkdir(parents=True, exist_ok=True)
    tmp = data.with_name(data.name + ".tmp.npz")
    fields: dict[str, Any] = {name: np.stack(values) for name, values in rows.items()}
    np.savez_compressed(tmp, **fields)
    tmp.replace(data)
