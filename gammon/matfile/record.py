"""The parts of a .mat file as plain records, and the rule tags both ways.

Shared by the reader, which fills the records, the replay, which checks them
against the rules, and the writer, which writes the rule tags; none of them
needs another's code for these.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from gammon.dice import Dice
from gammon.errors import GammonError, MatFileError
from gammon.variants import find_variant

__all__ = [
    "FORFEIT_TAG",
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
    """A resignation offer refused (this module's own cell, ``Rejects``)."""


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
    score: tuple[int, int]
    """The score before the game, as written (side 0 first)."""
    turns: tuple[MatTurn, ...]
    winner: int | None
    """The side in whose column ``Wins`` stands; None for an unfinished game."""
    points: int | None
    result_line: int | None
    opening_ties: tuple[Dice, ...] = ()
    crawford: bool = False
    """Whether the file marks this game as the Crawford game (GNU Backgammon never does)."""


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

#: The tags write_mat derives from the series; metadata may repeat them only if it agrees.
#: The head tag that says the last game ended by a forfeit ("Game 3") or on time ("Game 3 on time").
FORFEIT_TAG: Final = "Forfeit"

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
        if lowered == "hypergammon3":  # GNU Backgammon's name for 3-checker hypergammon
            return find_variant("hypergammon")
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
