"""Checker-play and cube error by class of position, judged by our 2-ply and GNU Backgammon's.

Usage::

    python -m bench.errors [--games 20] [--every 3] [--seed 1] [--no-gnubg] [--no-checker]
                           [--cube money,5,7] [--cube-ply 1] [--take-margin 0.2]

Positions come from self-play of our bot at 0-ply (cubeless money, ``--games``
games, one turn in ``--every`` sampled, forced plays skipped). Each is
classified (:func:`gammon.engine.cube.position_class`: contact, crashed,
prime, race, bear-off) and judged twice:

- **checker play**: our 0-ply and 1-ply choices against the best play of the
  judge, each play valued by the judge's 2-ply cubeless money equity; the error
  is in millipoints (thousandths of a point) per decision;
- **cube**: our cube action and the opponent's answer (half the positions with the
  cube centred, a quarter owned by the player on roll at 2, a quarter at 4) against the
  judge's 2-ply cubeful decision (:func:`gammon.engine.cubeful.analyse_cube`), split in
  two: the **doubler's** error, what the judge loses by our double / no double, and the
  **taker's**, what it loses by our take / pass whenever either side doubles. Three of
  our decisions side by side on the same contexts: the plain 0-ply model, the bot's
  0-ply (a close take searched a ply deeper, :mod:`gammon.engine.take`) and the cubeful
  search ``--cube-ply`` deep; then their paired differences, a sweep of the close-take
  margin (how ``TAKE_MARGIN`` was chosen) and our time per cube decision. Each
  position is judged once for each setting of ``--cube``: ``money`` (Jacoby off), and
  N for an N-point match at a score drawn for the position (each side 1 to N away,
  after the Crawford game when one side is 1-away). Match errors are in match winning
  chance, normalised to money equity as the analysis shows them (twice the MWC over
  the MWC between winning and losing a game at the cube). Rows by setting, by class and
  by cube level (1, 2, 4+), each with its count and 95% intervals, over every position
  where the player may double and over the **close** ones only, where the judge doubles
  or doubling would cost it less than 0.16 (GNU Backgammon's rule for counting a cube
  decision in its analysis): most positions are no decision at all. Counts of wrong
  doubles (dbl), wrong takes (tk) and wrong passes (ps) beside them.

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
    may_double,
    position_class,
)
from gammon.engine.cubeful import CubeAnalysis, analyse_cube
from gammon.engine.evaluator import Evaluator, default_evaluator
from gammon.engine.met import MatchScore
from gammon.engine.network import equity
from gammon.engine.take import TAKE_MARGIN, take_margin
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
                draw = rng.getrandbits(32)
                # Half the owned cubes at 2, half at 4 (the draw's low bit): every level.
                state = CubeState(2 << (draw & 1), CubeOwner.ME) if owned else CubeState()
                samples.append(Sample(position, dice, position_class(position), state, draw))
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


@dataclass(frozen=True)
class Judged:
    """One of our cube decisions against a judge's (points, normalised)."""

    doubler: float  # what the judge loses by our doubler's action
    taker: float  # what it loses by our taker's answer (when either side doubles)
    wrong_take: bool  # we take where the judge passes
    wrong_pass: bool  # we pass where the judge takes
    wrong_double: bool  # our double / no double differs from the judge's
    close: bool  # a real decision by the judge (CLOSE)

    @property
    def error(self) -> float:
        return self.doubler + self.taker


def judge_decision(decision: CubeDecision, judge: CubeDecision, state: CubeState) -> Judged:
    """What the judge loses by ``decision``'s action and by its answer, split in two."""
    right = judge.equity
    doubles = decision.doubles
    doubler_error = 0.0
    if doubles != judge.doubles:
        # The doubler's error: the judge's value of the other action, answered best.
        taken = judge.answered if doubles else judge.no_double
        doubler_error = abs(right - taken)
    wrong_take = wrong_pass = False
    taker_error = 0.0
    if judge.doubles or doubles:
        # The taker's answer, judged by the doubler's equity the judge gives it.
        passes = decision.taker is TakerVerdict.PASS
        judge_passes = judge.taker is TakerVerdict.PASS
        wrong_pass, wrong_take = passes and not judge_passes, judge_passes and not passes
        if wrong_pass or wrong_take:
            taker_error = abs(judge.double_pass - judge.double_take)
    close = judge.doubles or _normalise(judge.no_double - judge.answered, state) < CLOSE
    return Judged(
        _normalise(doubler_error, state),
        _normalise(taker_error, state),
        wrong_take,
        wrong_pass,
        doubles != judge.doubles,
        close,
    )


@dataclass(frozen=True)
class Context:
    """A cube context: a sample at one setting, where the player on roll may double."""

    kind: str  # position class
    setting: str  # money, or a match length
    level: str  # the cube: 1, 2 or 4+
    margin: float  # the 0-ply model's take margin (gammon.engine.take.take_margin)


