"""The bot: the engine's evaluation turned into a player, at a chosen strength.

>>> from gammon.position import Position
>>> str(Bot().choose_play(Position.initial(), (3, 1)))
'8/5 6/5'

:meth:`Bot.decide` chooses an action (:mod:`gammon.actions`) for a game of
the rules library (:class:`gammon.game.Game`): it rolls or doubles, takes,
drops or beavers, plays, answers resignations and offers its own when the game
is lost for sure. The caller applies it, so the bot never needs a game of its own.

>>> from gammon.game import Game
>>> from gammon.dice import RandomDice
>>> game, bots = Game(dice=RandomDice(4)), (Bot(seed=1), Bot(seed=2))
>>> while not game.is_over:
...     side = game.turn if game.turn is not None else 0
...     _ = game.apply(bots[side].decide(game, side))
>>> game.result.points >= 1
True

Weaker levels make mistakes the way people do: each candidate's equity gets
random noise before the choice, so close plays are confused often and bad
blunders rarely, rather than playing a random move now and then.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    PlayDice,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.engine.cube import CubeOwner, CubeState, TakerVerdict
from gammon.engine.cubeful import MAX_CUBE_PLY, CubeAnalysis, analyse_cube
from gammon.engine.evaluator import Evaluation, Search, default_evaluator
from gammon.engine.hint import match_ranking
from gammon.engine.network import invert
from gammon.engine.take import TAKE_MARGIN
from gammon.events import ResignationRejected, Resigned
from gammon.game import Game, Phase
from gammon.play import Play
from gammon.position import Dice, Position

__all__ = ["SKILL_LEVELS", "Bot", "SkillLevel"]

# Offer to resign only when the search leaves no doubt at all; look for it only
# when the quick evaluation already says the game is nearly hopeless.
_CERTAIN = 1e-6
_HOPELESS = 0.02


@dataclass(frozen=True)
class SkillLevel:
    """How a level plays: its search depth and the noise on each play's equity."""

    name: str
    ply: int
    noise: float
    description: str


SKILL_LEVELS: dict[str, SkillLevel] = {
    level.name: level
    for level in (
        SkillLevel("beginner", 0, 0.30, "often misjudges, like someone learning the game"),
        SkillLevel("casual", 0, 0.12, "plays sensibly with regular slips"),
        SkillLevel("intermediate", 0, 0.05, "a solid club player"),
        SkillLevel("advanced", 0, 0.015, "rarely errs"),
        SkillLevel("expert", 0, 0.0, "the network's own choice"),
        SkillLevel("world-class", 1, 0.0, "looks one roll ahead"),
        SkillLevel("grandmaster", 2, 0.0, "looks two rolls ahead (slow)"),
    )
}


