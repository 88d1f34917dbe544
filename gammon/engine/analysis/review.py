"""Walking a game's history and reviewing each decision and roll on the way.

The history is replayed through the rules (:class:`gammon.game.Game`) one
event at a time, so every decision is judged in exactly the state the player
saw: the board, the dice, the cube and the match score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from gammon.dice import ScriptedDice
from gammon.engine.analysis.judge import Engine, Frame, Judge, average_roll, value_before_roll
from gammon.engine.analysis.results import (
    CLOSE_CUBE,
    Candidate,
    CheckerReview,
    CubeReview,
    GameAnalysis,
    RollLuck,
    luck_mark_for,
    mark_for,
    summarise,
)
from gammon.engine.cube import CubeDecision, CubeState
from gammon.engine.cubeful import MAX_CUBE_PLY, analyse_cube
from gammon.engine.evaluator import default_evaluator
from gammon.errors import IllegalActionError, InvalidPositionError
from gammon.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    Moved,
    OpeningRolled,
    Passed,
    PassReason,
    Rolled,
    Took,
)
from gammon.game import Game, Phase, thrown_dice
from gammon.play import Play
from gammon.position import ALL_ROLLS, Dice, Position
from gammon.rules import GameRules

if TYPE_CHECKING:
    pass

__all__ = ["DEFAULT_PLY", "Progress", "analyse_game", "steps"]

#: The default search depth of the decisions. 2-ply (two half-moves: GNU
#: Backgammon's "world class", eXtreme Gammon's 3-ply) is the usual depth of
#: serious analysis: 1-ply judges cube decisions with a known odd-ply bias and
#: 0-ply misses what the next rolls bring. A 7-point match takes about 12 CPU
#: seconds at this depth (bench/analysis.py: three matches between bot levels,
#: 25 decisions a second), 1-ply about 2 s, 0-ply about 1 s.
DEFAULT_PLY: Final = 2
#: Luck is measured at 0-ply, as GNU Backgammon does by default: it compares the
#: 21 rolls with each other, where the network's bias cancels out.
DEFAULT_LUCK_PLY: Final = 0
#: Candidates kept in each checker review (the played one is added if not among them).
SHOWN_CANDIDATES: Final = 5

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each step of an analysis (see :func:`steps`)."""

DEFAULT_NAMES: Final = ("side 0", "side 1")
#: The 15 rolls an opening can bring (R3: never a double), each 2 of the 30 throws.
_OPENINGS: Final = tuple(dice for dice, weight in ALL_ROLLS if weight == 2)


def steps(histories: Sequence[Sequence[Event]]) -> int:
    """How many steps an analysis of these games reports: its plays, rolls, doubles and starts."""
    total = 0
    for history in histories:
        opening = False
        for event in history:
            if isinstance(event, OpeningRolled):
                total += not opening
                opening = True
            elif isinstance(event, Moved | Rolled | Doubled):
                total += 1
    return total


@dataclass(frozen=True)
class _Offer:
    """A cube decision judged before the side acts on it."""

    index: int
    side: int
    frame: Frame
    decision: CubeDecision
    chances: tuple[float, float, float, float, float]
    position_id: str | None
    match_id: str


@dataclass
class _GameState:
    number: int
    score: tuple[int, int]
    checker: list[CheckerReview] = field(default_factory=list)
    cube: list[CubeReview] = field(default_factory=list)
    luck: list[RollLuck] = field(default_factory=list)
    forced: list[int] = field(default_factory=lambda: [0, 0])


