"""``gammon rollout``: a position's cubeless chances measured by playing it out many times.

The trials run here, or with ``--ray`` as Ray tasks of ``--batch`` trials each
(:mod:`gammon.engine.cluster`); the figures depend only on the position, the
trials, the seed and the batch, never on where they ran. The engine is an extra
(``gammon[engine]``), Ray another (``gammon[ray]``).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="gammon")
>>> register(parser.add_subparsers())
>>> args = parser.parse_args(["rollout", "start", "--trials", "72", "--ray", "auto"])
>>> args.trials, args.batch, args.seed, args.ray
(72, 144, 0, 'auto')
"""

from __future__ import annotations

import argparse
from typing import Final, TextIO

from gammon.cli.common import (
    Commands,
    add_engine_option,
    add_lang_option,
    add_ray_option,
    lang_of,
    needs_extra,
)
from gammon.cli.inputs import read_given, variant_arg
from gammon.cli.rules import POSITION_HELP
from gammon.i18n import translator
from gammon.variants import find_variant

__all__ = ["DEFAULT_BATCH", "DEFAULT_TRIALS", "register", "run_rollout"]

#: Trials when ``--trials`` is not given: 36 of each opening roll.
DEFAULT_TRIALS: Final = 1296
#: Trials per batch (one Ray task each): four of each first roll.
DEFAULT_BATCH: Final = 144


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)


def run_rollout(args: argparse.Namespace, out: TextIO) -> int:
    """Roll the position out and print its chances and equity with the margin."""
    with needs_extra("gammon rollout", "engine"):
        import rich.console
        import rich.progress

        from gammon.engine.cluster import connect
        from gammon.engine.engines import get_engine
        from gammon.engine.rollout import rollout
    tr = translator(lang_of(args))
    position = read_given(args.position, args.variant).position
    evaluator = get_engine(args.engine)
    cluster = connect(args.ray)
    bar = rich.progress.Progress(
        rich.progress.TextColumn(tr.gettext("Rolling out")),
        rich.progress.BarColumn(),
        rich.progress.MofNCompleteColumn(),
        rich.progress.TimeRemainingColumn(),
        console=rich.console.Console(stderr=True),
        transient=True,
    )
    try:
        with bar:
            task = bar.add_task("rollout", total=args.trials)
            result = rollout(
                position,
                trials=args.trials,
                seed=args.seed,
                batch=args.batch,
                cluster=cluster,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                evaluator=None if evaluator.is_ours else evaluator,
            )
    finally:
        if cluster is not None:
            cluster.close()
    e = result.evaluation
    figures = {
        "equity": tr.signed(e.equity, 3),
        "margin": tr.number(1.96 * result.equity_error, "0.000"),
        "win": tr.percent(e.win, 1),
        "win_gammon": tr.percent(e.win_gammon, 1),
        "lose_gammon": tr.percent(e.lose_gammon, 1),
        "trials": result.trials,
    }
    # The same figures as RolloutResult's str (English, for programs), in the reader's words.
    line = tr.gettext(
        "equity {equity} ± {margin} (95%), win {win}, gammons {win_gammon} / {lose_gammon} "
        "over {trials} trials",
        **figures,
    )
    if not evaluator.is_ours:
        line += tr.gettext(" (plays by the {engine} engine)", engine=evaluator.name)
    print(f"{position.id}: {line}", file=out)
    return 0


def register(commands: Commands) -> None:
    """Add ``rollout`` to the ``gammon`` command line."""
    command = commands.add_parser(
        "rollout",
        help="a position's cubeless chances from many played-out games",
        description="Roll a position out: play it to the end many times with the engine "
        "(cubeless, 0-ply plays, the first roll rotated, bear-offs scored by the database) "
        "and print the mean chances and equity with its 95%% margin.",
    )
    command.add_argument("position", help=POSITION_HELP)
    command.add_argument("--trials", type=_positive, default=DEFAULT_TRIALS,
                         help=f"games played out (default {DEFAULT_TRIALS})")  # fmt: skip
    command.add_argument("--seed", type=int, default=0, help="the dice's seed (default 0)")
    command.add_argument("--batch", type=_positive, default=DEFAULT_BATCH,
                         help=f"trials per batch, each with its own dice and, with --ray, "
                         f"its own task (default {DEFAULT_BATCH})")  # fmt: skip
    command.add_argument("--variant", type=variant_arg, default=find_variant("standard"),
                         help="the variant of the position (default standard)")  # fmt: skip
    add_engine_option(command)
    add_ray_option(command)
    add_lang_option(command)
    command.set_defaults(run=run_rollout)
