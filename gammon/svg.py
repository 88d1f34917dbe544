"""A board as an SVG drawing: a string, for reports, web pages and notebooks.

Drawn by our own code as plain text (no external files, fonts or scripts), so a
page that holds it is self-contained; ``Position._repr_svg_`` shows it in
Jupyter. The board is laid out like the text diagram (:mod:`gammon.diagram`):
the player on roll at the bottom, points 13-24 along the top from the left,
12-1 along the bottom.

>>> from gammon.position import Position
>>> svg = board_svg(Position.initial(), dice=(3, 1))
>>> svg.startswith("<svg") and svg.count("<circle") == 30
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Final

from gammon.i18n import SOURCE_LANGUAGE, Translator, translator

if TYPE_CHECKING:
    from gammon.position import Position

__all__ = ["board_svg"]

_POINT: Final = 28  # width of a point
_CHECKER: Final = 12.5  # checker radius
_ROWS: Final = 5  # checkers drawn per stack
_EDGE: Final = 16  # room for the point numbers
_HALF: Final = 2 * _CHECKER * _ROWS + 8
_HEIGHT: Final = 2 * _EDGE + 2 * _HALF + 24
_LEFT: Final = 8
_BAR_X: Final = _LEFT + 6 * _POINT
_RIGHT_X: Final = _BAR_X + _POINT
_TRAY_X: Final = _RIGHT_X + 6 * _POINT
_WIDTH: Final = _TRAY_X + 52
_TOP: Final = (13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24)
_BOTTOM: Final = (12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
_COLOURS: Final = ("#f4efe4", "#2b2b2b")  # the player on roll, the opponent
_INKS: Final = ("#2b2b2b", "#f4efe4")


def _column_x(column: int) -> float:
    """The left edge of the point in ``column`` (0-11, left to right)."""
    return _LEFT + column * _POINT + (_POINT if column >= 6 else 0)


def _stack(x: float, count: int, side: int, top: bool, parts: list[str]) -> None:
    """``count`` checkers of ``side`` from the edge of a point (top or bottom) inwards."""
    for row in range(min(count, _ROWS)):
        offset = _EDGE + _CHECKER + row * 2 * _CHECKER
        y = offset if top else _HEIGHT - offset
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_CHECKER - 0.5}" '
            f'fill="{_COLOURS[side]}" stroke="#555" stroke-width="1"/>'
        )
        if row == _ROWS - 1 and count > _ROWS:
            parts.append(
                f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="12" '
                f'fill="{_INKS[side]}">{count}</text>'
            )


def board_svg(
    position: Position,
    *,
    dice: Sequence[int] | None = None,
    title: str | None = None,
    lang: str = SOURCE_LANGUAGE,
) -> str:
    """``position`` as an SVG drawing, its player on roll at the bottom (light checkers).

    ``dice`` is the roll to show; ``title`` the drawing's tooltip and accessible name; the
    trays' words are in ``lang``.
    """
    tr = translator(lang)
    parts = _frame(title or tr.gettext("Board"))
    _points(position, parts)
    _bar(position, parts)
    _trays(position, tr, parts)
    if dice is not None:
        _dice(dice, parts)
    parts.append("</svg>")
    return "".join(parts)


def _frame(name: str) -> list[str]:
    """The drawing's opening: its title, the wooden frame, the playing field and the bar."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" '
        f'width="{_WIDTH}" height="{_HEIGHT}" role="img" class="board">',
        f"<title>{escape(name)}</title>",
        f'<rect x="0" y="0" width="{_WIDTH}" height="{_HEIGHT}" fill="#7a5230"/>',
        f'<rect x="{_LEFT}" y="{_EDGE}" width="{_TRAY_X - _LEFT}" '
        f'height="{_HEIGHT - 2 * _EDGE}" fill="#d9c7a0"/>',
        f'<rect x="{_BAR_X}" y="{_EDGE}" width="{_POINT}" height="{_HEIGHT - 2 * _EDGE}" '
        'fill="#7a5230"/>',
    ]


def _points(position: Position, parts: list[str]) -> None:
    """The 24 points, each a triangle with its number and its checkers."""
    for row, points in ((0, _TOP), (1, _BOTTOM)):
        top = row == 0
        for column, point in enumerate(points):
            x = _column_x(column)
            tip = _EDGE + _HALF if top else _HEIGHT - _EDGE - _HALF
            base = _EDGE if top else _HEIGHT - _EDGE
            fill = "#a0522d" if column % 2 == row else "#e8dcc0"
            parts.append(
                f'<polygon points="{x},{base} {x + _POINT},{base} {x + _POINT / 2},{tip}" '
                f'fill="{fill}" stroke="#8b6b45" stroke-width="0.5"/>'
            )
            label_y = _EDGE - 4 if top else _HEIGHT - 4
            parts.append(
                f'<text x="{x + _POINT / 2}" y="{label_y}" text-anchor="middle" '
                f'font-size="10" fill="#f4efe4">{point}</text>'
            )
            count = position.point(point)
            if count:
                _stack(x + _POINT / 2, abs(count), 0 if count > 0 else 1, top, parts)


def _bar(position: Position, parts: list[str]) -> None:
    """The checkers on the bar: the opponent's in the top half, the player on roll's below."""
    bar = position.bar
    centre = _BAR_X + _POINT / 2
    if bar[1]:
        _stack(centre, bar[1], 1, True, parts)
    if bar[0]:
        _stack(centre, bar[0], 0, False, parts)


def _trays(position: Position, tr: Translator, parts: list[str]) -> None:
    """The trays on the right: each side's borne-off checkers in words, and its pip count."""
    off = position.off
    for side, y in ((1, _EDGE + 14), (0, _HEIGHT - _EDGE - 6)):
        words = tr.gettext("off {n}", n=off[side])
        parts.append(
            f'<text x="{_TRAY_X + 26}" y="{y}" text-anchor="middle" font-size="11" '
            f'fill="#f4efe4">{escape(words)}</text>'
        )
    pips = position.pips()
    parts.append(
        f'<text x="{_TRAY_X + 26}" y="{_HEIGHT / 2 + 28}" text-anchor="middle" font-size="10" '
        f'fill="#f4efe4">{pips[0]}</text>'
        f'<text x="{_TRAY_X + 26}" y="{_HEIGHT / 2 - 22}" text-anchor="middle" font-size="10" '
        f'fill="#f4efe4">{pips[1]}</text>'
    )


def _dice(dice: Sequence[int], parts: list[str]) -> None:
    """The roll, two dice in the right half of the board."""
    for n, die in enumerate(dice[:2]):
        x = _RIGHT_X + 3 * _POINT - 26 + n * 30
        y = _HEIGHT / 2 - 11
        parts.append(
            f'<rect x="{x}" y="{y}" width="22" height="22" rx="4" fill="#fff" '
            f'stroke="#333"/><text x="{x + 11}" y="{y + 16}" text-anchor="middle" '
            f'font-size="15" fill="#222">{int(die)}</text>'
        )
