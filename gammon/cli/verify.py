"""``gammon verify RECORD.json``: check a game's dice from the command line (R13, DICE.md).

It needs no extra: the check (:mod:`gammon.server.fairdice`) is plain hashing.

Players who do not want to trust the server's own verification page can run
this (or their own code written from DICE.md) on the game record the server
published after the game. It prints every roll and ``all N rolls verified``,
or stops with exit status 2 and one line naming the first problem.

>>> import argparse, io, json, os, tempfile
>>> from gammon.server.fairdice import FairDice
>>> parser = argparse.ArgumentParser(prog="gammon")
>>> register(parser.add_subparsers())
>>> dice = FairDice(bytes(range(32)))
>>> dice.roll([bytes.fromhex("00112233445566778899aabbccddeeff"),
...            bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")])
(1, 4)
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "game.json")
...     with open(path, "w") as file:
...         json.dump(dice.record(), file)
...     args = parser.parse_args(["verify", path])
...     out = io.StringIO()
...     status = args.run(args, out)
>>> print(out.getvalue(), end="")
commitment 630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd
seed       000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f (matches the commitment)
roll 1: 1-4  (2 entropy contributions)  ok
all 1 rolls verified
>>> status
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from gammon.cli.common import Commands, add_lang_option, lang_of
from gammon.i18n import Translator, translator
from gammon.server.fairdice import FairDiceError, RollRecord, verify_record

__all__ = ["register", "run_verify"]


def _read_record(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read()
    except OSError as exc:
        raise FairDiceError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise FairDiceError(f"{path} is not UTF-8 text: {exc.reason}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FairDiceError(f"{path} is not JSON: {exc}") from None


def _entropy_note(record: RollRecord, t: Translator) -> str:
    count = len(record.entropy_hex)
    if count == 0:
        return t.gettext("no entropy")
    return t.ngettext("{n} entropy contribution", "{n} entropy contributions", count)


def run_verify(args: argparse.Namespace, out: TextIO) -> int:
    """Verify the record named in ``args.record``; raise :class:`FairDiceError` on a problem.

    The report is in ``--lang`` (else the locale's language); a problem found is an error,
    in English as the other errors are."""
    t = translator(lang_of(args))
    record = _read_record(args.record)
    report = verify_record(record)
    expected: str | None = args.commitment
    if expected is not None and expected.strip().lower() != report.commitment:
        raise FairDiceError(
            f"the record's commitment {report.commitment} is not the one shown before the "
            f"game ({expected.strip()}): this record is not for that game"
        )
    commitment, seed = t.gettext("commitment"), t.gettext("seed")
    wide = max(len(commitment), len(seed))
    print(f"{commitment:<{wide}} {report.commitment}", file=out)
    if report.rolls or report.ok:
        matches = t.gettext("{seed} (matches the commitment)", seed=report.seed_hex)
        print(f"{seed:<{wide}} {matches}", file=out)
    for checked in report.rolls:
        roll = checked.record
        verdict = (
            t.gettext("ok") if checked.ok
            else t.gettext("WRONG: should be {die1}-{die2}", die1=checked.expected[0],
                           die2=checked.expected[1])
        )  # fmt: skip
        line = t.gettext(
            "roll {index}: {die1}-{die2}  ({entropy})  {verdict}",
            index=roll.index, die1=roll.dice[0], die2=roll.dice[1],
            entropy=_entropy_note(roll, t), verdict=verdict,
        )  # fmt: skip
        print(line, file=out)
    report.check()
    print(
        t.ngettext("all {n} rolls verified", "all {n} rolls verified", len(report.rolls)),
        file=out,
    )
    return 0


def register(commands: Commands) -> None:
    """Add the ``verify`` subcommand to the ``gammon`` command line."""
    verify = commands.add_parser(
        "verify",
        help="check the dice of a finished online game",
        description="Check the dice of a finished online game: that the revealed seed "
        "matches the commitment published before the game and that every roll follows from "
        "the seed and the players' entropy, as DICE.md describes.",
    )
    verify.add_argument("record", help="the game record (JSON) the server published; - reads stdin")
    verify.add_argument(
        "--commitment",
        metavar="HEX",
        help="the commitment the server showed before the first roll, to check it is this game's",
    )
    add_lang_option(verify)
    verify.set_defaults(run=run_verify)
