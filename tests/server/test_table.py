"""The table as a state machine: the series decides how a forfeit ends it (R11, R12, R13)."""

from __future__ import annotations

from typing import Any

import pytest

from gammon.events import Moved
from gammon.match import SeriesRules
from gammon.server.db import Action, TableRow
from gammon.server.protocol import Refused
from gammon.server.settings import ClockSettings, TableSettings
from gammon.server.store import ReplayError, rebuild
from gammon.server.table import Applied, Seat, Table
from gammon.server.table_codec import action_from_json, action_json, table_result_json
from gammon.server.views import TableView, clock_json, game_record

SEATS = [{"user": 1, "name": "alice"}, {"user": 2, "name": "bob"}]


def started(rules: SeriesRules) -> tuple[Table, list[Applied]]:
    table = Table(1, TableSettings(rules), Seat(1, "alice"), created=0.0)
    log = [
        table.apply(
            action_from_json({"type": "start", "seats": SEATS}, None), side=None, actor_id=2, at=0.0
        )
    ]
    log.append(
        table.apply(
            action_from_json({"type": "roll"}, 0), side=0, actor_id=1, at=1.0, entropy=b"\x01" * 8
        )
    )
    return table, log


def test_a_forfeited_match_is_won_with_the_points_needed_and_its_game_is_over() -> None:
    table, _ = started(SeriesRules(length=5))
    loser = table.game.turn if table.game is not None else None
    assert loser is not None
    table.apply(
        action_from_json({"type": "forfeit"}, loser), side=loser, actor_id=loser + 1, at=2.0
    )
    score = [0, 0]
    score[1 - loser] = 5
    assert table_result_json(table.result) == {
        "winner": 1 - loser,
        "reason": "forfeit",
        "score": score,
    }
    assert [e["type"] for e in table.logs[-1][-2:]] == ["forfeited", "ended"]
    assert TableView(table).series_json()["score"] == score  # type: ignore[index]
    assert game_record(table, 1)["seed"] is not None  # the last game is over: seed revealed
    with pytest.raises(Refused) as refused:
        table.apply(
            action_from_json({"type": "roll"}, loser), side=loser, actor_id=loser + 1, at=3.0
        )
    assert refused.value.code == "game_over"


def test_a_money_session_lost_on_time_costs_the_game_at_the_cube() -> None:
    table, _ = started(SeriesRules(stakes=5))
    side = table.game.turn if table.game is not None else None
    assert side is not None
    with pytest.raises(Refused) as refused:  # only the side whose clock runs runs out of time
        table.apply(
            action_from_json({"type": "timeout", "side": 1 - side}, 1 - side),
            side=1 - side,
            actor_id=None,
            at=2.0,
        )
    assert refused.value.code == "illegal_action"
    table.apply(
        action_from_json({"type": "timeout", "side": side}, side), side=side, actor_id=None, at=2.0
    )
    assert table.result is not None and table.result.reason == "time"
    assert table.result.winner == 1 - side and sorted(table.result.score) == [0, 1]


def test_actions_are_what_the_series_allows() -> None:
    table, _ = started(SeriesRules(length=3))
    side = table.game.turn if table.game is not None else None
    assert side is not None
    assert table.actions_for(side) == ["play", "resign", "forfeit"]
    assert table.actions_for(1 - side) == ["resign", "forfeit"]
    assert table.actions_for(None) == []


def test_an_older_log_of_a_forfeit_without_events_still_replays() -> None:
    """Servers before the rules ended the game for a forfeit logged it with no events."""
    table, log = started(SeriesRules(length=3))
    log.append(table.apply(action_from_json({"type": "forfeit"}, 0), side=0, actor_id=1, at=2.0))
    seeds = [bytes.fromhex(seed) for _, _, seed in log[0].changes.new_games]

    def rows(forfeit_events: list[Any]) -> list[Action]:
        return [
            Action(
                seq=a.seq,
                actor_id=a.actor_id,
                side=a.side,
                action=action_json(a.action),
                entropy=a.entropy,
                events=forfeit_events if a.action.name == "forfeit" else a.events,
                clock=a.clock,
                at=a.at,
            )
            for a in log
        ]

    row = TableRow(id=1, created_by=1, created=0.0, settings=table.settings.to_json())
    again = rebuild(row, "alice", rows([]), seeds)
    assert again.result == table.result
    # Any other difference is still a log changed by hand.
    with pytest.raises(ReplayError):
        rebuild(row, "alice", rows([{"type": "ended"}]), seeds)


