"""The server's permessage-deflate (gammon.server.wsprotocol): short messages go as they are,
long ones compressed, and a client's decoder reads both in any order (RFC 7692: each
message says whether it is compressed, and the compression context runs on across them)."""

from __future__ import annotations

import json
import random

from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode

from gammon.server.wsprotocol import COMPRESS_FROM, _DeflateFactory


def _negotiated() -> tuple[PerMessageDeflate, PerMessageDeflate]:
    """The server's and a client's extension, as a browser's offer would agree them."""
    client_factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
    offer = client_factory.get_request_params()
    server_factory = _DeflateFactory(
        server_max_window_bits=12,
        client_max_window_bits=12,
        compress_settings={"memLevel": 5, "level": 1},
    )
    answer, server = server_factory.process_request_params(offer, [])
    client = client_factory.process_response_params(answer, [])
    assert isinstance(client, PerMessageDeflate)
    return server, client


def test_short_messages_go_uncompressed_long_ones_compressed_and_all_are_read() -> None:
    server, client = _negotiated()
    rng = random.Random(5)
    for _ in range(200):
        size = rng.choice([20, 300, COMPRESS_FROM - 1, COMPRESS_FROM, 6000, 30000])
        board = [rng.randint(0, 15) for _ in range(25)]
        data = json.dumps({"type": "state", "pad": "", "board": board}).encode()
        data = data.replace(b'"pad": ""', b'"pad": "' + b"x" * max(0, size - len(data)) + b'"')
        frame = server.encode(Frame(Opcode.TEXT, data))
        assert frame.rsv1 == (len(data) >= COMPRESS_FROM)
        if frame.rsv1:
            assert len(frame.data) < len(data) // 4  # compressed, and well
        else:
            assert frame.data == data
        assert client.decode(frame).data == data


def test_control_frames_pass_untouched() -> None:
    server, _ = _negotiated()
    ping = Frame(Opcode.PING, b"x" * 100)
    assert server.encode(ping) is ping
