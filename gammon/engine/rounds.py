"""One supervised round (issue 18, item 4): the contact net fitted to the mined rollouts,
its epoch chosen by our own judge, and the frozen benchmark's word on whether it is better.

Usage::

    python -m gammon.engine.rounds --data training/rollouts-r1.npz --out training/round1 \\
        [--start gammon/engine/weights] [--epochs 12] [--lr 1e-4] [--anchors 20000] \\
        [--anchor-share 1.0] [--bench training/judged-r1.npz] [--seed 1]

Why each part:

- **Three kinds of games.** One mined game in :data:`~gammon.engine.judged.HOLDOUT` is
  the benchmark's and one in :data:`SELECTION` (``game % SELECTION == 1``, never a
  benchmark game) chooses the epoch; the round fits only the rest. Choosing the epoch on
  the benchmark would tune to it.
- **Anchors.** The rollouts cover only the positions where our net was wrong, a few
  thousand boards; fitted alone, the net forgets what self-play taught it everywhere
  else. Each epoch mixes in positions of the start net's own games with its own 0-ply
  chances as targets (``--anchor-share`` of them per rollout row): the old knowledge
  down-weighted rather than thrown away.
- **The judge.** The epoch kept is the one whose 0-ply choices lose least on the
  selection games' rolled-out decisions (their candidates valued by the same rollouts
  as the benchmark's), not the one with the lowest squared error: the error of a choice
  is what play costs.

The race net and the bear-off database are the start's; a round writes ``contact.npz``
and ``race.npz`` into ``--out`` (a weights folder :func:`load_evaluator` reads) only
when an epoch beat the start on the selection games. Whether it ships is the
benchmark's and a head-to-head's say (``bench.strength``), recorded in TRAINING.md.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gammon.engine.encoding import encoder_for, is_contact_boards
from gammon.engine.evaluator import WEIGHTS, Evaluator, load_evaluator, one_blas_thread
from gammon.engine.judged import JudgedSet, choose, compare, score, training_rows
from gammon.engine.network import Network
from gammon.engine.supervise import sample_positions
from gammon.engine.train import Adam, train_step

__all__ = ["SELECTION", "RoundData", "RoundResult", "anchor_set", "fit_round", "main"]

#: One mined game in this many (``game % SELECTION == 1``) chooses the epoch.
SELECTION = 10


def selection_games(games: npt.NDArray[np.integer]) -> npt.NDArray[np.bool_]:
    return np.asarray(games % SELECTION == 1)


@dataclass(frozen=True)
class RoundData:
    """What a round fits (contact boards with the player on roll, and their rolled-out
    chances) and the decisions that choose its epoch."""

    boards: npt.NDArray[np.int8]
    targets: npt.NDArray[np.float32]
    selection: JudgedSet

    @classmethod
    def load(cls, data: Path | str) -> RoundData:
        with np.load(data) as mined:
            games, boards, targets = mined["game"], mined["boards"], mined["targets"]
        used = training_rows(games) & ~selection_games(games)
        boards, targets = boards[used], targets[used]
        contact = is_contact_boards(boards)
        return cls(
            boards[contact],
            targets[contact].astype(np.float32),
            JudgedSet.from_mined(data, pick=selection_games),
        )


def anchor_set(
    net: Network, count: int, seed: int, evaluator: Evaluator
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """Contact positions of ``evaluator``'s own games, with ``net``'s 0-ply chances."""
    positions = sample_positions(count, seed, evaluator)
    boards = np.stack([np.frombuffer(p.raw, dtype=np.int8) for p in positions])
    boards = boards[is_contact_boards(boards)]
    return boards, net.forward(encoder_for(net.inputs)(boards)).astype(np.float32)


def _copy(net: Network) -> Network:
    return Network(net.w1.copy(), net.b1.copy(), net.w2.copy(), net.b2.copy())


@dataclass(frozen=True)
class RoundResult:
    """The best epoch's net (None: no epoch beat the start) and each epoch's selection
    error in millipoints a decision (epoch 0: the start)."""

    net: Network | None
    errors: tuple[float, ...]

    @property
    def best_epoch(self) -> int:
        return int(np.argmin(self.errors))


def fit_round(
    start: Evaluator,
    data: RoundData,
    anchors: tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]],
    *,
    epochs: int,
    lr: float,
    anchor_share: float,
    seed: int = 0,
    batch: int = 64,
    report: bool = True,
) -> RoundResult:
    """Fit a copy of ``start``'s contact net for ``epochs``; keep the epoch whose 0-ply
    choices lose least on the selection decisions."""
    net = _copy(start.network)
    encode = encoder_for(net.inputs)
    x, y = encode(data.boards), data.targets
    anchor_x, anchor_y = encode(anchors[0]), anchors[1]
    rng = np.random.default_rng(seed)
    per_epoch = round(anchor_share * x.shape[0]) if anchor_x.shape[0] else 0
    opt = Adam(lr=lr)

    def selection_error(candidate: Network) -> float:
        judge = replace_network(start, candidate)
        return score(judge, data.selection, 0).overall.mean

    errors = [selection_error(net)]
    best: Network | None = None
    began = time.perf_counter()
    for epoch in range(1, epochs + 1):
        picked = rng.integers(0, max(1, anchor_x.shape[0]), per_epoch)
        xs, ys = np.concatenate((x, anchor_x[picked])), np.concatenate((y, anchor_y[picked]))
        order = rng.permutation(xs.shape[0])
        for first in range(0, order.size, batch):
            rows = order[first : first + batch]
            train_step(net, opt, xs[rows], ys[rows])
        errors.append(selection_error(net))
        if errors[-1] < min(errors[:-1]):
            best = _copy(net)
        if report:
            print(
                f"epoch {epoch}/{epochs}: selection {errors[-1]:.2f} mp a decision "
                f"(start {errors[0]:.2f}, best {min(errors):.2f}), "
                f"{time.perf_counter() - began:.0f} s",
                flush=True,
            )
    return RoundResult(best, tuple(errors))


def replace_network(evaluator: Evaluator, net: Network) -> Evaluator:
    """``evaluator`` with another contact net (the same race net and bear-off database)."""
    return Evaluator(net, race=evaluator.race, bearoff=evaluator.bearoff)


def bench_lines(
    start: Evaluator, fitted: Evaluator, judged: JudgedSet, plies: Sequence[int]
) -> list[str]:
    """The benchmark's figures for both nets at each depth, and the paired difference."""
    lines = [f"benchmark: {judged.decisions} decisions, {judged.candidates} candidates"]
    for ply in plies:
        before, after = score(start, judged, ply), score(fitted, judged, ply)
        paired = compare(judged, choose(fitted, judged, ply), choose(start, judged, ply))
        lines += [
            f"{ply}-ply start:  {before}",
            f"{ply}-ply fitted: {after}",
            f"{ply}-ply fitted minus start (paired): {paired}",
        ]
    return lines


