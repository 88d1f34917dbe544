"""Standard move notation, both ways: ``13/7* 7/5``, ``bar/22 6/off``, ``6/2(2)``.

Writing follows the common convention: a checker's consecutive moves are joined
(``24/13`` for 24/18 18/13) unless it hits on the way, where the hit ends the
segment (``13/7* 7/5``); equal segments are counted (``6/2(2)``); segments run
from the highest starting point down.

>>> from gammon.play import Move
>>> format_moves((Move(24, 18), Move(18, 13)))
'24/13'
>>> format_moves((Move(13, 7, True), Move(7, 5)))
'13/7* 7/5'
>>> format_moves((Move(6, 4), Move(6, 4), Move(4, 2), Move(4, 2)))
'6/2(2)'
"""

from __future__ import annotations

from collections.abc import Sequence

from gammon.play import BAR_POINT, OFF_POINT, Move

__all__ = ["format_moves"]


def _point_name(point: int) -> str:
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


def format_moves(moves: Sequence[Move]) -> str:
    """Write moves in standard notation; no moves at all is written ``(no play)``."""
    if not moves:
        return "(no play)"
    # Each segment is [source, target, hit]; a move extends an open segment
    # that ends where it starts, unless that segment ended with a hit.
    segments: list[list[int]] = []
    for move in moves:
        for segment in segments:
            if segment[1] == move.source and not segment[2]:
                segment[1] = move.target
                segment[2] = int(move.hit)
                break
        else:
            segments.append([move.source, move.target, int(move.hit)])
    segments.sort(key=lambda s: (-s[0], -s[1] if s[1] else 1, -s[2]))
    parts: list[str] = []
    index = 0
    while index < len(segments):
        segment = segments[index]
        repeat = 1
        while index + repeat < len(segments) and segments[index + repeat] == segment:
            repeat += 1
        text = f"{_point_name(segment[0])}/{_point_name(segment[1])}{'*' if segment[2] else ''}"
        parts.append(text if repeat == 1 else f"{text}({repeat})")
        index += repeat
    return " ".join(parts)
