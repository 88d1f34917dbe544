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

from collections.abc import Collection, Mapping
from typing import Any, Final

from gammon.i18n import N_
from gammon.messages import Message
from gammon.server.protocol import Refused

__all__ = ["ANY", "fields", "first_unknown"]

#: A field whose value the route checks itself (a name, a password: their own errors).
ANY: Final = object

_WORDS: Final[dict[type, str]] = {
    str: N_("text"),
    bool: N_("true or false"),
    int: N_("a whole number"),
}


def first_unknown(data: Mapping[Any, Any], known: Collection[str]) -> str | None:
    """The first of ``data``'s fields that ``known`` does not name, in sorted order so that
    the refusal is the same whatever order the body came in; None when all are known.

    The one test behind every settings object's refusal of a field it does not know (a
    table's, its clock's, a tournament's, a tournament's tables'): each says it in its
    own words."""
    unknown = sorted(str(name) for name in data if name not in known)
    return unknown[0] if unknown else None


def fields(data: Mapping[str, Any], takes: Mapping[str, type]) -> dict[str, Any]:
    """``data``'s fields that are set (not ``null``), once each is one ``takes`` names, of
    the type it gives; :class:`Refused` ``bad_request`` with ``field`` otherwise."""
    for name in data:
        if name not in takes:
            quoted = repr(name[:40])
            raise Refused(
                "bad_request",
                Message(
                    "there is no field {field} in this request; it takes: {fields}",
                    field=quoted,
                    fields=", ".join(takes),
                )
                if takes
                else Message(
                    "there is no field {field} in this request; it takes none", field=quoted
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
            quoted = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."
            raise Refused(
                "bad_request",
                Message(
                    "{field} must be {what}, not {value}",
                    field=repr(name),
                    what=Message(_WORDS[kind]) if kind in _WORDS else Message.plain(kind.__name__),
                    value=quoted,
                ),
                field=name,
            )
    return given
