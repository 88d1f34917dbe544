"""The table's one translator: every action and refusal both ways, round trips."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.actions import (
    ACTION_NAMES,
    AcceptResignation,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Forfeit,
    OutOfTime,
    PlayDice,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.events import EndReason, GameResult, WinKind
from gammon.server.protocol import Refused
from gammon.server.table_actions import (
    Cancel,
    LastAction,
    NoShow,
    Seat,
    Start,
    TableResult,
    TableStatus,
    TakeBack,
    Unseated,
)
from gammon.server.table_codec import (
    action_from_json,
    action_json,
    last_json,
    result_json,
    seat_from_json,
    table_result_from_json,
    table_result_json,
)

#: Each action as the log has always stored it, and its value (side 1 sends it).
LOGGED: list[tuple[dict[str, Any], object]] = [
    ({"type": "roll"}, Roll(1)),
    ({"type": "play", "play": "24/18 13/11"}, PlayDice(1, "24/18 13/11")),
    ({"type": "choose_double", "number": 4}, ChooseDouble(1, 4)),
    ({"type": "double"}, Double(1)),
    ({"type": "take"}, Take(1)),
    ({"type": "drop"}, Drop(1)),
    ({"type": "beaver"}, Beaver(1)),
    ({"type": "resign", "value": 2}, Resign(1, 2)),
    ({"type": "accept_resignation"}, AcceptResignation(1)),
    ({"type": "reject_resignation"}, RejectResignation(1)),
    ({"type": "forfeit"}, Forfeit(1)),
    ({"type": "timeout", "side": 1}, OutOfTime(1)),
    ({"type": "take_back"}, TakeBack()),
]
#: The table's own actions, which no side sends.
SERVERS: list[tuple[dict[str, Any], object]] = [
    (
        {
            "type": "start",
            "seats": [
                {"user": 7, "name": "alice", "bot": None},
                {"user": None, "name": "gammon-easy", "bot": "easy"},
            ],
        },
        Start((Seat(7, "alice"), Seat(None, "gammon-easy", "easy"))),
    ),
    ({"type": "cancel"}, Cancel()),
    ({"type": "no_show"}, NoShow()),
]


def test_every_rules_action_is_covered() -> None:
    assert {data["type"] for data, _ in LOGGED} >= set(ACTION_NAMES)


@pytest.mark.parametrize(("data", "value"), LOGGED + SERVERS)
def test_each_logged_action_reads_as_its_value_and_writes_back_the_same_bytes(
    data: dict[str, Any], value: object
) -> None:
    side = 1 if data in [d for d, _ in LOGGED] else None
    assert action_from_json(data, side) == value
    assert action_json(action_from_json(data, side)) == data


def test_moves_given_as_pairs_become_the_plays_notation() -> None:
    value = action_from_json({"type": "play", "moves": [[25, 22], [6, 0]]}, 0)
    assert value == PlayDice(0, "bar/22 6/off")
    assert action_json(value) == {"type": "play", "play": "bar/22 6/off"}


def test_a_seat_without_a_bot_field_reads_as_a_person() -> None:
    assert seat_from_json({"user": 3, "name": "carol"}) == Seat(3, "carol")


def test_an_action_of_the_series_from_no_side_is_unseated() -> None:
    """The creator of a table not started has no side: the table refuses what they send."""
    assert action_from_json({"type": "roll"}, None) == Unseated("roll")
    assert action_json(Unseated("roll")) == {"type": "roll"}


def test_an_unknown_type_is_refused_as_before() -> None:
    with pytest.raises(Refused) as refused:
        action_from_json({"type": "castle"}, 0)
    assert refused.value.code == "unknown_type"
    assert str(refused.value) == "unknown_type: unknown action 'castle'"


def test_results_as_the_protocol_writes_them() -> None:
    table = TableResult(None, "no_show", (2, 1))
    assert table_result_json(table) == {"winner": None, "reason": "no_show", "score": [2, 1]}
    assert table_result_json(None) is None
    game = GameResult(winner=0, kind=WinKind.GAMMON, points=4, reason=EndReason.RESIGNATION)
    assert result_json(game) == {
        "winner": 0,
        "points": 4,
        "kind": "gammon",
        "reason": str(EndReason.RESIGNATION),
    }


def test_last_keeps_the_order_of_the_fields_the_clients_read() -> None:
    last = LastAction(9, 1, OutOfTime(1), 2, ({"type": "forfeited"},))
    assert list(last_json(last) or {}) == ["seq", "side", "type", "game", "events"]
    played = last_json(LastAction(3, 0, PlayDice(0, "8/5 6/5"), 1, ()))
    assert played == {
        "seq": 3, "side": 0, "type": "play", "play": "8/5 6/5", "game": 1, "events": [],
    }  # fmt: skip


def test_status_values_are_the_protocols_words() -> None:
    assert [str(s) for s in TableStatus] == ["open", "playing", "finished", "cancelled"]
    assert [s.ended for s in TableStatus] == [False, False, True, True]


names = st.text(min_size=1, max_size=12)
seats = st.builds(
    Seat, st.none() | st.integers(1, 10**6), names, st.none() | st.sampled_from(["easy", "expert"])
)


@given(st.tuples(seats, seats))
def test_a_start_round_trips(pair: tuple[Seat, Seat]) -> None:
    start = Start(pair)
    assert action_from_json(action_json(start), None) == start


@given(
    st.sampled_from(sorted(ACTION_NAMES)),
    st.integers(0, 1),
    st.integers(1, 6),
    st.integers(1, 3),
)
def test_every_rules_action_round_trips(name: str, side: int, number: int, value: int) -> None:
    arguments = {"play": {"play": "13/7 8/7"}, "choose_double": {"number": number}}
    data = {
        "type": name,
        **arguments.get(name, {}),
        **({"value": value} if name == "resign" else {}),
    }
    action = action_from_json(data, side)
    assert action.side == side  # type: ignore[union-attr]
    assert action_from_json(action_json(action), side) == action


@given(st.none() | st.integers(0, 1), st.text(min_size=1), st.integers(0, 25), st.integers(0, 25))
def test_a_table_result_round_trips(winner: int | None, reason: str, a: int, b: int) -> None:
    result = TableResult(winner, reason, (a, b))
    data = table_result_json(result)
    assert data is not None and table_result_from_json(data) == result
