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

from gammon.engine.analysis.explain import Explanation, explain, mark_words, verdict_words
from gammon.engine.analysis.graph import GraphMark, graph_svg
from gammon.engine.analysis.patterns import Pattern, patterns
from gammon.engine.analysis.report_tables import (
    candidates_table,
    cube_table,
    html_words,
    loss_figure,
)
from gammon.engine.analysis.results import (
    DOUBTFUL,
    LUCKY,
    Analysis,
    CheckerReview,
    CubeReview,
    GameAnalysis,
    Mark,
    Unit,
)
from gammon.engine.analysis.summary import figures, summary_rows
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
from gammon.i18n import N_, SOURCE_LANGUAGE, Translator, language, translator
from gammon.position import Position
from gammon.svg import board_svg

__all__ = ["Report", "summary_rows"]

_MARK_SIGNS: Final = {Mark.DOUBTFUL: "?!", Mark.BAD: "?", Mark.VERY_BAD: "??", Mark.NONE: ""}
_SIDE_COLOURS: Final = ("#c0392b", "#8e44ad")
#: How a game ended (GameAnalysis.end, an EndReason's value), for the catalogs.
_ENDS: Final = frozenset(
    {N_("bear-off"), N_("drop"), N_("resignation"), N_("beaver refused"), N_("forfeit"),
     N_("time")}
)  # fmt: skip
#: The engines' own words (engines.base.ENGINES' summaries), for the catalogs.
_ENGINE_SUMMARIES: Final = (
    N_("our own nets (the default)"),
    N_("GNU Backgammon's nets (the gnubg-nn package)"),
    N_("Open Sage's nets (the bgsage package)"),
)
#: The units' names (Unit.words), for the catalogs.
_UNITS: Final = (N_("match winning chance"), N_("equity (points a game, per unit of the cube)"))


def _checker_loss(review: CheckerReview, mwc: bool) -> str:
    return loss_figure(review.loss, review.cost if mwc else None)


def _doubler_loss(review: CubeReview, mwc: bool) -> str:
    return loss_figure(review.doubler_loss, review.doubler_cost if mwc else None)


def _taker_loss(review: CubeReview, mwc: bool) -> str:
    return loss_figure(review.taker_loss, review.taker_cost if mwc else None)


def _answer_note(game: GameAnalysis, index: int) -> str:
    """The mark of the answer at ``index`` (to the last double before it), as a link to its
    review; empty where the answer was right."""
    offer = max(
        (r for r in game.cube if r.doubled and r.index < index),
        key=lambda r: r.index,
        default=None,
    )
    if offer is not None and offer.taker_mark is not Mark.NONE:
        return _link(offer, _MARK_SIGNS[offer.taker_mark])
    return ""


