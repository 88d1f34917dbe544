"""The syntax of a written play: the text players type, read into one path per checker.

``13/7*/5(2) bar/22`` is three checkers' paths: the points each lands on, which of
them is marked as a hit, and a count for equal segments. This reads the text only;
:func:`gammon.notation.parse_play` then finds the legal play the paths name
(:mod:`gammon.notation_search`) and explains the rule a play breaks.

>>> paths, shown = read_paths("13/7*/5(2), bar-22")
>>> [str(path) for path in paths], shown
(['13/7*/5', '13/7/5', 'bar/22'], ['13/7*/5(2)', 'bar/22'])
>>> read_paths("13/7x")
Traceback (most recent call last):
...
gammon.errors.InvalidPlayError: cannot read '13/7x': '7x' is not a point (use 1-24, bar or off)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from gammon.errors import InvalidPlayError
from gammon.i18n import N_
from gammon.messages import Message

__all__ = ["BAR_POINT", "OFF_POINT", "CheckerPath", "point_name", "read_error", "read_paths"]

#: How moves number the bar and borne off, next to points 1-24 of the mover.
BAR_POINT: Final = 25
OFF_POINT: Final = 0


def point_name(point: int) -> str:
    """A move's point as written: ``bar``, ``off`` or its number."""
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


_NAMES = {"bar": BAR_POINT, "b": BAR_POINT, "off": OFF_POINT, "o": OFF_POINT}
_SEGMENT = re.compile(r"(?P<body>[^()]*)(?:\((?P<count>[^()]*)\))?")
_POINT = re.compile(r"(?P<name>[a-z]+|\d+)(?P<star>\*?)", re.ASCII)
_MAX_REPEAT = 4
_SPACED_SEPARATOR = re.compile(r"\s*([/-])\s*")
# "-" separates points ("13-7") except at the start or right after "/", where it
# is a minus sign ("bar/-1") and the point it belongs to must be named.
_SEPARATOR = re.compile(r"/|(?<=[^/])-")
_NEGATIVE = re.compile(r"-[0-9]+", re.ASCII)
_SPACE_IN_SEGMENT = re.compile(r"\s+(?=[*()])|(?<=\()\s+")


@dataclass(frozen=True, slots=True)
class CheckerPath:
    """One checker's way as written: the points it lands on, each maybe marked as a hit."""

    points: tuple[int, ...]
    stars: tuple[bool, ...]

    def __str__(self) -> str:
        marks = ("*" if star else "" for star in self.stars)
        return "/".join(point_name(p) + mark for p, mark in zip(self.points, marks, strict=False))


def read_error(token: str, why: Message) -> InvalidPlayError:
    return InvalidPlayError(Message("cannot read {token}: {why}", token=repr(token), why=why))


def _tokenize(text: str) -> list[str]:
    """Split into segments, first gluing back what spaces cut apart ("13 / 7 *", "6/2 (2)")."""
    cleaned = _SPACED_SEPARATOR.sub(lambda m: m[1], text.lower().replace(",", " "))
    return _SPACE_IN_SEGMENT.sub("", cleaned).split()


def _read_segment(token: str) -> tuple[CheckerPath, int]:
    """One written segment (``13/7*/5(2)``) as a path and how many checkers take it."""
    match = _SEGMENT.fullmatch(token)
    if match is None:
        raise read_error(token, Message("brackets only hold a count, as in 6/2(2)"))
    count = 1 if match["count"] is None else _read_count(token, match["count"])
    parts = _SEPARATOR.split(match["body"])
    if len(parts) < 2:
        raise read_error(token, Message("a move is written from/to, as in 13/7"))
    points: list[int] = []
    stars: list[bool] = []
    for index, part in enumerate(parts):
        point, star = _read_point(token, part)
        if star and index == 0:
            raise read_error(
                token, Message("a hit mark * goes after the point landed on, as in 13/7*")
            )
        if star and point == OFF_POINT:
            raise read_error(token, Message("nothing can be hit off the board"))
        if points and point >= points[-1]:
            if point == points[-1]:
                raise read_error(
                    token, Message("{point} to itself is no move", point=point_name(point))
                )
            raise read_error(
                token,
                Message(
                    "{start} to {end} moves backwards "
                    "(checkers move to lower points, bar first and off last)",
                    start=point_name(points[-1]),
                    end=point_name(point),
                ),
            )
        points.append(point)
        stars.append(star)
    return CheckerPath(tuple(points), tuple(stars)), count


def _read_count(token: str, written: str) -> int:
    """The count in a segment's brackets, ``(2)``: 1 to the most checkers a roll moves."""
    if not written.isdigit() or not 1 <= int(written) <= _MAX_REPEAT:
        raise read_error(
            token,
            Message(
                "the count ({count}) must be a number from 1 to {most}",
                count=written,
                most=_MAX_REPEAT,
            ),
        )
    return int(written)


def _read_point(token: str, part: str) -> tuple[int, bool]:
    """One point of a segment (``7*``, ``bar``, ``off``) and whether it is marked as a hit."""
    point_match = _POINT.fullmatch(part)
    negative = _NEGATIVE.match(part)
    if negative is not None:
        raise read_error(token, Message(_NOT_A_NUMBERED_POINT, point=negative[0]))
    if point_match is None:
        why = (
            Message(_NOT_A_POINT, point=repr(part))
            if part
            else Message("a point is missing (use 1-24, bar or off)")
        )
        raise read_error(token, why)
    name = point_match["name"]
    if name.isdigit():
        # Long numbers are no points; int() would refuse thousands of digits.
        point = int(name) if len(name.lstrip("0")) <= 2 else BAR_POINT + 1
        if point > BAR_POINT:
            raise read_error(token, Message(_NOT_A_NUMBERED_POINT, point=name))
    elif name in _NAMES:
        point = _NAMES[name]
    else:
        raise read_error(token, Message(_NOT_A_POINT, point=repr(name)))
    return point, bool(point_match["star"])


def read_paths(text: str) -> tuple[list[CheckerPath], list[str]]:
    """The paths the text names (one per checker) and its segments as shown in messages."""
    paths: list[CheckerPath] = []
    shown: list[str] = []
    for token in _tokenize(text):
        path, count = _read_segment(token)
        shown.append(str(path) + (f"({count})" if count > 1 else ""))
        paths.append(path)
        # A repeated hit can happen only once; the mark goes with the first checker.
        plain = CheckerPath(path.points, (False,) * len(path.points))
        paths.extend([plain] * (count - 1))
    return paths, shown


#: The messages said in more than one place.
_NOT_A_POINT: Final = N_("{point} is not a point (use 1-24, bar or off)")
_NOT_A_NUMBERED_POINT: Final = N_("{point} is not a point (points are 1-24, 25 the bar and 0 off)")
