"""The translations (gammon.i18n, docs/TRANSLATING.md): every catalog complete and in step
with the code, the same placeholders as the English, plurals and numbers per language, the
fallback to English, the language picked from an argument or the locale, and no new
player-facing sentence left outside a catalog in the converted modules."""

from __future__ import annotations

import ast
import functools
import io
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from gammon.cli import main
from gammon.events import (
    Doubled,
    Ended,
    EndReason,
    GameResult,
    OpeningRolled,
    Passed,
    PassReason,
    WinKind,
    describe,
)
from gammon.i18n import (
    LANGUAGES,
    SOURCE_LANGUAGE,
    Translator,
    UnknownLanguageError,
    catalog_path,
    from_environment,
    language,
    messages_json,
    negotiate,
    placeholders,
    translator,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import i18n as catalogs  # noqa: E402  (scripts/i18n.py)

TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with catalog_path(lang).open("rb") as file:
        return read_po(file, locale=lang)


def test_the_template_and_every_catalog_are_in_step_with_the_code() -> None:
    """scripts/i18n.py check: no message of the code missing from the template or a catalog."""
    assert catalogs.check() == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    """Complete: no message empty or fuzzy; each form fills exactly the English one's names
    (a missing ``{player}`` would drop a name, an extra one raise a KeyError in play); only
    the count ``{n}`` may be left out of a plural form."""
    template = {m.id for m in catalogs.extract() if m.id}
    seen = set()
    for message in _catalog(lang):
        if not message.id:
            continue
        seen.add(message.id)
        assert not message.fuzzy, f"{lang}: {message.id!r} is marked fuzzy"
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings), f"{lang}: {message.id!r} is not translated"
        wanted = placeholders(ids[-1])
        for form in strings:
            got = placeholders(form)
            if len(ids) > 1 and "n" not in got:  # a form for one may leave the count out,
                got |= {"n"}  # as the English "The worst mistake" does
            assert got == wanted, (
                f"{lang}: {form!r} fills {sorted(placeholders(form))}, "
                f"the English {ids[-1]!r} fills {sorted(wanted)}"
            )
    assert seen == template


def test_a_placeholder_missing_from_a_translation_is_caught() -> None:
    """The comparison above is the one that catches a translator's slip."""
    assert placeholders("{player} heittää") != placeholders("{player} rolls {die1}-{die2}")
    assert placeholders("{player} {extra}") != placeholders("{player} takes")


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        ("en", "bob wins 1 point (a single game, by bearing off)",
         "bob wins 4 points (a gammon, by bearing off)"),
        ("fi", "bob voittaa 1 pisteen (yksinkertainen voitto, kotiuttamalla)",
         "bob voittaa 4 pistettä (gammon, kotiuttamalla)"),
        ("sv", "bob vinner 1 poäng (enkelvinst, genom att bära av)",
         "bob vinner 4 poäng (gammon, genom att bära av)"),
        ("nb", "bob vinner 1 poeng (enkel seier, ved å bære av)",
         "bob vinner 4 poeng (gammon, ved å bære av)"),
        ("nl", "bob wint 1 punt (enkele winst, door uit te spelen)",
         "bob wint 4 punten (gammon, door uit te spelen)"),
    ],
)  # fmt: skip
def test_plural_forms_per_language(lang: str, one: str, many: str) -> None:
    single = Ended(GameResult(1, 1, WinKind.SINGLE, EndReason.BEAR_OFF))
    gammon = Ended(GameResult(1, 4, WinKind.GAMMON, EndReason.BEAR_OFF))
    assert describe(single, ("alice", "bob"), lang=lang) == one
    assert describe(gammon, ("alice", "bob"), lang=lang) == many


def test_the_game_log_speaks_each_language_in_its_own_terms() -> None:
    """The words players of each language use (docs/TRANSLATING.md): the Finnish guides'
    muuri and kotipesä, the Swedish stängt bräde, the Norwegian sette inn, the Dutch
    binnenkomen and thuisvak."""
    closed = Passed(0, PassReason.CLOSED_BOARD)
    names = ("anna", "ben")
    assert "muurilta" in describe(closed, names, lang="fi")
    assert "kotipesään" in describe(closed, names, lang="fi")
    assert "stängt bräde" in describe(closed, names, lang="sv")
    assert "sette inn" in describe(closed, names, lang="nb")
    assert "binnenkomen" in describe(closed, names, lang="nl")
    assert describe(Doubled(1, 2), names, lang="nb") == "ben dobler til 2"
    assert describe(OpeningRolled((3, 3)), lang="nl") == (
        "openingsworp: speler 0 3, speler 1 3 (gelijk: beiden gooien opnieuw)"
    )


