"""The outside of an .xg file: its game data header, an optional thumbnail, and the zlib
archive that holds the files eXtreme Gammon saves (``temp.xg`` with the games,
``temp.xgi``, ``temp.xgr`` with rollouts, ``temp.xgc`` with comments).

Laid out as eXtreme Gammon's published description of the format has it
(``xg_format.pas``, https://www.extremegammon.com/xgformat.aspx): the header starts
with the magic ``RGMH`` and its version (1), its size and the thumbnail's; the
archive ends with a 36-byte record (a CRC-32 of the archive's data and registry,
the number of files, the registry's size and the data's), just before which
stands the registry, one 532-byte entry per file (its name, sizes, start and CRC),
deflated as a zlib stream like the files themselves.
"""

from __future__ import annotations

import struct
import zlib
from typing import Final

from gammon.errors import XgFileError

__all__ = ["GDF_MAGIC", "archive_files"]

#: The first four bytes of every .xg file (the description's ``$484D4752``, little-endian).
GDF_MAGIC: Final = b"RGMH"
_GDF_HEAD: Final = struct.Struct("<4siiqi")  # magic, version, header size, thumbnail at, size
_ARCHIVE: Final = struct.Struct("<IiiiiI12x")  # crc, files, version, registry, data, deflated
_ENTRY: Final = struct.Struct("<256s256siiiIBB2x")  # name, path, size, stored, start, crc, ...
_MAX_SIZE: Final = 64 * 1024 * 1024  # no game file of a match comes near this


def archive_files(data: bytes) -> dict[str, bytes]:
    """The files of an .xg file's archive by name (``temp.xg`` holds the games)."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise XgFileError(f"an .xg file is read from bytes, got {type(data).__name__}")
    data = bytes(data)
    if data[:4] != GDF_MAGIC:
        raise XgFileError(
            "this is not an eXtreme Gammon .xg file: it does not start with the magic 'RGMH'"
        )
    if len(data) < _GDF_HEAD.size:
        raise XgFileError("the .xg file stops inside its header: it is cut short")
    _, version, header_size, _, thumbnail = _GDF_HEAD.unpack_from(data)
    if version != 1 or header_size < _GDF_HEAD.size or thumbnail < 0:
        raise XgFileError(f"the .xg file's header is of version {version}; only 1 is read")
    if len(data) < header_size + thumbnail + _ARCHIVE.size:
        raise XgFileError("the .xg file stops before its archive: it is cut short")
    end = len(data) - _ARCHIVE.size
    crc, count, _, registry_size, data_size, deflated = _ARCHIVE.unpack_from(data, end)
    start = end - registry_size - data_size
    if count < 1 or registry_size < 0 or data_size < 0 or start < header_size:
        raise XgFileError("the .xg file's archive record does not fit the file: it is damaged")
    if zlib.crc32(data[start:end]) != crc:
        raise XgFileError("the .xg file's archive fails its CRC check: the file is damaged")
    registry = data[end - registry_size : end]
    if deflated:
        registry = _inflate(registry, "the archive's registry")
    if len(registry) < count * _ENTRY.size:
        raise XgFileError(f"the .xg file's registry holds fewer than its {count} files")
    files: dict[str, bytes] = {}
    for index in range(count):
        raw_name, _, size, stored, offset, file_crc, flag, _ = _ENTRY.unpack_from(
            registry, index * _ENTRY.size
        )
        name = _short_string(raw_name)
        if offset < 0 or stored < 0 or start + offset + stored > end:
            raise XgFileError(f"the .xg file's archived {name!r} lies outside the archive")
        body = data[start + offset : start + offset + stored]
        if flag == 0:  # 0 is deflated, as the description has it
            body = _inflate(body, repr(name))
        if len(body) != size or zlib.crc32(body) != file_crc:
            raise XgFileError(f"the .xg file's archived {name!r} fails its CRC check: damaged")
        files[name] = body
    return files


def _inflate(raw: bytes, what: str) -> bytes:
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(raw, _MAX_SIZE)
    except zlib.error as exc:
        raise XgFileError(f"the .xg file's {what} cannot be inflated: {exc}") from None
    if inflater.unconsumed_tail:
        raise XgFileError(f"the .xg file's {what} is larger than {_MAX_SIZE // 2**20} MiB")
    return out


def _short_string(raw: bytes) -> str:
    """A Delphi short string: a length byte, then that many bytes (Windows-1252 text)."""
    return raw[1 : 1 + raw[0]].decode("cp1252", errors="replace")
