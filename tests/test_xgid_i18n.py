"""An XGID that cannot be read, in each language (gammon.xgid, gammon.errors.XgidError): the
catalog's words with the English figures and none of its words, "XGID" said before them
for whoever pasted one and left out for the analysis board's setup, and the English
``str()`` as it was."""

from __future__ import annotations

import functools
import re

import pytest
from babel.messages.pofile import read_po

from gammon.errors import XgidError
from gammon.i18n import catalog_path
from gammon.messages import Message
from gammon.xgid import Xgid, parse_xgid

P = "-b----E-C---eE---c-e----B-"  # the starting position's 26 characters

#: Bad XGIDs and their English, byte for byte as before the catalogs.
BAD = [
    (f"XGID={P}:0:0:1:00:0:0:0:0", "XGID must have 10 fields separated by ':', got 9"),
    (f"{P}:0:0:0:00:0:0:0:0:10", "XGID turn must be 1 (bottom) or -1 (top), got 0"),
    (f"{P}:0:0:1:00:5:0:0:5:10", "XGID score 5 is not below the match length 5"),
    (
        f"{P}:0:0:1:07:0:0:0:0:10",
        "XGID dice must be '00', two digits 1-6, 'D', 'B' or 'R', got '07'",
    ),
    (
        "-bx---E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID position has an invalid character 'x' at position 3 (expected '-', A-P or a-p)",
    ),
    (
        f"{P}:1:1:-1:00:4:0:1:5:10",
        "XGID has the cube at 2, owned by the opponent, in the Crawford game; "
        "the Crawford game is played without the cube",
    ),
    (f"{P}:1:0:1:R:0:0:0:7:10", "XGID has a raccoon in match play (money only)"),
    (
        "-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10",
        "XGID has 29 checkers for the bottom player (at most 15)",
    ),
]
#: Words a translation keeps from the English: names of rules and of the format.
KEPT = {"xgid", "crawford", "jacoby", "beaver", "raccoon", "match"}


@functools.cache
def _catalog(lang: str) -> dict[str, str]:
    with catalog_path(lang).open("rb") as file:
        return {m.id: m.string for m in read_po(file, locale=lang) if isinstance(m.id, str)}


def _from_catalog(message: Message, lang: str) -> str:
    """The message as the catalog file says it, read here on its own."""
    values = {k: _from_catalog(v, lang) if isinstance(v, Message) else v
              for k, v in message.values.items()}  # fmt: skip
    return _catalog(lang)[message.template].format(**values)


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}


def _figures(text: str) -> list[str]:
    return sorted(re.findall(r"\d+", text))


def _error(text: str) -> XgidError:
    with pytest.raises(XgidError) as exc:
        parse_xgid(text)
    return exc.value


@pytest.mark.parametrize("lang", ["fi", "sv", "nb", "nl"])
def test_a_bad_xgid_in_each_language_has_the_english_figures_and_none_of_its_words(
    lang: str,
) -> None:
    for text, english in BAD:
        exc = _error(text)
        assert str(exc) == english  # the English as it was
        assert exc.reason.english == english.removeprefix("XGID ")
        words, reason = exc.translated(lang), exc.reason.translated(lang)
        assert reason == _from_catalog(exc.reason, lang), (lang, english)
        assert words == f"XGID: {reason}"  # the pasted XGID's, named
        assert "XGID" not in reason  # the board's setup's, without the name
        assert _figures(words) == _figures(english), (lang, words)
        left = (_words(english) - KEPT) & _words(words)
        assert not left, (lang, words, left)


@pytest.mark.parametrize(
    ("fields", "english", "dutch"),
    [
        (
            {"dice": (7, 1)},
            "dice must be (0, 0) or two numbers 1-6, got (7, 1)",
            "de dobbelstenen moeten (0, 0) of twee getallen 1-6 zijn, niet (7, 1)",
        ),
        (
            {"match_length": 5, "score": (2, 0), "crawford": True},
            "has the Crawford flag but neither player is 1-away (score 2-0 to 5)",
            "de Crawford-vlag staat aan maar geen van beide spelers staat op 1 punt van de "
            "winst (stand 2-0 tot 5)",
        ),
    ],
)
def test_a_setup_s_reason_is_said_without_the_word_xgid(
    fields: dict[str, object], english: str, dutch: str
) -> None:
    """The analysis board's setup (an Xgid built from its fields) shows ``reason``."""
    start = (0,) * 5 + (5,) + (0, 3) + (0,) * 4 + (5,) + (0,) * 10 + (2, 0)
    with pytest.raises(XgidError) as exc:
        Xgid(board=(start, start), **fields)  # type: ignore[arg-type]
    assert str(exc.value) == f"XGID {english}"
    assert exc.value.reason.english == english
    assert exc.value.reason.translated("nl") == dutch