def test_numbers_follow_each_language() -> None:
    assert translator("en").signed(0.1234) == "+0.123"
    assert translator("fi").signed(-0.5) == "-0,500"
    assert translator("nl").number(1234.5) == "1.234,5"
    assert translator("en").percent(0.555) == "55.5%"
    assert translator("sv").percent(0.555) == "55,5\xa0%"


def test_a_missing_message_falls_back_to_english_never_a_key() -> None:
    for lang in LANGUAGES:
        t = translator(lang)
        assert t.gettext("Not in any catalog, {name}", name="x") == "Not in any catalog, x"
        assert t.ngettext("{n} thing", "{n} things", 3) == "3 things"


def test_an_empty_or_fuzzy_translation_is_spoken_in_english(tmp_path: Path) -> None:
    """A catalog being worked on: its empty and fuzzy entries are not used."""
    po = tmp_path / "xx.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "{player} takes"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "{player} drops"\nmsgstr "{player} stale words"\n\n'
        'msgid "{player} forfeits"\nmsgstr "{player} gives up here"\n',
        encoding="utf-8",
    )
    import gettext

    from babel.messages.mofile import write_mo

    with po.open("rb") as file:
        catalog = read_po(file, locale="fi")
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    t = Translator("fi", gettext.GNUTranslations(compiled))
    assert t.gettext("{player} takes", player="a") == "a takes"
    assert t.gettext("{player} drops", player="a") == "a drops"
    assert t.gettext("{player} forfeits", player="a") == "a gives up here"


def test_the_language_is_picked_by_name_or_from_the_locale() -> None:
    assert language("fi_FI") == "fi" and language("NB-no") == "nb" and language("nn") == "nb"
    with pytest.raises(UnknownLanguageError, match="gammon does not speak 'de'"):
        language("de")
    with pytest.raises(ValueError):  # bad input is a ValueError, as everywhere in gammon
        translator("xx")
    assert from_environment({"LC_ALL": "nl_NL.UTF-8", "LANG": "fi_FI.UTF-8"}) == "nl"
    assert from_environment({"LC_ALL": "de_DE.UTF-8", "LANG": "fi_FI.UTF-8"}) == "en"
    assert from_environment({}) == "en"
    assert negotiate("en-GB;q=0.5, nb-NO;q=0.9") == "nb"
    assert negotiate("de, fr;q=0.5") == "en"
    assert negotiate("fi;q=0, sv;q=0.1") == "sv"


def test_the_browser_catalog_has_every_message_with_its_plural_categories() -> None:
    for lang in TRANSLATED:
        exported = messages_json(lang)
        assert exported["lang"] == lang
        # Every message but those said in a context (Python's pgettext: the browser has none).
        browser = [m for m in _catalog(lang) if m.id and not m.context]
        assert len(exported["messages"]) == len(browser)
        forms = exported["messages"]["{n} game"]
        assert set(forms) == {"one", "other"}
    assert messages_json("en")["messages"] == {}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_hint_speaks_the_language_of_lang(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "hint", "4HPwATDgc/ABMA", "--dice", "31", "--lang", "fi")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "16 sallittua siirtoa heitolle 3-1, järjestetty 0-ply:"
    assert lines[1].startswith("  1. 8/5 6/5") and "voitto " in lines[1] and "tappio g" in lines[1]
    assert re.search(r"\+0,\d{3} \(-0,000\)", lines[1])
    status, out, _ = _run(capsys, "hint", "start", "--lang", "sv")
    assert status == 0
    assert out.splitlines()[0] == (
        "Dubbleringsbeslut (0-ply, väntevärde per insats): Ingen dubblering, ta emot"
    )
    assert "dubblering/tacka nej  +1,000" in out


def test_hint_speaks_the_locale_without_lang(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    status, out, _ = _run(capsys, "hint", "start")
    assert status == 0 and out.startswith("Kubusbeslissing (0-ply, verwachtingswaarde per inzet)")
    status, out, _ = _run(capsys, "hint", "start", "--lang", "en")
    assert out.startswith("Cube action (0-ply, equity per cube): No double, take")


def test_an_unknown_lang_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, "hint", "start", "--lang", "klingon")
    assert status == 2
    assert "--lang: gammon does not speak 'klingon' (it speaks en, fi, sv, nb, nl)" in err


