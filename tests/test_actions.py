"""Actions as values: ``apply`` and ``legal_actions`` on games, matches and sessions (R3-R14)."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon.actions import (
    ACTION_NAMES,
    AcceptResignation,
    Action,
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
    action_arguments,
    action_from_name,
)
from gammon.dice import RandomDice, ScriptedDice
from gammon.errors import IllegalActionError, InvalidRulesError
from gammon.events import EndReason, Forfeited, describe
from gammon.game import Game, Phase
from gammon.ids import decode_match_id
from gammon.match import Match, SeriesRules, Session
from gammon.rules import GameRules

_RULES = [
    GameRules(),
    GameRules(beavers=True, jacoby=True, auto_doubles=2),
    GameRules("nackgammon", max_cube=4),
    GameRules("hypergammon"),
    GameRules("acey-deucey"),
    GameRules("tavla", gammons=False),
    GameRules(crawford=True, match_length=5),
]


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything an action could change."""
    return (
        game.history,
        game.phase,
        game.turn,
        game.on_roll,
        game.dice,
        game.cube_value,
        game.cube_owner,
        game.resignation,
        game.result,
        game.position,
    )


def candidates(game: Game) -> list[Action]:
    """Actions of every kind for both sides, legal or not."""
    actions: list[Action] = []
    for side in (0, 1):
        actions += [
            Roll(side),
            Double(side),
            Take(side),
            Drop(side),
            Beaver(side),
            AcceptResignation(side),
            RejectResignation(side),
            Forfeit(side),
            OutOfTime(side),
            PlayDice(side, "24/23"),
            PlayDice(side, "13/7 8/7"),
            PlayDice(side, "pass"),
        ]
        actions += [Resign(side, value) for value in (0, 1, 2, 3, 4)]
        actions += [ChooseDouble(side, number) for number in (0, 1, 6, 7)]
        actions += [PlayDice(side, play) for play in game.legal_plays()[:3]]
    return actions


def canonical(game: Game, action: Action) -> Action:
    """A play given as text, as the legal play it names (players may leave out the '*')."""
    if isinstance(action, PlayDice) and isinstance(action.play, str) and game.dice is not None:
        with contextlib.suppress(ValueError):
            return PlayDice(action.side, game.position.parse_play(action.play, game.dice))
    return action


def copy_of(game: Game, seed: int) -> Game:
    return Game.replay(game.rules, game.history, start=game.start, dice=RandomDice(seed))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules_index=st.integers(0, len(_RULES) - 1))
def test_every_legal_action_applies_and_every_other_is_refused(seed: int, rules_index: int) -> None:
    rng = random.Random(seed)
    game = Game(_RULES[rules_index], dice=RandomDice(seed))
    for step in range(400):
        if game.is_over:
            break
        legal = {0: game.legal_actions(0), 1: game.legal_actions(1)}
        for side in (0, 1):
            assert all(action.side == side for action in legal[side])
            assert Forfeit(side) in legal[side]
            names = list(dict.fromkeys(action.name for action in legal[side]))
            assert game.legal_action_names(side) == names
        for action in rng.sample(legal[0] + legal[1], min(4, len(legal[0]) + len(legal[1]))):
            copy = copy_of(game, seed + step)
            events = copy.apply(action)
            assert events and copy.history == game.history + events
        for action in candidates(game):
            if canonical(game, action) in legal[action.side]:
                continue
            before = snapshot(game)
            with pytest.raises(IllegalActionError):
                game.apply(action)
            assert snapshot(game) == before
        # Go on with a legal action, rarely a forfeit or a resignation.
        side = game.turn if game.turn is not None else rng.randrange(2)
        choices = [
            a for a in legal[side] if not isinstance(a, Forfeit | OutOfTime | Resign)
        ] or legal[side]
        if rng.random() < 0.01:
            choices = legal[side]
        game.apply(rng.choice(choices))
    assert Game.replay(game.rules, game.history, start=game.start).history == game.history


