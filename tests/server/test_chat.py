"""Chat moderation (R13): English only; no abusive language, spam or advertising; the
operator's decision is final. Every decision is checked exactly, with an injected clock."""

from __future__ import annotations

import re

import pytest

from gammon.errors import GammonError, IllegalActionError
from gammon.server.chat import (
    Accepted,
    Banned,
    ChatModerator,
    Kicked,
    Readmitted,
    Rejected,
    Report,
    Rule,
    Unbanned,
)
from gammon.server.chat_settings import ChatConfig, ChatError
from gammon.server.chat_text import ABUSIVE_WORDS, find_abuse, has_link, mask_abuse


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def moderator(clock: Clock) -> ChatModerator:
    return ChatModerator(clock=clock, operators=["op", "op2"])


WORDS = ["hello there", "nice roll", "what a game", "good luck", "well played", "thanks a lot",
         "see you", "one more?", "gammon!", "ouch"]
TOO_FAST = "you are sending messages too fast: wait {} second{} (at most 5 messages in 10 seconds)"
LINKS = Rejected(Rule.LINK, "links and advertising are not allowed in the chat")
ENGLISH = Rejected(Rule.NOT_ENGLISH, "please chat in English: the chat here is in English")
REPEATED = Rejected(Rule.REPEATED, "you have just sent that message: please don't repeat it")


# -- house rules -------------------------------------------------------------------------


def test_house_rules_text_states_r13(moderator: ChatModerator) -> None:
    rules = moderator.house_rules
    assert "English only" in rules
    assert "Abusive language, spam and advertising are not allowed" in rules
    assert "The operator's decision is final." in rules
    assert "at most 5 messages in 10 seconds, each up to 300 characters" in rules
    assert "abusive words are hidden; links are refused" in rules


def test_refusals_speak_plain_words_with_no_rule_numbers(clock: Clock) -> None:
    """A player reads why a line was refused, not a reference into the rule book."""
    config = ChatConfig(abuse="reject")
    reasons = []
    for text in ("see www.example.com", "привет всем", "you 1d10t", "hi", "hi"):
        verdict = ChatModerator(config, clock=clock).moderate("ann", text)
        reasons.append(getattr(verdict, "reason", ""))
    repeat = ChatModerator(config, clock=clock)
    repeat.moderate("ann", "hi")
    reasons.append(repeat.moderate("ann", "hi").reason)  # type: ignore[union-attr]
    assert all(reasons[:3]) and reasons[-1], reasons
    for reason in reasons:
        assert re.search(r"\bR\d+\b", reason) is None, reason


def test_house_rules_follow_the_settings() -> None:
    config = ChatConfig(abuse="reject", allow_links=True, rate_messages=3, rate_seconds=7.5)
    rules = ChatModerator(config).house_rules
    assert "messages with abusive words are refused;" in rules
    assert "links are refused" not in rules
    assert "at most 3 messages in 7.5 seconds" in rules
    assert ChatModerator(ChatConfig(house_rules="Be nice.")).house_rules == "Be nice."


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"max_length": 0}, "max_length must be at least 1"),
        ({"rate_messages": 0}, "rate_messages must be at least 1"),
        ({"rate_seconds": 0}, "rate_seconds must be positive"),
        ({"repeat_similarity": 1.5}, "repeat_similarity must be in (0, 1]"),
        ({"abuse": "shout"}, "abuse must be 'mask' or 'reject', got 'shout'"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ChatError, match=re.escape(message)):
        ChatConfig(**settings)  # type: ignore[arg-type]


def test_chat_error_is_ours() -> None:
    assert issubclass(ChatError, IllegalActionError)
    assert issubclass(ChatError, GammonError) and issubclass(ChatError, ValueError)


# -- plain messages, cleaning, length ----------------------------------------------------------


def test_plain_message_is_accepted(moderator: ChatModerator) -> None:
    decision = moderator.moderate("ann", "Good luck, have fun!")
    assert decision == Accepted("Good luck, have fun!", masked=False)
    assert decision.accepted is True


