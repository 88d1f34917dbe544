"""One game of a parsed .mat file played cell by cell into a live
:class:`~gammon.game.Game`, every refusal of the rules turned into a MatFileError; the
series around the games is :mod:`gammon.matfile.replay`'s.
"""

from __future__ import annotations

from gammon.dice import Dice, DiceSource
from gammon.errors import IllegalActionError, IllegalPlayError, InvalidPlayError, MatFileError
from gammon.events import Beavered, Doubled, EndReason, Passed
from gammon.game import Game, Phase
from gammon.matfile.record import MatGame, MatTurn, TurnKind
from gammon.matfile.tags import Offer

__all__ = ["GameReplay", "NoRoll", "RecordedDice", "dice_text"]


class RecordedDice:
    """The dice of the file, handed to the game one roll at a time as the replay reaches them.

    Once the file is played, ``after`` rolls for the series from there on.
    """

    def __init__(self) -> None:
        self.queue: list[Dice] = []
        self.after: DiceSource | None = None

    def roll(self) -> Dice:
        if self.queue:
            return self.queue.pop(0)
        if self.after is None:
            raise NoRoll
        return self.after.roll()

    def __repr__(self) -> str:
        return f"<dice of a .mat file, then {self.after!r}>"


class NoRoll(Exception):
    """The game asked for a roll the file does not give at this point."""

