"""Build the judged benchmark (:mod:`gammon.engine.judged`) and score nets on it.

Usage::

    python -m bench.judged build [--data training/rollouts-r1.npz] \\
        [--out training/judged-r1.npz] [--second-opinion gnubg]
    python -m bench.judged score [--bench training/judged-r1.npz] [--ply 0 1]
                                 [--nets DIR ...] [--engine gnubg ...]

``build`` takes the benchmark's decisions out of the mined collection (its held-out
games) and, with ``--second-opinion gnubg``, values every candidate by GNU Backgammon's
own 2-ply as well (``gammon[gnubg]``; any other engine's net under our 2-ply search with
another name): a yardstick beside our rollouts, never a training target.

``score`` lets each chooser (the shipped nets, each ``--nets`` weights folder, each
``--engine``) pick its best candidate of every decision at each ``--ply``, and prints the
mean error per decision in millipoints with its 95% interval, over all decisions and per
class, judged by the rollouts and by the second opinion where the file has one. Each
chooser after the first is compared with the first decision by decision (the paired
difference, negative when it is better): the figure that shows a round's gain. Without
``--bench`` the benchmark is built from ``--data`` on the fly, without a second opinion.

The candidates are those the miner kept (its 2-ply search's best and the 0-ply choice),
so 2-ply's own error here is biased low: compare nets at the same depth.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gammon.engine.evaluator import (
    Search,
    default_evaluator,
    load_evaluator,
    one_blas_thread,
    swap_boards,
    won_outcome,
)
from gammon.engine.judged import JudgedSet, choose, compare, decision_errors, summarise
from gammon.engine.mining import CLASSES
from gammon.engine.network import equity

_SIDE = 27


def gnubg_values(boards: npt.NDArray[np.int8], ply: int = 2) -> npt.NDArray[np.float64]:
    """GNU Backgammon's own ``ply``-deep equity of each after-play board (the mover
    first) for the player who moved."""
    import gnubg_nn

    from gammon.engine.engines.gnubg import gnubg_board

    theirs = swap_boards(boards)
    won = boards[:, 0] == boards[:, :_SIDE].sum(axis=1)
    out = np.empty(boards.shape[0], dtype=np.float64)
    if won.any():
        out[won] = equity(won_outcome(boards[won]))
    for row in np.flatnonzero(~won):
        # GNU judges for the player on roll: the mover's opponent.
        chances = np.array(gnubg_nn.probabilities(gnubg_board(theirs[row]), ply), np.float32)
        out[row] = -float(equity(chances))
    return out


def build(data: Path, out: Path, second_opinion: str | None) -> JudgedSet:
    """The benchmark of ``data`` saved to ``out``, with a second opinion if asked."""
    from gammon.engine.engines import get_engine

    judged = JudgedSet.from_mined(data)
    if second_opinion == "gnubg":
        judged = judged.with_second_opinion(gnubg_values(judged.boards, 2), "gnubg 2-ply")
    elif second_opinion:
        engine = get_engine(second_opinion)
        values = equity(engine.after_play(judged.boards, 2))
        judged = judged.with_second_opinion(values, f"{engine.name} 2-ply (our search)")
    judged.save(out)
    return judged


def _choosers(nets: Sequence[Path], engines: Sequence[str]) -> list[Search]:
    from gammon.engine.engines import get_engine

    choosers: list[Search] = [default_evaluator()]
    for folder in nets:
        search = load_evaluator(folder)
        search.name = f"nets {folder}"
        choosers.append(search)
    choosers.extend(get_engine(name) for name in engines)
    return choosers


def score_all(judged: JudgedSet, plies: Sequence[int], choosers: Sequence[Search]) -> None:
    """Print every chooser's score at every depth (see the module's docstring)."""
    has_second = bool(judged.second_name) and not np.isnan(judged.second).all()
    for ply in plies:
        first: npt.NDArray[np.int64] | None = None
        for search in choosers:
            started = time.perf_counter()
            chosen = choose(search, judged, ply)
            seconds = time.perf_counter() - started
            print(f"\n{search.name} at {ply}-ply ({seconds:.1f} s)")
            print(f"  by the rollouts: {summarise(judged, decision_errors(judged, chosen))}")
            if has_second:
                errors = decision_errors(judged, chosen, by_second=True)
                print(f"  by {judged.second_name}: {summarise(judged, errors)}")
            if first is None:
                first = chosen
            else:
                print(f"  minus {choosers[0].name}, paired: {compare(judged, chosen, first)}")


def _describe(judged: JudgedSet) -> str:
    kinds = ", ".join(
        f"{kind} {int(np.count_nonzero(judged.kind == kind))}"
        for kind in CLASSES
        if np.any(judged.kind == kind)
    )
    second = f"; second opinion {judged.second_name}" if judged.second_name else ""
    return (
        f"judged benchmark: {judged.decisions} decisions ({kinds}), {judged.candidates} "
        f"candidates; rollout standard error {judged.judge_error.mean() * 1000:.1f} mp a "
        f"candidate on average{second}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The judged benchmark: build it, score nets.")
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="the benchmark's decisions of a mined collection")
    make.add_argument("--data", type=Path, default=Path("training/rollouts-r1.npz"))
    make.add_argument("--out", type=Path, default=Path("training/judged-r1.npz"))
    make.add_argument("--second-opinion", metavar="ENGINE", default=None)
    rate = commands.add_parser("score", help="score the shipped nets and others")
    rate.add_argument("--bench", type=Path, default=None, help="a built benchmark file")
    rate.add_argument("--data", type=Path, default=Path("training/rollouts-r1.npz"))
    rate.add_argument("--ply", type=int, nargs="+", default=[0, 1])
    rate.add_argument("--nets", type=Path, nargs="*", default=[], help="weights folders")
    rate.add_argument("--engine", nargs="*", default=[], help="engines (e.g. gnubg)")
    args = parser.parse_args(argv)
    one_blas_thread()
    if args.command == "build":
        started = time.perf_counter()
        judged = build(args.data, args.out, args.second_opinion)
        print(f"{_describe(judged)} -> {args.out} ({time.perf_counter() - started:.0f} s)")
        return
    judged = JudgedSet.load(args.bench) if args.bench else JudgedSet.from_mined(args.data)
    print(_describe(judged))
    print("(the candidates are the miner's 2-ply best and the 0-ply choice: compare at one depth)")
    score_all(judged, args.ply, _choosers(args.nets, args.engine))


if __name__ == "__main__":
    main()
