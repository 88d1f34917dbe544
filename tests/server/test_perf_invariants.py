"""What the server's fast paths must keep: the same state as the plain one (docs/PROTOCOL.md 3).

The server writes each state as JSON text from parts made once per action
(:meth:`TableView.state_text`), writes Position IDs and boards without the rules
library's checks, sends only new log events and finished games to clients that opt in
to ``log_delta`` and ``games_delta`` (docs/PROTOCOL.md 2.2) and inserts the actions of
one group commit with one statement. Each test here checks one of these against the
plain, obvious way on many real states: the rules (R1-R15) decide what the states are.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from gammon.errors import InvalidPositionError
from gammon.position import Position
from gammon.server.db import Action, Database, TableRow, User, select
from gammon.server.game_json import board_json, play_json, position_id
from gammon.server.plays_text import board_text, legal_plays_text, state_boards_text
from gammon.server.protocol import dumps
from gammon.server.settings import TableSettings
from gammon.server.store import Store, load_table
from gammon.server.table import Seat, Table
from gammon.server.table_actions import Start
from gammon.server.table_codec import action_from_json
from gammon.server.views import TableView
from tests.reference import plain_notation, plain_pips, plain_position_id
from tests.server.client import Player, ServerProcess, choose

SETTINGS = [
    {"length": 5},  # match with the cube and Crawford (R10, R12)
    {"mode": "money", "beavers": True, "jacoby": True, "clock": {"base_s": 60, "delay_s": 2}},
    {"length": 3, "variant": "acey-deucey"},  # waiting checkers: no Position ID (R14)
    {"length": 1, "variant": "hypergammon"},
    {"length": 1, "variant": "nackgammon", "cube": False},
    {"length": 1, "variant": "tavla", "cube": False},
]

SEATS = [{"user": 1, "name": "alice"}, {"user": 2, "name": "bob"}]


def _action(
    state: dict[str, Any], rng: random.Random, *, double: float = 0.1, take: float = 0.8
) -> dict[str, Any] | None:
    action = choose(state, rng, double=double, take=take)
    if action is not None:
        action.pop("seq", None)
    return action


def _tables(count: int, actions: int, seed: int, *, double: float = 0.1, take: float = 0.8) -> Any:
    """Tables played at random, yielding (its view, at) after every accepted action.

    Every choice comes from ``seed``: the plays, the cube, the times, each action's entropy
    and each game's fair-dice seed, so the same tables are played every run. A game takes
    at least one action, so ``actions + 1`` seeds are more than a table can use.
    """
    rng = random.Random(seed)
    for number in range(count):
        settings = TableSettings.from_json(SETTINGS[number % len(SETTINGS)])
        seeds = [rng.randbytes(32) for _ in range(actions + 1)]
        table = Table(number + 1, settings, Seat(1, "alice"), created=0.0, seeds=seeds)
        view = TableView(table)
        at = 1000.0
        table.apply(
            action_from_json({"type": "start", "seats": SEATS}, None),
            side=None,
            actor_id=2,
            at=at,
        )
        yield view, at
        for _ in range(actions):
            if table.status != "playing":
                break
            for side in (0, 1):
                action = _action(view.state_json(side, at=at), rng, double=double, take=take)
                if action is not None:
                    at += rng.uniform(0.1, 3.0)
                    table.apply(
                        action_from_json(action, side),
                        side=side,
                        actor_id=side + 1,
                        at=at,
                        entropy=rng.randbytes(8),
                    )
                    break
            else:  # pragma: no cover - some side can always act in a game being played
                raise AssertionError(f"nobody can act at seq {table.seq}")
            yield view, at


def test_state_text_is_state_json_for_every_receiver() -> None:
    """Every state, as each side and a spectator see it (R1: boards from the receiver's side)."""
    states = 0
    for view, at in _tables(len(SETTINGS) * 2, 120, seed=1):
        for viewer in (0, 1, None):
            for when in (at, at + 1.5):  # the clock runs on within one seq (R13)
                plain = view.state_json(viewer, at=when, connected={1}, spectators=2)
                text = view.state_text(viewer, at=when, connected={1}, spectators=2)
                assert json.loads(text) == plain
        states += 1
    # Not luck: the two money tables never end (a session with no last game; nobody here
    # resigns, and running out of time is the server's to say), so each yields all 121.
    assert states >= 2 * 121


def test_log_delta_rebuilds_the_whole_log() -> None:
    """A log_delta receiver that appends each state's new events has the game's whole log."""
    kept: dict[int | None, tuple[int, list[Any]]] = {}
    checked = 0
    for view, at in _tables(len(SETTINGS), 150, seed=2):
        if view.table.seq == 1:
            kept = {}
        for viewer in (0, 1, None):
            number, log = kept.get(viewer, (0, []))
            game = view.state_json(viewer, at=at)["game"]
            log_from = len(log) if number == game["number"] else 0
            sent = json.loads(view.state_text(viewer, at=at, log_from=log_from))["game"]
            assert sent["log_from"] == log_from
            assert len(sent["log"]) == len(game["log"]) - log_from
            log = log[: sent["log_from"]] + sent["log"]
            assert log == game["log"]
            kept[viewer] = (game["number"], log)
            checked += 1
        # Without log_delta nothing changes: the whole log, no log_from.
        assert "log_from" not in json.loads(view.state_text(0, at=at))["game"]
    assert checked >= 3 * 151  # the money table never ends: all its 151 states, 3 viewers


def test_games_delta_rebuilds_the_previous_games() -> None:
    """A games_delta receiver that appends each state's new finished games has them all,
    each game arriving in exactly one state."""
    kept: dict[int | None, list[Any]] = {}
    grown = 0
    finished: dict[int, int] = {}  # each table's finished games, at its last state
    # Every double offered and dropped: games end often, so there are many to send.
    for view, at in _tables(len(SETTINGS) * 2, 400, seed=4, double=1.0, take=0.0):
        if view.table.seq == 1:
            kept = {}
        finished[view.table.id] = view.previous_games_count()
        for viewer in (0, 1, None):
            games = kept.get(viewer, [])
            plain = view.state_json(viewer, at=at)
            sent = json.loads(view.state_text(viewer, at=at, games_from=len(games)))
            assert sent.pop("previous_games_from") == len(games)
            grown += bool(sent["previous_games"])
            games = games + sent["previous_games"]
            assert games == plain["previous_games"]
            # The rest of the state is the plain one.
            assert {**sent, "previous_games": games} == plain
            kept[viewer] = games
        # Without games_delta nothing changes: the whole list, no previous_games_from.
        assert "previous_games_from" not in json.loads(view.state_text(0, at=at))
    # Each finished game came in exactly one state to each of the three viewers (states are
    # yielded after every action, and one action ends at most one game).
    assert grown == 3 * sum(finished.values())
    # Not luck: a money game here is exactly four actions (the opening roll, its play, the
    # other side's double, the drop), so each of the two money tables finishes 400 / 4.
    money = [i for i in finished if SETTINGS[(i - 1) % len(SETTINGS)].get("mode") == "money"]
    assert [finished[i] for i in money] == [100, 100]
    assert view.previous_games_count() == len(view.state_json(0, at=at)["previous_games"])


def test_fast_position_ids_and_boards_match_the_rules_library() -> None:
    """position_id and board_json agree with Position.id and Position.pips (R2) on every play."""
    plays = 0
    for view, _ in _tables(len(SETTINGS), 60, seed=3):
        game = view.table.game
        assert game is not None
        positions = [game.position] + [play.position for play in game.legal_plays()]
        for position in positions:
            try:
                expected: str | None = position.id
            except InvalidPositionError:  # acey-deucey checkers still waiting (R14)
                expected = None
            assert position_id(position) == expected
            if expected is not None:
                assert expected == plain_position_id(position.mine, position.theirs)
            board = board_json(position, 1)
            assert board["pips"] == list(position.pips()) == list(plain_pips(position))
            assert (board["mine"], board["theirs"]) == (list(position.mine), list(position.theirs))
        for play in game.legal_plays():
            entry = play_json(play, 0)
            assert entry["play"] == str(play)
            assert entry["moves"] == [[m.source, m.target, m.hit] for m in play.moves]
            plays += 1
    # The seed fixes the count; the floor only catches tables that played almost nothing:
    # seeds 0-14 all gave over 2,900 (about 150 positions to play, each with many plays).
    assert plays > 1000


def test_a_states_boards_and_position_id_in_one_call_are_the_plain_ones() -> None:
    """Both sides' boards (R1: each from its own side) and the Position ID of the side on
    roll, written together, on every state and every legal play's board (R14's too)."""
    checked = without_id = 0
    for view, _ in _tables(len(SETTINGS), 60, seed=6):
        game = view.table.game
        assert game is not None
        boards = [game.position_for(0)]
        boards += [play.position for play in game.legal_plays()][:5]
        for board in boards:
            for on_roll in (0, 1):
                seen = board if on_roll == 0 else board.swapped()
                expected = (
                    dumps(board_json(board, 0)),
                    dumps(board_json(board.swapped(), 1)),
                    position_id(seen),
                )
                assert state_boards_text(board, on_roll) == expected
                checked += 1
                without_id += expected[2] is None
    # The seed fixes the counts; seeds 0-14 all gave over 1,900 boards, so the floor only
    # catches tables that played almost nothing. Without an ID, not luck: acey-deucey's 15
    # checkers a side start off the board and enter a few a turn (R14), so its first 8
    # states or more have checkers waiting, each giving 2 boards here without an ID.
    assert checked > 1000 and without_id > 10


def test_compiled_legal_plays_text_is_the_plain_encoding() -> None:
    """The kernel's ``legal_plays`` is byte for byte ``dumps`` of ``play_json`` of each play,
    and its board ``dumps`` of ``board_json`` (notation R5-R7 included: hits, the bar,
    bearing off, repeats), from either side, on random games of every variant (acey-deucey's
    waiting checkers have no Position ID); the notation, the Position ID and the pips in it
    are the rules library's compiled writers, here checked against the rules written
    plainly (tests/reference.py)."""
    rng = random.Random(4)
    plays = 0
    kinds: set[str] = set()
    for variant in ("standard", "acey-deucey", "hypergammon", "nackgammon", "tavla"):
        for _ in range(8):
            position = Position.initial(variant)
            while True:
                roll = (rng.randint(1, 6), rng.randint(1, 6))
                legal = position.plays(roll)
                for side in (0, 1):
                    assert board_text(position, side) == dumps(board_json(position, side))
                    assert legal_plays_text(legal, side) == dumps(
                        [play_json(play, side) for play in legal]
                    )
                for play in legal:
                    text = str(play)
                    assert text == plain_notation(play.moves)  # the rules, written plainly
                    kinds.update(k for k in ("bar/", "/off", "*", "(", "no play") if k in text)
                plays += len(legal)
                after = rng.choice(legal).position
                if after.winner() is not None:
                    break
                position = after.swapped()
    assert legal_plays_text([], 0) == "[]"
    # Seeded games (rng above): the count and the kinds seen are the same every run; 40 games
    # played to the end give plays far over the floor and every kind of move.
    assert plays > 20_000
    assert kinds == {"bar/", "/off", "*", "(", "no play"}


def test_group_commit_writes_every_action_in_order() -> None:
    """Appends from many tables at once land in few commits, and each table replays exactly."""
    db = Database("sqlite://")
    db.create_all()
    store = Store(db)
    store.start()

    async def scenario() -> None:
        def setup(session: Any) -> list[int]:
            session.add_all(
                [
                    User(id=1, name="alice", name_key="alice", created=0.0),
                    User(id=2, name="bob", name_key="bob", created=0.0),
                ]
            )
            session.flush()
            rows = [
                TableRow(
                    created_by=1,
                    created=0.0,
                    settings=TableSettings.from_json(SETTINGS[n % 2]).to_json(),
                    status="open",
                )
                for n in range(8)
            ]
            session.add_all(rows)
            session.flush()
            return [row.id for row in rows]

        ids = await store.write(setup)
        tables = [
            Table(i, TableSettings.from_json(SETTINGS[n % 2]), Seat(1, "alice"), created=0.0)
            for n, i in enumerate(ids)
        ]
        rng = random.Random(4)

        async def play(table: Table) -> None:
            at = 0.0
            applied = table.apply(
                Start((Seat(1, "alice"), Seat(2, "bob"))),
                side=None,
                actor_id=2,
                at=at,
            )
            await store.append(table.id, applied)
            while table.status == "playing" and table.seq < 60:
                for side in (0, 1):
                    action = _action(TableView(table).state_json(side, at=at), rng)
                    if action is not None:
                        at += 1.0
                        applied = table.apply(
                            action_from_json(action, side),
                            side=side,
                            actor_id=side + 1,
                            at=at,
                            entropy=b"\x01" * 8,
                        )
                        await store.append(table.id, applied)
                        break

        await asyncio.gather(*(play(table) for table in tables))
        assert store.batches < store.commits  # several actions shared a commit
        for table in tables:
            again = await store.run(lambda s, t=table: load_table(s, t.id))
            assert again is not None
            assert TableView(again).state_json(0, at=0.0) == TableView(table).state_json(0, at=0.0)
            seqs = await store.run(
                lambda s, t=table: list(
                    s.scalars(select(Action.seq).where(Action.table_id == t.id).order_by(Action.id))
                )
            )
            assert seqs == list(range(1, table.seq + 1))

    try:
        asyncio.run(scenario())
    finally:
        store.stop()
        db.dispose()


async def _at_newest_seq(*socks: Any) -> None:
    """Read each socket's messages until all have the newest state any of them has."""
    seq = max(sock.state["seq"] for sock in socks if sock.state)
    for sock in socks:
        while sock.state is None or sock.state["seq"] < seq:
            await sock.receive()


async def _act_once(rng: random.Random, *socks: Any, **choice: float) -> None:
    """The first socket that has something to do does it (``choose``'s ``choice``)."""
    for sock in socks:
        assert sock.state is not None
        action = choose(sock.state, rng, **choice)
        if action is not None:
            await sock.act(action)
            return


def test_log_delta_over_the_websocket(server: ServerProcess) -> None:
    """A socket that says hello with log_delta gets only new events, and the same log (3)."""

    async def scenario() -> None:
        alice, bob = await Player(server).guest(), await Player(server).guest()
        table = await alice.create(length=3)
        a, b = await alice.table(table), await bob.table(table)
        reply = await b.request({"type": "hello", "features": ["log_delta", "no-such-feature"]})
        assert reply == {"type": "ack", "id": reply["id"], "features": ["log_delta"]}
        bad = await b.request({"type": "hello", "features": "log_delta"})
        assert bad["type"] == "error" and bad["code"] == "bad_message"
        await b.act({"type": "join"})
        rng = random.Random(5)
        log: list[Any] = []
        number = 0
        deltas = 0
        read = 0
        for _ in range(60):
            await _at_newest_seq(a, b)
            for message in b.seen[read:]:  # every state b got, including those act() read
                if message["type"] == "state" and message["game"]:
                    game = message["game"]
                    assert "log_from" in game
                    if game["number"] != number:
                        assert game["log_from"] == 0
                        number, log = game["number"], []
                    assert game["log_from"] == len(log)
                    log += game["log"]
                    deltas += game["log_from"] > 0
            read = len(b.seen)
            assert a.state is not None and b.state is not None
            assert a.state["seq"] == b.state["seq"]
            assert a.state["game"]["log"] == log  # a never opted in: the whole log each time
            assert "log_from" not in a.state["game"]
            if a.state["status"] != "playing":
                break
            await _act_once(rng, a, b)
        assert deltas > 10
        for player in (alice, bob):
            await player.close()

    asyncio.run(scenario())


def test_games_delta_over_the_websocket(server: ServerProcess) -> None:
    """A socket with games_delta gets each finished game once, and the same list (3, R13)."""

    async def scenario() -> None:
        alice, bob = await Player(server).guest(), await Player(server).guest()
        table = await alice.create(mode="money")
        a, b = await alice.table(table), await bob.table(table)
        reply = await b.request({"type": "hello", "features": ["log_delta", "games_delta"]})
        assert reply["features"] == ["games_delta", "log_delta"]
        read = len(b.seen)
        await b.act({"type": "join"})
        rng = random.Random(6)
        games: list[Any] = []
        deltas = 0
        for _ in range(150):
            await _at_newest_seq(a, b)
            for message in b.seen[read:]:
                if message["type"] == "state":
                    start = message["previous_games_from"]
                    assert start == len(games)  # each state says where its games go
                    games = games[:start] + message["previous_games"]
                    deltas += start > 0
            read = len(b.seen)
            assert a.state is not None and b.state is not None
            assert "previous_games_from" not in a.state  # a never opted in: the whole list
            assert a.state["previous_games"] == games
            if len(games) >= 5:
                break
            await _act_once(rng, a, b, double=0.5, take=0.0)  # doubles dropped
        assert len(games) >= 5 and deltas > 10
        assert all(game["seed"] for game in games)  # revealed once each game is over
        for player in (alice, bob):
            await player.close()

    asyncio.run(scenario())


def test_texts_kept_across_actions_follow_the_settings_and_the_finished_games() -> None:
    """The settings' and the previous games' texts outlive a seq: each is made again when
    the table's settings are others and when a game ends (R9)."""
    table = Table(1, TableSettings.from_json({"length": 3}), Seat(1, "alice"), created=0.0)
    view = TableView(table)

    def state(viewer: int | None = 0) -> dict[str, Any]:
        sent: dict[str, Any] = json.loads(view.state_text(viewer, at=9.0))
        assert sent == view.state_json(viewer, at=9.0)
        return sent

    table.apply(
        action_from_json({"type": "start", "seats": SEATS}, None), side=None, actor_id=2, at=1.0
    )
    assert state()["previous_games"] == [] and state()["settings"]["cube"] is True
    table.apply(
        action_from_json({"type": "roll"}, 0), side=0, actor_id=1, at=2.0, entropy=b"\x01" * 8
    )
    game = table.game
    assert game is not None and game.turn is not None
    loser = game.turn
    table.apply(
        action_from_json({"type": "resign", "value": 1}, loser),
        side=loser,
        actor_id=loser + 1,
        at=3.0,
    )
    assert state(None)["previous_games"] == []
    table.apply(
        action_from_json({"type": "accept_resignation"}, 1 - loser),
        side=1 - loser,
        actor_id=2 - loser,
        at=4.0,
    )
    assert table.game_number == 2
    previous = state(None)["previous_games"]
    assert [entry["number"] for entry in previous] == [1] and previous[0]["seed"]
    # Other settings (as the table had been made with them), then the next action's state.
    table.settings = TableSettings.from_json({"length": 3, "cube": False})
    table.apply(
        action_from_json({"type": "roll"}, 0), side=0, actor_id=1, at=5.0, entropy=b"\x02" * 8
    )
    assert state(1)["settings"]["cube"] is False
    assert state(1)["previous_games"] == previous
