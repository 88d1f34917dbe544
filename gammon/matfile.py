""".mat match files, the plain-text format of Jellyfish that GNU Backgammon, eXtreme Gammon
and most other programs export: written from a :class:`~gammon.match.Match` or
:class:`~gammon.match.Session`, read back, and replayed through the rules.

A file holds optional ``; [Tag "value"]`` lines, a ``5 point match`` line (``0``
for a money session), then one block per game: ``Game 1``, the names with the
score before the game, and numbered rows with the first-named player (side 0)
on the left and the other on the right. A cell is a roll and its play
(``31: 8/5 6/5``, bar as 25, off as 0, one move per die as GNU Backgammon writes
them), a roll with nothing after it (a dance), or a cube action (``Doubles => 2``,
``Takes``, ``Drops``, ``Beavers => 4``); ``Wins 2 points`` in the winner's column
ends the game, after a bear-off, a drop or a resignation.

>>> from gammon.dice import ScriptedDice
>>> match = Match(1, dice=ScriptedDice([(3, 1), (6, 4)]))
>>> _ = match.game.roll(0), match.game.play(0, "8/5 6/5"), match.game.roll(1)
>>> _ = match.game.resign(1, 1), match.game.accept_resignation(0)
>>> text = write_mat(match, names=("Alice", "Bob"))
>>> print(text, end="")
 1 point match
<BLANKLINE>
 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 64:
      Wins 1 point
<BLANKLINE>
>>> parsed = read_mat(text)
>>> parsed.length, parsed.names, parsed.games[0].winner, parsed.games[0].points
(1, ('Alice', 'Bob'), 0, 1)
>>> replay_mat(text).histories == match.histories
True

Reading is lenient about layout (column widths, a left cell that runs into the
right one, ``Wins ... and the match``, ``???`` or ``Cannot Move`` after a roll,
``(Crawford)`` after ``Game N`` or the scores, which must then be right) and
strict about content: :func:`replay_mat` plays every cell through the rules
and raises :class:`~gammon.errors.MatFileError` naming the line of the first one
that is unreadable or illegal.

The format cannot say everything a game's history holds, so a few cells and
tags are this module's own; other programs skip them (GNU Backgammon ignores
tags it does not know and warns once about a cell it cannot read):

- ``; [OpeningTies "33 22"]`` after a game's score line: the tied opening throws
  (R3), which matter for automatic doubles;
- ``Closed out``: a turn lost on the bar against a closed board, which our rules
  pass without a roll (R7; GNU Backgammon shows a roll that dances instead, and
  reading accepts that too);
- ``Resigns 2`` and ``Rejects``: a resignation offer that was refused, is still
  pending, or whose value the points do not tell (an accepted one is only its
  ``Wins`` line, as GNU Backgammon writes it);
- rule tags a reader needs to replay the games: ``Variation``, ``Crawford``,
  ``CubeLimit``, ``Jacoby`` and ``Beaver`` (as eXtreme Gammon names them), and
  ``Gammons``, ``AutoDoubles``, ``Stakes`` and ``MaxGames``. Each is written only
  when the series differs from what a reader assumes without it (standard
  backgammon, Crawford rule on, cube up to 64, no money-play options).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple

from gammon.dice import DiceSource, RandomDice
from gammon.errors import (
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidPlayError,
    MatFileError,
)
from gammon.game import (
    Beavered,
    DoubleChosen,
    Doubled,
    Dropped,
    Ended,
    Event,
    Game,
    Moved,
    OpeningRolled,
    Passed,
    PassReason,
    Phase,
    ResignationAccepted,
    ResignationRejected,
    Resigned,
    Rolled,
    Took,
)
from gammon.match import Match, Session
from gammon.position import Dice
from gammon.variants import Variant, find_variant

__all__ = [
    "TurnKind",
    "MatTurn",
    "MatGame",
    "MatTag",
    "ParsedMatch",
    "write_mat",
    "read_mat",
    "replay_mat",
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


# -- writing -----------------------------------------------------------------

_LEFT_WIDTH: Final = 27  # GNU Backgammon's "%3d) %-27s " rows
_NAME_WIDTH: Final = 30  # GNU Backgammon's " %-31s" score lines, always with a space after
_DEFAULT_MAX_CUBE: Final = 64

#: The tags write_mat derives from the series; metadata may repeat them only if it agrees.
_RULE_TAGS: Final = (
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
_VARIATION_NAMES: Final = {
    "standard": "Backgammon",
    "nackgammon": "NackGammon",
    "hypergammon": "Hypergammon",
    "tavla": "Tavla",
    "acey-deucey": "Acey-Deucey",
}


class _Rules(NamedTuple):
    """Everything a .mat file must carry to rebuild the series, with the readers' defaults."""

    variant: Variant
    crawford: bool = True
    cube_limit: int = _DEFAULT_MAX_CUBE  # 1: no cube
    gammons: bool = True
    jacoby: bool = False
    beavers: bool = False
    auto_doubles: int = 0
    stakes: tuple[int, int] | None = None
    max_games: int | None = None


