"""What a client may send: every message type with its own fields and their checks.

The tables here are the protocol's vocabulary as docs/PROTOCOL.md lists it (the game
actions of section 4, the table's, the lobby's and a tournament's messages), so the two
are read side by side; :func:`gammon.server.protocol.parse_message` reads a message
against one of them and refuses whatever does not fit.

>>> [(spec.name, spec.required) for spec in GAME_ACTIONS["resign"]]
[('value', True)]
>>> "lobby_view" in LOBBY_MESSAGES, "lobby_view" in TABLE_MESSAGES
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gammon.i18n import N_
from gammon.variants import VARIANTS

__all__ = [
    "FEATURES",
    "GAME_ACTIONS",
    "LOBBY_MESSAGES",
    "LOBBY_PAGE_MAX",
    "TABLE_MESSAGES",
    "TOURNAMENT_MESSAGES",
    "Field",
    "is_int",
]

#: What a client may ask for with ``{"type": "hello", "features": [...]}`` (docs/PROTOCOL.md 2.2).
FEATURES: Final = frozenset({"log_delta", "games_delta"})


def is_int(value: object) -> bool:
    """A whole number, and not a boolean (JSON's true is no number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _text(limit: int, *, empty: bool = False) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        return isinstance(value, str) and (empty or len(value) > 0) and len(value) <= limit

    return check


def _int_range(low: int, high: int) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        return is_int(value) and low <= value <= high  # type: ignore[operator]

    return check


def _features(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= 16
        and all(isinstance(name, str) and 0 < len(name) <= 40 for name in value)
    )


def _move_list(value: object) -> bool:
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        return False
    return all(
        isinstance(move, list)
        and len(move) == 2
        and all(is_int(point) and 0 <= point <= 25 for point in move)
        for move in value
    )


@dataclass(frozen=True)
class Field:
    """One field of a message type: its name, its check, what the check wants in words
    (said when it fails) and whether the message needs it."""

    name: str
    check: Callable[[object], bool]
    describe: str
    required: bool = True


#: Game actions: each with its own fields (docs/PROTOCOL.md, section 4).
GAME_ACTIONS: Final[dict[str, tuple[Field, ...]]] = {
    "roll": (),
    "double": (),
    "take": (),
    "drop": (),
    "beaver": (),
    "play": (
        # An empty or unreadable play is a play all the same: the rules refuse it (illegal_play).
        Field(
            "play", _text(200, empty=True), N_("a string of at most 200 characters"), required=False
        ),
        Field(
            "moves",
            _move_list,
            N_("a list of 1-8 moves, each [from, to] with points 0-25"),
            required=False,
        ),
    ),
    "choose_double": (Field("number", _int_range(1, 6), N_("a number from 1 to 6")),),
    "resign": (Field("value", _int_range(1, 3), N_("1 (single), 2 (gammon) or 3 (backgammon)")),),
    "accept_resignation": (),
    "reject_resignation": (),
}

_CHAT: Final = (Field("text", _text(500), N_("a string of 1-500 characters")),)
_USER: Final = Field("user", _text(40), N_("a user name"))
_REASON: Final = Field("reason", _text(500), N_("a string of 1-500 characters"), required=False)
_COMMON: Final = {
    "chat": _CHAT,
    "ping": (),
    # Personal: hide (or show again) a user's chat messages from oneself.
    "mute": (_USER,),
    "unmute": (_USER,),
    "report": (_USER, _REASON),
    # Operators only (R13).
    "kick": (_USER, _REASON),
    "ban": (
        _USER,
        _REASON,
        Field("minutes", _int_range(1, 60 * 24 * 365), N_("minutes, 1 to 525600"), required=False),
    ),
    "unban": (_USER,),
}

#: Everything a client may send on a table's WebSocket.
TABLE_MESSAGES: Final[dict[str, tuple[Field, ...]]] = {
    **GAME_ACTIONS,
    "join": (),
    "cancel": (),
    "forfeit": (),
    # Practice (gammon.server.practice, docs/PROTOCOL.md 4.5): hints, the tutor, take-backs.
    "hint": (Field("ply", _int_range(0, 2), N_("a search depth: 0, 1 or 2"), required=False),),
    "tutor": (Field("on", lambda value: isinstance(value, bool), N_("true or false")),),
    "keep": (),
    "take_back": (),
    # Opt-in protocol features (docs/PROTOCOL.md 2.2); names the server does not know are ignored.
    "hello": (Field("features", _features, N_("a list of at most 16 feature names")),),
    **_COMMON,
}
#: The most tables one page of the lobby holds (docs/PROTOCOL.md 7).
LOBBY_PAGE_MAX: Final = 200


def _rating_range(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(_is_number(bound) and 0 <= bound <= 10_000 for bound in value)
        and value[0] <= value[1]
    )


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_VARIANT_NAMES: Final = frozenset(variant.name for variant in VARIANTS)

#: Which of the lobby's tables a socket sees, a page at a time (gammon.server.lobby).
_LOBBY_VIEW: Final = (
    Field(
        "status",
        lambda value: value in ("open", "playing", "all"),
        N_("'open', 'playing' or 'all'"),
        required=False,
    ),
    Field("length", _int_range(1, 64), N_("a match length from 1 to 64"), required=False),
    Field(
        "variant",
        lambda value: value in _VARIANT_NAMES,
        N_("a variant's name (GET /api/info)"),
        required=False,
    ),
    Field("rated", lambda value: isinstance(value, bool), N_("true or false"), required=False),
    Field(
        "rating",
        _rating_range,
        N_("[lowest, highest], two ratings from 0 to 10000, the lowest first"),
        required=False,
    ),
    Field("page", _int_range(0, 1_000_000), N_("a page number from 0"), required=False),
    Field("size", _int_range(1, LOBBY_PAGE_MAX), N_("a page size from 1 to 200"), required=False),
)

#: Everything a client may send on the lobby WebSocket.
LOBBY_MESSAGES: Final[dict[str, tuple[Field, ...]]] = {**_COMMON, "lobby_view": _LOBBY_VIEW}
#: Everything a client may send on a tournament's WebSocket (its chat, docs/PROTOCOL.md 6.1).
TOURNAMENT_MESSAGES: Final[dict[str, tuple[Field, ...]]] = dict(_COMMON)
