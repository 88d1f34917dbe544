"""Supervised training on positions judged by our own engine: rolled out, or searched.

Usage::

    python -m gammon.engine.supervise collect --positions 4000 --trials 72 \\
        --data training/rollouts.npz
    python -m gammon.engine.supervise collect ... --ray auto    # on a Ray cluster
    python -m gammon.engine.supervise collect --positions 200000 --ply 1 \\
        --data training/ply1.npz                            # searched, not rolled out
    python -m gammon.engine.supervise mined --positions 100000 --trials 72 --truncate 23 \\
        --data training/rollouts-r1.npz                     # mined, low-noise rollouts
    python -m gammon.engine.supervise train --data training/rollouts.npz \\
        --start gammon/engine/weights/contact.npz --out training/supervised.npz

``collect`` samples positions from the nets' own self-play (contact and race, not
bear-offs, which the database covers; ``--nets DIR`` for other nets than the shipped
ones) and judges each: by a rollout (``--trials``), or with ``--ply N`` by the same
nets' N-ply search, a hundred times cheaper, in batches. It appends (board, chances)
to the data file as it goes, so a stopped run resumes where it was. ``train`` starts
from a net (the shipped contact net by default) and moves it toward the targets of
the positions of its own class (a contact net: positions with contact; a race net:
races), cross-entropy with Adam, holding out a tenth to report whether it
generalises.

``mined`` rolls out the positions of :mod:`gammon.engine.mining` with low noise
(:mod:`gammon.engine.mined_collection`).

Why: a rollout's mean, or a search one roll deeper, looks further than the 0-ply
net does, and self-play TD(0) alone has levelled off (TRAINING.md). Fitting the
0-ply net to its own 1-ply search teaches it what the next roll brings; each round
can start from the nets the last one made.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from gammon.engine.bearoff import is_bearoff_batch
from gammon.engine.encoding import RACE_INPUTS, encoder_for, is_contact_boards
from gammon.engine.evaluator import (
    WEIGHTS,
    Evaluator,
    default_evaluator,
    load_evaluator,
    one_blas_thread,
    require_ours,
)
from gammon.engine.judged import training_rows
from gammon.engine.mined_collection import MINED_SETTINGS, collect_mined
from gammon.engine.network import Network
from gammon.engine.rollout import RolloutSettings, rollout
from gammon.engine.train import Adam, train_step
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.engine.cluster import RayCluster

__all__ = ["collect", "fit", "main", "sample_positions", "training_data"]


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


#: Positions searched in one batch by ``collect --ply`` (and saved after each).
SEARCH_BATCH = 512


def collect(
    data: Path,
    positions: int,
    trials: int,
    seed: int,
    *,
    cluster: RayCluster | None = None,
    ply: int | None = None,
    evaluator: Evaluator | None = None,
) -> None:
    """Judge ``positions`` sampled positions into ``data``, resuming what is there.

    With ``ply`` each is the ``evaluator``'s (the shipped nets by default) search that
    deep, in batches of :data:`SEARCH_BATCH`. Otherwise position ``index`` (from 1) is
    rolled out by the shipped nets with seed ``seed * 1_000_003 + index``, here or, with
    ``cluster``, as a Ray task (:mod:`gammon.engine.cluster`): the data are the same.
    Results are appended in the positions' order, so the file always holds a prefix of
    them and a stopped run resumes where it was.
    """
    from rich.progress import Progress

    evaluator = evaluator or default_evaluator()
    require_ours(evaluator, "supervised training's targets")
    judged = _JudgedFile.load(data, positions)
    done = len(judged.boards)
    wanted = sample_positions(positions, seed, evaluator)[done:]
    with Progress(disable=not sys.stdout.isatty()) as progress:
        task = progress.add_task(
            "rollouts" if ply is None else f"{ply}-ply", total=positions, completed=done
        )

        def advance(count: int = 1) -> None:
            progress.advance(task, count)

        if ply is not None:
            _search_into(judged, wanted, evaluator, ply, advance)
        elif cluster is None:
            for index, position in enumerate(wanted, done + 1):
                result = rollout(
                    position, trials=trials, seed=seed * 1_000_003 + index, evaluator=evaluator
                )
                advance()
                judged.keep(index, position, np.array(result.evaluation.probabilities))
        else:
            _roll_out_on(cluster, judged, wanted, trials, seed, advance)
    judged.save()


@dataclass
class _JudgedFile:
    """The (board, chances) rows of a ``collect`` data file, saved as they grow."""

    data: Path
    positions: int
    boards: list[npt.NDArray[np.int8]]
    targets: list[npt.NDArray[np.float64]]

    @classmethod
    def load(cls, data: Path, positions: int) -> _JudgedFile:
        """The rows already in ``data``, none if it is not there yet."""
        if not data.exists():
            return cls(data, positions, [], [])
        with np.load(data) as saved:
            return cls(data, positions, list(saved["boards"]), list(saved["targets"]))

    def keep(self, index: int, position: Position, chances: npt.NDArray[np.float64]) -> None:
        """Append rolled-out position ``index`` (from 1), saving every fiftieth and the last."""
        self.boards.append(np.frombuffer(position.raw, dtype=np.int8).copy())
        self.targets.append(chances)
        if index % 50 == 0 or index == self.positions:
            self.save()
            if not sys.stdout.isatty():
                print(f"{index}/{self.positions} positions rolled out", flush=True)

    def save(self) -> None:
        _save(self.data, self.boards, self.targets)


def _search_into(
    judged: _JudgedFile,
    wanted: list[Position],
    evaluator: Evaluator,
    ply: int,
    advance: Callable[[int], None],
) -> None:
    """Judge ``wanted`` by ``evaluator``'s ``ply`` search, a batch at a time, saving each."""
    for start in range(0, len(wanted), SEARCH_BATCH):
        chunk = wanted[start : start + SEARCH_BATCH]
        raw = np.stack([np.frombuffer(p.raw, dtype=np.int8) for p in chunk])
        judged.boards.extend(raw.copy())
        judged.targets.extend(evaluator.before_roll(raw, ply).astype(np.float64))
        judged.save()
        advance(len(chunk))
        if not sys.stdout.isatty():
            print(f"{len(judged.boards)}/{judged.positions} positions searched", flush=True)