@pytest.mark.parametrize("lang", ["fi", "sv", "nb", "nl"])
def test_moves_speaks_the_language_with_the_english_figures(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """``gammon moves --lang``: the words around the table in the language, the plays and
    the Position IDs (GNU's name for them kept) the English ones."""
    _, english, _ = _run(capsys, "moves", "start", "31")
    status, out, _ = _run(capsys, "moves", "start", "31", "--lang", lang)
    assert status == 0 and out != english
    pairs = list(zip(out.splitlines(), english.splitlines(), strict=True))
    for mine, theirs in pairs[3:]:
        assert mine == theirs  # the plays and their IDs
    figures = r"[A-Za-z0-9+/]*\d[A-Za-z0-9+/]*"  # the dice, the count and the ID
    words = {"legal", "plays", "from", "opponent", "mover", "roll", "play"}
    for mine, theirs in pairs[:3]:
        assert sorted(re.findall(figures, mine)) == sorted(re.findall(figures, theirs))
        left = set(re.findall(r"[A-Za-z]+", mine.replace("position ID", ""))) & words
        assert left == set(), (lang, mine)


@pytest.mark.parametrize("lang", ["fi", "nl"])
def test_show_draws_the_board_in_the_language(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """``gammon show --lang``: the diagram's labels in the language, its figures the same."""
    _, english, _ = _run(capsys, "show", "start", "--dice", "31")
    status, out, _ = _run(capsys, "show", "start", "--dice", "31", "--lang", lang)
    assert status == 0 and out != english
    assert translator(lang).gettext("Pip count") in out
    for mine, theirs in zip(out.splitlines(), english.splitlines(), strict=True):
        assert re.findall(r"\d+", mine) == re.findall(r"\d+", theirs), (mine, theirs)


# -- no new sentence outside a catalog ------------------------------------------------------

#: Literal strings in the converted modules that a player may read but that are not ours to
#: translate here, each with why. A new sentence in these modules fails the scan below until
#: it goes into a catalog or onto this list.
ALLOWED: dict[str, str] = {
    # gammon/server/static/js/record.js
    "gammon verify record.json --commitment {x}": "a command line, typed as it is",
    # gammon/server/table.py
    "an action of the series is its sender's": "an assertion, a programming error",
    # gammon/events.py
    "not a game event: {event}": "a programming error (TypeError), never shown to players",
    "beaver refused": "an EndReason: a value of the protocol and the records, not words",
    "closed board": "a PassReason: a value of the protocol and the records, not words",
    "no legal play": "a PassReason: a value of the protocol and the records, not words",
    "side {self.winner} won {self.points} point{plural} ({self.kind.name.lower()}, "
    "{self.reason})": "GameResult's str, for programmers; players read describe()",
    # what needs the engine extra: the name of a command in MissingExtraError
    "gammon analyse": "a command's name",
    "gammon hint": "a command's name",
    "the hint of gammon play": "MissingExtraError's words, an error of the installation",
    # gammon/cli/hint.py
    "no double": "a DoublerVerdict value, the key of a table of words",
    "too good to double": "a DoublerVerdict value, the key of a table of words",
    # gammon/engine/analysis/cube_facts.py
    "too good": "words looked for in a verdict code (CubeReview.verdict), never shown",
    # gammon/cli/play.py
    "{mark} (choose a double, 1-6)> ": "the prompt names the commands to type, which are English",
    " the beaver": "the prompt names the commands to type, which are English",
    "gammon play --opponent bot": "a command's name",
    "unknown command {text}; type 'help' for the commands": "an error (IllegalActionError)",
    "resign what? write 'resign', 'resign gammon' or 'resign backgammon', not {text}": (
        "an error (IllegalActionError)"
    ),
    "choose a double by its number, as 'choose 4', not {text}": "an error (IllegalActionError)",
    "there is no play number {word}: 'moves' lists {len(plays)} play"
    "{'' if len(plays) == 1 else 's'}": "an error (IllegalActionError)",
    "there is no play number {word}: no dice to play now": "an error (IllegalActionError)",
    "argument --level: invalid choice: {level} (choose from {', '.join(SKILL_LEVELS)})": (
        "an error (UsageError), as argparse's own"
    ),
    "{PROG}: input ended before the game was over": "an error, on standard error",
    # gammon/cli/connect/__init__.py (its printed words are in connect's other modules)
    "gammon connect": "a command's name (MissingExtraError)",
    "expected BASE[/DELAY[/INCREMENT]] seconds, got {text}": (
        "argparse's error of an option (ArgumentTypeError), English as argparse's own"
    ),
    "expected a whole number, got {text}": "argparse's error of an option (ArgumentTypeError)",
    "expected a number of 0 or more, got {text}": (
        "argparse's error of an option (ArgumentTypeError)"
    ),
    "gammon: error: {exc}": "the prefix of every command's error line, as gammon's main writes it",
    # gammon/cli/rules.py and gammon/cli/rollout.py
    "a GNU Position ID (a 'Position ID:' prefix is fine), an XGID, or 'start' for the "
    "variant's starting position": "argparse's help (POSITION_HELP), English as the others",
    "the variant, for its checker count and cube ({names}); default standard": (
        "argparse's help (variant_help), English as the others"
    ),
    "position ID": "GNU Backgammon's name of the ID, as the board's diagram writes it",
    "no dice given: write them after the position, as 31 or 3-1": (
        "an error (InvalidDiceError) of the position's text, English as gammon/ids.py's"
    ),
    "expected a whole number of at least 1, got {text}": (
        "argparse's error of an option (ArgumentTypeError)"
    ),
    "gammon rollout": "a command's name (MissingExtraError)",
    # errors of the command line: errors are not translated yet (their catalog is to come,
    # with the server's error messages, whose codes stay English)
    "cannot read {path}: {exc.strerror or exc}": "an error (UsageError, FairDiceError)",
    "{path} is not UTF-8 text: {exc.reason}": "an error (FairDiceError)",
    "{path} is not JSON: {exc}": "an error (FairDiceError)",
    "the record's commitment {report.commitment} is not the one shown before the game "
    "({expected.strip()}): this record is not for that game": "an error (FairDiceError)",
    # the browser's table (gammon/server/static/js/table*.js, board.js)
    "(max-width: 600px)": "a CSS media query (board.js's phone layout)",
    "checker selected": "CSS classes of a checker in the board's SVG",
    "cube offered": "CSS classes of the cube in the board's SVG",
    # gammon/server/pages.py: the index page's headers
    "Accept-Language, Cookie": "the names of HTTP headers (Vary)",
    # gammon/server/auth.py
    "not a real password": "the dummy hash's password (checked against for unknown names)",
    # the browser client (static/js)
    "name-help auth-error": "element ids (aria-describedby), not words",
    'There is no setting called "{x}" (the settings: {x}).': "a SettingsError (settings.js): "
    "for programmers calling settings.set wrongly, never shown to players",
    'The setting "{x}" cannot be {x}: it takes {x}.': "a SettingsError, for programmers",
    "one of {x}": "part of a SettingsError, for programmers",
    "a number from 0 to 1": "part of a SettingsError, for programmers",
    "dropped by the client": "a WebSocket close reason, for the server's log",
    "not hex: {x}": "an Error of fromHex, for programmers (the dice check says it in words)",
    # gammon/game.py: the phases are values of the protocol and the records; the rest are
    # errors of a program or a record, never of a player's action at a table
    "double offered": "a Phase: a value of the protocol and the records, not words",
    "beaver offered": "a Phase: a value of the protocol and the records, not words",
    "choose double": "a Phase: a value of the protocol and the records, not words",
    "resignation offered": "a Phase: a value of the protocol and the records, not words",
    "choose a double": "a key of the table _CANNOT (its sentences are in the catalogs)",
    "accept a resignation": "a key of the table _CANNOT (its sentences are in the catalogs)",
    "reject a resignation": "a key of the table _CANNOT (its sentences are in the catalogs)",
    "not an action: {action}": "a programming error: the server only passes actions",
    "a play must be a Play or its notation, got {type(play).__name__}": "a programming error",
    "the start position has {start.checkers} checkers a side, but {variant.name} is played "
    "with {variant.checkers}": "an error of a program setting up a game",
    "the start position is already won": "an error of a program setting up a game",
    "side {side} cannot dance with {dice}: {exc}": "dancing is for records only (Game.dance)",
    "history entry {index} ({event}): {exc}": "an error of a record being replayed",
    "history entry {index} ({event}) does not follow from the entries before it; the game "
    "gives {game._history[index]}": "an error of a record being replayed",
    "the history stops short: it should go on with {game._history[len(events)]}":
        "an error of a record being replayed",
    "this entry follows from the ones before it, not here": "an error of a record being replayed",
    # gammon/server: what is for programs and operators, not players
    "Seconds from a player's action read to its state queued for every socket (the commit "
    "included).": "a metric's help, for operators",
    "Open WebSockets, by socket (lobby or table).": "a metric's help, for operators",
    "Tables in this server's memory, by status (open and playing are all of them; finished "
    "and cancelled only the recent ones).": "a metric's help, for operators",
    "Actions accepted and committed, by type.": "a metric's help, for operators",
    "Writes committed by the writer thread.": "a metric's help, for operators",
    "Transactions of the writer thread (each holds one or more writes).":
        "a metric's help, for operators",
    "Writes waiting for the writer thread.": "a metric's help, for operators",
    "Post-game analyses queued.": "a metric's help, for operators",
    "Post-game analyses running.": "a metric's help, for operators",
    "Post-game analyses done.": "a metric's help, for operators",
    "Bot moves and hints waiting for or running on the engine's thread.":
        "a metric's help, for operators",
    "Unexpected server faults (logged).": "a metric's help, for operators",
    "1 once the hub has started.": "a metric's help, for operators",
    "not started": "/readyz's checks, for operators and load balancers",
    "no answer within {READY_TIMEOUT_S} s": "/readyz's checks, for operators",
    "the file {path} was replaced since the server started": "/readyz's checks, for operators",
    "the file {path} is gone (deleted or moved)": "/readyz's checks, for operators",
    "server going away": "a WebSocket close reason (123 bytes at most), for programs",
    "server fault: reconnect": "a WebSocket close reason, for programs",
    "too slow: reconnect": "a WebSocket close reason, for programs",
    "a lobby message": "where a fault happened, for the server's log",
    "table {table_id}: a message": "where a fault happened, for the server's log",
    "the lobby socket": "where a fault happened, for the server's log",
    "table {table_id}: the socket": "where a fault happened, for the server's log",
    "tournament {number}: the socket": "where a fault happened, for the server's log",
    " (and {self._unreported} more faults since the last report)": "the server's log",
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' {sockets}; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'": "an HTTP header (Content-Security-Policy)",
    "{CSRF_COOKIE}={token}; Path=/; SameSite=Lax{secure}": "an HTTP header (Set-Cookie)",
    'attachment; filename="table-{table.id}.mat"': "an HTTP header (Content-Disposition)",
    "gammon server: the browser client is not installed; see docs/PROTOCOL.md for the API\n":
        "a page for whoever installs the server without its client",
    # gammon/server/chat.py and chat_settings.py: the rules' names (for logs and counters) and
    # the settings' checks (for whoever runs the server)
    "too long": "a Rule value, for the server's logs and counters",
    "too fast": "a Rule value, for the server's logs and counters",
    "not English": "a Rule value, for the server's logs and counters",
    "max_length must be at least 1": "a check of the server's settings",
    "rate_messages must be at least 1": "a check of the server's settings",
    "rate_seconds must be positive": "a check of the server's settings",
    "repeat_seconds cannot be negative": "a check of the server's settings",
    "repeat_memory cannot be negative": "a check of the server's settings",
    "repeat_similarity must be in (0, 1]": "a check of the server's settings",
    "abuse must be 'mask' or 'reject', got {self.abuse}": "a check of the server's settings",
    "evidence_messages cannot be negative": "a check of the server's settings",
    "language must be 'en' or 'any', got {self.language}": "a check of the server's settings",
    "bad chat settings: {message}": "a check of the server's settings",
    # gammon/server/analysis.py, analysis_rows.py, analysis_pool.py, routes/analyses.py: the
    # database's queries, a check of the server's settings, the worker's faults (stored as
    # the failed job's error, for whoever runs the server) and HTTP headers
    "status IN ('queued', 'running') AND (claimed_until IS NULL OR claimed_until < {DB_NOW}) "
    "ORDER BY id": "an SQL query",
    "status = 'queued' AND node <> :node AND created < :before ORDER BY id LIMIT :idle":
        "an SQL query",
    ", status = 'queued'": "an SQL query's part",
    "UPDATE analyses SET node = :node, claimed_until = {DB_NOW} + :ttl{status} WHERE id IN "
    "(SELECT id FROM analyses WHERE {where} FOR UPDATE SKIP LOCKED) RETURNING id, key, "
    "requested_by": "an SQL query",
    "UPDATE analyses SET claimed_until = {DB_NOW} + :ttl WHERE node = :node AND status IN "
    "('queued', 'running')": "an SQL query",
    "UPDATE analyses SET claimed_until = {DB_NOW} - 1 WHERE node = :node AND status IN "
    "('queued', 'running')": "an SQL query",
    "the analysis depth is 0 to 3 ply, not {self.ply}": "a check of the server's settings",
    "the job is no longer in the database": "a fault of the server, in the failed job's error",
    "table {row.table_id} cannot be loaded": "a fault of the server, in the failed job's error",
    "the analysis worker stopped unexpectedly":
        "a fault of the server, in the failed job's error",
    "text/html; charset=utf-8": "an HTTP header (Content-Type)",
    'attachment; filename="analysis-{key}.html"': "an HTTP header (Content-Disposition)",
    'attachment; filename="analysis-{key}.json"': "an HTTP header (Content-Disposition)",
    # gammon/diagram.py: the errors of a program drawing a board, and GNU Backgammon's names
    # of its position formats, which players of every language read as they are
    "on_roll must be 0 (the bottom side) or 1 (the top), got {on_roll}": "a programming error",
    "cube_owner must be 0, 1 or None, got {cube_owner}": "a programming error",
    " Position ID: {(position.swapped() if on_roll else position).id}": "a format's name",
    " Position ID: {none}": "a format's name (its note is in the catalogs)",
    " Match ID   : {match_id}": "a format's name",
    # gammon/server/analysis_board.py
    "the rollout failed: {exc}":
        "a fault of the engine, in the rollout's error field (the exception's own words)",
    # gammon/server/tournaments/
    "tournament {tournament_id}: a message": "where a fault happened, for the server's log",
    "SELECT t.id, COALESCE(MAX(a.seq), 0) FROM tournaments t LEFT JOIN tournament_actions a "
    "ON a.tournament_id = t.id WHERE t.status IN ('registering', 'running') OR t.id > :known "
    "GROUP BY t.id": "an SQL query",
    # gammon/server/tournaments/state.py: the reason a cancelled tournament keeps in its record
    "not enough players: {len(self.registered)} registered, {settings.min_players} needed":
        "a cancel reason, kept in the tournament's record as it is (still in English)",
    "cancelled by the organiser":
        "a cancel reason, kept in the record (an organiser may write one)",
    # gammon/notation.py
    "(no play)": "the notation of the lost turn, read and written as it is",
    "no play": "the notation of the lost turn, read as it is",
    "a play is written as text, got {text}": "a programming error (Game passes only text)",
    # gammon/ids.py: the names of what was read (values of the messages) and the errors of a
    # program encoding a board or building a Match ID's fields
    "Position ID": "a name, a value of the messages (the same in every language)",
    "Match ID": "a name, a value of the messages (the same in every language)",
    "the board": "a key of the table _SHARED_POINT (its sentences are in the catalogs)",
    "the player on roll": "part of an error of a program encoding a board",
    "the opponent": "part of an error of a program encoding a board",
    "{board} has {total} checkers for {who} (at most {_MAX_CHECKERS})":
        "an error of a program encoding a board",
    "{board} for {who} must have 25 entries, got {len(side)}":
        "an error of a program encoding a board",
    "{board} for {who} must hold integers, got {value} at index {i}":
        "an error of a program encoding a board",
    "{board} for {who} has {n} checkers at index {i}": "an error of a program encoding a board",
    "Position ID is not valid base64: {exc}": "never raised: the checks before it rule it out",
    # gammon/position.py: errors of a program building a board (a pasted Position ID is
    # checked by gammon/ids.py first, in the catalogs)
    "Position({list(self.mine)}, {list(self.theirs)}, waiting={self.waiting}{checkers})":
        "a repr, for programmers",
    "Position.from_id({self.id}, checkers={self.checkers})": "a repr, for programmers",
    "a side has 1 to 15 checkers, got {checkers}": "an error of a program building a board",
    "waiting must be a pair of whole numbers >= 0 (player on roll, opponent), got {waiting}":
        "an error of a program building a board",
    "a Position ID cannot hold acey-deucey checkers that have not entered yet":
        "an error of a program writing a board's ID (the server never asks it)",
    "points are numbered 1-24, got {point}": "a programming error (ValueError)",
    "a side needs 25 counts (points 1-24 and the bar), got {len(counts)}":
        "an error of a program building a board",
    "checker counts must be whole numbers >= 0, got {bad}":
        "an error of a program building a board",
    "points are numbered 1-24 and 25 for the bar, got {point}":
        "an error of a program building a board",
    # gammon/ids.py (Match ID) and gammon/match.py
    "a money session starts at 0-0; only a match has a score":
        "a series' settings, checked first by the server (server/settings.py, in the catalogs)",
    "a {rules.length}-point match is taken up at a score of two whole numbers from 0 to "
    "{rules.length - 1}, got {score}":
        "a series' settings, checked first by the server (server/settings.py, in the catalogs)",
    "table stakes are a positive whole number, or one for each side, got {stakes}":
        "a series' settings, checked first by the server (server/settings.py, in the catalogs)",
    "a match is played to 1 to {MAX_MATCH_LENGTH} points (0 for money play), got {length}":
        "a series' settings, checked first by the server (server/settings.py, in the catalogs)",
    "table stakes are for money play only, not a {length}-point match":
        "a series' settings, checked first by the server (server/settings.py, in the catalogs)",
    "a fixed number of games is for money play only, not a {length}-point match":
        "a series' settings, checked first by the server (server/settings.py, in the catalogs)",
    "a session of a fixed number of games needs at least 1, got {max_games}":
        "a series' settings, checked first by the server (server/settings.py, in the catalogs)",
    "{cls.__name__} cannot be played under {rules}": "a programming error",
    "a side is 0 or 1, got {side}": "a programming error",
    "no new game: {self._over_message()}":
        "an error of a program running the series (the server starts each game)",
    "no new game: game {len(self._games)} is still being played":
        "an error of a program running the series (the server starts each game)",
    "no game to set up: {self._over_message()}":
        "an error of a program running the series (the server starts each game)",
    "game {len(self._games)} has begun: only a game not begun yet is set up":
        "an error of a program running the series (the server starts each game)",
    "a match is played to 1 to {MAX_MATCH_LENGTH} points, got {length}":
        "a series' settings, checked first by the server (server/settings.py, in the catalogs)",
    "game {index + 1} cannot follow game {index}, which did not end":
        "an error of a record being replayed",
    "game {index + 1} cannot be played: {self._over_message()}":
        "an error of a record being replayed",
    "Match ID cube value must be a power of two from 1 to 32768, got {v}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    "Match ID cube owner must be 0, 1 or None (centred), got {self.cube_owner}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    "Match ID resignation must be 0 (none), 1 (single), 2 (gammon) or 3 (backgammon), got "
    "{self.resignation}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    "Match ID dice must be two numbers, got {self.dice}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    "Match ID match length must be 0 (money) to 32767, got {n}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    "Match ID score must be two numbers, got {self.score}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    "Match ID game state must be 0-4 (see GameState), got {self.game_state}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    "Match ID {name.replace('_', ' ')} must be 0 or 1, got {getattr(self, name)}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    "Match ID score must be 0 to 32767, got {s}":
        "a program's Match ID fields: a decoded Match ID cannot have it",
    # gammon/xgid.py: an Xgid a program builds with values of the wrong shape (a pasted XGID
    # and the analysis board's setup, which checks each field's shape first, cannot have them)
    "board must be a pair (mine, theirs), got {len(self.board)} sides":
        "an Xgid built by a program with a board of the wrong shape",
    "player on roll must be BOTTOM (0) or TOP (1), got {self.player_on_roll}":
        "an Xgid built by a program: a parsed XGID's turn is checked first, in the catalogs",
    "cube owner must be 0 (player on roll), 1 (opponent) or None (centred), got "
    "{self.cube_owner}":
        "an Xgid built by a program: a parsed XGID's and the board's owners are checked first",
    "dice must be two numbers, got {self.dice}":
        "an Xgid built by a program with dice of the wrong shape",
    "score must be two numbers, got {self.score}":
        "an Xgid built by a program with a score of the wrong shape",
    "cube action must be '', 'D', 'B' or 'R', got {self.cube_action}":
        "an Xgid built by a program: a parsed XGID's dice field is checked first, in the catalogs",
}
#: The command line's help (``help=``, ``description=`` of argparse): written for the person
#: typing the command, in English as argparse's own words around it are.
_HELP_CALLS = {"add_argument", "add_parser"}
_HELP_WORDS = {"help", "description"}
#: The log's calls (``log.warning(...)``, ``faults.report(where, ...)``): words for the
#: server's operators, in English as the rest of its log.
_LOG_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "report"}


def _sentences(path: Path) -> list[tuple[int, str]]:
    """The literal strings of a module that read as words to a person: two words or more,
    outside docstrings, the calls that put them in a catalog and argparse's help."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    marked: set[int] = set()
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in catalogs.KEYWORDS:
                for arg in node.args:
                    if isinstance(arg, ast.JoinedStr):
                        continue  # an f-string cannot be looked up: the scan reports it
                    marked.update(id(sub) for sub in ast.walk(arg))
            if isinstance(func, ast.Attribute) and name in _LOG_CALLS:
                for arg in node.args:  # the server's log, for its operators
                    marked.update(id(sub) for sub in ast.walk(arg))
            if name in _HELP_CALLS:
                for keyword in node.keywords:
                    if keyword.arg in _HELP_WORDS:
                        marked.update(id(sub) for sub in ast.walk(keyword.value))
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            docstrings.add(id(body[0].value))
        # attribute docstrings: a string statement on its own
        for child in body if isinstance(body, list) else []:
            if isinstance(child, ast.Expr) and isinstance(child.value, ast.Constant):
                docstrings.add(id(child.value))
    found = []
    for node in ast.walk(tree):
        if id(node) in marked or id(node) in docstrings:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                part.value if isinstance(part, ast.Constant) else
                "{" + ast.unparse(part.value) + "}"  # type: ignore[attr-defined]
                for part in node.values
            )  # fmt: skip
            marked.update(id(part) for part in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if _STYLESHEET.fullmatch(text):
            continue  # selectors and their rules, for the browser
        words = re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", "", _TAGS.sub(" ", text)))
        if len(words) >= 2 and " " in text.strip():
            found.append((node.lineno, text))
    return found


#: Markup in a literal (an HTML or SVG tag, its attributes): names for the browser.
_TAGS = re.compile(r"<[^<>]*>")
#: A literal that is a stylesheet, rules only (the HTML report's inline CSS).
_STYLESHEET = re.compile(r"(\s*[^{}\s][^{}]*\{[^{}:]*:[^{}]*\}){3,}\s*")


#: A JavaScript literal after one of these keys or calls is a name for the program (a CSS
#: class, a selector, an element's id, an SVG path), not words for the player.
_JS_NAME_KEYS = frozenset(
    [
        "class",
        "className",
        "id",
        "name",
        "type",
        "role",
        "rel",
        "target",
        "autocomplete",
        "inputmode",
        "d",
        "points",
        "transform",
        "viewBox",
        "href",
        "src",
        "method",
        "accept",
        "pattern",
        "dataset",
        "for",
        "key",
        "event",
        "code",
    ]
)
_JS_NAME_CALLS = frozenset(
    [
        "querySelector",
        "querySelectorAll",
        "closest",
        "matches",
        "add",
        "remove",
        "toggle",
        "contains",
        "getElementById",
        "createElement",
        "h",
        "s",
        "getAttribute",
        "setAttribute",
        "removeAttribute",
        "addEventListener",
        "removeEventListener",
        "fetch",
        "get",
        "post",
        "api",
        "upload",
        "startsWith",
        "endsWith",
        "includes",
        "split",
        "matchMedia",
        "replace",
        "test",
        "getItem",
        "setItem",
        "dispatchEvent",
    ]
)
_JS_TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*|/\*.*?\*/)"""
    r"""|(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)"""
    r"""|(?P<word>[A-Za-z_$][\w$]*)|(?P<punct>\S)""",
    re.S,
)


