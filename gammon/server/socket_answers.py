"""Answering a socket's message that is not carried out: too many, unreadable, refused,
or a fault of ours.

Every socket (a table's, the lobby's, a tournament's) reads its messages through
:func:`answer_message`, so a flood, a refusal and a fault are answered in one way,
with the message's ``id`` when it could be read, and none of them ends the connection
(only a flood that goes on does, with 1008).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping

from gammon.messages import Message
from gammon.server.client_vocabulary import Field
from gammon.server.connections import MAX_REFUSALS, Connection, FaultLog
from gammon.server.protocol import (
    MAX_MESSAGE_BYTES,
    ClientMessage,
    Refused,
    error_json,
    loads,
    parse_message,
)

__all__ = [
    "AlreadyAnswered",
    "answer_fault",
    "answer_flood",
    "answer_message",
    "answer_refusal",
    "text_frame",
]


async def answer_message(
    conn: Connection,
    raw: str | None,
    allowed: Mapping[str, tuple[Field, ...]],
    handle: Callable[[ClientMessage], Awaitable[None]],
    faults: FaultLog,
    where: str,
    *,
    table_id: int | None = None,
) -> None:
    """One message on any socket: its rate, its reading against what this socket takes
    (``allowed``), then ``handle``. A flood, a refusal and a fault are answered here, the
    same way on every socket; nothing escapes to end the connection."""
    message_id: object = None
    try:
        if not conn.allow():
            answer_flood(conn, raw)
        conn.refusals = 0
        message = parse_message(text_frame(raw), allowed)
        message_id = message.id
        await handle(message)
    except Refused as exc:
        answer_refusal(conn, exc, message_id)
    except AlreadyAnswered:
        pass
    except Exception as exc:
        answer_fault(conn, faults, where, exc, message_id, table_id=table_id)


class AlreadyAnswered(Exception):
    """The message was refused and the refusal sent."""


def text_frame(raw: str | None) -> str:
    """The text of a message; a binary frame (None) is refused: the protocol is JSON text."""
    if raw is None:
        raise Refused(
            "bad_message",
            Message(
                "binary WebSocket frames are not read: send each message as a text frame of JSON"
            ),
        )
    return raw


def answer_refusal(conn: Connection, exc: Refused, message_id: object) -> None:
    """Send the error for a refused message (with its ``id``, when it could be read)."""
    ident = message_id if message_id is not None else exc.message_id
    conn.send(error_json(exc.code, exc.translated(conn.lang), ident, field=exc.field))


def answer_fault(
    conn: Connection,
    faults: FaultLog,
    where: str,
    exc: Exception,
    message_id: object,
    *,
    table_id: int | None = None,
) -> None:
    """An exception nobody expected: answer ``server_error``, log one line (rate-limited)."""
    user = conn.user
    faults.report(
        where,
        exc,
        table_id=table_id,
        user_id=user.id if user else None,
        user=user.name if user else None,
    )
    ident = message_id if isinstance(message_id, str | int) else None
    with contextlib.suppress(Exception):
        conn.send(
            error_json(
                "server_error",
                Message(
                    "the server failed while handling this message (a fault on our side, "
                    "now logged); the next state shows the table as it is"
                ).translated(conn.lang),
                ident,
            )
        )


def answer_flood(conn: Connection, raw: str | None) -> None:
    """Refuse a message over the connection's rate; too many in a row close it (1008).

    Raises :class:`AlreadyAnswered` once the refusal is sent.
    """
    conn.refusals += 1
    if conn.refusals >= MAX_REFUSALS:
        conn.close(1008, "flooding")
    message_id = None
    if raw is not None and len(raw) <= MAX_MESSAGE_BYTES:
        with contextlib.suppress(ValueError):
            data = loads(raw)
            if isinstance(data, dict):
                message_id = data.get("id")
    conn.send(
        error_json(
            "rate_limited",
            Message(
                "at most {rate} messages a second (bursts of {burst}): slow down",
                rate=format(conn.rate, "g"),
                burst=format(conn.burst, "g"),
            ).translated(conn.lang),
            message_id if isinstance(message_id, str | int) else None,
        )
    )
    raise AlreadyAnswered
