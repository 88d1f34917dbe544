"""What the house rules (R13) see in a message's text: abusive words, links, another script.

Pure functions of the text, no state and no settings beyond the word lists: the
moderator (:mod:`gammon.server.chat`) decides with them. Abusive words are found
through l33t spellings, repeated letters, accents and spacing ("f u c k",
"1d10t"), in English and in the other languages offered; a link is any web
address (advertising); the text as shown is the text cleaned of control and
invisible characters.

>>> find_abuse("you fuuuck1ng 1d10t"), has_link("visit www.example.com")
(['fuuuck1ng', '1d10t'], True)
>>> clean_text("  good\tluck\u200b !  ")
'good luck !'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Final

__all__ = [
    "ABUSIVE_FRAGMENTS",
    "ABUSIVE_WORDS",
    "ABUSIVE_WORDS_BY_LANGUAGE",
    "AbuseMatcher",
    "clean_text",
    "find_abuse",
    "has_link",
    "has_non_latin",
    "mask_abuse",
    "mask_spans",
    "repeat_key",
]

#: Insults and slurs matched as whole words (with endings such as -s, -ed, -ing, -y),
#: case-insensitively, through l33t spellings, repeated letters, accents and spacing.
ABUSIVE_WORDS: Final[tuple[str, ...]] = (
    "arsehole", "asshole", "bastard", "bitch", "bollocks", "bullshit", "cocksucker",
    "cunt", "dickhead", "douchebag", "dumbass", "fag", "faggot", "idiot", "imbecile",
    "jackass", "kys", "moron", "nigga", "nigger", "retard", "scumbag", "shit", "shithead",
    "slut", "spastic", "twat", "wanker", "whore",
)  # fmt: skip
#: Stems matched anywhere inside a word ("clusterfuck"); only those no English word contains.
ABUSIVE_FRAGMENTS: Final[tuple[str, ...]] = ("fuck",)

#: The other languages offered (gammon.i18n.LANGUAGES), each a short list of common insults
#: and slurs of our own choosing (R13: abusive language is not allowed in any language):
#: ``words`` are matched whole with the language's ``endings``; ``stems`` at the start of a
#: word with any ending, for inflections that change the word itself (Finnish cases:
#: idiootti, idiootin, idiooteille; Dutch and Scandinavian compounds: klootzakken,
#: jævlig, drittsekken). No stem begins an English word, since every list is applied to
#: every message: a player may write in any of them whatever the site's chat language.
ABUSIVE_WORDS_BY_LANGUAGE: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "fi": {
        "words": (),
        "endings": (),
        "stems": (
            "vittu", "vitu", "perkele", "saatana", "huora", "paska", "kusipää", "mulkku",
            "mulkun", "mulkut", "idioot", "ääliö", "runkkar", "neekeri", "hintt", "lutka",
        ),
    },
    "sv": {
        "words": ("hora", "horor", "kuk", "neger", "idiot", "pucko", "fitta", "mongo"),
        "endings": ("n", "en", "er", "erna", "ar", "arna", "or", "orna", "s", "t", "et", "na"),
        "stems": ("jävl", "knull", "horunge", "rövhål", "kukhuvud", "skitstövel", "fittan"),
    },
    "nb": {
        "words": ("hore", "kuk", "neger", "idiot", "mongo", "fitte", "pikk"),
        "endings": ("n", "r", "en", "er", "ene", "s", "et"),
        "stems": ("faen", "jævl", "kødd", "rasshøl", "drittsekk", "hestkuk", "horunge"),
    },
    "nl": {
        "words": ("kut", "hoer", "debiel", "eikel", "neger", "idioot", "mongool", "lijer"),
        "endings": ("en", "s", "e", "je", "jes", "tje", "tjes"),
        "stems": (
            "klootza", "hoerenjong", "kanker", "tyfus", "tering", "godverdom", "kutwijf",
            "kolere", "flikker",
        ),
    },
}  # fmt: skip

_ENDINGS: Final = ("s", "es", "z", "d", "ed", "er", "ers", "ing", "y", "ic", "ish")
# What each letter may be written as: itself, a look-alike digit or symbol.
_LOOKALIKES: Final = {
    "a": "a4@", "b": "b8", "e": "e3", "g": "g9", "i": "i1!|", "l": "l1|",
    "o": "o0", "s": "s5$", "t": "t7+",
}  # fmt: skip
_TOKEN: Final = re.compile(r"(?:[^\W_]|[@$!|+])+")
_SPACED_GAP: Final = re.compile(r"[\s.\-_*,]{1,2}")
_LINK: Final = re.compile(
    r"(?:\b(?:https?|ftp)://|\bwww\.|\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\s?\.\s?"
    r"(?:com|net|org|info|biz|io|co|me|tv|gg|xyz|ru|de|uk|us|cc|ly|app|dev|site|online"
    r"|top|club|shop|live|pro|link|click|bet|casino|win)\b|\bdot\s?(?:com|net|org|io)\b)",
    re.IGNORECASE,
)
_LONGEST_SPELT: Final = 20  # letters: the longest listed word with an ending fits


def _letter_pattern(letter: str) -> str:
    return "[" + re.escape(_LOOKALIKES.get(letter, letter)) + "]+"


def _word_pattern(word: str) -> str:
    return "".join(_letter_pattern(letter) for letter in word)


def _fold(text: str) -> str:
    """Lower case without accents, for matching only ("FÜCK" -> "fuck")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class AbuseMatcher:
    """Finds abusive words in a text, as spans to mask."""

    __slots__ = ("_fragments", "_words")

    def __init__(
        self,
        words: Iterable[str],
        fragments: Iterable[str],
        languages: Iterable[str] = (),
    ) -> None:
        fragments = [_fold(f) for f in fragments if f]
        self._words = [_words_pattern(words, _ENDINGS)]
        stems: list[str] = []
        for lang in languages:
            table = ABUSIVE_WORDS_BY_LANGUAGE.get(lang)
            if table is not None:
                self._words.append(_words_pattern(table["words"], table["endings"]))
                stems.extend(_fold(stem) for stem in table["stems"])
        if stems:
            # A stem, then any letters: the word's endings, or the rest of a compound.
            pattern = "|".join(_word_pattern(stem) for stem in stems)
            self._words.append(re.compile(f"(?:{pattern})[^\\W\\d_]*"))
        self._fragments = (
            re.compile("|".join(_word_pattern(f) for f in fragments)) if fragments else None
        )

    def _matches(self, word: str) -> bool:
        folded = _fold(word)
        if any(pattern is not None and pattern.fullmatch(folded) for pattern in self._words):
            return True
        return self._fragments is not None and self._fragments.search(folded) is not None

    def spans(self, text: str) -> list[tuple[int, int]]:
        tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
        found: list[tuple[int, int]] = []
        for start, end in tokens:
            while end > start + 1 and text[end - 1] in "!|":  # "idiot!!" ends in punctuation
                end -= 1
            if any(c.isalpha() for c in text[start:end]) and self._matches(text[start:end]):
                found.append((start, end))
        # Words spelt out letter by letter: "f u c k", "a s.h.i.t": the longest match
        # from each letter on.
        for run in _spaced_runs(text, tokens):
            first = 0
            while first <= len(run) - 3:
                for last in range(min(len(run), first + _LONGEST_SPELT), first + 2, -1):
                    letters = "".join(text[s:e] for s, e in run[first:last])
                    if any(c.isalpha() for c in letters) and self._matches(letters):
                        found.append((run[first][0], run[last - 1][1]))
                        first = last
                        break
                else:
                    first += 1
        return sorted(found)


