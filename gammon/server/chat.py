"""Chat moderation for tables and the lobby (R13): pure decisions, no I/O.

The house rules (R13): chat in English only; abusive language, spam and
advertising are not allowed; the operator's decision is final. A
:class:`ChatModerator` applies them to each message and answers with an
:class:`Accepted` (the text to show, abusive words masked) or a
:class:`Rejected` (the reason to show the sender). It also keeps who muted whom,
the players' reports, and the operators' kicks and bans, which take effect at
once: the server closes a banned player's sockets when :meth:`ChatModerator.ban`
returns its :class:`Banned` event and refuses them while
:meth:`ChatModerator.is_banned` says so.

Checks, in order: banned, kicked from the table, empty, too long, too fast
(rate limit), repeated, links (advertising), non-Latin script (the English-only
rule can only be checked that far; operators judge the rest), abusive words.
Abusive words are masked by default (``ChatConfig(abuse="reject")`` refuses the
message instead): masking keeps the game's conversation going while hiding the
insult, and the sender sees the masked text come back.

This module is longer than most (about 700 lines) for a reason: the text checks
(abuse, links, script) and the moderator's state (mutes, reports, kicks, bans)
are one concept, the house rules, with no I/O; splitting them would only spread
the rules across files. What the server does with the decisions (storing,
sending) is :mod:`gammon.server.chatroom`.

The clock is injected so tests are exact:

>>> now = [0.0]
>>> moderator = ChatModerator(clock=lambda: now[0], operators=["op"])
>>> moderator.moderate("ann", "good luck!")
Accepted(text='good luck!', masked=False)
>>> moderator.moderate("ann", "you fuuuck1ng 1d10t")
Accepted(text='you ********* *****', masked=True)
>>> moderator.moderate("ann", "visit www.example.com").reason
'links and advertising are not allowed in the chat'
>>> moderator.ban("op", "ann", "abuse")
Banned(user='ann', by='op', reason='abuse', at=0.0, until=None)
>>> moderator.is_banned("ann"), moderator.moderate("ann", "hello?").rule
(True, <Rule.BANNED: 'banned'>)
"""

from __future__ import annotations

import difflib
import enum
import math
import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final, Literal, TypeVar

from gammon.errors import IllegalActionError
from gammon.i18n import N_
from gammon.messages import Message

