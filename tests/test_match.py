"""Tests of gammon.match: matches to N points (R12) and money sessions (R11)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_game import random_step, refused, snapshot

from gammon.dice import RandomDice, ScriptedDice
from gammon.errors import IllegalActionError, InvalidRulesError
from gammon.events import Doubled, EndReason, OpeningRolled, Passed, Rolled
from gammon.game import Game, Phase
from gammon.ids import GameState, decode_match_id
from gammon.match import Match, SeriesRules, Session
from gammon.position import Position
from gammon.rules import GameRules


def win(game: Game, winner: int, value: int = 1) -> None:
    """End ``game`` by the loser resigning ``value`` (1-3) and the winner accepting (R9)."""
    if game.phase is Phase.OPENING:
        game.roll(0)
    game.resign(1 - winner, value)
    game.accept_resignation(winner)


def win_by_drop(game: Game, winner: int) -> None:
    """End ``game`` by a double that is dropped: the winner must be able to double now."""
    game.double(winner)
    game.drop(1 - winner)


# -- matches (R12) --------------------------------------------------------------


def test_crawford_game_comes_right_after_a_side_first_reaches_one_away() -> None:
    match = Match(3, dice=RandomDice(1))
    assert match.length == 3 and match.crawford
    assert not match.game.rules.crawford and match.game.rules.match_length == 3
    win(match.game, 0, 2)  # 2-0: side 0 is one away
    assert match.score == (2, 0) and not match.is_over and match.winner is None

    crawford = match.new_game()
    assert crawford.rules.crawford and not crawford.rules.cube_in_play
    crawford.roll(0)
    mover = crawford.turn
    assert mover is not None
    crawford.play(mover, crawford.legal_plays()[0])
    side = 1 - mover
    assert crawford.phase is Phase.ROLL and crawford.turn == side
    assert not crawford.can_double(side)
    refused(crawford, crawford.double, side, match="no doubling in the Crawford game")
    assert decode_match_id(match.id).crawford
    win(crawford, 1)  # 2-1

    post = match.new_game()  # post-Crawford: the cube is back (R12)
    assert not post.rules.crawford
    post.roll(0)
    first = post.on_roll
    assert first is not None
    post.play(first, post.legal_plays()[0])
    assert post.can_double(1 - first)
    win_by_drop(post, 1 - first)
    assert sum(match.score) == 4

    if not match.is_over:
        win(match.new_game(), 1)
    assert match.is_over and match.winner is not None
    assert match.score[match.winner] == 3
    assert sum(g.rules.crawford for g in match.games) == 1


def test_match_over_refuses_a_new_game_and_game_actions() -> None:
    match = Match(1, dice=RandomDice(2))
    assert not match.game.rules.crawford  # no Crawford game in a 1-point match
    win(match.game, 1)
    assert match.is_over and match.winner == 1 and match.score == (0, 1)
    with pytest.raises(IllegalActionError, match="the 1-point match is over: side 1 won 1-0"):
        match.new_game()
    refused(match.game, match.game.roll, 0, match="the game is over")
    fields = decode_match_id(match.id)
    assert fields.game_state is GameState.RESIGNED and fields.score == (0, 1)


def test_a_new_game_waits_for_the_current_one_to_end() -> None:
    match = Match(5, dice=RandomDice(3))
    with pytest.raises(IllegalActionError, match="game 1 is still being played"):
        match.new_game()
    assert len(match.games) == 1


def test_crawford_rule_can_be_switched_off() -> None:
    match = Match(3, crawford=False, dice=RandomDice(4))
    win(match.game, 0, 2)
    assert not match.new_game().rules.crawford


def test_crawford_game_after_a_jump_to_one_away() -> None:
    match = Match(5, dice=RandomDice(5))
    win(match.game, 1, 1)
    assert not match.new_game().rules.crawford
    win(match.game, 1, 3)  # 0-4 with a backgammon
    assert match.new_game().rules.crawford
    win(match.game, 0, 1)
    assert not match.new_game().rules.crawford
    win(match.game, 0, 3)  # 4-4: the other side reaching 4 brings no second Crawford game
    assert not match.new_game().rules.crawford
    assert match.score == (4, 4)


def test_match_rules_have_no_jacoby_or_beavers() -> None:
    match = Match(7, variant="nackgammon", max_cube=8, gammons=True, dice=RandomDice(6))
    rules = match.game.rules
    assert rules == GameRules("nackgammon", max_cube=8, match_length=7)
    assert not rules.jacoby and not rules.beavers and rules.auto_doubles == 0


@pytest.mark.parametrize("length", [0, -3, True, 2.0, 40000])
def test_bad_match_length(length: object) -> None:
    with pytest.raises(InvalidRulesError, match="a match is played to"):
        Match(length)  # type: ignore[arg-type]


def test_match_id_through_a_match() -> None:
    match = Match(5, dice=RandomDice(7))
    before = decode_match_id(match.id)
    assert before.game_state is GameState.NO_GAME and before.match_length == 5
    assert not before.jacoby  # GNU Backgammon writes Jacoby off in match play
    win(match.game, 1, 2)
    over = decode_match_id(match.id)
    assert over.game_state is GameState.RESIGNED and over.score == (0, 2)
    match.new_game()
    assert decode_match_id(match.id).score == (0, 2)


def _check_action_names(series: Match | Session) -> None:
    for side in (0, 1):
        names = list(dict.fromkeys(action.name for action in series.legal_actions(side)))
        assert series.legal_action_names(side) == names


def play_series(series: Match | Session, rng: random.Random, max_games: int = 60) -> None:
    """Play random legal actions, game after game, until the series is over."""
    last_score = series.score
    for _ in range(max_games):
        game = series.game
        while not game.is_over:
            assert series.match_id_fields() is not None  # consistent at every step
            _check_action_names(series)
            if game.rules.crawford and game.turn is not None:
                assert not game.can_double(game.turn)
            random_step(game, rng)
        _check_action_names(series)  # between games, and once the series is over
        score = series.score
        assert score == _score_from_scratch(series)
        assert score[0] >= last_score[0] and score[1] >= last_score[1]  # scores only grow
        assert sum(score) > sum(last_score)
        last_score = score
        if series.is_over:
            return
        series.new_game()
    raise AssertionError("the series did not end")


def _score_from_scratch(series: Match | Session) -> tuple[int, int]:
    """The score summed over every game's result (the series keeps a running one)."""
    score = [0, 0]
    stakes = series.stakes if isinstance(series, Session) else None
    for game in series.games:
        result = game.result
        if result is None:
            continue
        points = result.points
        if stakes is not None:  # R11: no more than the loser has left
            loser = result.loser
            points = min(points, stakes[loser] + score[loser] - score[1 - loser])
        score[result.winner] += points
    return score[0], score[1]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), length=st.sampled_from([3, 5]))
