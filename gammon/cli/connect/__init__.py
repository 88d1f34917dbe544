"""``gammon connect URL``: play on a gammon server from the terminal.

Written from ``docs/PROTOCOL.md`` and ``DICE.md`` alone, as an outside developer
would: nothing here imports the server. The rules library draws the board from
the Position ID and Match ID the server sends and words a game's result
(:func:`gammon.events.describe`); every rule is the server's to check, so a
refused command prints the server's reason and the session goes on.

- ``gammon connect URL``: list the open tables;
- ``gammon connect URL --bot LEVEL [--match N | --money] ...``: play the computer;
- ``gammon connect URL --create [--invite NAME] ...``: open a table and wait;
- ``gammon connect URL --table ID``: join (or rejoin, or watch) a table;
- ``gammon connect URL --tournaments``: list the tournaments; ``--tournament ID`` shows
  one's bracket; with ``--register``, ``--unregister`` or ``--withdraw`` it does that first,
  and with ``--play`` it plays each of your matches as it comes.

Sign in with ``--name N --password P`` (``--signup`` creates the account first),
or play as a guest (the default). Commands are read from standard input, one a
line (:mod:`gammon.cli.connect.commands`). When the table ends, every game's dice
are checked against the revealed seed with the formula of DICE.md
(:mod:`gammon.cli.connect.dice`).

The parts: :mod:`~gammon.cli.connect.api` (HTTP), :mod:`~gammon.cli.connect.link`
(the WebSocket, the one part that needs the ``client`` extra),
:mod:`~gammon.cli.connect.screen` (what is shown), :mod:`~gammon.cli.connect.commands`
(what is typed) and :mod:`~gammon.cli.connect.session` (a whole visit).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import TextIO

from gammon.cli.common import Commands, Parser, add_lang_option, needs_extra
from gammon.errors import GammonError

__all__ = ["main", "register", "run_connect"]


def run_connect(args: argparse.Namespace, out: TextIO) -> int:
    """Sign in, pick or make a table, and play it from standard input."""
    with needs_extra("gammon connect", "client"):
        from gammon.cli.connect.session import connect_and_play
    return connect_and_play(args, out)


def _clock_arg(text: str) -> dict[str, int]:
    """``BASE[/DELAY[/INCREMENT]]`` in seconds."""
    found = re.fullmatch(r"(\d+)(?:/(\d+)(?:/(\d+))?)?", text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(f"expected BASE[/DELAY[/INCREMENT]] seconds, got {text!r}")
    base, delay, increment = (int(g) if g else 0 for g in found.groups())
    return {"base_s": base, "delay_s": delay, "increment_s": increment}


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of 0 or more, got {text!r}")
    return value


def register(commands: Commands) -> None:
    """Add ``connect`` to the ``gammon`` command line."""
    parser = commands.add_parser(
        "connect",
        help="play on a gammon server from the terminal",
        description="Play on a gammon server (docs/PROTOCOL.md) from the terminal: sign in "
        "(or play as a guest), then play the bot, open a table, or join one; commands come "
        "from standard input (type 'help'), so a script can be piped in. Without --table, "
        "--bot or --create: list the open tables.",
    )
    _account_options(parser)
    _what_to_do_options(parser)
    _table_options(parser)
    add_lang_option(parser)
    parser.set_defaults(run=run_connect)


def _account_options(parser: argparse.ArgumentParser) -> None:
    """The server, and who plays on it: an account (signed in or signed up) or a guest."""
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--name", help="your account name")
    who.add_argument("--guest", action="store_true", help="play as a new guest (the default)")
    parser.add_argument("--password", help="your password (or GAMMON_PASSWORD)")
    parser.add_argument("--signup", action="store_true", help="create the account --name first")


def _what_to_do_options(parser: argparse.ArgumentParser) -> None:
    """What to do there (a table, the bot, a new table, the tournaments), and with
    --tournament what to do in it."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--table", type=_positive, metavar="ID", help="join, rejoin or watch a table"
    )
    where.add_argument("--bot", metavar="LEVEL", help="play the computer at LEVEL (e.g. expert)")
    where.add_argument("--create", action="store_true", help="open a table, wait for an opponent")
    where.add_argument("--tournaments", action="store_true", help="list the tournaments")
    where.add_argument(
        "--tournament", type=_positive, metavar="ID", help="show a tournament's bracket"
    )
    step = parser.add_mutually_exclusive_group()
    step.add_argument("--register", action="store_true", help="with --tournament: register")
    step.add_argument("--unregister", action="store_true", help="with --tournament: unregister")
    step.add_argument("--withdraw", action="store_true", help="with --tournament: withdraw")
    parser.add_argument(
        "--play", action="store_true", help="with --tournament: play your matches as they come"
    )


def _table_options(parser: argparse.ArgumentParser) -> None:
    """The settings of a table opened with --create or --bot (the server's table settings,
    docs/PROTOCOL.md)."""
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--match", type=_positive, metavar="N", help="a match to N points")
    kind.add_argument("--money", action="store_true", help="a money session")
    parser.add_argument("--variant", help="standard, nackgammon, hypergammon, tavla, acey-deucey")
    parser.add_argument("--no-cube", action="store_true", help="play without the doubling cube")
    parser.add_argument("--max-cube", type=_positive, metavar="N", help="the highest cube")
    parser.add_argument("--no-crawford", action="store_true", help="match: no Crawford rule")
    parser.add_argument(
        "--jacoby",
        action="store_true",
        help="money: the Jacoby rule (gammons count single until the cube is turned)",
    )
    parser.add_argument("--beavers", action="store_true", help="money: beavers allowed")
    parser.add_argument(
        "--auto-doubles",
        type=_positive,
        metavar="N",
        help="money: opening ties double the cube up to N times",
    )
    parser.add_argument(
        "--max-games", type=_positive, metavar="N", help="money: end the session after N games"
    )
    parser.add_argument(
        "--stakes", type=_positive, metavar="N", help="money: each side's bankroll in points"
    )
    parser.add_argument(
        "--clock",
        type=_clock_arg,
        metavar="BASE[/DELAY[/INC]]",
        help="a clock in seconds: BASE, then a DELAY and an INCREMENT per move, e.g. 600/12",
    )
    parser.add_argument("--invite", metavar="NAME", help="only NAME may take the second seat")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gammon.cli.connect``: the same as ``gammon connect`` (exit 2 on an error)."""
    parser = Parser(prog="gammon")
    register(parser.add_subparsers(dest="command", parser_class=Parser))
    try:
        args = parser.parse_args(["connect", *(sys.argv[1:] if argv is None else argv)])
        return int(args.run(args, sys.stdout))
    except GammonError as exc:
        print(f"gammon: error: {exc}", file=sys.stderr)
        return 2
