"""Legal-play generation speed: (position, roll) pairs per second through ``Position.plays``.

Usage: ``python -m bench.movegen [--pairs N] [--seed S]``

The positions come from seeded random games, an equal number each of contact,
race, bar (a checker to enter) and bear-off positions, each with a seeded roll.
Every pair generates all of its distinct legal plays as ``Play`` objects.  The
same pairs go through the straightforward generator in ``bench/naive_movegen.py``
in the same run, as the baseline, and both must agree on every pair.
"""

from __future__ import annotations

import argparse
import random
import time

from bench.naive_movegen import naive_plays
from gammon.position import Position

CATEGORIES = ("contact", "race", "bar", "bearoff")


def _category(position: Position) -> str | None:
    if position.bar[0]:
        return "bar"
    if position.is_contact():
        return "contact"
    mine = position.mine
    if not any(mine[6:]) and position.off[0] < position.checkers:
        return "bearoff"
    return "race"


def sample_pairs(per_category: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """Collect ``per_category`` (position, roll) pairs of each kind from random games."""
    rng = random.Random(seed)
    found: dict[str, list[tuple[Position, tuple[int, int]]]] = {c: [] for c in CATEGORIES}
    while any(len(v) < per_category for v in found.values()):
        position = Position.initial()
        while position.winner() is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            kind = _category(position)
            if kind is not None and len(found[kind]) < per_category and rng.random() < 0.3:
                found[kind].append((position, dice))
            position = rng.choice(position.plays(dice)).position.swapped()
    return [pair for kind in CATEGORIES for pair in found[kind]]


def _as_naive(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    off_mine, off_theirs = position.off
    wait_mine, wait_theirs = position.waiting
    return (
        (off_mine, *position.mine, wait_mine),
        (off_theirs, *position.theirs, wait_theirs),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=4000, help="pairs in all (default 4000)")
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args(argv)
    pairs = sample_pairs(max(1, args.pairs // len(CATEGORIES)), args.seed)
    Position.initial().plays((1, 1))  # load the compiled kernel before timing

    start = time.perf_counter()
    ours = [position.plays(dice) for position, dice in pairs]
    ours_s = time.perf_counter() - start

    naive_inputs = [(_as_naive(position), dice) for position, dice in pairs]
    start = time.perf_counter()
    naive = [naive_plays(board, *dice) for board, dice in naive_inputs]
    naive_s = time.perf_counter() - start

    for (position, dice), plays, expected in zip(pairs, ours, naive, strict=True):
        got = {_as_naive(play.position) for play in plays}
        if got != expected:
            raise SystemExit(f"disagreement on {position.id} {dice}")

    total_plays = sum(len(p) for p in ours)
    n = len(pairs)
    print(
        f"pairs: {n} ({n // len(CATEGORIES)} each of {', '.join(CATEGORIES)}), "
        f"plays generated: {total_plays} ({total_plays / n:.1f} per pair)"
    )
    print(f"gammon Position.plays : {n / ours_s:10,.0f} pairs/s  ({ours_s * 1e6 / n:6.1f} us/pair)")
    print(
        f"straightforward Python: {n / naive_s:10,.0f} pairs/s  ({naive_s * 1e6 / n:6.1f} us/pair)"
    )
    print(f"speed-up: {naive_s / ours_s:.1f}x; both agree on all {n} pairs")


if __name__ == "__main__":
    main()