def _moves_table(
    rows: Sequence[Sequence[str]], footer: str, names: Sequence[str], tr: Translator
) -> str:
    """The moves' rows (cells already HTML), numbered, under the players' names, with how
    the game ended below."""
    body = "".join(
        f"<tr><td>{n}</td><td>{left}</td><td>{right}</td></tr>"
        for n, (left, right) in enumerate(rows, start=1)
    )
    if footer:
        body += f"<tr><td></td><td colspan='2'>{escape(footer)}</td></tr>"
    heading = escape(tr.gettext("Moves"))
    return (
        f"<h3>{heading}</h3><table class='moves'><thead><tr><th></th>"
        f"<th>{escape(names[0])}</th><th>{escape(names[1])}</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


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
        """One HTML page: summary, patterns, and per game a graph, the moves and the mistakes,
        in the report's language (``Report.build(..., lang=)``), its ``<html lang>`` said."""
        a = self.analysis
        tr = translator(self.lang)
        names = a.names
        if a.kind == "match" and a.match_length:
            heading = tr.ngettext(
                "{first} vs {second}: {n}-point match",
                "{first} vs {second}: {n}-point match",
                a.match_length, first=names[0], second=names[1],
            )  # fmt: skip
        elif a.kind == "session":
            message = N_("{first} vs {second}: money session")
            heading = tr.gettext(message, first=names[0], second=names[1])
        else:
            heading = tr.gettext("{first} vs {second}: game", first=names[0], second=names[1])
        heading = title or heading
        analysed = html_words(
            tr, N_("Analysed by {engine} at {ply}-ply (luck at {luck_ply}-ply)."),
            engine=_engine_words(a.engine.name, tr), ply=a.ply, luck_ply=a.luck_ply,
        )  # fmt: skip
        unit = html_words(tr, N_("Figures are in {unit}."), unit=tr.gettext(a.unit.words))
        marks = html_words(
            tr,
            N_(
                "Marks go by the equity lost, normalised to money so that they mean the same at "
                "any score: ?! doubtful ({doubtful}), ? bad ({bad}), ?? very bad ({very_bad})."
            ),
            doubtful=figures("0.04", tr),
            bad=figures("0.08", tr),
            very_bad=figures("0.16", tr),
        )
        body = [
            f"<h1>{escape(heading)}</h1>",
            f"<p class='meta'>{analysed} {unit} {marks}</p>",
            self._summary_html(tr),
            self._patterns_html(tr),
        ]
        for number, game in enumerate(a.games):
            history = self.histories[number] if self.histories is not None else None
            body.append(self._game_html(game, history, tr))
        return (
            f"<!DOCTYPE html>\n<html lang='{tr.lang}'><head><meta charset='utf-8'>"
            f"<title>{escape(heading)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body)
            + "</body></html>\n"
        )

    def _summary_html(self, tr: Translator) -> str:
        names = self.analysis.names
        rows = "".join(
            f"<tr><th>{escape(label)}</th><td>{escape(left)}</td><td>{escape(right)}</td></tr>"
            for label, left, right in summary_rows(
                self.analysis.players, self.analysis.match_length, tr.lang
            )
        )
        heading = escape(tr.gettext("Summary"))
        return (
            f"<h2>{heading}</h2><table class='summary'><thead><tr><th></th>"
            f"<th>{escape(names[0])}</th><th>{escape(names[1])}</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )

    def _patterns_html(self, tr: Translator) -> str:
        heading = escape(tr.gettext("Habits to work on"))
        parts = [f"<h2>{heading}</h2>"]
        for side, found in enumerate(self.patterns):
            parts.append(f"<h3>{escape(self.analysis.names[side])}</h3>")
            if not found:
                none = html_words(tr, N_("None of the beginners' patterns."))
                parts.append(f"<p>{none}</p>")
                continue
            items = "".join(
                f"<li><b>{escape(p.name)}</b> ({p.count}x): {escape(p.advice)}</li>" for p in found
            )
            parts.append(f"<ul>{items}</ul>")
        return "".join(parts)

    def _game_html(
        self, game: GameAnalysis, history: Sequence[Event] | None, tr: Translator
    ) -> str:
        names = self.analysis.names
        score = f"{names[0]} {game.score[0]}, {names[1]} {game.score[1]}"
        if game.winner is None:
            result = tr.gettext("not finished")
        else:
            result = tr.ngettext(
                "{player} wins {n} point", "{player} wins {n} points", game.points,
                player=names[game.winner],
            )  # fmt: skip
        if game.end:
            end = tr.gettext(game.end) if game.end in _ENDS else game.end
            message = N_("Score before the game: {score}. {result} ({end}).")
            said = html_words(tr, message, score=score, result=result, end=end)
        else:
            message = N_("Score before the game: {score}. {result}.")
            said = html_words(tr, message, score=score, result=result)
        heading = html_words(tr, N_("Game {n}"), n=game.number)
        parts = [
            f"<section id='game-{game.number}'><h2>{heading}</h2>",
            f"<p>{said}</p>",
            self._graph(game, history, tr),
        ]
        if history is not None:
            parts.append(self._moves_html(game, history, tr))
        marked = game.mistakes(DOUBTFUL)
        count = html_words(tr, N_("Marked decisions ({count})"), count=len(marked))
        parts.append(f"<h3>{count}</h3>")
        parts += [
            self._decision_html(review, tr) for review in sorted(marked, key=lambda r: r.index)
        ]
        parts.append("</section>")
        return "".join(parts)

    def _graph(self, game: GameAnalysis, history: Sequence[Event] | None, tr: Translator) -> str:
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
                f"{names[_decider(review)]}: {_decision_title(review, mwc, tr)}",
            )
            for review in game.mistakes(DOUBTFUL)
        ]
        for roll in game.luck:
            if abs(roll.luck) >= LUCKY:
                # Up for a roll that helped side 0, down for one that hurt it.
                helped = (roll.luck > 0) == (roll.side == 0)
                dice = f"{roll.dice[0]}-{roll.dice[1]}"
                marks.append(
                    GraphMark(
                        float(roll.index),
                        "#27ae60" if roll.luck > 0 else "#7f8c8d",
                        tr.gettext(
                            "{player} rolls {dice}: {mark} ({gain})",
                            player=names[roll.side],
                            dice=dice,
                            mark=mark_words(roll.mark, tr.lang),
                            gain=figures(loss_figure(-roll.luck, -roll.cost if mwc else None), tr),
                        ),
                        "up" if helped else "down",
                    )
                )
        message = N_(
            "{player}'s winning chance before each roll. Circles: mistakes (red {first}, "
            "purple {second}); triangles: big luck."
        )
        legend = html_words(tr, message, player=names[0], first=names[0], second=names[1])
        title = tr.gettext("Game {n}", n=game.number)
        graph = graph_svg(points, marks, x_max=end, title=title, lang=tr.lang)
        return f"{graph}<p class='legend'>{legend}</p>"

    def _moves_html(self, game: GameAnalysis, history: Sequence[Event], tr: Translator) -> str:
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
                footer = describe(event, names, tr.lang)
                continue
            side = getattr(event, "side", None)
            if side is None:
                continue
            note = ""
            if isinstance(event, Rolled):
                dice = (max(event.dice), min(event.dice))
                review = cube.get(index)
                if review is not None and review.doubler_mark is not Mark.NONE:
                    link = _link(review, _MARK_SIGNS[review.doubler_mark])
                    words = escape(tr.gettext("no double"))
                    missed = f"({words}{link}) "
                continue
            if isinstance(event, Moved):
                roll = (max(event.dice), min(event.dice))
                text = f"{roll[0]}{roll[1]}: {event.play}"
                if index in checker and checker[index].mark is not Mark.NONE:
                    note = _link(checker[index], _MARK_SIGNS[checker[index].mark])
            elif isinstance(event, Passed):
                closed = event.reason is PassReason.CLOSED_BOARD
                no_move = tr.gettext("(no move)")
                text = tr.gettext("(closed out)") if closed else f"{dice[0]}{dice[1]}: {no_move}"
            elif isinstance(event, Doubled):
                text = tr.gettext("Doubles => {value}", value=event.value)
                review = cube.get(index)
                if review is not None and review.doubler_mark is not Mark.NONE:
                    note = _link(review, _MARK_SIGNS[review.doubler_mark])
            elif isinstance(event, Took | Dropped | Beavered):
                text = _answer(event, tr)
                note = _answer_note(game, index)
            else:
                text = describe(event, names, tr.lang)
            cell = (missed if isinstance(event, Moved | Passed) else "") + escape(text) + note
            if isinstance(event, Moved | Passed):
                missed = ""
            if current[side] or (side == 0 and current[1]):
                rows.append(current)
                current = ["", ""]
            current[side] = cell
        if any(current):
            rows.append(current)
        return _moves_table(rows, footer, names, tr)

    def _decision_html(self, review: CheckerReview | CubeReview, tr: Translator) -> str:
        names = self.analysis.names
        mwc = self.analysis.unit is Unit.MWC
        side = review.side
        position = self.position(review)
        parts = [f"<div class='decision' id='{_anchor(review)}'>"]
        parts.append(
            f"<h4>{escape(names[_decider(review)])}: "
            f"{escape(_decision_title(review, mwc, tr))}</h4>"
        )
        if position is not None:
            dice = review.dice if isinstance(review, CheckerReview) else None
            title = tr.gettext("{player} (light checkers) on roll", player=names[side])
            parts.append(board_svg(position, dice=dice, title=title, lang=tr.lang))
            message = N_("{player} (light checkers) on roll, moving down to the 1-point.")
            parts.append(f"<p class='legend'>{html_words(tr, message, player=names[side])}</p>")
        if isinstance(review, CheckerReview):
            parts.append(candidates_table(review, mwc, tr))
        else:
            parts.append(cube_table(review, names[side], mwc, tr))
        for explanation in self.explanations_of(review):
            parts.append(f"<p class='why'>{escape(explanation.text)}</p>")
        parts.append("</div>")
        return "".join(parts)


