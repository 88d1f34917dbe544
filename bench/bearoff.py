"""Bear-off databases: generation time, load time, file sizes and lookups per second.

Usage: ``python -m bench.bearoff [--lookups N] [--seed S]``

Generation runs each generator twice in this process: the first call includes
loading (or, on a fresh checkout, compiling) the numba kernels, the second is
the generation alone.  Loading writes both databases to a temporary cache
directory and times what :func:`gammon.engine.bearoff.one_sided_table` does on
a warm cache (memory-map the ``.npy`` file), then touching every page.  The
compressed size is what shipping the arrays in the package as ``.npz`` would
cost.  Lookups are timed on random bear-off positions, one position per call
and in one batch, against the cost of building the positions' index tuples in
plain Python as the baseline.
"""

from __future__ import annotations

import argparse
import functools
import io
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gammon.engine import bearoff
from gammon.position import Position


def _timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def _random_home(rng: random.Random, checkers: int) -> list[int]:
    counts = [0] * 25
    for _ in range(checkers):
        counts[rng.randrange(6)] += 1
    return counts


def random_bearoffs(count: int, seed: int, max_checkers: int = 15) -> list[Position]:
    """Bear-off positions with 1 to ``max_checkers`` checkers a side left, uniform counts."""
    rng = random.Random(seed)
    return [
        Position(
            _random_home(rng, rng.randint(1, max_checkers)),
            _random_home(rng, rng.randint(1, max_checkers)),
        )
        for _ in range(count)
    ]


def _compressed_size(array: npt.NDArray[np.float32]) -> int:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, array=array)
    return buffer.tell()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lookups", type=int, default=20000, help="positions (default 20000)")
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args(argv)

    print("generation (s): first call incl. numba load/compile, then warm")
    one_first = _timed(bearoff._generate_one_sided)
    start = time.perf_counter()
    one = bearoff._generate_one_sided()
    one_warm = time.perf_counter() - start
    print(f"  one-sided, {bearoff.BEAROFF_POSITIONS} boards:  {one_first:6.2f}  {one_warm:6.2f}")
    exact_first = _timed(bearoff._generate_exact)
    start = time.perf_counter()
    exact = bearoff._generate_exact()
    exact_warm = time.perf_counter() - start
    pairs = bearoff.EXACT_POSITIONS**2
    print(
        f"  exact, {bearoff.EXACT_POSITIONS}^2 = {pairs:,} pairs "
        f"(<= {bearoff.EXACT_CHECKERS} checkers): {exact_first:6.2f}  {exact_warm:6.2f}"
    )

    with tempfile.TemporaryDirectory() as directory:
        for name, array in (("one-sided", one), ("exact", exact)):
            path = Path(directory) / f"{name}.npy"
            bearoff._write(path, array)
            start = time.perf_counter()
            loaded = bearoff._read(path, array.shape)
            mapped = time.perf_counter() - start
            assert loaded is not None
            touched = _timed(functools.partial(np.sum, loaded, dtype=np.float64))
            size = os.path.getsize(path) / 1e6
            packed = _compressed_size(array) / 1e6
            print(
                f"load {name:9}: {size:5.1f} MB .npy, mapped in {mapped * 1e3:6.2f} ms, "
                f"every page read in {touched * 1e3:6.1f} ms "
                f"({packed:.1f} MB as compressed .npz)"
            )

    bearoff.one_sided_table()
    bearoff.exact_table()
    positions = random_bearoffs(args.lookups, args.seed)
    small = random_bearoffs(args.lookups, args.seed + 1, bearoff.EXACT_CHECKERS)
    n = len(positions)
    # Load the compiled kernels before timing.
    bearoff.bearoff_probabilities(positions[0])
    bearoff.bearoff_probabilities_batch(positions[:2])
    baseline = _timed(lambda: [(p.mine[:6], p.theirs[:6]) for p in positions])
    single = _timed(lambda: [bearoff.bearoff_probabilities(p) for p in positions])
    batch = _timed(lambda: bearoff.bearoff_probabilities_batch(positions))
    exact_s = _timed(lambda: [bearoff.exact_bearoff_win(p) for p in small])
    check = _timed(lambda: [bearoff.is_bearoff(p) for p in positions])
    print(f"lookups over {n} random bear-off positions:")
    print(f"  bearoff_probabilities      : {n / single:12,.0f} /s")
    print(f"  bearoff_probabilities_batch: {n / batch:12,.0f} /s")
    print(f"  exact_bearoff_win (<= {bearoff.EXACT_CHECKERS})   : {n / exact_s:12,.0f} /s")
    print(f"  is_bearoff                 : {n / check:12,.0f} /s")
    print(f"  baseline (p.mine[:6], p.theirs[:6] in Python): {n / baseline:12,.0f} /s")


if __name__ == "__main__":
    main()