def write_mat(
    series: Match | Session,
    *,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    metadata: Mapping[str, str] | None = None,
) -> str:
    """The .mat text of every game of ``series``, side 0 in the left column.

    ``metadata`` becomes ``; [Key "value"]`` lines at the head (``Site``,
    ``Event``, ``Round``, ``EventDate``, ``Transcriber``...); the rule tags are
    written from the series itself. An unfinished last game is written as far
    as it went.

    >>> from gammon.dice import ScriptedDice
    >>> session = Session(dice=ScriptedDice([(2, 6)]))
    >>> _ = session.game.roll(0), session.game.play(1, "24/18 13/11")
    >>> _ = session.game.double(0), session.game.drop(1)
    >>> print(write_mat(session, metadata={"Site": "Home"}), end="")
    ; [Site "Home"]
    <BLANKLINE>
     0 point match
    <BLANKLINE>
     Game 1
     Player 1 : 0                   Player 2 : 0
      1)                             62: 24/18 13/11
      2)  Doubles => 2                Drops
          Wins 1 point
    <BLANKLINE>
    """
    if not isinstance(series, Match | Session):
        raise MatFileError(
            f"only a Match or a Session can be written as a .mat file, "
            f"not {type(series).__name__}"
        )
    for name in names:
        _check_name(name)
    if len(names) != 2:
        raise MatFileError(f"a .mat file names two players, got {len(names)}")
    rules = _series_rules(series)
    tags = _head_tags(rules, series, dict(metadata or {}))
    lines = [f'; [{key} "{value}"]' for key, value in tags]
    if lines:
        lines.append("")
    length = series.length if isinstance(series, Match) else 0
    lines += [f" {length} point match", ""]
    score = (0, 0)
    payouts = series.payouts if isinstance(series, Session) else None
    for number, game in enumerate(series.games, 1):
        lines.append(f" Game {number}")
        left = f"{names[0]} : {score[0]}"
        lines.append(f" {left:<{_NAME_WIDTH}} {names[1]} : {score[1]}")
        ties = [e.dice for e in game.history if isinstance(e, OpeningRolled) and e.is_tie]
        if ties:
            lines.append(f'; [OpeningTies "{" ".join(f"{a}{b}" for a, b in ties)}"]')
        lines += _game_rows(game.history)
        lines.append("")
        if game.result is not None:
            points = game.result.points if payouts is None else payouts[number - 1]
            won = list(score)
            won[game.result.winner] += points
            score = (won[0], won[1])
    return "\n".join(lines) + "\n"


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name.strip():
        raise MatFileError(f"a player's name in a .mat file must be some text, got {name!r}")
    if name != name.strip() or any(ch in name for ch in ":\n\r\t"):
        raise MatFileError(
            f"cannot write the name {name!r} to a .mat file: a name may not hold ':', "
            "tabs or line breaks, nor start or end with a space"
        )


def _series_rules(series: Match | Session) -> _Rules:
    if isinstance(series, Match):
        rules = series.games[0].rules
        return _Rules(
            variant=rules.variant,
            crawford=series.crawford,
            cube_limit=rules.max_cube if rules.cube else 1,
            gammons=rules.gammons,
        )
    rules = series.rules
    return _Rules(
        variant=rules.variant,
        cube_limit=rules.max_cube if rules.cube else 1,
        gammons=rules.gammons,
        jacoby=rules.jacoby,
        beavers=rules.beavers,
        auto_doubles=rules.auto_doubles,
        stakes=series.stakes,
        max_games=series.max_games,
    )