def test_random_matches_end_correctly(seed: int, length: int) -> None:
    match = Match(length, dice=RandomDice(seed))
    play_series(match, random.Random(seed))
    score = match.score
    assert match.is_over and match.winner is not None
    assert score[match.winner] >= length > score[1 - match.winner]
    # R12: at most one Crawford game, right after a side first reached N-1,
    # without any cube action; post-Crawford games may use the cube.
    games = match.games
    crawford = [i for i, g in enumerate(games) if g.rules.crawford]
    assert len(crawford) <= 1
    running = [0, 0]
    first_one_away = None
    for index, game in enumerate(games):
        if first_one_away is None and length - 1 in running:
            first_one_away = index
        assert game.rules.crawford == (index == first_one_away)
        if game.rules.crawford:
            assert not any(isinstance(e, Doubled) for e in game.history)
        assert game.result is not None
        running[game.result.winner] += game.result.points
    assert tuple(running) == score
    with pytest.raises(IllegalActionError, match="match is over"):
        match.new_game()
    replayed = Match(length, histories=match.histories)
    assert replayed.score == score and replayed.id == match.id
    assert [snapshot(g) for g in replayed.games] == [snapshot(g) for g in games]


def test_post_crawford_games_may_double() -> None:
    # A seed whose match has a post-Crawford game: the cube is offered there.
    for seed in range(40):
        match = Match(3, dice=RandomDice(seed))
        play_series(match, random.Random(seed))
        games = match.games
        crawford = [i for i, g in enumerate(games) if g.rules.crawford]
        post = games[crawford[0] + 1 :] if crawford else ()
        if any(isinstance(e, Doubled) for g in post for e in g.history):
            return
    raise AssertionError("no post-Crawford double in 40 random matches")


def test_replaying_a_match_checks_the_histories() -> None:
    match = Match(3, dice=RandomDice(8))
    match.game.roll(0)
    with pytest.raises(IllegalActionError, match="game 2 cannot follow game 1"):
        Match(3, histories=[match.game.history, match.game.history])
    win(match.game, 0, 3)
    with pytest.raises(IllegalActionError, match="game 2 cannot be played: the 3-point match"):
        Match(3, histories=[match.game.history, match.game.history])
    rebuilt = Match(3, histories=match.histories)
    assert rebuilt.is_over and rebuilt.winner == 0


# -- money sessions (R11) ------------------------------------------------------


