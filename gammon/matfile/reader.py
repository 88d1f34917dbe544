""".mat text read into a :class:`~gammon.matfile.record.ParsedMatch`: the layout is
checked here, lenient about columns and spacing; the rules are checked by the replay.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from gammon.dice import Dice
from gammon.errors import MatFileError
from gammon.matfile.record import MatGame, MatTag, MatTurn, ParsedMatch, TurnKind

__all__ = ["read_mat"]

_HEADER: Final = re.compile(r"\s*(\d+)\s+point\s+match\s*", re.IGNORECASE)
_TAG: Final = re.compile(r"[;#]\s*\[\s*([^\]\"]*?)\s+\"(.*)\"\s*\]\s*")
_GAME: Final = re.compile(r"\s*Game\s+(\d+)\b(.*)", re.IGNORECASE)
_SCORE: Final = re.compile(r"\s*([^:]*?)\s*:\s*(\d+)\s+([^:]*?)\s*:\s*(\d+)\s*(.*)")
_ROW_NUMBER: Final = re.compile(r"\s*\d+\)")
_CELL_START: Final = re.compile(
    r"(?<![^\s)])(?:[0-9]{2}:|doubles\b|beavers\b|raccoons\b|takes?\b|drops?\b|wins\b"
    r"|accepts?\b|passes\b|pass\b|losses\b|loses\b"
    r"|resigns\b|rejects\b|closed\s+out\b)",
    re.IGNORECASE,
)
_ROLL_CELL: Final = re.compile(r"([0-9])([0-9]):\s*(.*)", re.DOTALL)
_CUBE_CELL: Final = re.compile(r"(doubles|beavers)(?:\s*=>\s*(\d+))?", re.IGNORECASE)
_WINS_CELL: Final = re.compile(r"wins\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?", re.IGNORECASE)
#: Backgammon Galaxy writes the loser's side of the result too: "Losses 1 point".
_LOSSES_CELL: Final = re.compile(
    r"los(?:s)?es\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?", re.IGNORECASE
)
_RESIGN_CELL: Final = re.compile(r"resigns\s+(\d+)", re.IGNORECASE)
_UNRECORDED: Final = re.compile(r"\?+|cannot\s+move", re.IGNORECASE)
#: A lone cell starting left of this column belongs to the left player.
_RIGHT_COLUMN: Final = 16
#: A Wins cell this close after a roll with no play is that player's (GNU Backgammon's
#: columns are 28 apart).
_WINS_AFTER_ROLL: Final = 12


def read_mat(text: str) -> ParsedMatch:
    """Read a .mat file into its parts, checking its layout but not the rules.

    >>> parsed = read_mat(" 3 point match\\n\\n Game 1\\n A : 0  B : 0\\n  1) 52: 13/11 13/8\\n")
    >>> turn = parsed.games[0].turns[0]
    >>> turn.line, turn.side, turn.kind, turn.dice, turn.play
    (5, 0, <TurnKind.ROLL: 'roll'>, (5, 2), '13/11 13/8')
    >>> read_mat(" 3 point match\\n\\n Game 1\\n A : 0  B : 0\\n  1) 5-2: 13/11 13/8\\n")
    Traceback (most recent call last):
    ...
    gammon.errors.MatFileError: line 5: cannot read '5-2: 13/11 13/8'
    """
    if not isinstance(text, str):
        raise MatFileError(f"a .mat file is read from text, got {type(text).__name__}")
    lines = [line.expandtabs(8) for line in text.removeprefix("\ufeff").splitlines()]
    length, tags, comments, index = _read_head(lines)
    games, names = _read_games(lines, index)
    if names is None:
        given = {tag.key: tag.value for tag in tags}
        names = (given.get("Player 1", "Player 1"), given.get("Player 2", "Player 2"))
    return ParsedMatch(length, names, tuple(games), tuple(tags), tuple(comments))


def _read_head(lines: Sequence[str]) -> tuple[int, list[MatTag], list[str], int]:
    """The tags and comments before the match length line, and the length; returns them with
    the index after that line."""
    tags: list[MatTag] = []
    comments: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            tag = _TAG.fullmatch(stripped)
            if tag:
                tags.append(MatTag(tag[1], tag[2], index))
            elif stripped[1:].strip():
                comments.append(stripped[1:].strip())
            continue
        header = _HEADER.fullmatch(line)
        if header is None:
            raise MatFileError(
                f"line {index}: expected the match length (' 5 point match'), "
                f"found {stripped!r}"
            )
        return int(header[1]), tags, comments, index
    raise MatFileError(
        f"line {max(index, 1)}: the file has no match length line (' 5 point match')"
    )


def _read_games(
    lines: Sequence[str], index: int
) -> tuple[list[MatGame], tuple[str, str] | None]:
    """The games from ``index`` on, and the players' names of their score lines (None where
    no game has one); every game must name the same two players."""
    games: list[MatGame] = []
    names: tuple[str, str] | None = None
    while index < len(lines):
        line = lines[index]
        index += 1
        stripped = line.strip()
        if not stripped or stripped[0] in ";#":
            continue
        found = _GAME.fullmatch(line)
        if found is None:
            raise MatFileError(
                f"line {index}: expected ' Game {len(games) + 1}', found {stripped!r}"
            )
        number = int(found[1])
        if number != len(games) + 1:
            raise MatFileError(
                f"line {index}: expected game {len(games) + 1}, found game {number}"
            )
        crawford = "crawford" in found[2].lower()
        if found[2].strip() and not crawford:
            raise MatFileError(
                f"line {index}: cannot read {found[2].strip()!r} after 'Game {number}'"
            )
        game, index, game_names = _read_game(lines, index, number, crawford)
        if game_names is None:
            pass  # no score line: the names come from the other games or the head
        elif names is None:
            names = game_names
        elif game_names != names:
            raise MatFileError(
                f"line {game.score_line}: game {number} is between {game_names[0]!r} and "
                f"{game_names[1]!r}, but game 1 was between {names[0]!r} and {names[1]!r}"
            )
        games.append(game)
    return games, names


#: A game's result while its rows are read: (winner, points, line).
_Result = tuple[int, int, int]


def _read_game(
    lines: Sequence[str], index: int, number: int, crawford: bool
) -> tuple[MatGame, int, tuple[str, str] | None]:
    """One game from the line after its ``Game N``; returns it, the index after it, and the
    names of its score line (None where it has none: some sites go straight to row 1)."""
    game_line = index
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index >= len(lines):
        raise MatFileError(f"line {game_line}: game {number} stops before its score line")
    score_line = index + 1
    names, score_value, crawford, index = _read_score(lines, index, number, crawford)
    turns, ties, result, index = _read_rows(lines, index, number)
    game = MatGame(
        number=number,
        line=game_line,
        score_line=score_line,
        score=score_value,
        turns=tuple(turns),
        winner=result[0] if result else None,
        points=result[1] if result else None,
        result_line=result[2] if result else None,
        opening_ties=ties,
        crawford=crawford,
    )
    return game, index, names


def _read_score(
    lines: Sequence[str], index: int, number: int, crawford: bool
) -> tuple[tuple[str, str] | None, tuple[int, int] | None, bool, int]:
    """The score line at ``index``, if the game has one: its names, scores, whether it says
    Crawford (or ``crawford`` already did), and the index after it."""
    if _ROW_NUMBER.match(lines[index]) or _WINS_CELL.fullmatch(lines[index].strip()):
        return None, None, crawford, index  # no score line
    score = _SCORE.fullmatch(lines[index])
    index += 1
    if score is None or not score[1] or not score[3]:
        raise MatFileError(
            f"line {index}: expected the names and scores of game {number} "
            f"('Alice : 0   Bob : 0'), found {lines[index - 1].strip()!r}"
        )
    if score[5]:
        if "crawford" not in score[5].lower():
            raise MatFileError(f"line {index}: cannot read {score[5]!r} after the scores")
        crawford = True
    return (score[1], score[3]), (int(score[2]), int(score[4])), crawford, index


def _read_rows(
    lines: Sequence[str], index: int, number: int
) -> tuple[list[MatTurn], tuple[Dice, ...], _Result | None, int]:
    """The rows of game ``number`` up to the next ``Game N``: its turns, opening ties, result,
    and the index where it stops."""
    turns: list[MatTurn] = []
    ties: tuple[Dice, ...] = ()
    result: _Result | None = None
    while index < len(lines):
        line = lines[index]
        if _GAME.fullmatch(line):
            break
        index += 1
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            tag = _TAG.fullmatch(stripped)
            if tag and tag[1] == "OpeningTies":  # written inside the game by older versions
                if turns:
                    raise MatFileError(f"line {index}: the opening ties must come before row 1")
                ties = _read_ties(tag[2], index)
            continue
        for side, cell in _split_row(line, index):
            wins = _WINS_CELL.fullmatch(cell)
            losses = _LOSSES_CELL.fullmatch(cell)
            if result is not None and not (wins or losses):
                raise MatFileError(
                    f"line {index}: game {number} already ended at line {result[2]}, "
                    f"but {cell!r} follows"
                )
            if wins or losses:
                result = _read_result(cell, side, index, wins, losses, result)
                continue
            turns.append(_read_cell(cell, side, index))
    return turns, ties, result, index


def _read_result(
    cell: str,
    side: int,
    line: int,
    wins: re.Match[str] | None,
    losses: re.Match[str] | None,
    result: _Result | None,
) -> _Result:
    """The result after a Wins or Losses cell; a second one must agree with the first, and a
    Wins cell's line is the one kept."""
    found = wins or losses
    assert found is not None
    points = int(found[1])
    winner = side if wins else 1 - side
    if points < 1:
        raise MatFileError(f"line {line}: a game is won by 1 point or more")
    if result is not None and result[:2] != (winner, points):
        raise MatFileError(
            f"line {line}: {cell!r} does not agree with the result at line {result[2]}"
        )
    if result is None or wins:
        return (winner, points, line)
    return result


