"""Post-game analysis: its speed at each depth, and a second opinion from GNU Backgammon.

Usage::

    python -m bench.analysis [--length 7] [--seed 1] [--plies 0,1,2] [--gnubg-ply 2]

Plays matches (``--matches``, default 3) between two of the bot's levels (``--levels``, default
intermediate against casual, so that there are mistakes to find), then
analyses them at each depth, printing decisions analysed per CPU second
(checker plays and cube decisions reviewed; each roll's luck is measured on the
way, at 0-ply) and the CPU time a whole match takes at each depth, the default
marked.

Second opinion: the same match analysed by the same code with GNU Backgammon's
network (``gnubg_nn``, a benchmark-only dependency) standing in for ours. Its
chances go through the same cube model (our port of GNU Backgammon's Janowski
formulas), so the two columns differ only by the networks and their search. It
prints each player's error rates and PR by both judges, and how often they
agree on the best play and the right cube action.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections.abc import Sequence

import gnubg_nn
import numpy as np
import numpy.typing as npt

from gammon.dice import RandomDice
from gammon.engine.analysis import DEFAULT_PLY, Analysis, PlayerSummary, analyse
from gammon.engine.analysis.results import summarise
from gammon.engine.bot import Bot
from gammon.engine.evaluator import Evaluation, default_evaluator
from gammon.events import Moved
from gammon.match import Match
from gammon.play import Play
from gammon.position import Dice, Position

__all__ = ["GnubgEngine", "main", "play_match"]

#: (candidates kept, equity margin) before each deeper stage, as the engine and GNU do.
_FILTERS = ((8, 0.16), (2, 0.04))
_SIDE = 27


def play_match(length: int, seed: int, levels: Sequence[str]) -> Match:
    """A match between two bot levels, from dice seeded with ``seed``."""
    match = Match(length, dice=RandomDice(seed))
    bots = (Bot(levels[0], seed=seed + 1), Bot(levels[1], seed=seed + 2))
    while not match.is_over:
        game = match.game
        if game.is_over:
            match.new_game()
            continue
        side = game.turn if game.turn is not None else 0
        match.apply(bots[side].decide(game, side, match.score))
    return match


def _cubeless(p: Sequence[float]) -> float:
    return 2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4]


class GnubgEngine:
    """GNU Backgammon's network behind the analysis's engine interface (standard variant).

    Finished games are scored by our own evaluator, which is exact there. Unlike the
    ``gnubg`` engine (:mod:`gammon.engine.engines.gnubg`: GNU's 0-ply under our search),
    this one asks GNU's own n-ply search for each play's figures.
    """

    name = "gnubg-native"

    def __init__(self) -> None:
        self._exact = default_evaluator()

    @staticmethod
    def _on_roll(mine: Sequence[int], theirs: Sequence[int], ply: int) -> Evaluation:
        # gnubg_nn's boards: [player not on roll, player on roll], 25 counts each.
        return Evaluation(*gnubg_nn.probabilities([list(theirs), list(mine)], ply))

    def evaluate(self, position: Position, ply: int = 0) -> Evaluation:
        if position.winner() is not None:
            return self._exact.evaluate(position, 0)
        return self._on_roll(position.mine, position.theirs, ply)

    def _after(self, play: Play, ply: int) -> Evaluation:
        after = play.position
        if after.winner() is not None:
            return _won(after)
        theirs = self._on_roll(after.theirs, after.mine, ply)
        win, wg, wbg, lg, lbg = theirs.probabilities
        return Evaluation(1.0 - win, lg, lbg, wg, wbg)

    def rank_plays_searched(
        self, position: Position, dice: Dice, ply: int = 0
    ) -> list[tuple[Play, Evaluation, int]]:
        plays = position.plays(dice)
        values = [self._after(play, 0) for play in plays]
        depth = [0] * len(plays)
        alive = list(range(len(plays)))
        for stage in range(1, ply + 1):
            if len(alive) <= 1:
                break
            keep, margin = _FILTERS[min(stage, len(_FILTERS)) - 1]
            alive.sort(key=lambda i: -values[i].equity)
            best = values[alive[0]].equity
            alive = [i for i in alive[:keep] if values[i].equity >= best - margin]
            for i in alive:
                values[i], depth[i] = self._after(plays[i], stage), stage
        order = sorted(range(len(plays)), key=lambda i: (-depth[i], -values[i].equity))
        return [(plays[i], values[i], depth[i]) for i in order]

    def rank_plays(
        self, position: Position, dice: Dice, ply: int = 0
    ) -> list[tuple[Play, Evaluation]]:
        return [(play, value) for play, value, _ in self.rank_plays_searched(position, dice, ply)]

    def after_play(self, boards: npt.NDArray[np.int8], ply: int) -> npt.NDArray[np.float32]:
        out = np.empty((boards.shape[0], 5), dtype=np.float32)
        for row, board in enumerate(boards):
            mine, theirs = board[1:26], board[_SIDE + 1 : _SIDE + 26]
            if int(board[0]) == int(board[:_SIDE].sum()):  # the mover bore off all
                out[row] = self._exact.after_play(board.reshape(1, -1), 0)[0]
                continue
            win, wg, wbg, lg, lbg = self._on_roll(theirs.tolist(), mine.tolist(), ply).probabilities
            out[row] = (1.0 - win, lg, lbg, wg, wbg)
        return out


def _won(after: Position) -> Evaluation:
    """The mover's chances once they have borne off all: certain, gammon and backgammon known."""
    value = after.win_value()
    return Evaluation(1.0, float(value >= 2), float(value >= 3), 0.0, 0.0)


def _timed(match: Match, ply: int, engine: object = None) -> tuple[Analysis, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = analyse(match, ply=ply, evaluator=engine)  # type: ignore[arg-type]
    return analysis, time.perf_counter() - wall, time.process_time() - cpu


def _pooled(analyses: Sequence[Analysis], names: Sequence[str]) -> list[PlayerSummary]:
    """Each player's figures over several analysed matches."""
    checker = [r for a in analyses for r in a.checker]
    cube = [r for a in analyses for r in a.cube]
    luck = [r for a in analyses for r in a.luck]
    forced = [sum(a.players[side].forced_plays for a in analyses) for side in (0, 1)]
    results = (
        sum(a.players[0].result for a in analyses),
        sum(a.players[1].result for a in analyses),
    )
    return [
        summarise(side, names[side], checker, cube, luck, forced[side], results) for side in (0, 1)
    ]


def _compare(ours: Sequence[Analysis], theirs: Sequence[Analysis], names: Sequence[str]) -> None:
    print(f"\n{'':<22}{'checker':>9}{'cube':>9}{'overall':>9}{'PR':>7}   (mEMG per decision)")
    pooled = {"ours": _pooled(ours, names), "GNU": _pooled(theirs, names)}
    for side in (0, 1):
        for judge, players in pooled.items():
            p = players[side]
            print(
                f"{names[side]:<13}{judge:<9}{1000 * p.checker_error_rate:>9.1f}"
                f"{1000 * p.cube_error_rate:>9.1f}{1000 * p.error_rate:>9.1f}{p.rating:>7.1f}"
                f"   {p.checker_decisions} plays, {p.cube_decisions} cube decisions"
            )
    plays = [
        pair
        for a, b in zip(ours, theirs, strict=True)
        for pair in zip(a.checker, b.checker, strict=True)
    ]
    cubes = [
        pair for a, b in zip(ours, theirs, strict=True) for pair in zip(a.cube, b.cube, strict=True)
    ]
    same_best = sum(a.best.play == b.best.play for a, b in plays)
    marks = sum(a.mark == b.mark for a, b in plays)
    losses = [(a.loss, b.loss) for a, b in plays]
    verdicts = sum(a.verdict.split(",")[0] == b.verdict.split(",")[0] for a, b in cubes)
    answers = sum(a.verdict.split(", ")[1] == b.verdict.split(", ")[1] for a, b in cubes)
    n, c = len(plays), len(cubes)
    gap = statistics.fmean(abs(a - b) for a, b in losses) if losses else 0.0
    r = _correlation([a for a, _ in losses], [b for _, b in losses])
    print(
        f"agreement: best play {same_best}/{n} ({same_best / max(1, n):.0%}), "
        f"same mark {marks}/{n}, mean |loss difference| {1000 * gap:.1f} mEMG, "
        f"correlation of losses {r:.2f}; cube action {verdicts}/{c}, take/pass {answers}/{c}"
    )


def _correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    if len(xs) < 2 or statistics.pstdev(xs) == 0 or statistics.pstdev(ys) == 0:
        return math.nan
    return statistics.correlation(xs, ys)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="intermediate,casual")
    parser.add_argument("--plies", default="0,1,2")
    parser.add_argument("--gnubg-ply", type=int, default=DEFAULT_PLY)
    parser.add_argument("--no-gnubg", action="store_true")
    args = parser.parse_args(argv)
    levels = args.levels.split(",")
    plies = [int(p) for p in args.plies.split(",")]

    analyse(play_match(1, 0, levels), ply=0)  # load the network and compile the kernels
    seeds = range(args.seed, args.seed + args.matches)
    matches = [play_match(args.length, seed, levels) for seed in seeds]
    games = sum(len(m.games) for m in matches)
    moves = sum(isinstance(e, Moved) for m in matches for h in m.histories for e in h)
    print(
        f"{args.matches} {args.length}-point matches (seeds {seeds.start}-{seeds.stop - 1}): "
        f"{levels[0]} (side 0) against {levels[1]} (side 1), {games} games, {moves} plays; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"\n{'ply':>3}{'wall s':>9}{'CPU s':>8}{'decisions':>11}{'per CPU s':>11}"
        f"{'CPU s a match':>15}  PR side 0 / 1"
    )
    analyses: dict[int, list[Analysis]] = {}
    for ply in plies:
        runs = [_timed(match, ply) for match in matches]
        analyses[ply] = [analysis for analysis, _, _ in runs]
        wall = sum(w for _, w, _ in runs)
        cpu = sum(c for _, _, c in runs)
        decisions = sum(len(a.checker) + len(a.cube) for a in analyses[ply])
        players = _pooled(analyses[ply], levels)
        mark = "  <- default" if ply == DEFAULT_PLY else ""
        print(
            f"{ply:>3}{wall:>9.1f}{cpu:>8.1f}{decisions:>11}{decisions / cpu:>11.1f}"
            f"{cpu / len(matches):>15.1f}  {players[0].rating:.1f} / {players[1].rating:.1f}{mark}"
        )
    print(
        "(decisions: checker plays and cube decisions reviewed; the time includes each "
        "roll's luck, at 0-ply)"
    )
    if args.no_gnubg:
        return
    ply = args.gnubg_ply
    ours = analyses.get(ply) or [_timed(match, ply)[0] for match in matches]
    runs = [_timed(match, ply, GnubgEngine()) for match in matches]
    print(
        f"\nsecond opinion at {ply}-ply: GNU Backgammon's network (gnubg_nn) through the same "
        f"cube model, {sum(w for _, w, _ in runs):.1f} s wall"
    )
    _compare(ours, [analysis for analysis, _, _ in runs], levels)


if __name__ == "__main__":
    main()