def _words_pattern(words: Iterable[str], endings: Iterable[str]) -> re.Pattern[str] | None:
    """Whole ``words``, each with one of ``endings`` or none; None for no words."""
    folded = [_fold(w) for w in words if w]
    if not folded:
        return None
    ends = [_fold(e) for e in endings if e]
    tail = f"(?:{'|'.join(_word_pattern(e) for e in ends)})?" if ends else ""
    return re.compile(f"(?:{'|'.join(_word_pattern(w) for w in folded)}){tail}")


def _spaced_runs(text: str, tokens: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
    run: list[tuple[int, int]] = []
    for start, end in [*tokens, (len(text) + 2, len(text) + 2)]:
        single = end - start == 1
        joined = bool(run) and _SPACED_GAP.fullmatch(text[run[-1][1] : start]) is not None
        if single and (not run or joined):
            run.append((start, end))
            continue
        if len(run) >= 3:
            yield run
        run = [(start, end)] if single else []


_DEFAULT_MATCHER: Final = AbuseMatcher(
    ABUSIVE_WORDS, ABUSIVE_FRAGMENTS, tuple(ABUSIVE_WORDS_BY_LANGUAGE)
)


def find_abuse(text: str) -> list[str]:
    """The abusive words in a text, as written (default word list).

    >>> find_abuse("you are an 1D10T!!! and a b.i.t.c.h, play on in Scunthorpe")
    ['1D10T', 'b.i.t.c.h']
    """
    return [text[s:e] for s, e in _DEFAULT_MATCHER.spans(text)]


def mask_abuse(text: str) -> str:
    """The text with each abusive word (default word list) replaced by asterisks.

    >>> mask_abuse("what a sh!tty roll, fuuuck")
    'what a ****** roll, ******'
    """
    return mask_spans(text, _DEFAULT_MATCHER.spans(text))


def mask_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = "*" * (end - start)
    return "".join(chars)


def has_link(text: str) -> bool:
    """Whether a text carries a web address, which the house rules count as advertising.

    >>> has_link("see https://x.test"), has_link("join discord.gg/abc"), has_link("13/7 8/7")
    (True, True, False)
    """
    return _LINK.search(text) is not None


def clean_text(text: str) -> str:
    """The text as shown: NFKC, no control or invisible format characters, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(
        " " if c.isspace() else c
        for c in text
        if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    return " ".join(kept.split())


def repeat_key(text: str) -> str:
    """What two messages must share to count as the same: letters and digits, runs collapsed."""
    folded = "".join(c for c in _fold(text) if c.isalnum())
    return re.sub(r"(.)\1+", r"\1", folded) or text.casefold()


def has_non_latin(text: str) -> bool:
    return any(
        unicodedata.category(c).startswith("L") and not unicodedata.name(c, "").startswith("LATIN")
        for c in text
    )