class Reviewer:
    def __init__(
        self, evaluator: Engine, ply: int, luck_ply: int, progress: Progress | None, total: int
    ) -> None:
        check_depth(ply, luck_ply)
        self.judge = Judge(evaluator)
        self.ply = ply
        self.luck_ply = luck_ply
        self.progress = progress
        self.total = total
        self.done = 0

    def _tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)

    # -- one game -------------------------------------------------------------

    def game(
        self,
        rules: GameRules,
        history: Sequence[Event],
        *,
        start: Position | None,
        score: tuple[int, int],
        number: int,
        names: tuple[str, str],
    ) -> GameAnalysis:
        events = tuple(history)
        game = Game(rules, dice=ScriptedDice(thrown_dice(events)), start=start)
        state = _GameState(number, score)
        pending: _Offer | None = None
        luck_on = not rules.variant.acey_deucey
        for index, event in enumerate(events):
            if index < len(game.history):  # it followed from the entries before it
                if game.history[index] != event:
                    raise IllegalActionError(
                        f"game {number}, history entry {index} ({event!r}) does not follow "
                        f"from the entries before it; the game gives {game.history[index]!r}"
                    )
                continue
            if isinstance(event, OpeningRolled):
                _act(game, event, index)
                if luck_on:
                    state.luck.append(self._opening_luck(game, state, index))
                self._tick()
                continue
            if isinstance(event, Rolled | Passed) and _live_cube(game, event.side, state.score):
                offer = self._offer(game, state, index, event.side)
                state.cube.append(_cube_review(offer, state.number, self.ply, False, None))
            if isinstance(event, Rolled):
                following = events[index + 1] if index + 1 < len(events) else None
                danced = (
                    isinstance(following, Passed) and following.reason is PassReason.CLOSED_BOARD
                )
                if luck_on and not danced:  # a recorded dance (R7): every roll dances there
                    state.luck.append(self._luck(game, state, index, event.side, event.dice))
                self._tick()
            elif isinstance(event, Moved):
                self._checker(game, state, index, event)
                self._tick()
            elif isinstance(event, Doubled):
                pending = self._offer(game, state, index, event.side)
                self._tick()
            elif (
                isinstance(event, Took | Dropped | Beavered) and game.phase is Phase.DOUBLE_OFFERED
            ):
                assert pending is not None
                response = {Took: "take", Dropped: "pass", Beavered: "beaver"}[type(event)]
                state.cube.append(_cube_review(pending, state.number, self.ply, True, response))
                pending = None
            _act(game, event, index)
        if pending is not None:  # the history stops before the answer
            state.cube.append(_cube_review(pending, state.number, self.ply, True, None))
        self.judge.forget()
        return self._finish(game, state, names)

    def _frame(self, game: Game, state: _GameState, side: int) -> Frame:
        return Frame(CubeState.of_game(game, side, state.score), game.cube_value)

    def _checker(self, game: Game, state: _GameState, index: int, event: Moved) -> None:
        side = event.side
        plays = game.legal_plays()
        if len(plays) == 1:
            state.forced[side] += 1
            return
        position = game.position
        dice = game.dice
        assert dice is not None
        played = _find(plays, position, event.play, dice)
        frame = self._frame(game, state, side)
        ranked, rank = self.judge.rank_plays(position, dice, self.ply, frame, played)
        best = ranked[0].value
        shown = ranked[:SHOWN_CANDIDATES]
        mine = next(c for c in ranked if c.play == played)
        if mine not in shown:
            shown.append(mine)
        loss = max(0.0, frame.normalise(best - mine.value))
        state.checker.append(
            CheckerReview(
                game=state.number,
                index=index,
                side=side,
                dice=dice,
                position_id=_position_id(position),
                match_id=game.match_id(state.score),
                played=str(played),
                candidates=tuple(
                    Candidate(
                        str(c.play),
                        frame.equity(c.value),
                        max(0.0, frame.normalise(best - c.value)),
                        c.chances.probabilities,
                        c.ply,
                        None if frame.is_money else c.value,
                    )
                    for c in shown
                ),
                rank=rank,
                legal_plays=len(plays),
                loss=loss,
                cost=max(0.0, frame.cost(best - mine.value)),
                mark=mark_for(loss),
            )
        )

    def _offer(self, game: Game, state: _GameState, index: int, side: int) -> _Offer:
        """The cube decision of ``side``, on roll now and free to double."""
        frame = self._frame(game, state, side)
        position = game.position_for(side)
        chances = self.judge.evaluate(position, self.ply)
        # The engine's one cube function, searched as deep as it goes (2-ply at most;
        # a 3-ply analysis shows 3-ply chances and takes the 2-ply cubeful decision).
        ply = min(self.ply, MAX_CUBE_PLY)
        decision = analyse_cube(
            position,
            frame.state,
            ply=ply,
            evaluator=self.judge.evaluator,
            chances=chances if ply == 0 else None,
        ).decision
        assert decision is not None  # an offer is made only where the side may double
        return _Offer(
            index,
            side,
            frame,
            decision,
            chances.probabilities,
            _position_id(position),
            game.match_id(state.score),
        )

    def _luck(self, game: Game, state: _GameState, index: int, side: int, dice: Dice) -> RollLuck:
        frame = self._frame(game, state, side)
        position = game.position_for(side)
        values = self.judge.roll_values(position, frame, self.luck_ply)
        native = values[(max(dice), min(dice))] - average_roll(values)
        luck = frame.normalise(native)
        # Mostly remembered: the search of the opponent's play that led here.
        chances = self.judge.evaluate(position, self.ply)
        equity = frame.equity(value_before_roll(chances, frame.state, position))
        return RollLuck(
            state.number,
            index,
            side,
            dice,
            luck,
            frame.cost(native),
            luck_mark_for(luck),
            chances.probabilities,
            equity,
        )

    def _opening_luck(self, game: Game, state: _GameState, index: int) -> RollLuck:
        """The opening roll's luck for the side that plays it (R3).

        Each of the 30 unequal throws is as likely: the side with the higher die
        plays the roll. The baseline is the roller's mean value over all 30.
        """
        throws = [e for e in game.history if isinstance(e, OpeningRolled)]
        die0, die1 = throws[-1].dice
        roller = 0 if die0 > die1 else 1
        dice = (max(die0, die1), min(die0, die1))
        frames = [self._frame(game, state, side) for side in (0, 1)]
        values = [
            self.judge.roll_values(game.position_for(side), frames[side], self.luck_ply, _OPENINGS)
            for side in (0, 1)
        ]
        mine, theirs = values[roller], values[1 - roller]
        frame = frames[roller]
        baseline = sum(mine[d] + frame.other(theirs[d]) for d in _OPENINGS) / (2 * len(_OPENINGS))
        native = mine[dice] - baseline
        luck = frame.normalise(native)
        return RollLuck(
            state.number,
            index,
            roller,
            dice,
            luck,
            frame.cost(native),
            luck_mark_for(luck),
            opening=True,
        )

    def _finish(self, game: Game, state: _GameState, names: tuple[str, str]) -> GameAnalysis:
        results = _results(game, state.score)
        forced = (state.forced[0], state.forced[1])
        players = tuple(
            summarise(
                side, names[side], state.checker, state.cube, state.luck, forced[side], results
            )
            for side in (0, 1)
        )
        result = game.result
        return GameAnalysis(
            number=state.number,
            score=state.score,
            match_length=game.rules.match_length,
            winner=None if result is None else result.winner,
            points=0 if result is None else result.points,
            end=None if result is None else str(result.reason),
            checker=tuple(state.checker),
            cube=tuple(state.cube),
            luck=tuple(state.luck),
            forced_plays=forced,
            results=results,
            players=(players[0], players[1]),
        )


