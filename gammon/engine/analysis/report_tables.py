"""The pieces of a review page that show one decision's figures: figures in the review's
unit (equity, or match winning chance in a match) and the tables of a checker decision's
candidates and of a cube decision's equities."""

from __future__ import annotations

from html import escape
from typing import Any

from gammon.engine.analysis.results import Candidate, CheckerReview, CubeReview
from gammon.engine.analysis.summary import figures
from gammon.engine.analysis.words import verdict_words
from gammon.i18n import N_, Translator

__all__ = [
    "candidates_table",
    "cube_table",
    "html_words",
    "loss_figure",
    "mwc_gap",
    "signed",
    "unit_figure",
]


def signed(value: float) -> str:
    return f"{value:+.3f}"


def unit_figure(equity: float, mwc: float | None) -> str:
    """A figure in the review's unit: the match winning chance where there is one
    (match play), else the equity."""
    return f"{100.0 * mwc:.1f}%" if mwc is not None else signed(equity)


def loss_figure(loss: float, mwc_loss: float | None) -> str:
    """A loss in the review's unit, signed as a cost: -0.050, or -1.4% in a match."""
    return f"{-100.0 * mwc_loss:+.1f}%" if mwc_loss is not None else signed(-loss)


def mwc_gap(best: Candidate, candidate: Candidate) -> float | None:
    if best.mwc is None or candidate.mwc is None:
        return None
    return max(0.0, best.mwc - candidate.mwc)


def html_words(tr: Translator, message: str, **values: Any) -> str:
    """``message`` in ``tr``'s language as HTML text: its words as they are (an apostrophe
    stays one), the values filled in escaped (names are the players' own)."""
    template = escape(tr.lookup(message), quote=False)
    return template.format(**{key: escape(str(value)) for key, value in values.items()})


def candidates_table(review: CheckerReview, mwc: bool, tr: Translator) -> str:
    """The candidate plays of a checker decision, the play made marked, as a table."""

    def figure(text: str) -> str:
        return escape(figures(text, tr))

    unit = tr.gettext("match winning chance") if mwc else tr.gettext("equity")
    rows = "".join(
        f"<tr class='{'played' if c.play == review.played else ''}'>"
        f"<td>{n}</td><td>{escape(c.play)}</td><td>{figure(unit_figure(c.equity, c.mwc))}</td>"
        f"<td>{'' if c.loss == 0 else figure(loss_figure(c.loss, mwc_gap(review.best, c)))}</td>"
        f"<td>{figure(f'{100 * c.chances[0]:.1f}%')}</td>"
        f"<td>{figure(f'{100 * c.chances[1]:.1f}%')}</td>"
        f"<td>{figure(f'{100 * c.chances[3]:.1f}%')}</td></tr>"
        for n, c in enumerate(review.candidates, start=1)
    )
    heads = "".join(
        f"<th>{escape(head)}</th>"
        for head in (
            tr.gettext("play"), unit, tr.gettext("loss"), tr.gettext("win"),
            tr.gettext("gammon"), tr.gettext("lose gammon"),
        )
    )  # fmt: skip
    return (
        f"<table class='candidates'><thead><tr><th></th>{heads}</tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def cube_table(review: CubeReview, player: str, mwc: bool, tr: Translator) -> str:
    """A cube decision's equities (or match winning chances) for ``player``, the doubler,
    the right action and the chances, as a table."""
    c = review.chances
    whose = N_("{player}'s match winning chance") if mwc else N_("{player}'s equity")
    chances = tr.gettext(
        "{win} (gammon {gammon}, loses a gammon {lose})",
        win=figures(f"{100 * c[0]:.1f}%", tr),
        gammon=figures(f"{100 * c[1]:.1f}%", tr),
        lose=figures(f"{100 * c[3]:.1f}%", tr),
    )
    wins = html_words(tr, N_("{player} wins"), player=player)
    right = tr.gettext("Right action")
    cells = (
        (tr.gettext("No double"), unit_figure(review.no_double, review.no_double_mwc)),
        (tr.gettext("Double, take"), unit_figure(review.double_take, review.double_take_mwc)),
        (tr.gettext("Double, pass"), unit_figure(review.double_pass, review.double_pass_mwc)),
    )
    return (
        "<table class='candidates'><tbody>"
        f"<tr><th></th><th>{html_words(tr, whose, player=player)}</th></tr>"
        + "".join(
            f"<tr><th>{escape(h)}</th><td>{escape(figures(v, tr))}</td></tr>" for h, v in cells
        )
        + f"<tr><th>{escape(right)}</th>"
        f"<td>{escape(verdict_words(review.verdict, tr.lang))}</td></tr>"
        f"<tr><th>{wins}</th><td>{escape(chances)}</td></tr>"
        "</tbody></table>"
    )
