"""Standard move notation, both ways: ``13/7* 7/5``, ``bar/22 6/off``, ``6/2(2)``.

Writing follows the common convention: a checker's consecutive moves are joined
(``24/13`` for 24/18 18/13) unless it hits on the way, where the hit ends the
segment (``13/7* 7/5``); equal segments are counted (``6/2(2)``); segments run
from the highest starting point down.

Writing has one implementation, compiled (:func:`put_notation`): ``str(play)``
writes a whole roll's plays in one call (:func:`format_rows`), and the server's
compiled ``legal_plays`` writer calls the same kernel for each play.

>>> from gammon.play import Move
>>> format_moves((Move(24, 18), Move(18, 13)))
'24/13'
>>> format_moves((Move(13, 7, True), Move(7, 5)))
'13/7* 7/5'
>>> format_moves((Move(6, 4), Move(6, 4), Move(4, 2), Move(4, 2)))
'6/2(2)'

Reading (:func:`parse_play`) takes what players type, finds the legal play it
names and, when there is none, says which rule the text breaks: a player
learns more from "point 7 is blocked" than from "illegal move". The text's syntax is
read in :mod:`gammon.notation_syntax` and the paths it names are played die by die in
:mod:`gammon.notation_search`; what is here matches the outcome to the legal plays and
says why a play is refused.

>>> from gammon.position import Position
>>> start = Position.initial()
>>> str(parse_play(start, "13-11, 13/7", (6, 2)))
'13/11 13/7'
>>> parse_play(start, "13/9", (6, 2))
Traceback (most recent call last):
...
gammon.errors.IllegalPlayError: 13/9 needs a 4; the dice are 6-2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numba import njit

from gammon import movegen
from gammon.dice import Dice, validate_dice
from gammon.errors import IllegalPlayError, InvalidPlayError
from gammon.i18n import N_
from gammon.messages import Message
from gammon.notation_search import (
    NO_CHECKER_ON,
    Outcome,
    PlaySearch,
    Step,
    bar_first,
    closest_play,
    complete_play,
    fits,
    leg_options,
    legs_left,
    listing,
)
from gammon.notation_syntax import (
    BAR_POINT,
    OFF_POINT,
    CheckerPath,
    point_name,
    read_error,
    read_paths,
)
from gammon.textkernels import literal, put, put_int

if TYPE_CHECKING:
    # Only for annotations: plays and positions call this module, never the reverse.
    from gammon.play import Move, Play
    from gammon.position import Position

__all__ = ["BAR_POINT", "OFF_POINT", "format_moves", "format_rows", "parse_play", "put_notation"]


def format_moves(moves: Iterable[Move]) -> str:
    """Write moves in standard notation; no moves at all is written ``(no play)``."""
    return _format([(move.source, move.target, move.hit) for move in moves])


def _format(steps: Sequence[Step]) -> str:
    """The notation of one play's moves: :func:`format_rows` of a row of them."""
    row = bytearray(_MOVE_BYTES)
    for index, (source, target, hit) in enumerate(steps):
        row[3 * index : 3 * index + 3] = (source, target, hit)
    return format_rows(bytes(row), 1, len(steps))[0]


# -- writing, compiled: the one writer of the notation -------------------------------
#
# The move generator hands a roll's plays back as bytes (gammon.movegen): 12 bytes a play,
# 4 moves of (source, target, hit), a waiting acey-deucey checker's source 26. Writing
# every play's notation in one compiled call costs less than generating them, where
# writing them one at a time in Python cost more; the server's compiled ``legal_plays``
# writer (gammon.server.plays_text) calls :func:`put_notation` for each play too.

_MOVE_BYTES: Final = 12
_NO_PLAY: Final = literal("(no play)")
_BAR_NAME: Final = literal("bar")
_OFF_NAME: Final = literal("off")


def format_rows(moves: bytes, count: int, used: int) -> list[str]:
    """The notation of ``count`` plays from the generator's move rows (12 bytes a play,
    ``used`` moves of 3 bytes used in each): the whole roll's in one compiled call.

    >>> from gammon.position import Position
    >>> plays = Position.initial().plays((6, 6))
    >>> format_rows(plays[0].raw_moves, 1, 4)
    ['24/18(2) 13/7(2)']
    """
    if count == 0:
        return []
    out = _format_rows(np.frombuffer(moves, dtype=np.uint8), count, used)
    texts: list[str] = out.tobytes().decode("ascii").split("\n")
    return texts


