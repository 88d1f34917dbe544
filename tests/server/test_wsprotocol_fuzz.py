"""The server's own reading of client frames (``WebSocketProtocol._received_one_text_frame``)
against websockets' parser: the same bytes, fed to the server's protocol and to the same
protocol with that fast path turned off (websockets' parser with uvicorn's handling), must
give the application the same messages and end the connection the same way (the same
close frame, code and reason, the same state after), whatever the bytes: well-formed
frames (text of any length around the 7-, 16- and 64-bit length boundaries, deflated by a
client's real permessage-deflate context or not, masked with any key), and frames that
are not (reserved bits, opcodes, FIN and mask bits flipped, wrong or 64-bit lengths,
invalid UTF-8, data that does not inflate, messages over the size limit, control frames,
fragments), one frame a read, several in one, or split anywhere, also into the handshake's
read; with permessage-deflate agreed and without it (RFC 6455 5, RFC 7692 7)."""

from __future__ import annotations

import asyncio
import itertools
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode
from websockets.headers import build_extension, parse_extension
from websockets.utils import apply_mask

from gammon.server.wsprotocol import WebSocketProtocol

#: The server's limit on a message (gammon.cli.serve), and smaller ones the fuzz reaches.
MAX_SIZES = (1 << 20, 70_000, 1_000, 125)

_KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # RFC 6455 1.3's example key


class _Reference(WebSocketProtocol):
    """The server's protocol without its own reading: every read goes through websockets."""

    def _received_one_text_frame(self, data: bytes) -> bool:
        return False


