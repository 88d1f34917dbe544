"""The server's refusals and the game log in the player's language, on a real server
(docs/PROTOCOL.md 1, 2.1): the code stays English and the same, the message is in the
language the request asks for (``?lang=``, the cookie ``gammon_lang``, ``Accept-Language``)
or, on a WebSocket, the one its upgrade asked for; without one, English as before."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from gammon.errors import GammonError, InvalidPlayError
from gammon.messages import Message
from gammon.position import Position
from gammon.server.protocol import Refused
from tests.server.client import Player, ServerProcess, Socket


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def _error(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}
    return dict(body["error"])


def test_an_http_refusal_in_the_language_of_accept_language_and_the_cookie(
    server: ServerProcess,
) -> None:
    url = f"{server.url}/api/tables/999999"
    english = _error(httpx.get(url, timeout=10))
    assert english == {"code": "no_such_table", "message": "there is no table 999999"}
    finnish = _error(httpx.get(url, headers={"Accept-Language": "fi-FI,fi;q=0.9"}, timeout=10))
    assert finnish == {"code": "no_such_table", "message": "pöytää 999999 ei ole"}
    # The player's choice in the cookie wins over the browser's header; ?lang= over both.
    dutch = _error(
        httpx.get(url, headers={"Accept-Language": "fi", "Cookie": "gammon_lang=nl"}, timeout=10)
    )
    assert dutch == {"code": "no_such_table", "message": "er is geen tafel 999999"}
    swedish = _error(httpx.get(f"{url}?lang=sv", headers={"Cookie": "gammon_lang=nl"}, timeout=10))
    assert swedish["message"] == "det finns inget bord 999999"


def test_a_refusal_with_a_field_and_the_router_s_in_the_request_s_language(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        player = await Player(server).signup()
        try:
            refused = await player.post("/api/logout", {"evry": 1}, **{"Accept-Language": "nl"})
            error = _error(refused)
            assert (error["code"], error["field"]) == ("bad_request", "evry")
            assert error["message"] == "dit verzoek heeft geen veld 'evry'; het neemt er geen"
            english = _error(await player.post("/api/logout", {"evry": 1}))
            assert english["message"] == "there is no field 'evry' in this request; it takes none"
            missing = await player.http.get("/api/nothing", headers={"Accept-Language": "fi"})
            assert _error(missing) == {
                "code": "not_found",
                "message": "GET /api/nothing ei ole API:n pyyntö (docs/PROTOCOL.md)",
            }
        finally:
            await player.close()

    run(scenario())


def test_the_refusals_of_accounts_settings_rematches_and_pairing_in_the_request_s_language(
    server: ServerProcess,
) -> None:
    """One refusal of each module (auth and names, settings, user_settings, rematch,
    pairing) in Finnish and Dutch, the code and the field the English ones'; without a
    language, the English as before."""

    async def scenario() -> None:
        stranger = Player(server)
        alice = await Player(server).signup()
        try:
            table = await alice.create(length=3)  # waiting for an opponent: no players yet
            asks = [
                # (who, path, body, code, field, English, Finnish, Dutch)
                (
                    stranger,
                    "/api/signup",
                    {"name": "ab", "password": "correct horse"},
                    "bad_name",
                    None,
                    "a name must be 3 to 20 characters, not 2",
                    "nimi: oltava 3\u201320 merkkiä, ei 2",
                    "een naam moet 3 tot 20 tekens lang zijn, niet 2",
                ),
                (
                    alice,
                    "/api/tables",
                    {"length": 0},
                    "bad_settings",
                    "length",
                    "The match length (points) must be a whole number from 1 to 64, not 0",
                    "Ottelun pituus (pisteinä): oltava kokonaisluku väliltä 1\u201364, ei 0",
                    "De matchlengte (punten) moet een geheel getal van 1 tot 64 zijn, niet 0",
                ),
                (
                    alice,
                    "/api/me/settings",
                    {"settings": {"sound": [1]}},
                    "bad_settings",
                    "settings.sound",
                    "sound must be true or false, a number or a word of at most 32 letters",
                    "asetuksen sound on oltava true tai false, luku tai enintään 32 kirjaimen sana",
                    "sound moet true of false, een getal of een woord van hoogstens 32 letters "
                    "zijn",
                ),
                (
                    alice,
                    f"/api/tables/{table}/rematch",
                    {},
                    "not_a_player",
                    None,
                    "a rematch is for the two players of the match",
                    "uusintaottelua voivat pyytää vain ottelun kaksi pelaajaa",
                    "een revanche is voor de twee spelers van de match",
                ),
                (
                    alice,
                    "/api/pairing",
                    {"length": 2},
                    "bad_request",
                    "length",
                    "a quick match is 1, 3, 5, 7 points long",
                    "pikaottelun pituus on 1, 3, 5, 7 pistettä",
                    "een snelle match is 1, 3, 5, 7 punten lang",
                ),
            ]
            for who, path, body, code, field, english, finnish, dutch in asks:
                for words, query, headers in (
                    (english, "", {}),
                    (finnish, "", {"Accept-Language": "fi-FI,fi;q=0.9"}),
                    (dutch, "?lang=nl", {"Accept-Language": "fi"}),
                ):
                    error = _error(await who.post(path + query, body, **headers))
                    assert error["code"] == code, (path, error)
                    assert error.get("field") == field, (path, error)
                    assert error["message"] == words, (path, headers, error)
        finally:
            await stranger.close()
            await alice.close()

    run(scenario())


async def _socket(player: Player, table: int, **headers: str) -> Socket:
    ws = await connect(
        f"{player.server.ws_url}/ws/tables/{table}",
        additional_headers={"Cookie": player.cookie_header(), **headers},
        max_size=1 << 24,
    )
    sock = Socket(ws, player.server)
    await sock.until(lambda m: m["type"] == "state")
    return sock


def test_a_table_socket_refuses_in_its_language_and_writes_the_log_in_it(
    server: ServerProcess,
) -> None:
    """Each socket reads the refusals and the game log's words in the language of its
    upgrade request; the codes and the events' fields are the same for all."""

    async def scenario() -> None:
        alice, bob = await Player(server).signup(), await Player(server).signup()
        table = await alice.create(length=3)
        bob.http.cookies.set("gammon_lang", "nl")  # the browser client's cookie
        a = await _socket(alice, table, **{"Accept-Language": "fi"})
        b = await _socket(bob, table)
        english = await _socket(await Player(server).signup(), table)
        dutch_watcher = await _socket(
            await Player(server).signup(), table, **{"Accept-Language": "nl-BE,nl;q=0.9"}
        )
        try:
            assert (await b.request({"type": "join"}))["type"] == "ack"
            await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            await b.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            sockets = {a.state["you"]: a, b.state["you"]: b}  # type: ignore[index]
            # A spectator's action: the server's own refusal, in each socket's language.
            refused = await dutch_watcher.request({"type": "roll"})
            assert refused["code"] == "not_a_player"
            assert refused["message"] == "je kijkt naar deze tafel: alleen de spelers handelen hier"
            refused = await english.request({"type": "roll"})
            assert (refused["code"], refused["message"]) == (
                "not_a_player",
                "you are watching this table: only its players act here",
            )
            # The opening roll; then a double from the mover, whose dice are rolled: the
            # rules' refusal, in Finnish for alice and Dutch for bob.
            state = await sockets[0].act({"type": "roll"})
            mover = state["game"]["turn"]
            refused = await sockets[mover].request({"type": "double"})
            assert refused["code"] == "illegal_action"
            expected = {
                a: f"pelaaja {mover} ei voi tuplata: nopat on jo heitetty",
                b: f"speler {mover} kan niet verdubbelen: de dobbelstenen zijn al gegooid",
            }
            assert refused["message"] == expected[sockets[mover]]
            # The game log: the same events, the words in each viewer's language.
            seq = state["seq"]
            for sock in (a, b, english, dutch_watcher):
                while sock.state is None or sock.state["seq"] < seq:
                    await sock.receive()
            logs = {
                sock: sock.state["game"]["log"]  # type: ignore[index]
                for sock in (a, b, english, dutch_watcher)
            }
            fields = [{k: v for k, v in e.items() if k != "text"} for e in logs[english]]
            for log in logs.values():
                assert [{k: v for k, v in e.items() if k != "text"} for e in log] == fields
            first = logs[english][0]
            assert first["type"] == "opening"
            assert logs[english][0]["text"].startswith("opening roll: ")
            assert logs[a][0]["text"].startswith("aloitusheitto: ")
            assert logs[b][0]["text"].startswith("openingsworp: ")
            assert logs[dutch_watcher][0]["text"] == logs[b][0]["text"]
            # The same over HTTP, in the language the request asks for.
            response = await alice.http.get(f"/api/tables/{table}?lang=fi")
            assert response.json()["game"]["log"][0]["text"] == logs[a][0]["text"]
            response = await alice.http.get(f"/api/tables/{table}")
            assert response.json()["game"]["log"][0]["text"] == first["text"]
        finally:
            for sock in (a, b, english, dutch_watcher):
                await sock.close()

    run(scenario())


