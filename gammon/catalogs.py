"""The catalogs: each language's words, read from its gettext ``.po`` file.

This is what a :class:`~gammon.messages.Message` needs to be written in a language, and
it imports nothing of gammon, so that the messages, the errors built on them and the
choice of a language (:mod:`gammon.i18n`, which raises those errors) stack without a
circle. A language is named here by its code (:func:`language_code` reads a tag);
:mod:`gammon.i18n` is the public side, which refuses a language gammon does not speak.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "SOURCE_LANGUAGE",
    "Translator",
    "catalog_path",
    "language_code",
    "read_catalog",
    "translated_messages",
    "words",
]

#: The languages offered, English (the source) first.
LANGUAGES: Final = ("en", "fi", "sv", "nb", "nl")
SOURCE_LANGUAGE: Final = "en"
#: Each language's own name for itself, for a switch between them.
LANGUAGE_NAMES: Final = {
    "en": "English",
    "fi": "suomi",
    "sv": "svenska",
    "nb": "norsk bokmål",
    "nl": "Nederlands",
}
#: Tags that mean one of ours: Norwegian without a written standard, and Nynorsk,
#: read Bokmål better than English.
_ALIASES: Final = {"no": "nb", "nn": "nb"}
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
DOMAIN: Final = "gammon"


def language_code(tag: str) -> str | None:
    """``fi_FI.UTF-8`` -> ``fi``, ``nb-NO`` -> ``nb``, ``no`` -> ``nb``; None if not ours."""
    base = tag.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    base = _ALIASES.get(base, base)
    return base if base in LANGUAGES else None


def catalog_path(lang: str) -> Path:
    """Where the catalog of ``lang`` lives (English has none: its messages are the keys)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


class Translator:
    """The words of one language: messages with their placeholders filled, plurals, numbers."""

    def __init__(self, lang: str, translations: gettext.NullTranslations) -> None:
        self.lang = lang
        self._translations = translations

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    def gettext(self, message: str, **values: Any) -> str:
        """``message`` in this language with ``values`` filled in."""
        return self._translations.gettext(message).format(**values)

    def pgettext(self, context: str, message: str, **values: Any) -> str:
        """``message`` as said in ``context`` (a word that means two things: the move
        list's "Beavers" and the table setting's), with ``values`` filled in."""
        return self._translations.pgettext(context, message).format(**values)

    def lookup(self, message: str) -> str:
        """``message`` in this language as the catalog writes it, nothing filled in."""
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        """The form of the message for the count ``n`` (filled in as ``{n}``, in this
        language's digits)."""
        text = self._translations.ngettext(singular, plural, n)
        return text.format(n=self.number(n), **values)

    def npgettext(self, context: str, singular: str, plural: str, n: int, **values: Any) -> str:
        """The form for the count ``n`` of a message said in ``context`` (the diagram's
        "5-point match" at a line's start, capitalised where a language does so there)."""
        text = self._translations.npgettext(context, singular, plural, n)
        return text.format(n=self.number(n), **values)

    def number(self, value: float, pattern: str = "#,##0.###") -> str:
        """``value`` written as this language writes numbers (a CLDR decimal pattern)."""
        from babel.numbers import format_decimal

        return format_decimal(value, pattern, locale=self.lang)

    def signed(self, value: float, digits: int = 3) -> str:
        """A signed figure with ``digits`` decimals (equities): ``+0.125``, ``-0,125`` (fi)."""
        zeros = "0" * digits
        pattern = f"+0.{zeros};-0.{zeros}" if digits else "+0;-0"
        return self.number(value, pattern)

    def percent(self, value: float, digits: int = 1) -> str:
        """A fraction as a percentage: ``0.5`` -> ``50.0%`` (``50,0 %`` in Finnish)."""
        from babel import Locale
        from babel.numbers import format_percent

        pattern = Locale.parse(self.lang).percent_formats[None].pattern  # "#,##0 %" in Finnish
        if digits:
            pattern = pattern.replace("#,##0", f"#,##0.{'0' * digits}", 1)
        return format_percent(value, pattern, locale=self.lang)


@functools.cache
def words(code: str) -> Translator:
    """The :class:`Translator` of the language ``code`` (one of :data:`LANGUAGES`), made once."""
    if code == SOURCE_LANGUAGE:
        return Translator(code, gettext.NullTranslations())
    from babel.messages.mofile import write_mo

    compiled = io.BytesIO()
    write_mo(compiled, read_catalog(code))  # leaves out empty and fuzzy messages
    compiled.seek(0)
    translations = gettext.GNUTranslations(compiled)
    translations.add_fallback(gettext.NullTranslations())
    return Translator(code, translations)


def read_catalog(lang: str) -> Any:
    """The Babel ``Catalog`` of ``lang``, read from its ``.po`` file."""
    from babel.messages.pofile import read_po

    with catalog_path(lang).open("rb") as file:
        return read_po(file, locale=lang, domain=DOMAIN)


def translated_messages(catalog: Iterable[Any]) -> Iterable[Any]:
    """The catalog's translated messages: not the header, not empty, not fuzzy."""
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        strings = [message.string] if isinstance(message.string, str) else message.string
        if all(strings):
            yield message