def test_text_is_cleaned(moderator: ChatModerator) -> None:
    # Control and invisible characters go, runs of spaces and newlines become one space,
    # full-width letters become plain ones (NFKC).
    decision = moderator.moderate("ann", "  nice\n\n roll\u200b \x07 \uff50\uff4c\uff41\uff59  ")
    assert decision == Accepted("nice roll play")


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "\u200b\u200d"])
def test_empty_messages_are_rejected(moderator: ChatModerator, text: str) -> None:
    decision = moderator.moderate("ann", text)
    assert decision == Rejected(Rule.EMPTY, "the message is empty")
    assert decision.accepted is False


def test_max_length(moderator: ChatModerator) -> None:
    assert moderator.moderate("ann", "a" * 300) == Accepted("a" * 300)
    assert moderator.moderate("bob", "b" * 301) == Rejected(
        Rule.TOO_LONG, "the message is 301 characters long; the limit is 300"
    )
    # Huge input is refused before it is even cleaned.
    assert moderator.moderate("cy", "c" * 100_000) == Rejected(
        Rule.TOO_LONG, "the message is 100000 characters long; the limit is 300"
    )


# -- spam: rate limit and repeats ----------------------------------------------------------------


def test_rate_limit_five_messages_in_ten_seconds(moderator: ChatModerator, clock: Clock) -> None:
    for text in WORDS[:5]:
        assert moderator.moderate("ann", text) == Accepted(text)
        clock.now += 1.0
    # 5 accepted at t = 1000..1004; at 1005 the oldest leaves the window at 1010.
    assert moderator.moderate("ann", "one more") == Rejected(Rule.TOO_FAST, TOO_FAST.format(5, "s"))
    clock.now = 1009.5
    assert moderator.moderate("ann", "one more") == Rejected(Rule.TOO_FAST, TOO_FAST.format(1, ""))
    # Someone else is not limited by ann's messages.
    assert moderator.moderate("bob", "hi all").accepted
    clock.now = 1010.0
    assert moderator.moderate("ann", "one more") == Accepted("one more")
    assert moderator.moderate("ann", "and again") == Rejected(
        Rule.TOO_FAST, TOO_FAST.format(1, "")
    )


def test_rejected_messages_do_not_count_toward_the_rate(
    moderator: ChatModerator, clock: Clock
) -> None:
    for _ in range(10):
        assert moderator.moderate("ann", "see www.spam.com") == LINKS
    for text in WORDS[:5]:
        assert moderator.moderate("ann", text).accepted


def test_templated_spam_counts_as_repeated(moderator: ChatModerator, clock: Clock) -> None:
    assert moderator.moderate("ann", "message number 0").accepted
    clock.now += 3
    assert moderator.moderate("ann", "message number 1") == REPEATED


def test_identical_and_near_identical_repeats(moderator: ChatModerator, clock: Clock) -> None:
    assert moderator.moderate("ann", "Anyone up for a 7 point match?").accepted
    clock.now += 5
    assert moderator.moderate("ann", "Anyone up for a 7 point match?") == REPEATED
    # Case, punctuation and stretched letters do not make it new.
    assert moderator.moderate("ann", "ANYONE UP FOR A 7 POINT MATCH???") == REPEATED
    assert moderator.moderate("ann", "anyone up for a 7 point matchhhh") == REPEATED
    # Nearly the same (one word changed in a long message) is still a repeat.
    assert moderator.moderate("ann", "Anyone up for a 5 point match?") == REPEATED
    # Another player may say the same thing.
    assert moderator.moderate("bob", "Anyone up for a 7 point match?").accepted
    # Something different is fine, and after a minute the first message may come again.
    assert moderator.moderate("ann", "gg").accepted
    clock.now += 56
    assert moderator.moderate("ann", "Anyone up for a 7 point match?").accepted


def test_repeats_compare_with_the_last_three_messages(
    moderator: ChatModerator, clock: Clock
) -> None:
    for text in ("first thing", "second remark", "third comment", "fourth note"):
        assert moderator.moderate("ann", text).accepted
        clock.now += 2.5
    assert moderator.moderate("ann", "second remark") == REPEATED
    assert moderator.moderate("ann", "first thing").accepted  # no longer among the last 3