def test_a_forwarded_refusal_keeps_its_message_for_translation() -> None:
    """Another node answers a forwarded action with the refusal's message and values, so
    the node holding the player's socket writes it in the player's language."""
    exc = Refused(
        "illegal_action",
        Message(
            "side {side} cannot double: {why}",
            side=1,
            why=Message("the cube is already at {value}, the highest it may go", value=64),
        ),
        field="x",
    )
    again = Refused.from_json(exc.to_json())
    assert (again.code, again.field, again.message) == (exc.code, exc.field, exc.message)
    assert again.message == "side 1 cannot double: the cube is already at 64, the highest it may go"
    assert again.translated("sv") == (
        "spelare 1 kan inte dubbla: dubbleringstärningen står redan på 64, det högsta den får nå"
    )
    # A node of the version before sends [code, message, field]: English, as it was.
    assert Refused.from_json(["stale", "old words", None]).translated("fi") == "old words"


def test_the_tutor_s_verdict_in_the_player_s_language() -> None:
    """The tutor's sentence is written in the language of the socket it is sent to
    (Practice.after_play passes it); the figures stay those of the verdict."""
    from gammon.position import Position
    from gammon.server.practice import tutor_verdict

    start = Position.initial()
    english = tutor_verdict(start, (3, 1), "8/5 6/5", 0)
    finnish = tutor_verdict(start, (3, 1), "8/5 6/5", 0, lang="fi")
    dutch = tutor_verdict(start, (3, 1), "8/5 6/5", 0, lang="nl")
    assert (english["text"], finnish["text"], dutch["text"]) == (
        "The best play.",
        "Paras siirto.",
        "De beste zet.",
    )
    assert {k: v for k, v in finnish.items() if k != "text"} == {
        k: v for k, v in english.items() if k != "text"
    }


