"""``gammon moves`` and ``gammon show``: the rules library on the command line.

These two need only the core dependencies (numpy, numba): no engine, no server.

>>> from gammon.cli import main
>>> main(["moves", "YAAASAAAAAAAAA", "6-5"])
1 legal play of 6-5 from YAAASAAAAAAAAA
  #  play                     position ID        position ID
                              (opponent on roll) (mover on roll)
  1  3/off 1/off              AAAAwAAAAAAAAA     YAAAAAAAAAAAAA
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from gammon.cli.common import Commands, add_lang_option, lang_of
from gammon.cli.inputs import ID_PREFIX, id_or_none, parse_dice, read_given, variant_arg
from gammon.diagram import draw
from gammon.errors import InvalidDiceError
from gammon.i18n import translator
from gammon.variants import VARIANTS, Variant, find_variant

__all__ = ["POSITION_HELP", "register", "run_moves", "run_show", "variant_help"]

POSITION_HELP = (
    "a GNU Position ID (a 'Position ID:' prefix is fine), "
    "an XGID, or 'start' for the variant's starting position"
)


def variant_help() -> str:
    names = ", ".join(v.name for v in VARIANTS)
    return f"the variant, for its checker count and cube ({names}); default standard"


def run_moves(args: argparse.Namespace, out: TextIO) -> int:
    """Print every legal play of the dice, as a table or as JSON."""
    variant: Variant = args.variant
    # An unquoted "Position ID: 4HPw... 31" arrives as several words.
    words = ID_PREFIX.sub("", " ".join([args.position, *args.dice])).split()
    given = read_given(words[0] if words else "", variant)
    if words[1:]:
        dice = parse_dice(" ".join(words[1:]))
    elif given.dice is not None:
        dice = given.dice
    else:
        raise InvalidDiceError("no dice given: write them after the position, as 31 or 3-1")
    start = given.position
    plays = start.plays(dice)
    start_id = id_or_none(start)
    if args.json:
        report: dict[str, Any] = {
            "start_position_id": start_id,
            "dice": list(dice),
            "variant": variant.name,
            "plays": [
                {
                    "play": str(play),
                    "moves": [{"from": m.source, "to": m.target, "hit": m.hit} for m in play.moves],
                    "position_id": id_or_none(play.position.swapped()),
                    "mover_position_id": id_or_none(play.position),
                }
                for play in plays
            ],
        }
        print(json.dumps(report, indent=2), file=out)
        return 0
    tr = translator(lang_of(args))
    source = start_id or tr.gettext("the starting position")
    roll = {"die1": dice[0], "die2": dice[1], "source": source}
    if plays[0].is_pass:
        print(tr.gettext("no legal play of {die1}-{die2} from {source}", **roll), file=out)
    else:
        print(
            tr.ngettext(
                "{n} legal play of {die1}-{die2} from {source}",
                "{n} legal plays of {die1}-{die2} from {source}",
                len(plays),
                **roll,
            ),
            file=out,
        )
    ident = "position ID"  # GNU Backgammon's name of the ID, as the board's diagram writes it
    play_word = tr.gettext("play")
    print(f"  #  {play_word:<24} {ident:<18} {ident}", file=out)
    opponent, mover = tr.gettext("(opponent on roll)"), tr.gettext("(mover on roll)")
    print(f"     {'':<24} {opponent:<18} {mover}", file=out)
    for number, play in enumerate(plays, 1):
        after = id_or_none(play.position.swapped()) or "-"
        mover = id_or_none(play.position) or "-"
        print(f"{number:>3}  {play!s:<24} {after:<18} {mover}", file=out)
    return 0


def run_show(args: argparse.Namespace, out: TextIO) -> int:
    """Draw the position, with the score, cube and dice its Match ID or XGID carries."""
    given = read_given(args.position, args.variant)
    dice = parse_dice(args.dice) if args.dice else given.dice
    lang = lang_of(args)
    if given.match is not None:
        text = draw(given.position, match=given.match, dice=dice, lang=lang)
    else:
        text = draw(
            given.position,
            dice=dice,
            cube=given.cube if args.variant.cube else None,
            cube_owner=given.cube_owner,
            score=given.score,
            match_length=given.match_length,
            lang=lang,
        )
    print(text, file=out)
    return 0


def register(commands: Commands) -> None:
    """Add ``moves`` and ``show`` to the ``gammon`` command line."""
    moves = commands.add_parser(
        "moves",
        help="list every legal play of a roll",
        description="List every legal play of a roll, with the Position ID each "
        "leads to: first with the opponent on roll (as GNU Backgammon shows it), then "
        "with the mover still on roll.",
    )
    moves.add_argument("position", help=POSITION_HELP)
    moves.add_argument(
        "dice",
        nargs="*",
        help="the roll: 31, 3-1, 3,1 or 3 1 (may be left out when an XGID or Match ID has it)",
    )
    moves.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_lang_option(moves)
    moves.add_argument(
        "--variant",
        type=variant_arg,
        default=find_variant("standard"),
        metavar="V",
        help=variant_help(),
    )
    moves.set_defaults(run=run_moves)

    show = commands.add_parser(
        "show",
        help="draw a position as a text board",
        description="Draw a position as a text board; a Match ID after a colon "
        "(ID:MATCHID, as GNU Backgammon writes them) adds the score, cube and dice.",
    )
    show.add_argument("position", help=POSITION_HELP + "; may end in ':MATCHID'")
    show.add_argument("--dice", help="dice to show as rolled: 31, 3-1 or 3,1")
    show.add_argument(
        "--variant",
        type=variant_arg,
        default=find_variant("standard"),
        metavar="V",
        help=variant_help(),
    )
    add_lang_option(show)
    show.set_defaults(run=run_show)
