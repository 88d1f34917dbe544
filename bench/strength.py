"""Playing strength: points per game of one player against another, duplicate dice.

Usage::

    python -m bench.strength --a pubeval --b random --games 1000 --seed 1 [--workers 2]

Plays cubeless money games (gammon 2, backgammon 3: R9).  Games come in
pairs: pair ``k`` rolls one dice sequence (seeded from ``--seed`` and ``k``)
twice, once with A in the first seat and once with B, so the luck of the dice
largely cancels.  The result is A's points per game with a 95% confidence
interval (normal approximation over the per-pair averages, which are
independent), A's share of wins, the gammon rates and the speed.

Players are found by name in :data:`PLAYERS`, a dict of factories that each
take a :class:`PlayerOptions` (a seed, and the search depth for players that
search).  To add one, e.g. the engine at 1 ply::

    PLAYERS["gammon-1ply"] = lambda options: EnginePlayer(ply=1, seed=options.seed)

or a family that reads ``--ply``::

    PLAYERS["gammon"] = lambda options: EnginePlayer(ply=options.ply or 0)

A name ``gammon@PATH`` plays the engine at 0-ply (or ``--ply``) with other nets:
a training checkpoint (``training/td-contact.npz``: its contact net, and its race
net if it has one) or a folder of weights (``contact.npz``, ``race.npz``), so a
checkpoint is measured without shipping it.  ``gammon-contact@PATH`` leaves the
races to the contact net, to measure what the race net adds.

Register in this module (not at run time elsewhere) so that worker processes
see the entry too.  Factories run once per chunk of pairs (in whichever worker process plays it),
with a seed derived from ``--seed`` and the chunk, so results do not depend on
``--workers``; a factory that loads weights from disk should cache them
(``functools.cache``).
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gammon.engine.bot import SKILL_LEVELS, Bot
from gammon.engine.evaluator import Evaluator
from gammon.engine.player import Player, RandomPlayer
from gammon.engine.pubeval import PubevalPlayer
from gammon.engine.selfplay import GameResult, play_game

__all__ = [
    "PLAYERS",
    "MatchStats",
    "PlayerFactory",
    "PlayerOptions",
    "evaluator_at",
    "find_player",
    "main",
    "play_pair",
    "run_match",
]


@dataclass(frozen=True)
class PlayerOptions:
    """What the command line can tell a player factory."""

    seed: int = 0
    #: Search depth (``--ply``) for players that search; None = their default.
    ply: int | None = None


PlayerFactory = Callable[[PlayerOptions], Player]


#: Players by name; the engine adds its own (see the module docstring).
def _bot_at_level(level: str, options: PlayerOptions) -> Player:
    return Bot(level, seed=options.seed)


PLAYERS: dict[str, PlayerFactory] = {
    "random": lambda options: RandomPlayer(seed=options.seed),
    "pubeval": lambda options: PubevalPlayer(),
    "gammon": lambda options: Bot(ply=options.ply or 0, seed=options.seed),
    "gammon-0ply": lambda options: Bot(ply=0, seed=options.seed),
    "gammon-1ply": lambda options: Bot(ply=1, seed=options.seed),
    "gammon-2ply": lambda options: Bot(ply=2, seed=options.seed),
    "gnubg-0ply": lambda options: _gnubg(0),
    **{f"gammon-{level}": functools.partial(_bot_at_level, level) for level in SKILL_LEVELS},
}


@functools.cache
def evaluator_at(path: str, race: bool = True) -> Evaluator:
    """An evaluator with the nets of a training checkpoint or of a weights folder."""
    from gammon.engine.evaluator import load_evaluator, one_blas_thread
    from gammon.engine.train import load_checkpoint, load_race

    one_blas_thread()
    where = Path(path)
    if where.is_dir():
        folder = load_evaluator(where)
        contact, race_net = folder.network, folder.race
    else:
        contact, _opt, _games = load_checkpoint(where)
        saved = load_race(where)
        race_net = saved[0] if saved else None
    return Evaluator(contact, race=race_net if race else None)


def find_player(name: str) -> PlayerFactory:
    """The factory for ``name``: a :data:`PLAYERS` entry or ``gammon[-contact]@PATH``."""
    if name in PLAYERS:
        return PLAYERS[name]
    kind, at, path = name.partition("@")
    if at and kind in ("gammon", "gammon-contact") and Path(path).exists():
        race = kind == "gammon"
        return lambda options: Bot(
            ply=options.ply or 0, seed=options.seed, evaluator=evaluator_at(path, race)
        )
    known = ", ".join(sorted(PLAYERS))
    raise SystemExit(f"unknown player {name!r}; known players: {known}, gammon@PATH")


def _gnubg(ply: int) -> Player:
    from bench.gnubg import GnubgPlayer

    return GnubgPlayer(ply)


#: Pairs per unit of work: players are built once per chunk.
CHUNK_PAIRS = 8
Z_95 = 1.959963984540054


def _dice_seed(seed: int, pair: int) -> str:
    # String seeds hash with SHA-512 (stable across runs and platforms).
    return f"strength-dice:{seed}:{pair}"


def play_pair(a: Player, b: Player, seed: int, pair: int) -> tuple[GameResult, GameResult]:
    """Pair ``pair``'s two games on the same dice: A in the first seat, then B.

    Both results are from A's side (``winner`` 0 = A).
    """
    first = play_game(a, b, random.Random(_dice_seed(seed, pair)))
    second = play_game(b, a, random.Random(_dice_seed(seed, pair)))
    # Seen from A: flip the winner and who moved first.
    return first, GameResult(1 - second.winner, second.value, 1 - second.first, second.turns)


@dataclass(frozen=True)
class _Chunk:
    names: tuple[str, str]
    ply: int | None
    seed: int
    index: int
    pairs: range


def _play_chunk(chunk: _Chunk) -> list[tuple[GameResult, GameResult]]:
    seat_seeds = [
        random.Random(f"strength-player:{chunk.seed}:{chunk.index}:{seat}").getrandbits(63)
        for seat in (0, 1)
    ]
    a, b = (
        find_player(name)(PlayerOptions(seed=s, ply=chunk.ply))
        for name, s in zip(chunk.names, seat_seeds, strict=True)
    )
    return [play_pair(a, b, chunk.seed, pair) for pair in chunk.pairs]


@dataclass
class MatchStats:
    """Running totals of a duplicate match, from A's side."""

    pair_points: list[float] = field(default_factory=list)
    games: int = 0
    wins: int = 0
    gammons: list[int] = field(default_factory=lambda: [0, 0])
    backgammons: list[int] = field(default_factory=lambda: [0, 0])
    seconds: float = 0.0

    def add(self, pair: tuple[GameResult, GameResult]) -> None:
        self.pair_points.append((pair[0].points + pair[1].points) / 2)
        for game in pair:
            self.games += 1
            self.wins += game.winner == 0
            self.gammons[game.winner] += game.value >= 2
            self.backgammons[game.winner] += game.value == 3

    @property
    def ppg(self) -> float:
        """A's mean points per game."""
        return sum(self.pair_points) / len(self.pair_points)

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of :attr:`ppg`."""
        n = len(self.pair_points)
        if n < 2:
            return math.inf
        mean = self.ppg
        variance = sum((x - mean) ** 2 for x in self.pair_points) / (n - 1)
        return Z_95 * math.sqrt(variance / n)

    def report(self, names: tuple[str, str], workers: int) -> str:
        a, b = names
        g = self.games
        return "\n".join(
            [
                f"{a} (A) vs {b} (B): {g} cubeless money games, "
                f"{len(self.pair_points)} duplicate pairs",
                f"A points per game: {self.ppg:+.3f} ± {self.ci95:.3f} (95% CI)",
                f"A wins: {self.wins / g:.1%}",
                f"gammons or better: A {self.gammons[0] / g:.1%}, B {self.gammons[1] / g:.1%} "
                f"(of which backgammons: A {self.backgammons[0] / g:.1%}, "
                f"B {self.backgammons[1] / g:.1%})",
                f"speed: {g / self.seconds:.1f} games/s "
                f"({self.seconds:.1f} s, {workers} worker{'s' if workers > 1 else ''})",
            ]
        )


def _chunks(names: tuple[str, str], ply: int | None, seed: int, pairs: int) -> list[_Chunk]:
    return [
        _Chunk(names, ply, seed, index, range(start, min(start + CHUNK_PAIRS, pairs)))
        for index, start in enumerate(range(0, pairs, CHUNK_PAIRS))
    ]


def run_match(
    a: str,
    b: str,
    *,
    games: int,
    seed: int = 1,
    ply: int | None = None,
    workers: int = 1,
    on_chunk: Callable[[int], None] | None = None,
    on_stats: Callable[[MatchStats], None] | None = None,
) -> MatchStats:
    """Play ``games`` games (rounded up to whole pairs) of ``a`` against ``b``.

    ``on_chunk`` is told how many games each finished chunk played (for a
    progress bar).  The result is the same for any number of ``workers``.
    """
    for name in (a, b):
        find_player(name)
    pairs = max(1, (games + 1) // 2)
    chunks = _chunks((a, b), ply, seed, pairs)
    stats = MatchStats()
    start = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            # imap keeps the chunks in order, so the totals are the same sums.
            for chunk_results in pool.imap(_play_chunk, chunks):
                _collect(stats, chunk_results, on_chunk)
                if on_stats is not None:
                    on_stats(stats)
    else:
        for chunk in chunks:
            _collect(stats, _play_chunk(chunk), on_chunk)
            if on_stats is not None:
                on_stats(stats)
    stats.seconds = time.perf_counter() - start
    return stats


def _collect(
    stats: MatchStats,
    chunk_results: Sequence[tuple[GameResult, GameResult]],
    on_chunk: Callable[[int], None] | None,
) -> None:
    for pair in chunk_results:
        stats.add(pair)
    if on_chunk is not None:
        on_chunk(2 * len(chunk_results))


def main(argv: list[str] | None = None) -> None:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", default="pubeval", help="player A (default pubeval)")
    parser.add_argument("--b", default="random", help="player B (default random)")
    parser.add_argument("--games", type=int, default=1000, help="games, rounded up to pairs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ply", type=int, default=None, help="search depth for searchers")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--running",
        action="store_true",
        help="print the running result after every chunk of pairs (for long runs in a log)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    total = 2 * max(1, (args.games + 1) // 2)

    with Progress(
        TextColumn(f"{args.a} vs {args.b}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        disable=args.no_progress,
        transient=True,
    ) as progress:
        task = progress.add_task("games", total=total)
        stats = run_match(
            args.a,
            args.b,
            games=args.games,
            seed=args.seed,
            ply=args.ply,
            workers=args.workers,
            on_chunk=lambda n: progress.advance(task, n),
            on_stats=_print_running if args.running else None,
        )
    print(stats.report((args.a, args.b), args.workers))


def _print_running(stats: MatchStats) -> None:
    print(f"after {stats.games} games: {stats.ppg:+.3f} ± {stats.ci95:.3f} ppg", flush=True)


if __name__ == "__main__":
    main()