class _Transport(asyncio.Transport):
    """A socket's transport that keeps what is written and whether reading is paused."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False
        self.paused = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default
        )


async def _app(scope: Any, receive: Any, send: Any) -> None:
    """Accepts the socket and waits, leaving its messages to the test."""
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    await scope["state"]["done"].wait()


_CONFIGS: dict[tuple[bool, int], Config] = {}


def _config(deflate: bool, max_size: int) -> Config:
    if (deflate, max_size) not in _CONFIGS:
        config = Config(
            _app,
            ws_per_message_deflate=deflate,
            ws_max_size=max_size,
            ws_ping_interval=None,
            lifespan="off",
            log_config=None,
        )
        config.load()
        _CONFIGS[deflate, max_size] = config
    return _CONFIGS[deflate, max_size]


def _offer() -> tuple[ClientPerMessageDeflateFactory, str]:
    factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
    return factory, build_extension([(factory.name, factory.get_request_params())])


def _request(offer: bool) -> bytes:
    lines = [
        "GET /ws/tables/1 HTTP/1.1",
        "Host: 127.0.0.1:8000",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {_KEY}",
        "Sec-WebSocket-Version: 13",
    ]
    if offer:
        lines.append(f"Sec-WebSocket-Extensions: {_offer()[1]}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


@dataclass
class _Side:
    """One protocol object on its transport, and what its application was given."""

    protocol: WebSocketProtocol
    transport: _Transport
    done: asyncio.Event
    state: ServerState
    received: list[Any] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)  # its application's


def _open(cls: type[WebSocketProtocol], config: Config) -> _Side:
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    state = ServerState()
    protocol = cls(config=config, server_state=state, app_state={"done": done}, _loop=loop)
    transport = _Transport()
    protocol.connection_made(transport)
    return _Side(protocol, transport, done, state)


def _feed(side: _Side, data: bytes) -> tuple[Any, ...]:
    """Feed one read; what was written and what happened, for the comparison."""
    before = len(side.transport.written)
    try:
        side.protocol.data_received(data)
        escaped = None
    except Exception as exc:  # compared: none should escape, and never on one side only
        escaped = repr(exc)
    return (
        escaped,
        bytes(side.transport.written[before:]),
        side.transport.closed,
        side.protocol.queue.qsize(),
    )


async def _drain(side: _Side) -> None:
    while not side.protocol.queue.empty():
        side.received.append(await side.protocol.receive())


def _final(side: _Side) -> tuple[Any, ...]:
    protocol, conn = side.protocol, side.protocol.conn
    exc = conn.parser_exc
    return (
        side.received,
        conn.state,
        conn.close_sent,
        conn.close_rcvd,
        conn.current_size,
        bytes(conn.reader.buffer),
        None if exc is None else (type(exc), str(exc)),
        protocol.close_sent,
        protocol.frames,
        protocol.read_paused,
        side.transport.paused,
        side.transport.closed,
    )


# Frames as a client writes them, well-formed or not.


@dataclass(frozen=True)
class Spec:
    """One frame: what it carries and how it is written, spoiled or not."""

    opcode: int
    fin: bool
    compress: bool  # deflated by the client's context (RSV1), as RFC 7692 7.2.1 says
    payload: bytes
    mask: bytes | None  # None: unmasked (a client must mask, RFC 6455 5.3)
    length_form: str  # "min": the shortest length encoding; "16", "64": longer ones
    length_delta: int = 0  # declared length minus the real one
    rsv: int = 0  # RSV2/RSV3 (and RSV1 by hand) bits or-ed into the first byte
    flip: tuple[int, int] | None = None  # (byte 0 or 1, bit) flipped after all that
    #: A frame whose mask key and masked payload (``inner_at`` "key"), or whose masked
    #: payload ("payload"), read on their own, are this other frame (a client can write
    #: any bytes): the payload above, and for "key" the mask, are not used.
    inner: bytes | None = None
    inner_at: str = "key"


def _header(first: int, length: int, masked: bool, form: str) -> bytes:
    mask_bit = 0x80 if masked else 0
    if form == "min" and length < 126:
        return bytes((first, mask_bit | length))
    if form in ("min", "16") and length < 1 << 16:
        return bytes((first, mask_bit | 126)) + length.to_bytes(2, "big")
    return bytes((first, mask_bit | 127)) + length.to_bytes(8, "big")


def _encode(spec: Spec, client: PerMessageDeflate | None) -> tuple[bytes, int]:
    """The frame's bytes, and how many of them come before its mask key."""
    payload, rsv1, mask = spec.payload, False, spec.mask
    if spec.inner is not None and spec.inner_at == "key":
        mask = spec.inner[:4]
        payload = apply_mask(spec.inner[4:], mask)
    elif spec.inner is not None:
        payload = spec.inner if mask is None else apply_mask(spec.inner, mask)
    if spec.compress and spec.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
        if client is not None and spec.opcode != Opcode.CONT:
            frame = client.encode(Frame(Opcode(spec.opcode), payload, fin=spec.fin))
            payload, rsv1 = bytes(frame.data), frame.rsv1
        else:  # deflated though not agreed, or RSV1 on a continuation: both refused
            deflate = zlib.compressobj(1, zlib.DEFLATED, -12)
            payload = (deflate.compress(payload) + deflate.flush(zlib.Z_SYNC_FLUSH))[:-4]
            rsv1 = True
    first = (0x80 if spec.fin else 0) | (0x40 if rsv1 else 0) | spec.rsv | spec.opcode
    length = max(0, len(payload) + spec.length_delta)
    header = bytearray(_header(first, length, mask is not None, spec.length_form))
    if spec.flip is not None:
        header[spec.flip[0]] ^= 1 << spec.flip[1]
    if mask is None:
        return bytes(header) + payload, len(header)
    return bytes(header) + mask + apply_mask(payload, mask), len(header)


