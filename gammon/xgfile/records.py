"""The records of an .xg file's ``temp.xg``: 2560 bytes each, the ninth byte telling the kind.

Each record below reads only the fields this project uses, at the offsets of
eXtreme Gammon's published description (``xg_format.pas``,
https://www.extremegammon.com/xgformat.aspx; Delphi records, packed as Delphi
aligns them). A match is a match header, then for each game a game header, its
cube and move records in order, and a game footer, then a match footer.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from gammon.errors import XgFileError

__all__ = [
    "RECORD_SIZE",
    "CubeRecord",
    "GameFooter",
    "GameHeader",
    "MatchHeader",
    "MoveRecord",
    "Record",
    "RecordKind",
    "read_records",
]

RECORD_SIZE: Final = 2560
#: The match header's magic (the description's ``$494C4D44``), at its byte 556.
MATCH_MAGIC: Final = 0x494C4D44
#: An error field's value where the file holds no analysis.
NOT_ANALYSED: Final = -1000.0


class RecordKind(IntEnum):
    MATCH_HEADER = 0
    GAME_HEADER = 1
    CUBE = 2
    MOVE = 3
    GAME_FOOTER = 4
    MATCH_FOOTER = 5


@dataclass(frozen=True)
class MatchHeader:
    index: int
    names: tuple[str, str]
    length: int
    """0, or 99999 (eXtreme Gammon's "unlimited"), for a money session."""
    variation: int
    """0 backgammon, 1 nackgammon, 2 hypergammon, 3 longgammon."""
    crawford: bool
    jacoby: bool
    beaver: bool
    version: int
    cube_limit: int
    """The highest cube (version 8 on; 0 where the file does not say)."""
    event: str
    location: str
    round: str


@dataclass(frozen=True)
class GameHeader:
    index: int
    score: tuple[int, int]
    crawford: bool
    number: int


@dataclass(frozen=True)
class CubeRecord:
    """A cube decision: ``double`` 1 if the side doubled (0 a decision not to, kept for its
    analysis); ``take`` 1 take, 0 drop, 2 beaver; ``beaver_answer`` 1 take, 0 drop."""

    index: int
    side: int
    double: int
    take: int
    beaver_answer: int
    double_error: float
    take_error: float


@dataclass(frozen=True)
class MoveRecord:
    """A roll and its play: ``moves`` as (from, to) pairs in the mover's own numbering, 25 the
    bar, a destination below 1 borne off; none for a roll that cannot be played."""

    index: int
    side: int
    dice: tuple[int, int]
    moves: tuple[tuple[int, int], ...]
    error: float
    luck: float


@dataclass(frozen=True)
class GameFooter:
    index: int
    winner: int
    points: int
    termination: int
    """0 drop, 1-3 single, gammon, backgammon played out, 100 and up resigned."""


Record = MatchHeader | GameHeader | CubeRecord | MoveRecord | GameFooter

_NAME: Final = struct.Struct("<41s41sxii????")  # at 9: short strings, length, variation, ...
_VERSION: Final = struct.Struct("<iI")  # at 552: version, magic
_CUBE_LIMIT: Final = struct.Struct("<i")  # at 612, version 8 on
_WIDE: Final = 258  # a 129-character UTF-16 string
_GAME: Final = struct.Struct("<ii?26bxi")  # at 12: scores, Crawford, start, number
_CUBE: Final = struct.Struct("<iiiii")  # at 12: side, double, take, beaver answer, raccoon
_CUBE_ERRORS: Final = (200, 216)  # doubling and taking errors, doubles
_MOVE: Final = struct.Struct("<i8i2i")  # at 64: side, moves, dice
_MOVE_ERRORS: Final = struct.Struct("<dd")  # at 2312: error of the play, luck of the roll
_FOOTER: Final = struct.Struct("<iii")  # at 24: winner, points, termination


def _side(active: int, index: int) -> int:
    """eXtreme Gammon's player 1 (1) is side 0, player 2 (-1, or 2) side 1."""
    if active == 1:
        return 0
    if active in (-1, 2):
        return 1
    raise XgFileError(f"record {index}: the active player is {active}, not 1 or -1")


def _short(raw: bytes) -> str:
    return raw[1 : 1 + raw[0]].decode("cp1252", errors="replace")


def _wide(raw: bytes) -> str:
    return raw.decode("utf-16-le", errors="replace").split("\x00", 1)[0]


def _match_header(record: bytes, index: int) -> MatchHeader:
    short1, short2, length, variation, crawford, jacoby, beaver, _ = _NAME.unpack_from(record, 9)
    version, magic = _VERSION.unpack_from(record, 552)
    if magic != MATCH_MAGIC:
        raise XgFileError(f"record {index}: the match header lacks its magic 'DMLI'")
    names = (_short(short1), _short(short2))
    event, location = _short(record[136:265]), _short(record[283:412])
    round_ = _short(record[417:546])
    cube_limit = _CUBE_LIMIT.unpack_from(record, 612)[0] if version >= 8 else 0
    if version >= 24:
        wide = [_wide(record[622 + i * _WIDE : 622 + (i + 1) * _WIDE]) for i in range(5)]
        event = wide[0] or event
        names = (wide[1] or names[0], wide[2] or names[1])
        location, round_ = wide[3] or location, wide[4] or round_
    return MatchHeader(
        index, names, length, variation, crawford, jacoby, beaver, version, cube_limit,
        event, location, round_,
    )


def _record(record: bytes, index: int) -> Record | None:
    kind = record[8]
    if kind == RecordKind.MATCH_HEADER:
        return _match_header(record, index)
    if kind == RecordKind.GAME_HEADER:
        score1, score2, crawford, *rest = _GAME.unpack_from(record, 12)
        return GameHeader(index, (score1, score2), crawford, rest[-1])
    if kind == RecordKind.CUBE:
        active, double, take, beaver_answer, _ = _CUBE.unpack_from(record, 12)
        errors = [struct.unpack_from("<d", record, at)[0] for at in _CUBE_ERRORS]
        return CubeRecord(
            index, _side(active, index), double, take, beaver_answer, errors[0], errors[1]
        )
    if kind == RecordKind.MOVE:
        active, *numbers = _MOVE.unpack_from(record, 64)
        pairs: list[tuple[int, int]] = []
        for at in range(0, 8, 2):
            if numbers[at] == -1:
                break
            pairs.append((numbers[at], numbers[at + 1]))
        error, luck = _MOVE_ERRORS.unpack_from(record, 2312)
        dice = (numbers[8], numbers[9])
        return MoveRecord(index, _side(active, index), dice, tuple(pairs), error, luck)
    if kind == RecordKind.GAME_FOOTER:
        winner, points, termination = _FOOTER.unpack_from(record, 24)
        return GameFooter(index, _side(winner, index), points, termination)
    return None  # the match footer, and kinds this project does not use


def read_records(game_file: bytes) -> list[Record]:
    """The records of ``temp.xg`` that make the games, in file order (counted from 1)."""
    if len(game_file) % RECORD_SIZE or not game_file:
        raise XgFileError(
            f"the .xg file's games are {len(game_file)} bytes, not a whole number of "
            f"{RECORD_SIZE}-byte records"
        )
    records: list[Record] = []
    for index in range(len(game_file) // RECORD_SIZE):
        found = _record(game_file[index * RECORD_SIZE : (index + 1) * RECORD_SIZE], index + 1)
        if found is not None:
            records.append(found)
    if not records or not isinstance(records[0], MatchHeader):
        raise XgFileError("the .xg file's games do not start with a match header")
    return records