def test_the_analysis_the_board_the_tournaments_and_the_operators_refuse_in_each_language(
    server: ServerProcess,
) -> None:
    """One refusal of each: the analysis API, the analysis board, a tournament and its
    settings, an operator's action by someone who is not one; Finnish and Dutch with the
    English code unchanged, English without a language."""

    async def scenario() -> None:
        await (await Player(server).signup()).close()  # never the server's first account
        ann, bob = await Player(server).signup(), await Player(server).signup()
        try:

            async def three(method: str, path: str, body: object = None) -> list[dict[str, Any]]:
                errors = []
                for lang in ("fi", "nl", None):
                    headers = {"Accept-Language": lang} if lang else {}
                    if method == "GET":
                        response = await bob.http.get(path, headers=headers)
                    else:
                        response = await bob.post(path, body, **headers)
                    errors.append(_error(response))
                return errors

            fi, nl, en = await three("GET", "/api/analyses/no-such-key")
            assert {fi["code"], nl["code"], en["code"]} == {"no_analysis"}
            assert en["message"] == "there is no analysis 'no-such-key'"
            assert fi["message"] == "analyysia 'no-such-key' ei ole"
            assert nl["message"] == "er is geen analyse 'no-such-key'"

            fi, nl, en = await three("POST", "/api/board", {"setup": {"mine": [1]}})
            assert {(e["code"], e["field"]) for e in (fi, nl, en)} == {("bad_setup", "setup.mine")}
            assert en["message"] == "setup.mine must be a list of 25 whole numbers"
            assert fi["message"] == "kentän setup.mine on oltava 25 kokonaisluvun lista"
            assert nl["message"] == "setup.mine moet een lijst van 25 gehele getallen zijn"

            fi, nl, en = await three("GET", "/api/tournaments/999999")
            assert {fi["code"], nl["code"], en["code"]} == {"no_such_tournament"}
            assert en["message"] == "there is no tournament 999999"
            assert fi["message"] == "turnausta 999999 ei ole"
            assert nl["message"] == "er is geen toernooi 999999"

            settings = {"name": "x", "kind": "sit_and_go", "seats": 6}
            fi, nl, en = await three("POST", "/api/tournaments", settings)
            assert {(e["code"], e["field"]) for e in (fi, nl, en)} == {("bad_settings", "seats")}
            assert en["message"] == "The number of seats of a Sit & Go must be 2, 4, 8 or 16, not 6"
            assert fi["message"] == (
                "Paikkojen määrä: Sit & Go -turnauksessa on oltava 2, 4, 8 tai 16, ei 6"
            )
            assert (
                nl["message"]
                == "Het aantal plaatsen: van een Sit & Go moet 2, 4, 8 of 16 zijn, niet 6"
            )

            # An operator's action by a player who is not one, on the lobby's socket.
            target = ann.user["name"]  # type: ignore[index]
            who = bob.user["name"]  # type: ignore[index]
            expected = {
                "fi": f"{who} ei ole ylläpitäjä: vain ylläpitäjät voivat estää pelaajia",
                "nl": f"{who} is geen beheerder: alleen beheerders kunnen spelers verbannen",
                None: f"{who} is not an operator: only operators can ban players",
            }
            for lang, message in expected.items():
                headers = {"Accept-Language": lang} if lang else {}
                ws = await connect(
                    f"{server.ws_url}/ws/lobby",
                    additional_headers={"Cookie": bob.cookie_header(), **headers},
                    max_size=1 << 24,
                )
                sock = Socket(ws, server)
                try:
                    await sock.until(lambda m: m["type"] == "chat_history")
                    refused = await sock.request({"type": "ban", "user": target})
                    assert (refused["type"], refused["code"]) == ("error", "forbidden")
                    assert refused["message"] == message
                finally:
                    await sock.close()
        finally:
            await ann.close()
            await bob.close()

    run(scenario())


