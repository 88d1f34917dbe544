"""Provably fair dice (R13): rolls that every player can check after the game.

Before the first roll the server publishes the :attr:`FairDice.commitment`, the
SHA-256 of a secret 32-byte seed. Each roll mixes that seed with the entropy the
human players sent with their last actions, through HMAC-SHA256, so the server
cannot steer a roll (its seed was fixed before it saw the entropy) and no player
can predict one (they do not know the seed). After the game the seed is revealed
and :func:`verify_record` recomputes every roll. ``DICE.md`` describes the
scheme for players, with the exact byte layout and a worked example.

Roll number ``k`` (counting from 1) with entropy contributions ``e_1 .. e_n``::

    M_k     = "gammon-fair-dice/1" || 0x00 || u32be(k) || u32be(n) || sorted(SHA-256(e_i))
    block_j = HMAC-SHA256(key=seed, message=M_k || u32be(j))     for j = 0, 1, 2, ...

The blocks are read as one byte stream; bytes of 252 and above are skipped (so
that every die is uniform) and the first two kept bytes ``b`` give the dice
``b % 6 + 1``. The opening roll (R3) is an ordinary roll: the game reads it as
(die of side 0, die of side 1) and rolls again on a tie.

>>> dice = FairDice(bytes(range(32)))
>>> dice.commitment
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> dice.roll([bytes.fromhex("00112233445566778899aabbccddeeff"),
...            bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")])
(1, 4)
>>> report = verify_record(dice.record())
>>> report.ok, len(report.rolls)
(True, 1)

A game record (what :meth:`FairDice.record` returns and ``gammon verify``
reads) is a JSON object::

    {"format": "gammon-fair-dice/1",
     "commitment": "<64 hex digits: SHA-256 of the seed>",
     "seed": "<64 hex digits>",
     "rolls": [{"index": 1, "entropy": ["<hex>", ...], "dice": [1, 4]}, ...],
     "game": {...}, "table": ...}

``game`` and ``table`` are optional and free-form, for people to read; never checked.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from gammon.errors import GammonError
from gammon.position import Dice

__all__ = [
    "FORMAT",
    "MAX_ENTROPY_BYTES",
    "SEED_BYTES",
    "FairDice",
    "FairDiceError",
    "FairDiceSource",
    "RollRecord",
    "VerificationReport",
    "VerifiedRoll",
    "commitment_of",
    "derive_dice",
    "roll_block",
    "roll_message",
    "verify_record",
    "verify_rolls",
]

#: The record format and the label every roll message starts with.
FORMAT: Final = "gammon-fair-dice/1"
#: The length of the server's secret seed.
SEED_BYTES: Final = 32
#: The longest entropy contribution accepted from one player for one roll.
MAX_ENTROPY_BYTES: Final = 64

_LABEL: Final = FORMAT.encode("ascii") + b"\x00"
_REJECT_FROM: Final = 252  # 252 = 6 * 42: bytes below it fall evenly on the six faces
_MAX_BLOCKS: Final = 1 << 16  # never reached: 31 rejected bytes in a row has odds 2^-126
_U32: Final = 1 << 32
_HEX: Final = re.compile(r"(?:[0-9a-fA-F]{2})*")


class FairDiceError(GammonError, ValueError):
    """A seed, entropy contribution or game record that is malformed or does not verify."""


def _u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


def _check_seed(seed: bytes) -> bytes:
    if not isinstance(seed, bytes | bytearray):
        raise FairDiceError(f"the seed must be bytes, got {type(seed).__name__}")
    if len(seed) != SEED_BYTES:
        raise FairDiceError(f"the seed must be {SEED_BYTES} bytes long, got {len(seed)}")
    return bytes(seed)


def _check_entropy(entropy: Sequence[bytes]) -> tuple[bytes, ...]:
    if isinstance(entropy, bytes | bytearray | str):
        raise FairDiceError(
            "entropy must be a sequence of contributions (one bytes object per player), "
            "not a single bytes or str object"
        )
    checked = []
    for number, part in enumerate(entropy, 1):
        if not isinstance(part, bytes | bytearray):
            raise FairDiceError(
                f"entropy contribution {number} must be bytes, got {type(part).__name__}"
            )
        if not 1 <= len(part) <= MAX_ENTROPY_BYTES:
            raise FairDiceError(
                f"entropy contribution {number} must be 1 to {MAX_ENTROPY_BYTES} bytes long, "
                f"got {len(part)}"
            )
        checked.append(bytes(part))
    if len(checked) >= _U32:  # pragma: no cover - would not fit in memory anyway
        raise FairDiceError("too many entropy contributions")
    return tuple(checked)


def commitment_of(seed: bytes) -> str:
    """The commitment published before the first roll: SHA-256 of the seed, in hex.

    >>> commitment_of(bytes(32))
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(_check_seed(seed)).hexdigest()