def main(argv: list[str] | None = None) -> None:
    one_blas_thread()
    parser = argparse.ArgumentParser(prog="python -m gammon.engine.rounds", description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("training/rollouts-r1.npz"))
    parser.add_argument("--out", type=Path, required=True, help="weights folder to write")
    parser.add_argument("--start", type=Path, default=WEIGHTS, help="weights folder to start from")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--anchors", type=int, default=20_000, help="anchor positions drawn")
    parser.add_argument("--anchor-share", type=float, default=1.0, help="anchors per data row")
    parser.add_argument("--bench", type=Path, default=None, help="frozen benchmark (.npz)")
    parser.add_argument("--ply", type=int, nargs="+", default=[0, 1], help="benchmark depths")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = load_evaluator(args.start)
    began = time.process_time()
    data = RoundData.load(args.data)
    print(
        f"{data.boards.shape[0]} contact rows to fit; selection: {data.selection.decisions} "
        f"decisions; drawing {args.anchors} anchor positions",
        flush=True,
    )
    anchors = anchor_set(start.network, args.anchors, args.seed, start)
    result = fit_round(
        start, data, anchors, epochs=args.epochs, lr=args.lr,
        anchor_share=args.anchor_share, seed=args.seed,
    )  # fmt: skip
    best, first = min(result.errors), result.errors[0]
    print(f"best epoch {result.best_epoch}: {best:.2f} mp a decision against {first:.2f}")
    if result.net is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        result.net.save(args.out / "contact.npz")
        if (args.start / "race.npz").exists():
            shutil.copy(args.start / "race.npz", args.out / "race.npz")
        if args.bench is not None:
            judged = JudgedSet.load(args.bench)
            fitted = replace_network(start, result.net)
            print("\n".join(bench_lines(start, fitted, judged, args.ply)))
    print(f"CPU {time.process_time() - began:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