def test_repeats_can_be_switched_off(clock: Clock) -> None:
    moderator = ChatModerator(ChatConfig(repeat_memory=0), clock=clock)
    assert moderator.moderate("ann", "gg").accepted
    assert moderator.moderate("ann", "gg").accepted


def test_forget_drops_the_history(moderator: ChatModerator) -> None:
    assert moderator.moderate("ann", "hello").accepted
    moderator.forget("ann")
    assert moderator.moderate("ann", "hello").accepted


# -- advertising ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "play at https://other-site.test now",
        "http://x.y",
        "www.backgammon-casino.biz",
        "join discord.gg/abcdef",
        "free chips at example.com",
        "mail me: bob@gmail.com",
        "EXAMPLE.COM",
        "example . com",
        "example dot com",
        "t.me/channel",
    ],
)
def test_links_are_rejected(moderator: ChatModerator, text: str) -> None:
    assert has_link(text)
    assert moderator.moderate("ann", text) == LINKS


@pytest.mark.parametrize(
    "text", ["13/7 8/7", "e.g. the 5-point", "1.5 pips ahead", "ok.so what", "3.14", "I'm at home."]
)
def test_ordinary_text_is_not_a_link(moderator: ChatModerator, text: str) -> None:
    assert not has_link(text)
    assert moderator.moderate("ann", text).accepted


def test_links_can_be_allowed(clock: Clock) -> None:
    moderator = ChatModerator(ChatConfig(allow_links=True), clock=clock)
    assert moderator.moderate("ann", "rules at https://example.com") == Accepted(
        "rules at https://example.com"
    )


# -- English only ---------------------------------------------------------------------------


GREEK = "\u03b3\u03b5\u03b9\u03b1 \u03c3\u03bf\u03c5"


@pytest.mark.parametrize("text", ["Привет всем", "你好", "مرحبا", GREEK, "hello мир"])
def test_other_scripts_are_rejected(moderator: ChatModerator, text: str) -> None:
    assert moderator.moderate("ann", text) == ENGLISH


@pytest.mark.parametrize("text", ["café au lait", "naïve play 🎲", "6-5: 24/13 ☺", "¡olé!"])
def test_latin_letters_digits_and_symbols_pass(moderator: ChatModerator, text: str) -> None:
    # Only the script can be checked; operators judge the rest of "English only" (R13).
    assert moderator.moderate("ann", text) == Accepted(text)


def test_script_check_can_be_switched_off(clock: Clock) -> None:
    moderator = ChatModerator(ChatConfig(latin_only=False), clock=clock)
    assert moderator.moderate("ann", "Привет") == Accepted("Привет")


# -- abusive language ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("you idiot", "you *****"),
        ("You IDIOT", "You *****"),
        ("what an idiot!!!", "what an *****!!!"),
        ("idiots, all of you", "******, all of you"),
        ("1d10t", "*****"),
        ("sh!t roll", "**** roll"),
        ("$hit", "****"),
        ("shiiiiit", "********"),
        ("sh1tty dice", "****** dice"),
        ("a55h0le", "*******"),
        ("fück this", "**** this"),
        ("clusterfuck", "***********"),
        ("f u c k", "*******"),
        ("you are a m.o.r.o.n", "you are a *********"),
        ("moronic play", "******* play"),
        ("bastards", "********"),
    ],
)
def test_abusive_words_are_masked(moderator: ChatModerator, text: str, shown: str) -> None:
    assert moderator.moderate("ann", text) == Accepted(shown, masked=True)


@pytest.mark.parametrize(
    "text",
    [
        "Scunthorpe",
        "shiitake",
        "assassin",
        "the pass was good",
        "Niger and Nigeria",
        "sniggering",
        "cocktail",
        "Dickens",
        "f*ck",  # already masked by the sender
        "a b c d e",
        "hit on the 5 1 7 points",
    ],
)
def test_innocent_words_are_not_masked(moderator: ChatModerator, text: str) -> None:
    assert find_abuse(text) == []
    assert moderator.moderate("ann", text) == Accepted(text, masked=False)


