"""The chat in every language offered (R13, docs/TRANSLATING.md): the moderation's word lists
for fi, sv, nb and nl as well as English (inflected forms too), its notices in the sender's
language, and the site's house rule on the chat's language (``--chat-language en|any``),
shown to each player in their language when they join a table's chat."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from gammon.server.chat import Accepted, ChatModerator, Rejected, Rule
from gammon.server.chat_settings import ChatConfig
from gammon.server.chat_text import find_abuse
from tests.server.client import Player, ServerProcess, Socket, database_url


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


#: Per language: insults as players write them (inflected, compounded), and friendly table
#: talk that must pass untouched (with words that begin like a listed stem).
ABUSE = {
    "fi": (
        ["idiootti", "idiootin", "idiooteille", "vitun", "perkeleen", "saatanan", "paskapää",
         "ääliöt", "kusipäät", "huoraa"],
        ["hyvä peli, kiitos!", "onnea matkaan", "kukka ja kukkaro", "hintaan nähden hyvä siirto",
         "paskoa? ei vaan pasianssia"],
    ),
    "sv": (
        ["idioten", "horor", "jävla", "kukhuvud", "fittan", "knullade", "puckot"],
        ["bra spelat!", "tack för partiet", "vilken fin bricka", "lycka till"],
    ),
    "nb": (
        ["faen", "jævlig", "drittsekken", "kødden", "horer", "pikken", "idioten"],
        ["godt spilt!", "takk for kampen", "du slo ut brikken min", "lykke til"],
    ),
    "nl": (
        ["klootzakken", "kankerlijer", "tyfushond", "teringzooi", "hoeren", "debielen",
         "idioten", "kutje"],
        ["goed gespeeld!", "hoera, gewonnen", "bedankt voor het spel", "een mooie steen"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("lang", sorted(ABUSE))
def test_the_word_lists_of_each_language_match_inflected_forms(lang: str) -> None:
    insults, friendly = ABUSE[lang]
    for word in insults:
        assert find_abuse(f"no {word} no") == [word], (lang, word)
    for text in friendly:
        assert find_abuse(text) == [], (lang, text)


def test_a_message_in_any_language_is_masked_and_english_stays_as_it_was() -> None:
    moderator = ChatModerator(clock=lambda: 0.0)
    assert moderator.moderate("ann", "sinä idiootti") == Accepted("sinä ********", True)
    assert moderator.moderate("bob", "wat een klootzak") == Accepted("wat een ********", True)
    assert moderator.moderate("cid", "you idiot") == Accepted("you *****", True)
    assert moderator.moderate("dan", "fitted sheet, good game") == Accepted(
        "fitted sheet, good game"
    )
    # A list of one's own replaces them all, as before.
    own = ChatModerator(ChatConfig(abusive_words=("noob",), abusive_fragments=()))
    assert own.moderate("ann", "sinä idiootti") == Accepted("sinä idiootti")


def test_the_moderation_s_notices_in_the_sender_s_language() -> None:
    moderator = ChatModerator(ChatConfig(abuse="reject"), clock=lambda: 0.0)
    refused = moderator.moderate("ann", "perkele")
    assert isinstance(refused, Rejected) and refused.rule is Rule.ABUSIVE
    assert refused.reason == "abusive language is not allowed in the chat"
    assert refused.translated("fi") == "loukkaava kielenkäyttö ei ole sallittua keskustelussa"
    assert refused.translated("nl") == "grof taalgebruik is niet toegestaan in de chat"
    long = ChatModerator(ChatConfig(max_length=5)).moderate("ann", "hyvää peliä")
    assert isinstance(long, Rejected)
    assert long.translated("sv") == "meddelandet är 11 tecken långt; gränsen är 5"


def test_the_chat_language_is_a_house_rule_of_the_site() -> None:
    english = ChatModerator(clock=lambda: 0.0)
    refused = english.moderate("ann", "спасибо за игру")
    assert isinstance(refused, Rejected) and refused.rule is Rule.NOT_ENGLISH
    assert refused.translated("nb") == "chat på engelsk: chatten her er på engelsk"
    assert "- Chat in English only.\n" in english.house_rules
    assert "- Keskustele vain englanniksi.\n" in english.house_rules_in("fi")
    anything = ChatModerator(ChatConfig(language="any"), clock=lambda: 0.0)
    assert anything.moderate("ann", "спасибо за игру") == Accepted("спасибо за игру")
    assert "- Chat in any language.\n" in anything.house_rules
    assert anything.house_rules_in("nl").startswith("Huisregels\n- Chat in elke taal.\n")
    assert anything.moderate("bob", "vitun hyvä") == Accepted("***** hyvä", True)


async def _hello_and_chat(server: ServerProcess, lang: str) -> tuple[dict, dict, Socket]:  # type: ignore[type-arg]
    alice = await Player(server).signup()
    alice.http.cookies.set("gammon_lang", lang)
    table = await alice.create(length=1)
    sock = await alice.table(table)
    hello = next(m for m in sock.seen if m["type"] == "hello")
    refused = await sock.request({"type": "chat", "text": "   "})
    return hello, refused, sock


def test_a_table_chat_speaks_the_player_s_language_on_an_english_site(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        hello, refused, sock = await _hello_and_chat(server, "fi")
        try:
            assert hello["chat_language"] == "en"
            assert hello["chat_notice"] == "Täällä keskustellaan englanniksi: kirjoita englanniksi."
            assert hello["house_rules"].startswith("Talon säännöt\n- Keskustele vain englanniksi.")
            assert (refused["code"], refused["message"]) == ("chat_refused", "viesti on tyhjä")
        finally:
            await sock.close()
        hello, refused, sock = await _hello_and_chat(server, "en")
        try:
            assert hello["chat_notice"] == "The chat here is in English: please write in English."
            assert (refused["code"], refused["message"]) == ("chat_refused", "the message is empty")
        finally:
            await sock.close()

    run(scenario())


@pytest.fixture(scope="module")
def any_language_server() -> Iterator[ServerProcess]:
    process = ServerProcess(
        database_url("chat_any"), "--chat-language", "any", "--signup-limit", "1000/0.01"
    ).start()
    yield process
    process.stop()


def test_a_site_whose_chat_speaks_any_language(any_language_server: ServerProcess) -> None:
    async def scenario() -> None:
        hello, refused, sock = await _hello_and_chat(any_language_server, "nl")
        try:
            assert hello["chat_language"] == "any"
            assert hello["chat_notice"] == (
                "De chat is hier in elke taal: schrijf in een taal die je tegenstander leest."
            )
            assert "- Chat in elke taal." in hello["house_rules"]
            assert refused["message"] == "het bericht is leeg"
            reply = await sock.request({"type": "chat", "text": "спасибо"})
            assert reply["type"] == "ack"
        finally:
            await sock.close()

    run(scenario())
