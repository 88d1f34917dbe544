"""The per-player figures of a review, one row each, in the player's language.

The figures are written as the English has always written them and then, in another
language, each number as that language writes it (``0,125``, ``12,5 %``, the minus sign
of its CLDR data), so that every language shows the same figures.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from gammon.engine.analysis.results import PlayerSummary
from gammon.i18n import N_, SOURCE_LANGUAGE, Translator, translator

__all__ = ["RATINGS", "figures", "summary_rows"]

#: The performance rating's bands in words (results.rating_words), for the catalogs.
RATINGS: Final = (
    N_("supernatural"),
    N_("world class"),
    N_("expert"),
    N_("advanced"),
    N_("intermediate"),
    N_("casual player"),
    N_("beginner"),
    N_("awful"),
)
_FIGURE: Final = re.compile(r"([+-]?)(\d+)(?:\.(\d+))?(%?)")


def figures(text: str, tr: Translator) -> str:
    """The numbers of an English figure (``+1.5% (3 / 4)``) as ``tr``'s language writes them."""
    if tr.lang == SOURCE_LANGUAGE:
        return text

    def one(found: re.Match[str]) -> str:
        sign, whole, decimals, percent = found.groups()
        digits = len(decimals or "")
        value = float(f"{whole}.{decimals}" if decimals else whole)
        if percent:
            written = tr.percent(value / 100.0, digits)
        else:
            written = tr.number(value, f"0.{'0' * digits}" if digits else "0")
        if sign == "+":
            return "+" + written
        if sign == "-":
            return tr.number(-1, "0")[:-1] + written  # the language's minus sign
        return written

    return _FIGURE.sub(one, text)


#: One figure of a player's summary, as the English writes it (the translator for words).
_Figure = Callable[[PlayerSummary, Translator], str]


def _mwc_errors(total: float, count: int) -> str:
    return f"{100.0 * total:.1f}% / {100.0 * total / max(count, 1):.2f}%"


#: The rows whose figures are in the review's unit, in a match: match winning chance.
_MATCH_FIGURES: Final[dict[str, tuple[str, _Figure]]] = {
    "checker": (
        N_("Checker error in match winning chance: total / per decision"),
        lambda p, tr: _mwc_errors(p.checker_cost, p.checker_decisions),
    ),
    "cube": (
        N_("Cube error in match winning chance: total / per decision"),
        lambda p, tr: _mwc_errors(p.cube_cost, p.cube_decisions),
    ),
    "overall": (
        N_("Overall error in match winning chance per decision (decisions)"),
        lambda p, tr: f"{100.0 * p.cost / max(p.decisions, 1):.2f}% ({p.decisions})",
    ),
    "luck": (
        N_("Luck in match winning chance: total (lucky / unlucky rolls)"),
        lambda p, tr: f"{100.0 * p.luck_cost:+.1f}% ({p.lucky_rolls} / {p.unlucky_rolls})",
    ),
    "result": (N_("Result in match winning chance"), lambda p, tr: f"{100.0 * p.result:+.1f}%"),
    "adjusted": (
        N_("Luck-adjusted result in match winning chance"),
        lambda p, tr: f"{100.0 * p.luck_adjusted:+.1f}%",
    ),
}
#: The same rows in money play: equity, and the result in points.
_MONEY_FIGURES: Final[dict[str, tuple[str, _Figure]]] = {
    "checker": (
        N_("Checker error in equity: total / per decision"),
        lambda p, tr: f"{p.checker_error:.3f} / {p.checker_error_rate:.4f}",
    ),
    "cube": (
        N_("Cube error in equity: total / per decision"),
        lambda p, tr: f"{p.cube_error:.3f} / {p.cube_error_rate:.4f}",
    ),
    "overall": (
        N_("Overall error in equity per decision (decisions)"),
        lambda p, tr: f"{p.error_rate:.4f} ({p.decisions})",
    ),
    "luck": (
        N_("Luck in equity: total (lucky / unlucky rolls)"),
        lambda p, tr: f"{f'{p.luck:+.3f}'} ({p.lucky_rolls} / {p.unlucky_rolls})",
    ),
    "result": (N_("Result in points"), lambda p, tr: f"{p.result:+.2f}"),
    "adjusted": (N_("Luck-adjusted result in points"), lambda p, tr: f"{p.luck_adjusted:+.2f}"),
}
#: The rows in their order: a (label, figure) alike at any score, or the name of a row of
#: the unit's table.
_ROWS: Final[tuple[tuple[str, _Figure] | str, ...]] = (
    (
        N_("Checker decisions (forced)"),
        lambda p, tr: f"{p.checker_decisions} ({p.forced_plays})",
    ),
    "checker",
    (
        N_("Doubtful / bad / very bad plays"),
        lambda p, tr: f"{p.doubtful} / {p.bad} / {p.very_bad}",
    ),
    (N_("Cube decisions"), lambda p, tr: str(p.cube_decisions)),
    "cube",
    (
        N_("Cube mistakes: missed / wrong doubles, wrong takes / passes"),
        lambda p, tr: f"{p.missed_doubles} / {p.wrong_doubles}, {p.wrong_takes} / {p.wrong_passes}",
    ),
    "overall",
    (
        N_("Performance rating (PR, on the error normalised to money)"),
        lambda p, tr: f"{p.rating:.1f} ({tr.gettext(p.rating_words)})",
    ),
    "luck",
    "result",
    "adjusted",
)


def summary_rows(
    players: tuple[PlayerSummary, PlayerSummary], match_length: int, lang: str = SOURCE_LANGUAGE
) -> list[tuple[str, str, str]]:
    """The per-player figures, one (label, side 0, side 1) row each, for tables in any medium.

    Each figure is in the review's unit, named in its row: equity in money play
    (normalised, per unit of the cube), match winning chance in a match; the
    performance rating is on the error normalised to money, at any score.
    """
    tr = translator(lang)
    unit = _MATCH_FIGURES if match_length else _MONEY_FIGURES
    rows = []
    for entry in _ROWS:
        label, figure = unit[entry] if isinstance(entry, str) else entry
        side0, side1 = (figures(figure(player, tr), tr) for player in players)
        rows.append((tr.gettext(label), side0, side1))
    return rows
