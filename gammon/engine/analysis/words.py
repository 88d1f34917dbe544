"""The teacher's figures and lists in words: numbers, per cents, points, checkers and pips,
a loss with its unit, and the marks and cube verdicts a review shows.

Every sentence is a message of the catalogs (gammon.i18n), in the language of the
analysis: English (the source) unless a ``lang`` is given. Figures are rounded here, as
the English has always shown them, and then written as the language writes numbers, so
that every language shows the same figures.

>>> percent(0.6789, 1)
'67.9%'
>>> point_list([5, 8, 7], translator())
('8-, 7- and 5', 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from gammon.engine.analysis.results import Unit
from gammon.i18n import N_, SOURCE_LANGUAGE, Translator, translator

__all__ = [
    "MARKS",
    "VERDICTS",
    "checker_count",
    "decimals_needed",
    "fixed",
    "games",
    "loss_words",
    "mark_words",
    "number",
    "percent",
    "pip_count",
    "point_list",
    "verdict_words",
]


def number(value: int, tr: Translator) -> str:
    return str(value) if tr.lang == SOURCE_LANGUAGE else tr.number(value)


def fixed(value: float, digits: int, tr: Translator) -> str:
    """``value`` with ``digits`` decimals: ``0.123`` (``0,123`` in Finnish)."""
    shown = f"{value:.{digits}f}"
    if tr.lang == SOURCE_LANGUAGE:
        return shown
    return tr.number(float(shown), f"0.{'0' * digits}" if digits else "0")


def point_list(points: Iterable[int], tr: Translator) -> tuple[str, int]:
    """Points named for a sentence, highest first, and how many: ``8-, 7- and 5`` (the
    message then says ``the {points}-points``), ``7`` for one."""
    names = [number(point, tr) for point in sorted(points, reverse=True)]
    if len(names) == 1:
        return names[0], 1
    listed = names[0]
    for name in names[1:-1]:
        # TRANSLATORS: joins points in a list ("8-, 7"); the last is joined by the next message.
        listed = tr.gettext("{points}-, {point}", points=listed, point=name)
    # TRANSLATORS: the last point of a list ("8-, 7- and 5"), said before "-points".
    return tr.gettext("{points}- and {last}", points=listed, last=names[-1]), len(names)


def checker_count(count: int, tr: Translator) -> str:
    return tr.ngettext("{n} checker", "{n} checkers", count)


def pip_count(count: int, tr: Translator) -> str:
    return tr.ngettext("{n} pip", "{n} pips", count)


def percent(chance: float, digits: int = 0, tr: Translator | None = None) -> str:
    """A chance as a per cent, rounded as the English has always shown it."""
    shown = f"{100.0 * chance:.{digits}f}"
    if tr is None or tr.lang == SOURCE_LANGUAGE:
        return f"{shown}%"
    return tr.percent(float(shown) / 100.0, digits)


def games(chance: float, digits: int = 0, tr: Translator | None = None) -> str:
    """A chance of winning the game, its unit said: '65% of the games'."""
    tr = tr or translator()
    return tr.gettext("{chance} of the games", chance=percent(chance, digits, tr))


def decimals_needed(pairs: Iterable[tuple[float, float | None]]) -> int:
    """Decimals enough for each chance and the threshold it is compared with to read as
    different where they are (68% against 68%: 67.6% against 68.1%)."""
    for chance, threshold in pairs:
        if threshold is not None and chance != threshold and percent(chance) == percent(threshold):
            return 1
    return 0


def loss_words(loss: float, unit: Unit, lang: str = SOURCE_LANGUAGE) -> str:
    """A loss as the player reads it, its unit named: '0.123 in equity', '1.4% in match
    winning chance'."""
    tr = translator(lang)
    if unit is Unit.MWC:
        return tr.gettext("{loss} in match winning chance", loss=percent(loss, 1, tr))
    return tr.gettext("{loss} in equity", loss=fixed(loss, 3, tr))


#: The cube's right actions as GNU Backgammon names them (CubeReview.verdict), for words.
VERDICTS: Final = frozenset(
    {
        N_("No double, take"),
        N_("No double, beaver"),
        N_("No redouble, take"),
        N_("No redouble, beaver"),
        N_("Double, take"),
        N_("Double, beaver"),
        N_("Double, pass"),
        N_("Redouble, take"),
        N_("Redouble, beaver"),
        N_("Redouble, pass"),
        N_("Too good to double, take"),
        N_("Too good to double, pass"),
        N_("Too good to redouble, take"),
        N_("Too good to redouble, pass"),
    }
)


#: The marks of a decision (results.Mark) and of a roll's luck (results.LuckMark), for words.
MARKS: Final = frozenset(
    {
        N_("doubtful"),
        N_("bad"),
        N_("very bad"),
        N_("very lucky"),
        N_("lucky"),
        N_("unlucky"),
        N_("very unlucky"),
        N_("take"),
        N_("pass"),
        N_("beaver"),
    }
)


def mark_words(mark: str, lang: str = SOURCE_LANGUAGE) -> str:
    """A mark ("doubtful", "very bad", "lucky"...) or an answer ("take", "pass") in
    ``lang``; an empty mark stays empty."""
    mark = str(mark)
    return translator(lang).gettext(mark) if mark in MARKS else mark


def verdict_words(verdict: str, lang: str = SOURCE_LANGUAGE) -> str:
    """A cube verdict ("Double, take") in ``lang``; the verdict itself where it is not one
    of :data:`VERDICTS`."""
    return translator(lang).gettext(verdict) if verdict in VERDICTS else verdict