def test_a_take_back_against_the_bot_is_the_series_own_and_replays_from_the_log() -> None:
    """R15: the table carries out practice's take-back with the rules library's
    ``Match.take_back``: a new series, back to the play's own dice (nothing thrown), a
    ``taken_back`` entry in the log, and the log replays to the same table; a second
    take-back has nothing of the player's to take back."""
    seats = [{"user": 1, "name": "alice"}, {"user": None, "name": "bot", "bot": "easy"}]
    seeds = [bytes([number]) * 32 for number in range(1, 4)]  # each game's fair dice, fixed
    settings = TableSettings(SeriesRules(length=3), bot="easy")
    table = Table(1, settings, Seat(1, "alice"), created=0.0, seeds=seeds)
    log = [
        table.apply(
            action_from_json({"type": "start", "seats": seats}, None), side=None, actor_id=1, at=0.0
        )
    ]
    at = 1.0
    while "take_back" not in table.actions_for(0):
        game = table.game
        assert game is not None
        side = game.turn if game.turn is not None else 0
        action: dict[str, Any] = {"type": "roll"}
        if game.legal_plays():
            action = {"type": "play", "play": str(game.legal_plays()[-1])}
        value = action_from_json(action, side)
        log.append(table.apply(value, side=side, actor_id=None, at=at, entropy=b"\x02" * 8))
        at += 1.0
    game = table.game
    assert game is not None
    played = game.history[-1]
    assert isinstance(played, Moved) and played.side == 0
    series = table.series

    log.append(table.apply(action_from_json({"type": "take_back"}, 0), side=0, actor_id=1, at=at))

    assert table.series is not series and series is not None
    assert series.game.history[-1] == played  # the old value is as it was
    again = table.game
    assert again is not None and again.history == game.history[:-1]
    assert (again.turn, again.dice) == (0, played.dice)
    entry = table.logs[-1][-1]
    assert entry["type"] == "taken_back" and entry["side"] == 0
    assert entry["play"] == played.play
    assert entry["moves"] == [[m.source, m.target, m.hit] for m in played.moves]
    assert "take_back" not in table.actions_for(0)
    with pytest.raises(Refused) as refused:
        table.apply(action_from_json({"type": "take_back"}, 0), side=0, actor_id=1, at=at + 1)
    assert refused.value.code == "illegal_action"
    with pytest.raises(Refused) as refused:
        table.apply(action_from_json({"type": "take_back"}, 1), side=1, actor_id=None, at=at + 1)
    assert refused.value.code == "not_a_player"

    rows = [
        Action(
            seq=a.seq,
            actor_id=a.actor_id,
            side=a.side,
            action=action_json(a.action),
            entropy=a.entropy,
            events=a.events,
            clock=a.clock,
            at=a.at,
        )
        for a in log
    ]
    row = TableRow(id=1, created_by=1, created=0.0, settings=table.settings.to_json())
    replayed = rebuild(row, "alice", rows, seeds)
    assert replayed.logs == table.logs and replayed.game is not None
    assert replayed.game.history == again.history and replayed.seq == table.seq


def test_the_table_presses_the_rules_clock_at_each_action() -> None:
    """R13 at a table: the rules library's clock runs for the side to act, from the time each
    action is given; a game action of the running side earns the increment; the record keeps
    whole milliseconds, and a replay's reserves and restart are the record's."""
    settings = TableSettings(SeriesRules(length=1), clock=ClockSettings(60, 2, 3))
    table = Table(1, settings, Seat(1, "alice"), created=0.0, seeds=[bytes(32)])
    table.apply(
        action_from_json({"type": "start", "seats": SEATS}, None), side=None, actor_id=2, at=0.0
    )
    assert table.clock is not None and table.clock.running is None  # the opening: nobody's
    table.apply(
        action_from_json({"type": "roll"}, 0), side=0, actor_id=1, at=1.0, entropy=b"\x01" * 8
    )
    game = table.game
    assert game is not None and game.turn is not None
    mover = game.turn
    assert (table.clock.running, table.clock.since) == (mover, 1.0)
    assert clock_json(settings.clock, table.clock, 2.5)["remaining_ms"] == [60000, 60000]
    assert table.clock.flagged(62.999) is None and table.clock.flagged(63.0) == mover
    play = str(game.legal_plays()[0])
    applied = table.apply(
        action_from_json({"type": "play", "play": play}, mover), side=mover, actor_id=None, at=10.25
    )
    # 9.25 s on the clock: 2 s of delay free, 7.25 s from the bank, then 3 s of increment.
    reserves = [60000, 60000]
    reserves[mover] = 60000 - 7250 + 3000
    assert applied.clock == reserves
    assert table.clock.running == 1 - mover
    shown = clock_json(settings.clock, table.clock, 20.25)
    assert shown["remaining_ms"][1 - mover] == 60000 - 8000
    assert (shown["running"], shown["started_ms"], shown["server_ms"]) == (1 - mover, 10250, 20250)
    # An action of the side whose clock does not run (a resignation offered on the other's
    # turn) earns nothing; the running side pays its time so far and answers on its clock.
    applied = table.apply(
        action_from_json({"type": "resign", "value": 1}, mover), side=mover, actor_id=None, at=13.25
    )
    reserves[1 - mover] = 60000 - 1000
    assert applied.clock == reserves and table.clock.running == 1 - mover
    table.restore_clock([1234.0, 5678.0])
    table.resume(100.0)
    assert table.clock.reserves == (1234.0, 5678.0) and table.clock.since == 100.0
