"""Engine speed: 0-ply plays chosen and positions evaluated per second, game time.

Usage: ``python -m bench.speed [--games N] [--seed S] [--net PATH]``

``--net`` times other nets than the shipped ones: a training checkpoint or a
folder of weights, as ``gammon@PATH`` in :mod:`bench.strength`.

Plays N cubeless games of the shipped network against itself at 0-ply and
times them, next to the same games with pubeval (a linear evaluator, the
cheapest sensible player) choosing every play, in the same run.  Also times
raw batch evaluation of positions.  Target (issue 3): a whole 0-ply game in
under 0.1 s on one core.

Side by side with GNU Backgammon's C (``gnubg-nn``, a benchmark dependency), in
the same run: every decision of those games with more than one play is chosen
again by our 0-ply and by GNU's 0-ply ``best_move`` (in turns, 100 decisions at a
time, so that other work on the machine weighs on both alike), and the same
positions are evaluated one at a time by each.  Target (issue 8): our plays per
second at least 0.6x GNU's.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from bench.strength import evaluator_at
from gammon.engine.bot import Bot
from gammon.engine.evaluator import Evaluator, default_evaluator
from gammon.engine.player import Player
from gammon.engine.pubeval import PubevalPlayer
from gammon.engine.selfplay import play_game
from gammon.play import Play
from gammon.position import Dice, Position


class _Counting:
    """Counts the plays a player chooses."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.plays = 0

    def choose_play(self, position: Position, dice: Dice) -> Play:
        self.plays += 1
        return self.player.choose_play(position, dice)


def _time_games(player: Player, games: int, seed: int) -> tuple[float, int]:
    counting = _Counting(player)
    start = time.perf_counter()
    for k in range(games):
        play_game(counting, counting, random.Random(seed + k))
    return time.perf_counter() - start, counting.plays


def _decisions(player: Player, games: int, seed: int) -> list[tuple[Position, Dice]]:
    """Every (position, dice) of those games where there was a choice to make."""
    seen: list[tuple[Position, Dice]] = []

    class Recording(_Counting):
        def choose_play(self, position: Position, dice: Dice) -> Play:
            if len(position.plays(dice)) > 1:
                seen.append((position, dice))
            return super().choose_play(position, dice)

    recording = Recording(player)
    for k in range(games):
        play_game(recording, recording, random.Random(seed + k))
    return seen


#: Decisions timed in one go before the other engine takes its turn (side by side with GNU).
_BLOCK = 100


def _side_by_side_with_gnu(bot: Bot, evaluator: Evaluator, games: int, seed: int) -> None:
    """Ours and GNU Backgammon's 0-ply on the same decisions and the same positions."""
    try:
        import gnubg_nn
    except ImportError:
        print("GNU Backgammon: gnubg-nn is not installed, no side-by-side figures")
        return
    from bench.gnubg import gnubg_board

    decisions = _decisions(bot, games, seed)
    boards = [gnubg_board(position.raw) for position, _ in decisions]

    def time_ours(lo: int, hi: int) -> float:
        start = time.perf_counter()
        for position, dice in decisions[lo:hi]:
            bot.choose_play(position, dice)
        return time.perf_counter() - start

    def time_gnus(lo: int, hi: int) -> float:
        start = time.perf_counter()
        for board, (_, dice) in zip(boards[lo:hi], decisions[lo:hi], strict=True):
            gnubg_nn.best_move(board, dice[0], dice[1], 0)
        return time.perf_counter() - start

    # In turns, block by block, so that a machine busy with other work slows both alike.
    ours = gnus = 0.0
    for block, lo in enumerate(range(0, len(decisions), _BLOCK)):
        hi = lo + _BLOCK
        if block % 2:
            gnus += time_gnus(lo, hi)
            ours += time_ours(lo, hi)
        else:
            ours += time_ours(lo, hi)
            gnus += time_gnus(lo, hi)
    raws = [np.frombuffer(position.raw, dtype=np.int8)[None, :] for position, _ in decisions]
    start = time.perf_counter()
    for raw in raws:
        evaluator.on_roll(raw)
    our_evals = time.perf_counter() - start
    start = time.perf_counter()
    for board in boards:
        gnubg_nn.probabilities(board, 0)
    gnu_evals = time.perf_counter() - start
    n = len(decisions)
    print(f"side by side with GNU Backgammon 0-ply, {n} decisions with a choice, one core:")
    print(
        f"  plays chosen : gammon {n / ours:8,.0f}/s   GNU {n / gnus:8,.0f}/s"
        f"   ratio {gnus / ours:.2f}x GNU (target >= 0.6x)"
    )
    print(
        f"  evaluations  : gammon {n / our_evals:8,.0f}/s   GNU {n / gnu_evals:8,.0f}/s"
        f"   ratio {gnu_evals / our_evals:.2f}x GNU (one position at a time)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--net", help="a checkpoint or weights folder instead of the shipped nets")
    args = parser.parse_args(argv)

    evaluator = evaluator_at(args.net) if args.net else default_evaluator()
    bot = Bot(ply=0, evaluator=evaluator)
    _time_games(bot, 2, args.seed)  # load weights and compiled kernels first
    seconds, plays = _time_games(bot, args.games, args.seed)
    pub_seconds, pub_plays = _time_games(PubevalPlayer(), args.games, args.seed)

    rng = np.random.default_rng(args.seed)
    boards = []
    for _ in range(64):
        board = np.zeros(54, dtype=np.int8)
        for base in (0, 27):
            for _ in range(15):
                board[base + rng.integers(1, 25)] += 1
        boards.append(board)
    batch = np.stack(boards)
    rounds = 2000
    start = time.perf_counter()
    for _ in range(rounds):
        evaluator.on_roll(batch)
    eval_seconds = time.perf_counter() - start
    single = time.perf_counter()
    for _ in range(rounds):
        evaluator.on_roll(batch[:1])
    single_seconds = time.perf_counter() - single

    print(f"games: {args.games} 0-ply self-play games, {plays} plays chosen")
    ms_game = seconds / args.games * 1000
    pub_ms_game = pub_seconds / args.games * 1000
    print(f"gammon 0-ply : {plays / seconds:8,.0f} plays/s   {ms_game:6.1f} ms/game")
    print(
        f"pubeval      : {pub_plays / pub_seconds:8,.0f} plays/s   {pub_ms_game:6.1f} ms/game"
        f"   (gammon takes {seconds / pub_seconds:.2f}x pubeval's time)"
    )
    print(
        f"evaluation   : {64 * rounds / eval_seconds:8,.0f} positions/s in batches of 64, "
        f"{rounds / single_seconds:,.0f}/s one at a time"
    )
    target = "meets" if seconds / args.games < 0.1 else "misses"
    print(f"target: a 0-ply game in under 100 ms: {target} it")
    _side_by_side_with_gnu(bot, evaluator, args.games, args.seed + 10_000)


if __name__ == "__main__":
    main()