def _roll_out_on(
    cluster: RayCluster,
    judged: _JudgedFile,
    wanted: list[Position],
    trials: int,
    seed: int,
    advance: Callable[[int], None],
) -> None:
    """Roll ``wanted`` out as Ray tasks, kept in their order as they finish: the file
    stays a prefix of the positions whatever order the tasks end in."""
    done = len(judged.boards)
    jobs = [
        (position, trials, seed * 1_000_003 + index)
        for index, position in enumerate(wanted, done + 1)
    ]
    finished: dict[int, npt.NDArray[np.float64]] = {}
    kept = 0
    for number, chances in cluster.map(_rollout_task, jobs):
        advance(1)
        finished[number] = chances
        while kept in finished:
            judged.keep(done + 1 + kept, wanted[kept], finished.pop(kept))
            kept += 1


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


def training_data(data: Path) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float64]]:
    """The boards and targets of a data file that training may fit: of a mined
    collection, all but the judged benchmark's games (:mod:`gammon.engine.judged`)."""
    with np.load(data) as saved:
        boards, targets = saved["boards"], saved["targets"]
        if "game" in saved.files:
            used = training_rows(saved["game"])
            boards, targets = boards[used], targets[used]
    return boards, targets


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
    """Train ``net`` toward the ``targets`` of the boards of its class (a race net: races;
    any other: contact); returns (before, after) held-out mean squared error."""
    race = net.inputs == RACE_INPUTS
    own = is_contact_boards(boards) != race  # the positions of the net's own class
    boards, targets = boards[own], targets[own]
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


