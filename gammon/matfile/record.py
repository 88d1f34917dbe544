"""The parts of a .mat file as plain records, and the rule tags both ways.

Shared by the reader, which fills the records, the replay, which checks them
against the rules, and the writer, which writes the rule tags; none of them
needs another's code for these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from gammon.dice import Dice
from gammon.errors import GammonError, MatFileError
from gammon.position import Position
from gammon.variants import find_variant

__all__ = [
    "CLOSED_BOARD_TAG",
    "FORFEIT_TAG",
    "HISTORY_TAGS",
    "OPENING_TIES_TAG",
    "RESIGNATIONS_TAG",
    "DEFAULT_MAX_CUBE",
    "RULE_TAGS",
    "VARIATION_NAMES",
    "MatGame",
    "MatTag",
    "MatTurn",
    "ParsedMatch",
    "TurnKind",
    "read_rule",
]


class TurnKind(StrEnum):
    """What one cell of a game records."""

    ROLL = "roll"
    """A roll and the play made with it ("" when the cell shows no play)."""
    DOUBLE = "double"
    BEAVER = "beaver"
    TAKE = "take"
    DROP = "drop"
    CLOSED_OUT = "closed out"
    """A turn lost on the bar against a closed board, without a roll (R7)."""
    RESIGN = "resign"
    """An offer to resign (this module's own cell, ``Resigns 2``)."""
    REJECT = "reject"
    """A resignation offer refused (this module's old cell), or, after a double, a drop.

    Some sites write ``Rejects`` for a dropped double; the replay tells the two apart
    by what the game waits for.
    """


@dataclass(frozen=True)
class MatTurn:
    """One cell: who acted (the column, 0 left), what they did, and on which line."""

    line: int
    side: int
    kind: TurnKind
    dice: Dice | None = None
    play: str | None = None
    """The play as written, for a roll; "" when the cell shows none."""
    value: int | None = None
    """The cube value offered (double, beaver) or the resignation's value (1-3)."""


@dataclass(frozen=True)
class MatGame:
    """One game as the file gives it, before any rule is checked."""

    number: int
    line: int
    """The line of ``Game N``."""
    score_line: int
    score: tuple[int, int] | None
    """The score before the game, as written (side 0 first); None where the file has no
    score line (the replay then works it out)."""
    turns: tuple[MatTurn, ...]
    winner: int | None
    """The side in whose column ``Wins`` stands; None for an unfinished game."""
    points: int | None
    result_line: int | None
    opening_ties: tuple[Dice, ...] = ()
    crawford: bool = False
    """Whether the file marks this game as the Crawford game (GNU Backgammon never does)."""
    start: Position | None = None
    """Where the game starts, seen from side 0, when the file sets a position up (an .sgf
    file's ``AE``/``AB``/``AW``); None for the variant's own start."""


@dataclass(frozen=True)
class MatTag:
    """A ``; [Key "value"]`` line from the head of the file."""

    key: str
    value: str
    line: int


@dataclass(frozen=True)
class ParsedMatch:
    """A .mat file read into its parts; :func:`replay_mat` checks them against the rules."""

    length: int
    """The match length; 0 for a money session."""
    names: tuple[str, str]
    games: tuple[MatGame, ...]
    tags: tuple[MatTag, ...] = ()
    comments: tuple[str, ...] = ()
    """Comment lines of the head that are not tags, without their ``;``."""

    @property
    def is_money(self) -> bool:
        return self.length == 0

    @property
    def metadata(self) -> dict[str, str]:
        """The tags as a dictionary, ready to pass to :func:`write_mat` again."""
        return {tag.key: tag.value for tag in self.tags}


# -- the rule tags ------------------------------------------------------------

DEFAULT_MAX_CUBE: Final = 64

#: The head tag that says the last game ended by a forfeit ("Game 3") or on time ("Game 3 on time").
FORFEIT_TAG: Final = "Forfeit"
#: The head tag of the turns our rules passed on the bar against a closed board without a
#: roll (R7), by game and place in its history: ``"1: 40 52; 3: 17"``. Their rows show a roll
#: that dances, as the format has no other cell; without the tag such a roll is the record's.
CLOSED_BOARD_TAG: Final = "ClosedBoard"
#: The head tag of tied opening throws (R3), by game: ``"2: 33 22; 5: 11"``.
OPENING_TIES_TAG: Final = "OpeningTies"
#: The head tag of resignation offers the cells cannot show (refused, pending, or accepted
#: where the points do not tell the value): ``"game 1 event 9: side 1 resigns 2, rejected"``.
RESIGNATIONS_TAG: Final = "Resignations"
#: The head tags write_mat derives from the games themselves; given ones are replaced.
HISTORY_TAGS: Final = (CLOSED_BOARD_TAG, FORFEIT_TAG, OPENING_TIES_TAG, RESIGNATIONS_TAG)

#: The tags write_mat derives from the series; metadata may repeat them only if it agrees.
RULE_TAGS: Final = (
    "Variation",
    "Crawford",
    "CubeLimit",
    "Gammons",
    "Jacoby",
    "Beaver",
    "AutoDoubles",
    "Stakes",
    "MaxGames",
)
VARIATION_NAMES: Final = {
    "standard": "Backgammon",
    "nackgammon": "NackGammon",
    "hypergammon": "Hypergammon",
    "tavla": "Tavla",
    "acey-deucey": "Acey-Deucey",
}


def read_rule(key: str, value: str) -> object:
    """What a rule tag means; MatFileError for a value it cannot have."""
    text = value.strip()
    if key == "Variation":
        lowered = text.lower()
        for name, written in VARIATION_NAMES.items():
            if lowered in (name, written.lower()):
                return find_variant(name)
        # GNU Backgammon writes "HyperGammon (3)" in .mat files and "Hypergammon3" in .sgf.
        hyper = re.fullmatch(r"hyper-?gammon\s*\(?\s*([1-3])\s*\)?", lowered)
        if hyper:
            if hyper[1] == "3":
                return find_variant("hypergammon")
            raise MatFileError(
                f"the Variation {value!r} is hypergammon with {hyper[1]} checker"
                f"{'' if hyper[1] == '1' else 's'} a side; only 3-checker hypergammon is "
                "played here"
            )
        try:
            return find_variant(text)
        except GammonError as exc:
            raise MatFileError(f"unknown Variation {value!r}") from exc
    if key in ("Crawford", "Gammons", "Jacoby", "Beaver"):
        if text.lower() in ("on", "yes", "true", "1"):
            return True
        if text.lower() in ("off", "no", "false", "0"):
            return False
        raise MatFileError(f"{key} is \"On\" or \"Off\", not {value!r}")
    if key == "Stakes":
        parts = text.split()
        if 1 <= len(parts) <= 2 and all(p.isdigit() and int(p) > 0 for p in parts):
            return (int(parts[0]), int(parts[-1]))
        raise MatFileError(f"Stakes is one or two positive whole numbers, not {value!r}")
    if not text.isdigit():
        raise MatFileError(f"{key} is a whole number, not {value!r}")
    number = int(text)
    if key == "CubeLimit" and (number < 1 or number & (number - 1)):
        raise MatFileError(f"CubeLimit is a power of two, not {value!r}")
    if key == "MaxGames" and number < 1:
        raise MatFileError(f"MaxGames is 1 or more, not {value!r}")
    return number