def test_hidden_characters_and_look_alike_letters_do_not_dodge_the_filter(
    moderator: ChatModerator, clock: Clock
) -> None:
    # A zero-width space inside the word is removed before matching.
    assert moderator.moderate("ann", "fu\u200bck") == Accepted("****", masked=True)
    # A Cyrillic o in "idiot" is not Latin script, so the message is refused outright.
    assert moderator.moderate("ann", "idi\u043et") == ENGLISH


def test_abuse_can_be_rejected_instead(clock: Clock) -> None:
    moderator = ChatModerator(ChatConfig(abuse="reject"), clock=clock)
    assert moderator.moderate("ann", "you moron") == Rejected(
        Rule.ABUSIVE, "abusive language is not allowed in the chat"
    )
    assert moderator.moderate("ann", "nice move").accepted


def test_own_word_list(clock: Clock) -> None:
    config = ChatConfig(abusive_words=("noob",), abusive_fragments=())
    moderator = ChatModerator(config, clock=clock)
    assert moderator.moderate("ann", "n00bs everywhere") == Accepted("***** everywhere", True)
    assert moderator.moderate("ann", "you idiot") == Accepted("you idiot")


def test_word_list_is_lower_case_letters() -> None:
    assert all(word.isalpha() and word == word.lower() for word in ABUSIVE_WORDS)
    assert mask_abuse("ok") == "ok"


# -- mute ------------------------------------------------------------------------------------


def test_mute_hides_messages_for_the_muter_only(moderator: ChatModerator) -> None:
    moderator.mute("bob", "ann")
    assert moderator.is_muted("bob", "ann")
    assert not moderator.is_muted("ann", "bob")
    assert not moderator.is_muted("cy", "ann")
    assert moderator.audience("ann", ["ann", "bob", "cy"]) == ["ann", "cy"]
    assert moderator.muted_by("bob") == frozenset({"ann"})
    # Muting does not stop ann from chatting.
    assert moderator.moderate("ann", "hello").accepted
    moderator.unmute("bob", "ann")
    assert moderator.audience("ann", ["ann", "bob", "cy"]) == ["ann", "bob", "cy"]


def test_cannot_mute_oneself(moderator: ChatModerator) -> None:
    with pytest.raises(ChatError, match="you cannot mute yourself"):
        moderator.mute("ann", "ann")


# -- reports ---------------------------------------------------------------------------------


def test_report_records_the_evidence(moderator: ChatModerator, clock: Clock) -> None:
    for text in ("hello", "you idiot", "whatever"):
        moderator.moderate("ann", text, table="t1")
        clock.now += 3
    report = moderator.report("bob", "ann", "  insults  me ", table="t1")
    assert report == Report(
        number=1,
        reporter="bob",
        target="ann",
        reason="insults me",
        at=1009.0,
        table="t1",
        evidence=("hello", "you *****", "whatever"),
    )
    second = moderator.report("cy", "bob", "spam", message=42)
    assert second.number == 2 and second.evidence == () and second.table is None
    assert report.message is None and second.message == 42
    assert moderator.reports == (report, second)


def test_report_keeps_the_last_five_messages(moderator: ChatModerator, clock: Clock) -> None:
    for text in WORDS[:8]:
        assert moderator.moderate("ann", text).accepted
        clock.now += 3
    assert moderator.report("bob", "ann", "spam").evidence == tuple(WORDS[3:8])


def test_bad_reports(moderator: ChatModerator) -> None:
    with pytest.raises(ChatError, match="you cannot report yourself"):
        moderator.report("ann", "ann", "me")
    with pytest.raises(ChatError, match="a report's reason is at most 300 characters, got 301"):
        moderator.report("ann", "bob", "x" * 301)


# -- operators: kick and ban -------------------------------------------------------------


def test_kick_takes_effect_at_once(moderator: ChatModerator, clock: Clock) -> None:
    event = moderator.kick("op", "ann", "t1", "abuse")
    assert event == Kicked("ann", "t1", "op", "abuse", 1000.0)
    assert moderator.is_kicked("ann", "t1") and not moderator.is_kicked("ann", "t2")
    assert moderator.moderate("ann", "let me back", table="t1") == Rejected(
        Rule.KICKED, "an operator removed you from this table"
    )
    assert moderator.moderate("ann", "hello other table", table="t2").accepted
    assert moderator.moderate("ann", "hello lobby").accepted
    clock.now += 1
    assert moderator.readmit("op2", "ann", "t1") == Readmitted("ann", "t1", "op2", 1001.0)
    assert moderator.moderate("ann", "thanks", table="t1").accepted
    assert moderator.events == (event, Readmitted("ann", "t1", "op2", 1001.0))


