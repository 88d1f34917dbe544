"""The server's permessage-deflate (gammon.server.wsprotocol): short messages go as they are,
long ones compressed, and a client's decoder reads both in any order (RFC 7692: each
message says whether it is compressed, and the compression context runs on across them)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import zlib
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode

from gammon.server.wsprotocol import COMPRESS_FROM, _DeflateFactory, short_text_frame
from tests.server.client import Player, ServerProcess, Socket, choose


def _negotiated(
    *, server_no_context_takeover: bool = False
) -> tuple[PerMessageDeflate, PerMessageDeflate]:
    """The server's and a client's extension, as a browser's offer would agree them."""
    client_factory = ClientPerMessageDeflateFactory(
        client_max_window_bits=True, server_no_context_takeover=server_no_context_takeover
    )
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


def _varied_state(rng: random.Random, size: int) -> bytes:
    """A state-like message of about ``size`` bytes whose repeats lie at every distance,
    near and far: what tests that back-references stay within the agreed window."""
    words = ["".join(rng.choice("abcdefgh/*()0123456789") for _ in range(rng.randint(2, 9)))
             for _ in range(400)]  # fmt: skip
    plays = []
    while sum(map(len, plays)) < size:
        plays.append(" ".join(rng.choice(words) for _ in range(rng.randint(1, 6))))
    return json.dumps({"type": "state", "legal_plays": plays}).encode()


def test_compressed_messages_keep_to_the_agreed_window() -> None:
    """ISA-L writes what zlib reads with the 4 KiB window the client agreed (a reference
    further back is an error there), message after message on one context."""
    server, client = _negotiated()
    assert client.remote_max_window_bits == 12
    inflate = zlib.decompressobj(-12)
    rng = random.Random(11)
    for _ in range(150):
        data = _varied_state(rng, rng.choice([2500, 8000, 40000]))
        frame = server.encode(Frame(Opcode.TEXT, data))
        assert frame.rsv1 and len(frame.data) < len(data)
        assert inflate.decompress(frame.data + b"\x00\x00\xff\xff") == data
        assert client.decode(frame).data == data


def test_fragments_and_no_context_takeover_are_read() -> None:
    """A message in fragments (RSV1 on the first frame only, the flush's tail left off
    the last) and, when the client asks for it, each message compressed on its own."""
    for fresh in (False, True):
        server, client = _negotiated(server_no_context_takeover=fresh)
        assert server.local_no_context_takeover is fresh
        rng = random.Random(3)
        for _ in range(20):
            data = _varied_state(rng, 9000)
            parts = [data[:3000], data[3000:6000], data[6000:]]
            frames = [
                Frame(Opcode.TEXT, parts[0], fin=False),
                Frame(Opcode.CONT, parts[1], fin=False),
                Frame(Opcode.CONT, parts[2], fin=True),
            ]
            encoded = [server.encode(frame) for frame in frames]
            assert [frame.rsv1 for frame in encoded] == [True, False, False]
            assert b"".join(client.decode(frame).data for frame in encoded) == data
            whole = server.encode(Frame(Opcode.TEXT, data))
            if fresh:  # a message compressed alone reads with a decoder of its own
                alone = zlib.decompressobj(-server.local_max_window_bits)
                assert alone.decompress(whole.data + b"\x00\x00\xff\xff") == data
            assert client.decode(whole).data == data


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


_MASKS = random.Random(6455)


def _client_frame(payload: bytes, *, compressed: bool = False) -> bytes:
    """A client's masked, final text frame of ``payload`` (RFC 6455 5.2), its RSV1 bit set
    for a permessage-deflate message (RFC 7692 7.2.1: deflated, the last 4 bytes cut)."""
    if compressed:
        deflate = zlib.compressobj(1, zlib.DEFLATED, -9)
        payload = (deflate.compress(payload) + deflate.flush(zlib.Z_SYNC_FLUSH))[:-4]
    mask = _MASKS.randbytes(4)  # any mask will do (RFC 6455 5.3): seeded, the same each run
    size = len(payload)
    first = 0xC1 if compressed else 0x81
    if size < 126:
        header = bytes((first, 0x80 | size))
    else:
        header = bytes((first, 0x80 | 126)) + size.to_bytes(2, "big")
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return header + mask + masked


def test_a_frame_is_read_alike_whole_split_or_sharing_a_read(server: ServerProcess) -> None:
    """The server reads a read of one whole text frame itself and leaves the others to
    websockets: either way every message is answered, in order, with the extension
    agreed (frames deflated or not) and without it; a frame that does not inflate closes
    the socket with the same code and reason whether it came whole or split (RFC 7692)."""

    async def pongs(ws: Any, ids: list[int]) -> None:
        got: list[int] = []
        while len(got) < len(ids):
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if message["type"] == "pong":
                got.append(message["id"])
        assert got == ids

    async def read_by_server(other: Any) -> None:
        """Return once the server has read the bytes just written on another socket, so
        that what is written next comes in a read of its own: a ping answered on ``other``,
        written after them. Over loopback the bytes written first are in the server's socket
        first, and its one event loop reads every socket that has data before a reply to
        any of them can be written (a reply comes from a task of a later pass)."""
        await other.send(json.dumps({"type": "ping", "id": 0}))
        await pongs(other, [0])

    async def closed_by(ws: Any, other: Any, data: list[bytes]) -> tuple[int | None, str | None]:
        for part in data:
            ws.transport.write(part)
            await read_by_server(other)  # a read of its own
        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        return ws.close_code, ws.close_reason

    async def scenario() -> None:
        alice = await Player(server).guest()
        table = await alice.create(length=3)
        url = f"{server.ws_url}/ws/tables/{table}"
        headers = {"Cookie": alice.cookie_header()}
        other = await connect(url, additional_headers=headers)  # for read_by_server
        for compression in ("deflate", None):
            ws = await connect(url, additional_headers=headers, compression=compression)
            deflated = compression is not None

            def ping(ident: int, spaces: int = 0, deflated: bool = deflated) -> bytes:
                text = '{"type": "ping",' + " " * spaces + f'"id": {ident}}}'
                return _client_frame(text.encode(), compressed=deflated)

            first, second, third = ping(1), ping(2), ping(3)
            ws.transport.write(first)  # one whole frame
            await pongs(ws, [1])
            ws.transport.write(second[:3])  # split across reads
            await read_by_server(other)
            ws.transport.write(second[3:])
            await pongs(ws, [2])
            ws.transport.write(third + ping(4))  # two frames in one read
            await pongs(ws, [3, 4])
            half = len(ping(5)) // 2
            five, six = ping(5), ping(6)
            ws.transport.write(five + six[:half])  # a frame and half of the next
            await read_by_server(other)
            ws.transport.write(six[half:])
            await pongs(ws, [5, 6])
            ws.transport.write(ping(7))  # whole again after those
            await pongs(ws, [7])
            ws.transport.write(ping(8, spaces=300))  # a 16-bit length
            await pongs(ws, [8])
            await ws.close()
        # A deflated frame that does not inflate: whole (read here) and split (websockets).
        endings = []
        for split in (False, True):
            ws = await connect(url, additional_headers=headers, compression="deflate")
            bad = bytearray(_client_frame(b"x" * 40))
            bad[0] = 0xC1  # claims to be deflated: 40 bytes that are not a deflate stream
            data = [bytes(bad[:4]), bytes(bad[4:])] if split else [bytes(bad)]
            endings.append(await closed_by(ws, other, data))
        assert endings[0] == endings[1] and endings[0][0] == 1002
        await other.close()
        await alice.close()

    asyncio.run(scenario())
