"""The lobby's pages (gammon.server.lobby): the order, the filters, paging, and a socket
sent its page only when that page changed (issue 17, "Ready for 100,000 games")."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest

from gammon.server.auth import UserInfo
from gammon.server.client_vocabulary import LOBBY_MESSAGES, TOURNAMENT_MESSAGES
from gammon.server.connections import Connection, Socket
from gammon.server.lobby import DEFAULT_PAGE_SIZE, Lobby, LobbyView, ordered, page_of
from gammon.server.protocol import Refused, parse_message
from gammon.server.timesource import ManualTime

RATINGS = {1: 1400.0, 2: 1600.0, 3: 1800.0}


def entry(
    table_id: int,
    status: str = "open",
    *,
    length: int | None = 3,
    variant: str = "standard",
    rated: bool = True,
    seats: tuple[int | None, int | None] = (1, None),
    invite: int | None = None,
) -> dict[str, Any]:
    """A lobby entry as LobbySockets.entry writes it."""
    settings = {
        "mode": "match" if length else "money",
        "length": length,
        "variant": variant,
        "rated": rated,
    }
    return {
        "summary": {"id": table_id, "status": status, "settings": settings, "players": ["a", None]},
        "seats": [[user, None] if user is not None else None for user in seats],
        "invite_id": invite,
        "creator_id": seats[0],
    }


def rating(user_id: int | None, bot: str | None) -> float | None:
    return RATINGS.get(user_id) if user_id is not None else None


def ids(page: dict[str, Any]) -> list[int]:
    return [table["id"] for table in page["tables"]]


def test_open_tables_come_first_then_playing_ones_newest_first() -> None:
    tables = ordered(
        [entry(1, "playing"), entry(2), entry(3, "finished"), entry(4, "playing"), entry(5)]
    )
    assert [one["summary"]["id"] for one in tables] == [5, 2, 4, 1]
    shown = page_of(tables, LobbyView(status="all"), None, rating)["tables"]
    assert shown[0]["ratings"] == [1400.0, None]


def test_the_view_filters_by_status_length_variant_rated_and_rating() -> None:
    tables = ordered(
        [
            entry(1, "playing", seats=(1, 2)),
            entry(2, length=5),
            entry(3, variant="tavla"),
            entry(4, rated=False),
            entry(5, length=None),
            entry(6, seats=(3, None)),
            entry(7, seats=(None, None)),
        ]
    )

    def shown(**fields: Any) -> list[int]:
        return ids(page_of(tables, LobbyView.from_fields(fields), None, rating))

    assert shown() == [7, 6, 5, 4, 3, 2]  # the default: open tables only
    assert shown(status="playing") == [1]
    assert shown(status="all") == [7, 6, 5, 4, 3, 2, 1]
    assert shown(length=5) == [2]
    assert shown(length=3, variant="tavla") == [3]
    assert shown(rated=False) == [5, 4]  # a money session is never rated
    assert shown(rating=[1700, 1900]) == [6]
    # Every known rating in the range: 1400 and 1600 are not both in 1500-1700.
    assert shown(status="playing", rating=[1500, 1700]) == []
    assert shown(status="playing", rating=[1400, 1600]) == [1]


def test_pages_count_the_matching_tables_and_the_last_page_stands_for_any_beyond() -> None:
    tables = ordered([entry(n) for n in range(1, 121)])
    first = page_of(tables, LobbyView(), None, rating)
    assert len(first["tables"]) == DEFAULT_PAGE_SIZE and first["tables"][0]["id"] == 120
    assert (first["total"], first["page"], first["pages"]) == (120, 0, 3)
    third = page_of(tables, LobbyView(page=2), None, rating)
    assert ids(third) == list(range(20, 0, -1))
    beyond = page_of(tables, LobbyView(page=9, size=100), None, rating)
    assert (beyond["page"], beyond["pages"], len(beyond["tables"])) == (1, 2, 20)
    empty = page_of([], LobbyView(page=3), None, rating)
    assert (empty["tables"], empty["total"], empty["page"], empty["pages"]) == ([], 0, 0, 1)


def test_an_invitation_is_seen_by_the_two_it_concerns_only() -> None:
    tables = ordered([entry(1, seats=(1, None), invite=2), entry(2)])
    assert ids(page_of(tables, LobbyView(), None, rating)) == [2]
    assert ids(page_of(tables, LobbyView(), 3, rating)) == [2]
    assert ids(page_of(tables, LobbyView(), 1, rating)) == [2, 1]
    assert ids(page_of(tables, LobbyView(), 2, rating)) == [2, 1]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"status": "finished"}, "status"),
        ({"length": 0}, "length"),
        ({"length": "3"}, "length"),
        ({"variant": "chess"}, "variant"),
        ({"rated": 1}, "rated"),
        ({"rating": [1600, 1400]}, "rating"),
        ({"rating": [1400]}, "rating"),
        ({"rating": [1400, True]}, "rating"),
        ({"page": -1}, "page"),
        ({"size": 0}, "size"),
        ({"size": 201}, "size"),
        ({"sort": "rating"}, "sort"),
    ],
)
def test_a_bad_view_is_refused_naming_its_field(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(Refused) as refused:
        parse_message(json.dumps({"type": "lobby_view", **fields}), LOBBY_MESSAGES)
    assert (refused.value.code, refused.value.field) == ("bad_message", field)


def test_a_null_field_is_the_default_and_a_tournament_socket_has_no_lobby_view() -> None:
    message = parse_message('{"type": "lobby_view", "status": null, "size": 10}', LOBBY_MESSAGES)
    assert LobbyView.from_fields(message.fields) == LobbyView(size=10)
    with pytest.raises(Refused) as refused:
        parse_message('{"type": "lobby_view"}', TOURNAMENT_MESSAGES)
    assert refused.value.code == "unknown_type"


def test_the_query_of_get_api_tables_reads_as_the_message() -> None:
    view = LobbyView.from_query(
        {
            "status": "playing",
            "length": "5",
            "variant": "tavla",
            "rated": "true",
            "rating": "1400,1600.5",
            "page": "2",
            "size": "10",
        }
    )
    assert view == LobbyView("playing", 5, "tavla", True, (1400.0, 1600.5), 2, 10)
    for query, field in [
        ({"length": "3x"}, "length"),
        ({"rating": "1400"}, "rating"),
        ({"rating": "nan,1600"}, "rating"),
        ({"rated": "yes"}, "rated"),
        ({"size": "-1"}, "size"),
        ({"colour": "red"}, "colour"),
        ({"type": "chat"}, "type"),
    ]:
        with pytest.raises(Refused) as refused:
            LobbyView.from_query(query)
        assert (refused.value.code, refused.value.field) == ("bad_request", field), query


class _Lobby:
    """A lobby over entries a test changes, with sockets whose sent messages it reads."""

    def __init__(self, entries: list[dict[str, Any]]) -> None:
        self.entries = entries
        self.lobby = Lobby(set(), lambda: self.entries, rating, lambda: {"tournaments": []})

    def connect(self, user: UserInfo | None) -> Connection:
        conn = Connection(cast(Socket, None), user)
        self.lobby.join(conn)
        self.lobby.show(conn)
        return conn


def received(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def test_a_socket_is_sent_its_page_only_when_that_page_changed() -> None:
    world = _Lobby([entry(n) for n in range(1, 61)] + [entry(100, "playing")])
    default = world.connect(None)
    watcher = world.connect(UserInfo(9, "watcher"))
    (first,) = received(default)
    assert (first["total"], first["pages"], len(first["tables"])) == (60, 2, 50)
    assert first["view"]["status"] == "open" and first["tournaments"] == []
    assert received(watcher)[0]["you"] == UserInfo(9, "watcher").to_json()
    world.lobby.choose(watcher, {"status": "playing"}, 7)
    ack, playing = received(watcher)
    assert ack == {"type": "ack", "id": 7} and ids(playing) == [100]
    # A table changes on the second page of the open ones: nobody's page changed.
    world.entries[0] = entry(1, length=5)
    assert world.lobby.push() == 0
    assert received(default) == received(watcher) == []
    # The playing table's score changes: only its watcher hears of it.
    world.entries[-1]["summary"]["score"] = [1, 0]
    assert world.lobby.push() == 1
    assert received(default) == [] and ids(received(watcher)[0]) == [100]
    # A new open table: the first page of the open ones changed.
    world.entries.append(entry(200))
    assert world.lobby.push() == 1
    (newest,) = received(default)
    assert newest["tables"][0]["id"] == 200 and newest["total"] == 61
    world.lobby.leave(default)
    world.entries.append(entry(201))
    assert world.lobby.push() == 0 and received(default) == []


def test_an_invited_player_gets_their_own_page_and_others_share_one() -> None:
    world = _Lobby([entry(1), entry(2, seats=(1, None), invite=2)])
    invited, other = world.connect(UserInfo(2, "bob")), world.connect(UserInfo(3, "carol"))
    assert ids(received(invited)[0]) == [2, 1] and ids(received(other)[0]) == [1]


def test_changes_are_pushed_together_after_the_debounce() -> None:
    world = _Lobby([entry(1)])
    clock = world.lobby.time = ManualTime()
    conn = world.connect(None)
    received(conn)
    for n in range(2, 5):
        world.entries.append(entry(n))
        world.lobby.changed()
    clock.advance(world.lobby.debounce_s / 2)
    assert received(conn) == []
    clock.advance(world.lobby.debounce_s / 2)
    (pushed,) = received(conn)
    assert ids(pushed) == [4, 3, 2, 1]
