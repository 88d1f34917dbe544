"""How much noise a rollout setting leaves per second of CPU: the figure that picks the
collection's setting (issue 18).

Usage::

    python -m bench.rollout_noise [--positions 200] [--seed 5] [--scale 1.0]

Positions come from the shipped nets' self-play (:func:`gammon.engine.supervise.sample_positions`,
contact and race, no bear-offs). Each setting rolls out the first of them (the costly
settings fewer: ``--scale`` multiplies every setting's count) and reports, over its
positions, the mean standard error of the equity (from the trials' spread), the mean
CPU seconds per position, and their product **SE^2*s** (the variance a second of CPU
leaves: lower is better; a setting twice as good reaches the same noise in half the
time). Plain 0-ply rollouts are the baseline, in the same run.

Truncated settings are biased by the net's errors at the horizon, which SE^2*s does not
see: the last columns are the mean and the RMS difference from the untruncated
variance-reduced rollout on the positions both ran. Both use the same seeds, so a trial
throws the same dice in both up to the horizon and the difference is the horizon's error
plus the noise of what follows it: the RMS is an upper bound on the bias.
``--only`` runs the baseline and the settings named (comma-separated labels).

The standard error of a stratified rollout is measured from its trials' spread, as if
they were independent; the first two rolls' stratification only makes the true error
smaller, so these figures are on the safe side.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gammon.engine.evaluator import default_evaluator, one_blas_thread
from gammon.engine.rollout import RolloutSettings, rollout
from gammon.engine.supervise import sample_positions

__all__ = ["SETTINGS", "main"]


@dataclass(frozen=True)
class Setting:
    """A rollout setting of the bench, and on how many positions it runs."""

    label: str
    trials: int
    settings: RolloutSettings
    positions: int


def _vr(truncate: int | None) -> RolloutSettings:
    return RolloutSettings(variance_reduction=True, stratify=True, truncate=truncate)


#: The reference for the bias column: variance reduction, played out to the end.
REFERENCE = "vr 72"
SETTINGS = (
    Setting("plain 72", 72, RolloutSettings(), 200),
    Setting("plain 324 strat", 324, RolloutSettings(stratify=True), 100),
    Setting("plain 1296 strat", 1296, RolloutSettings(stratify=True), 20),
    Setting(REFERENCE, 72, _vr(None), 40),
    Setting("vr 72 t7", 72, _vr(7), 200),
    Setting("vr 72 t11", 72, _vr(11), 200),
    Setting("vr 72 t23", 72, _vr(23), 60),
    Setting("vr 144 t11", 144, _vr(11), 60),
    Setting("vr 324 t7", 324, _vr(7), 30),
    Setting("vr 324 t11", 324, _vr(11), 20),
)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="at most this many")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="times each setting's count")
    parser.add_argument("--only", default=None, help="labels of the settings to run")
    args = parser.parse_args(argv)
    only = None if args.only is None else {"plain 72", REFERENCE, *args.only.split(",")}
    settings = [s for s in SETTINGS if only is None or s.label in only]
    one_blas_thread()
    evaluator = default_evaluator()
    counts = {
        s.label: max(2, min(args.positions, round(s.positions * args.scale))) for s in settings
    }
    positions = sample_positions(max(counts.values()), args.seed, evaluator)
    print(
        f"{len(positions)} positions from the shipped nets' self-play (seed {args.seed}); "
        "CPU seconds per position"
    )
    means: dict[str, list[float]] = {}
    errors: dict[str, list[float]] = {}
    print(
        f"{'setting':<18} {'n':>4} {'SE':>7} {'s/pos':>7} {'SE^2*s':>9} {'vs plain':>8} "
        f"{'mean diff':>9} {'rms diff':>8}"
    )
    baseline = math.nan
    for setting in settings:
        n = counts[setting.label]
        seconds = []
        means[setting.label], errors[setting.label] = [], []
        for index, position in enumerate(positions[:n]):
            started = time.process_time()
            result = rollout(
                position,
                trials=setting.trials,
                seed=args.seed * 1_000_003 + index,
                evaluator=evaluator,
                settings=setting.settings,
            )
            seconds.append(time.process_time() - started)
            means[setting.label].append(result.evaluation.equity)
            errors[setting.label].append(result.equity_error)
        se = float(np.mean(errors[setting.label]))
        per = float(np.mean(seconds))
        product = float(np.mean(np.square(errors[setting.label]))) * per
        if setting.label == "plain 72":
            baseline = product
        bias = _bias(means, setting.label) if setting.settings.truncate else ""
        print(
            f"{setting.label:<18} {n:>4} {se:7.4f} {per:7.2f} {product:9.2e} "
            f"{baseline / product:7.1f}x {bias:>18}",
            flush=True,
        )


def _bias(means: dict[str, list[float]], label: str) -> str:
    """Mean and RMS difference from the reference, on the same dice (see above)."""
    n = min(len(means.get(REFERENCE, [])), len(means[label]))
    if n < 2:
        return "n/a"
    diff = np.array(means[label][:n]) - np.array(means[REFERENCE][:n])
    return f"{diff.mean():+9.3f} {math.sqrt(float(np.mean(np.square(diff)))):8.3f}"

if __name__ == "__main__":
    main()
