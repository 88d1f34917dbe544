"""Known positions: what each net says at 0-ply, next to a reference figure.

Usage::

    python -m bench.positions [--net gammon@training/td-contact.npz ...] [--rollout 360]

The positions are issue 8's examples of what a net that reads only the pip
count misjudges (checkers trapped behind primes), with the reference win
chance quoted there.  ``--net`` adds evaluators named as in
:mod:`bench.strength` (the shipped one is always shown); ``--rollout N`` also
rolls each position out N times with each evaluator, a check that does not
depend on the quoted figures.
"""

from __future__ import annotations

import argparse

from bench.strength import evaluator_at
from gammon.engine.evaluator import Evaluator, default_evaluator
from gammon.engine.rollout import rollout
from gammon.position import Position

__all__ = ["POSITIONS"]

#: (Position ID, what it is, reference win chance for the player on roll).
POSITIONS = (
    ("2LZNBEC22xUACA", "X's last checker behind a six-prime, X 41 pips ahead", 0.08),
    ("ttsVAAjYtk0EQA", "the same position, the prime's owner on roll", 0.91),
    ("bNstAALv7wAAEA", "a checker behind a five-prime, X far ahead", 0.05),
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--net", action="append", default=[], help="gammon@PATH (repeatable)")
    parser.add_argument("--rollout", type=int, default=0, metavar="TRIALS")
    args = parser.parse_args(argv)
    evaluators: list[tuple[str, Evaluator]] = [("shipped", default_evaluator())]
    for name in args.net:
        path = name.partition("@")[2] or name
        evaluators.append((name, evaluator_at(path)))
    for position_id, what, reference in POSITIONS:
        position = Position.from_id(position_id)
        print(f"{position_id}  {what}: reference {reference:.0%} wins")
        for name, evaluator in evaluators:
            line = f"    {name:40s} 0-ply {evaluator.evaluate(position).win:6.1%}"
            if args.rollout:
                result = rollout(position, trials=args.rollout, seed=1, evaluator=evaluator)
                line += f"   rollout {result.evaluation.win:6.1%} ({args.rollout} trials)"
            print(line, flush=True)


if __name__ == "__main__":
    main()
