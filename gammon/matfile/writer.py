""".mat files written from a :class:`~gammon.match.Match` or :class:`~gammon.match.Session`,
laid out as GNU Backgammon lays them out, with the rule tags a reader needs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from gammon.dice import Dice
from gammon.errors import MatFileError
from gammon.events import (
    Beavered,
    DoubleChosen,
    Doubled,
    Dropped,
    Ended,
    EndReason,
    Event,
    Moved,
    OpeningRolled,
    Passed,
    PassReason,
    ResignationAccepted,
    ResignationRejected,
    Resigned,
    Rolled,
    Took,
)
from gammon.match import Match, SeriesRules, Session
from gammon.matfile.record import (
    CLOSED_BOARD_TAG,
    FORFEIT_TAG,
    HISTORY_TAGS,
    OPENING_TIES_TAG,
    RESIGNATIONS_TAG,
    RULE_TAGS,
    VARIATION_NAMES,
    read_rule,
)
from gammon.position import Position

__all__ = ["write_mat"]

_LEFT_WIDTH: Final = 27  # GNU Backgammon's "%3d) %-27s " rows
_NAME_WIDTH: Final = 30  # GNU Backgammon's " %-31s" score lines, always with a space after


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
    rules = series.rules
    given = {key: value for key, value in (metadata or {}).items() if key not in HISTORY_TAGS}
    tags = _head_tags(rules, series, given)
    length = series.length if isinstance(series, Match) else 0
    body, history = _games(series, names)
    tags += history
    lines = [f'; [{key} "{value}"]' for key, value in tags]
    if lines:
        lines.append("")
    lines += [f" {length} point match", ""]
    return "\n".join(lines + body) + "\n"


def _games(
    series: Match | Session, names: tuple[str, str]
) -> tuple[list[str], list[tuple[str, str]]]:
    """Every game's lines, and the tags of what their rows cannot show."""
    rules = series.rules
    body: list[str] = []
    ties: list[str] = []
    offers: list[str] = []
    passes: list[str] = []
    score = series.start_score  # a match taken up at a score starts its first line there
    payouts = series.payouts if isinstance(series, Session) else None
    for number, game in enumerate(series.games, 1):
        if game.start != Position.initial(rules.variant):
            raise MatFileError(
                f"game {number} starts from a set-up position, which a .mat file cannot hold "
                "(its rows start from the variant's own start): write it as .sgf"
            )
        body.append(f" Game {number}")
        left = f"{names[0]} : {score[0]}"
        body.append(f" {left:<{_NAME_WIDTH}} {names[1]} : {score[1]}")
        tied = [e.dice for e in game.history if isinstance(e, OpeningRolled) and e.is_tie]
        if tied:
            ties.append(f"{number}: {' '.join(f'{a}{b}' for a, b in tied)}")
        rows, unshown, unrolled = _game_rows(game.history)
        if unrolled:
            passes.append(f"{number}: {' '.join(map(str, unrolled))}")
        body += rows
        body.append("")
        offers += [f"game {number} {offer}" for offer in unshown]
        if game.result is not None:
            points = game.result.points if payouts is None else payouts[number - 1]
            won = list(score)
            won[game.result.winner] += points
            score = (won[0], won[1])
    return body, _history_tags(series, passes, ties, offers)


def _history_tags(
    series: Match | Session, passes: list[str], ties: list[str], offers: list[str]
) -> list[tuple[str, str]]:
    """The tags of what the rows cannot show: turns lost against a closed board, tied
    opening throws, resignation offers not shown, and a forfeit."""
    tags: list[tuple[str, str]] = []
    if passes:
        tags.append((CLOSED_BOARD_TAG, "; ".join(passes)))
    if ties:
        tags.append((OPENING_TIES_TAG, "; ".join(ties)))
    if offers:
        tags.append((RESIGNATIONS_TAG, "; ".join(offers)))
    forfeit = _forfeit_text(series)
    if forfeit is not None:
        tags.append((FORFEIT_TAG, forfeit))
    return tags


def _forfeit_text(series: Match | Session) -> str | None:
    """The Forfeit tag's value when the last game ended by a forfeit or on time (R13).

    .mat files have no cell for it: the game's rows stop where the player left,
    its ``Wins`` line gives the points, and this head tag (which other programs
    ignore) says why.
    """
    result = series.game.result
    if result is None or result.reason not in (EndReason.FORFEIT, EndReason.TIME):
        return None
    text = f"Game {series.game_number}"
    return text + " on time" if result.reason is EndReason.TIME else text


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name.strip():
        raise MatFileError(f"a player's name in a .mat file must be some text, got {name!r}")
    if name != name.strip() or any(ch in name for ch in ":\n\r\t"):
        raise MatFileError(
            f"cannot write the name {name!r} to a .mat file: a name may not hold ':', "
            "tabs or line breaks, nor start or end with a space"
        )


def _rule_texts(rules: SeriesRules, money: bool) -> dict[str, str]:
    """Each rule tag's value for these rules, defaults included."""
    texts = {
        "Variation": VARIATION_NAMES.get(rules.variant.name, rules.variant.name),
        "CubeLimit": str(rules.max_cube if rules.cube else 1),
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
    rules: SeriesRules, series: Match | Session, metadata: dict[str, str]
) -> list[tuple[str, str]]:
    """The user's tags in their order, then the rule tags a reader needs and was not given."""
    money = isinstance(series, Session)
    texts = _rule_texts(rules, money)
    defaults = _rule_texts(SeriesRules(length=0 if money else 1), money)
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
        if key in RULE_TAGS:
            try:
                given = read_rule(key, value)
                wanted = read_rule(key, texts[key]) if key in texts else given
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
    for key in RULE_TAGS:
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
    """A roll, the high die first as every other program writes it, and its play."""
    return f"{max(dice)}{min(dice)}: {moves}".rstrip()


