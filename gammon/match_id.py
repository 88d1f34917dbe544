"""GNU Backgammon's Match ID, as pure functions on plain data.

The Match ID carries a match's state (cube, score, dice, whose turn, what is
offered) between GNU Backgammon and other programs, so it must be byte-for-byte
identical to what GNU Backgammon writes and reads. (The Position ID is in
:mod:`gammon.position_id`; :mod:`gammon.ids` offers both.)
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from enum import IntEnum
from typing import TypedDict

from gammon.errors import MatchIdError
from gammon.messages import Message
from gammon.position_id import check_base64

__all__ = [
    "MATCH_ID_LENGTH",
    "GameState",
    "MatchIdFields",
    "MatchIdValues",
    "decode_match_id",
    "encode_match_id",
    "match_id_of_valid",
]

MATCH_ID_LENGTH = 12
"""Characters in a Match ID: 72 bits (9 bytes) of key in base64."""

_MAX_15_BITS = (1 << 15) - 1


class GameState(IntEnum):
    """The game state stored in bits 9-11 of a Match ID."""

    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


_FINISHED = (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)

# (first bit, width) of each field in the 72-bit key, bit 0 = least significant
# bit of the first byte (the manual numbers them from 1).
_CUBE = (0, 4)
_CUBE_OWNER = (4, 2)
_DICE_OWNER = (6, 1)
_CRAWFORD = (7, 1)
_GAME_STATE = (8, 3)
_TURN = (11, 1)
_DOUBLED = (12, 1)
_RESIGN = (13, 2)
_DIE1 = (15, 3)
_DIE2 = (18, 3)
_MATCH_LENGTH = (21, 15)
_SCORE0 = (36, 15)
_SCORE1 = (51, 15)
_NO_JACOBY = (66, 1)
_USED_BITS = 67
_CENTRED = 3  # cube owner bits for a centred cube


class MatchIdValues(TypedDict):
    """:class:`MatchIdFields`' fields by name, unchecked: what :func:`match_id_of_valid`
    takes (``match_id_of_valid(**values)``) for a state valid by construction."""

    cube_value: int
    cube_owner: int | None
    player_on_roll: int
    crawford: bool
    game_state: GameState
    turn: int
    double_offered: bool
    resignation: int
    dice: tuple[int, int]
    match_length: int
    score: tuple[int, int]
    jacoby: bool


@dataclass(frozen=True)
class MatchIdFields:
    """Everything a GNU Backgammon Match ID records, checked for consistency.

    Players are GNU Backgammon's player 0 and player 1 (absolute, not relative to
    the player on roll).

    - ``cube_value``: 1, 2, 4, ... 32768.
    - ``cube_owner``: 0 or 1, or ``None`` for a centred cube.
    - ``player_on_roll``: the player who is to roll or has rolled ("dice owner").
    - ``crawford``: this is the Crawford game (match play only).
    - ``game_state``: see :class:`GameState`.
    - ``turn``: the player who must act now; differs from ``player_on_roll`` while
      the opponent answers a double or a resignation.
    - ``double_offered``: a double awaits take or pass.
    - ``resignation``: 0 none, 1 single game, 2 gammon, 3 backgammon offered (by
      the player who is *not* ``turn``).
    - ``dice``: the roll, ``(0, 0)`` before rolling. GNU writes the larger die
      first, so decoding returns ``(5, 2)`` for a ``(2, 5)`` roll.
    - ``match_length``: 0 for money play; ``score`` is ``(player 0, player 1)``.
    - ``jacoby``: the Jacoby rule; GNU stores it inverted in bit 67, so Match IDs
      from versions before that bit existed read as ``jacoby=True``.

    Consistency rules beyond each field's range (GNU itself checks fewer, but
    never writes IDs that break them): dice both 0 or both 1-6; no Crawford game
    in money play; in a Crawford game still to be played or in progress one
    player has exactly ``match_length - 1``; both scores stay below the match
    length until the game is over, and afterwards at most one player has reached
    it; a double or resignation needs a game started; a double is offered
    before rolling and never in the Crawford game.  ``turn`` may differ from
    ``player_on_roll`` with nothing pending: GNU Backgammon writes that after
    ``set gnubgid`` drops a pending resignation (``MAkAAGAAAAAE``), and we read
    whatever it writes and write back the same bits.

    >>> MatchIdFields(match_length=7, score=(6, 2), crawford=True).crawford
    True
    >>> MatchIdFields(cube_value=3)
    Traceback (most recent call last):
    ...
    gammon.errors.MatchIdError: Match ID cube value must be a power of two from 1 to 32768, got 3
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        try:
            state = GameState(self.game_state)
        except ValueError:
            raise MatchIdError(
                f"Match ID game state must be 0-4 (see GameState), got {self.game_state!r}"
            ) from None
        object.__setattr__(self, "game_state", state)
        object.__setattr__(self, "dice", tuple(self.dice))
        object.__setattr__(self, "score", tuple(self.score))
        self._check()

    def _check(self) -> None:
        """Raises :class:`MatchIdError` for fields no game can produce."""
        self._check_cube_and_turn()
        self._check_dice()
        self._check_score()
        self._check_pending()

    def _check_cube_and_turn(self) -> None:
        """Each of the cube's, the players' and the resignation's fields in its range."""
        v = self.cube_value
        if not (1 <= v <= 1 << 15 and v & (v - 1) == 0):
            raise MatchIdError(
                f"Match ID cube value must be a power of two from 1 to 32768, got {v}"
            )
        if self.cube_owner not in (0, 1, None):
            raise MatchIdError(
                f"Match ID cube owner must be 0, 1 or None (centred), got {self.cube_owner!r}"
            )
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                raise MatchIdError(
                    f"Match ID {name.replace('_', ' ')} must be 0 or 1, got {getattr(self, name)!r}"
                )
        if self.resignation not in (0, 1, 2, 3):
            raise MatchIdError(
                "Match ID resignation must be 0 (none), 1 (single), 2 (gammon) or "
                f"3 (backgammon), got {self.resignation!r}"
            )

    def _check_dice(self) -> None:
        """Two dice, both rolled or neither."""
        if len(self.dice) != 2:
            raise MatchIdError(f"Match ID dice must be two numbers, got {self.dice!r}")
        d1, d2 = self.dice
        for d in (d1, d2):
            if not 0 <= d <= 6:
                raise MatchIdError(
                    Message("Match ID die must be 0 (not rolled) or 1-6, got {die}", die=d)
                )
        if (d1 == 0) != (d2 == 0):
            raise MatchIdError(
                Message(
                    "Match ID dice must be both 0 (not rolled) or both rolled, got {d1} and {d2}",
                    d1=d1,
                    d2=d2,
                )
            )

    def _check_score(self) -> None:
        """The match length and the score in 15 bits, then the score and the Crawford
        flag as a match can have them."""
        n = self.match_length
        if not 0 <= n <= _MAX_15_BITS:
            raise MatchIdError(f"Match ID match length must be 0 (money) to 32767, got {n}")
        if len(self.score) != 2:
            raise MatchIdError(f"Match ID score must be two numbers, got {self.score!r}")
        for s in self.score:
            if not 0 <= s <= _MAX_15_BITS:
                raise MatchIdError(f"Match ID score must be 0 to 32767, got {s}")
        if n == 0:
            if self.crawford:
                raise MatchIdError(Message("Match ID has the Crawford flag in a money game"))
        else:
            self._check_match_score(n)

    def _check_match_score(self, n: int) -> None:
        """A match's score below its length ``n`` until the game is over, and the
        Crawford game only 1-away."""
        finished = self.game_state in _FINISHED
        written = "-".join(map(str, self.score))
        reached = [s for s in self.score if s >= n]
        if not finished and reached:
            raise MatchIdError(
                Message(
                    "Match ID score {score} must stay below the match length {length} "
                    "until the game is over",
                    score=written,
                    length=n,
                )
            )
        if len(reached) == 2:
            raise MatchIdError(
                Message(
                    "Match ID score {score} has both players at or past the match length "
                    "{length}",
                    score=written,
                    length=n,
                )
            )
        if self.crawford and not finished and n - 1 not in self.score:
            raise MatchIdError(
                Message(
                    "Match ID has the Crawford flag but neither player is 1-away "
                    "(score {score} to {length})",
                    score=written,
                    length=n,
                )
            )

    def _check_pending(self) -> None:
        """A double or a resignation only in a game started, a double only before the
        roll and never in the Crawford game."""
        if self.game_state == GameState.NO_GAME:
            if self.double_offered:
                raise MatchIdError(Message("Match ID has a double offered but no game started"))
            if self.resignation:
                raise MatchIdError(
                    Message("Match ID has a resignation offered but no game started")
                )
        if self.double_offered:
            d1, d2 = self.dice
            if d1:
                raise MatchIdError(
                    Message(
                        "Match ID has a double offered after the dice were rolled ({dice})",
                        dice=str(d1) + str(d2),
                    )
                )
            if self.crawford:
                raise MatchIdError(Message("Match ID has a double offered in the Crawford game"))