@njit(cache=True, nogil=True)
def _format_rows(moves: Any, count: int, used: int) -> Any:
    out = np.empty(count * 64, dtype=np.uint8)
    segments = np.empty((4, 3), dtype=np.int64)
    keys = np.empty((4, 3), dtype=np.int64)
    pos = 0
    for index in range(count):
        if index > 0:
            out[pos] = 10  # newline between plays
            pos += 1
        pos = put_notation(out, pos, moves, index * _MOVE_BYTES, used, segments, keys)
    return out[:pos]


@njit(cache=True, nogil=True)
def _put_point(out: Any, pos: int, point: int) -> int:
    if point == BAR_POINT:
        return put(out, pos, _BAR_NAME)
    if point == OFF_POINT:
        return put(out, pos, _OFF_NAME)
    return put_int(out, pos, point)


@njit(cache=True, nogil=True)
def put_notation(
    out: Any, pos: int, moves: Any, first: int, used: int, segments: Any, keys: Any
) -> int:
    """Write the play whose ``used`` moves start at ``moves[first]`` into ``out`` at
    ``pos``, in standard notation (the module's rules); returns where it ends.
    ``segments`` and ``keys``: 4 by 3 of scratch.

    Why this function is long: it is the compiled writer the server's plays list calls
    once a legal play, in three steps read top to bottom (moves joined into segments, the
    segments sorted, then written with their counts). Split into three compiled helpers it
    measured slower: best of 30 runs over 20,000 plays of seeded games, 85-88 ns a play
    whole against 91-95 ns split, and slower still with the helpers inlined (numba
    ``inline="always"``), on the shared 2-core machine (2026-12-02)."""
    if used == 0:
        return put(out, pos, _NO_PLAY)
    # Segments (source, target, hit): a move extends an open segment that ends where it
    # starts, unless that segment ended with a hit.
    count = 0
    for index in range(used):
        at = first + 3 * index
        source = min(np.int64(moves[at]), BAR_POINT)  # a waiting checker enters as from the bar
        target = np.int64(moves[at + 1])
        hit = np.int64(moves[at + 2] != 0)
        extended = False
        for k in range(count):
            if segments[k, 1] == source and segments[k, 2] == 0:
                segments[k, 1] = target
                segments[k, 2] = hit
                extended = True
                break
        if not extended:
            segments[count, 0] = source
            segments[count, 1] = target
            segments[count, 2] = hit
            count += 1
    # Sorted by source, then target (off last), then hits first: all descending.
    for k in range(count):
        keys[k, 0] = -segments[k, 0]
        keys[k, 1] = -segments[k, 1] if segments[k, 1] != 0 else 1
        keys[k, 2] = -segments[k, 2]
    for k in range(1, count):  # insertion sort: at most 4
        j = k
        while j > 0 and (
            keys[j, 0] < keys[j - 1, 0]
            or (keys[j, 0] == keys[j - 1, 0] and keys[j, 1] < keys[j - 1, 1])
            or (
                keys[j, 0] == keys[j - 1, 0]
                and keys[j, 1] == keys[j - 1, 1]
                and keys[j, 2] < keys[j - 1, 2]
            )
        ):
            for c in range(3):
                keys[j, c], keys[j - 1, c] = keys[j - 1, c], keys[j, c]
                segments[j, c], segments[j - 1, c] = segments[j - 1, c], segments[j, c]
            j -= 1
    # Equal segments are written once, with their count.
    index = 0
    while index < count:
        repeat = 1
        while (
            index + repeat < count
            and segments[index + repeat, 0] == segments[index, 0]
            and segments[index + repeat, 1] == segments[index, 1]
            and segments[index + repeat, 2] == segments[index, 2]
        ):
            repeat += 1
        if index > 0:
            out[pos] = 32  # space
            pos += 1
        pos = _put_point(out, pos, segments[index, 0])
        out[pos] = 47  # /
        pos = _put_point(out, pos + 1, segments[index, 1])
        if segments[index, 2]:
            out[pos] = 42  # *
            pos += 1
        if repeat > 1:
            out[pos] = 40  # (
            pos = put_int(out, pos + 1, repeat)
            out[pos] = 41  # )
            pos += 1
        index += repeat
    return pos


# -- reading ---------------------------------------------------------------

_SIDE = movegen.SIDE
_BAR = movegen.BAR
_WAITING = movegen.WAITING

_PASS_WORDS = frozenset({"", "pass", "(pass)", "no play", "(no play)"})


def _roll_text(dice: Dice) -> str:
    return f"{max(dice)}-{min(dice)}"