def test_table_stakes_cap_a_game_and_end_the_session_when_a_side_is_broke() -> None:
    session = Session(stakes=3, dice=RandomDice(9))
    assert session.stakes == (3, 3) and session.bankrolls == (3, 3)
    win(session.game, 0, 2)
    assert session.bankrolls == (5, 1) and session.net == 2 and not session.is_over
    win(session.new_game(), 0, 3)  # worth 3, but side 1 has only 1 left
    assert session.payouts == (2, 1)
    assert session.score == (3, 0) and session.bankrolls == (6, 0)
    assert session.is_over and session.winner == 0
    with pytest.raises(IllegalActionError, match="side 1 has lost their stake"):
        session.new_game()
    assert decode_match_id(session.id).score == (3, 0)


def test_unequal_stakes() -> None:
    session = Session(stakes=(1, 10), dice=RandomDice(10))
    win(session.game, 1, 3)
    assert session.payouts == (1,) and session.bankrolls == (0, 11)
    assert session.is_over and session.winner == 1


def test_a_fixed_number_of_games() -> None:
    session = Session(max_games=2, dice=RandomDice(11))
    win(session.game, 1, 2)
    assert not session.is_over
    win(session.new_game(), 0, 1)
    assert session.is_over and session.winner == 1 and session.net == -1
    with pytest.raises(IllegalActionError, match="all 2 games have been played"):
        session.new_game()
    tie = Session(max_games=2, dice=RandomDice(12))
    win(tie.game, 0)
    win(tie.new_game(), 1)
    assert tie.is_over and tie.winner is None


def test_session_options_reach_every_game() -> None:
    session = Session(
        variant="hypergammon",
        jacoby=True,
        beavers=True,
        auto_doubles=3,
        max_cube=16,
        gammons=False,
        dice=RandomDice(13),
    )
    expected = GameRules(
        "hypergammon", jacoby=True, beavers=True, auto_doubles=3, max_cube=16, gammons=False
    )
    assert session.rules == SeriesRules(
        variant="hypergammon", jacoby=True, beavers=True, auto_doubles=3, max_cube=16, gammons=False
    )
    assert session.rules.game_rules() == expected and session.game.rules == expected
    win(session.game, 0)
    assert session.new_game().rules == expected
    assert session.bankrolls is None and not session.is_over and session.winner is None
    assert decode_match_id(session.id).jacoby


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stakes": 0}, "table stakes"),
        ({"stakes": (1, 2, 3)}, "table stakes"),
        ({"stakes": (1, -1)}, "table stakes"),
        ({"max_games": 0}, "at least 1"),
        ({"auto_doubles": -1}, "automatic doubles"),
    ],
)
def test_bad_session_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Session(**options)  # type: ignore[arg-type]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), stakes=st.integers(1, 6))
def test_random_sessions_with_table_stakes(seed: int, stakes: int) -> None:
    options = {"stakes": stakes, "beavers": True, "jacoby": True, "auto_doubles": 1}
    session = Session(**options, dice=RandomDice(seed))  # type: ignore[arg-type]
    play_series(session, random.Random(seed), max_games=200)
    bankrolls = session.bankrolls
    assert bankrolls is not None and sum(bankrolls) == 2 * stakes
    assert session.is_over and 0 in bankrolls
    assert session.winner == 1 - bankrolls.index(0)
    assert all(paid > 0 for paid in session.payouts)
    assert sum(session.payouts) == sum(session.score)
    replayed = Session(**options, histories=session.histories)  # type: ignore[arg-type]
    assert replayed.payouts == session.payouts and replayed.id == session.id


def test_a_drop_in_a_session() -> None:
    session = Session(max_games=1, dice=RandomDice(14))
    game = session.game
    game.roll(0)
    mover = game.turn
    assert mover is not None
    game.play(mover, game.legal_plays()[0])
    win_by_drop(game, 1 - mover)
    assert game.result is not None and game.result.reason is EndReason.DROP
    assert session.is_over and session.winner == 1 - mover and abs(session.net) == 1


# -- taking a play back (R15: practice against the bot) -----------------------------------


def test_taking_back_a_play_restores_the_dice_and_leaves_the_series_as_it_was() -> None:
    """Across a roll: the game returns to the play's own roll, which is not thrown again, so
    the dice source's next roll is the one it would have given anyway."""
    dice = ScriptedDice([(3, 1), (6, 4), (5, 2), (4, 4)])
    match = Match(3, dice=dice)
    match.game.roll(0)
    match.game.play(0, "8/5 6/5")
    match.game.roll(1)
    match.game.play(1, "24/14")
    match.game.roll(0)
    before = match.game.position
    match.game.play(0, "13/8 6/4")
    history = match.game.history

    taken = match.take_back(0)

    assert type(taken) is Match and taken.rules == match.rules
    assert match.game.history == history  # a new value: the old one is unchanged
    game = taken.game
    assert game.history == history[:-1]
    assert (game.phase, game.turn, game.dice) == (Phase.MOVE, 0, (5, 2))
    assert game.position == before
    assert dice.remaining == 1  # nothing thrown by the take-back
    game.play(0, "13/11 13/8")
    assert game.roll(1) == (Rolled(1, (4, 4)),)