def _js_sentences(path: Path) -> list[tuple[int, str]]:
    """The literal strings of a browser module that read as words to a person (two words or
    more), outside comments and the names a program uses (classes, selectors, ids). Whether
    one is in a catalog is the caller's question: every t(), tn() and N_() literal is."""
    text = path.read_text(encoding="utf-8")
    found = []
    previous: list[str] = []  # the last tokens, for the key or call a literal belongs to
    for match in _JS_TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "comment":
            continue
        token = match.group()
        if kind == "string":
            body = token[1:-1]
            if token[0] == "`":  # a template: its ${...} parts are placeholders
                body = re.sub(r"\$\{[^}]*\}", "{x}", body)
            context = previous[-2:]
            after_key = len(context) == 2 and context[1] == ":" and context[0] in _JS_NAME_KEYS
            in_call = len(context) == 2 and context[1] == "(" and context[0] in _JS_NAME_CALLS
            words = re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", "", body))
            if not (after_key or in_call) and len(words) >= 2 and " " in body.strip():
                found.append((text.count("\n", 0, match.start()) + 1, body))
        previous = [*previous[-3:], token if kind != "string" else "<string>"]
    return found


@functools.cache
def _template_messages() -> frozenset[str]:
    """Every English text of the template (both forms of a plural), extracted once."""
    texts: set[str] = set()
    for m in catalogs.extract():
        texts.update([m.id] if isinstance(m.id, str) else m.id)
    return frozenset(texts)


