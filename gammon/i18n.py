"""The player's language: which one to speak, and the words, plurals and numbers in it.

English is the source language: every message in the code is an English sentence with
``{name}`` placeholders, and it is also the message's key in the gettext catalogs
``gammon/locale/<lang>/LC_MESSAGES/gammon.po`` (docs/TRANSLATING.md). A message a
catalog lacks, leaves empty or marks fuzzy is spoken in English: a player never sees
a key. Plural forms come from each catalog's header, numbers are written as the
language's CLDR data says (Babel: ``0,125`` in Finnish, ``0.125`` in English).

The catalogs are read from their ``.po`` text and compiled in memory on first use, so a
clean clone (and CI) needs no build step and no generated file can go stale.

>>> fi = translator("fi")
>>> fi.ngettext("{n} game", "{n} games", 1), fi.ngettext("{n} game", "{n} games", 2)
('1 peli', '2 peliä')
>>> fi.signed(-0.125), translator("en").signed(-0.125), fi.percent(0.5)
('-0,125', '-0.125', '50,0\xa0%')
>>> translator("fi").gettext("no such message: {x}", x=1)
'no such message: 1'
"""

from __future__ import annotations

import functools
import gettext
import os
import string
from collections.abc import Mapping
from typing import Any

from gammon.catalogs import (
    DOMAIN,
    LANGUAGE_NAMES,
    LANGUAGES,
    LOCALE_DIR,
    SOURCE_LANGUAGE,
    Translator,
    catalog_path,
    language_code,
    read_catalog,
    translated_messages,
    words,
)
from gammon.errors import GammonError

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "LANGUAGE_NAMES",
    "N_",
    "SOURCE_LANGUAGE",
    "Translator",
    "UnknownLanguageError",
    "catalog_path",
    "from_environment",
    "language",
    "messages_json",
    "negotiate",
    "placeholders",
    "translator",
]


class UnknownLanguageError(GammonError, ValueError):
    """A language asked for by name that gammon does not speak."""


def language(requested: str) -> str:
    """The language code for ``requested`` (``"fi"``, ``"sv-FI"``, ``"nb_NO"``...), or
    :class:`UnknownLanguageError` naming the languages there are.

    >>> language("sv-FI"), language("no")
    ('sv', 'nb')
    >>> language("de")
    Traceback (most recent call last):
    ...
    gammon.i18n.UnknownLanguageError: gammon does not speak 'de' (it speaks en, fi, sv, nb, nl)
    """
    found = language_code(requested)
    if found is None:
        raise UnknownLanguageError(
            f"gammon does not speak {requested!r} (it speaks {', '.join(LANGUAGES)})"
        )
    return found


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the terminal's locale, as gettext looks for it (``LANGUAGE``, a
    colon-separated list, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English if none is ours.

    >>> from_environment({"LANG": "fi_FI.UTF-8"}), from_environment({"LANG": "C.UTF-8"})
    ('fi', 'en')
    >>> from_environment({"LANGUAGE": "de:nl", "LANG": "fi_FI.UTF-8"})
    'nl'
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for tag in value.split(":"):
            found = language_code(tag)
            if found is not None:
                return found
        if name != "LANGUAGE":  # the first locale variable set decides, as in gettext
            break
    return SOURCE_LANGUAGE


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an HTTP ``Accept-Language`` header (RFC 9110 12.5.4:
    quality values, ``*``); English when the header names none of ours.

    >>> negotiate("de-DE,de;q=0.9,sv;q=0.8,en;q=0.7")
    'sv'
    >>> negotiate("nl;q=0.2, fi"), negotiate(None), negotiate("*")
    ('fi', 'en', 'en')
    """
    best: tuple[float, int, str] | None = None
    for order, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        found = language_code(tag) if tag.strip() != "*" else SOURCE_LANGUAGE
        if found is None or quality <= 0:
            continue
        if best is None or (quality, -order) > (best[0], best[1]):
            best = (quality, -order, found)
    return SOURCE_LANGUAGE if best is None else best[2]


def placeholders(message: str) -> frozenset[str]:
    """The ``{names}`` a message fills in.

    >>> sorted(placeholders("{player} rolls {die1}-{die2}"))
    ['die1', 'die2', 'player']
    """
    return frozenset(
        name for _, name, _, _ in string.Formatter().parse(message) if name is not None
    )


@functools.lru_cache(maxsize=64)
def translator(lang: str = SOURCE_LANGUAGE) -> Translator:
    """The :class:`Translator` of ``lang`` (a tag of one of :data:`LANGUAGES`), made once;
    :class:`UnknownLanguageError` for another. Kept by tag, as every event's words ask
    for one (a bounded cache: tags come from clients)."""
    return words(language(lang))


def messages_json(lang: str) -> dict[str, Any]:
    """The catalog of ``lang`` for a client that has no gettext (the browser): each
    translated message by its English text; a plural message maps each CLDR plural category
    of the language (``one``, ``other``: what ``Intl.PluralRules`` answers) to its form.
    English gives no messages: its keys are its words.

    >>> messages_json("fi")["messages"]["{n} game"]
    {'one': '{n} peli', 'other': '{n} peliä'}
    """
    from babel import Locale

    lang = language(lang)
    messages: dict[str, str | dict[str, str]] = {}
    if lang != SOURCE_LANGUAGE:
        catalog = read_catalog(lang)
        # Which gettext form each CLDR category takes, found by asking both for the counts.
        rule = gettext.c2py(catalog.plural_expr)
        cldr = Locale.parse(lang).plural_form
        forms = dict(sorted({cldr(n): rule(n) for n in range(1000)}.items()))
        for message in translated_messages(catalog):
            if message.context:  # the browser's t() has no context: these are Python's
                continue
            if isinstance(message.string, str):
                messages[message.id] = message.string
            else:
                key = message.id[0]
                messages[key] = {
                    category: message.string[index] for category, index in forms.items()
                }
    return {"lang": lang, "messages": messages}


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs where it is written (a table of words) and
    translated later, where it is used: it returns ``message`` unchanged."""
    return message
