"""The teacher's words in every language carry the English words' figures and verdicts
(issue 20: "the teacher's explanations in each language over a few hundred reviewed
decisions: the same numbers and verdicts as in English").

The decisions are test_teacher_words.py's: seeded money games and 5-point matches of
random plays and a random cube, analysed at 0-ply, some hundreds of explanations. Each is
explained in English and in fi, sv, nb and nl; every translated explanation

- carries the same figures as the English one (read as the language writes them: the
  decimal comma, and in fi, sv and nb the per cent sign after a no-break space, as Babel
  writes them), whatever the order the language says them in;
- gives the same verdict: the same kind, plays or cube codes, tags (the habits), and the
  same claims (that the better play "is still better", too early or too good to double,
  take or pass, below or above the take point, "by the chances alone"...);
- is fully translated: it differs from the English and has none of the English messages'
  words of four letters or more but the terms every language keeps (gammon, beaver...).

The habits carry their names in each language, as the headings of that language's page
of beginners' mistakes (docs/rules/MISTAKES.<lang>.md), and link to their section there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from gammon.engine.analysis import Analysis, analyse
from gammon.engine.analysis.explain import (
    Explanation,
    cube_model,
    cube_words,
    loss_words,
    mark_words,
    verdict_words,
)
from gammon.engine.analysis.patterns import PATTERNS, mistakes_page
from gammon.engine.analysis.report import Report
from gammon.engine.analysis.results import Unit
from gammon.i18n import LOCALE_DIR
from tests.engine.test_teacher_words import NAMES, _match, _money_game

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("fi", "sv", "nb", "nl")
#: The teacher's modules (explain.py kept for a template made before it was split).
SOURCES = (
    "gammon/engine/analysis/explain.py",
    "gammon/engine/analysis/words.py",
    "gammon/engine/analysis/checker_facts.py",
    "gammon/engine/analysis/cube_facts.py",
    "gammon/engine/analysis/patterns.py",
)
#: Words every language keeps as English has them (docs/TRANSLATING.md: gammon,
#: backgammon, beaver; Norwegian and Dutch say blot, Dutch race, and pips are pips).
KEPT = {"gammon", "gammons", "backgammon", "beaver", "blot", "blots", "race", "pips"}
#: Words a language shares with English: the glossary's Swedish and Dutch "match", and
#: Dutch "contact" (het contact verbreken).
SHARED = {"sv": {"match"}, "nl": {"contact", "match"}}
#: What the English words claim, and how each language says it.
CLAIMS = {
    "is still better": {
        "fi": "silti parempi", "sv": "ändå bättre", "nb": "likevel bedre", "nl": "toch beter",
    },
    "too early to double": {
        "fi": "liian aikaista tuplata", "sv": "för tidigt att dubbla",
        "nb": "for tidlig å doble", "nl": "te vroeg om te verdubbelen",
    },
    "too good to double": {
        "fi": "liian hyvä tuplattavaksi", "sv": "för bra för att dubbla",
        "nb": "for godt til å doble", "nl": "te goed om te verdubbelen",
    },
    "should take": {
        "fi": "pitäisi hyväksyä", "sv": "bör ta emot", "nb": "bør godta", "nl": "moet aannemen",
    },
    "should pass": {
        "fi": "kieltäytyä", "sv": "bör tacka nej", "nb": "bør nekte", "nl": "moet weigeren",
    },
    "below the take point": {
        "fi": "alle hyväksymisrajan", "sv": "under mottagningsgränsen",
        "nb": "under godtakingsgrensen", "nl": "onder de aannamegrens",
    },
    "above the take point": {
        "fi": "yli hyväksymisrajan", "sv": "över mottagningsgränsen",
        "nb": "over godtakingsgrensen", "nl": "boven de aannamegrens",
    },
    "inside the doubling window": {
        "fi": "tuplausikkunan sisällä", "sv": "inom dubbleringsfönstret",
        "nb": "innenfor doblingsvinduet", "nl": "binnen het verdubbelingsvenster",
    },
    "past the cash point": {
        "fi": "yli lunastusrajan", "sv": "över inkasseringsgränsen",
        "nb": "over innkasseringsgrensen", "nl": "voorbij de incassogrens",
    },
    "by the chances alone": {
        "fi": "pelkkien mahdollisuuksien perusteella", "sv": "enbart efter chanserna",
        "nb": "ut fra sjansene alene", "nl": "op de kansen alleen",
    },
    "taking loses less on average": {
        "fi": "hyväksyminen häviää keskimäärin vähemmän",
        "sv": "att ta emot förlorar mindre i genomsnitt",
        "nb": "å godta taper mindre i snitt",
        "nl": "aannemen verliest gemiddeld minder",
    },
    "taking loses more than passing": {
        "fi": "hyväksyminen häviää enemmän kuin kieltäytyminen",
        "sv": "förlorar man mer på att ta emot än på att tacka nej",
        "nb": "taper man mer på å godta enn på å nekte",
        "nl": "verlies je met aannemen meer dan met weigeren",
    },
}  # fmt: skip
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


@pytest.fixture(scope="module")
def analyses() -> list[Analysis]:
    found = [analyse(_money_game(seed), names=NAMES, ply=0) for seed in range(10)]
    return found + [analyse(_match(seed), names=NAMES, ply=0) for seed in range(4)]


@pytest.fixture(scope="module")
def reports(analyses: list[Analysis]) -> dict[str, list[Report]]:
    return {
        lang: [Report.build(analysis, lang=lang) for analysis in analyses]
        for lang in ("en", *LANGS)
    }


def _pairs(
    reports: dict[str, list[Report]], lang: str
) -> Iterator[tuple[Explanation, Explanation]]:
    for english, translated in zip(reports["en"], reports[lang], strict=True):
        assert len(english.explanations) == len(translated.explanations)
        yield from zip(english.explanations, translated.explanations, strict=True)


def _unnamed(text: str, why: Explanation) -> str:
    """``text`` without its plays and players' names (their digits are not figures)."""
    plays = {why.played, why.better} if why.kind == "checker" else set()
    for name in sorted({*plays, *NAMES}, key=len, reverse=True):
        text = text.replace(name, " § ")
    return text


