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

The house rules live in three modules, one concept each: this one is the
moderator (its decisions, its state of mutes, reports, kicks and bans, and the
events the server acts on); :mod:`gammon.server.chat_text` what the checks see in
a text (abusive words, links, another script); :mod:`gammon.server.chat_settings`
the settings and the rules' text. What the server does with the decisions
(storing, sending) is :mod:`gammon.server.chatroom`.

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
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Final, Literal, TypeVar

from gammon.messages import Message
from gammon.server.chat_settings import CHAT_LANGUAGES, ChatConfig, ChatError
from gammon.server.chat_text import (
    ABUSIVE_FRAGMENTS,
    ABUSIVE_WORDS,
    ABUSIVE_WORDS_BY_LANGUAGE,
    AbuseMatcher,
    clean_text,
    find_abuse,
    has_link,
    has_non_latin,
    mask_abuse,
    mask_spans,
    repeat_key,
)

__all__ = [
    # The moderator and what it answers (this module).
    "Accepted",
    "Banned",
    "ChatModerator",
    "Decision",
    "Kicked",
    "ModerationEvent",
    "Readmitted",
    "Rejected",
    "Report",
    "Rule",
    "Unbanned",
    "too_fast",
    # Its settings (gammon.server.chat_settings) and the text checks
    # (gammon.server.chat_text), importable from here as before.
    "ABUSIVE_FRAGMENTS",
    "ABUSIVE_WORDS",
    "ABUSIVE_WORDS_BY_LANGUAGE",
    "CHAT_LANGUAGES",
    "ChatConfig",
    "ChatError",
    "find_abuse",
    "has_link",
    "mask_abuse",
]

_NEAR_LIMIT_FACTOR: Final = 4  # raw text this many times the limit is refused unread


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
        self._matcher = AbuseMatcher(
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
        text = clean_text(text)
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
        key = repeat_key(text)
        if self._repeats(history, key, now):
            return Rejected.of(
                Rule.REPEATED, Message("you have just sent that message: please don't repeat it")
            )
        if not config.allow_links and has_link(text):
            return Rejected.of(
                Rule.LINK, Message("links and advertising are not allowed in the chat")
            )
        if config.latin_only and config.language == "en" and has_non_latin(text):
            return Rejected.of(
                Rule.NOT_ENGLISH, Message("please chat in English: the chat here is in English")
            )
        spans = self._matcher.spans(text)
        if spans and config.abuse == "reject":
            return Rejected.of(Rule.ABUSIVE, Message("abusive language is not allowed in the chat"))
        shown = mask_spans(text, spans)
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
        reason = clean_text(reason)
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