def roll_message(index: int, entropy: Sequence[bytes]) -> bytes:
    """``M_k``: what the seed authenticates for roll ``index``, entropy order aside.

    The contributions are hashed and the hashes sorted, so the order the server
    received them in cannot change the roll.

    >>> roll_message(1, []).hex()
    '67616d6d6f6e2d666169722d646963652f31000000000100000000'
    """
    if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index < _U32:
        raise FairDiceError(
            f"a roll index must be a whole number from 1 to {_U32 - 1}, got {index!r}"
        )
    return _message(index, _check_entropy(entropy))


def _message(index: int, entropy: Sequence[bytes]) -> bytes:
    """:func:`roll_message` of an index and contributions already checked."""
    hashes = sorted(hashlib.sha256(part).digest() for part in entropy)
    return b"".join([_LABEL, _u32(index), _u32(len(hashes)), *hashes])


def roll_block(seed: bytes, index: int, entropy: Sequence[bytes], block: int = 0) -> bytes:
    """Block ``j`` of roll ``index``'s byte stream: HMAC-SHA256(seed, M_k || u32be(j)).

    >>> roll_block(bytes(32), 1, []).hex()[:16]
    '5e7c325069b93c6a'
    """
    if not 0 <= block < _MAX_BLOCKS:
        raise FairDiceError(f"a block number must be from 0 to {_MAX_BLOCKS - 1}, got {block}")
    message = roll_message(index, entropy) + _u32(block)
    return hmac.new(_check_seed(seed), message, hashlib.sha256).digest()


def _dice_of(seed: bytes, message: bytes) -> Dice:
    """:func:`derive_dice` for a checked seed and a roll's message: the stream's blocks read
    byte by byte in a plain loop (a roll is thrown on every turn of every game)."""
    first = 0
    for block in range(_MAX_BLOCKS):
        for byte in hmac.new(seed, message + _u32(block), hashlib.sha256).digest():
            if byte < _REJECT_FROM:
                if first:
                    return first, byte % 6 + 1
                first = byte % 6 + 1
    raise FairDiceError("the dice stream ran out")  # pragma: no cover - odds 2^-500000


def derive_dice(seed: bytes, index: int, entropy: Sequence[bytes]) -> Dice:
    """The dice of roll ``index``: the first two stream bytes below 252, each ``% 6 + 1``.

    This is the whole scheme; the browser's verification page mirrors it.

    >>> derive_dice(bytes(32), 1, [])
    (5, 5)
    """
    return _dice_of(_check_seed(seed), roll_message(index, entropy))


