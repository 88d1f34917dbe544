"""A test-only writer of eXtreme Gammon .xg files, from the format's published description.

eXtreme Gammon's own files may not ship with the repository (their licences do not
allow it), so the tests make their own: a series of our rules is written here as an
.xg file of known games, and gammon.xgfile must read it to the same games as the .mat
text of the same match. Written from the description (``xg_format.pas``,
https://www.extremegammon.com/xgformat.aspx) and independently of the reader: the
offsets are written out again here, so that a mistake in one does not hide in both.
Only the fields the reader uses are filled; the rest stay zero, as "not analysed"
where the description says so (-1000).
"""

from __future__ import annotations

import struct
import zlib

from gammon.events import (
    Beavered,
    Doubled,
    Dropped,
    Ended,
    EndReason,
    Event,
    Moved,
    OpeningRolled,
    Passed,
    Rolled,
    Took,
)
from gammon.match import Match, Session

RECORD = 2560
NOT_ANALYSED = -1000.0
VARIATIONS = {"standard": 0, "nackgammon": 1, "hypergammon": 2}


def _record(kind: int) -> bytearray:
    record = bytearray(RECORD)
    record[8] = kind
    return record


def _short(text: str, size: int) -> bytes:
    raw = text.encode("cp1252")[: size - 1]
    return bytes([len(raw)]) + raw.ljust(size - 1, b"\0")


def _wide(text: str) -> bytes:
    return text.encode("utf-16-le")[:256].ljust(258, b"\0")


def _active(side: int) -> int:
    return 1 if side == 0 else -1


def match_header(series: Match | Session, names: tuple[str, str], version: int = 30) -> bytes:
    record = _record(0)
    rules = series.rules
    record[9:50] = _short(names[0], 41)
    record[50:91] = _short(names[1], 41)
    struct.pack_into("<ii", record, 92, rules.length or 99999, VARIATIONS[rules.variant.name])
    record[100:104] = bytes([rules.crawford, rules.jacoby, rules.beavers, 0])
    record[136:265] = _short("Test event", 129)
    struct.pack_into("<iI", record, 552, version, 0x494C4D44)
    struct.pack_into("<i", record, 612, rules.max_cube if rules.cube else 1)
    if version >= 24:
        for index, text in enumerate(("Test event", names[0], names[1], "", "")):
            at = 622 + index * 258
            record[at : at + 258] = _wide(text)
    return bytes(record)


def game_header(score: tuple[int, int], number: int) -> bytes:
    record = _record(1)
    struct.pack_into("<ii", record, 12, *score)
    struct.pack_into("<i", record, 48, number)
    return bytes(record)


def cube_record(side: int, double: int, take: int, beaver_answer: int, error: float) -> bytes:
    record = _record(2)
    struct.pack_into("<iiiii", record, 12, _active(side), double, take, beaver_answer, 0)
    struct.pack_into("<d", record, 200, error)
    struct.pack_into("<d", record, 216, NOT_ANALYSED)
    return bytes(record)


def move_record(
    side: int, dice: tuple[int, int], moves: list[tuple[int, int]], error: float, luck: float
) -> bytes:
    record = _record(3)
    numbers = [number for pair in moves for number in pair] + [-1] * (8 - 2 * len(moves))
    struct.pack_into("<i8i2i", record, 64, _active(side), *numbers[:8], *dice)
    struct.pack_into("<dd", record, 2312, error, luck)
    return bytes(record)


def game_footer(winner: int, points: int, termination: int) -> bytes:
    record = _record(4)
    struct.pack_into("<iii", record, 24, _active(winner), points, termination)
    return bytes(record)


def game_records(history: tuple[Event, ...], *, analysed: bool) -> list[bytes]:
    """One game's cube, move and footer records, from its history."""
    out: list[bytes] = []
    opening: tuple[int, tuple[int, int]] | None = None
    rolled: tuple[int, tuple[int, int]] | None = None
    error = 0.125 if analysed else NOT_ANALYSED
    for index, event in enumerate(history):
        following = history[index + 1 :]
        if isinstance(event, OpeningRolled) and not event.is_tie:
            die0, die1 = event.dice
            opening = (0 if die0 > die1 else 1, (max(event.dice), min(event.dice)))
        elif isinstance(event, Rolled):
            rolled = (event.side, event.dice)
        elif isinstance(event, Moved):
            # off as -2, as the description's lists have it; the reader takes any end below 1
            moves = [(m.source, m.target if m.target else -2) for m in event.moves]
            out.append(move_record(event.side, event.dice, moves, error, 0.25))
            opening = rolled = None
        elif isinstance(event, Passed):
            thrown = rolled or opening or (event.side, (6, 4))  # XG always throws the dice
            out.append(move_record(thrown[0], thrown[1], [], NOT_ANALYSED, 0.0))
            opening = rolled = None
        elif isinstance(event, Doubled):
            answer = next(e for e in following if isinstance(e, Took | Dropped | Beavered | Ended))
            take = 1 if isinstance(answer, Took) else 2 if isinstance(answer, Beavered) else 0
            beaver_answer = -1
            if isinstance(answer, Beavered):
                second = next(e for e in following[1:] if isinstance(e, Took | Dropped | Ended))
                beaver_answer = 1 if isinstance(second, Took) else 0
            out.append(cube_record(event.side, 1, take, beaver_answer, error))
        elif isinstance(event, Ended):
            if rolled is not None or opening is not None:  # rolled, then resigned
                thrown = rolled or opening
                assert thrown is not None
                out.append(move_record(thrown[0], thrown[1], [], NOT_ANALYSED, 0.0))
            result = event.result
            termination = {
                EndReason.DROP: 0,
                EndReason.BEAR_OFF: int(result.kind),
                EndReason.RESIGNATION: 99 + int(result.kind),
            }.get(result.reason, 0)
            out.append(game_footer(result.winner, result.points, termination))
    return out


def write_xg(
    series: Match | Session,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    *,
    analysed: bool = False,
    version: int = 30,
    thumbnail: bytes = b"",
) -> bytes:
    """The .xg file of ``series``: the header, ``thumbnail``, and an archive with temp.xg."""
    records = [match_header(series, names, version)]
    score = list(series.start_score)
    payouts = series.payouts if isinstance(series, Session) else None
    for number, game in enumerate(series.games, 1):
        records.append(game_header((score[0], score[1]), number))
        records += game_records(game.history, analysed=analysed)
        if game.result is not None:
            score[game.result.winner] += (
                game.result.points if payouts is None else payouts[number - 1]
            )
    records.append(_record(5))  # the match footer
    return container({"temp.xg": b"".join(records), "temp.xgc": b""}, thumbnail)


def container(files: dict[str, bytes], thumbnail: bytes = b"") -> bytes:
    """The game data header, the thumbnail and the zlib archive of ``files``."""
    header_size = 8232
    header = bytearray(header_size)
    struct.pack_into("<4siiqi", header, 0, b"RGMH", 1, header_size, 0, len(thumbnail))
    body = bytearray()
    registry = bytearray()
    for name, content in files.items():
        packed = zlib.compress(content)
        registry += struct.pack(
            "<256s256siiiIBB2x",
            _short(name, 256), _short("", 256), len(content), len(packed), len(body),
            zlib.crc32(content), 0, 9,
        )
        body += packed
    packed_registry = zlib.compress(bytes(registry))
    tail = struct.pack(
        "<IiiiiI12x",
        zlib.crc32(bytes(body) + packed_registry), len(files), 1, len(packed_registry),
        len(body), 1,
    )
    return bytes(header) + thumbnail + bytes(body) + packed_registry + tail
