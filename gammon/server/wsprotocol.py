"""uvicorn's sans-I/O WebSocket protocol, with the compression and reading this server wants.

Two costs per action that uvicorn's defaults make higher than they need be here:

- permessage-deflate at zlib's default level compressed every message, the
  acknowledgements and the 1-2 kB states included, and was a fifth of the
  server's time per action. Here messages under :data:`COMPRESS_FROM` bytes go
  as they are (RFC 7692 lets each message say whether it is compressed; every
  client reads both), and the rest (states with legal plays, whole logs) are
  compressed at level 1, which keeps most of the gain on them for half the time.
- uvicorn stops reading a socket after every message and starts again once the
  application has taken it (two ``epoll_ctl`` calls a message). Here reading
  stops only when :data:`READ_AHEAD` messages wait: the application reads one
  message at a time either way, and the hub's rate limit answers floods.
- ASGI sends a message from a task, through every middleware's wrapper: the
  hub's three messages an action each cost a queue and a task step. Here the
  socket's scope carries the protocol itself under :data:`DIRECT`:
  :meth:`WebSocketProtocol.send_now` frames and writes a text message at once
  when nothing waits before it, and between :meth:`~WebSocketProtocol.hold` and
  :meth:`~WebSocketProtocol.release` the messages' frames go out in one write
  (an action's acknowledgement and state: one system call, one TCP segment).
  A message that goes uncompressed (under :data:`COMPRESS_FROM`) is framed
  here, two header bytes or four and the text (:func:`short_text_frame`): the
  frame websockets writes, without its frame object, checks and buffers.
- Reading, likewise: a read that is exactly one whole text frame (a client's
  action, as clients send them) is unmasked, inflated by the agreed extension
  and handed to the application here (:meth:`WebSocketProtocol.data_received`),
  without websockets' generator-based parser; anything else (a frame split
  across reads or sharing one, control frames, fragments, a frame websockets
  would refuse) goes through websockets as before, and an error while inflating
  fails the connection as websockets' parser does.

The protocol (docs/PROTOCOL.md) does not change: the same messages, the same frames.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState, PayloadTooBig, ProtocolError
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

try:  # websockets' own unmasking: compiled where it was built, as its parser uses it
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

__all__ = ["COMPRESS_FROM", "READ_AHEAD", "DIRECT", "WebSocketProtocol", "short_text_frame"]

#: Messages shorter than this (bytes) are sent uncompressed.
COMPRESS_FROM: Final = 2048
#: zlib level for the messages that are compressed (1: fastest).
COMPRESS_LEVEL: Final = 1
#: Messages read ahead of the application before the socket stops being read.
READ_AHEAD: Final = 8
#: The key, in a socket's ``scope["extensions"]``, of its :class:`WebSocketProtocol`.
DIRECT: Final = "gammon.direct"


class _Deflate(PerMessageDeflate):
    """permessage-deflate that leaves short messages uncompressed (RSV1 unset)."""

    def encode(self, frame: Frame) -> Frame:
        if (
            frame.fin
            and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
            and len(frame.data) < COMPRESS_FROM
        ):
            return frame
        return super().encode(frame)


def short_text_frame(data: bytes) -> bytes:
    """A server's frame of one whole text message of ``data`` (UTF-8, under 64 KiB), not
    compressed: FIN and the text opcode, the length (RFC 6455 5.2; a server never masks)."""
    length = len(data)
    if length < 126:
        return bytes((0x81, length)) + data
    return bytes((0x81, 126)) + length.to_bytes(2, "big") + data


class _DeflateFactory(ServerPerMessageDeflateFactory):
    def process_request_params(
        self,
        params: Sequence[ExtensionParameter],
        accepted_extensions: Sequence[Extension],
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, _Deflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
        )


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol (pinned: uvicorn 0.54) with the settings above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Frames of :meth:`send_now` waiting for :meth:`release` (None: written at once).
        self.held: list[bytes] | None = None
        if self.config.ws_per_message_deflate:
            # The same window settings as uvicorn's own, at level 1 and with short
            # messages left alone.
            self.conn = ServerProtocol(
                extensions=[
                    _DeflateFactory(
                        server_max_window_bits=12,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": 5, "level": COMPRESS_LEVEL},
                    )
                ],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    def send_receive_event_to_app(self) -> None:
        # uvicorn pauses reading after every message (read_paused) and resumes once the
        # queue is empty: pretend to be paused while it queues the message, then pause
        # for real only when READ_AHEAD messages wait.
        paused = self.read_paused
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()

    def data_received(self, data: bytes) -> None:
        if not self._received_one_text_frame(data):
            super().data_received(data)

    def _received_one_text_frame(self, data: bytes) -> bool:
        """Take ``data`` as one whole, final, masked text frame, as websockets' parser and
        uvicorn would; False (nothing done) when it is anything else or when websockets
        has bytes of an earlier read waiting, which it then reads as always."""
        conn = self.conn
        if (
            len(data) < 6
            or conn.state is not State.OPEN
            or conn.current_size is not None  # a fragmented message is being read
            or conn.reader.buffer
            or conn.debug
        ):
            return False
        head, size = data[0], data[1]
        compressed = head == 0xC1  # FIN, RSV1 (permessage-deflate) and the text opcode
        if not (head == 0x81 or compressed) or not size & 0x80:  # unmasked: a protocol error
            return False
        size &= 0x7F
        start = 6
        if size == 126:
            size, start = int.from_bytes(data[2:4], "big"), 8
        elif size == 127:
            return False
        limit = conn.max_message_size
        if conn.max_fragment_size is not None:
            limit = conn.max_fragment_size if limit is None else min(limit, conn.max_fragment_size)
        if len(data) != start + size or (limit is not None and size > limit):
            return False
        deflate = [e for e in conn.extensions if isinstance(e, PerMessageDeflate)]
        if len(deflate) != len(conn.extensions) or (compressed and not deflate):
            return False
        payload = apply_mask(data[start:], data[start - 4 : start])
        frame = Frame(Opcode.TEXT, payload, rsv1=compressed)
        if compressed:
            try:
                frame = deflate[0].decode(frame, max_size=limit)
            except ProtocolError as exc:  # as websockets' parser fails the connection
                conn.fail(CloseCode.PROTOCOL_ERROR, str(exc))
                conn.parser_exc = exc
            except PayloadTooBig as exc:
                exc.set_current_size(conn.current_size)
                conn.fail(CloseCode.MESSAGE_TOO_BIG, str(exc))
                conn.parser_exc = exc
            except Exception as exc:
                conn.logger.error("parser failed", exc_info=True)
                conn.fail(CloseCode.INTERNAL_ERROR)
                conn.parser_exc = exc
            if conn.parser_exc is not None:
                self.handle_parser_exception()
                return True
        self.handle_text(frame)
        return True

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][DIRECT] = self

    def send_now(self, text: str) -> bool:
        """Send a text message now, as an ASGI ``websocket.send`` would; False (nothing
        sent) when that would have to wait or fail: before the handshake, after the
        close, or while the transport's buffer is full (the caller queues it instead)."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
        ):
            return False
        conn = self.conn
        data = text.encode()
        if (
            len(data) < COMPRESS_FROM
            and conn.state is State.OPEN
            and not conn.expect_continuation_frame
            and all(isinstance(extension, _Deflate) for extension in conn.extensions)
        ):
            # What websockets' send_text would write (its extensions leave a short message
            # alone), after whatever it has waiting.
            frames = conn.data_to_send() if conn.writes else []
            frames.append(short_text_frame(data))
        else:
            try:
                conn.send_text(data)
            except InvalidState:
                return False
            frames = conn.data_to_send()
        if self.held is not None:
            self.held.extend(frames)
        else:
            self.transport.write(b"".join(frames))
        return True

    def hold(self) -> None:
        """Keep the frames of :meth:`send_now` until :meth:`release` (no await between)."""
        self.held = []

    def release(self) -> None:
        """Write the frames held since :meth:`hold`, all in one write."""
        held, self.held = self.held, None
        if held and not self.disconnected:
            self.transport.write(b"".join(held))
