"""Race strength: two evaluators play the same races from the same dice.

Usage::

    python -m bench.race --a gammon@training/td-contact.npz \
        --b gammon-contact@training/td-contact.npz --positions 1000 --seed 1

A race (no contact left) is a small part of a whole game, so a better race net
hardly shows in :mod:`bench.strength`'s full games.  Here every game starts at
a race: positions where contact has just ended in the shipped net's 0-ply
self-play (seeded, so both sides of a comparison get the same ones).  Each
position is played twice on one dice sequence, A on roll in the first game and
B in the second, and the result is A's points per game with a 95% interval
over the pairs, gammons counted (R9).  Players are named as in
:mod:`bench.strength` (``gammon-0ply``, ``gammon@PATH``, ``gammon-contact@PATH``,
``gnubg-0ply``, ``pubeval``).
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np

from bench.strength import Z_95, PlayerOptions, find_player
from gammon.engine.encoding import is_contact_boards
from gammon.engine.evaluator import default_evaluator
from gammon.engine.player import Player
from gammon.position import Position

__all__ = ["play_race", "race_positions"]


def race_positions(count: int, seed: int) -> list[Position]:
    """The first race position of each of ``count`` shipped-net self-play games."""
    evaluator = default_evaluator()
    rng = random.Random(f"race-positions:{seed}")
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        while position.winner() is None:
            board = np.frombuffer(position.raw, dtype=np.int8).reshape(1, 54)
            if not is_contact_boards(board)[0]:
                found.append(position)
                break
            play = evaluator.best_play(position, dice)
            if play.position.winner() is not None:
                break
            position = play.position.swapped()
            dice = (rng.randint(1, 6), rng.randint(1, 6))
    return found


def play_race(first: Player, second: Player, position: Position, dice_rng: random.Random) -> int:
    """Points won by ``first``, who is on roll at ``position``, when the race is played out."""
    players = (first, second)
    mover = 0
    while True:
        dice = (dice_rng.randint(1, 6), dice_rng.randint(1, 6))
        play = players[mover].choose_play(position, dice)
        after = play.position
        if after.winner() is not None:
            value = after.win_value()
            return value if mover == 0 else -value
        position = after.swapped()
        mover = 1 - mover


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", default="gammon-0ply")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    a = find_player(args.a)(PlayerOptions(seed=args.seed))
    b = find_player(args.b)(PlayerOptions(seed=args.seed + 1))
    started = time.perf_counter()
    positions = race_positions(args.positions, args.seed)
    sampled = time.perf_counter() - started
    pairs = []
    started = time.perf_counter()
    for k, position in enumerate(positions):
        seed = f"race-dice:{args.seed}:{k}"
        with_a = play_race(a, b, position, random.Random(seed))
        with_b = -play_race(b, a, position, random.Random(seed))
        pairs.append((with_a + with_b) / 2)
    played = time.perf_counter() - started
    n = len(pairs)
    mean = sum(pairs) / n
    variance = sum((x - mean) ** 2 for x in pairs) / max(n - 1, 1)
    interval = Z_95 * math.sqrt(variance / n)
    print(f"{args.a} (A) vs {args.b} (B): {n} race positions, each played twice")
    print(f"A points per game: {mean:+.4f} ± {interval:.4f} (95% CI)")
    print(f"positions sampled in {sampled:.0f} s, games played in {played:.0f} s")


if __name__ == "__main__":
    main()
