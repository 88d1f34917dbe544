"""An analysis with its teacher's words, as figures, JSON, and one self-contained HTML page.

:class:`Report` puts together what the analysis found (:class:`Analysis`), the
teacher's explanation of every mistake (:mod:`~gammon.engine.analysis.explain`)
and each player's beginner patterns (:mod:`~gammon.engine.analysis.patterns`).
The HTML page carries its styles and drawings inline (SVG from :mod:`gammon.svg`
and :mod:`~gammon.engine.analysis.graph`): no script, no font, no link to fetch, so it
opens the same from a mail attachment or a USB stick years later.

>>> from gammon.dice import ScriptedDice
>>> from gammon.game import Game
>>> from gammon.engine.analysis import analyse
>>> game = Game(dice=ScriptedDice([(6, 5)]))
>>> _ = game.roll(0), game.play(0, "13/7 13/8")
>>> report = Report.build(analyse(game, ply=0), histories=[game.history])
>>> report.explanations[0].better
'24/13'
>>> "<svg" in report.to_html() and report.to_dict()["explanations"][0]["played"]
'13/8 13/7'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Final

from gammon.engine.analysis.explain import Explanation, explain
from gammon.engine.analysis.graph import GraphMark, graph_svg
from gammon.engine.analysis.patterns import Pattern, patterns
from gammon.engine.analysis.results import (
    DOUBTFUL,
    LUCKY,
    Analysis,
    Candidate,
    CheckerReview,
    CubeReview,
    GameAnalysis,
    Mark,
    Unit,
)
from gammon.engine.analysis.summary import summary_rows
from gammon.errors import GammonError
from gammon.events import (
    Beavered,
    Doubled,
    Dropped,
    Ended,
    Event,
    Moved,
    Passed,
    PassReason,
    Rolled,
    Took,
    describe,
)
from gammon.i18n import SOURCE_LANGUAGE, language
from gammon.position import Position
from gammon.svg import board_svg

__all__ = ["Report", "summary_rows"]

_MARK_SIGNS: Final = {Mark.DOUBTFUL: "?!", Mark.BAD: "?", Mark.VERY_BAD: "??", Mark.NONE: ""}
_SIDE_COLOURS: Final = ("#c0392b", "#8e44ad")


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _figure(equity: float, mwc: float | None) -> str:
    """A figure in the review's unit: the match winning chance where there is one
    (match play), else the equity."""
    return f"{100.0 * mwc:.1f}%" if mwc is not None else _signed(equity)


def _loss(loss: float, mwc_loss: float | None) -> str:
    """A loss in the review's unit, signed as a cost: -0.050, or -1.4% in a match."""
    return f"{-100.0 * mwc_loss:+.1f}%" if mwc_loss is not None else _signed(-loss)


def _checker_loss(review: CheckerReview, mwc: bool) -> str:
    return _loss(review.loss, review.cost if mwc else None)


def _doubler_loss(review: CubeReview, mwc: bool) -> str:
    return _loss(review.doubler_loss, review.doubler_cost if mwc else None)


def _taker_loss(review: CubeReview, mwc: bool) -> str:
    return _loss(review.taker_loss, review.taker_cost if mwc else None)