def test_taking_back_a_hit_puts_the_hit_checker_back() -> None:
    """R6 undone: the blot hit by the play is on its point again, not on the bar; the game
    set up from its own start keeps that start."""
    start = Position.from_points({13: 2, 6: 13}, {18: 1, 24: 14})
    match = Match(1, dice=ScriptedDice([(6, 1)]))
    match.set_up(start)
    match.game.roll(0)
    assert match.game.position == start
    match.game.play(0, "13/7* 13/12")
    assert match.game.position_for(1).bar == (1, 0)

    taken = match.take_back(0)

    assert taken.game.start == start
    assert taken.game.position == start
    assert taken.game.position_for(1).bar == (0, 0)
    assert "13/12 13/7*" in [str(play) for play in taken.game.legal_plays()]


def test_the_first_play_of_a_later_game_goes_back_to_its_opening_roll() -> None:
    """At the start of a game: back to the opening roll's dice (R3), earlier games kept."""
    match = Match(5, dice=ScriptedDice([(4, 2), (6, 5)]))
    win(match.game, 1)
    match.new_game()
    match.game.roll(1)  # side 0 throws 6, side 1 throws 5: side 0 plays 6-5
    match.game.play(0, "24/13")

    taken = match.take_back(0)

    assert taken.game_number == 2 and taken.games[0] is match.games[0]
    assert taken.score == match.score == (0, 1)
    assert [type(e) for e in taken.game.history] == [OpeningRolled]
    assert (taken.game.phase, taken.game.turn, taken.game.dice) == (Phase.MOVE, 0, (6, 5))
    assert taken.id == Match(5, histories=taken.histories).id


def test_a_session_takes_back_too() -> None:
    session = Session(stakes=8, dice=ScriptedDice([(5, 3)]))
    session.game.roll(1)
    session.game.play(0, "8/3 6/3")
    taken = session.take_back(0)
    assert type(taken) is Session and taken.bankrolls == (8, 8)
    assert taken.game.legal_plays() == session.take_back(0).game.legal_plays()


def test_a_take_back_is_refused_when_the_last_thing_done_is_no_play_of_the_side() -> None:
    match = Match(1, dice=ScriptedDice([(3, 1), (6, 4)]))

    def refused_with(side: int, message: str) -> None:
        assert not match.can_take_back(side)
        with pytest.raises(IllegalActionError, match=f"side {side} cannot take a play back: "):
            match.take_back(side)
        with pytest.raises(IllegalActionError, match=message):
            match.take_back(side)

    refused_with(0, "side 0 has made no play in this game yet")  # the opening
    match.game.roll(0)
    refused_with(0, "side 0 has made no play in this game yet")  # rolled, not played yet
    match.game.play(0, "8/5 6/5")
    assert match.can_take_back(0)
    refused_with(1, "side 1 has made no play in this game yet")
    match.game.roll(1)
    refused_with(0, "the game has gone on since side 0's last play")
    match.game.play(1, "24/14")
    match.game.double(0)
    refused_with(1, "the game has gone on since side 1's last play")
    match.game.drop(1)
    refused_with(0, "the 1-point match is over: side 0 won 1-0")
    with pytest.raises(IllegalActionError, match="a side is 0 or 1, got 2"):
        match.take_back(2)


def test_no_take_back_of_a_play_that_ended_the_game_or_of_a_lost_turn() -> None:
    """A play that bore off the last checker ended the game; a roll with no legal play was
    no play (R5): neither can be taken back."""
    ended = Match(3, dice=ScriptedDice([(6, 5)]))
    ended.set_up(Position.from_points({1: 1}, {1: 1}))
    ended.game.roll(0)
    ended.game.play(0, "1/off")
    with pytest.raises(IllegalActionError, match="side 0 cannot take a play back: game 1 is over"):
        ended.take_back(0)
    blocked = Match(3, dice=ScriptedDice([(2, 1)]))
    blocked.set_up(Position.from_points({25: 1}, {p: 2 for p in range(1, 7)}))
    blocked.game.roll(0)  # side 0 to play 2-1 from the bar against a closed board
    assert isinstance(blocked.game.history[-1], Passed)
    with pytest.raises(IllegalActionError, match="no play in this game yet"):
        blocked.take_back(0)