def _decider(review: CheckerReview | CubeReview) -> int:
    """The side whose mistake a review shows: the taker when the answer was the worse error."""
    if isinstance(review, CubeReview) and review.taker_loss > review.doubler_loss:
        return 1 - review.side
    return review.side


def _decision_title(review: CheckerReview | CubeReview, mwc: bool, tr: Translator) -> str:
    """A decision in a line: the action, its mark and its loss in the review's unit."""
    if isinstance(review, CheckerReview):
        dice = f"{review.dice[0]}-{review.dice[1]}"
        return tr.gettext(
            "{dice} played {play} ({mark}, {loss}); best {best}",
            dice=dice,
            play=review.played,
            mark=mark_words(review.mark, tr.lang),
            loss=figures(_checker_loss(review, mwc), tr),
            best=review.best.play,
        )
    if review.taker_loss > review.doubler_loss:
        action = mark_words(str(review.response), tr.lang)
        mark, loss = review.taker_mark, _taker_loss(review, mwc)
    else:
        action = tr.gettext("double") if review.doubled else tr.gettext("no double")
        mark, loss = review.doubler_mark, _doubler_loss(review, mwc)
    return tr.gettext(
        "{action} ({mark}, {loss}); right: {verdict}",
        action=action,
        mark=mark_words(mark, tr.lang),
        loss=figures(loss, tr),
        verdict=verdict_words(review.verdict, tr.lang),
    )


def _answer(event: Took | Dropped | Beavered, tr: Translator) -> str:
    """An answer to a double in the move list, as a .mat file writes it ("Beavers" there is
    not the table setting's word)."""
    if isinstance(event, Took):
        return tr.pgettext("move list", "Takes")
    if isinstance(event, Dropped):
        return tr.pgettext("move list", "Drops")
    return tr.pgettext("move list", "Beavers")


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


def _engine_words(name: str, tr: Translator) -> str:
    """The engine that judged, as the page says it: its name and whose nets they are."""
    from gammon.engine.engines.base import ENGINES

    info = ENGINES.get(name)
    if info is None:
        return name
    summary = tr.gettext(info.summary)
    return f"{name} ({summary})"
