"""The ``legal_plays`` of a state as JSON text, written for a whole roll at once.

Every state of the side on roll lists each legal play with its notation, its
moves, the Position ID after it and the board after it (docs/PROTOCOL.md 3):
20-odd plays a roll, hundreds for some doubles. Built play by play as Python
values this was a fifth of the server's time per action; here one compiled
kernel writes the whole list from the move generator's own bytes (the moves
and boards of every play of the roll), about twenty times faster. The text is exactly
what ``dumps([play_json(play, side) for play in plays])`` gives; the tests compare
the two over random games of every variant. The rules in it are the rules
library's own compiled writers, called from here: the notation
(:func:`gammon.notation.put_notation`), the Position ID
(:func:`gammon.ids.put_position_id`) and the pip count
(:func:`gammon.position.side_pips`); this module writes only the JSON around them.

>>> from gammon.position import Position
>>> from gammon.server.game_json import play_json
>>> from gammon.server.protocol import dumps
>>> plays = Position.initial().plays((3, 1))
>>> legal_plays_text(plays, 0) == dumps([play_json(play, 0) for play in plays])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from numba import njit

from gammon.ids import put_position_id
from gammon.notation import put_notation
from gammon.play import Play, packed_boards, packed_moves
from gammon.position import Position, side_pips
from gammon.textkernels import literal, put, put_int

__all__ = ["board_text", "legal_plays_text", "state_boards_text", "warm_up"]

_BOARD_SIZE: Final = 54
_SIDE: Final = 27
_MOVE_BYTES: Final = 12
#: Longest text the kernel writes for one play (notation, moves, ID, 54 counts, pips, keys):
#: well under this.
_MAX_ENTRY: Final = 640


def legal_plays_text(plays: Sequence[Play], side: int) -> str:
    """``plays`` (one roll's, of ``side``, who is on roll) as the state's ``legal_plays`` text."""
    if not plays:
        return "[]"
    boards = np.frombuffer(packed_boards(plays), dtype=np.uint8)
    moves = np.frombuffer(packed_moves(plays), dtype=np.uint8)
    used = len(plays[0].raw_moves) // 3
    text: str = _entries(boards, moves, used, side).tobytes().decode("ascii")
    return text


_PLAY: Final = literal('{"play":"')
_MOVES: Final = literal('","moves":[')
_TRUE: Final = literal("true]")
_FALSE: Final = literal("false]")
_POSITION_ID: Final = literal('],"position_id":')
_BOARD: Final = literal(',"board":')
_SIDE_KEY: Final = literal('{"side":')
_MINE: Final = literal(',"mine":[')
_THEIRS: Final = literal('],"theirs":[')
_OFF: Final = literal('],"off":[')
_WAITING: Final = literal('],"waiting":[')
_PIPS: Final = literal('],"pips":[')
_END: Final = literal("]}")
_NULL: Final = literal("null")


@njit(cache=True, nogil=True)
def _put_counts(out: Any, pos: int, board: Any, base: int) -> int:
    """Points 1-24 and the bar of the side at ``base``, comma-separated."""
    for point in range(1, 26):
        if point > 1:
            out[pos] = 44  # ,
            pos += 1
        pos = put_int(out, pos, board[base + point])
    return pos


@njit(cache=True, nogil=True)
def _put_quoted_id(out: Any, pos: int, board: Any, base: int, key: Any) -> int:
    """The board's Position ID (the rules library's writer, gammon.ids) as a JSON string."""
    out[pos] = 34  # "
    pos = put_position_id(out, pos + 1, board, base, key)
    out[pos] = 34
    return pos + 1


@njit(cache=True, nogil=True)
def _put_board(out: Any, pos: int, boards: Any, base: int, side: int) -> int:
    """The board at ``base`` as gammon.server.game_json.board_json writes it."""
    theirs = base + _SIDE
    pos = put(out, pos, _SIDE_KEY)
    pos = put_int(out, pos, side)
    pos = put(out, pos, _MINE)
    pos = _put_counts(out, pos, boards, base)
    pos = put(out, pos, _THEIRS)
    pos = _put_counts(out, pos, boards, theirs)
    pos = put(out, pos, _OFF)
    pos = put_int(out, pos, boards[base])
    out[pos] = 44
    pos = put_int(out, pos + 1, boards[theirs])
    pos = put(out, pos, _WAITING)
    pos = put_int(out, pos, boards[base + 26])
    out[pos] = 44
    pos = put_int(out, pos + 1, boards[theirs + 26])
    pos = put(out, pos, _PIPS)
    pos = put_int(out, pos, side_pips(boards, base))  # the rules library's count (R2)
    out[pos] = 44
    pos = put_int(out, pos + 1, side_pips(boards, theirs))
    return put(out, pos, _END)


@njit(cache=True, nogil=True)
def _board_only(board: Any, side: int) -> Any:
    out = np.empty(_MAX_ENTRY, dtype=np.uint8)
    return out[: _put_board(out, 0, board, 0, side)]


def warm_up() -> None:
    """Load (or, in a fresh checkout, compile) the kernels: at the server's start, in a
    thread, not at the first roll of its first game (seconds, once per checkout)."""
    start = Position.initial()
    legal_plays_text(start.plays((3, 1)), 0)
    board_text(start, 1)
    state_boards_text(start, 1)


@njit(cache=True, nogil=True)
def _state_boards(boards: Any, on_roll: int) -> Any:
    """Side 0's board (``boards[:54]``), side 1's (``boards[54:]``), then the Position ID
    of ``on_roll``'s (quoted; empty while acey-deucey checkers wait: no ID holds them)."""
    out = np.empty(2 * _MAX_ENTRY, dtype=np.uint8)
    first_end = _put_board(out, 0, boards, 0, 0)
    second_end = _put_board(out, first_end, boards, _BOARD_SIZE, 1)
    base = on_roll * _BOARD_SIZE
    end = second_end
    if boards[base + 26] == 0 and boards[base + _SIDE + 26] == 0:
        end = _put_quoted_id(out, end, boards, base, np.empty(12, dtype=np.uint8))
    return out[:end], first_end, second_end


