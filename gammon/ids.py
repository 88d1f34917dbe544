"""GNU Backgammon's Position ID and Match ID, as pure functions on plain data.

The two formats live in :mod:`gammon.position_id` and :mod:`gammon.match_id`;
this module offers both under one name, as callers have long imported them.

>>> decode_match_id(encode_match_id(MatchIdFields(match_length=7))).match_length
7
>>> encode_position_id(*decode_position_id("4HPwATDgc/ABMA"))
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

from gammon.match_id import (
    MATCH_ID_LENGTH,
    GameState,
    MatchIdFields,
    MatchIdValues,
    decode_match_id,
    encode_match_id,
    match_id_of_valid,
)
from gammon.position_id import (
    POSITION_ID_LENGTH,
    decode_position_id,
    encode_position_id,
    position_id_of_board,
    position_id_of_valid,
    put_position_id,
    side_counts,
)

__all__ = [
    "MATCH_ID_LENGTH",
    "POSITION_ID_LENGTH",
    "GameState",
    "MatchIdFields",
    "decode_match_id",
    "decode_position_id",
    "encode_match_id",
    "encode_position_id",
    "MatchIdValues",
    "match_id_of_valid",
    "position_id_of_board",
    "position_id_of_valid",
    "put_position_id",
    "side_counts",
]