@dataclass(frozen=True)
class RollRecord:
    """One roll as the game record keeps it: its number, the entropy mixed in, the dice."""

    index: int
    entropy_hex: tuple[str, ...]
    dice: Dice

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used in game records."""
        return {"index": self.index, "entropy": list(self.entropy_hex), "dice": list(self.dice)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollRecord:
        """Read the JSON form back, checking its shape (not the dice: see :func:`verify_rolls`).

        >>> RollRecord.from_dict({"index": 1, "entropy": ["ab"], "dice": [6, 2]})
        RollRecord(index=1, entropy_hex=('ab',), dice=(6, 2))
        >>> RollRecord.from_dict({"index": 1, "entropy": ["xyz"], "dice": [6, 2]})
        Traceback (most recent call last):
        ...
        gammon.server.fairdice.FairDiceError: roll 1: entropy contribution 1 is not hex: 'xyz'
        """
        if not isinstance(data, Mapping):
            raise FairDiceError(f"a roll must be a JSON object, got {_json_type(data)}")
        missing = [key for key in ("index", "entropy", "dice") if key not in data]
        if missing:
            raise FairDiceError(f"a roll lacks {', '.join(repr(k) for k in missing)}: {data!r}")
        index = data["index"]
        if isinstance(index, bool) or not isinstance(index, int) or index < 1:
            raise FairDiceError(f"a roll index must be a whole number from 1, got {index!r}")
        entropy = data["entropy"]
        if not isinstance(entropy, list | tuple):
            raise FairDiceError(f"roll {index}: 'entropy' must be a list of hex strings")
        for number, part in enumerate(entropy, 1):
            if not isinstance(part, str) or _HEX.fullmatch(part) is None:
                raise FairDiceError(
                    f"roll {index}: entropy contribution {number} is not hex: {part!r}"
                )
        dice = data["dice"]
        if (
            not isinstance(dice, list | tuple)
            or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) for d in dice)
        ):
            raise FairDiceError(f"roll {index}: 'dice' must be two whole numbers, got {dice!r}")
        return cls(index, tuple(part.lower() for part in entropy), (dice[0], dice[1]))

    @property
    def entropy(self) -> tuple[bytes, ...]:
        """The contributions as bytes."""
        return tuple(bytes.fromhex(part) for part in self.entropy_hex)


class FairDice:
    """The server's dice for one game: a secret seed, committed to before the first roll.

    The seed never appears in ``repr`` and must not be shown before the game
    ends; :attr:`seed_hex` and :meth:`record` reveal it.

    >>> dice = FairDice(bytes(32))
    >>> dice
    FairDice(commitment='66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925', rolls=0)
    >>> dice.roll([]), dice.roll([b"player entropy"])
    ((5, 5), (4, 6))
    >>> dice.rolls[1]
    RollRecord(index=2, entropy_hex=('706c6179657220656e74726f7079',), dice=(4, 6))
    """

    __slots__ = ("_commitment", "_rolls", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = _check_seed(seed)
        self._commitment = hashlib.sha256(self._seed).hexdigest()
        self._rolls: list[RollRecord] = []

    @classmethod
    def new(cls) -> FairDice:
        """Dice with a fresh seed from the operating system's secure random source."""
        return cls(secrets.token_bytes(SEED_BYTES))

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed in hex: publish it before the first roll."""
        return self._commitment

    @property
    def seed_hex(self) -> str:
        """The secret seed in hex: reveal it only once the game is over."""
        return self._seed.hex()

    @property
    def rolls(self) -> tuple[RollRecord, ...]:
        """Every roll so far, in order (indexes 1, 2, ...)."""
        return tuple(self._rolls)

    def roll(self, entropy: Sequence[bytes]) -> Dice:
        """Throw the next roll, mixing in the players' entropy (any order, 1-64 bytes each)."""
        checked = _check_entropy(entropy)
        index = len(self._rolls) + 1
        dice = _dice_of(self._seed, _message(index, checked))
        self._rolls.append(RollRecord(index, tuple(part.hex() for part in checked), dice))
        return dice

    def record(
        self, *, game: Mapping[str, Any] | None = None, table: Any = None
    ) -> dict[str, Any]:
        """The game record players verify, seed included: publish it only after the game.

        ``game`` and ``table`` (JSON values) are copied in for people to read.
        """
        record: dict[str, Any] = {
            "format": FORMAT,
            "commitment": self._commitment,
            "seed": self.seed_hex,
            "rolls": [roll.to_dict() for roll in self._rolls],
        }
        if game is not None:
            record["game"] = dict(game)
        if table is not None:
            record["table"] = table
        return record

    def __repr__(self) -> str:
        return f"FairDice(commitment={self._commitment!r}, rolls={len(self._rolls)})"