def _cube_review(
    offer: _Offer, number: int, ply: int, doubled: bool, response: str | None
) -> CubeReview:
    """The review of a cube decision: the doubler's action and the taker's answer."""
    frame, decision = offer.frame, offer.decision
    optimal = decision.equity
    actual = decision.answered if doubled else decision.no_double
    doubler_native = max(0.0, optimal - actual)
    taker_native = 0.0
    if response is not None:
        beaver = decision.double_beaver
        answered = {
            "take": decision.double_take,
            "pass": decision.double_pass,
            # As the engine values it: the doubler may refuse the beaver and lose 2 (R11).
            "beaver": decision.double_take if beaver is None else max(beaver, -2.0),
        }[response]
        taker_native = max(0.0, answered - decision.answered)
    doubler_loss = frame.normalise(doubler_native)
    taker_loss = frame.normalise(taker_native)
    worst_double = min(decision.double_take, decision.double_pass)
    close = doubled or frame.normalise(optimal - worst_double) < CLOSE_CUBE
    beaver = decision.double_beaver
    return CubeReview(
        game=number,
        index=offer.index,
        side=offer.side,
        position_id=offer.position_id,
        match_id=offer.match_id,
        cube_value=frame.cube,
        chances=offer.chances,
        no_double=frame.equity(decision.no_double),
        double_take=frame.equity(decision.double_take),
        double_pass=frame.equity(decision.double_pass),
        double_beaver=None if beaver is None else frame.equity(beaver),
        verdict=str(decision),
        optimal=frame.equity(optimal),
        doubled=doubled,
        response=response,
        doubler_loss=doubler_loss,
        doubler_cost=frame.cost(doubler_native),
        doubler_mark=mark_for(doubler_loss),
        taker_loss=taker_loss,
        taker_cost=frame.cost(taker_native),
        taker_mark=mark_for(taker_loss),
        close=close,
        ply=ply,
        no_double_mwc=None if frame.is_money else decision.no_double,
        double_take_mwc=None if frame.is_money else decision.double_take,
        double_pass_mwc=None if frame.is_money else decision.double_pass,
    )