def test_a_finnish_players_tutor_speaks_finnish_entirely(server: ServerProcess) -> None:
    """On a real server, the tutor's warning to a socket that asked in Finnish: the sentence,
    the loss's words and the teacher's explanation in Finnish, the loss the verdict's own."""
    from gammon.engine.analysis.explain import loss_words
    from gammon.engine.analysis.results import Unit
    from tests.engine.test_teacher_i18n import english_left
    from tests.server.test_practice import until_my_play

    rng = random.Random(7)

    async def scenario() -> None:
        human = await Player(server).signup()
        table = await human.create(length=3, bot="expert")
        sock = await _socket(human, table, **{"Accept-Language": "fi"})
        try:
            assert (await sock.request({"type": "tutor", "on": True}))["type"] == "ack"
            while True:  # until the worst play is a mistake the teacher explains
                await until_my_play(sock, rng)
                plays = (await sock.request({"type": "hint"}))["plays"]
                worst = plays[-1]
                if worst["loss"] >= 0.04:
                    break
                await sock.act({"type": "play", "play": plays[0]["play"]})
                await sock.until(lambda m: m["type"] == "tutor")
            await sock.act({"type": "play", "play": worst["play"]})
            tutor = await sock.until(lambda m: m["type"] == "tutor")
            assert tutor["mark"] and tutor["unit"] == "mwc" and tutor["best"] == plays[0]["play"]
            # The loss in the verdict's unit, in Finnish words and figures ("4,7 %").
            loss = loss_words(tutor["mwc_loss"], Unit.MWC, "fi")
            assert loss.endswith(" ottelun voittotodennäköisyydestä")
            assert tutor["text"].startswith(
                f"Tämä siirto menettää {loss}; {tutor['best']} oli parempi: "
            ), tutor["text"]
            assert english_left(tutor["text"], "fi") == set(), tutor["text"]
        finally:
            await sock.close()

    run(scenario())


