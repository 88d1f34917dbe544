"""A parsed .mat file played through the rules (:class:`~gammon.match.Match`,
:class:`~gammon.match.Session`, :class:`~gammon.game.Game`), so that every cell is
checked where it stands and the result is a live series that can go on. This module
holds the series (its games, their scores); each game's cells are played by
:mod:`gammon.matfile.game_replay`.
"""

from __future__ import annotations

import contextlib

from gammon.dice import DiceSource, RandomDice
from gammon.errors import IllegalActionError, MatFileError
from gammon.match import Match, SeriesRules, Session
from gammon.matfile.game_replay import GameReplay, RecordedDice
from gammon.matfile.reader import read_mat
from gammon.matfile.record import MatGame, ParsedMatch
from gammon.matfile.tags import (
    file_rules,
    forfeited_games,
    head_ties,
    offers_by_game,
    unrolled_passes,
)
from gammon.variants import Variant

__all__ = ["replay_mat"]



def replay_mat(
    source: str | ParsedMatch,
    variant: str | Variant | None = None,
    *,
    dice: DiceSource | None = None,
) -> Match | Session:
    """Play a .mat file through the rules: a :class:`Match`, or a :class:`Session` for money.

    ``variant`` is the file's ``Variation`` tag when not given (standard
    backgammon without one). ``dice`` rolls for the series from where the file
    stops. Every cell must be legal where it stands, the scores must be the ones
    the games before give, and each ``Wins`` line must say who won and how much;
    otherwise :class:`~gammon.errors.MatFileError` names the line.

    >>> replay_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/5\\n")
    <Match to 1 score=(0, 0) games=1 over=False>
    >>> replay_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/4\\n")
    Traceback (most recent call last):
    ...
    gammon.errors.MatFileError: line 4: A cannot play '8/5 6/4' with 31: 6/4 needs a 2; ...
    """
    parsed = source if isinstance(source, ParsedMatch) else read_mat(source)
    rules = file_rules(parsed, variant)
    try:
        return _replay(parsed, rules, dice)
    except MatFileError as first:
        if not parsed.is_money:
            raise
        # GNU Backgammon writes no Jacoby tag in its money files: when the points add up
        # only under the Jacoby rule (R11), the file was played with it.
        if not rules.jacoby and "Jacoby" not in parsed.metadata:
            with contextlib.suppress(MatFileError):
                return _replay(parsed, file_rules(parsed, variant, jacoby=True), dice)
        # Some sites start every game of a money session at 0 : 0: there the score lines are
        # no running score, and the games are read as they are.
        if any(game.score not in (None, (0, 0)) for game in parsed.games):
            raise
        try:
            return _replay(parsed, rules, dice, check_scores=False)
        except MatFileError:
            raise first from None


def _start_score(parsed: ParsedMatch) -> tuple[int, int]:
    """Where a match file begins: the score of its first game's line (FIBS writes the score
    of a match taken up again, ``Rusty,1658 : 0   nori,1764 : 2``), 0-0 without one."""
    first = parsed.games[0] if parsed.games else None
    if parsed.is_money or first is None or first.score is None:
        return 0, 0
    if max(first.score) >= parsed.length:
        raise MatFileError(
            f"line {first.score_line}: game 1 starts at {first.score[0]}-{first.score[1]}, "
            f"but a {parsed.length}-point match is over at {parsed.length}"
        )
    return first.score


def _replay(
    parsed: ParsedMatch,
    rules: SeriesRules,
    dice: DiceSource | None,
    *,
    check_scores: bool = True,
) -> Match | Session:
    forfeits = forfeited_games(parsed)
    ties = head_ties(parsed)
    offers = offers_by_game(parsed)
    unrolled = unrolled_passes(parsed)
    feed = RecordedDice()
    start = _start_score(parsed)
    series = (
        Match.from_rules(rules, feed, score=start) if rules.is_match else rules.new_series(feed)
    )
    for position, game in enumerate(parsed.games):
        before = _start_game(series, game, first=not position, check_scores=check_scores)
        following = parsed.games[position + 1] if position + 1 < len(parsed.games) else None
        replay = GameReplay(
            series.game,
            game,
            parsed.names,
            feed,
            forfeit=forfeits.get(game.number),
            ties=game.opening_ties or ties.get(game.number, ()),
            offers=offers.get(game.number, []),
            unrolled=unrolled.get(game.number, frozenset()),
        )
        replay.run()
        replay.finish(
            before,
            following,
            series.length - before[game.winner]
            if isinstance(series, Match) and game.winner is not None
            else None,
        )
    feed.after = dice if dice is not None else RandomDice()
    return series


def _start_game(
    series: Match | Session, game: MatGame, *, first: bool, check_scores: bool
) -> tuple[int, int]:
    """Begin the series' game for ``game`` (from its position, if it gives one) and check
    its score line and Crawford mark; returns the score before it."""
    if not first:
        try:
            series.new_game()
        except IllegalActionError as exc:
            raise MatFileError(
                f"line {game.line}: game {game.number} cannot be played: {exc}"
            ) from exc
    if game.start is not None:
        try:
            series.set_up(game.start)
        except IllegalActionError as exc:
            raise MatFileError(
                f"line {game.line}: game {game.number} cannot start from its position: {exc}"
            ) from exc
    before = _score_before(series)
    if check_scores and game.score is not None and game.score != before:
        raise MatFileError(
            f"line {game.score_line}: game {game.number} starts at "
            f"{game.score[0]}-{game.score[1]}, "
            f"but the games before it make the score {before[0]}-{before[1]}"
        )
    if game.crawford and not series.game.rules.crawford:
        raise MatFileError(
            f"line {game.line}: game {game.number} is marked as the Crawford game, "
            "but the rules make it a normal one"
        )
    return before


def _score_before(series: Match | Session) -> tuple[int, int]:
    """The score before the current game, as the games before it make it."""
    done = series.games[:-1]
    score = list(series.start_score)
    if isinstance(series, Session):
        for paid, finished in zip(series.payouts, done, strict=False):
            assert finished.result is not None
            score[finished.result.winner] += paid
    else:
        for finished in done:
            assert finished.result is not None
            score[finished.result.winner] += finished.result.points
    return score[0], score[1]


