"""Tournaments as state machines (gammon.server.tournaments): draws, byes, rounds, leaving,
no-shows, bots, satellites, cancelling, and replay from the log."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from gammon.server.tournaments import (
    Record,
    Tournament,
    TournamentError,
    TournamentSettings,
    bracket_size,
    draw,
    round_name,
    seed_order,
)

LEVELS = ("beginner", "expert")


def settings(**values: Any) -> TournamentSettings:
    return TournamentSettings.from_json({"name": "Test cup", **values}, bot_levels=LEVELS)


class Driver:
    """A tournament with its log, applied as the server would (and replayable)."""

    def __init__(self, chosen: TournamentSettings, *, creator: int | None = 100) -> None:
        self.t = Tournament(7, chosen, creator_id=creator, created=0.0)
        self.log: list[Record] = []
        self.events: list[dict[str, Any]] = []

    def do(
        self, action: dict[str, Any], *, by: int | None = None, operator: bool = False, at: float
    ) -> list[dict[str, Any]]:
        applied = self.t.apply(action, actor_id=by, operator=operator, at=at)
        self.log.append(applied.record)
        self.events.extend(applied.events)
        return applied.events

    def register(self, *users: int, at: float = 1.0) -> None:
        for user in users:
            self.do({"type": "register", "user": user, "name": f"p{user}"}, by=user, at=at)

    def start(self, at: float = 2.0, seed: str = "5eed") -> list[dict[str, Any]]:
        return self.do({"type": "start", "seed": seed}, at=at)

    def win(self, number: int, slot: int = 0, at: float = 3.0, how: str = "played") -> None:
        winner = self.t.match(number).players[slot]
        self.do({"type": "result", "match": number, "winner": winner, "how": how}, at=at)

    def replayed(self) -> Tournament:
        return Tournament.replay(
            7, self.t.settings, creator_id=self.t.creator_id, created=0.0, records=self.log
        )


def unchanged(driver: Driver, action: dict[str, Any], code: str, **kw: Any) -> None:
    """The action is refused with ``code`` and the tournament is exactly as before."""
    before = driver.t.to_json()
    seq = driver.t.seq
    with pytest.raises(TournamentError) as caught:
        driver.t.apply(
            action, actor_id=kw.get("by"), operator=kw.get("operator", False), at=kw.get("at", 1.0)
        )
    assert caught.value.code == code, caught.value
    assert isinstance(caught.value, ValueError)
    assert driver.t.to_json() == before and driver.t.seq == seq


# -- the bracket ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 40))
def test_every_bye_meets_a_player_and_each_player_appears_once(players: int) -> None:
    for seed in range(5):
        slots = draw(list(range(players)), random.Random(seed))
        size = bracket_size(players)
        assert len(slots) == size and size // 2 < players <= size
        assert sorted(s for s in slots if s is not None) == list(range(players))
        pairs = [slots[i : i + 2] for i in range(0, size, 2)]
        assert all(pair != [None, None] for pair in pairs)
        assert sum(None in pair for pair in pairs) == size - players


def test_byes_are_spread_over_the_halves_of_the_bracket() -> None:
    # 5 players in 8 slots: 3 byes; never all in one half, so the second round is not
    # played between byes on one side while the other side waits.
    for seed in range(20):
        slots = draw(list(range(5)), random.Random(seed))
        halves = [slots[:4].count(None), slots[4:].count(None)]
        assert sorted(halves) == [1, 2]


def test_the_draw_is_by_lot() -> None:
    firsts = Counter(draw(list(range(4)), random.Random(seed))[0] for seed in range(400))
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 60


def test_seed_order_and_round_names() -> None:
    assert seed_order(16)[:4] == [1, 16, 8, 9]
    for size in (2, 4, 8, 16, 32):
        order = seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    assert [round_name(r, 3) for r in (1, 2, 3)] == ["quarter-finals", "semi-finals", "final"]
    with pytest.raises(ValueError):
        seed_order(6)
    with pytest.raises(ValueError):
        bracket_size(1)


# -- a Sit & Go from registration to its winner ------------------------------------------


def play_out(driver: Driver, rng: random.Random, at: float = 10.0) -> None:
    while driver.t.status == "running":
        ready = [m for m in driver.t.matches if m.status == "ready"]
        match = rng.choice(ready)
        driver.win(match.number, rng.randrange(2), at=at)
        at += 1


def test_an_eight_seat_sit_and_go_runs_to_its_winner() -> None:
    d = Driver(settings(kind="sit_and_go", seats=8, lengths=[3, 5, 7]))
    d.register(*range(1, 8))
    assert d.t.due(1.5) == []
    unchanged(d, {"type": "start", "seed": "00"}, "not_due")
    d.register(8)
    assert d.t.due(1.5) == [{"type": "start"}]
    events = d.start()
    assert [e["type"] for e in events] == ["drawn"] + ["match_ready"] * 4
    assert [m.length for m in d.t.matches] == [3, 3, 3, 3, 5, 5, 7]
    assert sorted(p for m in d.t.rounds[0] for p in m.players if p is not None) == list(range(1, 9))
    play_out(d, random.Random(3))
    assert d.t.status == "finished" and d.t.winner is not None
    final = d.t.match(7)
    assert d.t.winner == final.winner
    places = [row["place"] for row in d.t.standings()]
    assert places == ["1", "2", "3-4", "3-4", "5-8", "5-8", "5-8", "5-8"]
    assert [e["type"] for e in d.events].count("match_over") == 7
    assert d.events[-1]["type"] == "finished" and d.events[-1]["winner"] == d.t.winner
    assert d.replayed().to_json() == d.t.to_json()


def test_sit_and_go_seats_registration_and_unregistration() -> None:
    d = Driver(settings(seats=4))
    d.register(1, 2)
    unchanged(d, {"type": "register", "user": 1, "name": "p1"}, "already_registered", by=1)
    unchanged(d, {"type": "register", "user": 3, "name": "p3"}, "forbidden", by=2)
    d.do({"type": "unregister", "user": 2}, by=2, at=1.0)
    unchanged(d, {"type": "unregister", "user": 2}, "not_registered", by=2)
    d.register(2, 3, 4)
    unchanged(d, {"type": "register", "user": 5, "name": "p5"}, "full", by=5)
    d.start()
    unchanged(d, {"type": "register", "user": 5, "name": "p5"}, "not_registering", by=5)
    unchanged(d, {"type": "unregister", "user": 1}, "not_registering", by=1)
    assert d.replayed().to_json() == d.t.to_json()


# -- scheduled: the field at the start time, byes, odd counts -------------------------------


@pytest.mark.parametrize("players", [2, 3, 5, 6, 7, 9, 13])
def test_a_scheduled_tournament_with_any_count_finishes(players: int) -> None:
    d = Driver(settings(kind="scheduled", seats=32, start_at=100))
    d.register(*range(1, players + 1))
    unchanged(d, {"type": "start", "seed": "ab"}, "not_due", at=99.0)
    assert d.t.due(99.0) == [] and d.t.next_deadline() == 100
    assert d.t.due(100.0) == [{"type": "start"}]
    d.start(at=100.0)
    size = bracket_size(players)
    byes = [e for e in d.events if e["type"] == "match_over" and e["how"] == "bye"]
    assert len(byes) == size - players
    play_out(d, random.Random(players), at=101.0)
    assert d.t.status == "finished" and d.t.winner in range(1, players + 1)
    assert len(d.t.standings()) == players
    assert d.replayed().to_json() == d.t.to_json()


def test_registration_closes_at_the_start_and_opens_when_announced() -> None:
    d = Driver(settings(kind="scheduled", seats=8, start_at=100, registration_opens_at=50))
    unchanged(d, {"type": "register", "user": 1, "name": "p1"}, "not_open_yet", by=1, at=10.0)
    d.register(1, at=60.0)
    unchanged(d, {"type": "register", "user": 2, "name": "p2"}, "too_late", by=2, at=100.0)


def test_too_few_players_at_the_start_cancels() -> None:
    d = Driver(settings(kind="scheduled", seats=8, min_players=4, start_at=100))
    d.register(1, 2, 3)
    events = d.start(at=100.0)
    assert d.t.status == "cancelled" and events[0]["type"] == "cancelled"
    assert "not enough players" in events[0]["reason"]


# -- leaving, removal, no-shows --------------------------------------------------------------


def four_running(**values: Any) -> Driver:
    d = Driver(settings(seats=4, **values))
    d.register(1, 2, 3, 4)
    d.start()
    return d


def test_a_player_dropping_between_rounds_gives_a_walkover() -> None:
    d = four_running()
    d.win(1, 0)
    dropper = d.t.match(1).winner
    assert dropper is not None
    user = d.t.entry(dropper).user_id
    events = d.do({"type": "withdraw", "user": user}, by=user, at=4.0)
    assert events[0]["type"] == "withdrew"
    assert d.t.match(3).players[0] is None and d.t.match(3).status == "waiting"
    d.win(2, 1)
    final = d.t.match(3)
    assert final.status == "over" and final.how == "walkover"
    assert d.t.winner == d.t.match(2).winner and d.t.status == "finished"
    places = {row["entry"]: row["place"] for row in d.t.standings()}
    assert places[dropper] == "2"  # won the semi-final, then left: out in the final
    assert d.replayed().to_json() == d.t.to_json()


def test_a_player_leaving_mid_match_loses_it() -> None:
    d = four_running()
    a, b = d.t.match(2).players
    assert a is not None and b is not None
    user = d.t.entry(a).user_id
    d.do({"type": "table", "match": 2, "table": 55}, at=2.5)
    events = d.do({"type": "withdraw", "user": user}, by=user, at=3.0)
    over = events[1]
    assert over == {
        "type": "match_over",
        "match": 2,
        "winner": b,
        "losers": [a],
        "how": "withdrew",
        "table": 55,
    }
    assert d.t.entry(a).out == "withdrew"
    # The table's own result, arriving afterwards, is refused: the match is decided.
    unchanged(d, {"type": "result", "match": 2, "winner": b}, "match_over")
    unchanged(d, {"type": "withdraw", "user": user}, "illegal_action", by=user)


def test_the_operator_removes_a_player_and_cancels() -> None:
    d = four_running()
    a = d.t.match(1).players[0]
    assert a is not None
    user = d.t.entry(a).user_id
    assert user is not None
    unchanged(d, {"type": "remove", "user": user}, "forbidden", by=100)
    d.do({"type": "remove", "user": user}, by=1, operator=True, at=3.0)
    assert d.t.entry(a).out == "removed" and d.t.match(1).how == "removed"
    d.do({"type": "table", "match": 2, "table": 9}, at=3.0)
    # The creator may cancel only before the start; an operator at any time.
    unchanged(d, {"type": "cancel"}, "forbidden", by=100)
    events = d.do({"type": "cancel", "reason": "server maintenance"}, by=1, operator=True, at=4.0)
    assert events == [{"type": "cancelled", "reason": "server maintenance", "tables": [9]}]
    unchanged(d, {"type": "cancel"}, "illegal_action", operator=True, by=1)


def test_removal_before_the_start_takes_the_registration() -> None:
    d = Driver(settings(seats=4))
    d.register(1, 2)
    d.do({"type": "remove", "user": 2}, by=9, operator=True, at=1.0)
    assert d.t.registered == [1]
    d.do({"type": "cancel"}, by=100, at=1.5)  # the creator, before the start
    assert d.t.status == "cancelled"


def test_a_no_show_forfeits_on_the_clock() -> None:
    d = four_running(show_up_s=60)
    m1, m2 = d.t.match(1), d.t.match(2)
    assert d.t.next_deadline() == 62.0  # started at 2.0
    d.do({"type": "arrived", "match": 1, "entry": m1.players[1]}, at=10.0)
    unchanged(d, {"type": "arrived", "match": 1, "entry": m1.players[1]}, "illegal_action")
    for slot in (0, 1):
        d.do({"type": "arrived", "match": 2, "entry": m2.players[slot]}, at=10.0)
    assert d.t.due(61.0) == []
    unchanged(d, {"type": "no_show", "match": 1}, "not_due", at=61.0)
    unchanged(d, {"type": "no_show", "match": 1}, "forbidden", by=5, at=62.0)
    assert d.t.due(62.0) == [{"type": "no_show", "match": 1}]
    d.do({"type": "no_show", "match": 1}, at=62.0)
    assert m1.winner == m1.players[1] and m1.how == "no_show"
    assert d.t.entry(m1.players[0]).out == "no_show"  # type: ignore[arg-type]
    unchanged(d, {"type": "no_show", "match": 2}, "illegal_action", at=70.0)
    assert d.replayed().to_json() == d.t.to_json()


def test_when_neither_player_comes_nobody_goes_through() -> None:
    d = four_running(show_up_s=60)
    d.do({"type": "no_show", "match": 1}, at=62.0)
    assert d.t.match(1).winner is None and d.t.match(3).players[0] is None
    d.win(2, 0, at=70.0)
    assert d.t.match(3).how == "walkover" and d.t.winner == d.t.match(2).winner


# -- bots fill a Sit & Go --------------------------------------------------------------------


def test_bots_fill_the_empty_seats_after_the_wait() -> None:
    d = Driver(settings(seats=4, bots="expert", bots_after_s=120))
    assert d.t.next_deadline() is None  # nobody waits yet
    d.register(1, at=10.0)
    assert d.t.next_deadline() == 130.0
    unchanged(d, {"type": "add_bots"}, "not_due", at=129.0)
    unchanged(d, {"type": "add_bots"}, "forbidden", by=1, at=130.0)
    d.register(2, at=20.0)
    assert d.t.due(130.0) == [{"type": "add_bots"}]
    events = d.do({"type": "add_bots"}, at=130.0)
    assert [e["name"] for e in events[0]["entries"]] == ["gammon-expert-1", "gammon-expert-2"]
    assert d.t.full and d.t.due(130.0) == [{"type": "start"}]
    d.start(at=130.0)
    # Bots are always at their table; only humans can fail to come.
    for match in d.t.rounds[0]:
        for slot, player in enumerate(match.players):
            assert player is not None
            assert match.arrived[slot] == (d.t.entry(player).bot is not None)


def test_settings_are_checked_and_say_what_is_wrong() -> None:
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"seats": 6}, "seats", "2, 4, 8 or 16"),
        ({"kind": "scheduled", "seats": 10}, "start_at", "must be given"),
        ({"kind": "knockout"}, "kind", "scheduled"),
        ({"lengths": [3, 0]}, "lengths", "1 to 25"),
        ({"bots": "expert", "kind": "scheduled", "start_at": 5}, "bots", "Sit & Go only"),
        ({"bots": "godlike"}, "bots", "beginner, expert"),
        ({"table": {"length": 5}}, "table", "lengths"),
        ({"table": {"clock": {"base_s": 0}}}, "table.clock.base_s", "from 1"),
        ({"table": {"variant": "chess"}}, "table.variant", "standard"),
        ({"satellite": {"target": 3, "seats": 3}}, "satellite.seats", "1, 2, 4 or 8"),
        ({"show_up_s": 5}, "show_up_s", "10 to 3600"),
        ({"colour": "red"}, "colour", "no tournament setting"),
    ]
    for values, field, words in cases:
        with pytest.raises(TournamentError) as caught:
            settings(**values)
        assert caught.value.code == "bad_settings"
        assert caught.value.field == field, (values, caught.value.field)
        assert words in caught.value.message, caught.value.message
        assert "R13" not in caught.value.message
    chosen = settings(table={"variant": "nackgammon", "crawford": False})
    assert chosen.table_json(2)["variant"] == "nackgammon"
    assert chosen.table_json(2)["clock"] == {"base_s": 600, "delay_s": 12, "increment_s": 0}
    assert TournamentSettings.from_row(chosen.to_json()) == chosen


# -- satellites --------------------------------------------------------------------------------


def test_a_satellite_names_its_qualifiers() -> None:
    d = Driver(settings(seats=8, satellite={"target": 12, "seats": 2}))
    d.register(*range(1, 8))
    d.do({"type": "register", "user": 8, "name": "p8"}, by=8, at=1.0)
    d.start()
    play_out(d, random.Random(1))
    finalists = [p for p in d.t.match(7).players if p is not None]
    assert sorted(d.t.qualified) == sorted(finalists)
    finished = d.events[-1]
    assert finished["target"] == 12 and len(finished["qualified"]) == 2


def test_a_qualifier_gets_a_seat_past_the_target_s_limit() -> None:
    d = Driver(settings(kind="scheduled", seats=2, start_at=100))
    d.register(1, 2)
    unchanged(d, {"type": "register", "user": 3, "name": "p3"}, "full", by=3)
    # Only the server seats qualifiers, and a player cannot claim to be one.
    unchanged(
        d, {"type": "register", "user": 3, "name": "p3", "qualified_from": 4}, "forbidden", by=3
    )
    events = d.do({"type": "register", "user": 3, "name": "p3", "qualified_from": 4}, at=5.0)
    assert events[0]["qualified_from"] == 4 and len(d.t.registered) == 3


def test_a_bot_wins_no_satellite_seat() -> None:
    d = Driver(settings(seats=2, bots="beginner", bots_after_s=0, satellite={"target": 3}))
    d.register(1, at=0.0)
    d.do({"type": "add_bots"}, at=0.0)
    d.start(at=0.0)
    bot_slot = [d.t.entry(p).bot is not None for p in d.t.match(1).players].index(True)  # type: ignore[arg-type]
    d.win(1, bot_slot)
    assert d.t.qualified == [] and d.events[-1]["qualified"] == []


# -- bad input changes nothing ----------------------------------------------------------------


def test_bad_actions_are_refused_and_change_nothing() -> None:
    d = four_running()
    a, b = d.t.match(1).players
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "teleport"}, "unknown_type"),
        ({"kind": "register"}, "bad_message"),
        ({"type": "result", "match": 99, "winner": a}, "unknown_match"),
        ({"type": "result", "match": 3, "winner": a}, "match_not_ready"),
        ({"type": "result", "match": 1, "winner": 1000}, "not_in_match"),
        ({"type": "result", "match": 1, "winner": True}, "not_in_match"),
        ({"type": "result", "match": "1", "winner": a}, "bad_message"),
        ({"type": "result", "match": 1, "winner": a, "how": "X" * 99}, "bad_message"),
        ({"type": "table", "match": 1, "table": "t"}, "bad_message"),
        ({"type": "arrived", "match": 1, "entry": 999}, "not_in_match"),
        ({"type": "start", "seed": "00"}, "not_registering"),
    ]
    for action, code in cases:
        unchanged(d, action, code)
    unchanged(d, {"type": "start", "seed": "XYZ"}, "bad_message")
    unchanged(d, {"type": "withdraw", "user": 77}, "not_registered", by=77)
    assert b is not None
