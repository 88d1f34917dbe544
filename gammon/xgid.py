"""eXtreme Gammon's XGID position strings, as pure functions on plain data.

XGIDs are what eXtreme Gammon, GNU Backgammon and most forums paste positions
as, so we read and write them exactly. An XGID has ten ``:``-separated fields
(the ``XGID=`` prefix is optional when reading)::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10
         position                   | | | |  | | | | max cube exponent
                                    | | | |  | | | match length (0 = money)
                                    | | | |  | | Crawford (match) / Jacoby+beaver (money)
                                    | | | |  | top player's score
                                    | | | |  bottom player's score
                                    | | | dice: 00, two dice, D, B or R
                                    | | turn: 1 bottom, -1 top
                                    | cube owner: 1 bottom, 0 centred, -1 top
                                    cube exponent: the cube is 2 to this power

Orientation. XG shows one player at the *bottom* of the board and one at the
*top*, whoever is on roll. The 26-character position is always written from the
bottom player's side: uppercase ``A``-``P`` are 1-16 of the bottom player's
checkers, lowercase ``a``-``p`` the top player's, ``-`` is empty. Character 0 is
the top player's bar, characters 1-24 are points 1-24 *numbered for the bottom
player* (who moves from 24 towards 1), and character 25 is the bottom player's
bar. So character ``i`` (1-24) is the bottom player's ``i``-point and the top
player's ``(25 - i)``-point. The turn field says who is on roll (1 bottom, -1
top). In the starting position above each side has two checkers on its own
24-point: ``B`` at character 24 (bottom) and ``b`` at character 1 (top).

Dice markers. ``00``: the player on roll has not rolled (a cube decision);
two digits: the roll to play; ``D``: the player on roll has doubled and the
opponent must take or pass; ``B``: the opponent beavered; ``R``: the doubler
raccooned. With ``D``/``B``/``R`` the turn field still names the original doubler
and the cube fields give the cube *before* that double (GNU Backgammon reads
``D`` this way; we assume the same for ``B`` and ``R``).

Rules field: in match play 1 means this is the Crawford game; in money play it
is Jacoby (1) plus beavers allowed (2), so 0-3.

:class:`Xgid` re-expresses all of this for the player on roll: ``board`` is
``(mine, theirs)`` in gammon's usual convention (25 counts each from its owner's
side, index 24 = bar), and ``score`` and ``cube_owner`` are relative to the
player on roll too, while ``player_on_roll`` records whether that player sits at
the bottom (:data:`BOTTOM`) or the top (:data:`TOP`) so the string can be
rebuilt exactly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from gammon.errors import XgidError
from gammon.i18n import N_
from gammon.messages import Message
from gammon.position_id import side_counts

__all__ = [
    "BOTTOM",
    "TOP",
    "CubeAction",
    "Xgid",
    "format_xgid",
    "parse_xgid",
]

BOTTOM = 0
"""``Xgid.player_on_roll`` when the bottom player (uppercase, turn 1) is on roll."""

TOP = 1
"""``Xgid.player_on_roll`` when the top player (lowercase, turn -1) is on roll."""

_POINTS = 25
_MAX_CHECKERS = 15
_MAX_CUBE_EXPONENT = 15
_FIELDS = 10
_INT = re.compile(r"-?[0-9]+")


class CubeAction(StrEnum):
    """A cube action under way, which XGID writes in place of the dice."""

    NONE = ""
    DOUBLE = "D"
    BEAVER = "B"
    RACCOON = "R"


def _power_of_two(value: int, not_one: str) -> None:
    """Refuses a cube that is not 1, 2, 4 ... 32768, saying so in ``not_one`` (a message)."""
    if not (1 <= value <= 1 << _MAX_CUBE_EXPONENT and value & (value - 1) == 0):
        raise XgidError(Message(not_one, value=value))


@dataclass(frozen=True)
class Xgid:
    """One XGID, expressed for the player on roll.

    - ``board``: ``(mine, theirs)``, ``mine`` being the player on roll (with a
      cube action pending: the doubler).
    - ``player_on_roll``: :data:`BOTTOM` or :data:`TOP`, the XG side of ``mine``.
    - ``cube_value``: 1, 2, 4, ...; before the pending double, if any.
    - ``cube_owner``: 0 the player on roll, 1 the opponent, ``None`` centred.
    - ``dice``: the roll to play, ``(0, 0)`` if not rolled (always with a cube
      action); order is kept as written.
    - ``cube_action``: the double, beaver or raccoon awaiting an answer.
    - ``score``: ``(player on roll, opponent)``.
    - ``match_length``: 0 for money play.
    - ``crawford``: the Crawford game (match play only).
    - ``jacoby`` / ``beaver``: the Jacoby rule / beavers allowed (money only).
    - ``max_cube``: the highest cube value allowed (XG's default is 1024).

    Beyond each field's range we check: no point shared by both sides; match
    scores below the match length; a Crawford game has a player 1-away and
    its cube at 1 and centred (it is played without the cube); no cube action
    in the Crawford game or with dice rolled; no double when the
    opponent owns the cube; beavers and raccoons only in money play; the cube
    no higher than ``max_cube``.

    >>> x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    >>> x.player_on_roll == BOTTOM, x.board[0] == x.board[1], x.max_cube
    (True, True, 1024)
    """

    board: tuple[tuple[int, ...], tuple[int, ...]]
    player_on_roll: int = BOTTOM
    cube_value: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] = (0, 0)
    cube_action: CubeAction = CubeAction.NONE
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 1024

    def __post_init__(self) -> None:
        if len(self.board) != 2:
            raise XgidError(f"board must be a pair (mine, theirs), got {len(self.board)} sides")
        # (XgidError's str() puts "XGID " before "board ...": see gammon.errors.XgidError.)
        mine = side_counts(self.board[0], "the player on roll", XgidError, "board")
        theirs = side_counts(self.board[1], "the opponent", XgidError, "board")
        for i in range(24):
            if mine[i] and theirs[23 - i]:
                raise XgidError(
                    Message(
                        "has checkers of both players on one point (the player on roll's "
                        "{mine}-point, the opponent's {theirs}-point)",
                        mine=i + 1,
                        theirs=24 - i,
                    )
                )
        object.__setattr__(self, "board", (mine, theirs))
        object.__setattr__(self, "dice", tuple(self.dice))
        object.__setattr__(self, "score", tuple(self.score))
        try:
            object.__setattr__(self, "cube_action", CubeAction(self.cube_action))
        except ValueError:
            raise XgidError(
                f"cube action must be '', 'D', 'B' or 'R', got {self.cube_action!r}"
            ) from None
        self._check()

    def _check(self) -> None:
        """Raises :class:`XgidError` for fields no game can produce."""
        self._check_cube()
        self._check_dice()
        self._check_score()
        self._check_cube_rules()

    def _check_cube(self) -> None:
        """The player on roll, and the cube's value, limit and owner, each in its range."""
        if self.player_on_roll not in (BOTTOM, TOP):
            raise XgidError(
                f"player on roll must be BOTTOM (0) or TOP (1), got {self.player_on_roll!r}"
            )
        _power_of_two(
            self.cube_value, N_("cube value must be a power of two from 1 to 32768, got {value}")
        )
        _power_of_two(
            self.max_cube, N_("max cube must be a power of two from 1 to 32768, got {value}")
        )
        if self.cube_value > self.max_cube:
            raise XgidError(
                Message(
                    "cube value {value} is above the max cube {most}",
                    value=self.cube_value,
                    most=self.max_cube,
                )
            )
        if self.cube_owner not in (0, 1, None):
            raise XgidError(
                "cube owner must be 0 (player on roll), 1 (opponent) or None "
                f"(centred), got {self.cube_owner!r}"
            )

    def _check_dice(self) -> None:
        """Two dice, both rolled or neither, and never with a cube action under way."""
        if len(self.dice) != 2:
            raise XgidError(f"dice must be two numbers, got {self.dice!r}")
        d1, d2 = self.dice
        if (d1, d2) != (0, 0) and not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise XgidError(
                Message("dice must be (0, 0) or two numbers 1-6, got ({d1}, {d2})", d1=d1, d2=d2)
            )
        action = self.cube_action
        if action is not CubeAction.NONE and d1:
            raise XgidError(
                Message(
                    "cannot have both dice ({d1}{d2}) and a pending cube action ({action})",
                    d1=d1,
                    d2=d2,
                    action=action.value,
                )
            )

    def _check_score(self) -> None:
        """The score and the match length in range, then what a match or money
        play allows of them (the Crawford flag, Jacoby and beavers)."""
        if len(self.score) != 2:
            raise XgidError(f"score must be two numbers, got {self.score!r}")
        for s in self.score:
            if s < 0:
                raise XgidError(Message("score must not be negative, got {score}", score=s))
        n = self.match_length
        if n < 0:
            raise XgidError(
                Message("match length must be 0 (money) or more, got {length}", length=n)
            )
        if n:
            self._check_match_score(n)
        elif self.crawford:
            raise XgidError(Message("has the Crawford flag in money play"))

    def _check_match_score(self, n: int) -> None:
        """A match to ``n``: scores below it, no money rules, the Crawford game 1-away."""
        for s in self.score:
            if s >= n:
                raise XgidError(
                    Message(
                        "score {score} is not below the match length {length}",
                        score=s,
                        length=n,
                    )
                )
        if self.jacoby or self.beaver:
            raise XgidError(Message("Jacoby and beaver rules apply only to money play"))
        if self.crawford and n - 1 not in self.score:
            raise XgidError(
                Message(
                    "has the Crawford flag but neither player is 1-away "
                    "(score {mine}-{theirs} to {length})",
                    mine=self.score[0],
                    theirs=self.score[1],
                    length=n,
                )
            )

    def _check_cube_rules(self) -> None:
        """No cube in the Crawford game, no double of a cube the opponent owns, and
        beavers and raccoons only for money."""
        action = self.cube_action
        if action is not CubeAction.NONE and self.crawford:
            raise XgidError(Message("has a cube action in the Crawford game"))
        if self.crawford and (self.cube_value != 1 or self.cube_owner is not None):
            raise XgidError(Message(_CRAWFORD_CUBE[self.cube_owner], value=self.cube_value))
        if action is CubeAction.DOUBLE and self.cube_owner == 1:
            raise XgidError(
                Message("has a double by the player on roll but the opponent owns the cube")
            )
        if action in (CubeAction.BEAVER, CubeAction.RACCOON) and self.match_length:
            raise XgidError(Message(_MONEY_ONLY[action]))


#: A cube in the Crawford game, by its owner (centred, the player on roll, the opponent).
_CRAWFORD_CUBE: Final = {
    None: N_(
        "has the cube at {value}, centred, in the Crawford game; "
        "the Crawford game is played without the cube"
    ),
    0: N_(
        "has the cube at {value}, owned by the player on roll, in the Crawford game; "
        "the Crawford game is played without the cube"
    ),
    1: N_(
        "has the cube at {value}, owned by the opponent, in the Crawford game; "
        "the Crawford game is played without the cube"
    ),
}
#: A beaver or a raccoon in match play.
_MONEY_ONLY: Final = {
    CubeAction.BEAVER: N_("has a beaver in match play (money only)"),
    CubeAction.RACCOON: N_("has a raccoon in match play (money only)"),
}


def _int_field(text: str, not_an_integer: str) -> int:
    """``text`` as an integer, or the message ``not_an_integer`` naming the field."""
    if not _INT.fullmatch(text):
        raise XgidError(Message(not_an_integer, text=repr(text)))
    return int(text)


def _read_position(text: str) -> tuple[list[int], list[int]]:
    """Returns (bottom, top) boards, each from its owner's side."""
    if len(text) != 26:
        raise XgidError(Message("position must be 26 characters, got {count}", count=len(text)))
    bottom = [0] * _POINTS
    top = [0] * _POINTS
    for i, c in enumerate(text):
        if c == "-":
            continue
        if "A" <= c <= "P":
            if i == 0:
                raise XgidError(
                    Message(
                        "position character 1 is the top player's bar and cannot hold "
                        "bottom (uppercase) checkers, got {char}",
                        char=repr(c),
                    )
                )
            bottom[24 if i == 25 else i - 1] = ord(c) - ord("A") + 1
        elif "a" <= c <= "p":
            if i == 25:
                raise XgidError(
                    Message(
                        "position character 26 is the bottom player's bar and cannot "
                        "hold top (lowercase) checkers, got {char}",
                        char=repr(c),
                    )
                )
            top[24 if i == 0 else 24 - i] = ord(c) - ord("a") + 1
        else:
            raise XgidError(
                Message(
                    "position has an invalid character {char} at position {index} "
                    "(expected '-', A-P or a-p)",
                    char=repr(c),
                    index=i + 1,
                )
            )
    too_many = (
        N_("has {count} checkers for the bottom player (at most {most})"),
        N_("has {count} checkers for the top player (at most {most})"),
    )
    for side, message in zip((bottom, top), too_many, strict=True):
        total = sum(side)
        if total > _MAX_CHECKERS:
            raise XgidError(Message(message, count=total, most=_MAX_CHECKERS))
    return bottom, top


def _write_position(bottom: Sequence[int], top: Sequence[int]) -> str:
    chars = []
    for i in range(26):
        b = bottom[24 if i == 25 else i - 1] if i > 0 else 0
        t = top[24 if i == 0 else 24 - i] if i < 25 else 0
        if b:
            chars.append(chr(ord("A") + b - 1))
        elif t:
            chars.append(chr(ord("a") + t - 1))
        else:
            chars.append("-")
    return "".join(chars)


def parse_xgid(text: str) -> Xgid:
    """Reads an XGID, with or without its ``XGID=`` prefix.

    Surrounding whitespace is ignored. Raises :class:`XgidError` saying what is
    wrong with anything eXtreme Gammon would not write.

    >>> x = parse_xgid("-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7:10")
    >>> x.player_on_roll == TOP, x.cube_value, x.cube_owner, x.cube_action, x.score
    (True, 2, 0, <CubeAction.DOUBLE: 'D'>, (4, 2))
    >>> parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0")
    Traceback (most recent call last):
    ...
    gammon.errors.XgidError: XGID must have 10 fields separated by ':', got 9

    The error's :attr:`~gammon.errors.XgidError.reason` says what is wrong without the
    word XGID, for a board set up by hand (the analysis board's):

    >>> try:
    ...     parse_xgid("-b----E-C---eE---c-e----B-:0:0:1:00:5:0:0:5:10")
    ... except XgidError as exc:
    ...     print(exc.translated("nl"))
    ...     print(exc.reason.translated("nl"))
    XGID: de stand 5 ligt niet onder de matchlengte 5
    de stand 5 ligt niet onder de matchlengte 5
    """
    pos, cube, owner, turn, dice, s1, s2, rules, length, max_cube = _fields(text)
    bottom, top = _read_position(pos)
    cube_exp, max_exp = _read_cube_exponents(cube, max_cube)
    owner_n, turn_n = _read_owner_and_turn(owner, turn)
    action, dice_pair = _read_dice(dice)
    bottom_score = _int_field(s1, N_("bottom player's score must be an integer, got {text}"))
    top_score = _int_field(s2, N_("top player's score must be an integer, got {text}"))
    rules_n, match_length = _read_rules(rules, length)

    on_roll = BOTTOM if turn_n == 1 else TOP
    on_roll_owner_n = 1 if on_roll == BOTTOM else -1
    mine, theirs = (bottom, top) if on_roll == BOTTOM else (top, bottom)
    score = (bottom_score, top_score) if on_roll == BOTTOM else (top_score, bottom_score)
    return Xgid(
        board=(tuple(mine), tuple(theirs)),
        player_on_roll=on_roll,
        cube_value=1 << cube_exp,
        cube_owner=None if owner_n == 0 else (0 if owner_n == on_roll_owner_n else 1),
        dice=dice_pair,
        cube_action=action,
        score=score,
        match_length=match_length,
        crawford=match_length > 0 and rules_n == 1,
        jacoby=match_length <= 0 and bool(rules_n & 1),
        beaver=match_length <= 0 and bool(rules_n & 2),
        max_cube=1 << max_exp,
    )


def _fields(text: str) -> list[str]:
    """The ten fields of an XGID, its ``XGID=`` prefix and surrounding whitespace dropped."""
    text = text.strip()
    if text[:5].upper() == "XGID=":
        text = text[5:]
    parts = text.split(":")
    if len(parts) != _FIELDS:
        raise XgidError(
            Message(
                "must have {fields} fields separated by ':', got {count}",
                fields=_FIELDS,
                count=len(parts),
            )
        )
    return parts


def _read_cube_exponents(cube: str, max_cube: str) -> tuple[int, int]:
    """The cube's exponent and the max cube's, each 0-15."""
    cube_exp = _int_field(cube, N_("cube exponent must be an integer, got {text}"))
    max_exp = _int_field(max_cube, N_("max cube exponent must be an integer, got {text}"))
    for value, out_of_range in (
        (cube_exp, N_("cube exponent must be 0 to {most}, got {value}")),
        (max_exp, N_("max cube exponent must be 0 to {most}, got {value}")),
    ):
        if not 0 <= value <= _MAX_CUBE_EXPONENT:
            raise XgidError(Message(out_of_range, most=_MAX_CUBE_EXPONENT, value=value))
    return cube_exp, max_exp


def _read_owner_and_turn(owner: str, turn: str) -> tuple[int, int]:
    """The cube owner (1 bottom, 0 centred, -1 top) and the turn (1 bottom, -1 top)."""
    owner_n = _int_field(owner, N_("cube owner must be an integer, got {text}"))
    if owner_n not in (-1, 0, 1):
        raise XgidError(
            Message(
                "cube owner must be 1 (bottom), 0 (centred) or -1 (top), got {owner}", owner=owner
            )
        )
    turn_n = _int_field(turn, N_("turn must be an integer, got {text}"))
    if turn_n not in (-1, 1):
        raise XgidError(Message("turn must be 1 (bottom) or -1 (top), got {turn}", turn=turn))
    return owner_n, turn_n


def _read_dice(dice: str) -> tuple[CubeAction, tuple[int, int]]:
    """The dice field: a cube action under way, or the roll (``(0, 0)`` not rolled)."""
    if dice in ("D", "B", "R"):
        return CubeAction(dice), (0, 0)
    if re.fullmatch(r"00|[1-6][1-6]", dice):
        return CubeAction.NONE, (int(dice[0]), int(dice[1]))
    raise XgidError(
        Message("dice must be '00', two digits 1-6, 'D', 'B' or 'R', got {dice}", dice=repr(dice))
    )


def _read_rules(rules: str, length: str) -> tuple[int, int]:
    """The rules field (Crawford in a match, Jacoby + 2 beaver for money) and the
    match length it is read by."""
    rules_n = _int_field(rules, N_("Crawford/Jacoby field must be an integer, got {text}"))
    match_length = _int_field(length, N_("match length must be an integer, got {text}"))
    if match_length > 0 and rules_n not in (0, 1):
        raise XgidError(
            Message("Crawford field must be 0 or 1 in match play, got {rules}", rules=rules)
        )
    if match_length <= 0 and rules_n not in (0, 1, 2, 3):
        raise XgidError(
            Message(
                "Jacoby/beaver field must be 0-3 in money play (1 Jacoby + 2 beaver), got {rules}",
                rules=rules,
            )
        )
    return rules_n, match_length


def format_xgid(x: Xgid) -> str:
    """Writes ``x`` as an XGID string, ``XGID=`` prefix included.

    >>> start = tuple(5 if i == 5 else 3 if i == 7 else 5 if i == 12 else 2 if i == 23 else 0
    ...               for i in range(25))
    >>> format_xgid(Xgid(board=(start, start), dice=(3, 1)))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10'
    """
    mine, theirs = x.board
    bottom, top = (mine, theirs) if x.player_on_roll == BOTTOM else (theirs, mine)
    sign = 1 if x.player_on_roll == BOTTOM else -1
    owner = 0 if x.cube_owner is None else (sign if x.cube_owner == 0 else -sign)
    dice = x.cube_action.value or f"{x.dice[0]}{x.dice[1]}"
    s_mine, s_theirs = x.score
    s_bottom, s_top = (s_mine, s_theirs) if x.player_on_roll == BOTTOM else (s_theirs, s_mine)
    rules = int(x.crawford) if x.match_length else int(x.jacoby) | int(x.beaver) << 1
    fields = [
        _write_position(bottom, top),
        str(x.cube_value.bit_length() - 1),
        str(owner),
        str(sign),
        dice,
        str(s_bottom),
        str(s_top),
        str(rules),
        str(x.match_length),
        str(x.max_cube.bit_length() - 1),
    ]
    return "XGID=" + ":".join(fields)