def _find(plays: Sequence[Play], position: Position, text: str, dice: Dice) -> Play:
    """The legal play a history's notation names."""
    for play in plays:
        if str(play) == text:
            return play
    parsed = position.parse_play(text, dice)
    return next(play for play in plays if play == parsed)


def _position_id(position: Position) -> str | None:
    try:
        return position.id
    except InvalidPositionError:  # acey-deucey checkers still waiting to enter
        return None


def _act(game: Game, event: Event, index: int) -> None:
    """Take the action ``event`` records, checking the rules give exactly that entry."""
    try:
        game.apply_event(event)
    except IllegalActionError as exc:
        raise IllegalActionError(f"history entry {index} ({event!r}): {exc}") from exc
    if index >= len(game.history) or game.history[index] != event:
        raise IllegalActionError(f"history entry {index} ({event!r}) is not what the rules give")


def _live_cube(game: Game, side: int, score: tuple[int, int]) -> bool:
    """Whether ``side`` faces a cube decision: it may double, and in a match doubling can
    still matter (a side that wins the match with the cube as it stands has a dead cube,
    as GNU Backgammon counts it; at double match point both do)."""
    if not game.can_double(side):
        return False
    length = game.rules.match_length
    return not length or length - score[side] > game.cube_value


def _results(game: Game, score: tuple[int, int]) -> tuple[float, float]:
    """What each side won in ``game``: points (money) or MWC gained (match)."""
    result = game.result
    if result is None:
        return (0.0, 0.0)
    won = [0, 0]
    won[result.winner] = result.points
    if not game.rules.match_length:
        return (float(won[0] - won[1]), float(won[1] - won[0]))
    gained = []
    for side in (0, 1):
        match_score = CubeState.of_game(game, side, score).score
        assert match_score is not None
        gained.append(match_score.after(won[side], won[1 - side]) - match_score.equity())
    return (gained[0], gained[1])


# -- the public interface ---------------------------------------------------------


def analyse_game(
    rules: GameRules | None,
    history: Sequence[Event],
    *,
    start: Position | None = None,
    score: tuple[int, int] = (0, 0),
    number: int = 1,
    names: tuple[str, str] = DEFAULT_NAMES,
    ply: int = DEFAULT_PLY,
    luck_ply: int = DEFAULT_LUCK_PLY,
    progress: Progress | None = None,
    evaluator: Engine | None = None,
) -> GameAnalysis:
    """Review every decision and roll of one game, given its rules and history.

    ``score`` is the match score before the game (side 0 first) in match play;
    ``start`` the game's start if it was set up. ``progress(done, total)`` is
    called after each step (:func:`steps`). A history that stops early is
    analysed as far as it goes.
    """
    reviewer = Reviewer(
        evaluator or default_evaluator(), ply, luck_ply, progress, steps([history])
    )
    return reviewer.game(
        rules if rules is not None else GameRules(),
        history,
        start=start,
        score=score,
        number=number,
        names=names,
    )


def check_depth(ply: int, luck_ply: int) -> None:
    if ply not in (0, 1, 2, 3) or luck_ply not in (0, 1, 2, 3):
        raise ValueError(f"analysis depth is 0 to 3 ply, got ply={ply!r}, luck_ply={luck_ply!r}")