def _dice_problem(paths: Sequence[CheckerPath], shown: Sequence[str], dice: Dice) -> Message | None:
    """Why the dice cannot make the distances written, if they cannot (R4)."""
    pool = (dice[0],) * 4 if dice[0] == dice[1] else dice
    legs = [leg for path in paths for leg in legs_left(path, path.points[0], 1)]
    roll = _roll_text(dice)
    if len(legs) > len(pool):
        return Message(
            "{play} needs at least {count} dice; the dice are {roll}",
            play=" ".join(shown),
            count=len(legs),
            roll=roll,
        )
    for start, goal in legs:
        if not leg_options(start, goal, pool):
            leg = f"{point_name(start)}/{point_name(goal)}"
            distance = start - goal
            if goal != OFF_POINT and distance <= 6:
                return Message(
                    "{leg} needs a {distance}; the dice are {roll}",
                    leg=leg,
                    distance=distance,
                    roll=roll,
                )
            return Message(
                "{leg} needs {distance} pips; the dice are {roll}",
                leg=leg,
                distance=distance,
                roll=roll,
            )
    if fits(legs, pool):
        return None
    written = " ".join(shown)
    options = [leg_options(start, goal, pool) for start, goal in legs]
    if dice[0] == dice[1]:
        moves = sum(min(len(option) for option in leg) for leg in options)
        return Message(
            "{play} needs {moves} moves of {die}; the dice {roll} give 4",
            play=written,
            moves=moves,
            die=dice[0],
            roll=roll,
        )
    if all(len(leg) == 1 for leg in options):
        needed = sorted((die for leg in options for die in next(iter(leg))), reverse=True)
        return Message(
            "{play} needs {dice}; the dice are {roll}",
            play=written,
            dice="+".join(map(str, needed)),
            roll=roll,
        )
    return Message("{play} needs more than the dice {roll} give", play=written, roll=roll)


# -- parse_play --------------------------------------------------------------


def parse_play(position: Position, text: str, dice: Dice) -> Play:
    """The legal play of ``dice`` that ``text`` names, from ``position.plays(dice)``.

    Segments go in any order, separated by spaces or commas; ``13/7/5`` names
    each landing, ``13/5`` leaves them to be found (preferring a route that
    hits nothing the text does not mark); ``*`` is optional; ``(2)`` repeats;
    ``bar``/``b``/``25`` and ``off``/``o``/``0``; ``-`` works as ``/``.  An
    empty text, ``pass`` or ``(no play)`` is the lost turn.

    Raises :class:`~gammon.errors.InvalidPlayError` for text that cannot be
    read and :class:`~gammon.errors.IllegalPlayError`, saying which rule,
    for a play the rules forbid.

    >>> from gammon.position import Position
    >>> start = Position.initial()
    >>> str(parse_play(start, "13/11 24/21", (3, 2)))
    '24/21 13/11'
    >>> parse_play(start, "13/7* 13/11", (6, 2))
    Traceback (most recent call last):
    ...
    gammon.errors.IllegalPlayError: there is no blot to hit on 7
    """
    if not isinstance(text, str):
        raise InvalidPlayError(f"a play is written as text, got {text!r}")
    dice = validate_dice(dice)
    plays = position.plays(dice)
    normalized = " ".join(text.strip().lower().split())
    if normalized in _PASS_WORDS:
        if plays[0].is_pass:
            return plays[0]
        example = plays[0]
        raise IllegalPlayError(
            Message("cannot pass while a legal play exists, e.g. {example}", example=str(example))
        )
    paths, shown = read_paths(text)
    if not paths:
        raise read_error(text, Message("no moves in it"))
    board = position._board
    _check_written(paths, shown, board, dice)
    search = PlaySearch(paths)
    search.run(board, (dice[0],) * 4 if dice[0] == dice[1] else dice)
    return _chosen(search, plays, paths, shown, dice)


def _check_written(
    paths: Sequence[CheckerPath], shown: Sequence[str], board: bytes, dice: Dice
) -> None:
    """Refuse, before any search, what the text alone shows against the rules: sources,
    the bar first, hits on no blot, and segments the dice cannot make."""
    _check_sources(paths, board)
    bar = board[_BAR]
    from_bar = sum(path.points[0] == BAR_POINT for path in paths)
    if bar and from_bar < bar and from_bar < len(paths):
        raise IllegalPlayError(bar_first(bar))
    for path in paths:
        for point, star in zip(path.points, path.stars, strict=True):
            if star and not board[_SIDE + 25 - point]:
                raise IllegalPlayError(Message("there is no blot to hit on {point}", point=point))
    problem = _dice_problem(paths, shown, dice)
    if problem is not None:
        raise IllegalPlayError(problem)


