"""The review's HTML page and the board diagram in every language (issue 20): each carries
the English one's figures and structure, says its language, and has none of the English
page's words left but the names, the notation and the terms every language keeps
(docs/TRANSLATING.md).

Two short analyses at 0-ply, each built into one page per language: a 3-point match of bots
(test_report.py's recipe: its move list, its takes and drops, a finished game) and a money
game with a cube mistake (the cube's table) that is not finished.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gammon.cli import main
from gammon.diagram import draw
from gammon.dice import RandomDice, ScriptedDice
from gammon.engine.analysis import Analysis, analyse
from gammon.engine.analysis.report import Report
from gammon.engine.analysis.results import VERY_BAD
from gammon.engine.bot import Bot
from gammon.game import Game
from gammon.match import Match
from gammon.matfile import write_mat
from gammon.position import Position
from gammon.server.analysis_worker import in_language
from tests.engine.test_analysis import _finish
from tests.engine.test_report import well_formed

LANGS = ("fi", "sv", "nb", "nl")
NAMES = ("Anneli", "Roope")
#: Words every language keeps as English has them (docs/TRANSLATING.md): the game's terms,
#: and the notation's and the formats' names.
KEPT = {
    "gammon", "gammons", "backgammon", "beaver", "crawford", "jacoby", "ply",
    "blot", "blots", "race", "pips", "position", "match",
}  # fmt: skip
#: Words a language shares with English (the Dutch "contact" of the teacher's words).
SHARED = {"nl": {"contact"}}
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


class _Text(HTMLParser):
    """The page's visible words (the style sheet left out, the drawings' titles kept) and the
    sequence of its elements."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.tags: list[str] = []
        self._style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._style = False

    def handle_data(self, data: str) -> None:
        if not self._style and data.strip():
            self.texts.append(data)


def _read(page: str) -> _Text:
    reader = _Text()
    reader.feed(page)
    reader.close()
    return reader


def figures(text: str) -> list[float]:
    """The numbers of a text as its language writes them (``0,123``, ``65 %``), sorted."""
    return sorted(float(found.replace(",", ".")) for found in _NUMBER.findall(text))


def words(text: str) -> set[str]:
    """The words of four letters or more, lowercased, but the players' names."""
    names = {name.lower() for name in NAMES}
    return {w.lower() for w in re.findall(r"[^\W\d_]{4,}", text)} - names


@pytest.fixture(scope="module")
def played() -> tuple[Match, Analysis]:
    match = Match(3, dice=RandomDice(6))
    _finish(match, (Bot("beginner", seed=1), Bot("casual", seed=2)))
    return match, analyse(match, names=NAMES, ply=0)


@pytest.fixture(scope="module")
def pages(played: tuple[Match, Analysis]) -> dict[str, str]:
    """Each language's two pages, one after the other."""
    match, analysis = played
    game = Game(dice=ScriptedDice([(6, 5), (4, 2)]))
    game.roll(0), game.play(0, "24/13")
    game.double(1), game.take(0)  # far too early
    game.roll(1), game.play(1, "8/4 6/4")
    cube = analyse(game, names=NAMES, ply=0)
    # The teacher explains the very bad mistakes only (its words have their own test): fast.
    return {
        lang: Report.build(
            analysis, histories=match.histories, lang=lang, threshold=VERY_BAD
        ).to_html()
        + Report.build(cube, histories=[game.history], lang=lang).to_html()
        for lang in ("en", *LANGS)
    }


def test_the_pages_have_what_is_translated(pages: dict[str, str]) -> None:
    """The pages checked below have mistakes of both kinds, a move list, takes and drops, a
    game finished and one not."""
    english = pages["en"]
    assert "<html lang='en'>" in english
    assert "Double, take" in english and "<th>loss</th>" in english
    assert "Takes" in english and "Drops" in english and "(no move)" in english
    assert "class='why'" in english
    assert "Score before the game" in english and " wins " in english and "not finished" in english


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_has_the_english_figures_its_language_and_none_of_its_words(
    pages: dict[str, str], lang: str
) -> None:
    english, page = _read(pages["en"]), _read(pages[lang])
    well_formed(pages[lang])
    assert f"<html lang='{lang}'>" in pages[lang]
    # The same elements in the same order: every table, row, drawing and explanation.
    assert page.tags == english.tags
    assert len(page.texts) == len(english.texts)
    # The same figures, written as the language writes them (0,123; 12,5 %).
    assert figures(" ".join(page.texts)) == figures(" ".join(english.texts))
    # None of the English page's words left.
    kept = KEPT | SHARED.get(lang, set())
    left = words(" ".join(page.texts)) & (words(" ".join(english.texts)) - kept)
    assert left == set(), f"{lang}: English words left: {sorted(left)}"
    assert page.texts != english.texts


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_diagram_speaks_each_language(lang: str) -> None:
    """The text board's panel (score, borne off, cube, whose turn, match) in ``lang``: the same
    lines and figures, no English label left but the ID formats' names."""
    position = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 4, 8: 3, 13: 5}, checkers=15)
    for state in (
        {"dice": (5, 2), "cube": 2, "cube_owner": 0, "score": (1, 2), "match_length": 5},
        {"score": (0, 0), "match_length": 0},
    ):
        english = draw(position, names=NAMES, **state)  # type: ignore[arg-type]
        spoken = draw(position, names=NAMES, lang=lang, **state)  # type: ignore[arg-type]
        assert len(spoken.splitlines()) == len(english.splitlines())
        assert figures(spoken) == figures(english)
        left = words(spoken) & (words(english) - KEPT)
        assert left == set(), f"{lang}: {sorted(left)}"
    money = {"fi": "Rahapeli", "sv": "Spel om insats", "nb": "Spill om innsats", "nl": "Geldspel"}
    assert spoken.splitlines()[-1].strip() == money[lang]


def test_the_review_document_in_the_readers_language() -> None:
    """The worker keeps each language's words in the document (its pages are rows of their
    own: tests/server/test_analysis_pages.py); the reader's are shown, English where a job
    has none in that language, and the other languages' words are left out."""
    document = {
        "lang": "en",
        "explanations": [{"text": "English"}],
        "languages": {"fi": {"lang": "fi", "explanations": [{"text": "suomeksi"}]}},
    }
    shown = in_language(document, "fi")
    assert shown["lang"] == "fi" and shown["explanations"] == [{"text": "suomeksi"}]
    assert "languages" not in shown
    english = in_language(document, "sv")
    assert english["lang"] == "en" and english["explanations"] == [{"text": "English"}]


def test_analyse_writes_the_html_page_in_lang(
    tmp_path: Path, played: tuple[Match, Analysis], capsys: pytest.CaptureFixture[str]
) -> None:
    match, _ = played
    source = tmp_path / "match.mat"
    source.write_text(write_mat(match, names=NAMES), encoding="utf-8")
    target = tmp_path / "report.html"
    status = main(["analyse", str(source), "--ply", "0", "--lang", "nl", "--html", str(target)])
    capsys.readouterr()
    page = target.read_text(encoding="utf-8")
    assert status == 0 and "<html lang='nl'>" in page
    assert "Gewoonten om aan te werken" in page and "Habits to work on" not in page
