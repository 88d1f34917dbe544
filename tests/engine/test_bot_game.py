"""The bot on the rules library's state machine: whole games, sessions and matches."""

from __future__ import annotations

from gammon.actions import Forfeit, OutOfTime, Resign, Roll
from gammon.dice import RandomDice, ScriptedDice
from gammon.engine.bot import Bot
from gammon.engine.cube import CubeOwner, CubeState
from gammon.events import Doubled, ResignationRejected, Resigned
from gammon.game import Game, Phase
from gammon.match import Match, Session
from gammon.position import Position
from gammon.rules import GameRules


def _finish(series: Match | Session, bots: tuple[Bot, Bot], games: int = 50) -> None:
    for _ in range(20_000):
        game = series.game
        if game.is_over:
            if series.is_over or len(series.games) >= games:
                return
            series.new_game()
            continue
        side = game.turn if game.turn is not None else 0
        action = bots[side].decide(game, side, series.score)
        assert action in series.legal_actions(side)
        series.apply(action)
    raise AssertionError("the series did not end")


def test_bots_play_a_five_point_match_to_the_end() -> None:
    """R12: a match ends when a side reaches 5; the Crawford game has no doubles."""
    match = Match(5, dice=RandomDice(3))
    _finish(match, (Bot(seed=1), Bot(seed=2)))
    assert match.is_over and max(match.score) >= 5
    for game in match.games:
        if game.rules.crawford:
            assert not any(isinstance(event, Doubled) for event in game.history)


def test_bots_play_a_money_session_with_cube_options() -> None:
    """R11: Jacoby and beavers on; every game ends with a result."""
    session = Session(jacoby=True, beavers=True, max_games=4, dice=RandomDice(8))
    _finish(session, (Bot(seed=3), Bot(seed=4)))
    assert session.is_over
    assert all(game.result is not None for game in session.games)


def test_bot_takes_an_early_double() -> None:
    """R10: straight after the opening a double is an easy take."""
    game = Game(GameRules(), dice=RandomDice(1))
    bot = Bot()
    game.roll(0)
    while game.phase is not Phase.ROLL:
        side = game.turn if game.turn is not None else 0
        game.apply(bot.decide(game, side))
    doubler = game.on_roll
    assert doubler is not None
    game.double(doubler)
    game.apply(bot.decide(game, 1 - doubler))
    assert game.cube_owner == 1 - doubler and game.cube_value == 2


def test_bot_passes_when_the_doubler_bears_off_next_roll() -> None:
    """R10: the doubler's two checkers on the 1-point come off on any roll: pass."""
    doubler_view = Position.from_points({1: 2}, {6: 3, 5: 3}, checkers=15)
    # Side 1 wins the opening roll (1 against 2, R3) and plays it; then side 0 doubles.
    game = Game(GameRules(), dice=ScriptedDice([(1, 2)]), start=doubler_view)
    game.roll(0)
    game.play(1, "6/4 5/4")
    game.double(0)
    game.apply(Bot().decide(game, 1))
    assert game.result is not None
    assert (game.result.winner, game.result.points) == (0, 1)


def test_bot_resigns_a_game_it_cannot_win() -> None:
    """R9: the opponent bears off next roll for sure and the bot has nothing off:
    it offers a gammon, the least it is sure to lose, and the bot opponent accepts."""
    opponent_view = Position.from_points({4: 1, 1: 1}, {13: 15}, checkers=15)
    # Side 0 wins the opening roll (2 against 1, R3) and keeps a sure finish.
    game = Game(GameRules(), dice=ScriptedDice([(2, 1)]), start=opponent_view)
    game.roll(0)
    game.play(0, "4/2 1/off")
    assert game.phase is Phase.ROLL and game.on_roll == 1
    game.apply(Bot().decide(game, 1))
    assert game.resignation == (1, 2)
    game.apply(Bot().decide(game, 0))
    assert game.result is not None
    assert (game.result.winner, game.result.points) == (0, 2)


def test_cube_state_is_seen_from_the_side_asked() -> None:
    game = Game(GameRules(), dice=RandomDice(1))
    game.roll(0)
    assert CubeState.of_game(game, 0).owner is CubeOwner.CENTRED
    assert not any(isinstance(e, Resigned) for e in game.history)


def test_the_bot_decides_without_touching_the_game_and_offers_once_a_turn() -> None:
    opponent_view = Position.from_points({4: 1, 1: 1}, {13: 15}, checkers=15)
    game = Game(GameRules(), dice=ScriptedDice([(2, 1), (3, 3)]), start=opponent_view)
    game.roll(0)
    game.play(0, "4/2 1/off")
    history = game.history
    bot = Bot()
    assert bot.decide(game, 1) == Resign(1, 2)
    assert game.history == history  # deciding changes nothing
    game.apply(Resign(1, 2))
    game.reject_resignation(0)
    assert isinstance(game.history[-1], ResignationRejected)
    decision = bot.decide(game, 1)  # the offer was just rejected: play on
    assert decision == Roll(1) and decision not in (Forfeit(1), OutOfTime(1))