def _rule_texts(rules: _Rules, money: bool) -> dict[str, str]:
    """Each rule tag's value for these rules, defaults included."""
    texts = {
        "Variation": _VARIATION_NAMES.get(rules.variant.name, rules.variant.name),
        "CubeLimit": str(rules.cube_limit),
        "Gammons": _on_off(rules.gammons),
    }
    if money:
        texts["Jacoby"] = _on_off(rules.jacoby)
        texts["Beaver"] = _on_off(rules.beavers)
        texts["AutoDoubles"] = str(rules.auto_doubles)
        if rules.stakes is not None:
            texts["Stakes"] = f"{rules.stakes[0]} {rules.stakes[1]}"
        if rules.max_games is not None:
            texts["MaxGames"] = str(rules.max_games)
    else:
        texts["Crawford"] = _on_off(rules.crawford)
    return texts


def _on_off(flag: bool) -> str:
    return "On" if flag else "Off"


def _head_tags(
    rules: _Rules, series: Match | Session, metadata: dict[str, str]
) -> list[tuple[str, str]]:
    """The user's tags in their order, then the rule tags a reader needs and was not given."""
    money = isinstance(series, Session)
    texts = _rule_texts(rules, money)
    defaults = _rule_texts(_Rules(find_variant("standard")), money)
    tags: list[tuple[str, str]] = []
    for key, value in metadata.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise MatFileError(f"metadata keys and values are text, got {key!r}: {value!r}")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 _-]*", key) or '"' in value or any(
            ch in value for ch in "\n\r"
        ):
            raise MatFileError(
                f"cannot write the tag {key!r}: {value!r}: a key is letters, digits, "
                "spaces, '_' or '-', and a value may not hold '\"' or line breaks"
            )
        if key in _RULE_TAGS:
            try:
                given = _read_rule(key, value)
                wanted = _read_rule(key, texts[key]) if key in texts else given
            except MatFileError as exc:
                raise MatFileError(f"the metadata tag {key}: {exc}") from exc
            if key not in texts:
                raise MatFileError(
                    f"the metadata tag {key} is for {'matches' if money else 'money sessions'} "
                    f"only, and this is a {'session' if money else 'match'}"
                )
            if given != wanted:
                raise MatFileError(
                    f"the metadata says [{key} \"{value}\"], but the "
                    f"{'session' if money else 'match'} was played with \"{texts[key]}\"; "
                    "the rule tags are written from the series"
                )
        tags.append((key, value))
    given_keys = {key for key, _ in tags}
    for key in _RULE_TAGS:
        if key in texts and key not in given_keys and texts[key] != defaults.get(key):
            tags.append((key, texts[key]))
    return tags


class _Layout:
    """Cells in the order they happened, each in its actor's column, rows as GNU lays them out."""

    def __init__(self) -> None:
        self.rows: list[list[str | None]] = []

    def put(self, side: int, text: str) -> None:
        if side == 1 and self.rows and self.rows[-1][1] is None:
            self.rows[-1][1] = text
        else:
            row: list[str | None] = [None, None]
            row[side] = text
            self.rows.append(row)

    def lines(self) -> list[str]:
        out: list[str] = []
        number = 0
        for left, right in self.rows:
            cell = left if right is None else right if left is None else ""
            only_result = (cell or "").startswith(" Wins")
            if only_result:
                prefix = "     "
            else:
                number += 1
                prefix = f"{number:3d}) "
            if right is None:
                line = prefix + (left or "")
            else:
                line = f"{prefix}{left or '':<{_LEFT_WIDTH}} {right}"
            out.append(line.rstrip())
        return out


def _roll_cell(dice: Dice, moves: str) -> str:
    return f"{dice[0]}{dice[1]}: {moves}".rstrip()