class FairDiceSource:
    """A :class:`~gammon.dice.DiceSource` for a Game or Match, backed by :class:`FairDice`.

    The server hands it each human's entropy as it arrives (:meth:`add_entropy`);
    the next roll uses every contribution gathered since the previous roll. A
    roll that no new contribution arrived for (an opening tie thrown again in the
    same action, the bot's roll after the human's turn passed by itself) uses the
    previous roll's contributions again, so that no roll after the first
    contribution depends on the seed alone: a server could otherwise have
    searched for a seed whose entropy-free rolls suited it. :meth:`new_game`
    switches to fresh dice with a new commitment (one per game, so each game can
    be verified as soon as it ends) and forgets every contribution received so
    far: the server knew those before it chose the new seed, so they count only
    when sent after the players have seen the new commitment.

    A contribution that came with an action the rules refused must never be
    used (DICE.md): take a :meth:`checkpoint` before adding it and
    :meth:`rollback` to it when the action is refused.

    >>> source = FairDiceSource(FairDice(bytes(32)))
    >>> source.add_entropy(b"player entropy")
    >>> source.roll(), source.pending
    ((4, 3), ())
    >>> source.roll()  # no new entropy: roll 2 mixes in the same contribution
    (4, 6)
    >>> [roll.entropy_hex for roll in source.dice.rolls]
    [('706c6179657220656e74726f7079',), ('706c6179657220656e74726f7079',)]
    >>> saved = source.checkpoint()
    >>> source.add_entropy(b"refused with its action")
    >>> source.rollback(saved)
    >>> source.pending
    ()
    """

    __slots__ = ("_dice", "_last", "_pending")

    def __init__(self, dice: FairDice | None = None) -> None:
        self._dice = dice if dice is not None else FairDice.new()
        self._pending: list[bytes] = []
        self._last: tuple[bytes, ...] = ()

    @property
    def dice(self) -> FairDice:
        """The current game's dice."""
        return self._dice

    @property
    def pending(self) -> tuple[bytes, ...]:
        """Contributions waiting for the next roll."""
        return tuple(self._pending)

    @property
    def last(self) -> tuple[bytes, ...]:
        """The contributions the previous roll used (the next uses them again if none arrive)."""
        return self._last

    def add_entropy(self, contribution: bytes) -> None:
        """Keep a player's contribution for the next roll (1-64 bytes)."""
        self._pending.extend(_check_entropy([contribution]))

    def roll(self) -> Dice:
        if self._pending:
            self._last = tuple(self._pending)
        dice = self._dice.roll(self._last)
        self._pending.clear()
        return dice

    def new_game(self, dice: FairDice | None = None) -> FairDice:
        """Start the next game's dice (fresh ones unless given), dropping all entropy so far.

        Give the dice of a recorded seed to replay a game. Publish the returned
        dice's commitment before accepting new contributions.
        """
        self._dice = dice if dice is not None else FairDice.new()
        self._pending.clear()
        self._last = ()
        return self._dice

    def checkpoint(self) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
        """The entropy held now (pending, last), for :meth:`rollback`."""
        return tuple(self._pending), self._last

    def rollback(self, checkpoint: tuple[tuple[bytes, ...], tuple[bytes, ...]]) -> None:
        """Hold exactly the entropy of ``checkpoint`` again (an action was refused)."""
        pending, self._last = checkpoint
        self._pending[:] = pending

    def __repr__(self) -> str:
        return f"FairDiceSource({self._dice!r}, pending={len(self._pending)})"


# -- verification ----------------------------------------------------------------------


@dataclass(frozen=True)
class VerifiedRoll:
    """A roll as recorded, with the dice the seed and entropy really give."""

    record: RollRecord
    expected: Dice

    @property
    def ok(self) -> bool:
        """Whether the recorded dice are the ones the scheme gives."""
        return self.record.dice == self.expected


@dataclass(frozen=True)
class VerificationReport:
    """The result of checking a game's rolls: every roll recomputed, the first problem named.

    ``rolls`` holds every roll that could be recomputed (none when the seed does
    not match the commitment); ``problem`` is ``None`` when all is well.
    """

    commitment: str
    seed_hex: str
    rolls: tuple[VerifiedRoll, ...]
    problem: str | None

    @property
    def ok(self) -> bool:
        """True when the seed matches the commitment and every roll matches."""
        return self.problem is None

    def check(self) -> VerificationReport:
        """Return the report, or raise :class:`FairDiceError` with its problem."""
        if self.problem is not None:
            raise FairDiceError(self.problem)
        return self


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def _hex_digest(value: object, what: str) -> str:
    if not isinstance(value, str) or len(value) != 64 or _HEX.fullmatch(value) is None:
        raise FairDiceError(f"the {what} must be 64 hex digits, got {value!r}")
    return value.lower()


