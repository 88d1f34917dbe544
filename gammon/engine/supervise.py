"""Supervised training on positions rolled out by the current net.

Usage::

    python -m gammon.engine.supervise collect --positions 4000 --trials 72 \\
        --data training/rollouts.npz
    python -m gammon.engine.supervise collect ... --ray auto    # on a Ray cluster
    python -m gammon.engine.supervise train --data training/rollouts.npz \\
        --start gammon/engine/weights/contact.npz --out training/supervised.npz

``collect`` samples positions from the current net's self-play (contact and
race, not bear-offs, which the database covers), rolls each one out and
appends (board, mean outcome) to the data file every 50 positions, so a stopped
run resumes where it was.  ``train`` starts from a net (the shipped one by default) and moves the
net toward the rollout results (cross-entropy, Adam), holding out a tenth of the
positions to report whether it generalises.  A rollout's mean looks further
than one TD step, which is why the strongest open engines refine their nets
this way.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from gammon.engine.bearoff import is_bearoff_batch
from gammon.engine.encoding import encoder_for
from gammon.engine.evaluator import WEIGHTS, Evaluator, default_evaluator, one_blas_thread
from gammon.engine.network import Network
from gammon.engine.rollout import rollout
from gammon.engine.train import Adam, train_step
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.engine.cluster import RayCluster

__all__ = ["collect", "fit", "main", "sample_positions"]


def sample_positions(count: int, seed: int, evaluator: Evaluator) -> list[Position]:
    """Positions from the net's own 0-ply games, one in eight turns, no bear-offs."""
    rng = np.random.default_rng(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial()
        first = True
        while position.winner() is None and len(found) < count:
            while True:
                dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
                if not first or dice[0] != dice[1]:
                    break
            first = False
            board = np.frombuffer(position.raw, dtype=np.int8).reshape(1, 54)
            if rng.random() < 0.125 and not is_bearoff_batch(board)[0]:
                found.append(position)
            play = evaluator.best_play(position, dice)
            if play.position.winner() is not None:
                break
            position = play.position.swapped()
    return found


def collect(
    data: Path, positions: int, trials: int, seed: int, *, cluster: RayCluster | None = None
) -> None:
    """Roll out ``positions`` sampled positions into ``data``, resuming what is there.

    Position ``index`` (from 1) is rolled out with seed ``seed * 1_000_003 + index``,
    here or, with ``cluster``, as a Ray task (:mod:`gammon.engine.cluster`): the data
    are the same. Results are appended in the positions' order, so the file always
    holds a prefix of them and a stopped run resumes where it was.
    """
    from rich.progress import Progress

    evaluator = default_evaluator()
    boards: list[npt.NDArray[np.int8]] = []
    targets: list[npt.NDArray[np.float64]] = []
    if data.exists():
        with np.load(data) as saved:
            boards = list(saved["boards"])
            targets = list(saved["targets"])
    done = len(boards)
    wanted = sample_positions(positions, seed, evaluator)[done:]

    def keep(index: int, position: Position, chances: npt.NDArray[np.float64]) -> None:
        boards.append(np.frombuffer(position.raw, dtype=np.int8).copy())
        targets.append(chances)
        if index % 50 == 0 or index == positions:
            _save(data, boards, targets)
            if not sys.stdout.isatty():
                print(f"{index}/{positions} positions rolled out", flush=True)

    with Progress(disable=not sys.stdout.isatty()) as progress:
        task = progress.add_task("rollouts", total=positions, completed=done)
        if cluster is None:
            for index, position in enumerate(wanted, done + 1):
                result = rollout(
                    position, trials=trials, seed=seed * 1_000_003 + index, evaluator=evaluator
                )
                progress.advance(task)
                keep(index, position, np.array(result.evaluation.probabilities))
        else:
            jobs = [
                (position, trials, seed * 1_000_003 + index)
                for index, position in enumerate(wanted, done + 1)
            ]
            finished: dict[int, npt.NDArray[np.float64]] = {}
            kept = 0
            for number, chances in cluster.map(_rollout_task, jobs):
                progress.advance(task)
                finished[number] = chances
                while kept in finished:  # append in order: the file stays a prefix
                    keep(done + 1 + kept, wanted[kept], finished.pop(kept))
                    kept += 1
    _save(data, boards, targets)


def _rollout_task(position: Position, trials: int, seed: int) -> npt.NDArray[np.float64]:
    """One position's rollout as a Ray task: its mean outcome (the shipped net)."""
    result = rollout(position, trials=trials, seed=seed)
    return np.array(result.evaluation.probabilities)


def _save(
    data: Path, boards: list[npt.NDArray[np.int8]], targets: list[npt.NDArray[np.float64]]
) -> None:
    data.parent.mkdir(parents=True, exist_ok=True)
    tmp = data.with_name(data.name + ".tmp.npz")
    np.savez_compressed(tmp, boards=np.stack(boards), targets=np.stack(targets))
    tmp.replace(data)


def fit(
    net: Network,
    boards: npt.NDArray[np.int8],
    targets: npt.NDArray[np.float64],
    *,
    epochs: int,
    lr: float,
    batch: int = 64,
    seed: int = 0,
) -> tuple[float, float]:
    """Train ``net`` toward ``targets``; returns (before, after) held-out mean squared error."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(boards.shape[0])
    held = order[: max(1, boards.shape[0] // 10)]
    used = order[boards.shape[0] // 10 :]
    x = encoder_for(net.inputs)(boards)
    y = targets.astype(np.float32)

    def held_error() -> float:
        return float(np.mean((net.forward(x[held]) - y[held]) ** 2))

    before = held_error()
    opt = Adam(lr=lr)
    for _ in range(epochs):
        rng.shuffle(used)
        for start in range(0, used.size, batch):
            rows = used[start : start + batch]
            train_step(net, opt, x[rows], y[rows])
    return before, held_error()


def main(argv: list[str] | None = None) -> None:
    one_blas_thread()
    parser = argparse.ArgumentParser(description="Supervised training on rolled-out positions.")
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="roll out positions from self-play")
    gather.add_argument("--positions", type=int, required=True)
    gather.add_argument("--trials", type=int, default=72)
    gather.add_argument("--data", type=Path, default=Path("training/rollouts.npz"))
    gather.add_argument("--seed", type=int, default=1)
    gather.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="roll out on a Ray cluster: local, auto or an address (gammon[ray])",
    )
    learn = commands.add_parser("train", help="fit a checkpoint's net to the rollouts")
    learn.add_argument("--data", type=Path, default=Path("training/rollouts.npz"))
    learn.add_argument("--start", type=Path, default=WEIGHTS / "contact.npz")
    learn.add_argument("--out", type=Path, required=True)
    learn.add_argument("--epochs", type=int, default=20)
    learn.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args(argv)
    if args.command == "collect":
        from gammon.engine.cluster import connect

        started = time.perf_counter()
        cluster = connect(args.ray)
        try:
            collect(args.data, args.positions, args.trials, args.seed, cluster=cluster)
        finally:
            if cluster is not None:
                cluster.close()
        print(f"done in {time.perf_counter() - started:.0f} s: {args.data}")
        return
    net = Network.load(args.start)
    with np.load(args.data) as data:
        boards, targets = data["boards"], data["targets"]
    before, after = fit(net, boards, targets, epochs=args.epochs, lr=args.lr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    net.save(args.out)
    print(
        f"{boards.shape[0]} positions, {args.epochs} epochs: held-out squared error "
        f"{before:.5f} -> {after:.5f}; wrote {args.out}"
    )


if __name__ == "__main__":
    main()