def _game_rows(history: Sequence[Event]) -> list[str]:
    """The rows of one game, from its history."""
    layout = _Layout()
    pending: tuple[int, Dice] | None = None  # a roll whose play (or dance) comes next
    last_cube: Event | None = None
    result = next((e.result for e in history if isinstance(e, Ended)), None)

    def flush() -> None:
        nonlocal pending
        if pending is not None:
            layout.put(pending[0], _roll_cell(pending[1], ""))
            pending = None

    for index, event in enumerate(history):
        if isinstance(event, OpeningRolled):
            if not event.is_tie:
                die0, die1 = event.dice
                pending = (0 if die0 > die1 else 1, (max(event.dice), min(event.dice)))
        elif isinstance(event, Rolled):
            pending = (event.side, event.dice)
        elif isinstance(event, DoubleChosen):
            pending = (event.side, (event.number, event.number))
        elif isinstance(event, Moved):
            pending = None
            moves = " ".join(
                f"{m.source}/{m.target}{'*' if m.hit else ''}" for m in event.moves
            )
            layout.put(event.side, _roll_cell(event.dice, moves))
        elif isinstance(event, Passed):
            if event.reason is PassReason.CLOSED_BOARD:
                flush()
                layout.put(event.side, " Closed out")
            else:
                flush()
        elif isinstance(event, Doubled):
            flush()
            layout.put(event.side, f" Doubles => {event.value}")
            last_cube = event
        elif isinstance(event, Beavered):
            flush()
            layout.put(event.side, f" Beavers => {event.value}")
            last_cube = event
        elif isinstance(event, Took):
            flush()
            # After a beaver the take is implied by the doubler's next roll, as GNU reads it;
            # written when anything else follows.
            following = history[index + 1] if index + 1 < len(history) else None
            implied = isinstance(following, Rolled | Passed) and following.side == event.side
            if not (isinstance(last_cube, Beavered) and implied):
                layout.put(event.side, " Takes")
            last_cube = event
        elif isinstance(event, Dropped):
            flush()
            layout.put(event.side, " Drops")
        elif isinstance(event, Resigned):
            flush()
            accepted = index + 1 < len(history) and isinstance(
                history[index + 1], ResignationAccepted
            )
            # An accepted resignation is its "Wins" line alone when the points tell its value.
            if not (accepted and result is not None and result.kind == event.value):
                layout.put(event.side, f" Resigns {event.value}")
        elif isinstance(event, ResignationRejected):
            layout.put(event.side, " Rejects")
        elif isinstance(event, ResignationAccepted):
            pass
        elif isinstance(event, Ended):
            flush()
            points = event.result.points
            layout.put(event.result.winner, f" Wins {points} point{'' if points == 1 else 's'}")
    flush()
    return layout.lines()


# -- reading -------------------------------------------------------------------

_HEADER: Final = re.compile(r"\s*(\d+)\s+point\s+match\s*", re.IGNORECASE)
_TAG: Final = re.compile(r"[;#]\s*\[\s*([^\]\"]*?)\s+\"(.*)\"\s*\]\s*")
_GAME: Final = re.compile(r"\s*Game\s+(\d+)\b(.*)", re.IGNORECASE)
_SCORE: Final = re.compile(r"\s*([^:]*?)\s*:\s*(\d+)\s+([^:]*?)\s*:\s*(\d+)\s*(.*)")
_ROW_NUMBER: Final = re.compile(r"\s*\d+\)")
_CELL_START: Final = re.compile(
    r"(?<![^\s)])(?:[0-9]{2}:|doubles\b|beavers\b|raccoons\b|takes?\b|drops?\b|wins\b"
    r"|resigns\b|rejects\b|closed\s+out\b)",
    re.IGNORECASE,
)
_ROLL_CELL: Final = re.compile(r"([0-9])([0-9]):\s*(.*)", re.DOTALL)
_CUBE_CELL: Final = re.compile(r"(doubles|beavers)(?:\s*=>\s*(\d+))?", re.IGNORECASE)
_WINS_CELL: Final = re.compile(r"wins\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?", re.IGNORECASE)
_RESIGN_CELL: Final = re.compile(r"resigns\s+(\d+)", re.IGNORECASE)
_UNRECORDED: Final = re.compile(r"\?+|cannot\s+move", re.IGNORECASE)
#: A lone cell starting left of this column belongs to the left player.
_RIGHT_COLUMN: Final = 16


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
    tags: list[MatTag] = []
    comments: list[str] = []
    length: int | None = None
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
        length = int(header[1])
        break
    if length is None:
        raise MatFileError(
            f"line {max(index, 1)}: the file has no match length line (' 5 point match')"
        )
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
        if names is None:
            names = game_names
        elif game_names != names:
            raise MatFileError(
                f"line {game.score_line}: game {number} is between {game_names[0]!r} and "
                f"{game_names[1]!r}, but game 1 was between {names[0]!r} and {names[1]!r}"
            )
        games.append(game)
    if names is None:
        given = {tag.key: tag.value for tag in tags}
        names = (given.get("Player 1", "Player 1"), given.get("Player 2", "Player 2"))
    return ParsedMatch(length, names, tuple(games), tuple(tags), tuple(comments))


