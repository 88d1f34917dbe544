"""Checker-play and cube error by class of position, judged by our 2-ply and GNU Backgammon's.

Usage::

    python -m bench.errors [--games 20] [--every 3] [--seed 1] [--no-gnubg]
                           [--cube money,5,7]

Positions come from self-play of our bot at 0-ply (cubeless money, ``--games``
games, one turn in ``--every`` sampled, forced plays skipped). Each is
classified (:func:`gammon.engine.cube.position_class`: contact, crashed,
prime, race, bear-off) and judged twice:

- **checker play**: our 0-ply and 1-ply choices against the best play of the
  judge, each play valued by the judge's 2-ply cubeless money equity; the error
  is in millipoints (thousandths of a point) per decision;
- **cube**: our cube action, 0-ply or searched ``--cube-ply`` deep (half the
  positions with the cube centred, half owned by the player on roll at 2) and the
  opponent's answer against the judge's 2-ply cubeful decision
  (:func:`gammon.engine.cubeful.analyse_cube`): the error is what the judge loses by
  the doubler's action plus what it loses by the taker's answer (when the double is
  right by the judge), in millipoints per decision. Each
  position is judged once for each setting of ``--cube``: ``money`` (Jacoby off), and
  N for an N-point match at a score drawn for the position (each side 1 to N away,
  after the Crawford game when one side is 1-away). Match errors are in match winning
  chance, normalised to money equity as the analysis shows them (twice the MWC over
  the MWC between winning and losing a game at the cube). Two figures: over every
  position where the player may double, and over the **close** ones only, where the
  judge doubles or doubling would cost it less than 0.16 (GNU Backgammon's rule for
  counting a cube decision in its analysis): most positions are no decision at all.

The judges: ours is the shipped nets searched 2 plies deep; GNU Backgammon's is
its network (``gnubg_nn``, a benchmark-only dependency) searched 2 plies deep
by gnubg_nn for plays, and by our cubeful search on GNU's chances for the cube
(``gnubg_nn`` evaluates cube decisions for match play only), so the cube column
differs from ours only by the network.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gammon.engine.analysis.judge import Engine
from gammon.engine.cube import (
    CubeDecision,
    CubeOwner,
    CubeState,
    TakerVerdict,
    position_class,
)
from gammon.engine.cubeful import analyse_cube
from gammon.engine.evaluator import Evaluator, default_evaluator
from gammon.engine.met import MatchScore
from gammon.engine.network import equity
from gammon.play import Play, packed_boards
from gammon.position import Dice, Position

CLASSES = ("contact", "crashed", "prime", "race", "bearoff")
#: How close a cube decision must be to count as one (points, normalised): GNU's.
CLOSE = 0.16


@dataclass
class Sample:
    position: Position
    dice: Dice
    kind: str
    state: CubeState
    #: A random number of the sample's own, which draws its match scores.
    draw: int


def cube_state(sample: Sample, setting: str) -> CubeState:
    """The sample's cube for ``setting``: money, or a score drawn in an N-point match."""
    if setting == "money":
        return sample.state
    length = int(setting)
    rng = random.Random(sample.draw * 1_000_003 + length)
    me, opponent = rng.randint(1, length), rng.randint(1, length)
    post_crawford = me == 1 or opponent == 1
    score = MatchScore(me, opponent, post_crawford=post_crawford)
    return CubeState(sample.state.value, sample.state.owner, score=score)


def _normalise(difference: float, state: CubeState) -> float:
    """A difference of the decision's figures as points: money per cube unit times the
    cube, MWC over the MWC between winning and losing a game at the cube."""
    if state.score is None:
        return difference * state.value
    spread = state.score.after(state.value, 0) - state.score.after(0, state.value)
    return 2.0 * difference / spread


def sample_positions(games: int, every: int, seed: int, evaluator: Evaluator) -> list[Sample]:
    """Positions of our 0-ply self-play, one turn in ``every``, with their roll."""
    rng = random.Random(seed)
    samples: list[Sample] = []
    for _ in range(games):
        position = Position.initial()
        turn = 0
        while position.winner() is None and turn < 200:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if turn % every == every - 1:
                owned = rng.random() < 0.5
                state = CubeState(2, CubeOwner.ME) if owned else CubeState()
                samples.append(
                    Sample(position, dice, position_class(position), state, rng.getrandbits(32))
                )
            play = evaluator.best_play(position, dice, 0)
            position = play.position.swapped()
            turn += 1
    return samples


def _values(engine: Engine, plays: Sequence[Play], ply: int) -> np.ndarray:
    boards = np.frombuffer(packed_boards(list(plays)), dtype=np.int8).reshape(-1, 54)
    return np.asarray(equity(engine.after_play(boards, ply)), dtype=np.float64)


def checker_errors(
    sample: Sample, evaluator: Evaluator, judges: dict[str, Engine]
) -> dict[str, tuple[float, float]] | None:
    """Per judge, the 0-ply and 1-ply choices' errors (points); None for a forced play."""
    plays = sample.position.plays(sample.dice)
    if len(plays) < 2:
        return None
    chosen = [evaluator.rank_plays(sample.position, sample.dice, ply)[0][0] for ply in (0, 1)]
    out = {}
    for name, engine in judges.items():
        best = engine.rank_plays(sample.position, sample.dice, 2)[0][0]
        values = _values(engine, [best, *chosen], 2)
        top = max(values)
        out[name] = (top - values[1], top - values[2])
    return out