def state_boards_text(position: Position, on_roll: int) -> tuple[str, str, str | None]:
    """What a state shows of the board, in one compiled call: ``board_text`` from side 0
    and from side 1 (``position`` is side 0's), and ``position_id`` of the board seen from
    ``on_roll``."""
    raw = position.raw
    both = raw + raw[_SIDE:] + raw[:_SIDE]  # side 0's board, then side 1's (swapped)
    out, first_end, second_end = _state_boards(np.frombuffer(both, dtype=np.uint8), on_roll)
    text = out.tobytes().decode("ascii")
    return text[:first_end], text[first_end:second_end], text[second_end + 1 : -1] or None


def board_text(position: Position, side: int) -> str:
    """``dumps(board_json(position, side))``, from the compiled writer of the plays' boards."""
    text: str = (
        _board_only(np.frombuffer(position.raw, dtype=np.uint8), side).tobytes().decode("ascii")
    )
    return text


@njit(cache=True, nogil=True)
def _entries(boards: Any, moves: Any, used: int, side: int) -> Any:
    """The JSON list of every play (its moves and the board after it)."""
    count = boards.shape[0] // _BOARD_SIZE
    out = np.empty(2 + count * _MAX_ENTRY, dtype=np.uint8)
    out[0] = 91  # [
    pos = 1
    segments = np.empty((4, 3), dtype=np.int64)
    keys = np.empty((4, 3), dtype=np.int64)
    key = np.empty(12, dtype=np.uint8)
    for index in range(count):
        if index > 0:
            out[pos] = 44
            pos += 1
        first = index * _MOVE_BYTES
        pos = put(out, pos, _PLAY)
        pos = put_notation(out, pos, moves, first, used, segments, keys)
        pos = put(out, pos, _MOVES)
        for move in range(used):
            at = first + 3 * move
            if move > 0:
                out[pos] = 44
                pos += 1
            out[pos] = 91
            # A waiting acey-deucey checker (26) enters as from the bar (25).
            pos = put_int(out, pos + 1, min(np.int64(moves[at]), 25))
            out[pos] = 44
            pos = put_int(out, pos + 1, moves[at + 1])
            out[pos] = 44
            pos = put(out, pos + 1, _TRUE if moves[at + 2] else _FALSE)
        base = index * _BOARD_SIZE
        theirs = base + _SIDE
        pos = put(out, pos, _POSITION_ID)
        if boards[base + 26] == 0 and boards[theirs + 26] == 0:
            pos = _put_quoted_id(out, pos, boards, base, key)
        else:
            pos = put(out, pos, _NULL)  # acey-deucey checkers still waiting: no ID holds them
        pos = put(out, pos, _BOARD)
        pos = _put_board(out, pos, boards, base, side)
        out[pos] = 125  # }
        pos += 1
    out[pos] = 93  # ]
    return out[: pos + 1]
