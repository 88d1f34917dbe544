"""The same review of one match by each installed engine, side by side.

Usage::

    python -m bench.engines [--file tests/vectors/gnubg/bots_5pt.mat] [--ply 1]

Analyses one match file with our nets (the baseline, first) and then with every other
engine whose package is installed (:mod:`gammon.engine.engines`: GNU Backgammon's nets,
Open Sage's), all through the same code: our move generator, our n-ply search and move
filters, our cube model. So the columns differ only by the nets' 0-ply figures. For each
engine it prints the wall and CPU time of the whole review, each player's error rates
(mEMG per decision) and PR, the decisions counted, the doubtful, bad and very bad plays,
and how often it agrees with our nets on the best play and the cube action.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from pathlib import Path

from gammon.cli.analyse import load
from gammon.engine.analysis import Analysis, analyse
from gammon.engine.engines import EngineNotInstalledError, engine_names, get_engine

__all__ = ["main"]

DEFAULT_FILE = Path(__file__).resolve().parent.parent / "tests/vectors/gnubg/bots_5pt.mat"


def _timed(path: Path, name: str, ply: int) -> tuple[Analysis, float, float]:
    loaded = load(str(path))
    engine = get_engine(name)
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = analyse(
        loaded.series, names=loaded.names, ply=ply, evaluator=None if engine.is_ours else engine
    )
    return analysis, time.perf_counter() - wall, time.process_time() - cpu


def _agreement(base: Analysis, other: Analysis) -> str:
    plays = list(zip(base.checker, other.checker, strict=True))
    cubes = list(zip(base.cube, other.cube, strict=True))
    best = sum(a.best.play == b.best.play for a, b in plays)
    action = sum(a.verdict == b.verdict for a, b in cubes)
    return f"best play {best}/{len(plays)}, cube verdict {action}/{len(cubes)}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--ply", type=int, choices=(0, 1, 2, 3), default=1)
    args = parser.parse_args(argv)

    names = []
    for name in engine_names():
        try:
            get_engine(name)
        except EngineNotInstalledError as exc:
            print(f"({name} left out: {exc})")
            continue
        names.append(name)
    _timed(args.file, "gammon", 0)  # load the nets and compile the kernels first
    print(
        f"{args.file.name} reviewed at {args.ply}-ply by each engine (our search and cube "
        f"model on its 0-ply figures); load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    print(
        f"\n{'engine':<8}{'wall s':>8}{'CPU s':>7}  {'player':<10}{'checker':>8}{'cube':>7}"
        f"{'overall':>8}{'PR':>6}{'plays':>6}{'cubes':>6}  ?!/?/??"
    )
    base: Analysis | None = None
    agreements = []
    for name in names:
        analysis, wall, cpu = _timed(args.file, name, args.ply)
        for side, p in enumerate(analysis.players):
            head = f"{name:<8}{wall:>8.1f}{cpu:>7.1f}" if side == 0 else " " * 23
            print(
                f"{head}  {p.name[:10]:<10}{1000 * p.checker_error_rate:>8.1f}"
                f"{1000 * p.cube_error_rate:>7.1f}{1000 * p.error_rate:>8.1f}{p.rating:>6.1f}"
                f"{p.checker_decisions:>6}{p.cube_decisions:>6}  "
                f"{p.doubtful}/{p.bad}/{p.very_bad}"
            )
        if base is None:
            base = analysis
        else:
            agreements.append(f"{name} with gammon: {_agreement(base, analysis)}")
    print("(error rates in mEMG per decision; PR = 500 x the overall rate)")
    for line in agreements:
        print(line)


if __name__ == "__main__":
    main()