def _read_ties(text: str, line: int) -> tuple[Dice, ...]:
    ties: list[Dice] = []
    for word in text.split():
        if not re.fullmatch(r"[1-6]{2}", word) or word[0] != word[1]:
            raise MatFileError(f"line {line}: {word!r} is not a tied opening throw like '33'")
        ties.append((int(word[0]), int(word[1])))
    return tuple(ties)


def _split_row(line: str, number: int) -> list[tuple[int, str]]:
    """The cells of one row as (column, text): two are left and right, one goes by position."""
    start = 0
    row = _ROW_NUMBER.match(line)
    if row:
        start = row.end()
    starts = [found.start() for found in _CELL_START.finditer(line, start)]
    if not starts:
        rest = line[start:].strip()
        if rest:
            raise MatFileError(f"line {number}: cannot read {rest!r}")
        return []
    before = line[start : starts[0]].strip()
    if before:
        raise MatFileError(f"line {number}: cannot read {before!r}")
    if len(starts) > 3:
        raise MatFileError(
            f"line {number}: a row holds at most two cells, one for each player, but "
            f"this one has {len(starts)}: {line.strip()!r}"
        )
    cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], len(line)], strict=True)]
    sides = [0, 1] if len(cells) >= 2 else [0 if starts[0] < _RIGHT_COLUMN else 1]
    if (
        len(cells) >= 2
        and _WINS_CELL.fullmatch(cells[-1])
        and re.fullmatch(r"[0-9]{2}:", cells[-2])
        and starts[-1] - starts[-2] <= _WINS_AFTER_ROLL
    ):
        # GNU Backgammon writes a player's win right after their roll when the other side
        # resigned before the play: "  2) 51:       Wins 1 point", or "... 52:  Wins 3 points"
        # in the right column.
        roller = 1 if len(cells) == 3 or starts[0] >= _RIGHT_COLUMN else 0
        sides = [0, roller, roller] if len(cells) == 3 else [roller, roller]
    elif len(cells) > 2:
        raise MatFileError(
            f"line {number}: a row holds at most two cells, one for each player, but "
            f"this one has {len(cells)}: {line.strip()!r}"
        )
    return list(zip(sides, cells, strict=True))


