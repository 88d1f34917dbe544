"""The game as the server writes it (docs/PROTOCOL.md 3, 5): boards, legal plays and
game-log entries as JSON values, and a log entry's words again in a reader's language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Final

from gammon.events import EVENT_KINDS, EndReason, Event, GameResult, PassReason, WinKind, describe
from gammon.i18n import translator
from gammon.ids import position_id_of_board
from gammon.play import Move, Play
from gammon.position import Position

__all__ = [
    "board_json",
    "event_json",
    "log_entry_in",
    "moves_json",
    "play_json",
    "position_id",
    "taken_back_text",
]


def position_id(position: Position) -> str | None:
    """The Position ID, or None while acey-deucey checkers wait to enter (no ID holds them).

    >>> position_id(Position.initial()) == Position.initial().id
    True
    """
    return None if position.waiting != (0, 0) else position_id_of_board(position.raw)


def board_json(position: Position, side: int) -> dict[str, Any]:
    """A board as docs/PROTOCOL.md shows it: ``position`` is already from ``side``'s view.

    >>> board = board_json(Position.initial(), 1)
    >>> board["mine"][5], board["off"], board["pips"]
    (5, [0, 0], [167, 167])
    """
    return {
        "side": side,
        "mine": list(position.mine),
        "theirs": list(position.theirs),
        "off": list(position.off),
        "waiting": list(position.waiting),
        "pips": list(position.pips()),
    }


def play_json(play: Play, side: int) -> dict[str, Any]:
    """One legal play of ``side`` (on roll) as ``legal_plays`` lists it (docs/PROTOCOL.md 3).

    >>> entry = play_json(Position.initial().parse_play("8/5 6/5", (3, 1)), 0)
    >>> entry["play"], entry["moves"], entry["board"]["pips"]
    ('8/5 6/5', [[8, 5, False], [6, 5, False]], [163, 167])
    """
    after = play.position
    return {
        "play": str(play),
        "moves": [[move.source, move.target, move.hit] for move in play.moves],
        "position_id": position_id(after),
        "board": board_json(after, side),
    }


def moves_json(moves: Sequence[Move]) -> list[list[Any]]:
    return [[move.source, move.target, move.hit] for move in moves]


def event_json(event: Event, names: Sequence[str]) -> dict[str, Any]:
    """One game-log entry: the event's kind and fields, and its words for ``names``' players.

    >>> from gammon.events import Rolled
    >>> event_json(Rolled(1, (6, 4)), ["alice", "bob"])
    {'type': 'rolled', 'side': 1, 'dice': [6, 4], 'text': 'bob rolls 6-4'}
    """
    entry: dict[str, Any] = {"type": event.kind}
    for name in _field_names(event):
        value = getattr(event, name)
        if isinstance(value, GameResult):
            entry.update(
                winner=value.winner,
                points=value.points,
                kind=value.kind.name.lower(),
                reason=str(value.reason),
            )
        elif name == "moves":
            entry["moves"] = moves_json(value)
        elif isinstance(value, tuple):
            entry[name] = list(value)
        elif isinstance(value, StrEnum):
            entry[name] = str(value)
        else:
            entry[name] = value
    entry["text"] = describe(event, names)
    return entry


def taken_back_text(player: str, play: str, lang: str = "en") -> str:
    """The log's words for a play taken back in practice (the entry ``taken_back``)."""
    return translator(lang).gettext("{player} takes back {play}", player=player, play=play)


def log_entry_in(entry: Mapping[str, Any], names: Sequence[str], lang: str) -> dict[str, Any]:
    """A game-log entry of :func:`event_json` with its ``text`` in ``lang``: the event is
    read back from the entry's fields and described again (an entry that cannot be read
    keeps its English).

    >>> from gammon.events import Doubled
    >>> entry = event_json(Doubled(0, 2), ["anna", "ben"])
    >>> log_entry_in(entry, ["anna", "ben"], "fi")["text"]
    'anna tuplaa arvoon 2'
    """
    if lang == "en":
        return dict(entry)
    kind = entry.get("type")
    try:
        if kind == "taken_back":
            text = taken_back_text(names[entry["side"]], entry["play"], lang)
        else:
            text = describe(_event_of(entry), names, lang)
    except (KeyError, TypeError, ValueError, IndexError):
        text = entry.get("text", "")
    return {**entry, "text": text}


def _event_of(entry: Mapping[str, Any]) -> Event:
    """The event an :func:`event_json` entry was written from."""
    cls = EVENT_KINDS[entry["type"]]
    values: dict[str, Any] = {}
    for name in _field_names(cls):
        if name == "result":
            values[name] = GameResult(
                entry["winner"],
                entry["points"],
                WinKind[entry["kind"].upper()],
                EndReason(entry["reason"]),
            )
        elif name == "moves":
            values[name] = ()  # describe() writes the play's notation, not its moves
        elif name == "reason":
            values[name] = PassReason(entry[name])
        elif name == "dice":
            values[name] = tuple(entry[name])
        else:
            values[name] = entry[name]
    return cls(**values)


def _field_names(event: Event | type[Event]) -> tuple[str, ...]:
    """The event's fields in order, found once for each kind of event
    (``dataclasses.fields`` costs more than a lookup, and most actions log an event or two)."""
    kind: type[Event] = event if isinstance(event, type) else type(event)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(part.name for part in dataclasses.fields(event))
    return names


_FIELD_NAMES: Final[dict[type, tuple[str, ...]]] = {}