class GameReplay:
    """Plays one game's cells into a live game, turning every refusal into a MatFileError."""

    def __init__(
        self,
        game: Game,
        parsed: MatGame,
        names: tuple[str, str],
        feed: RecordedDice,
        *,
        forfeit: bool | None = None,
        ties: tuple[Dice, ...] = (),
        offers: list[Offer] | None = None,
        unrolled: frozenset[int] = frozenset(),
    ) -> None:
        self.unrolled = unrolled  # where the ClosedBoard tag says a dance's roll stands in
        self.forfeit = forfeit  # None, or whether the game was lost on time (the Forfeit tag)
        self.game = game
        self.parsed = parsed
        self.names = names
        self.feed = feed
        self.ties = ties
        self.offers = list(offers or [])  # resignations the cells do not show, by event index
        self.unplayed: MatTurn | None = None  # a roll cell whose play the file has not given

    def fail(self, line: int, message: str) -> MatFileError:
        return MatFileError(f"line {line}: {message}")

    def run(self) -> None:
        parsed = self.parsed
        if self.ties and not parsed.turns:
            raise self.fail(
                parsed.line, f"game {parsed.number} has opening ties but no opening roll"
            )
        for turn in parsed.turns:
            try:
                self.offers_due()
                self.apply(turn)
            except IllegalActionError as exc:
                raise self.fail(turn.line, str(exc)) from exc
            except NoRoll as exc:  # pragma: no cover - every roll the game asks for is fed
                raise self.fail(turn.line, "the game needs a roll the file does not give") from exc
        self.offers_due()
        if self.offers:
            offer = self.offers[0]
            raise self.fail(
                offer.line,
                f"the Resignations tag's offer at game {parsed.number} event {offer.event} "
                f"does not fit the game, which has {len(self.game.history)} events",
            )

    def offers_due(self) -> None:
        """Make the resignation offers of the Resignations tag that fall at this point."""
        game = self.game
        while self.offers and self.offers[0].event <= len(game.history):
            offer = self.offers.pop(0)
            where = f"game {self.parsed.number} event {offer.event}"
            if offer.event != len(game.history):
                raise self.fail(
                    offer.line, f"the Resignations tag's offer at {where} does not fit the game"
                )
            try:
                game.resign(offer.side, offer.value)
                if offer.outcome == "rejected":
                    game.reject_resignation(1 - offer.side)
                elif offer.outcome == "accepted":
                    game.accept_resignation(1 - offer.side)
            except IllegalActionError as exc:
                raise self.fail(
                    offer.line, f"the Resignations tag's offer at {where} cannot be made: {exc}"
                ) from exc

    def settle(self, turn: MatTurn) -> None:
        """Let a side closed out on the bar lose its turn, for files that do not write it (R7)."""
        game = self.game
        for _ in range(2):
            waiting = game.turn
            if (
                game.phase is Phase.ROLL
                and waiting is not None
                and waiting != turn.side
                and self.closed_out(waiting)
            ):
                game.roll(waiting)

    def closed_out(self, side: int) -> bool:
        return self.game.position_for(side).is_closed_out()

    def apply(self, turn: MatTurn) -> None:
        game = self.game
        self.answer_pending(turn)
        kind = turn.kind
        if kind is TurnKind.ROLL:
            self.roll(turn)
        elif kind is TurnKind.CLOSED_OUT:
            self.lose_turn(turn)
        elif kind in (TurnKind.DOUBLE, TurnKind.BEAVER):
            self.raise_cube(turn)
        elif kind is TurnKind.TAKE:
            game.take(turn.side)
        elif kind is TurnKind.DROP:
            game.drop(turn.side)
        elif kind is TurnKind.RESIGN:
            assert turn.value is not None
            game.resign(turn.side, turn.value)
        elif kind is TurnKind.REJECT:
            if game.phase in (Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED):
                game.drop(turn.side)  # "Rejects" for a dropped double, as some sites write it
            else:
                game.reject_resignation(turn.side)

    def answer_pending(self, turn: MatTurn) -> None:
        """Before ``turn``: refuse it where a roll shown without its play still waits for
        one, and take a beaver the file does not answer."""
        game = self.game
        if self.unplayed is not None and not (
            turn.kind in (TurnKind.RESIGN, TurnKind.REJECT)
            or (turn.kind is TurnKind.ROLL and turn.side == self.unplayed.side)
        ):
            raise self.fail(
                self.unplayed.line,
                f"{self.names[self.unplayed.side]} rolled {dice_text(self.unplayed.dice)} "
                f"but the file gives no play for it (legal plays exist, such as "
                f"{game.legal_plays()[0]})",
            )
        if game.phase is Phase.BEAVER_OFFERED and turn.kind not in (
            TurnKind.TAKE,
            TurnKind.DROP,
        ):
            # GNU Backgammon writes no take of a beaver: the doubler's next action implies it.
            doubler = game.on_roll
            if turn.side != doubler:
                raise self.fail(
                    turn.line, f"{self.names[1 - turn.side]}'s beaver waits for an answer"
                )
            game.take(turn.side)

    def lose_turn(self, turn: MatTurn) -> None:
        """A "Closed out" cell: the side on the bar against a closed board passes (R7)."""
        game = self.game
        name = self.names[turn.side]
        if game.phase is not Phase.ROLL or game.turn != turn.side:
            raise self.fail(turn.line, f"{name} cannot lose a turn here: {self.waiting()}")
        events = game.roll(turn.side)
        if not isinstance(events[0], Passed):
            raise self.fail(
                turn.line, f"{name} is not on the bar against a closed board"
            )

    def raise_cube(self, turn: MatTurn) -> None:
        """A double or a beaver, checked against the cube value the file writes."""
        game = self.game
        name = self.names[turn.side]
        if turn.kind is TurnKind.DOUBLE:
            self.settle(turn)
            events = game.double(turn.side)
            offered = events[0]
            assert isinstance(offered, Doubled)
            if turn.value is not None and turn.value != offered.value:
                raise self.fail(
                    turn.line,
                    f"{name} doubles the cube to {offered.value}, not {turn.value}",
                )
        else:
            events = game.beaver(turn.side)
            beaver = events[0]
            assert isinstance(beaver, Beavered)
            if turn.value is not None and turn.value != beaver.value:
                raise self.fail(
                    turn.line,
                    f"{name}'s beaver raises the cube to {beaver.value}, not {turn.value}",
                )

    def waiting(self) -> str:
        game = self.game
        if game.result is not None:
            return f"the game is over ({game.result})"
        side = game.turn
        who = self.names[side] if side is not None else "the opening roll"
        return f"the game waits for {who} ({game.phase})"

    def roll(self, turn: MatTurn) -> None:
        """A roll cell: its dice thrown, then its play made (or kept for later)."""
        if self.throw(turn):
            self.unplayed = None
            self.make_play(turn)

    def throw(self, turn: MatTurn) -> bool:
        """Throw the dice of a roll cell, by the phase the game is in; False where they
        danced on the bar against a closed board, which leaves nothing to play."""
        game = self.game
        name = self.names[turn.side]
        dice = turn.dice
        assert dice is not None and turn.play is not None
        if game.phase is Phase.OPENING:
            if dice[0] == dice[1]:
                raise self.fail(
                    turn.line,
                    f"the opening roll cannot be a double like {dice_text(dice)}: "
                    "equal opening dice are thrown again",
                )
            high, low = max(dice), min(dice)
            throw = (high, low) if turn.side == 0 else (low, high)
            self.feed.queue = [*self.ties, throw]
            game.roll(turn.side)
            self.feed.queue = []
            self.offers_due()
        elif game.phase is Phase.MOVE and self.unplayed is not None:
            # The play of a roll shown earlier without one (a resignation came in between).
            if turn.side != game.on_roll or sorted(dice) != sorted(game.dice or ()):
                raise self.fail(turn.line, f"{name} cannot roll now: {self.waiting()}")
        elif game.phase is Phase.CHOOSE_DOUBLE and game.turn == turn.side:
            if dice[0] != dice[1]:
                raise self.fail(
                    turn.line,
                    f"{name} names a double after 1-2, not {dice_text(dice)}",
                )
            game.choose_double(turn.side, dice[0])
        else:
            self.settle(turn)
            if game.phase is not Phase.ROLL or game.turn != turn.side:
                raise self.fail(turn.line, f"{name} cannot roll now: {self.waiting()}")
            if self.closed_out(turn.side):
                self.dance(turn, dice)
                return False
            self.feed.queue = [dice]
            game.roll(turn.side)
            self.feed.queue = []
            self.offers_due()
        return True

    def dance(self, turn: MatTurn, dice: Dice) -> None:
        """The file keeps the roll that danced, as GNU Backgammon and the sites throw one
        there; our own games pass without it (R7)."""
        game = self.game
        if turn.play:
            raise self.fail(
                turn.line,
                f"{self.names[turn.side]} is on the bar against a closed board and cannot "
                f"play {turn.play!r}",
            )
        if len(game.history) in self.unrolled:
            game.roll(turn.side)  # our own pass without a roll, its roll a stand-in
        else:
            game.dance(turn.side, dice)
        self.offers_due()

    def make_play(self, turn: MatTurn) -> None:
        """The play of a roll cell, once its dice are thrown: none where no checker can
        move, kept for later where the file shows none yet."""
        game = self.game
        name = self.names[turn.side]
        dice = turn.dice
        assert dice is not None and turn.play is not None
        if game.phase is not Phase.MOVE or game.on_roll != turn.side:
            if turn.play:
                raise self.fail(
                    turn.line,
                    f"{name} cannot play {turn.play!r} with {dice_text(dice)}: "
                    "no checker can move",
                )
            return
        if not turn.play:
            self.unplayed = turn
            return
        position = game.position
        try:
            play = position.parse_play(turn.play, game.dice or dice)
        except (InvalidPlayError, IllegalPlayError) as exc:
            raise self.fail(
                turn.line, f"{name} cannot play {turn.play!r} with {dice_text(dice)}: {exc}"
            ) from exc
        game.play(turn.side, play)

    def finish(
        self, before: tuple[int, int], following: MatGame | None, needed: int | None
    ) -> None:
        """Check the game's end against its ``Wins`` line, or end it as the file says.

        ``before`` is the score before the game, ``following`` the next game of the
        file (whose score tells the result of a game without a ``Wins`` line), and
        ``needed`` what the winner lacked to win the match.
        """
        game = self.game
        parsed = self.parsed
        last = parsed.turns[-1].line if parsed.turns else parsed.line
        winner_side, points, line = parsed.winner, parsed.points, parsed.result_line
        if winner_side is None and following is not None:
            # No result written (some files leave it out): the rules' own end, or the next
            # game's score, says who won.
            if game.is_over:
                return
            winner_side, points = self.result_from(before, following, last)
            line = last
        if winner_side is None:
            return  # the last game of the file, unfinished (or finished without a Wins line)
        assert points is not None and line is not None
        winner = self.names[winner_side]
        if not game.is_over:
            self.check_possible(winner_side, points, line, needed)
        if not game.is_over and self.forfeit is not None:
            try:
                game.forfeit(1 - winner_side, on_time=self.forfeit, points=points)
            except IllegalActionError as exc:
                raise self.fail(line, f"{winner} cannot win by forfeit here: {exc}") from exc
        if not game.is_over:
            try:
                if game.phase is not Phase.RESIGNATION_OFFERED:
                    cube = game.cube_value
                    value, rest = divmod(points, cube)
                    if needed is not None and points == needed and rest:
                        # An online site's cap (R12): the winner is given only what the match
                        # needed, so the resignation was worth more, at the next value up.
                        value, rest = value + 1, 0
                    if game.phase is Phase.OPENING or (
                        (rest or not 1 <= value <= 3) and needed is not None and points >= needed
                    ):
                        # No resignation gives this: the game was given up (a site's forfeit
                        # or loss on time, or a game abandoned before it began).
                        game.forfeit(1 - winner_side, points=points)
                        return self.check_result(winner_side, points, line)
                    if rest or not 1 <= value <= 3:
                        raise self.fail(
                            line,
                            f"{winner} wins {points} points, but the game is not over and "
                            f"a resignation with the cube at {cube} gives 1, 2 or 3 times that",
                        )
                    game.resign(1 - winner_side, value)
                game.accept_resignation(winner_side)
            except IllegalActionError as exc:
                raise self.fail(line, f"{winner} cannot win here: {exc}") from exc
        self.check_result(winner_side, points, line, needed)

    def check_possible(
        self, winner_side: int, points: int, line: int, needed: int | None
    ) -> None:
        """Refuse a result no cube and no match length allow: a game not over by the rules
        ends by a resignation (at most 3 times the cube, R9) or, in a match, by a forfeit
        or a site's cap (what the winner needed, R12, R13)."""
        cube = self.game.cube_value
        most = max(3 * cube, needed or 0)
        if points <= most:
            return
        plural = "" if points == 1 else "s"
        limit = f"with the cube at {cube} a game not played out is worth at most {3 * cube}"
        if needed is not None:
            limit += f", and {self.names[winner_side]} needed only {needed} to win the match"
        raise self.fail(
            line,
            f"{self.names[winner_side]} wins {points} point{plural}, but no result gives that: "
            f"{limit}",
        )

    def check_result(
        self, winner_side: int, points: int, line: int, needed: int | None = None
    ) -> None:
        game = self.game
        result = game.result
        assert result is not None
        if (
            result.winner == winner_side
            and needed is not None
            and points == needed
            and result.points >= needed
        ):
            return  # an online site gives the match's last game only what was needed (R12)
        if (
            result.winner == winner_side
            and result.reason is EndReason.BEAR_OFF
            and game.rules.jacoby
            and game.cube_owner is None
            and points == game.position_for(winner_side).win_value() * game.cube_value
        ):
            return  # GNU Backgammon's Wins line gives the gammon, its score the Jacoby rule (R11)
        if result.winner != winner_side or result.points != points:
            raise self.fail(
                line,
                f"the file says {self.names[winner_side]} wins {points} point"
                f"{'' if points == 1 else 's'}, but {self.result_text()}",
            )

    def result_from(
        self, before: tuple[int, int], following: MatGame, last: int
    ) -> tuple[int, int]:
        """Who won the game and how much, from the score the next game starts at."""
        number = self.parsed.number
        if following.score is not None:
            gained = (following.score[0] - before[0], following.score[1] - before[1])
            for side in (0, 1):
                if gained[side] > 0 and gained[1 - side] == 0:
                    return side, gained[side]
        raise self.fail(
            last,
            f"game {number} has no 'Wins' line and is not over, and the score of game "
            f"{following.number} does not tell who won it",
        )

    def result_text(self) -> str:
        result = self.game.result
        assert result is not None
        plural = "" if result.points == 1 else "s"
        return (
            f"{self.names[result.winner]} won {result.points} point{plural} "
            f"({result.kind.name.lower()}, {result.reason})"
        )


def dice_text(dice: Dice | None) -> str:
    return "" if dice is None else f"{dice[0]}{dice[1]}"