class Bot:
    """A player backed by the engine; ``level`` names a :data:`SKILL_LEVELS` entry."""

    def __init__(
        self,
        level: str = "expert",
        *,
        ply: int | None = None,
        seed: int | None = None,
        evaluator: Search | None = None,
    ) -> None:
        if level not in SKILL_LEVELS:
            known = ", ".join(SKILL_LEVELS)
            raise ValueError(f"unknown skill level {level!r}; known levels: {known}")
        self.level = SKILL_LEVELS[level]
        self.ply = self.level.ply if ply is None else ply
        self.evaluator = evaluator or default_evaluator()
        self.rng = random.Random(seed)
        self.name = f"gammon-{level}" if ply is None else f"gammon-{ply}ply"

    def choose_play(
        self, position: Position, dice: Dice, state: CubeState | None = None
    ) -> Play:
        """The bot's play: the best by its search, blurred by its level's noise.

        At a match score (``state`` with a score) plays are ranked by match winning
        chance (:func:`~gammon.engine.hint.match_ranking`), the noise in normalised
        equity; money (or no ``state``) by cubeless equity.
        """
        if state is not None and state.score is not None:
            ranked_match = match_ranking(
                position, dice, state, ply=self.ply, evaluator=self.evaluator
            )
            if self.level.noise == 0.0:
                return ranked_match[0].play
            noisy = [h.equity + self.rng.gauss(0.0, self.level.noise) for h in ranked_match]
            return ranked_match[int(np.argmax(noisy))].play
        if self.level.noise == 0.0:
            return self.evaluator.best_play(position, dice, self.ply)
        ranked = self.evaluator.rank_plays(position, dice, self.ply)
        scores = np.array([evaluation.equity for _, evaluation in ranked])
        noise = np.array([self.rng.gauss(0.0, self.level.noise) for _ in ranked])
        return ranked[int(np.argmax(scores + noise))][0]

    # -- playing a game -----------------------------------------------------

    def decide(self, game: Game, side: int, score: tuple[int, int] = (0, 0)) -> Action:
        """The action ``side`` takes now in ``game``, which stays untouched.

        ``score`` is the match score before this game (side 0 first), which the
        cube decisions of match play need (R12); money games ignore it. The bot
        offers to resign only when the loss is certain, and not again right
        after its offer was rejected.
        """
        phase = game.phase
        if phase is Phase.OPENING:
            return Roll(side)
        if phase is Phase.MOVE:
            assert game.dice is not None
            state = CubeState.of_game(game, side, score) if game.rules.match_length else None
            return PlayDice(side, self.choose_play(game.position, game.dice, state))
        if phase is Phase.CHOOSE_DOUBLE:
            return ChooseDouble(side, self._best_double(game.position))
        if phase is Phase.RESIGNATION_OFFERED:
            return self._answer_resignation(game, side)
        if phase is Phase.DOUBLE_OFFERED:
            return self._answer_double(game, side, score)
        if phase is Phase.BEAVER_OFFERED:
            return self._answer_beaver(game, side)
        # Phase.ROLL: resign a lost game, double, or roll.
        evaluation = self.evaluator.evaluate(game.position, self.ply)
        if evaluation.win < _HOPELESS and not _just_refused(game, side):
            # Confirm one roll deeper, where a finish the opponent cannot miss is exact.
            resign = _certain_loss(self.evaluator.evaluate(game.position, max(1, self.ply)))
            if resign:
                return Resign(side, resign)
        if game.can_double(side):
            state = CubeState.of_game(game, side, score)
            decision = self._cube(game.position, state, evaluation).decision
            if decision is not None and decision.doubles:
                return Double(side)
        return Roll(side)

    def _cube(
        self, position: Position, state: CubeState, evaluation: Evaluation | None = None
    ) -> CubeAnalysis:
        """The cube searched at the bot's depth (at most 2-ply): the hints' and analysis' function.

        ``evaluation`` is the 0-ply one when the caller has it (deeper searches find
        their own).
        """
        ply = min(self.ply, MAX_CUBE_PLY)
        chances = evaluation if ply == 0 else None
        # At 0-ply a close take is searched a ply deeper (gammon.engine.take, issue 18).
        return analyse_cube(
            position,
            state,
            ply=ply,
            evaluator=self.evaluator,
            chances=chances,
            take_margin=TAKE_MARGIN,
        )

    def _best_double(self, position: Position) -> int:
        """Acey-deucey (R14): the double whose best play leaves the most equity."""
        best, best_equity = 1, -9.0
        for number in range(1, 7):
            ranked = self.evaluator.rank_plays(position, (number, number), 0)
            if ranked[0][1].equity > best_equity:
                best, best_equity = number, ranked[0][1].equity
        return best

    def _answer_double(self, game: Game, side: int, score: tuple[int, int]) -> Action:
        doubler = 1 - side
        position = game.position_for(doubler)
        state = CubeState.of_game(game, doubler, score)  # the cube moves only once taken
        decision = self._cube(position, state).decision
        assert decision is not None  # the doubler was free to double
        if decision.taker is TakerVerdict.PASS:
            return Drop(side)
        if decision.taker is TakerVerdict.BEAVER and game.can_beaver(side):
            return Beaver(side)
        return Take(side)

    def _answer_beaver(self, game: Game, side: int) -> Action:
        """The original doubler keeps playing for the beavered cube if that beats paying."""
        rules = game.rules
        state = CubeState(
            value=game.cube_value,
            owner=CubeOwner.OPPONENT,
            jacoby=rules.jacoby,
            beavers=rules.beavers,
            max_cube=max(rules.max_cube, game.cube_value),
            gammons=rules.gammons,
        )
        # Accepting plays on for twice the cube now showing; refusing loses what it
        # shows (R11): accept when the per-unit equity is above -1/2.
        playing_on = self._cube(game.position_for(side), state).no_double
        return Take(side) if playing_on >= -0.5 else Drop(side)

    def _answer_resignation(self, game: Game, side: int) -> Action:
        """Accept when the offer gives at least what playing on is expected to."""
        assert game.resignation is not None
        _resigner, value = game.resignation
        evaluation = self.evaluator.evaluate(game.position_for(side), self.ply)
        on_roll = game.on_roll == side
        mine = (
            evaluation
            if on_roll
            else Evaluation.from_array(invert(np.array(evaluation.probabilities)))
        )
        expected = _expected_points(mine, game.rules.gammons)
        if value >= expected - 1e-9:
            return AcceptResignation(side)
        return RejectResignation(side)


def _just_refused(game: Game, side: int) -> bool:
    """Whether ``side``'s offer to resign was rejected just now (it offers once a turn)."""
    history = game.history
    return (
        len(history) >= 2
        and isinstance(history[-1], ResignationRejected)
        and isinstance(history[-2], Resigned)
        and history[-2].side == side
    )


def _expected_points(evaluation: Evaluation, gammons: bool) -> float:
    """Cubeless points the resigner is expected to lose, per unit of cube (R9)."""
    if not gammons:
        return 2.0 * evaluation.win - 1.0
    return evaluation.equity


def _certain_loss(evaluation: Evaluation) -> int:
    """The resignation to offer (1-3) when the game is lost for sure, else 0."""
    if evaluation.win > _CERTAIN:
        return 0
    if evaluation.lose_gammon < _CERTAIN:
        return 1
    if evaluation.lose_gammon > 1 - _CERTAIN and evaluation.lose_backgammon < _CERTAIN:
        return 2
    if evaluation.lose_backgammon > 1 - _CERTAIN:
        return 3
    return 0