def _read_game(
    lines: Sequence[str], index: int, number: int, crawford: bool
) -> tuple[MatGame, int, tuple[str, str]]:
    """One game from the line after its ``Game N``; returns it and the index after it."""
    game_line = index
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index >= len(lines):
        raise MatFileError(f"line {game_line}: game {number} stops before its score line")
    score = _SCORE.fullmatch(lines[index])
    index += 1
    score_line = index
    if score is None or not score[1] or not score[3]:
        raise MatFileError(
            f"line {index}: expected the names and scores of game {number} "
            f"('Alice : 0   Bob : 0'), found {lines[index - 1].strip()!r}"
        )
    if score[5]:
        if "crawford" not in score[5].lower():
            raise MatFileError(f"line {index}: cannot read {score[5]!r} after the scores")
        crawford = True
    turns: list[MatTurn] = []
    ties: tuple[Dice, ...] = ()
    winner: int | None = None
    points: int | None = None
    result_line: int | None = None
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
            if tag and tag[1] == "OpeningTies":
                if turns:
                    raise MatFileError(f"line {index}: the opening ties must come before row 1")
                ties = _read_ties(tag[2], index)
            continue
        for side, cell in _split_row(line, index):
            if result_line is not None:
                raise MatFileError(
                    f"line {index}: game {number} already ended at line {result_line}, "
                    f"but {cell!r} follows"
                )
            wins = _WINS_CELL.fullmatch(cell)
            if wins:
                winner, points, result_line = side, int(wins[1]), index
                if points < 1:
                    raise MatFileError(f"line {index}: a game is won by 1 point or more")
                continue
            turns.append(_read_cell(cell, side, index))
    names = (score[1], score[3])
    game = MatGame(
        number=number,
        line=game_line,
        score_line=score_line,
        score=(int(score[2]), int(score[4])),
        turns=tuple(turns),
        winner=winner,
        points=points,
        result_line=result_line,
        opening_ties=ties,
        crawford=crawford,
    )
    return game, index, names


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
    if len(starts) > 2:
        raise MatFileError(
            f"line {number}: a row holds at most two cells, one for each player, but "
            f"this one has {len(starts)}: {line.strip()!r}"
        )
    cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], len(line)], strict=True)]
    if len(cells) == 2:
        return [(0, cells[0]), (1, cells[1])]
    return [(0 if starts[0] < _RIGHT_COLUMN else 1, cells[0])]


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
    if lower in ("takes", "take"):
        return MatTurn(line, side, TurnKind.TAKE)
    if lower in ("drops", "drop"):
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


# -- replaying -------------------------------------------------------------------


class _RecordedDice:
    """The dice of the file, handed to the game one roll at a time as the replay reaches them.

    Once the file is played, ``after`` rolls for the series from there on.
    """

    def __init__(self) -> None:
        self.queue: list[Dice] = []
        self.after: DiceSource | None = None

    def roll(self) -> Dice:
        if self.queue:
            return self.queue.pop(0)
        if self.after is None:
            raise _NoRoll
        return self.after.roll()

    def __repr__(self) -> str:
        return f"<dice of a .mat file, then {self.after!r}>"


class _NoRoll(Exception):
    """The game asked for a roll the file does not give at this point."""


def replay_mat(
    source: str | ParsedMatch,
    variant: str | Variant | None = None,
    *,
    dice: DiceSource | None = None,
) -> Match | Session:
    """Play a .mat file through the rules: a :class:`Match`, or a :class:`Session` for money.

    ``variant`` is the file's ``Variation`` tag when not given (standard
    backgammon without one). ``dice`` rolls for the series from where the file
    stops. Every cell must be legal where it stands, the scores must be the ones
    the games before give, and each ``Wins`` line must say who won and how much;
    otherwise :class:`~gammon.errors.MatFileError` names the line.

    >>> replay_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/5\\n")
    <Match to 1 score=(0, 0) games=1 over=False>
    >>> replay_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/4\\n")
    Traceback (most recent call last):
    ...
    gammon.errors.MatFileError: line 4: A cannot play '8/5 6/4' with 31: 6/4 needs a 2; ...
    """
    parsed = source if isinstance(source, ParsedMatch) else read_mat(source)
    rules = _file_rules(parsed, variant)
    feed = _RecordedDice()
    series = _new_series(parsed, rules, feed)
    for game in parsed.games:
        if game.number > 1:
            previous = parsed.games[game.number - 2]
            try:
                series.new_game()
            except IllegalActionError as exc:
                if not series.game.is_over:
                    raise MatFileError(
                        f"line {previous.turns[-1].line if previous.turns else previous.line}: "
                        f"game {previous.number} has no 'Wins' line, but game {game.number} "
                        "follows it"
                    ) from exc
                raise MatFileError(
                    f"line {game.line}: game {game.number} cannot be played: {exc}"
                ) from exc
        _check_score(series, game)
        if game.crawford and not series.game.rules.crawford:
            raise MatFileError(
                f"line {game.line}: game {game.number} is marked as the Crawford game, "
                "but the rules make it a normal one"
            )
        _Replay(series.game, game, parsed.names, feed).run()
    feed.after = dice if dice is not None else RandomDice()
    return series