__all__ = [
    "ABUSIVE_FRAGMENTS",
    "ABUSIVE_WORDS",
    "ABUSIVE_WORDS_BY_LANGUAGE",
    "Accepted",
    "Banned",
    "ChatConfig",
    "ChatError",
    "ChatModerator",
    "Decision",
    "Kicked",
    "ModerationEvent",
    "Readmitted",
    "Rejected",
    "Report",
    "Rule",
    "Unbanned",
    "find_abuse",
    "has_link",
    "mask_abuse",
    "too_fast",
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
_NEAR_LIMIT_FACTOR: Final = 4  # raw text this many times the limit is refused unread


def _letter_pattern(letter: str) -> str:
    return "[" + re.escape(_LOOKALIKES.get(letter, letter)) + "]+"


def _word_pattern(word: str) -> str:
    return "".join(_letter_pattern(letter) for letter in word)


def _fold(text: str) -> str:
    """Lower case without accents, for matching only ("FÜCK" -> "fuck")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class _AbuseMatcher:
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


_DEFAULT_MATCHER: Final = _AbuseMatcher(
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
    return _mask(text, _DEFAULT_MATCHER.spans(text))


def _mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
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


def _clean(text: str) -> str:
    """The text as shown: NFKC, no control or invisible format characters, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(
        " " if c.isspace() else c
        for c in text
        if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    return " ".join(kept.split())


def _repeat_key(text: str) -> str:
    """What two messages must share to count as the same: letters and digits, runs collapsed."""
    folded = "".join(c for c in _fold(text) if c.isalnum())
    return re.sub(r"(.)\1+", r"\1", folded) or text.casefold()


def _non_latin(text: str) -> bool:
    return any(
        unicodedata.category(c).startswith("L") and not unicodedata.name(c, "").startswith("LATIN")
        for c in text
    )


class ChatError(IllegalActionError):
    """A chat action that is not allowed (muting oneself, a kick by a non-operator...)
    or chat settings that make no sense."""


class Rule(enum.Enum):
    """Which rule refused a message (for the server's logs and counters)."""

    BANNED = "banned"
    KICKED = "kicked"
    EMPTY = "empty"
    TOO_LONG = "too long"
    TOO_FAST = "too fast"
    REPEATED = "repeated"
    LINK = "link"
    NOT_ENGLISH = "not English"
    ABUSIVE = "abusive"


@dataclass(frozen=True)
class Accepted:
    """Post ``text`` (cleaned, abusive words masked when ``masked``) to the channel."""

    text: str
    masked: bool = False

    @property
    def accepted(self) -> Literal[True]:
        return True


@dataclass(frozen=True)
class Rejected:
    """Do not post; show ``reason`` to the sender only (``notice``: the same words as a
    message of the catalogs, to be written in the sender's language)."""

    rule: Rule
    reason: str
    notice: Message | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, rule: Rule, notice: Message) -> Rejected:
        return cls(rule, notice.english, notice)

    def translated(self, lang: str) -> str:
        """The reason in ``lang``."""
        return self.reason if self.notice is None else self.notice.translated(lang)

    @property
    def accepted(self) -> Literal[False]:
        return False


Decision = Accepted | Rejected


@dataclass(frozen=True)
class Kicked:
    """An operator removed ``user`` from ``table``: close their seat and table sockets."""

    user: str
    table: str
    by: str
    reason: str
    at: float


@dataclass(frozen=True)
class Readmitted:
    """An operator let a kicked ``user`` back to ``table``."""

    user: str
    table: str
    by: str
    at: float


@dataclass(frozen=True)
class Banned:
    """An operator banned ``user`` from the server (until ``until``, or for good): close
    every socket of theirs now."""

    user: str
    by: str
    reason: str
    at: float
    until: float | None


@dataclass(frozen=True)
class Unbanned:
    """An operator lifted ``user``'s ban."""

    user: str
    by: str
    at: float


ModerationEvent = Kicked | Readmitted | Banned | Unbanned
_E = TypeVar("_E", Kicked, Readmitted, Banned, Unbanned)


@dataclass(frozen=True)
class Report:
    """A player's report for the operators, with the reported player's recent messages."""

    number: int
    reporter: str
    target: str
    reason: str
    at: float
    table: str | None
    evidence: tuple[str, ...]
    #: The server's id of the message reported, when the player reported one.
    message: int | None = None


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


@dataclass
class _History:
    """What the moderator remembers of one sender."""

    times: deque[float] = field(default_factory=deque)
    recent: deque[tuple[float, str, str]] = field(default_factory=lambda: deque(maxlen=16))


def too_fast(config: ChatConfig, wait: float) -> Rejected:
    """The refusal of a message sent within ``wait`` seconds of the rate allowing it."""
    seconds = max(1, math.ceil(wait))
    return Rejected.of(
        Rule.TOO_FAST,
        Message.plural(
            "you are sending messages too fast: wait {n} second (at most {rate} messages in "
            "{seconds} seconds)",
            "you are sending messages too fast: wait {n} seconds (at most {rate} messages in "
            "{seconds} seconds)",
            seconds,
            rate=config.rate_messages,
            seconds=format(config.rate_seconds, "g"),
        ),
    )


class ChatModerator:
    """Decides on every chat message and keeps mutes, reports, kicks and bans.

    Users and tables are identified by strings (the server's ids). Operators are
    the users allowed to kick and ban; the server can change them at any time.
    Bans restored from the database at start-up go in ``bans`` (user: end time
    on this clock, or None for good).
    """

    def __init__(
        self,
        config: ChatConfig | None = None,
        *,
        clock: Callable[[], float] = time.time,
        operators: Iterable[str] = (),
        bans: dict[str, float | None] | None = None,
    ) -> None:
        self.config = config if config is not None else ChatConfig()
        self._clock = clock
        self._operators = set(operators)
        self._bans: dict[str, float | None] = dict(bans or {})
        self._kicked: dict[str, set[str]] = {}
        self._mutes: dict[str, set[str]] = {}
        self._history: dict[str, _History] = {}
        self._reports: list[Report] = []
        self._events: list[ModerationEvent] = []
        self._matcher = _AbuseMatcher(
            self.config.abusive_words, self.config.abusive_fragments, self.config.languages_listed
        )

    @property
    def house_rules(self) -> str:
        """The rules to post at every table (R13)."""
        return self.config.rules_text()

    def house_rules_in(self, lang: str) -> str:
        """:attr:`house_rules` in ``lang``."""
        return self.config.rules_text(lang)

    # -- messages ----------------------------------------------------------------------

    def moderate(self, user: str, text: str, *, table: str | None = None) -> Decision:
        """Decide on ``user``'s message to ``table`` (None: the lobby) and remember it if posted.

        >>> moderator = ChatModerator(ChatConfig(max_length=10), clock=lambda: 0.0)
        >>> moderator.moderate("ann", "   ")
        Rejected(rule=<Rule.EMPTY: 'empty'>, reason='the message is empty')
        >>> moderator.moderate("ann", "this is far too long").reason
        'the message is 20 characters long; the limit is 10'
        """
        config = self.config
        now = self._clock()
        if self.is_banned(user):
            return Rejected.of(Rule.BANNED, Message("you are banned from this server"))
        if table is not None and self.is_kicked(user, table):
            return Rejected.of(Rule.KICKED, Message("an operator removed you from this table"))
        if len(text) > _NEAR_LIMIT_FACTOR * config.max_length:
            return self._too_long(len(text))
        text = _clean(text)
        if not text:
            return Rejected.of(Rule.EMPTY, Message("the message is empty"))
        if len(text) > config.max_length:
            return self._too_long(len(text))
        history = self._history.setdefault(user, _History())
        times = history.times
        while times and times[0] <= now - config.rate_seconds:
            times.popleft()
        if len(times) >= config.rate_messages:
            return too_fast(config, times[0] + config.rate_seconds - now)
        key = _repeat_key(text)
        if self._repeats(history, key, now):
            return Rejected.of(
                Rule.REPEATED, Message("you have just sent that message: please don't repeat it")
            )
        if not config.allow_links and has_link(text):
            return Rejected.of(
                Rule.LINK, Message("links and advertising are not allowed in the chat")
            )
        if config.latin_only and config.language == "en" and _non_latin(text):
            return Rejected.of(
                Rule.NOT_ENGLISH, Message("please chat in English: the chat here is in English")
            )
        spans = self._matcher.spans(text)
        if spans and config.abuse == "reject":
            return Rejected.of(Rule.ABUSIVE, Message("abusive language is not allowed in the chat"))
        shown = _mask(text, spans)
        times.append(now)
        history.recent.append((now, key, shown))
        return Accepted(shown, masked=bool(spans))

    def _too_long(self, length: int) -> Rejected:
        return Rejected.of(
            Rule.TOO_LONG,
            Message(
                "the message is {length} characters long; the limit is {limit}",
                length=length,
                limit=self.config.max_length,
            ),
        )

    def _repeats(self, history: _History, key: str, now: float) -> bool:
        config = self.config
        if config.repeat_memory == 0:
            return False
        recent = list(history.recent)[-config.repeat_memory :]
        for at, earlier, _ in recent:
            if now - at >= config.repeat_seconds:
                continue
            if earlier == key:
                return True
            ratio = difflib.SequenceMatcher(None, earlier, key).ratio()
            if ratio >= config.repeat_similarity:
                return True
        return False

    def forget(self, user: str) -> None:
        """Drop a user's message history (rate limit, repeats), e.g. when they log out.

        Mutes, kicks and bans stay.
        """
        self._history.pop(user, None)

    # -- mute --------------------------------------------------------------------------

    def mute(self, user: str, target: str) -> None:
        """Hide ``target``'s messages from ``user`` (only from them)."""
        if user == target:
            raise ChatError(Message("you cannot mute yourself"))
        self._mutes.setdefault(user, set()).add(target)

    def unmute(self, user: str, target: str) -> None:
        """Show ``target``'s messages to ``user`` again."""
        self._mutes.get(user, set()).discard(target)

    def is_muted(self, viewer: str, author: str) -> bool:
        """Whether ``viewer`` muted ``author``, so must not be sent their messages."""
        return author in self._mutes.get(viewer, ())

    def muted_by(self, user: str) -> frozenset[str]:
        """Everyone ``user`` has muted."""
        return frozenset(self._mutes.get(user, ()))

    def audience(self, author: str, viewers: Iterable[str]) -> list[str]:
        """The viewers who should receive ``author``'s message (those who have not muted them).

        >>> moderator = ChatModerator()
        >>> moderator.mute("bob", "ann")
        >>> moderator.audience("ann", ["ann", "bob", "cy"])
        ['ann', 'cy']
        """
        return [viewer for viewer in viewers if not self.is_muted(viewer, author)]

    # -- reports -----------------------------------------------------------------------

    def report(
        self,
        reporter: str,
        target: str,
        reason: str,
        *,
        table: str | None = None,
        message: int | None = None,
    ) -> Report:
        """Record a report for the operators, with ``target``'s latest messages as evidence.

        ``message`` is the server's id of the message reported, if any.
        """
        if reporter == target:
            raise ChatError(Message("you cannot report yourself"))
        reason = _clean(reason)
        if len(reason) > self.config.max_length:
            raise ChatError(
                Message(
                    "a report's reason is at most {limit} characters, got {length}",
                    limit=self.config.max_length,
                    length=len(reason),
                )
            )
        history = self._history.get(target)
        keep = self.config.evidence_messages
        evidence = tuple(shown for _, _, shown in history.recent)[-keep:] if history else ()
        if not keep:
            evidence = ()
        report = Report(
            len(self._reports) + 1,
            reporter,
            target,
            reason,
            self._clock(),
            table,
            evidence,
            message,
        )
        self._reports.append(report)
        return report

    @property
    def reports(self) -> tuple[Report, ...]:
        """Every report so far, oldest first."""
        return tuple(self._reports)

    # -- operators ---------------------------------------------------------------------

    def is_operator(self, user: str) -> bool:
        """Whether ``user`` may kick and ban."""
        return user in self._operators

    def add_operator(self, user: str) -> None:
        """Let ``user`` kick and ban."""
        self._operators.add(user)

    def remove_operator(self, user: str) -> None:
        """Take the operator's powers back from ``user``."""
        self._operators.discard(user)

    def _check_operator(self, by: str, action: Message, user: str) -> None:
        if by not in self._operators:
            raise ChatError(
                Message(
                    "{by} is not an operator: only operators can {action}", by=by, action=action
                )
            )
        if user == by:
            raise ChatError(Message("an operator cannot {action} themselves", action=action))
        if user in self._operators:
            raise ChatError(
                Message(
                    "{user} is an operator: take their operator role away first to {action} them",
                    user=user,
                    action=action,
                )
            )

    def _emit(self, event: _E) -> _E:
        self._events.append(event)
        return event

    @property
    def events(self) -> tuple[ModerationEvent, ...]:
        """Every kick, readmission, ban and unban so far (the operators' log)."""
        return tuple(self._events)

    def kick(self, by: str, user: str, table: str, reason: str = "") -> Kicked:
        """Remove ``user`` from ``table`` now; they cannot chat or sit there again until
        readmitted or the table closes."""
        self._check_operator(by, Message("kick players"), user)
        self._kicked.setdefault(table, set()).add(user)
        return self._emit(Kicked(user, table, by, reason, self._clock()))

    def readmit(self, by: str, user: str, table: str) -> Readmitted:
        """Let a kicked ``user`` back to ``table``."""
        self._check_operator(by, Message("readmit players"), user)
        self._kicked.get(table, set()).discard(user)
        return self._emit(Readmitted(user, table, by, self._clock()))

    def is_kicked(self, user: str, table: str) -> bool:
        """Whether an operator removed ``user`` from ``table``."""
        return user in self._kicked.get(table, ())

    def close_table(self, table: str) -> None:
        """Forget a table's kicks once the table is gone."""
        self._kicked.pop(table, None)

    def ban(self, by: str, user: str, reason: str = "", *, seconds: float | None = None) -> Banned:
        """Ban ``user`` from the server now, for ``seconds`` or for good."""
        self._check_operator(by, Message("ban players"), user)
        if seconds is not None and not seconds > 0:
            raise ChatError(
                Message("a ban lasts a positive number of seconds, got {seconds}", seconds=seconds)
            )
        now = self._clock()
        until = None if seconds is None else now + seconds
        self._bans[user] = until
        return self._emit(Banned(user, by, reason, now, until))

    def unban(self, by: str, user: str) -> Unbanned:
        """Lift ``user``'s ban."""
        self._check_operator(by, Message("unban players"), user)
        if not self.is_banned(user):
            raise ChatError(Message("{user} is not banned", user=user))
        del self._bans[user]
        return self._emit(Unbanned(user, by, self._clock()))

    def follow_kick(self, user: str, table: str) -> None:
        """A kick from ``table`` an operator decided on another node of the server."""
        self._kicked.setdefault(table, set()).add(user)

    def follow(self, user: str, until: float | None, *, banned: bool) -> None:
        """A ban (or its lifting) an operator decided on another node of the server."""
        if banned:
            self._bans[user] = until
        else:
            self._bans.pop(user, None)

    def is_banned(self, user: str) -> bool:
        """Whether ``user`` is banned now (a ban for a time ends by itself)."""
        if user not in self._bans:
            return False
        until = self._bans[user]
        if until is not None and self._clock() >= until:
            del self._bans[user]
            return False
        return True

    @property
    def bans(self) -> dict[str, float | None]:
        """The bans in force (user: end time, or None for good), e.g. to store them."""
        return {user: until for user, until in list(self._bans.items()) if self.is_banned(user)}
