"""The server's permessage-deflate (gammon.server.wsprotocol): short messages go as they are,
long ones compressed, and a client's decoder reads both in any order (RFC 7692: each
message says whether it is compressed, and the compression context runs on across them)."""

from __future__ import annotations

import asyncio
import json
import random

from websockets.asyncio.client import connect
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode

from gammon.server.wsprotocol import COMPRESS_FROM, _DeflateFactory, short_text_frame
from tests.server.client import Player, ServerProcess, Socket, choose


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


def test_short_text_frames_are_the_ones_websockets_writes() -> None:
    """The server's own framing of an uncompressed message: websockets' bytes, with
    permessage-deflate agreed and without it, at each length's boundaries (RFC 6455 5.2)."""
    server, _ = _negotiated()
    for length in (0, 1, 125, 126, 127, 1000, 65535 - 1, 65535, COMPRESS_FROM - 1):
        data = ("é" * (length // 2) + "x" * (length % 2)).encode()
        assert len(data) == length
        frame = short_text_frame(data)
        assert frame == Frame(Opcode.TEXT, data).serialize(mask=False)
        if length < COMPRESS_FROM:
            assert frame == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[server])


def test_control_frames_pass_untouched() -> None:
    server, _ = _negotiated()
    ping = Frame(Opcode.PING, b"x" * 100)
    assert server.encode(ping) is ping


def test_each_action_is_answered_by_its_ack_then_its_state(server: ServerProcess) -> None:
    """The server writes an action's ack and the actor's state in one socket write
    (``Connection.together``): the actor still reads two messages, in the order of
    docs/PROTOCOL.md 4, the ack and then the state of the ack's seq; with
    permessage-deflate (alice) and without it (bob)."""

    async def scenario() -> None:
        alice, bob = await Player(server).guest(), await Player(server).guest()
        table = await alice.create(length=3)
        a = await alice.table(table)
        b = Socket(
            await connect(
                f"{server.ws_url}/ws/tables/{table}",
                additional_headers={"Cookie": bob.cookie_header()},
                max_size=1 << 24,
                compression=None,
            )
        )
        await b.until(lambda m: m["type"] == "state")
        await b.act({"type": "join"})
        rng = random.Random(11)
        answered = {"alice": 0, "bob": 0}
        for _ in range(40):
            seq = max(s.state["seq"] for s in (a, b) if s.state)
            for sock in (a, b):
                while sock.state is None or sock.state["seq"] < seq:
                    await sock.receive()
            assert a.state is not None
            if a.state["status"] != "playing":
                break
            for name, sock in (("alice", a), ("bob", b)):
                assert sock.state is not None
                action = choose(sock.state, rng)
                if action is not None:
                    read = len(sock.seen)
                    await sock.act(action)
                    ack, state = sock.seen[read : read + 2]
                    assert ack["type"] == "ack"
                    assert state["type"] == "state" and state["seq"] == ack["seq"]
                    answered[name] += 1
                    break
        assert min(answered.values()) >= 5
        await b.ws.close()
        for player in (alice, bob):
            await player.close()

    asyncio.run(scenario())