@dataclass(frozen=True)
class Report:
    """An analysis, the teacher's explanation of each mistake, and each player's patterns."""

    analysis: Analysis
    explanations: tuple[Explanation, ...]
    patterns: tuple[tuple[Pattern, ...], tuple[Pattern, ...]]
    #: The games' histories, for the move list (None: the HTML page has no move list).
    histories: tuple[tuple[Event, ...], ...] | None = None
    #: Checkers a side in the variant played (3 in hypergammon), to read Position IDs.
    checkers: int = 15
    #: The language of the teacher's words and the habits (gammon.i18n).
    lang: str = SOURCE_LANGUAGE

    @classmethod
    def build(
        cls,
        analysis: Analysis,
        *,
        histories: Sequence[Sequence[Event]] | None = None,
        checkers: int = 15,
        threshold: float = DOUBTFUL,
        lang: str = SOURCE_LANGUAGE,
    ) -> Report:
        """Explain every decision that lost ``threshold`` or more, and find the patterns,
        in ``lang``."""
        lang = language(lang)
        found = explain(
            analysis.checker,
            analysis.cube,
            analysis.names,
            threshold=threshold,
            checkers=checkers,
            lang=lang,
        )
        return cls(
            analysis,
            tuple(found),
            (tuple(patterns(found, 0, lang)), tuple(patterns(found, 1, lang))),
            None if histories is None else tuple(tuple(h) for h in histories),
            checkers,
            lang,
        )

    def words(self) -> dict[str, Any]:
        """The teacher's words of the report, in its language: the summary's rows, its
        explanations and each side's patterns, as :meth:`to_dict` gives them (``lang`` says
        the language)."""
        rows = summary_rows(self.analysis.players, self.analysis.match_length, self.lang)
        return {
            "lang": self.lang,
            "summary": [list(row) for row in rows],
            "explanations": [e.to_dict() for e in self.explanations],
            "patterns": [[p.to_dict() for p in side] for side in self.patterns],
        }

    def explanations_of(self, review: CheckerReview | CubeReview) -> list[Explanation]:
        """The explanations of one reviewed decision (a cube review may have two)."""
        return [e for e in self.explanations if (e.game, e.index) == (review.game, review.index)]

    def position(self, review: CheckerReview | CubeReview) -> Position | None:
        """The board of a decision, its decider on roll; None where no Position ID was written."""
        if review.position_id is None:
            return None
        try:
            return Position.from_id(review.position_id, checkers=self.checkers)
        except GammonError:
            return None

    # -- JSON -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The analysis' own dict (:meth:`Analysis.to_dict`), the explanations and patterns."""
        document = self.analysis.to_dict()
        document["explanations"] = [e.to_dict() for e in self.explanations]
        document["patterns"] = [[p.to_dict() for p in side] for side in self.patterns]
        return document

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    # -- HTML -----------------------------------------------------------------

    def to_html(self, title: str | None = None) -> str:
        """One HTML page: summary, patterns, and per game a graph, the moves and the mistakes."""
        a = self.analysis
        names = a.names
        what = (
            f"{a.match_length}-point match" if a.kind == "match" and a.match_length
            else "money session" if a.kind == "session" else "game"
        )  # fmt: skip
        heading = title or f"{names[0]} vs {names[1]}: {what}"
        body = [
            f"<h1>{escape(heading)}</h1>",
            f"<p class='meta'>Analysed by {_engine_words(a.engine.name)} at {a.ply}-ply "
            f"(luck at {a.luck_ply}-ply). Figures are in {escape(a.unit.words)}. Marks go "
            "by the equity lost, normalised to money so that they mean the same at any "
            "score: ?! doubtful (0.04), ? bad (0.08), ?? very bad (0.16).</p>",
            self._summary_html(),
            self._patterns_html(),
        ]
        for number, game in enumerate(a.games):
            history = self.histories[number] if self.histories is not None else None
            body.append(self._game_html(game, history))
        return (
            "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{escape(heading)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body)
            + "</body></html>\n"
        )

    def _summary_html(self) -> str:
        names = self.analysis.names
        rows = "".join(
            f"<tr><th>{escape(label)}</th><td>{escape(left)}</td><td>{escape(right)}</td></tr>"
            for label, left, right in summary_rows(
                self.analysis.players, self.analysis.match_length
            )
        )
        return (
            "<h2>Summary</h2><table class='summary'><thead><tr><th></th>"
            f"<th>{escape(names[0])}</th><th>{escape(names[1])}</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )

    def _patterns_html(self) -> str:
        parts = ["<h2>Habits to work on</h2>"]
        for side, found in enumerate(self.patterns):
            parts.append(f"<h3>{escape(self.analysis.names[side])}</h3>")
            if not found:
                parts.append("<p>None of the beginners' patterns.</p>")
                continue
            items = "".join(
                f"<li><b>{escape(p.name)}</b> ({p.count}x): {escape(p.advice)}</li>" for p in found
            )
            parts.append(f"<ul>{items}</ul>")
        return "".join(parts)

    def _game_html(self, game: GameAnalysis, history: Sequence[Event] | None) -> str:
        names = self.analysis.names
        score = f"{names[0]} {game.score[0]}, {names[1]} {game.score[1]}"
        if game.winner is None:
            result = "not finished"
        else:
            result = f"{names[game.winner]} wins {game.points} point{'s' * (game.points != 1)}"
        parts = [
            f"<section id='game-{game.number}'><h2>Game {game.number}</h2>",
            f"<p>Score before the game: {escape(score)}. {escape(result)}"
            f"{escape(f' ({game.end})') if game.end else ''}.</p>",
            self._graph(game, history),
        ]
        if history is not None:
            parts.append(self._moves_html(game, history))
        marked = game.mistakes(DOUBTFUL)
        parts.append(f"<h3>Marked decisions ({len(marked)})</h3>")
        parts += [self._decision_html(review) for review in sorted(marked, key=lambda r: r.index)]
        parts.append("</section>")
        return "".join(parts)

    def _graph(self, game: GameAnalysis, history: Sequence[Event] | None) -> str:
        names = self.analysis.names
        mwc = self.analysis.unit is Unit.MWC
        points = [(0.0, 0.5)]
        for roll in game.luck:
            if roll.chances is None:
                continue
            win = roll.chances[0]
            points.append((float(roll.index), win if roll.side == 0 else 1.0 - win))
        end = float(len(history)) if history is not None else float(points[-1][0] + 1)
        if game.winner is not None:
            points.append((end, 1.0 if game.winner == 0 else 0.0))
        marks = [
            GraphMark(
                float(review.index),
                _SIDE_COLOURS[_decider(review)],
                f"{names[_decider(review)]}: {_decision_title(review, mwc)}",
            )
            for review in game.mistakes(DOUBTFUL)
        ]
        for roll in game.luck:
            if abs(roll.luck) >= LUCKY:
                # Up for a roll that helped side 0, down for one that hurt it.
                helped = (roll.luck > 0) == (roll.side == 0)
                marks.append(
                    GraphMark(
                        float(roll.index),
                        "#27ae60" if roll.luck > 0 else "#7f8c8d",
                        f"{names[roll.side]} rolls {roll.dice[0]}-{roll.dice[1]}: "
                        f"{roll.mark} ({_loss(-roll.luck, -roll.cost if mwc else None)})",
                        "up" if helped else "down",
                    )
                )
        legend = (
            f"<p class='legend'>{escape(names[0])}'s winning chance before each roll. "
            "Circles: mistakes (red "
            f"{escape(names[0])}, purple {escape(names[1])}); triangles: big luck.</p>"
        )
        return graph_svg(points, marks, x_max=end, title=f"Game {game.number}") + legend

    def _moves_html(self, game: GameAnalysis, history: Sequence[Event]) -> str:
        """The moves two columns wide, as a .mat file shows them, each mark a link to its review."""
        names = self.analysis.names
        checker = {review.index: review for review in game.checker}
        cube = {review.index: review for review in game.cube}
        rows: list[list[str]] = []
        current = ["", ""]
        footer = ""
        dice = (0, 0)
        missed = ""
        for index, event in enumerate(history):
            if isinstance(event, Ended):
                footer = describe(event, names)
                continue
            side = getattr(event, "side", None)
            if side is None:
                continue
            note = ""
            if isinstance(event, Rolled):
                dice = (max(event.dice), min(event.dice))
                review = cube.get(index)
                if review is not None and review.doubler_mark is not Mark.NONE:
                    missed = f"(no double{_link(review, _MARK_SIGNS[review.doubler_mark])}) "
                continue
            if isinstance(event, Moved):
                roll = (max(event.dice), min(event.dice))
                text = f"{roll[0]}{roll[1]}: {event.play}"
                if index in checker and checker[index].mark is not Mark.NONE:
                    note = _link(checker[index], _MARK_SIGNS[checker[index].mark])
            elif isinstance(event, Passed):
                closed = event.reason is PassReason.CLOSED_BOARD
                text = "(closed out)" if closed else f"{dice[0]}{dice[1]}: (no move)"
            elif isinstance(event, Doubled):
                text = f"Doubles => {event.value}"
                review = cube.get(index)
                if review is not None and review.doubler_mark is not Mark.NONE:
                    note = _link(review, _MARK_SIGNS[review.doubler_mark])
            elif isinstance(event, Took | Dropped | Beavered):
                text = {Took: "Takes", Dropped: "Drops", Beavered: "Beavers"}[type(event)]
                offer = max(
                    (r for r in game.cube if r.doubled and r.index < index),
                    key=lambda r: r.index,
                    default=None,
                )
                if offer is not None and offer.taker_mark is not Mark.NONE:
                    note = _link(offer, _MARK_SIGNS[offer.taker_mark])
            else:
                text = describe(event, names)
            cell = (missed if isinstance(event, Moved | Passed) else "") + escape(text) + note
            if isinstance(event, Moved | Passed):
                missed = ""
            if current[side] or (side == 0 and current[1]):
                rows.append(current)
                current = ["", ""]
            current[side] = cell
        if any(current):
            rows.append(current)
        body = "".join(
            f"<tr><td>{n}</td><td>{left}</td><td>{right}</td></tr>"
            for n, (left, right) in enumerate(rows, start=1)
        )
        if footer:
            body += f"<tr><td></td><td colspan='2'>{escape(footer)}</td></tr>"
        return (
            "<h3>Moves</h3><table class='moves'><thead><tr><th></th>"
            f"<th>{escape(names[0])}</th><th>{escape(names[1])}</th></tr></thead>"
            f"<tbody>{body}</tbody></table>"
        )

    def _decision_html(self, review: CheckerReview | CubeReview) -> str:
        names = self.analysis.names
        mwc = self.analysis.unit is Unit.MWC
        unit = "match winning chance" if mwc else "equity"
        side = review.side
        position = self.position(review)
        parts = [f"<div class='decision' id='{_anchor(review)}'>"]
        parts.append(
            f"<h4>{escape(names[_decider(review)])}: {escape(_decision_title(review, mwc))}</h4>"
        )
        if position is not None:
            dice = review.dice if isinstance(review, CheckerReview) else None
            title = f"{names[side]} (light checkers) on roll"
            parts.append(board_svg(position, dice=dice, title=title))
            parts.append(f"<p class='legend'>{escape(title)}, moving down to the 1-point.</p>")
        if isinstance(review, CheckerReview):
            rows = "".join(
                f"<tr class='{'played' if c.play == review.played else ''}'>"
                f"<td>{n}</td><td>{escape(c.play)}</td><td>{_figure(c.equity, c.mwc)}</td>"
                f"<td>{'' if c.loss == 0 else _loss(c.loss, _mwc_gap(review.best, c))}</td>"
                f"<td>{100 * c.chances[0]:.1f}%</td><td>{100 * c.chances[1]:.1f}%</td>"
                f"<td>{100 * c.chances[3]:.1f}%</td></tr>"
                for n, c in enumerate(review.candidates, start=1)
            )
            parts.append(
                f"<table class='candidates'><thead><tr><th></th><th>play</th><th>{unit}</th>"
                "<th>loss</th><th>win</th><th>gammon</th><th>lose gammon</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>"
            )
        else:
            c = review.chances
            parts.append(
                "<table class='candidates'><tbody>"
                f"<tr><th></th><th>{names[side]}'s {unit}</th></tr>"
                f"<tr><th>No double</th><td>{_figure(review.no_double, review.no_double_mwc)}"
                "</td></tr>"
                f"<tr><th>Double, take</th><td>"
                f"{_figure(review.double_take, review.double_take_mwc)}</td></tr>"
                f"<tr><th>Double, pass</th><td>"
                f"{_figure(review.double_pass, review.double_pass_mwc)}</td></tr>"
                f"<tr><th>Right action</th><td>{escape(review.verdict)}</td></tr>"
                f"<tr><th>{escape(names[side])} wins</th><td>{100 * c[0]:.1f}% "
                f"(gammon {100 * c[1]:.1f}%, loses a gammon {100 * c[3]:.1f}%)</td></tr>"
                "</tbody></table>"
            )
        for explanation in self.explanations_of(review):
            parts.append(f"<p class='why'>{escape(explanation.text)}</p>")
        parts.append("</div>")
        return "".join(parts)


def _decider(review: CheckerReview | CubeReview) -> int:
    """The side whose mistake a review shows: the taker when the answer was the worse error."""
    if isinstance(review, CubeReview) and review.taker_loss > review.doubler_loss:
        return 1 - review.side
    return review.side


def _mwc_gap(best: Candidate, candidate: Candidate) -> float | None:
    if best.mwc is None or candidate.mwc is None:
        return None
    return max(0.0, best.mwc - candidate.mwc)


def _decision_title(review: CheckerReview | CubeReview, mwc: bool) -> str:
    """A decision in a line: the action, its mark and its loss in the review's unit."""
    if isinstance(review, CheckerReview):
        return (
            f"{review.dice[0]}-{review.dice[1]} played {review.played} ({review.mark}, "
            f"{_checker_loss(review, mwc)}); best {review.best.play}"
        )
    if review.taker_loss > review.doubler_loss:
        return (
            f"{review.response} ({review.taker_mark}, {_taker_loss(review, mwc)}); "
            f"right: {review.verdict}"
        )
    action = "double" if review.doubled else "no double"
    return (
        f"{action} ({review.doubler_mark}, {_doubler_loss(review, mwc)}); right: {review.verdict}"
    )


def _anchor(review: CheckerReview | CubeReview) -> str:
    return f"g{review.game}-{review.index}"


def _link(review: CheckerReview | CubeReview, sign: str) -> str:
    return f" <a class='mark' href='#{_anchor(review)}'>{escape(sign)}</a>"


_CSS: Final = """
body{font-family:system-ui,sans-serif;max-width:980px;margin:1em auto;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}th,td{padding:2px 8px;text-align:left}
table.summary td,table.candidates td{font-variant-numeric:tabular-nums}
table.summary tr:nth-child(odd),table.moves tr:nth-child(odd){background:#f4f2ec}
tr.played{font-weight:bold;background:#fde8e4}
a.mark{color:#c0392b;font-weight:bold;text-decoration:none}
.decision{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;margin:1em 0}
.decision svg{float:left;margin:0 1em .5em 0}.decision:after{content:"";display:block;clear:both}
p.why{background:#f0f6ff;border-left:4px solid #1f5fa8;padding:.4em .8em}
.meta,.legend{color:#555;font-size:.9em}
"""


def _engine_words(name: str) -> str:
    """The engine that judged, as the page says it: its name and whose nets they are."""
    from gammon.engine.engines.base import ENGINES

    info = ENGINES.get(name)
    return escape(name if info is None else f"{name} ({info.summary})")
