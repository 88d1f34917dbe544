"""Equity graphs as inline SVG, for reports that must open anywhere (boards: :mod:`gammon.svg`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from gammon.i18n import SOURCE_LANGUAGE, translator

__all__ = ["GraphMark", "graph_svg"]


@dataclass(frozen=True)
class GraphMark:
    """A marked spot on an equity graph: where (x), what colour, and the tooltip."""

    x: float
    colour: str
    label: str
    shape: str = "circle"  # "circle" for a mistake, "up" or "down" for luck


def graph_svg(
    points: Sequence[tuple[float, float]],
    marks: Sequence[GraphMark] = (),
    *,
    x_max: float | None = None,
    title: str = "Winning chances",
    width: int = 640,
    height: int = 180,
    lang: str = SOURCE_LANGUAGE,
) -> str:
    """A line chart of (x, y) with y from 0 to 1 (a winning chance), and marks on it.

    The line is side 0's chance; the dashed middle line is 50%. Its levels are written as
    ``lang`` writes per cents (``50 %`` in Finnish); ``title`` and the marks' labels come
    written in the reader's language.
    """
    tr = translator(lang)
    pad = 36.0
    top = max((x for x, _ in points), default=1.0)
    span = max(x_max if x_max is not None else top, 1.0)

    def sx(x: float) -> float:
        return pad + (width - 2 * pad) * x / span

    def sy(y: float) -> float:
        return height - pad + (2 * pad - height) * min(1.0, max(0.0, y))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" class="graph">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fcfbf7" stroke="#ccc"/>',
        f'<line x1="{pad}" y1="{sy(0.5):.1f}" x2="{width - pad}" y2="{sy(0.5):.1f}" '
        'stroke="#aaa" stroke-dasharray="4 3"/>',
    ]
    for level in (0.0, 0.5, 1.0):
        label = f"{level:.0%}" if tr.lang == SOURCE_LANGUAGE else tr.percent(level, 0)
        parts.append(
            f'<text x="{pad - 4}" y="{sy(level) + 4:.1f}" text-anchor="end" font-size="10" '
            f'fill="#555">{escape(label)}</text>'
        )
    if points:
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#1f5fa8" stroke-width="2"/>')
    for mark in marks:
        before = [py for px, py in points if px <= mark.x]
        y = before[-1] if before else points[0][1] if points else 0.5
        cx, cy = sx(mark.x), sy(y)
        if mark.shape == "circle":
            shape = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{mark.colour}"'
        else:
            d = -7 if mark.shape == "up" else 7
            shape = (
                f'<polygon points="{cx - 5:.1f},{cy:.1f} {cx + 5:.1f},{cy:.1f} '
                f'{cx:.1f},{cy + d:.1f}" fill="{mark.colour}"'
            )
        parts.append(f"{shape}><title>{escape(mark.label)}</title></{shape.split()[0][1:]}>")
    parts.append("</svg>")
    return "".join(parts)
