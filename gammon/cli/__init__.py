"""The ``gammon`` command line: one subcommand per module of this package.

- ``gammon moves`` and ``gammon show`` (:mod:`gammon.cli.rules`): legal plays and
  boards, on the rules library alone;
- ``gammon hint`` (:mod:`gammon.cli.hint`): the engine's advice;
- ``gammon rollout`` (:mod:`gammon.cli.rollout`): a position played out many times;
- ``gammon analyse`` (:mod:`gammon.cli.analyse`): a match file reviewed, with explanations;
- ``gammon play`` (:mod:`gammon.cli.play`): a game or match in the terminal;
- ``gammon serve`` (:mod:`gammon.cli.serve`): the play server;
- ``gammon connect`` (:mod:`gammon.cli.connect`): play on a server from the terminal;
- ``gammon verify`` (:mod:`gammon.cli.verify`): recheck an online game's dice.

The engine, the server and the WebSocket client are optional extras, imported
only by the commands that need them. Bad input (or a missing extra) ends the
command with exit status 2 and one line on stderr that says what was wrong,
never a traceback, so scripts can tell a typo from a crash.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from gammon.cli.common import Parser
from gammon.errors import GammonError

__all__ = ["main"]

PROG = "gammon"
_EXIT_BAD_INPUT = 2


def _parser() -> Parser:
    # Imported here, not at the top, so that importing one command's module (the
    # terminal client, say) does not bring in the others.
    from gammon.cli import analyse, connect, hint, play, rollout, rules, serve, verify

    parser = Parser(
        prog=PROG,
        description="Backgammon from the command line: legal plays, boards, hints and games.",
    )
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    for module in (rules, play, hint, rollout, analyse, serve, connect, verify):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 2 bad input)."""
    out = sys.stdout
    try:
        parser = _parser()
        args, extra = parser.parse_known_args(argv)
        # argparse gives "*" positionals only the words before the first option,
        # so "moves start --json 3 1" leaves the dice over: take them back.
        if extra and args.command == "moves" and not any(w.startswith("-") for w in extra):
            args.dice = [*args.dice, *extra]
        elif extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        status: int = args.run(args, out)
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:  # output piped into head, say: not an error of ours
        # Point stdout at devnull so the interpreter's final flush stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except GammonError as exc:  # UsageError and MissingExtraError among them
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return _EXIT_BAD_INPUT
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