def _judged(decision: CubeDecision, judge: CubeDecision) -> float:
    """What the judge loses by ``decision``'s action and answer against its own (points)."""
    right = judge.equity
    doubles = decision.doubles
    if doubles != judge.doubles:
        # The doubler's error: the judge's value of the other action, answered best.
        taken = judge.answered if doubles else judge.no_double
        doubler_error = abs(right - taken)
    else:
        doubler_error = 0.0
    taker_error = 0.0
    if judge.doubles or doubles:
        # The taker's answer, judged by the doubler's equity the judge gives it.
        wrong_pass = decision.taker is TakerVerdict.PASS and judge.taker is not TakerVerdict.PASS
        wrong_take = decision.taker is not TakerVerdict.PASS and judge.taker is TakerVerdict.PASS
        if wrong_pass or wrong_take:
            taker_error = abs(judge.double_pass - judge.double_take)
    return doubler_error + taker_error


@dataclass
class CubeJudged:
    error: float  # points (normalised)
    wrong: bool  # a wrong action or answer
    close: bool  # a real decision by the judge (CLOSE)


def cube_error(
    sample: Sample,
    state: CubeState,
    evaluator: Evaluator,
    judges: dict[str, Engine],
    ply: int = 0,
) -> dict[str, CubeJudged] | None:
    """Per judge, the error of our cube decision searched ``ply`` deep at ``state``; None if
    no double is allowed."""
    mine = analyse_cube(sample.position, state, ply=ply, evaluator=evaluator).decision
    if mine is None:
        return None
    out = {}
    for name, engine in judges.items():
        judge = analyse_cube(sample.position, state, ply=2, evaluator=engine).decision
        assert judge is not None
        wrong = (mine.doubles != judge.doubles) or (
            judge.doubles
            and (mine.taker is TakerVerdict.PASS) != (judge.taker is TakerVerdict.PASS)
        )
        close = judge.doubles or _normalise(judge.no_double - judge.answered, state) < CLOSE
        out[name] = CubeJudged(_normalise(_judged(mine, judge), state), wrong, close)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-gnubg", action="store_true")
    parser.add_argument(
        "--cube-ply", type=int, default=0, help="depth of our cube decisions (default 0)"
    )
    parser.add_argument(
        "--cube",
        default="money",
        help="cube settings, comma-separated: money, or N for an N-point match (default money)",
    )
    args = parser.parse_args(argv)
    settings = args.cube.split(",")
    for setting in settings:
        if setting != "money" and not (setting.isdigit() and 1 < int(setting) <= 25):
            parser.error(f"--cube takes money or a match length from 2 to 25, not {setting!r}")

    evaluator = default_evaluator()
    judges: dict[str, Engine] = {"gammon 2-ply": evaluator}
    if not args.no_gnubg:
        from bench.analysis import GnubgEngine

        judges["GNU 2-ply"] = GnubgEngine()

    start = time.perf_counter()
    samples = sample_positions(args.games, args.every, args.seed, evaluator)
    print(f"{len(samples)} positions from {args.games} games of 0-ply self-play (seed {args.seed})")
    play: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    cube: dict[tuple[str, str], list[CubeJudged]] = defaultdict(list)
    by_setting: dict[tuple[str, str], list[CubeJudged]] = defaultdict(list)
    for sample in samples:
        found = checker_errors(sample, evaluator, judges)
        if found is not None:
            for name, pair in found.items():
                play[(name, sample.kind)].append(pair)
        for setting in settings:
            judged = cube_error(
                sample, cube_state(sample, setting), evaluator, judges, args.cube_ply
            )
            if judged is not None:
                for name, result in judged.items():
                    cube[(name, sample.kind)].append(result)
                    by_setting[(name, setting)].append(result)

    depth = f"{args.cube_ply}-ply"
    for name in judges:
        print(f"\nJudge: {name} (millipoints per decision)")
        print(
            f"{'class':<9} {'plays':>6} {'0-ply':>7} {'1-ply':>7}   "
            f"{'cubes':>5} {depth:>7} {'wrong':>6}"
        )
        rows = [*CLASSES, "all"]
        for kind in rows:
            kinds = CLASSES if kind == "all" else (kind,)
            errors = [e for k in kinds for e in play.get((name, k), [])]
            cubes = [c for k in kinds for c in cube.get((name, k), [])]
            if not errors and not cubes:
                continue
            zero = 1000 * float(np.mean([e[0] for e in errors])) if errors else float("nan")
            one = 1000 * float(np.mean([e[1] for e in errors])) if errors else float("nan")
            cube_mp = 1000 * float(np.mean([c.error for c in cubes])) if cubes else float("nan")
            wrong = sum(c.wrong for c in cubes)
            print(
                f"{kind:<9} {len(errors):>6} {zero:>7.1f} {one:>7.1f}   "
                f"{len(cubes):>5} {cube_mp:>7.1f} {wrong:>6}"
            )
        print(f"\n{'cube':<9} {'cubes':>6} {depth:>7}   {'close':>5} {depth:>7} {'wrong':>6}")
        for setting in settings:
            cubes = by_setting.get((name, setting), [])
            close = [c for c in cubes if c.close]
            every = 1000 * float(np.mean([c.error for c in cubes])) if cubes else float("nan")
            near = 1000 * float(np.mean([c.error for c in close])) if close else float("nan")
            label = setting if setting == "money" else f"{setting}-point"
            print(
                f"{label:<9} {len(cubes):>6} {every:>7.1f}   {len(close):>5} {near:>7.1f} "
                f"{sum(c.wrong for c in cubes):>6}"
            )
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
