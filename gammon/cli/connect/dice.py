"""The dice check of DICE.md, written from the document alone (not from the server's code).

When a table ends the client fetches each game's record and checks that the
revealed seed matches the commitment shown before the game, that every roll
follows from the seed and its entropy, and that the entropy we sent was used.

>>> derive_dice(bytes(range(32)), 1, [bytes.fromhex("00112233445566778899aabbccddeeff"),
...                                  bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")])
(1, 4)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any

from gammon.errors import GammonError

__all__ = ["DiceRecordError", "check_record", "derive_dice"]

_LABEL = b"gammon-fair-dice/1\x00"
_FAIR_FORMAT = "gammon-fair-dice/1"


class DiceRecordError(GammonError, ValueError):
    """A fair-dice record that does not prove its rolls (DICE.md)."""


def derive_dice(seed: bytes, index: int, entropy: Sequence[bytes]) -> tuple[int, int]:
    """The dice of roll ``index`` (from 1) from the seed and that roll's contributions.

    DICE.md's vectors: no entropy gives 3-6; roll 69 skips a byte of 252.

    >>> seed = bytes(range(32))
    >>> a = bytes.fromhex("00112233445566778899aabbccddeeff")
    >>> b = bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")
    >>> derive_dice(seed, 1, []), derive_dice(seed, 69, [b, a]), derive_dice(seed, 83, [])
    ((3, 6), (1, 1), (2, 4))
    """
    hashes = sorted(hashlib.sha256(e).digest() for e in entropy)
    message = _LABEL + index.to_bytes(4, "big") + len(hashes).to_bytes(4, "big") + b"".join(hashes)
    dice: list[int] = []
    block = 0
    while len(dice) < 2:
        stream = hmac.new(seed, message + block.to_bytes(4, "big"), hashlib.sha256).digest()
        dice += [b % 6 + 1 for b in stream if b < 252][: 2 - len(dice)]
        block += 1
    return dice[0], dice[1]


def _hex(value: object, what: str, size: int | None = None) -> bytes:
    if not isinstance(value, str):
        raise DiceRecordError(f"{what} is not a hex string")
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise DiceRecordError(f"{what} is not hex: {value!r}") from None
    if size is not None and len(raw) != size:
        raise DiceRecordError(f"{what} is {len(raw)} bytes, not {size}")
    return raw


def check_record(
    record: Any,
    *,
    commitment: str | None = None,
    sent: Sequence[str] = (),
    only_ours: bool = False,
) -> int:
    """Check one game's record (DICE.md); returns how many rolls it proves.

    ``commitment`` is the one the state showed before the game's rolls; ``sent``
    the entropy (hex) we sent with accepted actions in that game, in order: each
    must be in the record, in order, except those after the game's last roll.
    ``only_ours``: a game against the bot holds no contribution but ours.

    >>> seed = bytes(range(32))
    >>> a = "00112233445566778899aabbccddeeff"
    >>> record = {"format": "gammon-fair-dice/1", "seed": seed.hex(),
    ...           "commitment": hashlib.sha256(seed).hexdigest(),
    ...           "rolls": [{"index": 1, "entropy": [a], "dice": [2, 6]}]}
    >>> check_record(record, sent=[a], only_ours=True)
    1
    >>> record["rolls"][0]["dice"] = [6, 2]
    >>> check_record(record)
    Traceback (most recent call last):
    ...
    gammon.cli.connect.dice.DiceRecordError: roll 1 is 6-2 but the seed and its entropy give 2-6
    """
    seed = _checked_seed(record, commitment)
    rolls = record.get("rolls")
    if not isinstance(rolls, list):
        raise DiceRecordError("the record has no list of rolls")
    first_use: dict[str, int] = {}
    for number, roll in enumerate(rolls, 1):
        for e in _checked_roll(seed, number, roll):
            first_use.setdefault(str(e).lower(), number)
    _check_our_entropy(first_use, [e.lower() for e in sent], only_ours)
    return len(rolls)


def _checked_seed(record: Any, commitment: str | None) -> bytes:
    """The record's seed, once it is the format's and its SHA-256 is the commitment
    published (and the one shown before the game, when that is known)."""
    if not isinstance(record, dict) or record.get("format") != _FAIR_FORMAT:
        raise DiceRecordError(f"the record is not in the {_FAIR_FORMAT} format")
    seed = _hex(record.get("seed"), "the seed", 32)
    published = str(record.get("commitment", "")).lower()
    if hashlib.sha256(seed).hexdigest() != published:
        raise DiceRecordError("the seed's SHA-256 is not the record's commitment")
    if commitment is not None and commitment.lower() != published:
        raise DiceRecordError(
            f"the record's commitment {published} is not the one shown before the game "
            f"({commitment})"
        )
    return seed


def _checked_roll(seed: bytes, number: int, roll: Any) -> list[Any]:
    """Roll ``number``'s entropy, once its dice are those the seed and that entropy give."""
    if not isinstance(roll, dict) or roll.get("index") != number:
        raise DiceRecordError(f"roll {number} is missing (rolls are numbered 1, 2, ...)")
    entropy = roll.get("entropy")
    if not isinstance(entropy, list):
        raise DiceRecordError(f"roll {number} has no list of entropy")
    raw = [_hex(e, f"an entropy contribution of roll {number}") for e in entropy]
    expected = derive_dice(seed, number, raw)
    dice = roll.get("dice")
    if not isinstance(dice, list) or tuple(dice) != expected:
        shown = "-".join(map(str, dice)) if isinstance(dice, list) else repr(dice)
        raise DiceRecordError(
            f"roll {number} is {shown} but the seed and its entropy give "
            f"{expected[0]}-{expected[1]}"
        )
    return entropy


def _check_our_entropy(first_use: dict[str, int], ours: list[str], only_ours: bool) -> None:
    """Each entropy we sent is used, in the order we sent it, but for those after the
    game's last roll; with ``only_ours`` no roll uses anyone else's."""
    if only_ours:
        strangers = sorted(set(first_use) - set(ours))
        if strangers:
            raise DiceRecordError(
                f"roll {first_use[strangers[0]]} used entropy we did not send ({strangers[0]})"
            )
    last = 0
    missing: str | None = None
    for e in ours:
        used = first_use.get(e)
        if used is None:
            missing = missing or e
        elif missing is not None:
            raise DiceRecordError(f"our entropy {missing} is missing though later entropy was used")
        elif used < last:
            raise DiceRecordError(f"our entropy {e} was used before entropy we sent earlier")
        else:
            last = used