def _file_rules(parsed: ParsedMatch, variant: str | Variant | None) -> _Rules:
    values: dict[str, object] = {}
    for tag in parsed.tags:
        if tag.key in _RULE_TAGS:
            try:
                values[tag.key] = _read_rule(tag.key, tag.value)
            except MatFileError as exc:
                raise MatFileError(f"line {tag.line}: {exc}") from exc
    chosen = values.get("Variation")
    if variant is not None:
        try:
            wanted = find_variant(variant)
        except GammonError as exc:
            raise MatFileError(str(exc)) from exc
        if isinstance(chosen, Variant) and chosen != wanted:
            raise MatFileError(
                f"the file is a {chosen.name} file (Variation tag), not {wanted.name}"
            )
        chosen = wanted

    def flag(key: str, default: bool) -> bool:
        value = values.get(key, default)
        return value if isinstance(value, bool) else default

    def number(key: str, default: int) -> int:
        value = values.get(key, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    stakes = values.get("Stakes")
    max_games = values.get("MaxGames")
    return _Rules(
        variant=chosen if isinstance(chosen, Variant) else find_variant("standard"),
        crawford=flag("Crawford", True),
        cube_limit=number("CubeLimit", _DEFAULT_MAX_CUBE),
        gammons=flag("Gammons", True),
        jacoby=flag("Jacoby", False),
        beavers=flag("Beaver", False),
        auto_doubles=number("AutoDoubles", 0),
        stakes=stakes if isinstance(stakes, tuple) else None,
        max_games=max_games if isinstance(max_games, int) else None,
    )


def _read_rule(key: str, value: str) -> object:
    """What a rule tag means; MatFileError for a value it cannot have."""
    text = value.strip()
    if key == "Variation":
        lowered = text.lower()
        for name, written in _VARIATION_NAMES.items():
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


def _new_series(parsed: ParsedMatch, rules: _Rules, dice: DiceSource) -> Match | Session:
    cube = rules.cube_limit > 1
    max_cube = rules.cube_limit if cube else _DEFAULT_MAX_CUBE
    try:
        if parsed.is_money:
            return Session(
                variant=rules.variant,
                cube=cube,
                max_cube=max_cube,
                jacoby=rules.jacoby,
                beavers=rules.beavers,
                auto_doubles=rules.auto_doubles,
                gammons=rules.gammons,
                stakes=rules.stakes,
                max_games=rules.max_games,
                dice=dice,
            )
        for name, on in (
            ("Jacoby", rules.jacoby),
            ("Beaver", rules.beavers),
            ("AutoDoubles", rules.auto_doubles),
            ("Stakes", rules.stakes),
            ("MaxGames", rules.max_games),
        ):
            if on:
                raise MatFileError(
                    f"the {name} tag is for money sessions, not a {parsed.length}-point "
                    "match"
                )
        return Match(
            parsed.length,
            variant=rules.variant,
            crawford=rules.crawford,
            cube=cube,
            max_cube=max_cube,
            gammons=rules.gammons,
            dice=dice,
        )
    except IllegalActionError as exc:
        raise MatFileError(f"the file's rules cannot be played: {exc}") from exc


def _check_score(series: Match | Session, game: MatGame) -> None:
    done = series.games[:-1]
    score = [0, 0]
    if isinstance(series, Session):
        for paid, finished in zip(series.payouts, done, strict=False):
            assert finished.result is not None
            score[finished.result.winner] += paid
    else:
        for finished in done:
            assert finished.result is not None
            score[finished.result.winner] += finished.result.points
    if tuple(score) != game.score:
        raise MatFileError(
            f"line {game.score_line}: game {game.number} starts at "
            f"{game.score[0]}-{game.score[1]}, "
            f"but the games before it make the score {score[0]}-{score[1]}"
        )


class _Replay:
    """Plays one game's cells into a live game, turning every refusal into a MatFileError."""

    def __init__(
        self, game: Game, parsed: MatGame, names: tuple[str, str], feed: _RecordedDice
    ) -> None:
        self.game = game
        self.parsed = parsed
        self.names = names
        self.feed = feed
        self.unplayed: MatTurn | None = None  # a roll cell whose play the file has not given

    def fail(self, line: int, message: str) -> MatFileError:
        return MatFileError(f"line {line}: {message}")

    def run(self) -> None:
        parsed = self.parsed
        if parsed.opening_ties and not parsed.turns:
            raise self.fail(
                parsed.line, f"game {parsed.number} has opening ties but no opening roll"
            )
        for turn in parsed.turns:
            try:
                self.apply(turn)
            except IllegalActionError as exc:
                raise self.fail(turn.line, str(exc)) from exc
            except _NoRoll as exc:  # pragma: no cover - every roll the game asks for is fed
                raise self.fail(turn.line, "the game needs a roll the file does not give") from exc
        self.finish()

    def settle(self, turn: MatTurn) -> None:
        """Let a side closed out on the bar lose its turn, for files that do not write it (R7)."""
        game = self.game
        for _ in range(2):
            waiting = game.turn
            if (
                game.phase is Phase.ROLL
                and waiting is not None
                and waiting != turn.side
                and self.closed_out(waiting)
            ):
                game.roll(waiting)

    def closed_out(self, side: int) -> bool:
        position = self.game.position_for(side)
        return position.bar[0] > 0 and all(count >= 2 for count in position.theirs[:6])

    def apply(self, turn: MatTurn) -> None:
        game = self.game
        name = self.names[turn.side]
        if self.unplayed is not None and not (
            turn.kind in (TurnKind.RESIGN, TurnKind.REJECT)
            or (turn.kind is TurnKind.ROLL and turn.side == self.unplayed.side)
        ):
            raise self.fail(
                self.unplayed.line,
                f"{self.names[self.unplayed.side]} rolled {_dice_text(self.unplayed.dice)} "
                f"but the file gives no play for it (legal plays exist, such as "
                f"{game.legal_plays()[0]})",
            )
        if game.phase is Phase.BEAVER_OFFERED and turn.kind not in (
            TurnKind.TAKE,
            TurnKind.DROP,
        ):
            # GNU Backgammon writes no take of a beaver: the doubler's next action implies it.
            doubler = game.on_roll
            if turn.side != doubler:
                raise self.fail(
                    turn.line, f"{self.names[1 - turn.side]}'s beaver waits for an answer"
                )
            game.take(turn.side)
        kind = turn.kind
        if kind is TurnKind.ROLL:
            self.roll(turn)
        elif kind is TurnKind.CLOSED_OUT:
            if game.phase is not Phase.ROLL or game.turn != turn.side:
                raise self.fail(turn.line, f"{name} cannot lose a turn here: {self.waiting()}")
            events = game.roll(turn.side)
            if not isinstance(events[0], Passed):
                raise self.fail(
                    turn.line, f"{name} is not on the bar against a closed board"
                )
        elif kind is TurnKind.DOUBLE:
            self.settle(turn)
            events = game.double(turn.side)
            offered = events[0]
            assert isinstance(offered, Doubled)
            if turn.value is not None and turn.value != offered.value:
                raise self.fail(
                    turn.line,
                    f"{name} doubles the cube to {offered.value}, not {turn.value}",
                )
        elif kind is TurnKind.BEAVER:
            events = game.beaver(turn.side)
            beaver = events[0]
            assert isinstance(beaver, Beavered)
            if turn.value is not None and turn.value != beaver.value:
                raise self.fail(
                    turn.line,
                    f"{name}'s beaver raises the cube to {beaver.value}, not {turn.value}",
                )
        elif kind is TurnKind.TAKE:
            game.take(turn.side)
        elif kind is TurnKind.DROP:
            game.drop(turn.side)
        elif kind is TurnKind.RESIGN:
            assert turn.value is not None
            game.resign(turn.side, turn.value)
        elif kind is TurnKind.REJECT:
            game.reject_resignation(turn.side)

    def waiting(self) -> str:
        game = self.game
        if game.result is not None:
            return f"the game is over ({game.result})"
        side = game.turn
        who = self.names[side] if side is not None else "the opening roll"
        return f"the game waits for {who} ({game.phase})"

    def roll(self, turn: MatTurn) -> None:
        game = self.game
        name = self.names[turn.side]
        dice = turn.dice
        assert dice is not None and turn.play is not None
        if game.phase is Phase.OPENING:
            if dice[0] == dice[1]:
                raise self.fail(
                    turn.line,
                    f"the opening roll cannot be a double like {_dice_text(dice)}: "
                    "equal opening dice are thrown again",
                )
            high, low = max(dice), min(dice)
            throw = (high, low) if turn.side == 0 else (low, high)
            self.feed.queue = [*self.parsed.opening_ties, throw]
            game.roll(turn.side)
            self.feed.queue = []
        elif game.phase is Phase.MOVE and self.unplayed is not None:
            # The play of a roll shown earlier without one (a resignation came in between).
            if turn.side != game.on_roll or sorted(dice) != sorted(game.dice or ()):
                raise self.fail(turn.line, f"{name} cannot roll now: {self.waiting()}")
        elif game.phase is Phase.CHOOSE_DOUBLE and game.turn == turn.side:
            if dice[0] != dice[1]:
                raise self.fail(
                    turn.line,
                    f"{name} names a double after 1-2, not {_dice_text(dice)}",
                )
            game.choose_double(turn.side, dice[0])
        else:
            self.settle(turn)
            if game.phase is not Phase.ROLL or game.turn != turn.side:
                raise self.fail(turn.line, f"{name} cannot roll now: {self.waiting()}")
            self.feed.queue = [dice]
            events = game.roll(turn.side)
            self.feed.queue = []
            passed = events[0]
            if isinstance(passed, Passed) and passed.reason is PassReason.CLOSED_BOARD:
                if turn.play:
                    raise self.fail(
                        turn.line,
                        f"{name} is on the bar against a closed board and cannot play "
                        f"{turn.play!r}",
                    )
                return
        self.unplayed = None
        if game.phase is not Phase.MOVE or game.on_roll != turn.side:
            if turn.play:
                raise self.fail(
                    turn.line,
                    f"{name} cannot play {turn.play!r} with {_dice_text(dice)}: "
                    "no checker can move",
                )
            return
        if not turn.play:
            self.unplayed = turn
            return
        position = game.position
        try:
            play = position.parse_play(turn.play, game.dice or dice)
        except (InvalidPlayError, IllegalPlayError) as exc:
            raise self.fail(
                turn.line, f"{name} cannot play {turn.play!r} with {_dice_text(dice)}: {exc}"
            ) from exc
        game.play(turn.side, play)

    def finish(self) -> None:
        game = self.game
        parsed = self.parsed
        if parsed.winner is None:
            if game.is_over:
                last = parsed.turns[-1].line if parsed.turns else parsed.line
                raise self.fail(
                    last,
                    f"game {parsed.number} is over ({self.result_text()}), "
                    "but the file has no 'Wins' line for it",
                )
            return
        assert parsed.points is not None and parsed.result_line is not None
        line = parsed.result_line
        winner = self.names[parsed.winner]
        if not game.is_over:
            try:
                if game.phase is not Phase.RESIGNATION_OFFERED:
                    cube = game.cube_value
                    value, rest = divmod(parsed.points, cube)
                    if rest or not 1 <= value <= 3:
                        raise self.fail(
                            line,
                            f"{winner} wins {parsed.points} points, but the game is not over and "
                            f"a resignation with the cube at {cube} gives 1, 2 or 3 times that",
                        )
                    game.resign(1 - parsed.winner, value)
                game.accept_resignation(parsed.winner)
            except IllegalActionError as exc:
                raise self.fail(line, f"{winner} cannot win here: {exc}") from exc
        result = game.result
        assert result is not None
        if result.winner != parsed.winner or result.points != parsed.points:
            raise self.fail(
                line,
                f"the file says {winner} wins {parsed.points} point"
                f"{'' if parsed.points == 1 else 's'}, but {self.result_text()}",
            )

    def result_text(self) -> str:
        result = self.game.result
        assert result is not None
        plural = "" if result.points == 1 else "s"
        return (
            f"{self.names[result.winner]} won {result.points} point{plural} "
            f"({result.kind.name.lower()}, {result.reason})"
        )


def _dice_text(dice: Dice | None) -> str:
    return "" if dice is None else f"{dice[0]}{dice[1]}"