def _get(key: int, field: tuple[int, int]) -> int:
    start, width = field
    return (key >> start) & ((1 << width) - 1)


def encode_match_id(fields: MatchIdFields) -> str:
    """Returns GNU Backgammon's 12-character Match ID for ``fields``.

    The dice are written larger first, as GNU Backgammon does.

    >>> encode_match_id(MatchIdFields(
    ...     cube_value=2, cube_owner=0, player_on_roll=1, turn=1, dice=(5, 2),
    ...     match_length=9, score=(2, 4), jacoby=True))
    'QYkqASAAIAAA'
    """
    return match_id_of_valid(
        fields.cube_value,
        fields.cube_owner,
        fields.player_on_roll,
        fields.crawford,
        fields.game_state,
        fields.turn,
        fields.double_offered,
        fields.resignation,
        fields.dice,
        fields.match_length,
        fields.score,
        fields.jacoby,
    )


def match_id_of_valid(
    cube_value: int,
    cube_owner: int | None,
    player_on_roll: int,
    crawford: bool,
    game_state: int,
    turn: int,
    double_offered: bool,
    resignation: int,
    dice: tuple[int, int],
    match_length: int,
    score: tuple[int, int],
    jacoby: bool,
) -> str:
    """:func:`encode_match_id` of :class:`MatchIdFields`' fields, in their order, without
    making (and checking) the value: a game's own state is valid by construction, and
    a server writes its Match ID after every action.

    >>> match_id_of_valid(2, 0, 1, False, GameState.PLAYING, 1, False, 0, (5, 2), 9, (2, 4), True)
    'QYkqASAAIAAA'
    """
    die1, die2 = dice
    high, low = (die1, die2) if die1 >= die2 else (die2, die1)
    # Each valid value fits its field's width: shifted into place, not masked (no call
    # per field: the server writes a Match ID after every action).
    key = (
        (cube_value.bit_length() - 1) << _CUBE[0]
        | (_CENTRED if cube_owner is None else cube_owner) << _CUBE_OWNER[0]
        | player_on_roll << _DICE_OWNER[0]
        | crawford << _CRAWFORD[0]
        | game_state << _GAME_STATE[0]
        | turn << _TURN[0]
        | double_offered << _DOUBLED[0]
        | resignation << _RESIGN[0]
        | high << _DIE1[0]
        | low << _DIE2[0]
        | match_length << _MATCH_LENGTH[0]
        | score[0] << _SCORE0[0]
        | score[1] << _SCORE1[0]
        | (not jacoby) << _NO_JACOBY[0]
    )
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchIdFields:
    """Returns the fields of a GNU Backgammon Match ID.

    Surrounding whitespace is ignored. Raises :class:`MatchIdError` naming what
    is wrong for anything GNU Backgammon would not write.

    >>> f = decode_match_id("QYkqASAAIAAA")
    >>> f.match_length, f.score, f.dice, f.cube_value, f.cube_owner, f.player_on_roll
    (9, (2, 4), (5, 2), 2, 0, 1)
    >>> decode_match_id("QYkqASAAIAA")
    Traceback (most recent call last):
    ...
    gammon.errors.MatchIdError: Match ID must be 12 characters, got 11
    """
    text = text.strip()
    if len(text) != MATCH_ID_LENGTH:
        raise MatchIdError(
            Message(
                "Match ID must be {length} characters, got {count}",
                length=MATCH_ID_LENGTH,
                count=len(text),
            )
        )
    check_base64(text, "Match ID", MatchIdError)
    key = int.from_bytes(base64.b64decode(text, validate=True), "little")
    if key >> _USED_BITS:
        raise MatchIdError(
            Message(
                "Match ID has 1 bits after bit 67 (the Jacoby flag); GNU Backgammon always "
                "leaves bits 68-72 at 0"
            )
        )
    owner_bits = _get(key, _CUBE_OWNER)
    if owner_bits == 2:
        raise MatchIdError(
            Message(
                "Match ID cube owner bits are 10, which is not 00 (player 0), "
                "01 (player 1) or 11 (centred)"
            )
        )
    state = _get(key, _GAME_STATE)
    if state > max(GameState):
        raise MatchIdError(
            Message("Match ID game state must be 0-4 (see GameState), got {state}", state=state)
        )
    return MatchIdFields(
        cube_value=1 << _get(key, _CUBE),
        cube_owner=None if owner_bits == _CENTRED else owner_bits,
        player_on_roll=_get(key, _DICE_OWNER),
        crawford=bool(_get(key, _CRAWFORD)),
        game_state=GameState(state),
        turn=_get(key, _TURN),
        double_offered=bool(_get(key, _DOUBLED)),
        resignation=_get(key, _RESIGN),
        dice=(_get(key, _DIE1), _get(key, _DIE2)),
        match_length=_get(key, _MATCH_LENGTH),
        score=(_get(key, _SCORE0), _get(key, _SCORE1)),
        jacoby=not _get(key, _NO_JACOBY),
    )