def test_a_tournament_action_a_notation_play_and_a_position_id_refused_in_each_language(
    server: ServerProcess,
) -> None:
    """The rules library's errors and the tournament's own refusals that reach a player: a
    second registration, a play whose notation cannot be read (the notation reader's reason
    inside the game's sentence) and a pasted Position ID that is not one; Finnish and Dutch
    from the catalogs, the code and the English as before."""

    async def scenario() -> None:
        alice, bob = await Player(server).signup(), await Player(server).signup()
        try:
            name = bob.user["name"]  # type: ignore[index]

            async def three(path: str, body: object = None) -> list[dict[str, Any]]:
                errors = []
                for lang in ("fi", "nl", None):
                    headers = {"Accept-Language": lang} if lang else {}
                    errors.append(_error(await bob.post(path, body, **headers)))
                return errors

            created = await alice.post(
                "/api/tournaments",
                {"name": "Words", "kind": "sit_and_go", "seats": 4, "lengths": [1, 1]},
            )
            number = created.json()["tournament"]["id"]
            assert (await bob.post(f"/api/tournaments/{number}/register")).status_code == 200
            fi, nl, en = await three(f"/api/tournaments/{number}/register")
            assert {fi["code"], nl["code"], en["code"]} == {"already_registered"}
            assert en["message"] == f"{name} is registered already"
            assert fi["message"] == f"{name} on jo ilmoittautunut"
            assert nl["message"] == f"{name} is al ingeschreven"

            fi, nl, en = await three("/api/board", {"text": "4HPwATDgc/AB!A"})
            assert {(e["code"], e["field"]) for e in (fi, nl, en)} == {("bad_setup", "text")}
            assert en["message"] == (
                "Position ID has an invalid character '!' at position 13 "
                "(expected A-Z, a-z, 0-9, + or /)"
            )
            assert fi["message"] == (
                "Position ID sisältää virheellisen merkin '!' kohdassa 13 "
                "(sallitut: A-Z, a-z, 0-9, + ja /)"
            )
            assert nl["message"] == (
                "Position ID heeft een ongeldig teken '!' op plaats 13 "
                "(verwacht: A-Z, a-z, 0-9, + of /)"
            )

            # A play the notation reader cannot read, by the player on roll.
            table = await alice.create(length=1)
            sockets = {
                lang: await _socket(player, table, **({"Accept-Language": lang} if lang else {}))
                for player, lang in ((alice, "fi"), (bob, "nl"))
            }
            a, b = sockets["fi"], sockets["nl"]
            try:
                assert (await b.request({"type": "join"}))["type"] == "ack"
                for sock in (a, b):
                    await sock.until(lambda m: m["type"] == "state" and m["status"] == "playing")
                by_side = {a.state["you"]: a, b.state["you"]: b}  # type: ignore[index]
                state = await by_side[0].act({"type": "roll"})
                mover = state["game"]["turn"]
                d1, d2 = state["game"]["dice"]
                roll = f"{d1}-{d2}"
                refused = await by_side[mover].request({"type": "play", "play": "13/x"})
                assert refused["code"] == "illegal_play"
                english = (
                    f"'13/x' cannot be played with {roll}: "
                    "cannot read '13/x': 'x' is not a point (use 1-24, bar or off)"
                )
                expected = {
                    a: f"siirtoa '13/x' ei voi pelata heitolla {roll}: "
                    "kohtaa '13/x' ei voi lukea: 'x' ei ole kiila (käytä 1-24, bar tai off)",
                    b: f"'13/x' kan niet gespeeld worden met {roll}: "
                    "'13/x' is niet te lezen: 'x' is geen punt (gebruik 1-24, bar of off)",
                }
                assert refused["message"] == expected[by_side[mover]]
                with pytest.raises(InvalidPlayError) as exc:  # the library's English, as before
                    Position.initial().parse_play("13/x", (d1, d2))
                assert f"'13/x' cannot be played with {roll}: {exc.value}" == english
            finally:
                await a.close()
                await b.close()
        finally:
            await alice.close()
            await bob.close()

    run(scenario())