def test_closing_a_table_forgets_its_kicks(moderator: ChatModerator) -> None:
    moderator.kick("op", "ann", "t1")
    moderator.close_table("t1")
    assert not moderator.is_kicked("ann", "t1")


def test_ban_takes_effect_at_once(moderator: ChatModerator, clock: Clock) -> None:
    assert not moderator.is_banned("ann")
    event = moderator.ban("op", "ann", "spam")
    assert event == Banned("ann", "op", "spam", 1000.0, None)
    assert moderator.is_banned("ann")
    banned = Rejected(Rule.BANNED, "you are banned from this server")
    assert moderator.moderate("ann", "hello") == banned
    assert moderator.moderate("ann", "hello", table="t1") == banned
    assert moderator.bans == {"ann": None}
    clock.now += 3600 * 24 * 365
    assert moderator.is_banned("ann")  # for good
    assert moderator.unban("op2", "ann") == Unbanned("ann", "op2", clock.now)
    assert not moderator.is_banned("ann")
    assert moderator.moderate("ann", "hello").accepted
    assert [type(e) for e in moderator.events] == [Banned, Unbanned]


def test_ban_for_a_time_ends_by_itself(moderator: ChatModerator, clock: Clock) -> None:
    assert moderator.ban("op", "ann", seconds=60) == Banned("ann", "op", "", 1000.0, 1060.0)
    clock.now = 1059.9
    assert moderator.is_banned("ann") and moderator.bans == {"ann": 1060.0}
    clock.now = 1060.0
    assert not moderator.is_banned("ann") and moderator.bans == {}
    with pytest.raises(ChatError, match="ann is not banned"):
        moderator.unban("op", "ann")


def test_bans_restored_at_start_up(clock: Clock) -> None:
    moderator = ChatModerator(clock=clock, bans={"ann": None, "bob": 1500.0, "cy": 900.0})
    assert moderator.is_banned("ann") and moderator.is_banned("bob")
    assert not moderator.is_banned("cy")


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda m: m.kick("ann", "bob", "t1"), "ann is not an operator: only operators can kick"),
        (lambda m: m.ban("ann", "bob"), "ann is not an operator: only operators can ban"),
        (lambda m: m.unban("ann", "bob"), "ann is not an operator: only operators can unban"),
        (lambda m: m.ban("op", "op"), "an operator cannot ban players themselves"),
        (lambda m: m.ban("op", "op2"), "op2 is an operator: take their operator role away"),
        (lambda m: m.ban("op", "bob", seconds=0), "a ban lasts a positive number of seconds"),
    ],
)
def test_only_operators_kick_and_ban(
    moderator: ChatModerator, action: object, message: str
) -> None:
    with pytest.raises(ChatError, match=message):
        action(moderator)  # type: ignore[operator]
    assert not moderator.is_banned("bob") and moderator.events == ()


def test_operators_can_change(moderator: ChatModerator) -> None:
    assert not moderator.is_operator("ann")
    moderator.add_operator("ann")
    assert moderator.is_operator("ann")
    moderator.ban("ann", "bob")
    moderator.remove_operator("op2")
    moderator.ban("op", "op2")
    assert moderator.is_banned("bob") and moderator.is_banned("op2")


def test_order_of_checks(moderator: ChatModerator, clock: Clock) -> None:
    # A banned user is told so whatever the message; a link in a message that is also
    # too long is reported as too long.
    moderator.ban("op", "ann")
    assert moderator.moderate("ann", "www.x.com").rule is Rule.BANNED  # type: ignore[union-attr]
    long_link = "www.x.com " + "y" * 300
    assert moderator.moderate("bob", long_link).rule is Rule.TOO_LONG  # type: ignore[union-attr]