def _source_sentences(source: str) -> list[tuple[int, str]]:
    """The stray sentences of a converted module, Python or JavaScript."""
    if source.endswith(".js"):
        messages = _template_messages()
        return [(line, text) for line, text in _js_sentences(ROOT / source)
                if text not in messages]  # fmt: skip
    return _sentences(ROOT / source)


def test_no_sentence_outside_a_catalog_in_the_converted_modules() -> None:
    found = [
        (source, line, text)
        for source in catalogs.SOURCES
        for line, text in _source_sentences(source)
    ]
    strays = [f"{source}:{line}: {text!r}" for source, line, text in found if text not in ALLOWED]
    assert strays == [], "put these in a catalog (or on ALLOWED with a reason):\n" + "\n".join(
        strays
    )
    stale = set(ALLOWED) - {text for _, _, text in found}
    assert stale == set(), f"ALLOWED lists strings the modules no longer have: {stale}"


def test_the_browser_scan_finds_a_new_sentence(tmp_path: Path) -> None:
    module = tmp_path / "words.js"
    module.write_text(
        "// A comment is not a message.\n"
        'const a = t("Roll the dice"), b = h("p", { class: "muted small" }, "Your turn now");\n'
        'document.querySelector("#board svg .dice");\n'
        "el.textContent = `Table ${id} is full`;\n",
        encoding="utf-8",
    )
    assert _js_sentences(module) == [
        (2, "Roll the dice"),
        (2, "Your turn now"),
        (4, "Table {x} is full"),
    ]


def test_the_scan_finds_a_new_sentence(tmp_path: Path) -> None:
    module = tmp_path / "words.py"
    module.write_text(
        '"""A docstring is not a message."""\n'
        "def f(t, name):\n"
        '    """Nor is this."""\n'
        '    t.gettext("{player} takes", player=name)\n'
        '    parser.add_argument("--x", help="help for the person typing")\n'
        '    return f"{name} wins the game"\n'
        '    raise Refused("code", Message(f"{name} may not play now"))\n',
        encoding="utf-8",
    )
    assert _sentences(module) == [(6, "{name} wins the game"), (7, "{name} may not play now")]