def _chosen(
    search: PlaySearch,
    plays: Sequence[Play],
    paths: Sequence[CheckerPath],
    shown: Sequence[str],
    dice: Dice,
) -> Play:
    """The legal play among the search's outcomes, the one hitting least that the text did
    not mark; otherwise why none (or more than one) fits."""
    written = " ".join(shown)
    legal = {play._board: play for play in plays}
    found = [
        (outcome.unasked_hits, key, outcome)
        for key, outcome in search.outcomes.items()
        if key in legal
    ]
    if found:
        fewest = min(hits for hits, _, _ in found)
        best = [(key, outcome) for hits, key, outcome in found if hits == fewest]
        if len(best) == 1:
            return legal[best[0][0]]
        raise IllegalPlayError(_ambiguity(paths, shown, [o for _, o in best]))
    if search.outcomes:
        raise IllegalPlayError(_forced_play(search.outcomes, written, plays, legal, dice))
    reason = search.reason()
    raise IllegalPlayError(reason or _not_legal(written, dice))


def _check_sources(paths: Sequence[CheckerPath], board: bytes) -> None:
    """Every checker the text moves must be there, or arrive there in the same play."""
    starts = Counter(path.points[0] for path in paths)
    lands = Counter(point for path in paths for point in path.points[1:])
    for point, moved in starts.items():
        have = board[_BAR] + board[_WAITING] if point == BAR_POINT else board[point]
        if moved > have + lands[point]:
            bar = point == BAR_POINT
            if not have:
                raise IllegalPlayError(
                    Message("no checker of yours on the bar")
                    if bar
                    else Message(NO_CHECKER_ON, point=point)
                )
            raise IllegalPlayError(Message(_MOVE_FROM[bar], moved=moved, point=point, have=have))


def _ambiguity(
    paths: Sequence[CheckerPath], shown: Sequence[str], outcomes: Sequence[Outcome]
) -> Message:
    """Which written path allows routes that hit different blots, and what they are."""
    for i, path in enumerate(paths):
        routes = list(dict.fromkeys(outcome.routes[i] for outcome in outcomes))
        landings = {tuple(point for point, _ in route) for route in routes}
        if len(landings) > 1:
            ways = list(
                dict.fromkeys(
                    "/".join(
                        [point_name(path.points[0])]
                        + [point_name(point) + ("*" if hit else "") for point, hit in route]
                    )
                    for route in routes
                )
            )
            return Message(
                "{path} is ambiguous: {ways} hit different blots; "
                "write the landing you mean, e.g. {example}",
                path=str(path),
                ways=listing(ways),
                example=ways[0],
            )
    plays = [_format(outcome.moves) for outcome in outcomes]
    return Message(
        "{play} is ambiguous: it could be {plays}", play=" ".join(shown), plays=listing(plays)
    )


def _forced_play(
    outcomes: dict[bytes, Outcome],
    written: str,
    plays: Sequence[Play],
    legal: dict[bytes, Play],
    dice: Dice,
) -> Message:
    """Why moves that are legal die by die are not a legal play: R5, forced play."""
    most = len(plays[0].moves)
    used = max(len(outcome.moves) for outcome in outcomes.values())
    candidates = [(key, o) for key, o in outcomes.items() if len(o.moves) == used]
    high, low = max(dice), min(dice)
    if used < most:
        for key, outcome in candidates:
            completed = complete_play(key, outcome.dice_left, most - used, legal)
            if completed is None:
                continue
            if high != low:
                return Message(
                    "{play} is not the whole turn: must use both dice; "
                    "the {die} is still to play, e.g. {example}",
                    play=written,
                    die=outcome.dice_left[0],
                    example=str(completed),
                )
            return Message.plural(
                "{play} is not the whole turn: must use as many dice as possible ({most}); "
                "{n} more {die} to play, e.g. {example}",
                "{play} is not the whole turn: must use as many dice as possible ({most}); "
                "{n} more {die}s to play, e.g. {example}",
                most - used,
                play=written,
                most=most,
                die=high,
                example=str(completed),
            )
        example = closest_play(plays, candidates[0][1].moves)
        if high != low:
            return Message("must use both dice: e.g. {example} uses both", example=str(example))
        return Message(
            "must use as many dice as possible ({most}): e.g. {example} uses {most}",
            most=most,
            example=str(example),
        )
    if used == most == 1 and high != low:
        example = closest_play(plays, candidates[0][1].moves)
        return Message(
            "must play the higher die ({die}) when only one die can be played, e.g. {example}",
            die=high,
            example=str(example),
        )
    return _not_legal(written, dice)


def _not_legal(written: str, dice: Dice) -> Message:
    return Message("{play} is not a legal play of {roll}", play=written, roll=_roll_text(dice))


#: Too many checkers moved from one point, by whether the point is the bar.
_MOVE_FROM: Final = {
    False: N_("{moved} checkers move from {point} but you have only {have} there"),
    True: N_("{moved} checkers move from the bar but you have only {have} there"),
}
