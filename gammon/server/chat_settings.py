"""The chat's settings (:class:`ChatConfig`): the house rules of R13 as numbers and
choices, and the rules' text posted at every table, written from them.

>>> ChatConfig(language="any", abuse="reject").rules_text().splitlines()[:2]
['House rules', '- Chat in any language.']
>>> ChatConfig(max_length=0)
Traceback (most recent call last):
  ...
gammon.server.chat_settings.ChatError: bad chat settings: max_length must be at least 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from gammon.errors import IllegalActionError
from gammon.i18n import N_
from gammon.messages import Message
from gammon.server.chat_text import ABUSIVE_FRAGMENTS, ABUSIVE_WORDS, ABUSIVE_WORDS_BY_LANGUAGE

__all__ = ["CHAT_LANGUAGES", "ChatConfig", "ChatError"]

#: The settings of the chat's language (:attr:`ChatConfig.language`).
CHAT_LANGUAGES: Final = ("en", "any")
#: The house rule on abuse, spam and links, one whole sentence for each setting.
_RULES_MASKED: Final = N_(
    "- Abusive language, spam and advertising are not allowed: abusive words are hidden; "
    "send at most {rate} messages in {seconds} seconds, each up to {length} characters, and "
    "do not repeat yourself."
)
_RULES_MASKED_NO_LINKS: Final = N_(
    "- Abusive language, spam and advertising are not allowed: abusive words are hidden; "
    "links are refused; send at most {rate} messages in {seconds} seconds, each up to "
    "{length} characters, and do not repeat yourself."
)
_RULES_REFUSED: Final = N_(
    "- Abusive language, spam and advertising are not allowed: messages with abusive words "
    "are refused; send at most {rate} messages in {seconds} seconds, each up to {length} "
    "characters, and do not repeat yourself."
)
_RULES_REFUSED_NO_LINKS: Final = N_(
    "- Abusive language, spam and advertising are not allowed: messages with abusive words "
    "are refused; links are refused; send at most {rate} messages in {seconds} seconds, each "
    "up to {length} characters, and do not repeat yourself."
)


class ChatError(IllegalActionError):
    """A chat action that is not allowed (muting oneself, a kick by a non-operator...)
    or chat settings that make no sense.

    It lives with the settings, the first to refuse (when the server starts); the
    moderator (:mod:`gammon.server.chat`) raises it for each refused action."""


@dataclass(frozen=True)
class ChatConfig:
    """The moderator's settings; the defaults are the house rules of R13."""

    max_length: int = 300
    #: At most ``rate_messages`` accepted messages in any ``rate_seconds``.
    rate_messages: int = 5
    rate_seconds: float = 10.0
    #: A message as good as the same as one of the sender's last ``repeat_memory``
    #: messages in the last ``repeat_seconds`` is refused; ``repeat_similarity`` is the
    #: difflib ratio from which two messages count as the same (1.0: identical only).
    repeat_seconds: float = 60.0
    repeat_memory: int = 3
    repeat_similarity: float = 0.85
    #: "mask" replaces abusive words with asterisks; "reject" refuses the message.
    abuse: Literal["mask", "reject"] = "mask"
    abusive_words: tuple[str, ...] = ABUSIVE_WORDS
    abusive_fragments: tuple[str, ...] = ABUSIVE_FRAGMENTS
    #: Whose word lists (:data:`ABUSIVE_WORDS_BY_LANGUAGE`) apply besides ``abusive_words``;
    #: None: every language offered (whatever the chat's language) with the default
    #: ``abusive_words``, none with a list of one's own.
    word_languages: tuple[str, ...] | None = None
    allow_links: bool = False
    #: Refuse letters outside the Latin script (the part of "English only" a program can see).
    latin_only: bool = True
    #: How many of a reported player's recent messages a report keeps.
    evidence_messages: int = 5
    #: The chat's language, a house rule of the site: "en" (the guides' "tables speak
    #: English": the rules say so, and letters outside the Latin script are refused) or
    #: "any" (players write in the language they share).
    language: Literal["en", "any"] = "en"
    #: The house rules shown at the tables; None: written from the settings.
    house_rules: str | None = None

    def __post_init__(self) -> None:
        checks = [
            (self.max_length >= 1, "max_length must be at least 1"),
            (self.rate_messages >= 1, "rate_messages must be at least 1"),
            (self.rate_seconds > 0, "rate_seconds must be positive"),
            (self.repeat_seconds >= 0, "repeat_seconds cannot be negative"),
            (self.repeat_memory >= 0, "repeat_memory cannot be negative"),
            (0 < self.repeat_similarity <= 1, "repeat_similarity must be in (0, 1]"),
            (self.abuse in ("mask", "reject"), f"abuse must be 'mask' or 'reject', "
                                                f"got {self.abuse!r}"),
            (self.evidence_messages >= 0, "evidence_messages cannot be negative"),
            (self.language in CHAT_LANGUAGES, f"language must be 'en' or 'any', "
                                              f"got {self.language!r}"),
        ]  # fmt: skip
        for ok, message in checks:
            if not ok:
                raise ChatError(f"bad chat settings: {message}")

    @property
    def languages_listed(self) -> tuple[str, ...]:
        """The languages whose word lists apply (:attr:`word_languages`)."""
        if self.word_languages is not None:
            return self.word_languages
        if self.abusive_words == ABUSIVE_WORDS:
            return tuple(ABUSIVE_WORDS_BY_LANGUAGE)
        return ()

    def rules_text(self, lang: str = "en") -> str:
        """The house rules as posted at every table (R13), in ``lang``: the chat's
        language (:attr:`language`), the rest from the settings."""
        if self.house_rules is not None:
            return self.house_rules
        if self.abuse == "mask":
            limits = _RULES_MASKED if self.allow_links else _RULES_MASKED_NO_LINKS
        else:
            limits = _RULES_REFUSED if self.allow_links else _RULES_REFUSED_NO_LINKS
        lines = [
            Message("House rules"),
            Message("- Chat in English only.")
            if self.language == "en"
            else Message("- Chat in any language."),
            Message(
                limits,
                rate=self.rate_messages,
                seconds=format(self.rate_seconds, "g"),
                length=self.max_length,
            ),
            Message("- Mute a player to hide their messages from you; report a player to alert "
                    "an operator."),
            Message("- Operators may remove a player from a table or ban them from the server. "
                    "The operator's decision is final."),
        ]  # fmt: skip
        return "".join(line.translated(lang) + "\n" for line in lines)