def figures(text: str) -> list[float]:
    """The numbers of a text as its language writes them (``0,123``, ``65 %``), sorted."""
    return sorted(float(found.replace(",", ".")) for found in _NUMBER.findall(text))


def _english_words() -> set[str]:
    """The words of four letters or more of the teacher's English messages."""
    with (LOCALE_DIR / "gammon.pot").open("rb") as file:
        template = read_po(file)
    words: set[str] = set()
    for message in template:
        if not message.id or not any(path in SOURCES for path, _ in message.locations):
            continue
        for text in [message.id] if isinstance(message.id, str) else message.id:
            words |= {w.lower() for w in re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", "", text))}
    return words - KEPT


ENGLISH = _english_words()


def english_left(text: str, lang: str = "") -> set[str]:
    """The teacher's English words in ``text`` (but those ``lang`` shares with English)."""
    shared = SHARED.get(lang, set())
    return {
        w
        for w in re.findall(r"[^\W\d_]+", text)
        if w.lower() in ENGLISH and w.lower() not in shared
    }


@pytest.mark.parametrize("lang", LANGS)
def test_every_explanation_has_the_english_figures_and_verdict_fully_translated(
    reports: dict[str, list[Report]], lang: str
) -> None:
    checked = numbers = 0
    kinds: set[str] = set()
    for english, translated in _pairs(reports, lang):
        text, words = _unnamed(translated.text, translated), _unnamed(english.text, english)
        # The same decision and verdict: kind, side, plays or cube codes, the habits.
        assert (translated.game, translated.index, translated.side, translated.kind) == (
            english.game, english.index, english.side, english.kind,
        )  # fmt: skip
        assert (translated.played, translated.better, translated.tags) == (
            english.played, english.better, english.tags,
        )  # fmt: skip
        assert len(translated.facts) == len(english.facts), (english.text, translated.text)
        # The same figures, written as the language writes them.
        assert figures(text) == figures(words), (english.text, translated.text)
        numbers += len(figures(words))
        assert not re.search(r"\d\.\d", text), translated.text  # the decimal comma
        assert text.count("%") == words.count("%"), (english.text, translated.text)
        if lang != "nl":
            assert not re.search(r"\d%", text), translated.text  # "65 %"
        # The same claims.
        for claim, said in CLAIMS.items():
            assert (claim in words.lower()) == (said[lang] in text.lower()), (
                claim, english.text, translated.text,
            )  # fmt: skip
        # Fully translated.
        assert translated.text != english.text
        assert english_left(text, lang) == set(), (english_left(text, lang), translated.text)
        kinds.add(english.kind)
        checked += 1
    assert checked >= 300, checked
    assert numbers >= 3000, numbers
    assert kinds == {"checker", "double", "answer"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_habits_are_named_as_the_mistakes_page_of_each_language(
    reports: dict[str, list[Report]], lang: str
) -> None:
    """Each habit's name is the heading of its section (M1-M11) of the beginners' mistakes
    page in that language, and its link points there; the advice is translated."""
    page = (ROOT / mistakes_page(lang)).read_text(encoding="utf-8")
    headings = dict(re.findall(r"^## (M\d+)\. (.+)$", page, flags=re.M))
    assert len(headings) >= len(PATTERNS)
    found = 0
    for english, translated in zip(reports["en"], reports[lang], strict=True):
        for mine, theirs in zip(english.patterns, translated.patterns, strict=True):
            assert [p.key for p in mine] == [p.key for p in theirs]
            assert [p.count for p in mine] == [p.count for p in theirs]
            for habit in theirs:
                assert habit.name == headings[habit.section], habit
                assert habit.link == f"docs/rules/MISTAKES.{lang}.md#{habit.section}"
                assert english_left(habit.name + " " + habit.advice, lang) == set(), habit
                document = habit.to_dict()
                assert document["link"] == habit.link and document["section"] == habit.section
                found += 1
    assert found >= 50
    english_page = (ROOT / mistakes_page()).read_text(encoding="utf-8")
    for number, (_, name, _) in enumerate(PATTERNS, 1):
        assert f"## M{number}. {name}\n" in english_page


@pytest.mark.parametrize("lang", LANGS)
def test_the_cube_hints_words_marks_and_losses_in_each_language(
    analyses: list[Analysis], lang: str
) -> None:
    """The cube hint's words (cube_words), a loss in its unit, marks and verdicts: the
    English figures, translated."""
    checked = 0
    for analysis in analyses:
        for review in analysis.cube[::2]:
            model = cube_model(review, 15)
            if model is None:
                continue
            win = review.chances[0]
            english = " ".join(cube_words(win, model))
            translated = " ".join(cube_words(win, model, lang))
            assert figures(translated) == figures(english), (english, translated)
            assert english_left(translated, lang) == set(), translated
            for claim in ("by the chances alone", "past the cash point", "too good to double"):
                assert (claim in english.lower()) == (CLAIMS[claim][lang] in translated.lower())
            assert verdict_words(review.verdict, lang) != review.verdict
            checked += 1
    assert checked >= 30
    assert figures(loss_words(0.1234, Unit.EQUITY, lang)) == [0.123]
    assert figures(loss_words(0.0142, Unit.MWC, lang)) == [1.4]
    for mark in ("doubtful", "bad", "very bad", "lucky", "very unlucky"):
        assert mark_words(mark, lang) not in ("", mark)
    assert mark_words("", lang) == ""


@pytest.mark.parametrize("lang", LANGS)
def test_the_summary_rows_carry_the_english_figures(analyses: list[Analysis], lang: str) -> None:
    """The review's summary in each language: every row translated, the same figures
    (signs included, as the language writes its minus), the rating's words translated."""
    from gammon.engine.analysis.summary import summary_rows

    def signed(text: str) -> list[float]:
        text = text.replace("\u2212", "-").replace("\xa0", " ")
        return [float(n.replace(",", ".")) for n in re.findall(r"[+-]?\d+(?:[.,]\d+)?", text)]

    for analysis in analyses[::3]:
        english = summary_rows(analysis.players, analysis.match_length)
        translated = summary_rows(analysis.players, analysis.match_length, lang)
        assert len(english) == len(translated)
        for (label, *figures_en), (label_t, *figures_t) in zip(english, translated, strict=True):
            assert label_t != label
            for left, right in zip(figures_en, figures_t, strict=True):
                assert signed(right) == signed(left), (left, right)
                if "." in left:
                    assert "." not in right, right
        rating = translated[7][1]
        assert rating.split("(")[1].rstrip(")") != english[7][1].split("(")[1].rstrip(")") or (
            lang in ("sv", "nl")  # "expert" and "beginner" are Swedish and Dutch words too
        )


def test_the_servers_document_speaks_the_requested_language(analyses: list[Analysis]) -> None:
    """The worker's document carries the teacher's words of every language; the API gives
    the request's, or English where the document has none (written before)."""
    from gammon.server.analysis_worker import in_language

    analysis = analyses[0]
    report = Report.build(analysis)
    document = report.to_dict()
    document["languages"] = {lang: Report.build(analysis, lang=lang).words() for lang in LANGS}
    finnish = in_language(document, "fi")
    assert finnish["lang"] == "fi" and "languages" not in finnish
    assert finnish["explanations"] == document["languages"]["fi"]["explanations"]
    assert finnish["explanations"][0]["text"] != document["explanations"][0]["text"]
    assert finnish["games"] == document["games"]
    english = in_language(document, "en")
    assert english["lang"] == "en" and english["explanations"] == document["explanations"]
    del document["languages"]
    assert in_language(document, "nl")["lang"] == "en"
