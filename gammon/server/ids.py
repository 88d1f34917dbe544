"""Ids in request paths (``/api/tables/{id}``, ``/ws/tournaments/{id}``...), read in one place.

A table's, a tournament's id is a whole number from 1 to :data:`MAX_ID` (the database's
integer ids). Anything else in its place (``abc``, ``-1``, ``1.5``, a number past the
database's range) names nothing, so it answers as an id that does not exist would:
``404 no_such_table`` or ``404 no_such_tournament``, with the reason in the message
(docs/PROTOCOL.md 1). Reading the id here, not with the router's ``:int``, keeps such a
path inside the API's routes and its JSON errors instead of falling through to the
static files' plain-text 404 and 405.

>>> path_id("12", "table")
12
>>> path_id("abc", "tournament")
Traceback (most recent call last):
  ...
gammon.server.protocol.Refused: no_such_tournament: there is no tournament 'abc': a \
tournament's id is a whole number from 1
"""

from __future__ import annotations

from typing import Final, Literal

from gammon.messages import Message
from gammon.server.protocol import Refused

__all__ = ["MAX_ID", "Kind", "path_id"]

#: The largest id the database holds (a 32-bit signed integer column).
MAX_ID: Final = 2**31 - 1

Kind = Literal["table", "tournament"]


def path_id(text: str, kind: Kind) -> int:
    """``text`` (a path segment) as the id of a ``kind``; :class:`Refused` ``no_such_KIND``
    if it cannot be one."""
    if text.isascii() and text.isdigit() and len(text) <= len(str(MAX_ID)):
        number = int(text)
        if 1 <= number <= MAX_ID:
            return number
    shown = repr(text[:40])
    message = (
        Message("there is no table {id}: a table's id is a whole number from 1", id=shown)
        if kind == "table"
        else Message(
            "there is no tournament {id}: a tournament's id is a whole number from 1", id=shown
        )
    )
    raise Refused(f"no_such_{kind}", message)
