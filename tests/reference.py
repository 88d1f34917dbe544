"""Straightforward definitions of what the rules library computes with compiled writers.

The library writes the notation of plays (gammon.notation.put_notation), the
Position ID (gammon.ids.put_position_id) and the pip count
(gammon.position.side_pips) in compiled code, which both the library and the
server call. The differential tests compare them with these: each written as
the rule reads, in plain Python, with no thought for speed.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence

from gammon.play import Move
from gammon.position import Position


def plain_notation(moves: Sequence[Move]) -> str:
    """Standard notation, by its rules: a checker's moves joined into one segment until it
    hits; segments from the highest start down (the bar first, off last), a hit before
    the same segment without; equal segments written once with their count."""
    if not moves:
        return "(no play)"
    segments: list[list[int]] = []  # [source, target, hit]
    for move in moves:
        open_segment = next((s for s in segments if s[1] == move.source and not s[2]), None)
        if open_segment is None:
            segments.append([move.source, move.target, int(move.hit)])
        else:
            open_segment[1], open_segment[2] = move.target, int(move.hit)

    def name(point: int) -> str:
        return {25: "bar", 0: "off"}.get(point, str(point))

    def order(segment: list[int]) -> tuple[int, int, int]:
        source, target, hit = segment
        return (-source, -target if target else 1, -hit)

    written: list[str] = []
    counts: dict[str, int] = {}
    for source, target, hit in sorted(segments, key=order):
        text = f"{name(source)}/{name(target)}{'*' if hit else ''}"
        if text not in counts:
            written.append(text)
        counts[text] = counts.get(text, 0) + 1
    return " ".join(text if counts[text] == 1 else f"{text}({counts[text]})" for text in written)


def plain_position_id(mine: Sequence[int], theirs: Sequence[int]) -> str:
    """GNU Backgammon's Position ID: for the opponent's 25 points (with the bar) and then
    the player on roll's, each point's checkers as that many 1 bits and a 0, bit 0 of the
    key first; the 80-bit key's 10 bytes in base64, its padding dropped."""
    bits = "".join("1" * count + "0" for count in (*theirs, *mine))
    key = int(bits[::-1], 2)
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def plain_pips(position: Position) -> tuple[int, int]:
    """R2: every checker counts the number of its point; one on the bar, or waiting to
    enter, 25; the player on roll first."""
    mine = sum(point * count for point, count in enumerate(position.mine, start=1))
    theirs = sum(point * count for point, count in enumerate(position.theirs, start=1))
    waiting = position.waiting
    return mine + 25 * waiting[0], theirs + 25 * waiting[1]
