"""The fields of a request body, checked against what the route takes (docs/PROTOCOL.md).

Every route that reads a JSON body says which fields it takes and of what type; a field
it does not know is refused whatever its value, ``null`` included (most likely a typo:
the protocol's preamble), and a field of the wrong type is refused naming it, rather
than dropped. A known field sent as ``null`` is read as if it had been left out.
Settings objects (a table's, a tournament's) have their own checks, field by field, in
:mod:`gammon.server.settings` and :mod:`gammon.server.tournaments.settings`.

>>> fields({"reason": "rain", "other": None}, {"reason": str})
Traceback (most recent call last):
  ...
gammon.server.protocol.Refused: bad_request: there is no field 'other' in this request; \
it takes: reason
>>> fields({"reason": 5}, {"reason": str})
Traceback (most recent call last):
  ...
gammon.server.protocol.Refused: bad_request: 'reason' must be text, not 5
>>> fields({"reason": None}, {"reason": str})
{}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from gammon.i18n import N_
from gammon.messages import Message
from gammon.server.protocol import Refused

__all__ = ["ANY", "fields"]

#: A field whose value the route checks itself (a name, a password: their own errors).
ANY: Final = object

_WORDS: Final[dict[type, str]] = {
    str: N_("text"),
    bool: N_("true or false"),
    int: N_("a whole number"),
}


def fields(data: Mapping[str, Any], takes: Mapping[str, type]) -> dict[str, Any]:
    """``data``'s fields that are set (not ``null``), once each is one ``takes`` names, of
    the type it gives; :class:`Refused` ``bad_request`` with ``field`` otherwise."""
    for name in data:
        if name not in takes:
            shown = repr(name[:40])
            raise Refused(
                "bad_request",
                Message(
                    "there is no field {field} in this request; it takes: {fields}",
                    field=shown,
                    fields=", ".join(takes),
                )
                if takes
                else Message(
                    "there is no field {field} in this request; it takes none", field=shown
                ),
                field=name[:64],
            )
    given = {name: value for name, value in data.items() if value is not None}
    for name, value in given.items():
        kind = takes[name]
        if kind is ANY:
            continue
        wrong = isinstance(value, bool) and kind is not bool  # JSON's true is not a number
        if wrong or not isinstance(value, kind):
            shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."
            raise Refused(
                "bad_request",
                Message(
                    "{field} must be {what}, not {value}",
                    field=repr(name),
                    what=Message(_WORDS[kind]) if kind in _WORDS else Message.plain(kind.__name__),
                    value=shown,
                ),
                field=name,
            )
    return given
