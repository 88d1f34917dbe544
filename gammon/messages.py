"""A message of the catalogs with its values: written in English for logs, ``str()`` and
records, and in any language the catalogs have where a player reads it.

An error or a notice that a player may read is built as ``Message("English {name}",
name=value)``, not as an f-string: the English template is the catalog's key
(docs/TRANSLATING.md), so the words can be looked up and the values filled in afterwards,
in the language of whoever reads them (the request's, the socket's).

>>> m = Message("there is no user called {name}", name="'bob'")
>>> str(m), m.translated("fi")
("there is no user called 'bob'", "käyttäjää nimeltä 'bob' ei ole")
>>> Message.plain("a text {not} a template").translated("fi")
'a text {not} a template'

A value may itself be a message; it is written in the same language:

>>> why = Message("the opponent owns the cube")
>>> Message("side {side} cannot double: {why}", side=1, why=why).translated("nl")
'speler 1 kan niet verdubbelen: de tegenstander bezit de verdubbelingskubus'

This module needs only the catalogs (:mod:`gammon.catalogs`, which import nothing of
gammon): :mod:`gammon.errors` builds on it, and :mod:`gammon.i18n` on both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from gammon.catalogs import SOURCE_LANGUAGE, language_code, words

__all__ = ["Message"]

_PLAIN: Final = "plain"


class Message:
    """``template`` (English, with ``{name}`` placeholders) and its ``values``.

    A message made with :meth:`plain` is a text as it is (a name, a path, words from
    elsewhere): never looked up, never formatted.
    """

    __slots__ = ("_plain", "_plural", "template", "values")

    def __init__(self, template: str, /, **values: Any) -> None:
        self.template = template
        self.values: dict[str, Any] = values
        self._plain = False
        #: A message with a count: (the plural template, the count ``{n}``).
        self._plural: tuple[str, int] | None = None

    @classmethod
    def plural(cls, singular: str, plural: str, n: int, /, **values: Any) -> Message:
        """A message whose form follows the count ``n`` (filled in as ``{n}``), as
        ``ngettext`` picks it in each language.

        >>> wait = Message.plural("wait {n} second", "wait {n} seconds", 2)
        >>> wait.english
        'wait 2 seconds'
        """
        message = cls(singular, **values)
        message._plural = (plural, n)
        return message

    @classmethod
    def plain(cls, text: str) -> Message:
        """``text`` as it is, in every language."""
        message = cls(text)
        message._plain = True
        return message

    @classmethod
    def of(cls, value: object) -> Message:
        """``value`` if it is a message, else its text as a plain message."""
        return value if isinstance(value, Message) else cls.plain(str(value))

    @property
    def english(self) -> str:
        return self.translated("en")

    def translated(self, lang: str) -> str:
        """The message in ``lang`` (English where the catalog lacks it)."""
        if self._plain:
            return self.template
        values = {
            name: value.translated(lang) if isinstance(value, Message) else value
            for name, value in self.values.items()
        }
        code = language_code(lang)  # None: not a language of ours, so English
        if self._plural is not None:
            plural, n = self._plural
            return words(code or SOURCE_LANGUAGE).ngettext(self.template, plural, n, **values)
        if code is None or code == SOURCE_LANGUAGE:
            return self.template.format(**values) if values else self.template
        found = words(code)
        return found.gettext(self.template, **values) if values else found.lookup(self.template)

    def to_json(self) -> dict[str, Any]:
        """The message for another node (the cluster's forwarded refusals)."""
        if self._plain:
            return {_PLAIN: self.template}
        if self._plural is not None:
            return {_PLAIN: self.english}  # (no refusal forwarded between nodes counts)
        return {
            "template": self.template,
            "values": {
                name: value.to_json() if isinstance(value, Message) else value
                for name, value in self.values.items()
            },
        }

    @classmethod
    def from_json(cls, data: object) -> Message:
        """The message :meth:`to_json` wrote (a plain text for anything else)."""
        if isinstance(data, Mapping):
            if isinstance(data.get(_PLAIN), str):
                return cls.plain(data[_PLAIN])
            template, values = data.get("template"), data.get("values")
            if isinstance(template, str) and isinstance(values, Mapping):
                return cls(
                    template,
                    **{
                        str(name): cls.from_json(value) if isinstance(value, Mapping) else value
                        for name, value in values.items()
                    },
                )
        return cls.plain(str(data))

    def __str__(self) -> str:
        return self.english

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.values!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return (self.template, self.values, self._plain) == (
            other.template,
            other.values,
            other._plain,
        )

    def __hash__(self) -> int:
        return hash((self.template, self._plain))
