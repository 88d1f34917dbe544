"""The pages and the catalogs in each language on a real server (docs/PROTOCOL.md 1.7):
``?lang=``, else the browser's ``Accept-Language``, else English; ``Content-Language`` says
which was served, and a page without a translation falls back to English."""

from __future__ import annotations

import re

import httpx
import pytest

from gammon.i18n import LANGUAGES
from gammon.server.pages import PAGES, translated_path
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


def test_a_page_without_a_translation_falls_back_to_english(server: ServerProcess) -> None:
    """DICE.md has no translation yet: the English page, and Content-Language says so."""
    assert not translated_path("dice", "fi").exists()
    response = _get(server, "/api/pages/dice?lang=fi")
    assert response.status_code == 200
    assert response.headers["content-language"] == "en"
    assert response.json()["lang"] == "en" and "Provably fair dice" in response.json()["title"]


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
