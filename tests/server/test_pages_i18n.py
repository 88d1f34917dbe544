"""The pages and the catalogs in each language on a real server (docs/PROTOCOL.md 1.7):
``?lang=``, else the browser's ``Accept-Language``, else English; ``Content-Language`` says
which was served, and a page without a translation falls back to English."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import httpx
import pytest

from gammon.i18n import LANGUAGES
from gammon.server.pages import PAGES, source, translated_path
from tests.server.client import ServerProcess

#: Each language's title of the rule book and a term its players use, found in its page.
RULES = {
    "en": ("Rules of play (R1-R15)", "blot"),
    "fi": ("Pelisäännöt (R1-R15)", "orponappula"),
    "sv": ("Spelregler (R1-R15)", "blotta"),
    "nb": ("Spilleregler (R1-R15)", "slå ut"),
    "nl": ("Spelregels (R1-R15)", "uitspelen"),
}


def _get(server: ServerProcess, path: str, **headers: str) -> httpx.Response:
    return httpx.get(f"{server.url}{path}", headers=headers, timeout=10)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_in_each_language(server: ServerProcess, lang: str) -> None:
    response = _get(server, f"/api/pages/rules?lang={lang}")
    assert response.status_code == 200
    assert response.headers["content-language"] == lang
    assert "accept-language" in response.headers["vary"].lower()
    page = response.json()
    title, term = RULES[lang]
    assert (page["name"], page["lang"], page["title"]) == ("rules", lang, title)
    assert term in page["html"]
    # Every rule is there, under its own number.
    numbers = re.findall(r"<h2>(R\d+)\.", page["html"])
    assert numbers == [f"R{n}" for n in range(1, 16)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_mistakes_page_in_each_language(server: ServerProcess, lang: str) -> None:
    page = _get(server, f"/api/pages/mistakes?lang={lang}").json()
    assert page["lang"] == lang
    assert re.findall(r"<h2>(M\d+)\.", page["html"]) == [f"M{n}" for n in range(1, 14)]


def test_accept_language_picks_the_page_when_no_lang_is_given(server: ServerProcess) -> None:
    response = _get(server, "/api/pages/rules", **{"Accept-Language": "de-DE,sv;q=0.8,en;q=0.5"})
    assert response.headers["content-language"] == "sv"
    assert response.json()["title"] == RULES["sv"][0]
    # Norwegian without a written standard, and Nynorsk, are served Bokmål.
    response = _get(server, "/api/pages/rules", **{"Accept-Language": "nn-NO"})
    assert response.json()["lang"] == "nb"
    # ?lang= wins over the header.
    response = _get(server, "/api/pages/rules?lang=nl", **{"Accept-Language": "fi"})
    assert response.json()["lang"] == "nl"
    # None of ours, or no header: English.
    response = _get(server, "/api/pages/rules", **{"Accept-Language": "de, fr;q=0.9"})
    assert response.headers["content-language"] == "en"
    assert response.json()["title"] == RULES["en"][0]


def test_a_page_without_a_translation_falls_back_to_english(tmp_path: Path) -> None:
    """Every page is written in every language now, so the fallback is shown on a folder of
    translations of our own: a page not written there is the English one, said to be."""
    assert source("dice", "fi", tmp_path) == (PAGES["dice"], "en")
    written = translated_path("dice", "fi", tmp_path)
    written.write_text("# Todistettavasti reilut nopat\n", encoding="utf-8")
    assert source("dice", "fi", tmp_path) == (written, "fi")
    assert source("dice", "sv", tmp_path) == (PAGES["dice"], "en")
    assert source("dice", "en", tmp_path) == (PAGES["dice"], "en")


#: Each language's title of the fair-dice page, its word for the opening roll (the terms of
#: docs/TRANSLATING.md) and for the seed (the verification page's, in the catalogs).
DICE = {
    "en": ("Provably fair dice", "opening roll", "seed"),
    "fi": ("Todistettavasti reilut nopat", "aloitusheitto", "siemen"),
    "sv": ("Bevisbart rättvisa tärningar", "öppningskast", "frö"),
    "nb": ("Beviselig rettferdige terninger", "åpningskast", "frø"),
    "nl": ("Aantoonbaar eerlijke dobbelstenen", "openingsworp", "seed"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fair_dice_page_in_each_language(server: ServerProcess, lang: str) -> None:
    response = _get(server, f"/api/pages/dice?lang={lang}")
    assert response.status_code == 200
    assert response.headers["content-language"] == lang
    page = response.json()
    title, opening, seed = DICE[lang]
    assert (page["name"], page["lang"], page["title"]) == ("dice", lang, title)
    assert opening in page["html"] and seed in page["html"]
    # The worked example is there as the English has it: seed 00 01 ... 1f's commitment.
    assert "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd" in page["html"]
    assert page["html"].count("<h2>") == 8 and page["html"].count("<pre>") == 7


def test_the_browser_gets_the_fair_dice_page_in_its_language(server: ServerProcess) -> None:
    """The client asks for ``/api/pages/dice`` with no ``?lang=`` (static/js/pages.js): the
    player's choice in the cookie, else the browser's Accept-Language, picks the page."""
    response = _get(server, "/api/pages/dice", **{"Accept-Language": "fi-FI,fi;q=0.9"})
    assert response.headers["content-language"] == "fi"
    assert response.json()["title"] == DICE["fi"][0]
    cookie = {"Cookie": "gammon_lang=nl", "Accept-Language": "fi"}
    response = _get(server, "/api/pages/dice", **cookie)
    assert response.json()["title"] == DICE["nl"][0]
    # So a cache between keeps one copy per choice, not the first player's for everyone.
    assert response.headers["vary"] == "Accept-Language, Cookie"


def test_an_unknown_language_is_refused_in_words(server: ServerProcess) -> None:
    response = _get(server, "/api/pages/rules?lang=tlh")
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "bad_request" and body.get("field") == "lang"
    assert "gammon does not speak 'tlh' (it speaks en, fi, sv, nb, nl)" in body["message"]


def test_the_catalogs_for_the_browser(server: ServerProcess) -> None:
    response = _get(server, "/api/catalogs/fi")
    assert response.status_code == 200 and response.headers["content-language"] == "fi"
    catalog = response.json()
    assert catalog["lang"] == "fi"
    assert catalog["messages"]["{player} rolls {die1}-{die2}"] == "{player} heittää {die1}-{die2}"
    assert catalog["messages"]["{n} game"] == {"one": "{n} peli", "other": "{n} peliä"}
    assert _get(server, "/api/catalogs/en").json()["messages"] == {}
    assert _get(server, "/api/catalogs/de").status_code == 400


def test_every_translated_page_has_its_english_original() -> None:
    """A translation is of a page there is: no stray files in docs/rules."""
    folder = translated_path("rules", "fi").parent
    expected = {
        translated_path(name, lang).name for name in PAGES for lang in LANGUAGES if lang != "en"
    }
    written = {path.name for path in folder.glob("*.*.md")}
    assert written <= expected


#: The terms docs/TRANSLATING.md chose for each language, which its rule book must use.
TERMS = {
    "fi": ("kiila", "muuri", "orponappula", "kotipesä", "kotiuttaa", "tuplauskuutio"),
    "sv": ("blotta", "bära av", "hemmabräde", "baren", "dubbleringstärning", "tacka nej"),
    "nb": ("hjemmefelt", "slå ut", "sette inn", "bære av", "doblingsbrikke", "nekte"),
    "nl": ("thuisvak", "uitspelen", "binnenkomen", "verdubbelingskubus", "weigeren", "blot"),
}


@pytest.mark.parametrize("lang", TERMS)
def test_each_rule_book_uses_its_languages_terms(lang: str) -> None:
    from gammon.server.pages import page

    text = page("rules", lang)["html"]
    missing = [term for term in TERMS[lang] if term not in text]
    assert missing == []


_FENCE = re.compile(r"^```.*?^```$", flags=re.MULTILINE | re.DOTALL)
_SPAN = re.compile(r"`[^`\n]+`")


def _outline(text: str) -> dict[str, object]:
    """What a translation keeps of its English original as it is: the headings (their
    levels, so their number), the code blocks byte for byte, the code in the text (formulas,
    field names, commands), the numbers of the text, its links, its table rows and its
    bold phrases; only the words between them are the language's."""
    prose = _FENCE.sub("", text)
    words = _SPAN.sub(" ", prose)
    return {
        "headings": re.findall(r"^(#+) ", prose, flags=re.MULTILINE),
        "code blocks": _FENCE.findall(text),
        "code": Counter(_SPAN.findall(prose)),
        "numbers": Counter(re.findall(r"\d+", words)),
        "links": re.findall(r"\]\(([^)\s]+)\)", words),
        "table rows": len(re.findall(r"^\|", prose, flags=re.MULTILINE)),
        "bold": prose.count("**"),
    }


#: English words that a translated page never writes outside its code (the function words
#: and the scheme's own words): one of them there is a sentence left untranslated. Dutch
#: says "seed", as the verification page does.
ENGLISH = {"the", "and", "which", "with", "from", "every", "that", "this", "roll", "rolls",
           "dice", "nobody", "against", "game", "seed"}  # fmt: skip
#: The pages translated section for section, code and figures unchanged (the rule book is
#: told in each language's own words, without the English's notes for programmers).
EXACT = ("dice", "mistakes")


@pytest.mark.parametrize("name", EXACT)
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_translated_page_keeps_the_english_pages_structure(name: str, lang: str) -> None:
    english = PAGES[name].read_text(encoding="utf-8")
    translated = translated_path(name, lang).read_text(encoding="utf-8")
    assert _outline(translated) == _outline(english)
    prose = _SPAN.sub(" ", _FENCE.sub("", translated))
    allowed = {"seed"} if lang == "nl" else set()
    left = set(re.findall(r"[^\W\d_]+", prose.lower())) & (ENGLISH - allowed)
    assert left == set()
