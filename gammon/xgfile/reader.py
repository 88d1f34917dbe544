"""An .xg file's records turned into the records of a .mat file (:mod:`gammon.matfile`), and
replayed through the rules the same way; eXtreme Gammon's own figures are kept beside them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from gammon.dice import DiceSource
from gammon.errors import MatFileError, XgFileError
from gammon.match import Match, Session
from gammon.matfile import MatGame, MatTag, MatTurn, ParsedMatch, TurnKind, replay_mat
from gammon.xgfile.container import archive_files
from gammon.xgfile.records import (
    NOT_ANALYSED,
    CubeRecord,
    GameFooter,
    GameHeader,
    MatchHeader,
    MoveRecord,
    Record,
    read_records,
)

__all__ = ["XgFile", "XgNote", "read_xg", "replay_xg"]

#: eXtreme Gammon's match length of a money session ("unlimited").
_UNLIMITED: Final = 99999
_VARIATIONS: Final = {0: None, 1: "NackGammon", 2: "Hypergammon"}


@dataclass(frozen=True)
class XgNote:
    """eXtreme Gammon's analysis of one decision, as the file holds it.

    ``turn`` is the place of the decision in its game's turns
    (:attr:`~gammon.matfile.MatGame.turns`); ``kind`` is ``"play"``, ``"double"`` (the
    decision to double or not, before the roll) or ``"take"``; ``error`` the equity the
    choice lost (0 for the best), and ``luck`` the roll's luck (plays only).
    """

    game: int
    turn: int
    side: int
    kind: str
    error: float
    luck: float | None = None


@dataclass(frozen=True)
class XgFile:
    """An .xg file read: its games as .mat records, and eXtreme Gammon's analysis of them."""

    parsed: ParsedMatch
    analysis: tuple[XgNote, ...]


def read_xg(data: bytes) -> XgFile:
    """Read an eXtreme Gammon .xg file: a match or a money session, checking its layout.

    Every record is named by its place in ``temp.xg`` (counted from 1) where one is
    wrong; :func:`replay_xg` checks the games against the rules.
    """
    records = read_records(_game_file(data))
    head = records[0]
    assert isinstance(head, MatchHeader)
    if head.variation not in _VARIATIONS:
        raise XgFileError(
            f"record {head.index}: the variation {head.variation} (3 is longgammon) is not "
            "played here"
        )
    money = head.length in (0, _UNLIMITED)
    if not money and not 1 <= head.length <= 99:
        raise XgFileError(f"record {head.index}: a match to {head.length} points")
    tags = _tags(head, money)
    games: list[MatGame] = []
    notes: list[XgNote] = []
    game: _Game | None = None
    for record in records[1:]:
        if isinstance(record, MatchHeader):
            raise XgFileError(f"record {record.index}: a second match header")
        if isinstance(record, GameHeader):
            if game is not None:
                games.append(game.done(None))
            game = _Game(len(games) + 1, record)
            continue
        if game is None:
            raise XgFileError(f"record {record.index}: a game's record before its game header")
        if isinstance(record, GameFooter):
            games.append(game.done(record))
            game = None
        else:
            game.add(record, notes)
    if game is not None:
        games.append(game.done(None))
    parsed = ParsedMatch(0 if money else head.length, head.names, tuple(games), tags)
    return XgFile(parsed, tuple(notes))


def replay_xg(source: bytes | XgFile, *, dice: DiceSource | None = None) -> Match | Session:
    """Play an .xg file through the rules, as :func:`~gammon.matfile.replay_mat` plays a .mat
    file: every roll, play, cube action and result is checked where it stands, and an error
    names the record."""
    read = source if isinstance(source, XgFile) else read_xg(source)
    try:
        return replay_mat(read.parsed, dice=dice)
    except MatFileError as exc:
        message = re.sub(r"^line (\d+):", r"record \1:", str(exc))
        raise XgFileError(message.replace("'Wins' line", "game footer")) from None


def _game_file(data: bytes) -> bytes:
    files = archive_files(data)
    game_file = files.get("temp.xg")
    if game_file is None:
        raise XgFileError(
            f"the .xg file's archive holds no games (temp.xg), only {sorted(files)}"
        )
    return game_file


def _tags(head: MatchHeader, money: bool) -> tuple[MatTag, ...]:
    values: dict[str, str] = {}
    for key, value in (("Event", head.event), ("Place", head.location), ("Round", head.round)):
        if value.strip() and '"' not in value:
            values[key] = value.strip()
    variation = _VARIATIONS[head.variation]
    if variation is not None:
        values["Variation"] = variation
    if head.cube_limit > 1 and head.cube_limit & (head.cube_limit - 1) == 0:
        values["CubeLimit"] = str(head.cube_limit)
    if money:
        values["Jacoby"] = "On" if head.jacoby else "Off"
        values["Beaver"] = "On" if head.beaver else "Off"
    else:
        values["Crawford"] = "On" if head.crawford else "Off"
    return tuple(MatTag(key, value, head.index) for key, value in values.items())


class _Game:
    """One game's records gathered into .mat turns, each on its record's "line"."""

    def __init__(self, number: int, header: GameHeader) -> None:
        self.number = number
        self.header = header
        self.turns: list[MatTurn] = []

    def add(self, record: Record, notes: list[XgNote]) -> None:
        turns = self.turns
        if isinstance(record, CubeRecord):
            at = record.index
            if record.double_error != NOT_ANALYSED:
                notes.append(
                    XgNote(self.number, len(turns), record.side, "double", record.double_error)
                )
            if record.double != 1:
                return  # a decision not to double, kept for its analysis
            turns.append(MatTurn(at, record.side, TurnKind.DOUBLE))
            taker = 1 - record.side
            if record.take_error != NOT_ANALYSED:
                notes.append(XgNote(self.number, len(turns), taker, "take", record.take_error))
            if record.take == 1:
                turns.append(MatTurn(at, taker, TurnKind.TAKE))
            elif record.take == 0:
                turns.append(MatTurn(at, taker, TurnKind.DROP))
            elif record.take == 2:
                turns.append(MatTurn(at, taker, TurnKind.BEAVER))
                if record.beaver_answer in (0, 1):
                    kind = TurnKind.TAKE if record.beaver_answer == 1 else TurnKind.DROP
                    turns.append(MatTurn(at, record.side, kind))
        elif isinstance(record, MoveRecord):
            dice = record.dice
            if not all(1 <= die <= 6 for die in dice):
                raise XgFileError(f"record {record.index}: {dice} is not a roll of two dice 1-6")
            play = " ".join(f"{start}/{max(end, 0)}" for start, end in record.moves)
            if record.error != NOT_ANALYSED:
                notes.append(
                    XgNote(self.number, len(turns), record.side, "play", record.error, record.luck)
                )
            turns.append(MatTurn(record.index, record.side, TurnKind.ROLL, dice=dice, play=play))

    def done(self, footer: GameFooter | None) -> MatGame:
        header = self.header
        if footer is not None and footer.points < 1:
            footer = None  # a game not finished
        # The header's CrawfordApply is not passed on: the rules find the Crawford game (R12).
        return MatGame(
            number=self.number,
            line=header.index,
            score_line=header.index,
            score=header.score,
            turns=tuple(self.turns),
            winner=None if footer is None else footer.winner,
            points=None if footer is None else footer.points,
            result_line=None if footer is None else footer.index,
        )