def test_legal_actions_by_phase() -> None:
    game = Game(GameRules(beavers=True), dice=ScriptedDice([(3, 1), (6, 4)]))
    assert game.legal_actions(0) == [Roll(0), Forfeit(0)]
    assert game.legal_actions(1) == [Roll(1), Forfeit(1)]
    game.apply(Roll(1))
    plays = [a for a in game.legal_actions(0) if isinstance(a, PlayDice)]
    assert len(plays) == 16 and PlayDice(0, "8/5 6/5") in plays
    assert Resign(0, 3) in game.legal_actions(0) and OutOfTime(0) in game.legal_actions(0)
    assert game.legal_actions(1) == [Resign(1, 1), Resign(1, 2), Resign(1, 3), Forfeit(1)]
    game.apply(PlayDice(0, "8/5 6/5"))
    assert game.legal_actions(1)[:2] == [Roll(1), Double(1)]
    game.apply(Double(1))
    assert game.legal_actions(0) == [Take(0), Drop(0), Beaver(0), Forfeit(0), OutOfTime(0)]
    game.apply(Beaver(0))
    assert game.legal_actions(1) == [Take(1), Drop(1), Forfeit(1), OutOfTime(1)]


def test_play_actions_compare_by_the_play_not_the_spelling() -> None:
    game = Game(dice=ScriptedDice([(3, 1)]))
    game.apply(Roll(0))
    legal = game.legal_plays()
    assert PlayDice(0, legal[0]) == PlayDice(0, legal[0])
    assert PlayDice(0, str(legal[0])) == PlayDice(0, legal[0])
    assert PlayDice(1, legal[0]) != PlayDice(0, legal[0])
    assert len({PlayDice(0, play) for play in legal}) == len(legal)


def test_action_names_round_trip() -> None:
    assert set(ACTION_NAMES) == {
        "roll", "play", "choose_double", "double", "take", "drop", "beaver", "resign",
        "accept_resignation", "reject_resignation", "forfeit", "timeout",
    }  # fmt: skip
    for action in (Roll(0), PlayDice(1, "8/5 6/5"), Resign(0, 2), ChooseDouble(1, 4)):
        assert action_from_name(action.name, action.side, **action_arguments(action)) == action
    with pytest.raises(IllegalActionError, match="there is no action 'castle'"):
        action_from_name("castle", 0)
    with pytest.raises(IllegalActionError, match="'resign' needs 'value'"):
        action_from_name("resign", 0)
    with pytest.raises(IllegalActionError, match="'roll' takes nothing more"):
        action_from_name("roll", 0, value=1)


# -- endings: forfeits and time (R13) -----------------------------------------------------


def test_a_game_forfeited_costs_the_cube_and_replays() -> None:
    game = Game(dice=ScriptedDice([(3, 1), (6, 4)]))
    game.apply(Roll(0))
    game.apply(PlayDice(0, "8/5 6/5"))
    game.apply(Double(1))
    game.apply(Take(0))
    events = game.apply(Forfeit(0))
    assert events[0] == Forfeited(0, on_time=False, points=2)
    assert game.result is not None and game.result.winner == 1 and game.result.points == 2
    assert game.result.reason is EndReason.FORFEIT and game.phase is Phase.OVER
    assert describe(events[-1], ("alice", "bob")) == "bob wins 2 points by forfeit"
    assert Game.replay(game.rules, game.history).result == game.result


def test_only_the_side_to_act_can_run_out_of_time() -> None:
    game = Game(dice=ScriptedDice([(3, 1)]))
    with pytest.raises(IllegalActionError, match="its clock is not running"):
        game.apply(OutOfTime(0))  # nobody's clock runs before the opening roll
    game.apply(Roll(0))
    with pytest.raises(IllegalActionError, match="cannot run out of time"):
        game.apply(OutOfTime(1))
    game.apply(OutOfTime(0))
    assert game.result is not None and game.result.reason is EndReason.TIME


