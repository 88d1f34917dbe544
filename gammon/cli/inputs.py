"""Positions and dice as people type them on the command line.

A position is a GNU Position ID (``Position ID:`` prefix allowed, and a Match ID
after a colon), an XGID or ``start``; dice are ``31``, ``3-1``, ``3,1`` or ``3 1``
(read by :mod:`gammon.written`, which the server's analysis board reads them with too).
Here: what only the command line needs, argparse's types.
"""

from __future__ import annotations

import argparse

from gammon.errors import GammonError
from gammon.variants import Variant, find_variant
from gammon.written import (
    ID_PREFIX,
    GivenPosition,
    id_or_none,
    parse_dice,
    read_given,
    read_position,
)

__all__ = [
    "ID_PREFIX",
    "GivenPosition",
    "id_or_none",
    "match_length_arg",
    "parse_dice",
    "read_given",
    "read_position",
    "variant_arg",
]


def variant_arg(name: str) -> Variant:
    """argparse type for ``--variant``."""
    try:
        return find_variant(name)
    except GammonError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def match_length_arg(text: str) -> int:
    """argparse type for ``--match``: the lengths a Match ID can hold."""
    if not text.isdigit() or not 1 <= int(text) <= 32767:
        raise argparse.ArgumentTypeError(f"a match is 1 to 32767 points, got {text!r}")
    return int(text)