def test_an_xgid_s_errors_on_the_analysis_board_in_each_language(server: ServerProcess) -> None:
    """The XGID checks' refusals on the analysis board (gammon/xgid.py), posted as the
    Position ID above is: a position the player never typed as an XGID (a Position ID with
    its Match ID, a setup made by hand) is refused without the word XGID in every language;
    a pasted XGID is named, as the player wrote it; the English as before."""

    async def scenario() -> None:
        bob = await Player(server).signup()
        try:

            async def three(body: object) -> list[dict[str, Any]]:
                errors = []
                for lang in ("fi", "nl", None):
                    headers = {"Accept-Language": lang} if lang else {}
                    errors.append(_error(await bob.post("/api/board", body, **headers)))
                return errors

            # A Match ID with the cube at 2048, above the XGID's highest cube (1024).
            fi, nl, en = await three({"text": "4HPwATDgc/ABMA:CwEAAAAAAAAE"})
            assert {(e["code"], e["field"]) for e in (fi, nl, en)} == {("bad_setup", "text")}
            assert en["message"] == "cube value 2048 is above the max cube 1024"
            assert fi["message"] == (
                "tuplauskuution arvo 2048 on suurempi kuin suurin sallittu arvo 1024"
            )
            assert nl["message"] == (
                "de waarde 2048 van de verdubbelingskubus ligt boven de hoogst toegestane, 1024"
            )

            start = [0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [2, 0]
            fi, nl, en = await three({"setup": {"mine": start, "theirs": start, "dice": [7, 1]}})
            assert {(e["code"], e["field"]) for e in (fi, nl, en)} == {("bad_setup", "setup")}
            assert en["message"] == "dice must be (0, 0) or two numbers 1-6, got (7, 1)"
            assert fi["message"] == "noppien on oltava (0, 0) tai kaksi lukua 1\u20136, ei (7, 1)"
            assert nl["message"] == (
                "de dobbelstenen moeten (0, 0) of twee getallen 1-6 zijn, niet (7, 1)"
            )

            turn_0 = "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10"  # 0: no one's turn
            fi, nl, en = await three({"text": turn_0})
            assert {(e["code"], e["field"]) for e in (fi, nl, en)} == {("bad_setup", "text")}
            assert en["message"] == "XGID turn must be 1 (bottom) or -1 (top), got 0"
            assert fi["message"] == "XGID: vuoron on oltava 1 (alempi) tai -1 (ylempi), ei 0"
            assert nl["message"] == "XGID: de beurt moet 1 (onder) of -1 (boven) zijn, niet 0"
        finally:
            await bob.close()

    run(scenario())


def _refusals() -> list[GammonError]:
    """Errors of the rules library and refusals of a tournament, as the server meets them."""
    from gammon.match import Match
    from gammon.server.tournaments.settings import TournamentSettings
    from gammon.server.tournaments.state import Tournament
    from gammon.variants import find_variant
    from gammon.written import read_given

    errors: list[GammonError] = []
    start = Position.initial()
    for text, dice in [
        ("6/off", (6, 5)),
        ("24/18 24/18", (6, 5)),
        ("13/7*", (6, 1)),
        ("13/1", (2, 1)),
        ("8/9", (3, 1)),
        ("13/10 13/10 13/10", (3, 1)),
        ("pass", (3, 1)),
    ]:
        with pytest.raises(GammonError) as exc:
            start.parse_play(text, dice)
        errors.append(exc.value)
    for text in (
        "4HPwATDgc/AB!A",
        "4HPwATDgc",
        "4HPwATDgc/ABMB",
        "/////////////w",
        "4HPwATDgc/ABMA:sAEAAAAAAAAE",  # a Match ID with the Crawford flag in money play
        "AAAAAAAAAAAAAA",  # no checker on the board: both sides have borne off
    ):
        with pytest.raises(GammonError) as exc:
            read_given(text, find_variant("standard"))
        errors.append(exc.value)
    cup = Tournament(1, TournamentSettings.from_json({"name": "C", "seats": 2}), creator_id=None,
                     created=0.0)  # fmt: skip
    register = {"type": "register", "user": 1, "name": "ann"}
    cup.apply(register, actor_id=1, at=1.0)
    for action, actor in [
        (register, 1),
        ({"type": "withdraw", "user": 1}, 1),
        ({"type": "unregister", "user": 1}, 2),
        ({"type": "start", "seed": "00"}, 1),
        ({"type": "result", "match": 1, "winner": 1}, None),
        ({"type": "dance"}, 1),
    ]:
        with pytest.raises(GammonError) as exc:
            cup.apply(action, actor_id=actor, at=2.0)
        errors.append(exc.value)
    match = Match(1)
    match.game.forfeit(0)
    assert match.is_over
    with pytest.raises(GammonError) as exc:
        match.take_back(0)
    errors.append(exc.value)
    return errors


#: Words a translation keeps from the English: names, the notation's and the protocol's.
_KEPT = set(
    [
        "position",
        "match",
        "bar",
        "bars",
        "off",
        "user",
        "name",
        "seed",
        "start",
        "register",
        "withdraw",
        "unregister",
        "table",
        "arrived",
        "result",
        "no_show",
        "remove",
        "cancel",
        "add_bots",
        "dance",
        "type",
        "json",
        "gammon",
        "backgammon",
        "blot",
        "pips",
        "hex",
        "bytes",
        "bits",
        "bit",
        "over",
        "crawford",
    ]  # "over": Norwegian's own word too ("er over")
)


@pytest.mark.parametrize("lang", ["fi", "sv", "nb", "nl"])
def test_the_rules_and_tournament_refusals_carry_the_english_figures_fully_translated(
    lang: str,
) -> None:
    """Each refusal in each language: the figures of the English, none of its words left
    (but names and the notation's words), and the English ``str()`` as it was."""
    errors = _refusals()
    assert str(errors[0]) == (
        "cannot bear off: checkers still outside the home board (on 24, 13 and 8)"
    )
    for error in errors:
        english, words = str(error), error.translated(lang)
        if isinstance(error, Refused):
            english = error.message
        assert words != english, (lang, english)
        assert sorted(re.findall(r"\d+", words)) == sorted(re.findall(r"\d+", english)), words
        left = {w for w in re.findall(r"[A-Za-z_]{4,}", english) if w.lower() not in _KEPT} & set(
            re.findall(r"[A-Za-z_]{4,}", words)
        )
        assert not left, (lang, words, left)


def test_a_socket_closed_for_good_says_why_in_its_language(server: ServerProcess) -> None:
    """The reason of a close the browser shows the player (4401 signed out, 4404 no such
    table) comes in the language of the socket's upgrade; without one, English as before."""
    from websockets.exceptions import ConnectionClosed

    async def closed_with(ws: Any) -> tuple[int, str]:
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 30)
        assert closed.value.rcvd is not None
        return closed.value.rcvd.code, closed.value.rcvd.reason

    async def scenario() -> None:
        player = await Player(server).signup()
        table = await player.create(length=1)
        finnish = await _socket(player, table, **{"Accept-Language": "fi"})
        english = await _socket(player, table)
        await player.post("/api/logout")
        assert await closed_with(finnish.ws) == (4401, "kirjauduttu ulos")
        assert await closed_with(english.ws) == (4401, "signed out")
        for path, dutch in (
            ("/ws/tables/999999", "er is geen tafel 999999"),
            ("/ws/tournaments/999999", "er is geen toernooi 999999"),
        ):
            async with connect(
                f"{server.ws_url}{path}", additional_headers={"Accept-Language": "nl"}
            ) as ws:
                assert await closed_with(ws) == (4404, dutch)
        async with connect(f"{server.ws_url}/ws/tables/999999") as ws:
            assert await closed_with(ws) == (4404, "there is no table 999999")
        await player.close()

    run(scenario())