#: Lengths at the boundaries: 7-bit, 16-bit and 64-bit lengths, websockets' inflating cut.
_LENGTHS = (0, 1, 124, 125, 126, 127, 2043, 2044, 2045, 65535, 65536)
_BAD_UTF8 = (b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80")


@st.composite
def _text(draw: st.DrawFn, max_size: int) -> bytes:
    """UTF-8 text, of a length near a boundary (7/16-bit lengths, the size limit,
    websockets' 2044-byte inflating cut) or any short one; now and then not UTF-8."""
    length = draw(
        st.integers(0, 300) | st.sampled_from([*_LENGTHS, max_size - 1, max_size, max_size + 1])
    )
    unit = draw(st.text(min_size=1, max_size=12)).encode()
    data = (unit * (length // len(unit) + 1))[:length]
    data = data.decode(errors="ignore").encode()
    data += b"x" * (length - len(data))
    if draw(st.integers(0, 9)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(_BAD_UTF8)) + data[at:]
    return data


@st.composite
def _close_payload(draw: st.DrawFn) -> bytes:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return b""
    if kind == 1:
        return draw(st.binary(min_size=1, max_size=1))
    code = draw(st.sampled_from([1000, 1001, 1002, 1005, 1006, 1011, 999, 3000, 4999, 5000]))
    reason = draw(st.text(max_size=20)).encode()
    if kind == 3:
        reason += draw(st.sampled_from(_BAD_UTF8))
    return code.to_bytes(2, "big") + reason


def _rarely(draw: st.DrawFn, one_in: int) -> bool:
    return draw(st.integers(0, one_in - 1)) == 0


@st.composite
def _spec(draw: st.DrawFn, max_size: int, ordinary: bool) -> Spec:
    """A frame: an ordinary one (a whole text message, deflated or not, now and then a
    ping or pong) or any other, with now and then one or more things spoiled."""
    if ordinary:
        opcode = draw(st.sampled_from([1] * 8 + [9, 10]))
    else:
        opcode = draw(st.sampled_from([1, 1, 1, 1, 0, 2, 8, 9, 10, 3, 7, 11, 15]))
    if opcode == Opcode.CLOSE:
        payload = draw(_close_payload())
    elif opcode in (Opcode.PING, Opcode.PONG) or _rarely(draw, 5):
        payload = draw(st.binary(max_size=130))
    else:
        payload = draw(_text(max_size))
    inner = None
    if not ordinary and _rarely(draw, 4):
        inner_spec = Spec(
            opcode=Opcode.TEXT,
            fin=True,
            compress=draw(st.booleans()),
            payload=draw(st.text(max_size=130)).encode(),
            mask=draw(st.binary(min_size=4, max_size=4)),
            length_form="min",
        )
        inner = _encode(inner_spec, None)[0]
    key = st.binary(min_size=4, max_size=4) | st.just(b"\x00" * 4)
    spoil = not ordinary and not _rarely(draw, 3)
    return Spec(
        opcode=opcode,
        fin=ordinary or not _rarely(draw, 5),
        compress=draw(st.sampled_from([True, True, False])),
        payload=payload,
        mask=None if spoil and _rarely(draw, 4) else draw(key),
        length_form=draw(st.sampled_from(["min"] * 6 + ["16", "64"])),
        length_delta=draw(st.sampled_from([1, -1, 2, -4, 126, -126, 1 << 16]))
        if spoil and _rarely(draw, 3)
        else 0,
        # (In an ordinary frame, RSV1 set on text not deflated: a frame that does not
        # inflate, or not to UTF-8, most likely.)
        rsv=draw(st.sampled_from([0x10, 0x20, 0x30, 0x40, 0x70]))
        if spoil and _rarely(draw, 3)
        else 0x40
        if ordinary and _rarely(draw, 8)
        else 0,
        flip=(draw(st.integers(0, 1)), draw(st.integers(0, 7)))
        if spoil and _rarely(draw, 3)
        else None,
        inner=inner,
        inner_at=draw(st.sampled_from(["key", "payload"])),
    )


@dataclass(frozen=True)
class Case:
    deflate: bool  # the server offers permessage-deflate (uvicorn's ws_per_message_deflate)
    offer: bool  # the client offers it
    max_size: int
    specs: tuple[Spec, ...]
    joins: tuple[bool, ...]  # per frame after the first: in the same read as the one before
    #: (frame, offset): a read also ends there; offset -1: after the frame's header (its
    #: length included), -2: after its mask key too.
    cuts: tuple[tuple[int, int], ...]
    pipelined: int  # bytes of the frames sent in the handshake's read
    drain: bool  # the application reads every message at once (else when reading pauses)


@st.composite
def _cases(draw: st.DrawFn) -> Case:
    """A client's frames, and how the server's reads cut them: half the time the frames
    of an ordinary client, each read one frame; else anything."""
    ordinary = draw(st.booleans())
    max_size = draw(st.sampled_from(MAX_SIZES))
    specs = tuple(draw(st.lists(_spec(max_size, ordinary), min_size=1, max_size=5)))
    offset = st.sampled_from([-1, -2, 1, 2, 3, 6, 10]) | st.integers(0, 200)
    cuts = st.lists(st.tuples(st.integers(0, len(specs) - 1), offset), max_size=3)
    # Mostly, a read ends where a frame carried in another begins.
    carried = [
        (index, -1 if spec.inner_at == "key" else -2)
        for index, spec in enumerate(specs)
        if spec.inner is not None and not _rarely(draw, 4)
    ]
    return Case(
        deflate=draw(st.sampled_from([True, True, True, False])),
        offer=draw(st.sampled_from([True, True, True, False])),
        max_size=max_size,
        specs=specs,
        joins=tuple(not ordinary and _rarely(draw, 3) for _ in specs[1:]),
        cuts=() if ordinary else tuple(carried + draw(cuts)),
        pipelined=0 if ordinary else draw(st.sampled_from([0, 0, 0, 1, 2, 4, 6, 8])),
        drain=draw(st.booleans()),
    )


def _client_extension(response: bytes) -> PerMessageDeflate | None:
    """The client's side of whatever permessage-deflate the server's 101 agreed."""
    for line in response.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"sec-websocket-extensions":
            ((_, params),) = parse_extension(value.decode().strip())
            extension = _offer()[0].process_response_params(params, [])
            assert isinstance(extension, PerMessageDeflate)
            return extension
    return None


async def _compare(case: Case) -> list[Any]:
    """Run ``case`` on both sides, asserting they agree; what the application received."""
    config = _config(case.deflate, case.max_size)
    ours, reference = sides = (_open(WebSocketProtocol, config), _open(_Reference, config))
    # The client deflates with what the server agrees; the server's answer does not
    # depend on the side, nor on what follows the request, so an earlier run's is used to
    # write the frames that go with the request.
    probe = _open(_Reference, config)
    probe.protocol.data_received(_request(case.offer))
    probe.tasks = list(probe.state.tasks)
    for _ in range(5):
        await asyncio.sleep(0)
    client = _client_extension(bytes(probe.transport.written))
    probe.done.set()
    encoded = [_encode(spec, client) for spec in case.specs]
    frames = [frame for frame, _ in encoded]
    stream = b"".join(frames)
    starts = [sum(map(len, frames[:index])) for index in range(len(frames))]
    ends = {starts[index] for index, join in enumerate(case.joins, 1) if not join}
    for frame, offset in case.cuts:
        header = encoded[frame][1]
        offset = {-1: header, -2: header + 4}.get(offset, offset)
        ends.add(min(starts[frame] + offset, len(stream)))
    ends.add(len(stream))
    pipelined = min(case.pipelined, len(stream))
    ends = {end for end in ends if end > pipelined}
    bounds = [pipelined, *sorted(ends)]
    reads = [stream[start:end] for start, end in itertools.pairwise(bounds)]

    outcomes = [_feed(side, _request(case.offer) + stream[:pipelined]) for side in sides]
    for side in sides:
        side.tasks = list(side.state.tasks)
    for _ in range(5):
        await asyncio.sleep(0)
    assert outcomes[0] == outcomes[1]
    # (Frames with the request that websockets refuses end it before the handshake.)
    assert ours.protocol.handshake_complete == reference.protocol.handshake_complete
    for side in sides:
        await _drain(side)
    for read in reads:
        if reference.transport.closed:
            break  # a socket's transport reads nothing more once it is closed
        outcomes = [_feed(side, read) for side in sides]
        assert outcomes[0] == outcomes[1], read
        for side in sides:
            if case.drain or side.transport.paused:
                await _drain(side)
    for side in sides:
        await _drain(side)
    assert _final(ours) == _final(reference)
    for side in (*sides, probe):
        side.done.set()
    # The application's ends (uvicorn's own errors, after frames sent with the request).
    returns = [
        [repr(end) for end in await asyncio.gather(*side.tasks, return_exceptions=True)]
        for side in sides
    ]
    assert returns[0] == returns[1]
    await asyncio.gather(*probe.tasks)
    return ours.received


def _check(case: Case) -> list[Any]:
    return asyncio.run(_compare(case))


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(_cases())
def test_the_servers_reading_is_websockets_reading(case: Case) -> None:
    _check(case)


def test_a_read_that_ends_after_a_frames_header_leaves_the_rest_to_websockets() -> None:
    """A divergence the fuzz found (fixed in wsprotocol._between_frames): when a read ended
    just after a frame's header (or its mask key), websockets' parser had taken those bytes
    and buffered nothing, and the server read the next read, the rest of that frame, as a
    frame of its own when its bytes looked like one: a client could have a message
    delivered that websockets never reads (here the rest is not UTF-8 as websockets
    unmasks it, and websockets fails the connection with 1007 instead). Read after the
    header and after the mask key; the header in a read of its own or in the handshake's."""
    inner = _encode(
        Spec(Opcode.TEXT, True, False, b'{"type": "ping", "id": 1}', b"\x81\xf0\x0f\x7e", "min"),
        None,
    )[0]
    for at, cut, header in (("key", -1, 2), ("payload", -2, 6)):
        for pipelined in (0, header):
            carrier = Spec(
                Opcode.TEXT, True, False, b"", b"\x81\x80\x00\x00", "min", inner=inner, inner_at=at
            )
            case = Case(
                deflate=True,
                offer=True,
                max_size=1 << 20,
                specs=(carrier,),
                joins=(),
                cuts=((0, cut),),
                pipelined=pipelined,
                drain=True,
            )
            received = _check(case)
            assert not any('"ping"' in message.get("text", "") for message in received)


def test_an_ordinary_clients_frames_are_read_by_the_server() -> None:
    """The fast path is taken where it should be (else the fuzz above compares websockets
    with itself): a read of one whole text frame, deflated or not, right after the
    handshake, after a frame split across reads and after a ping; not the read that ends
    that split frame, nor one that ends just after a frame's header."""

    async def scenario() -> None:
        side = _open(WebSocketProtocol, _config(True, 1 << 20))
        side.protocol.data_received(_request(True))
        side.tasks = list(side.state.tasks)
        for _ in range(5):
            await asyncio.sleep(0)
        client = _client_extension(bytes(side.transport.written))
        assert client is not None
        taken = []

        def read(data: bytes) -> None:
            taken.append(side.protocol._received_one_text_frame(data))
            if not taken[-1]:
                side.protocol.data_received(data)

        def text(ident: int, compress: bool) -> bytes:
            payload = f'{{"type": "ping", "id": {ident}}}'.encode()
            return _encode(
                Spec(Opcode.TEXT, True, compress, payload, b"\x12\x34\x56\x78", "min"), client
            )[0]

        read(text(1, True))
        read(text(2, False))
        split = text(3, True)
        read(split[:3])
        read(split[3:])
        read(text(4, True))
        read(_encode(Spec(Opcode.PING, True, False, b"hi", b"\x01\x02\x03\x04", "min"), None)[0])
        read(text(5, False))
        carrier = Spec(
            Opcode.TEXT, True, False, b"", b"\x00" * 4, "min", inner=text(6, False), inner_at="key"
        )
        whole = _encode(carrier, None)[0]
        read(whole[:2])
        read(whole[2:])
        assert taken == [True, True, False, False, True, False, True, False, False]
        await _drain(side)
        texts = [m["text"] for m in side.received if "text" in m]
        assert [json.loads(text)["id"] for text in texts] == [1, 2, 3, 4, 5]
        # The carrier's text, as websockets unmasks it, is not UTF-8.
        assert side.received[-1] == {"type": "websocket.disconnect", "code": 1007, "reason": ""}
        side.done.set()
        await asyncio.gather(*side.tasks)

    asyncio.run(scenario())
