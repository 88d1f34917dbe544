"""The one place where a table's JSON becomes values and back (docs/PROTOCOL.md 3, 4).

The table (:class:`~gammon.server.table.Table`) takes the rules' actions
(:mod:`gammon.actions`) and its own (:mod:`gammon.server.table_actions`) and keeps its
status and result as values; the sockets, the action log, the nodes' records and the
views meet JSON. This module reads an action as the log and the nodes carry it
(:func:`action_from_json`, refusing what no table does with the protocol's
:class:`~gammon.server.protocol.Refused`) and writes it back exactly as the log has
always stored it (:func:`action_json`), so old logs replay and the wire is unchanged.

>>> from gammon.actions import PlayDice, Roll
>>> action_from_json({"type": "roll"}, 1)
Roll(side=1)
>>> action_from_json({"type": "play", "moves": [[24, 18], [13, 11]]}, 0)
PlayDice(side=0, play='24/18 13/11')
>>> action_json(PlayDice(0, "24/18 13/11"))
{'type': 'play', 'play': '24/18 13/11'}
>>> action_json(action_from_json({"type": "timeout", "side": 1}, 1))
{'type': 'timeout', 'side': 1}
>>> action_from_json({"type": "castle"}, 0)
Traceback (most recent call last):
...
gammon.server.protocol.Refused: unknown_type: unknown action 'castle'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from gammon.actions import ACTION_NAMES, Action, OutOfTime, action_arguments, action_from_name
from gammon.errors import IllegalActionError
from gammon.events import GameResult
from gammon.messages import Message
from gammon.server.protocol import STATUS_WORDS, Refused, moves_notation
from gammon.server.table_actions import (
    Cancel,
    LastAction,
    NoShow,
    Seat,
    SeriesAction,
    Start,
    TableAction,
    TableResult,
    TableStatus,
    TakeBack,
    Unseated,
)

__all__ = [
    "action_from_json",
    "action_json",
    "last_json",
    "result_json",
    "seat_from_json",
    "seat_json",
    "status_words",
    "table_result_from_json",
    "table_result_json",
]


def seat_json(seat: Seat) -> dict[str, Any]:
    return {"user": seat.user_id, "name": seat.name, "bot": seat.bot}


def seat_from_json(data: Mapping[str, Any]) -> Seat:
    return Seat(data.get("user"), str(data["name"]), data.get("bot"))


#: The table's own actions read from JSON, by the protocol's name.
_TABLE_ACTIONS: Final[dict[str, Callable[[Mapping[str, Any]], TableAction]]] = {
    Start.name: lambda data: Start(tuple(seat_from_json(s) for s in data["seats"])),
    Cancel.name: lambda data: Cancel(),
    NoShow.name: lambda data: NoShow(),
    TakeBack.name: lambda data: TakeBack(),
}


def action_from_json(data: Mapping[str, Any], side: int | None) -> TableAction | SeriesAction:
    """The action ``data`` (``{"type": ...}``, as a client's checked message, the log or a
    node's record carries it) sent by ``side`` (None: the server, or nobody's side).

    An action of the series is the rules library's value for ``side``; its arguments are
    the message's fields (``moves`` given as pairs become the play's notation), and its
    ``side`` field, which only the log's ``timeout`` carries, is the sender's. With no side
    it is :class:`Unseated`, which the table refuses as its status and turn say. Raises
    :class:`Refused` ``unknown_type`` for a type no table knows.
    """
    kind = data["type"]
    table_action = _TABLE_ACTIONS.get(kind)
    if table_action is not None:
        return table_action(data)
    if kind not in ACTION_NAMES:
        raise Refused("unknown_type", Message("unknown action {action}", action=repr(kind)))
    if side is None:
        return Unseated(kind)
    arguments = {k: v for k, v in data.items() if k not in ("type", "side")}
    if "moves" in arguments:
        arguments["play"] = moves_notation(arguments.pop("moves"))
    try:
        return action_from_name(kind, side, **arguments)
    except IllegalActionError as exc:  # pragma: no cover - the protocol checked the fields
        raise Refused.of("bad_message", exc) from None


def action_json(action: TableAction | SeriesAction) -> dict[str, Any]:
    """An action as the log stores it and the nodes' records carry it: the inverse of
    :func:`action_from_json` (a play by its notation; a loss on time names its side)."""
    if isinstance(action, Start):
        return {"type": Start.name, "seats": [seat_json(seat) for seat in action.seats]}
    if isinstance(action, (Cancel, NoShow, TakeBack, Unseated)):
        return {"type": action.name}
    return _series_json(action)


def _series_json(action: Action) -> dict[str, Any]:
    if isinstance(action, OutOfTime):
        return {"type": OutOfTime.name, "side": action.side}
    return {"type": action.name, **action_arguments(action)}


def result_json(result: GameResult | None) -> dict[str, Any] | None:
    """A game's result as the protocol writes it (docs/PROTOCOL.md 3)."""
    if result is None:
        return None
    return {
        "winner": result.winner,
        "points": result.points,
        "kind": result.kind.name.lower(),
        "reason": str(result.reason),
    }


def table_result_json(result: TableResult | None) -> dict[str, Any] | None:
    """A table's result as the protocol writes it and the ``tables`` row keeps it."""
    if result is None:
        return None
    return {"winner": result.winner, "reason": result.reason, "score": list(result.score)}


def table_result_from_json(data: Mapping[str, Any]) -> TableResult:
    score: Sequence[int] = data["score"]
    return TableResult(data["winner"], str(data["reason"]), (score[0], score[1]))


def status_words(status: TableStatus) -> Message:
    """The table's status in words (``the table is {status}``)."""
    return Message(STATUS_WORDS.get(status, status))


def last_json(last: LastAction | None) -> dict[str, Any] | None:
    """The table's last action as the state's ``last`` (docs/PROTOCOL.md 3)."""
    if last is None:
        return None
    record = action_json(last.action)
    kind = record.pop("type")
    return {
        "seq": last.seq,
        "side": last.side,
        "type": kind,
        **record,
        "game": last.game,
        "events": list(last.events),
    }