def test_an_upload_that_cannot_be_read_is_refused_in_the_request_s_language(
    server: ServerProcess,
) -> None:
    """A file that is not a match, a broken .sgf, and a .mat whose play breaks the rules:
    the sentence in the reader's language; the format's own reason inside (its line, its
    terms) as the format's reader writes it, with the same figures."""
    from pathlib import Path

    one_point = (Path(__file__).resolve().parents[1] / "vectors" / "one_point.mat").read_text()
    illegal = one_point.replace("8/5 6/5", "8/2 6/2", 1)
    assert illegal != one_point

    async def refused(player: Player, name: str, body: bytes, lang: str) -> dict[str, Any]:
        response = await player.http.post(
            f"/api/analyses?name={name}",
            content=body,
            headers={
                "X-CSRF-Token": await player.csrf(),
                "Content-Type": "application/octet-stream",
                "Accept-Language": lang,
            },
        )
        return _error(response)

    async def scenario() -> None:
        player = await Player(server).guest()
        try:
            cases = [
                ("notes.mat", b"dear diary\n"),
                ("broken.sgf", b"(;FF[4]GM[6]"),
                ("bad.mat", illegal.encode()),
            ]
            for name, body in cases:
                english = await refused(player, name, body, "en")
                finnish = await refused(player, name, body, "fi")
                dutch = await refused(player, name, body, "nl")
                assert english["code"] == finnish["code"] == dutch["code"] == "bad_file"
                assert english["message"].startswith("this is not a "), english
                assert finnish["message"].startswith("tämä ei ole "), finnish
                assert dutch["message"].startswith("dit is geen "), dutch
                # The same reason inside, read as each language writes it: its figures kept.
                figures = re.findall(r"\d+", english["message"])
                assert re.findall(r"\d+", finnish["message"]) == figures, finnish
        finally:
            await player.close()

    run(scenario())