def _level(state: CubeState) -> str:
    return "4+" if state.value >= 4 else str(state.value)


def our_variants(cube_ply: int, margin: float) -> dict[str, tuple[int, float]]:
    """Our cube decisions measured, as (ply, take margin): the plain 0-ply model first, the
    bot's 0-ply (close takes searched a ply deeper) second, the search ``cube_ply`` deep."""
    return {
        "0-ply model": (0, 0.0),
        f"0-ply, close take 1-ply (<{margin:g})": (0, margin),
        f"{cube_ply}-ply": (cube_ply, 0.0),
    }


@dataclass
class CubeRecord:
    """Every cube context judged: per (judge, variant), one Judged per context."""

    contexts: list[Context]
    judged: dict[tuple[str, str], list[Judged]]
    seconds: dict[str, float]  # our time per variant, all contexts together
    deeper: int = 0  # the bot's 0-ply decisions that were searched a ply deeper


def judge_cubes(
    samples: Sequence[Sample],
    settings: Sequence[str],
    evaluator: Evaluator,
    judges: dict[str, Engine],
    variants: dict[str, tuple[int, float]],
) -> CubeRecord:
    """Each sample at each setting, our variants' decisions against each judge's 2-ply."""
    record = CubeRecord([], defaultdict(list), defaultdict(float))
    for sample in samples:
        for setting in settings:
            state = cube_state(sample, setting)
            if not may_double(state):
                continue
            ours: dict[str, CubeAnalysis] = {}
            for name, (ply, margin) in variants.items():
                begin = time.perf_counter()
                ours[name] = analyse_cube(
                    sample.position, state, ply=ply, evaluator=evaluator, take_margin=margin
                )
                record.seconds[name] += time.perf_counter() - begin
            model, shipped = (ours[name] for name in list(variants)[:2])
            assert model.decision is not None
            record.deeper += shipped.ply > 0
            record.contexts.append(
                Context(sample.kind, setting, _level(state), take_margin(model.decision, state))
            )
            for judge_name, engine in judges.items():
                judge = analyse_cube(sample.position, state, ply=2, evaluator=engine).decision
                assert judge is not None
                for name, found in ours.items():
                    assert found.decision is not None
                    judged = judge_decision(found.decision, judge, state)
                    record.judged[(judge_name, name)].append(judged)
    return record


def _mean(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its 95% interval (normal), in millipoints."""
    if not values:
        return float("nan"), float("nan")
    data = 1000.0 * np.asarray(values, dtype=np.float64)
    half = 1.96 * float(data.std(ddof=1)) / np.sqrt(len(data)) if len(data) > 1 else 0.0
    return float(data.mean()), half


def _cell(values: Sequence[float]) -> str:
    mean, half = _mean(values)
    return f"{mean:6.1f} ±{half:5.1f}"


def _groups(contexts: Sequence[Context], settings: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Rows of the cube tables: (label, indices of the contexts in it)."""
    rows: list[tuple[str, list[int]]] = []
    for setting in settings:
        label = setting if setting == "money" else f"{setting}-point"
        rows.append((label, [i for i, c in enumerate(contexts) if c.setting == setting]))
    for kind in CLASSES:
        rows.append((kind, [i for i, c in enumerate(contexts) if c.kind == kind]))
    for level in ("1", "2", "4+"):
        rows.append((f"cube {level}", [i for i, c in enumerate(contexts) if c.level == level]))
    rows.append(("all", list(range(len(contexts)))))
    return [(label, indices) for label, indices in rows if indices]


def print_cube_table(record: CubeRecord, judge: str, variant: str, settings: Sequence[str]) -> None:
    """Doubler's and taker's error by setting, class and cube level, with intervals."""
    judged = record.judged[(judge, variant)]
    print(f"\nJudge: {judge}; ours: {variant} (mp per context, 95% intervals)")
    print(
        f"{'group':<10} {'n':>5} {'doubler':>13} {'taker':>13} {'total':>13} "
        f"{'close':>5} {'close total':>13} {'dbl':>4} {'tk':>3} {'ps':>3}"
    )
    for label, indices in _groups(record.contexts, settings):
        rows = [judged[i] for i in indices]
        close = [j.error for j in rows if j.close]
        print(
            f"{label:<10} {len(rows):>5} {_cell([j.doubler for j in rows])} "
            f"{_cell([j.taker for j in rows])} {_cell([j.error for j in rows])} "
            f"{len(close):>5} {_cell(close)} {sum(j.wrong_double for j in rows):>4} "
            f"{sum(j.wrong_take for j in rows):>3} {sum(j.wrong_pass for j in rows):>3}"
        )


def print_comparison(record: CubeRecord, judge: str, variants: Sequence[str]) -> None:
    """Each variant's total error minus the plain model's, paired over the same contexts."""
    base = record.judged[(judge, variants[0])]
    print(f"\nJudge: {judge}; paired difference from {variants[0]} (mp per context)")
    for name in variants[1:]:
        other = record.judged[(judge, name)]
        taker = [b.taker - o.taker for b, o in zip(base, other, strict=True)]
        doubler = [b.doubler - o.doubler for b, o in zip(base, other, strict=True)]
        print(
            f"  {name:<34} gains: doubler {_cell(doubler)}, taker {_cell(taker)}, "
            f"total {_cell([d + t for d, t in zip(doubler, taker, strict=True)])}"
        )


#: Take margins tried by the sweep (points, normalised; inf: always 1-ply).
SWEEP = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.6, float("inf"))


