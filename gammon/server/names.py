"""The one rule for the names people give: accounts', tournaments', and the account a table
invites (docs/PROTOCOL.md 1.2: tables have no name of their own, only their players').

A name is text; **control characters are refused, never removed**: the C0 and C1 controls
(tab, newline, NUL, BEL, ESC... and DEL), the line and paragraph separators, and the
invisible format characters (zero-width spaces and joiners, the bidirectional overrides
that turn a name's letters around on screen). Whatever kind of name it is, the same
characters are refused with the same message, so no name can ring a terminal's bell, move
its cursor or pretend to be another. Spaces (any of Unicode's) at either end are trimmed
and a run of them inside becomes one plain space. Each kind then has its own alphabet and
length on top (an account's name is ASCII letters, digits, ``_`` and ``-``:
:func:`gammon.server.auth.check_name`).

>>> read_name("  Friday   eight ", low=1, high=60)
'Friday eight'
>>> read_name("Cup\\x07", low=1, high=60)
Traceback (most recent call last):
  ...
gammon.server.names.BadName: must not hold control characters (it holds U+0007)
"""

from __future__ import annotations

import unicodedata
from typing import Final

from gammon.errors import GammonError
from gammon.messages import Message

__all__ = ["BadName", "read_name"]

#: Unicode's categories of the characters refused: controls, format characters, and the
#: line and paragraph separators.
REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp"})


class BadName(GammonError, ValueError):
    """A name that breaks the rule; the message says how, in words, for the player (a
    :class:`~gammon.messages.Message`, to be written in the player's language)."""


def read_name(value: object, *, low: int, high: int) -> str:
    """``value`` as a name of ``low`` to ``high`` characters once tidied, or :class:`BadName`."""
    if not isinstance(value, str):
        raise BadName(Message("must be text, {low} to {high} characters", low=low, high=high))
    for char in value:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            code = f"U+{ord(char):04X}"
            raise BadName(Message("must not hold control characters (it holds {code})", code=code))
    name = " ".join(value.split())  # what is left of white space: spaces (Zs)
    if not low <= len(name) <= high:
        raise BadName(
            Message(
                "must be {low} to {high} characters, not {count}",
                low=low,
                high=high,
                count=len(name),
            )
        )
    return name