def _parser() -> argparse.ArgumentParser:
    """The subcommands: collect (self-play positions), mined (low-noise rollouts of mined
    positions) and train (fit a net to the rollouts)."""
    parser = argparse.ArgumentParser(description="Supervised training on rolled-out positions.")
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="judge positions from self-play")
    gather.add_argument("--positions", type=int, required=True)
    gather.add_argument("--trials", type=int, default=72, help="trials of each rollout")
    gather.add_argument(
        "--ply", type=int, default=None, help="judge by a search this deep, not by rollouts"
    )
    gather.add_argument(
        "--nets",
        type=Path,
        default=None,
        help="a weights folder (contact.npz, race.npz) to play and search with (with --ply)",
    )
    gather.add_argument("--data", type=Path, default=Path("training/rollouts.npz"))
    gather.add_argument("--seed", type=int, default=1)
    gather.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="roll out on a Ray cluster: local, auto or an address (gammon[ray])",
    )
    mined = commands.add_parser("mined", help="low-noise rollouts of mined positions")
    mined.add_argument("--positions", type=int, required=True, help="stop at this many")
    mined.add_argument("--trials", type=int, default=72, help="trials of each rollout")
    mined.add_argument(
        "--truncate",
        type=int,
        default=MINED_SETTINGS.truncate,
        help="plies before the net's 0-ply scores a trial (-1: play to the end)",
    )
    mined.add_argument("--ply", type=int, default=2, help="the miner's search depth")
    mined.add_argument("--save-every", type=int, default=100, help="positions between saves")
    mined.add_argument("--data", type=Path, default=Path("training/rollouts-r1.npz"))
    mined.add_argument("--seed", type=int, default=1)
    mined.add_argument("--ray", metavar="ADDRESS", default=None, help="as for collect")
    learn = commands.add_parser("train", help="fit a checkpoint's net to the rollouts")
    learn.add_argument("--data", type=Path, default=Path("training/rollouts.npz"))
    learn.add_argument("--start", type=Path, default=WEIGHTS / "contact.npz")
    learn.add_argument("--out", type=Path, required=True)
    learn.add_argument("--epochs", type=int, default=20)
    learn.add_argument("--lr", type=float, default=1e-4)
    return parser


def _run_collect(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """gammon.engine.supervise collect: judge self-play positions (rollouts or a search)."""
    from gammon.engine.cluster import connect

    if args.nets is not None and args.ply is None:
        parser.error("--nets goes with --ply (rollouts use the shipped nets)")
    started = time.perf_counter()
    cluster = connect(args.ray)
    evaluator = load_evaluator(args.nets) if args.nets is not None else None
    try:
        collect(
            args.data,
            args.positions,
            args.trials,
            args.seed,
            cluster=cluster,
            ply=args.ply,
            evaluator=evaluator,
        )
    finally:
        if cluster is not None:
            cluster.close()
    print(f"done in {time.perf_counter() - started:.0f} s: {args.data}")


def _run_mined(args: argparse.Namespace) -> None:
    """gammon.engine.supervise mined: low-noise rollouts of mined positions, resumable."""
    from gammon.engine.cluster import connect

    started = time.perf_counter()
    settings = RolloutSettings(
        variance_reduction=True,
        stratify=True,
        truncate=None if args.truncate < 0 else args.truncate,
    )
    cluster = connect(args.ray)
    try:
        collect_mined(
            args.data,
            args.positions,
            args.seed,
            trials=args.trials,
            settings=settings,
            cluster=cluster,
            save_every=args.save_every,
            ply=args.ply,
        )
    finally:
        if cluster is not None:
            cluster.close()
    print(f"done in {time.perf_counter() - started:.0f} s: {args.data}")


def _run_train(args: argparse.Namespace) -> None:
    """gammon.engine.supervise train: fit a net to the rollouts and write it."""
    net = Network.load(args.start)
    boards, targets = training_data(args.data)
    before, after = fit(net, boards, targets, epochs=args.epochs, lr=args.lr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    net.save(args.out)
    contact = int(np.count_nonzero(is_contact_boards(boards)))
    own = boards.shape[0] - contact if net.inputs == RACE_INPUTS else contact
    print(
        f"{own} of the {boards.shape[0]} positions are of the net's class, {args.epochs} "
        "epochs: held-out squared error "
        f"{before:.5f} -> {after:.5f}; wrote {args.out}"
    )


def main(argv: list[str] | None = None) -> None:
    one_blas_thread()
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "collect":
        _run_collect(args, parser)
    elif args.command == "mined":
        _run_mined(args)
    else:
        _run_train(args)


if __name__ == "__main__":
    main()