def _read_cell(cell: str, side: int, line: int) -> MatTurn:
    roll = _ROLL_CELL.fullmatch(cell)
    if roll:
        dice = (int(roll[1]), int(roll[2]))
        if not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
            raise MatFileError(f"line {line}: {roll[1]}{roll[2]} is not a roll of two dice 1-6")
        play = roll[3].strip()
        if _UNRECORDED.fullmatch(play):
            play = ""
        # Trailing text that is neither a move nor a cell start would have been split off; a
        # play is checked when it is replayed.
        return MatTurn(line, side, TurnKind.ROLL, dice=dice, play=play)
    cube = _CUBE_CELL.fullmatch(cell)
    if cube:
        kind = TurnKind.DOUBLE if cube[1].lower() == "doubles" else TurnKind.BEAVER
        return MatTurn(line, side, kind, value=int(cube[2]) if cube[2] else None)
    lower = " ".join(cell.lower().split())
    # Both wordings of the cube: GNU Backgammon's and eXtreme Gammon's "Takes"/"Drops",
    # and the "Accepts"/"Passes"/"Rejects" of some sites (a "Rejects" after a double is a drop).
    if lower in ("takes", "take", "accepts", "accept"):
        return MatTurn(line, side, TurnKind.TAKE)
    if lower in ("drops", "drop", "passes", "pass"):
        return MatTurn(line, side, TurnKind.DROP)
    if lower == "closed out":
        return MatTurn(line, side, TurnKind.CLOSED_OUT)
    if lower == "rejects":
        return MatTurn(line, side, TurnKind.REJECT)
    resign = _RESIGN_CELL.fullmatch(cell)
    if resign:
        return MatTurn(line, side, TurnKind.RESIGN, value=int(resign[1]))
    if lower.startswith("raccoons"):
        raise MatFileError(f"line {line}: raccoons are not part of these rules, only beavers")
    raise MatFileError(f"line {line}: cannot read {cell!r}")
