"""The analysis report (gammon.engine.analysis.report): JSON with the teacher's words, and HTML
that is well-formed and needs nothing from the network."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from gammon.dice import RandomDice
from gammon.engine.analysis import Analysis, analyse
from gammon.engine.analysis.graph import GraphMark, graph_svg
from gammon.engine.analysis.report import Report, summary_rows
from gammon.engine.bot import Bot
from gammon.match import Match
from gammon.position import Position
from gammon.svg import board_svg
from tests.engine.test_analysis import _finish

_VOID = {"meta", "br", "hr", "img", "input", "link"}


class _Checker(HTMLParser):
    """Every element closed in order; every src/href kept; SVG elements counted."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.links: list[str] = []
        self.svgs = 0
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v or "" for k, v in attrs if k in ("src", "href", "xlink:href")]
        self.svgs += tag == "svg"
        if tag not in _VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v or "" for k, v in attrs if k in ("src", "href", "xlink:href")]

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()


def well_formed(page: str) -> _Checker:
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.errors == [] and checker.open == []
    return checker


@pytest.fixture(scope="module")
def match_analysis() -> tuple[Match, Analysis]:
    match = Match(1, dice=RandomDice(5))
    _finish(match, (Bot("beginner", seed=1), Bot("casual", seed=2)))
    return match, analyse(match, names=("Ann <a>", "Bob & co"), ply=0)


def test_json_holds_the_analysis_and_the_explanations(
    match_analysis: tuple[Match, Analysis],
) -> None:
    match, analysis = match_analysis
    report = Report.build(analysis, histories=match.histories)
    document = json.loads(report.to_json())
    plain = analysis.to_dict()
    assert {k: document[k] for k in plain} == json.loads(json.dumps(plain))
    assert len(document["explanations"]) == len(report.explanations) > 0
    first = document["explanations"][0]
    assert first["text"] == report.explanations[0].text
    assert len(document["patterns"]) == 2
    mistakes = {(r.game, r.index) for r in analysis.mistakes()}
    assert {(e["game"], e["index"]) for e in document["explanations"]} <= mistakes


def test_html_is_one_well_formed_page_with_no_network(
    match_analysis: tuple[Match, Analysis],
) -> None:
    match, analysis = match_analysis
    page = Report.build(analysis, histories=match.histories).to_html()
    checker = well_formed(page)
    assert checker.svgs >= 2  # the graph and the boards
    assert all(link.startswith("#") for link in checker.links)
    assert not re.search(r"(src|href)\s*=\s*['\"]?https?:", page)
    assert "<script" not in page and "@import" not in page
    # Names are escaped, figures are there, every mistake has its section.
    assert "Ann &lt;a&gt;" in page and "Bob &amp; co" in page and "Ann <a>" not in page
    assert f"{analysis.players[0].rating:.1f}" in page
    for review in analysis.mistakes():
        assert f"id='g{review.game}-{review.index}'" in page


def test_summary_rows_give_both_players_figures(match_analysis: tuple[Match, Analysis]) -> None:
    _, analysis = match_analysis
    rows = dict((label, (a, b)) for label, a, b in summary_rows(analysis.players, 1))
    p0, p1 = analysis.players
    assert rows["Performance rating (PR, on the error normalised to money)"] == (
        f"{p0.rating:.1f} ({p0.rating_words})",
        f"{p1.rating:.1f} ({p1.rating_words})",
    )
    # A match's figures are match winning chance, named in each row that has one.
    assert rows["Result in match winning chance"][0] == f"{100 * p0.result:+.1f}%"
    assert rows["Checker error in match winning chance: total / per decision"][0] == (
        f"{100 * p0.checker_cost:.1f}% / "
        f"{100 * p0.checker_cost / max(p0.checker_decisions, 1):.2f}%"
    )
    money = dict((label, (a, b)) for label, a, b in summary_rows(analysis.players, 0))
    assert money["Checker error in equity: total / per decision"][1] == (
        f"{p1.checker_error:.3f} / {p1.checker_error_rate:.4f}"
    )
    assert money["Result in points"][0] == f"{p0.result:+.2f}"


def test_the_svg_board_draws_every_checker() -> None:
    position = Position.from_points({6: 7, 25: 1}, {24: 2}, checkers=15)
    svg = board_svg(position, dice=(6, 6))
    well_formed(svg)
    # 5 drawn on the 6-point (with its count), 1 on the bar, 2 for the opponent.
    assert svg.count("<circle") == 8
    assert ">7</text>" in svg and "off 7" in svg and "off 13" in svg


def test_the_graph_marks_its_points() -> None:
    svg = graph_svg([(0, 0.5), (10, 0.8)], [GraphMark(5, "#f00", "a <b>")], x_max=10)
    well_formed(svg)
    assert "<polyline" in svg and "a &lt;b&gt;" in svg