def test_a_forfeit_loses_the_match_with_the_points_the_winner_needed() -> None:
    match = Match(5, dice=RandomDice(3))
    game = match.game
    game.apply(Roll(0))
    side = game.turn
    assert side is not None
    game.apply(Resign(1 - side, 1))
    game.apply(AcceptResignation(side))
    match.new_game()
    assert match.legal_actions(0)[0] == Roll(0)
    match.apply(OutOfTime(0)) if match.game.turn == 0 else match.apply(Roll(1))
    if not match.is_over:
        turn = match.game.turn
        assert turn is not None
        match.apply(OutOfTime(turn))
    assert match.is_over and match.forfeited and match.winner is not None
    assert match.score[match.winner] == 5
    assert match.legal_actions(0) == [] and match.legal_actions(1) == []
    with pytest.raises(IllegalActionError, match="match is over"):
        match.apply(Roll(0))
    replayed = Match(5, histories=match.histories)
    assert replayed.score == match.score and replayed.is_over


def test_forfeit_between_games_starts_and_loses_the_next() -> None:
    match = Match(3, dice=RandomDice(4))
    match.apply(Roll(0))
    turn = match.game.turn
    assert turn is not None
    match.apply(Resign(turn, 1))
    match.apply(AcceptResignation(1 - turn))
    assert match.legal_actions(0) == [Forfeit(0)]
    with pytest.raises(IllegalActionError, match="no game is being played"):
        match.apply(OutOfTime(0))
    match.apply(Forfeit(0))
    assert len(match.games) == 2 and match.winner == 1 and match.score[1] == 3


def test_a_forfeit_ends_a_money_session_at_the_cube_value() -> None:
    session = Session(stakes=5, dice=ScriptedDice([(6, 1)]))
    session.apply(Roll(0))
    session.apply(Forfeit(1))
    assert session.is_over and session.forfeited and session.net == 1 and session.winner == 0
    assert session.bankrolls == (6, 4)
    with pytest.raises(IllegalActionError, match="side 1 left"):
        session.new_game()


# -- series rules ------------------------------------------------------------------------


def test_series_rules_build_the_series() -> None:
    match = SeriesRules(length=7, variant="nackgammon", max_cube=16).new_series(RandomDice(1))
    assert isinstance(match, Match) and match.length == 7 and match.crawford
    assert match.game.rules == GameRules("nackgammon", max_cube=16, match_length=7)
    session = SeriesRules(jacoby=True, stakes=(3, 5), max_games=2).new_series()
    assert isinstance(session, Session) and session.bankrolls == (3, 5)
    assert session.rules.max_games == 2 and not session.rules.crawford
    assert SeriesRules(length=0, crawford=True) == SeriesRules()  # no Crawford rule in money play


@pytest.mark.parametrize(
    ("options", "setting"),
    [
        ({"length": -1}, "length"),
        ({"length": 3, "beavers": True}, "beavers"),
        ({"length": 3, "stakes": 4}, "stakes"),
        ({"length": 3, "max_games": 4}, "max_games"),
        ({"max_cube": 3}, "max_cube"),
        ({"stakes": 0}, "stakes"),
        ({"auto_doubles": -2}, "auto_doubles"),
    ],
)
def test_bad_series_rules_name_the_setting(options: dict[str, object], setting: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        SeriesRules(**options)  # type: ignore[arg-type]
    assert info.value.setting == setting and "(R" not in str(info.value)


# -- the Match ID's Crawford flag, as GNU Backgammon writes it -------------------------------


def test_crawford_flag_is_set_for_the_coming_crawford_game() -> None:
    match = Match(3, dice=ScriptedDice([(4, 5), (6, 1), (2, 1)]))
    game = match.game
    game.roll(0)
    game.resign(1, 2)
    game.accept_resignation(0)
    assert match.id == "8MNyACAAAAAE"  # GNU Backgammon's ID at 2-0 before the Crawford game
    crawford = match.new_game()
    assert crawford.rules.crawford and decode_match_id(match.id).crawford
    crawford.roll(0)
    crawford.resign(0, 1)
    crawford.accept_resignation(1)
    assert match.score == (2, 1) and not decode_match_id(match.id).crawford
    assert not match.new_game().rules.crawford


def test_a_series_is_built_from_rules_of_its_own_kind() -> None:
    match = Match.from_rules(SeriesRules(length=3))
    assert match.length == 3 and match.rules == SeriesRules(length=3)
    with pytest.raises(InvalidRulesError, match="Session cannot be played under"):
        Session.from_rules(SeriesRules(length=3))