def _dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def verify_rolls(
    seed_hex: str, commitment: str, rolls: Iterable[RollRecord | Mapping[str, Any]]
) -> VerificationReport:
    """Recompute every roll from the revealed seed; report the first thing that is wrong.

    Malformed input (not hex, a roll without dice...) raises :class:`FairDiceError`;
    a record that is well formed but false comes back as a report with a ``problem``.

    >>> dice = FairDice(bytes(32))
    >>> _ = dice.roll([]), dice.roll([])
    >>> verify_rolls(dice.seed_hex, dice.commitment, dice.rolls).ok
    True
    >>> forged = [dice.rolls[0], RollRecord(2, (), (6, 6))]
    >>> verify_rolls(dice.seed_hex, dice.commitment, forged).problem
    'roll 2 does not match: the record says 6-6, the seed and entropy give 1-1'
    """
    seed_hex = _hex_digest(seed_hex, "seed")
    commitment = _hex_digest(commitment, "commitment")
    records = [r if isinstance(r, RollRecord) else RollRecord.from_dict(r) for r in rolls]
    seed = bytes.fromhex(seed_hex)
    actual = hashlib.sha256(seed).hexdigest()
    if not hmac.compare_digest(actual, commitment):
        return VerificationReport(
            commitment,
            seed_hex,
            (),
            f"the seed does not match the commitment: its SHA-256 is {actual}, "
            f"the commitment is {commitment}",
        )
    verified: list[VerifiedRoll] = []
    problem: str | None = None
    for position, record in enumerate(records, 1):
        if record.index != position and problem is None:
            problem = (
                f"roll {position} is numbered {record.index}: rolls must be numbered "
                "1, 2, 3... with none missing or repeated"
            )
        try:
            entropy = record.entropy
            expected = derive_dice(seed, position, entropy)
        except ValueError as exc:  # FairDiceError, or bytes.fromhex
            if problem is None:
                problem = f"roll {position} cannot be recomputed: {exc}"
            continue
        check = VerifiedRoll(record, expected)
        verified.append(check)
        if not check.ok and problem is None:
            problem = (
                f"roll {position} does not match: the record says {_dice_text(record.dice)}, "
                f"the seed and entropy give {_dice_text(expected)}"
            )
    return VerificationReport(commitment, seed_hex, tuple(verified), problem)


def verify_record(record: Mapping[str, Any]) -> VerificationReport:
    """Check a game record (the JSON object :meth:`FairDice.record` makes).

    >>> verify_record({"format": FORMAT, "commitment": "00" * 32, "seed": "00" * 32,
    ...                "rolls": []}).problem  # doctest: +ELLIPSIS
    'the seed does not match the commitment: its SHA-256 is 66687aad..., the commitment is 0000...'
    >>> verify_record({"format": FORMAT, "commitment": "00" * 32, "rolls": []})
    Traceback (most recent call last):
    ...
    gammon.server.fairdice.FairDiceError: the record has no 'seed' (revealed when the game is over)
    """
    if not isinstance(record, Mapping):
        raise FairDiceError(f"a game record must be a JSON object, got {_json_type(record)}")
    if record.get("format") != FORMAT:
        raise FairDiceError(
            f"not a fair-dice game record: 'format' must be {FORMAT!r}, "
            f"got {record.get('format')!r}"
        )
    if "commitment" not in record:
        raise FairDiceError("the record has no 'commitment'")
    if "seed" not in record:
        raise FairDiceError("the record has no 'seed' (revealed when the game is over)")
    rolls = record.get("rolls")
    if not isinstance(rolls, list | tuple):
        raise FairDiceError(f"the record's 'rolls' must be an array, got {_json_type(rolls)}")
    return verify_rolls(record["seed"], record["commitment"], rolls)
