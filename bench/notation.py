"""Reading move notation: parses per second, against generating the plays it chooses from.

Usage: ``python -m bench.notation [--plays N] [--seed S]``

Takes N legal plays from seeded random games, writes each in notation and reads
it back with ``Position.parse_play``; the baseline in the same run is
``Position.plays`` on the same (position, roll) pairs, which every parse must
call once.  Target: well under 5 ms a parse for interactive use.
"""

from __future__ import annotations

import argparse
import random
import time

from gammon.position import Position


def sample(count: int, seed: int) -> list[tuple[Position, str, tuple[int, int]]]:
    rng = random.Random(seed)
    cases: list[tuple[Position, str, tuple[int, int]]] = []
    while len(cases) < count:
        position = Position.initial()
        while position.winner() is None and len(cases) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = rng.choice(position.plays(dice))
            cases.append((position, str(play), dice))
            position = play.position.swapped()
    return cases


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plays", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    cases = sample(args.plays, args.seed)
    cases[0][0].parse_play(cases[0][1], cases[0][2])  # compiled kernels loaded

    start = time.perf_counter()
    for position, _text, dice in cases:
        position.plays(dice)
    generate_s = time.perf_counter() - start

    timings = []
    start = time.perf_counter()
    for position, text, dice in cases:
        begin = time.perf_counter()
        position.parse_play(text, dice)
        timings.append(time.perf_counter() - begin)
    parse_s = time.perf_counter() - start

    timings.sort()
    n = len(cases)
    print(f"plays read back: {n} from seeded random games")
    print(
        f"parse_play     : {n / parse_s:9,.0f} /s   median {timings[n // 2] * 1e3:.2f} ms, "
        f"99th percentile {timings[int(n * 0.99)] * 1e3:.2f} ms, max {timings[-1] * 1e3:.2f} ms"
    )
    print(
        f"plays (baseline): {n / generate_s:9,.0f} /s   parse costs {parse_s / generate_s:.1f}x "
        f"generating the plays"
    )


if __name__ == "__main__":
    main()
