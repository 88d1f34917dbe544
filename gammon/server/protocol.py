"""The wire format of docs/PROTOCOL.md: JSON in and out, and client messages read strictly.

Reading is strict: a message is checked field by field before anything looks at
the game, and whatever is wrong is named in a :class:`Refused` error, which the
server sends back as ``{"type": "error", "code": ..., "message": ...}``.

What a client may send, every message type with its fields and checks, is listed in
:mod:`gammon.server.client_vocabulary`; the boards, plays and log entries the server
writes are made in :mod:`gammon.server.game_json`.

>>> parse_message('{"type": "play", "play": "8/5 6/5", "seq": 3}')
ClientMessage(type='play', fields={'play': '8/5 6/5'}, id=None, seq=3, side=None, entropy=None)
>>> parse_message('{"type": "roll", "entropy": "zz"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gammon.server.protocol.Refused: bad_message: 'entropy' must be hex of 1 to 64 bytes ...
>>> parse_message('[1]')
Traceback (most recent call last):
...
gammon.server.protocol.Refused: bad_json: a message must be a JSON object, got an array
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from gammon.errors import GammonError
from gammon.i18n import N_
from gammon.messages import Message
from gammon.server.client_vocabulary import TABLE_MESSAGES, Field, is_int

__all__ = [
    "MAX_DEPTH",
    "MAX_MESSAGE_BYTES",
    "ClientMessage",
    "Refused",
    "dumps",
    "error_json",
    "loads",
    "moves_notation",
    "parse_message",
    "shown",
]

#: The largest client message the server reads (docs/PROTOCOL.md, section 2).
MAX_MESSAGE_BYTES: Final = 16384
#: What a player hears when the node running their table did not carry out an action
#: forwarded to it (several nodes, gammon.server.cluster): no answer, or a fault there.
FORWARD_UNANSWERED: Final = Message(
    "the table's server did not answer: look at the state and act again"
)
FORWARD_FAILED: Final = Message("the action could not be carried out")


#: How deep ``[`` and ``{`` may nest in a client message (the protocol itself needs 3).
MAX_DEPTH: Final = 32

#: A message nested too deeply (the braces are the message's own: it has a value).
_TOO_DEEP: Final = Message(
    "the message is nested too deeply (at most {depth} levels of [ and {{)", depth=MAX_DEPTH
)
_HEX: Final = re.compile(r"(?:[0-9a-fA-F]{2}){1,64}")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class Refused(GammonError, ValueError):
    """A client message the server will not carry out; ``code`` is the protocol's error code.

    ``field``, when set, is the machine-readable name of the field at fault
    (``"length"``, ``"clock.base_s"``, ``"play"``): the message is for people,
    the field for programs (docs/PROTOCOL.md 1, 2.1). The message is a
    :class:`~gammon.messages.Message` (a plain ``str`` is taken as it is): ``message`` is
    its English, for logs, records and ``str()``; :meth:`translated` writes it in the
    reader's language for the wire. The code stays English: programs read it.

    >>> exc = Refused("table_full", Message("both seats are taken"))
    >>> exc.message, exc.translated("fi"), str(exc)
    ('both seats are taken', 'molemmat paikat on varattu', 'table_full: both seats are taken')
    """

    def __init__(self, code: str, message: str | Message, *, field: str | None = None) -> None:
        self.text_message = Message.of(message)
        super().__init__(f"{code}: {self.text_message.english}")
        self.code = code
        self.message = self.text_message.english
        self.field = field
        #: The ``id`` of the refused message, when it could be read, to copy into the error.
        self.message_id: str | int | None = None

    @property
    def text(self) -> Message:
        return self.text_message

    def translated(self, lang: str) -> str:
        return self.text_message.translated(lang)

    @classmethod
    def of(cls, code: str, exc: GammonError, *, field: str | None = None) -> Refused:
        """The refusal of an error of the rules library, its message kept for translation."""
        return cls(code, exc.text, field=field)

    def to_json(self) -> list[Any]:
        """The refusal for another node: ``[code, english, field, message]``."""
        return [self.code, self.message, self.field, self.text_message.to_json()]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Refused:
        """The refusal :meth:`to_json` wrote (an older node sends ``[code, english, field]``)."""
        code, english, field = data[0], data[1], data[2]
        message = Message.from_json(data[3]) if len(data) > 3 else Message.plain(english)
        return cls(code, message, field=field)


def error_json(
    code: str, message: str, message_id: object = None, *, field: str | None = None
) -> dict[str, Any]:
    """The error message sent to a client (``message`` already in the reader's language).

    >>> error_json("bad_message", "'value' must be 1, 2 or 3", 4, field="value")
    {'type': 'error', 'code': 'bad_message', 'message': "'value' must be 1, 2 or 3", 'id': 4, \
'field': 'value'}
    """
    reply: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if message_id is not None:
        reply["id"] = message_id
    if field is not None:
        reply["field"] = field
    return reply


def _no_constant(name: str) -> Any:
    raise Refused(
        "bad_message",
        Message(
            "{name} is not a JSON number: send numbers as plain digits "
            "(NaN and Infinity are refused)",
            name=name,
        ),
    )


_DECODER: Final = json.JSONDecoder(parse_constant=_no_constant)


def loads(raw: str | bytes, *, code: str = "bad_json") -> Any:
    """Strict JSON: ``NaN``/``Infinity`` are refused (``bad_message``), and so is deep nesting.

    ``code`` is the error for text that is not JSON at all (``bad_request`` over HTTP).

    >>> loads('{"a": [1, 2.5, null]}')
    {'a': [1, 2.5, None]}
    >>> loads('{"seq": NaN}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gammon.server.protocol.Refused: bad_message: NaN is not a JSON number: ...
    >>> loads("[" * 5000 + "]" * 5000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gammon.server.protocol.Refused: bad_json: the message is nested too deeply ...
    """
    try:
        if isinstance(raw, str) and not raw.startswith("\ufeff"):
            data = _DECODER.decode(raw)  # json.loads would build a decoder for each message
        else:  # bytes, or text with a byte order mark: json.loads reads or refuses them
            data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise Refused(code, _TOO_DEEP) from None
    except Refused:
        raise
    except (ValueError, UnicodeDecodeError) as exc:
        raise Refused(
            code, Message("the message is not valid JSON: {error}", error=str(exc))
        ) from None
    if not (isinstance(raw, str) and _plainly_within_the_rules(raw)):
        _check_tree(data, code)
    return data


def _plainly_within_the_rules(raw: str) -> bool:
    """Whether the text alone shows that :func:`_check_tree` would pass, as it does for
    every message of a well-behaved client, without walking the values: no ``\\u`` escape
    and no surrogate (nothing else makes one), and at most :data:`MAX_DEPTH` of ``[`` and
    ``{`` (each level of nesting takes one)."""
    return (
        "\\u" not in raw
        and raw.count("[") + raw.count("{") <= MAX_DEPTH
        and _SURROGATE.search(raw) is None
    )


def _check_tree(data: object, code: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and text that is not Unicode (no recursion).

    JSON lets a string hold half of a surrogate pair (``"\\ud800"``), which is
    no character at all: it could be neither stored nor sent back.
    """
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                raise Refused(
                    "bad_message",
                    Message(
                        "a string holds an unpaired surrogate (\\ud800-\\udfff), which is not "
                        "a character: send UTF-8 text"
                    ),
                )
            continue
        if isinstance(value, dict):
            children: list[object] = [*value, *value.values()]
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise Refused(code, _TOO_DEEP)
        stack.extend((child, depth + 1) for child in children)


# -- reading client messages -------------------------------------------------------------

_ENVELOPE: Final = ("type", "id", "seq", "side", "entropy")


@dataclass(frozen=True)
class ClientMessage:
    """A checked client message: its type, its own fields, and the envelope fields."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    id: str | int | None = None
    seq: int | None = None
    side: int | None = None
    entropy: bytes | None = None


def _json_type(value: object) -> Message:
    if isinstance(value, list):
        return Message(N_("an array"))
    if isinstance(value, str):
        return Message(N_("a string"))
    if value is None:
        return Message.plain("null")
    if isinstance(value, bool):
        return Message(N_("a boolean"))
    return Message(N_("a number"))


def parse_message(
    raw: str | bytes, allowed: Mapping[str, tuple[Field, ...]] = TABLE_MESSAGES
) -> ClientMessage:
    """Read one client message, or raise :class:`Refused` saying what is wrong with it."""
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise Refused(
            "too_large",
            Message(
                "a message may be at most {limit} bytes, got {size}",
                limit=MAX_MESSAGE_BYTES,
                size=size,
            ),
        )
    data = loads(raw)
    if not isinstance(data, dict):
        raise Refused(
            "bad_json",
            Message("a message must be a JSON object, got {what}", what=_json_type(data)),
        )
    try:
        return _read(data, allowed)
    except Refused as exc:
        ident = data.get("id")
        if (isinstance(ident, str) and len(ident) <= 64) or is_int(ident):
            exc.message_id = ident
        raise


def shown(value: object, width: int = 60) -> str:
    """``value`` as a refusal quotes it: its repr, cut to ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _read(data: dict[str, Any], allowed: Mapping[str, tuple[Field, ...]]) -> ClientMessage:
    """Check ``data`` field by field; a field set to ``null`` counts as left out (PROTOCOL 2).

    The checks run in a fixed order (type, envelope, unknown fields, the type's own fields)
    so that a message with several faults is always refused for the same one.
    """
    kind = _read_type(data, allowed)
    message_id = _read_id(data)
    seq = _read_seq(data)
    side = _read_side(data)
    entropy = _read_entropy(data)
    specs = allowed[kind]
    _refuse_unknown_fields(data, kind, specs)
    fields = _read_fields(data, kind, specs)
    if kind == "play" and ("play" in fields) == ("moves" in fields):
        raise Refused(
            "bad_message",
            Message("a 'play' message needs either 'play' or 'moves', not both"),
            field="play",
        )
    return ClientMessage(kind, fields, message_id, seq, side, entropy)


def _read_type(data: dict[str, Any], allowed: Mapping[str, tuple[Field, ...]]) -> str:
    """The message's ``type``, refused unless it is one of the ``allowed`` kinds."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in allowed:
        known = ", ".join(sorted(allowed))
        raise Refused(
            "unknown_type",
            Message(
                "unknown message type {type}; known types: {known}", type=shown(kind), known=known
            ),
            field="type",
        )
    return kind


def _read_id(data: dict[str, Any]) -> str | int | None:
    """The envelope's ``id``, echoed in the reply: a short string or a whole number."""
    message_id: str | int | None = data.get("id")
    if message_id is not None and not (
        (isinstance(message_id, str) and len(message_id) <= 64) or is_int(message_id)
    ):
        raise Refused(
            "bad_message",
            Message("'id' must be a string of at most 64 characters or a number"),
            field="id",
        )
    return message_id


def _read_seq(data: dict[str, Any]) -> int | None:
    """The envelope's ``seq``: the last table sequence number the client has seen."""
    seq: int | None = data.get("seq")
    if seq is not None and not (is_int(seq) and seq >= 0):
        raise Refused(
            "bad_message",
            Message("'seq' must be a whole number >= 0, got {value}", value=shown(seq)),
            field="seq",
        )
    return seq


def _read_side(data: dict[str, Any]) -> int | None:
    """The envelope's ``side``: which seat a client holding both seats speaks for."""
    side: int | None = data.get("side")
    if side is not None and (side not in (0, 1) or isinstance(side, bool)):
        raise Refused(
            "bad_message",
            Message("'side' must be 0 or 1, got {value}", value=shown(side)),
            field="side",
        )
    return side


def _read_entropy(data: dict[str, Any]) -> bytes | None:
    """The envelope's ``entropy``, hex decoded: the client's share of the fair dice."""
    entropy_hex = data.get("entropy")
    if entropy_hex is None:
        return None
    if not isinstance(entropy_hex, str) or _HEX.fullmatch(entropy_hex) is None:
        raise Refused(
            "bad_message",
            Message("'entropy' must be hex of 1 to 64 bytes (2-128 hex digits)"),
            field="entropy",
        )
    return bytes.fromhex(entropy_hex)


def _refuse_unknown_fields(data: dict[str, Any], kind: str, specs: tuple[Field, ...]) -> None:
    """Refuse a field that is neither the envelope's nor one of ``kind``'s (first by name)."""
    names = {spec.name for spec in specs}
    unknown = sorted(key for key in data if key not in names and key not in _ENVELOPE)
    if unknown:
        raise Refused(
            "bad_message",
            Message(
                "unknown field {field} for a {type} message",
                field=shown(unknown[0]),
                type=repr(kind),
            ),
            field=unknown[0][:64],
        )


def _read_fields(data: dict[str, Any], kind: str, specs: tuple[Field, ...]) -> dict[str, Any]:
    """``kind``'s own fields, each checked against its spec; left-out optional ones omitted."""
    fields: dict[str, Any] = {}
    for spec in specs:
        value = data.get(spec.name)
        if value is None:
            if spec.required:
                raise Refused(
                    "bad_message",
                    Message(
                        "a {type} message needs {field}", type=repr(kind), field=repr(spec.name)
                    ),
                    field=spec.name,
                )
            continue
        if not spec.check(value):
            raise Refused(
                "bad_message",
                Message(
                    "{field} must be {what}, got {value}",
                    field=repr(spec.name),
                    what=Message(spec.describe),
                    value=shown(value),
                ),
                field=spec.name,
            )
        fields[spec.name] = value
    return fields


def moves_notation(moves: Sequence[Sequence[int]]) -> str:
    """Moves given as ``[from, to]`` pairs, written for the notation reader.

    >>> moves_notation([[25, 22], [6, 0]])
    'bar/22 6/off'
    """

    def name(point: int) -> str:
        return "bar" if point == 25 else "off" if point == 0 else str(point)

    return " ".join(f"{name(source)}/{name(target)}" for source, target in moves)


# -- writing -------------------------------------------------------------------------------


def dumps(value: Any) -> str:
    """Compact JSON, as every server message is sent (orjson: about ten times the standard
    library's speed).

    >>> dumps({"type": "ack", "seq": 3})
    '{"type":"ack","seq":3}'
    """
    text: str = orjson.dumps(value).decode("utf-8")
    return text


#: The table's statuses (the protocol's values) in words: ``the table is {status}``.
STATUS_WORDS: Final = {
    "open": N_("open"),
    "playing": N_("playing"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