def print_take_sweep(record: CubeRecord, judge: str, model: str, searched: str) -> None:
    """Error if decisions with a take margin under t were the 1-ply ones: chooses TAKE_MARGIN."""
    base = record.judged[(judge, model)]
    deep = record.judged[(judge, searched)]
    print(f"\nJudge: {judge}; 0-ply with the 1-ply decision below a take margin t")
    print(f"{'t':>6} {'searched':>9} {'doubler':>13} {'taker':>13} {'total':>13}")
    for t in SWEEP:
        chosen = [
            d if c.margin < t else b for c, b, d in zip(record.contexts, base, deep, strict=True)
        ]
        share = sum(c.margin < t for c in record.contexts) / max(1, len(record.contexts))
        print(
            f"{t:>6g} {100 * share:>8.1f}% {_cell([j.doubler for j in chosen])} "
            f"{_cell([j.taker for j in chosen])} {_cell([j.error for j in chosen])}"
        )


def print_speed(record: CubeRecord) -> None:
    """Our time per cube decision, each variant, and how many the bot's searched."""
    count = max(1, len(record.contexts))
    print(f"\nOur cube decision, ms each over {len(record.contexts)} contexts:")
    for name, seconds in record.seconds.items():
        print(f"  {name:<34} {1000 * seconds / count:7.2f} ms")
    share = 100 * record.deeper / count
    print(f"  searched a ply deeper by the bot's 0-ply: {record.deeper} ({share:.1f}%)")


def print_checker_table(play: dict[tuple[str, str], list[tuple[float, float]]], name: str) -> None:
    """Checker-play error by class of position, our 0-ply and 1-ply choices."""
    print(f"\nJudge: {name}, checker play (millipoints per decision)")
    print(f"{'class':<9} {'plays':>6} {'0-ply':>13} {'1-ply':>13}")
    for kind in [*CLASSES, "all"]:
        kinds = CLASSES if kind == "all" else (kind,)
        errors = [e for k in kinds for e in play.get((name, k), [])]
        if errors:
            zero, one = _cell([e[0] for e in errors]), _cell([e[1] for e in errors])
            print(f"{kind:<9} {len(errors):>6} {zero} {one}")


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-gnubg", action="store_true")
    parser.add_argument("--no-checker", action="store_true", help="the cube only")
    parser.add_argument(
        "--cube-ply", type=int, default=1, help="depth of our searched cube column (default 1)"
    )
    parser.add_argument(
        "--take-margin",
        type=float,
        default=TAKE_MARGIN,
        help=f"the bot's 0-ply close-take margin (default {TAKE_MARGIN})",
    )
    parser.add_argument(
        "--cube",
        default="money",
        help="cube settings, comma-separated: money, or N for an N-point match (default money)",
    )
    args = parser.parse_args(argv)
    for setting in args.cube.split(","):
        if setting != "money" and not (setting.isdigit() and 1 < int(setting) <= 25):
            parser.error(f"--cube takes money or a match length from 2 to 25, not {setting!r}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = _arguments(argv)
    settings = args.cube.split(",")
    evaluator = default_evaluator()
    judges: dict[str, Engine] = {"gammon 2-ply": evaluator}
    if not args.no_gnubg:
        from bench.analysis import GnubgEngine

        judges["GNU 2-ply"] = GnubgEngine()

    start = time.perf_counter()
    samples = sample_positions(args.games, args.every, args.seed, evaluator)
    print(f"{len(samples)} positions from {args.games} games of 0-ply self-play (seed {args.seed})")
    play: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for sample in [] if args.no_checker else samples:
        found = checker_errors(sample, evaluator, judges)
        for name, pair in (found or {}).items():
            play[(name, sample.kind)].append(pair)
    variants = our_variants(args.cube_ply, args.take_margin)
    analyse_cube(Position.initial(), CubeState(), ply=1, evaluator=evaluator)  # warm, untimed
    record = judge_cubes(samples, settings, evaluator, judges, variants)
    names = list(variants)
    for name in judges:
        if play:
            print_checker_table(play, name)
        for variant in names:
            print_cube_table(record, name, variant, settings)
        print_comparison(record, name, names)
        if args.cube_ply == 1:
            print_take_sweep(record, name, names[0], names[2])
    print_speed(record)
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