#: The roll shown for a turn lost on the bar against a closed board in our own games: our
#: rules pass it without rolling (R7), but the format has no such cell, and GNU Backgammon
#: and eXtreme Gammon write the roll that danced. Any roll dances there; the reader keeps
#: it as the record's roll. A record read from a file writes back its own roll.
_CLOSED_OUT_ROLL: Final = (6, 4)


def _game_rows(history: Sequence[Event]) -> tuple[list[str], list[str], list[int]]:
    """The rows of one game, from its history, the resignation offers they cannot show, and
    the places of the turns passed against a closed board without a roll (R7).

    Only what GNU Backgammon reads goes into the rows: an accepted resignation is its
    ``Wins`` line; an offer refused, still pending, or accepted where the points do not
    tell its value is listed for the head's Resignations tag (``event 9: side 1 resigns
    2, rejected``, the index of the offer in the game's history), which other programs
    ignore.
    """
    return _GameRows(history).write()


class _GameRows:
    """One game's history turned into rows: the turns (rolls, plays, passes), the cube's
    cells, the resignations and the result, each by its own method."""

    def __init__(self, history: Sequence[Event]) -> None:
        self.history = history
        self.layout = _Layout()
        self.pending: tuple[int, Dice] | None = None  # a roll whose play (or dance) comes next
        self.last_cube: Event | None = None
        self.result = next((e.result for e in history if isinstance(e, Ended)), None)
        self.offers: list[str] = []
        self.unrolled: list[int] = []

    def write(self) -> tuple[list[str], list[str], list[int]]:
        for index, event in enumerate(self.history):
            if isinstance(event, OpeningRolled | Rolled | DoubleChosen | Moved | Passed):
                self.turn(index, event)
            elif isinstance(event, Doubled | Beavered | Took | Dropped):
                self.flush()
                self.cube(index, event)
            elif isinstance(event, Resigned):
                self.resigned(index, event)
            elif isinstance(event, Ended):
                self.flush()
                points = event.result.points
                self.layout.put(
                    event.result.winner, f" Wins {points} point{'' if points == 1 else 's'}"
                )
        self.flush()
        return self.layout.lines(), self.offers, self.unrolled

    def flush(self) -> None:
        """Write the pending roll with no play, if any."""
        if self.pending is not None:
            self.layout.put(self.pending[0], _roll_cell(self.pending[1], ""))
            self.pending = None

    def turn(
        self, index: int, event: OpeningRolled | Rolled | DoubleChosen | Moved | Passed
    ) -> None:
        """A roll is kept until its play (or its pass) writes the cell."""
        if isinstance(event, OpeningRolled):
            if not event.is_tie:
                die0, die1 = event.dice
                self.pending = (0 if die0 > die1 else 1, (max(event.dice), min(event.dice)))
        elif isinstance(event, Rolled):
            self.pending = (event.side, event.dice)
        elif isinstance(event, DoubleChosen):
            self.pending = (event.side, (event.number, event.number))
        elif isinstance(event, Moved):
            self.pending = None
            moves = " ".join(
                f"{m.source}/{m.target}{'*' if m.hit else ''}" for m in event.moves
            )
            self.layout.put(event.side, _roll_cell(event.dice, moves))
        else:
            if event.reason is PassReason.CLOSED_BOARD and self.pending is None:
                self.layout.put(event.side, _roll_cell(_CLOSED_OUT_ROLL, ""))
                self.unrolled.append(index)
            self.flush()  # the roll that danced, kept from a file (R7), or one with no play

    def cube(self, index: int, event: Doubled | Beavered | Took | Dropped) -> None:
        if isinstance(event, Doubled):
            self.layout.put(event.side, f" Doubles => {event.value}")
            self.last_cube = event
        elif isinstance(event, Beavered):
            self.layout.put(event.side, f" Beavers => {event.value}")
            self.last_cube = event
        elif isinstance(event, Took):
            # After a beaver the take is implied by the doubler's next roll, as GNU reads it;
            # written when anything else follows.
            history = self.history
            following = history[index + 1] if index + 1 < len(history) else None
            implied = isinstance(following, Rolled | Passed) and following.side == event.side
            if not (isinstance(self.last_cube, Beavered) and implied):
                self.layout.put(event.side, " Takes")
            self.last_cube = event
        else:
            self.layout.put(event.side, " Drops")

    def resigned(self, index: int, event: Resigned) -> None:
        """An offer the rows cannot show is listed for the Resignations tag."""
        history = self.history
        answer = history[index + 1] if index + 1 < len(history) else None
        accepted = isinstance(answer, ResignationAccepted)
        result = self.result
        if not (accepted and result is not None and result.kind == event.value):
            outcome = (
                ", accepted" if accepted
                else ", rejected" if isinstance(answer, ResignationRejected)
                else ""
            )
            self.offers.append(
                f"event {index}: side {event.side} resigns {event.value}{outcome}"
            )
