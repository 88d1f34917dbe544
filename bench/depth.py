"""What each search depth adds, by class of position: a quicker, finer look than a match.

Usage::

    python -m bench.depth [--games 80] [--every 2] [--seed 2] [--plies 0,1,2] [--nets PATH]

Positions come from our 0-ply self-play (:func:`bench.errors.sample_positions`,
shipped nets, forced plays skipped). Two figures per class
(:func:`gammon.engine.cube.position_class`):

- **consistency**: the 1-ply equity of the position before the roll minus its
  0-ply equity, mean and spread. A search that mixes up sides, outputs or nets
  shows here as a bias in one class; a net that already foresees its next roll
  shows a small spread, and then gains less by searching;
- **choices**: the play chosen at each depth, valued by GNU Backgammon's network
  at 2-ply (``gnubg_nn``, benchmark only), in millipoints lost against the best
  of the depths' choices, with the paired difference of each depth from 0-ply
  and its 95% interval. Summed over a game's decisions, this difference is close
  to what a match between the depths measures, at a fraction of the cost.

``--nets PATH`` measures other nets (a weights folder or a training checkpoint,
as ``bench.strength``'s ``gammon@PATH``) on the same positions.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bench.analysis import GnubgEngine
from bench.errors import CLASSES, sample_positions
from gammon.engine.evaluator import Evaluator, default_evaluator
from gammon.engine.network import equity
from gammon.play import Play, packed_boards

__all__ = ["main"]


def _judge(judge: GnubgEngine, plays: Sequence[Play]) -> npt.NDArray[np.float64]:
    """GNU Backgammon's 2-ply cubeless equity of each play, for the mover."""
    boards = np.frombuffer(packed_boards(list(plays)), dtype=np.int8).reshape(-1, 54)
    return np.asarray(equity(judge.after_play(boards, 2)), dtype=np.float64)


def _interval(values: Sequence[float]) -> str:
    """Mean and 95% half-width, in millipoints."""
    data = np.asarray(values, dtype=np.float64) * 1000.0
    if data.size < 2:
        return f"{data.mean():+6.1f}" if data.size else "   n/a"
    half = 1.96 * float(data.std(ddof=1)) / math.sqrt(data.size)
    return f"{data.mean():+6.1f} ± {half:4.1f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--plies", default="0,1,2", help="depths compared (0 first)")
    parser.add_argument("--nets", default=None, help="weights folder or checkpoint to measure")
    args = parser.parse_args(argv)
    plies = [int(p) for p in args.plies.split(",")]
    if plies[0] != 0:
        raise SystemExit("--plies must start with 0")

    sampler = default_evaluator()
    evaluator: Evaluator = sampler
    if args.nets is not None:
        from bench.strength import evaluator_at

        evaluator = evaluator_at(args.nets)
    judge = GnubgEngine()
    start = time.perf_counter()
    samples = sample_positions(args.games, args.every, args.seed, sampler)
    print(f"{len(samples)} positions from {args.games} games of 0-ply self-play (seed {args.seed})")

    drift: dict[str, list[float]] = defaultdict(list)
    lost: dict[str, list[dict[int, float]]] = defaultdict(list)
    for sample in samples:
        zero = evaluator.evaluate(sample.position, 0).equity
        drift[sample.kind].append(evaluator.evaluate(sample.position, 1).equity - zero)
        if len(sample.position.plays(sample.dice)) < 2:
            continue
        chosen = {
            ply: evaluator.rank_plays(sample.position, sample.dice, ply)[0][0] for ply in plies
        }
        distinct = list(dict.fromkeys(chosen.values()))
        values = dict(zip(distinct, _judge(judge, distinct), strict=True))
        top = max(values.values())
        lost[sample.kind].append({ply: top - values[play] for ply, play in chosen.items()})

    print("\nConsistency: 1-ply minus 0-ply equity of the position before the roll")
    print(f"{'class':<9} {'n':>5} {'mean':>8} {'sd':>7}")
    for kind in (*CLASSES, "all"):
        gaps = [d for k in CLASSES for d in drift[k]] if kind == "all" else drift[kind]
        if gaps:
            print(f"{kind:<9} {len(gaps):>5} {np.mean(gaps):+8.4f} {np.std(gaps):7.4f}")

    print("\nChoices judged by GNU 2-ply: millipoints lost per decision")
    deeper = plies[1:]
    header = " ".join(f"{f'{p}-ply':>7}" for p in plies)
    diffs = " ".join(f"{f'{p}-ply - 0-ply':>17}" for p in deeper)
    print(f"{'class':<9} {'n':>5} {header}   {diffs}")
    for kind in (*CLASSES, "all"):
        rows = [r for k in CLASSES for r in lost[k]] if kind == "all" else lost[kind]
        if not rows:
            continue
        means = " ".join(f"{1000 * np.mean([r[p] for r in rows]):7.1f}" for p in plies)
        paired = " ".join(f"{_interval([r[p] - r[0] for r in rows]):>17}" for p in deeper)
        print(f"{kind:<9} {len(rows):>5} {means}   {paired}")
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
