"""Standard move notation, both ways: ``13/7* 7/5``, ``bar/22 6/off``, ``6/2(2)``.

Writing follows the common convention: a checker's consecutive moves are joined
(``24/13`` for 24/18 18/13) unless it hits on the way, where the hit ends the
segment (``13/7* 7/5``); equal segments are counted (``6/2(2)``); segments run
from the highest starting point down.

Writing has one implementation, compiled (:func:`put_notation`): ``str(play)``
writes a whole roll's plays in one call (:func:`format_rows`), and the server's
compiled ``legal_plays`` writer calls the same kernel for each play.

(Past 600 lines on purpose: reading is most of it, since it accepts what
players type and explains every illegal play, and writing must stay its exact
inverse beside it.)

>>> from gammon.play import Move
>>> format_moves((Move(24, 18), Move(18, 13)))
'24/13'
>>> format_moves((Move(13, 7, True), Move(7, 5)))
'13/7* 7/5'
>>> format_moves((Move(6, 4), Move(6, 4), Move(4, 2), Move(4, 2)))
'6/2(2)'

Reading (:func:`parse_play`) takes what players type, finds the legal play it
names and, when there is none, says which rule the text breaks: a player
learns more from "point 7 is blocked" than from "illegal move".

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

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import numpy as np
from numba import njit

from gammon import movegen
from gammon.dice import Dice, validate_dice
from gammon.errors import IllegalPlayError, InvalidPlayError
from gammon.i18n import N_
from gammon.messages import Message
from gammon.textkernels import literal, put, put_int

if TYPE_CHECKING:
    # Only for annotations: plays and positions call this module, never the reverse.
    from gammon.play import Move, Play
    from gammon.position import Position

__all__ = ["BAR_POINT", "OFF_POINT", "format_moves", "format_rows", "parse_play", "put_notation"]

#: How moves number the bar and borne off, next to points 1-24 of the mover.
BAR_POINT: Final = 25
OFF_POINT: Final = 0

# One checker moved by one die: (source, target, hit), as a Move holds it.
_Step = tuple[int, int, bool]


def _point_name(point: int) -> str:
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


def format_moves(moves: Iterable[Move]) -> str:
    """Write moves in standard notation; no moves at all is written ``(no play)``."""
    return _format([(move.source, move.target, move.hit) for move in moves])


def _format(steps: Sequence[_Step]) -> str:
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
_OFF = movegen.OFF
_BAR = movegen.BAR
_WAITING = movegen.WAITING

_PASS_WORDS = frozenset({"", "pass", "(pass)", "no play", "(no play)"})
_NAMES = {"bar": BAR_POINT, "b": BAR_POINT, "off": OFF_POINT, "o": OFF_POINT}
_SEGMENT = re.compile(r"(?P<body>[^()]*)(?:\((?P<count>[^()]*)\))?")
_POINT = re.compile(r"(?P<name>[a-z]+|\d+)(?P<star>\*?)", re.ASCII)
_MAX_REPEAT = 4
_SPACED_SEPARATOR = re.compile(r"\s*([/-])\s*")
# "-" separates points ("13-7") except at the start or right after "/", where it
# is a minus sign ("bar/-1") and the point it belongs to must be named.
_SEPARATOR = re.compile(r"/|(?<=[^/])-")
_NEGATIVE = re.compile(r"-[0-9]+", re.ASCII)
_SPACE_IN_SEGMENT = re.compile(r"\s+(?=[*()])|(?<=\()\s+")

# Failures met while searching: an ORDER failure only says that the moves were
# tried in an order that cannot work (7/5 before 13/7); a RULE failure names
# the rule that stops the move, which is what the player needs to hear.
_ORDER = 0
_RULE = 1


@dataclass(frozen=True, slots=True)
class _Path:
    """One checker's way as written: the points it lands on, each maybe marked as a hit."""

    points: tuple[int, ...]
    stars: tuple[bool, ...]

    def __str__(self) -> str:
        marks = ("*" if star else "" for star in self.stars)
        return "/".join(_point_name(p) + mark for p, mark in zip(self.points, marks, strict=False))


class _Failure(NamedTuple):
    """Why one die cannot be played; ``{die}`` in the message stands for the die."""

    kind: int
    message: Message
    die: int = 0


@dataclass(slots=True)
class _Outcome:
    """A board the text leads to, and how: fewer hits the text did not ask for is better."""

    unasked_hits: int
    moves: tuple[_Step, ...]
    routes: tuple[tuple[tuple[int, bool], ...], ...]
    dice_left: tuple[int, ...]


def _read_error(token: str, why: Message) -> InvalidPlayError:
    return InvalidPlayError(Message("cannot read {token}: {why}", token=repr(token), why=why))


def _joined(parts: Sequence[Message], separator: str = "; ") -> Message:
    """``parts`` one after another, each in the reader's language (the separator is
    punctuation, the same in every language)."""
    if len(parts) == 1:
        return parts[0]
    names = [f"part{i}" for i in range(len(parts))]
    return Message(
        separator.join("{" + name + "}" for name in names), **dict(zip(names, parts, strict=True))
    )


def _tokenize(text: str) -> list[str]:
    """Split into segments, first gluing back what spaces cut apart ("13 / 7 *", "6/2 (2)")."""
    cleaned = _SPACED_SEPARATOR.sub(lambda m: m[1], text.lower().replace(",", " "))
    return _SPACE_IN_SEGMENT.sub("", cleaned).split()


def _read_segment(token: str) -> tuple[_Path, int]:
    """One written segment (``13/7*/5(2)``) as a path and how many checkers take it."""
    match = _SEGMENT.fullmatch(token)
    if match is None:
        raise _read_error(token, Message("brackets only hold a count, as in 6/2(2)"))
    count = 1 if match["count"] is None else _read_count(token, match["count"])
    parts = _SEPARATOR.split(match["body"])
    if len(parts) < 2:
        raise _read_error(token, Message("a move is written from/to, as in 13/7"))
    points: list[int] = []
    stars: list[bool] = []
    for index, part in enumerate(parts):
        point, star = _read_point(token, part)
        if star and index == 0:
            raise _read_error(
                token, Message("a hit mark * goes after the point landed on, as in 13/7*")
            )
        if star and point == OFF_POINT:
            raise _read_error(token, Message("nothing can be hit off the board"))
        if points and point >= points[-1]:
            if point == points[-1]:
                raise _read_error(
                    token, Message("{point} to itself is no move", point=_point_name(point))
                )
            raise _read_error(
                token,
                Message(
                    "{start} to {end} moves backwards "
                    "(checkers move to lower points, bar first and off last)",
                    start=_point_name(points[-1]),
                    end=_point_name(point),
                ),
            )
        points.append(point)
        stars.append(star)
    return _Path(tuple(points), tuple(stars)), count


def _read_count(token: str, written: str) -> int:
    """The count in a segment's brackets, ``(2)``: 1 to the most checkers a roll moves."""
    if not written.isdigit() or not 1 <= int(written) <= _MAX_REPEAT:
        raise _read_error(
            token,
            Message(
                "the count ({count}) must be a number from 1 to {most}",
                count=written,
                most=_MAX_REPEAT,
            ),
        )
    return int(written)


def _read_point(token: str, part: str) -> tuple[int, bool]:
    """One point of a segment (``7*``, ``bar``, ``off``) and whether it is marked as a hit."""
    point_match = _POINT.fullmatch(part)
    negative = _NEGATIVE.match(part)
    if negative is not None:
        raise _read_error(token, Message(_NOT_A_NUMBERED_POINT, point=negative[0]))
    if point_match is None:
        why = (
            Message(_NOT_A_POINT, point=repr(part))
            if part
            else Message("a point is missing (use 1-24, bar or off)")
        )
        raise _read_error(token, why)
    name = point_match["name"]
    if name.isdigit():
        # Long numbers are no points; int() would refuse thousands of digits.
        point = int(name) if len(name.lstrip("0")) <= 2 else BAR_POINT + 1
        if point > BAR_POINT:
            raise _read_error(token, Message(_NOT_A_NUMBERED_POINT, point=name))
    elif name in _NAMES:
        point = _NAMES[name]
    else:
        raise _read_error(token, Message(_NOT_A_POINT, point=repr(name)))
    return point, bool(point_match["star"])


def _read(text: str) -> tuple[list[_Path], list[str]]:
    """The paths the text names (one per checker) and its segments as shown in messages."""
    paths: list[_Path] = []
    shown: list[str] = []
    for token in _tokenize(text):
        path, count = _read_segment(token)
        shown.append(str(path) + (f"({count})" if count > 1 else ""))
        paths.append(path)
        # A repeated hit can happen only once; the mark goes with the first checker.
        plain = _Path(path.points, (False,) * len(path.points))
        paths.extend([plain] * (count - 1))
    return paths, shown


# -- dice ------------------------------------------------------------------


def _without(dice: tuple[int, ...], used: Iterable[int]) -> tuple[int, ...]:
    rest = list(dice)
    for die in used:
        rest.remove(die)
    return tuple(rest)


def _leg_options(start: int, goal: int, dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The sets of dice that carry one checker from ``start`` to ``goal`` (0: off).

    A bear-off may end with a die higher than needed (R8); whether the rule
    allows it on the board is checked when the move is made.
    """
    found: set[tuple[int, ...]] = set()

    def extend(left: int, used: tuple[int, ...], rest: tuple[int, ...]) -> None:
        for die in set(rest):
            if die == left or (goal == OFF_POINT and die > left):
                found.add(tuple(sorted((*used, die))))
            elif die < left:
                extend(left - die, (*used, die), _without(rest, (die,)))

    extend(start - goal, (), dice)
    return found


def _fits(legs: Sequence[tuple[int, int]], dice: tuple[int, ...]) -> bool:
    """Whether the dice can play every leg, each die once."""
    if not legs:
        return True
    start, goal = legs[0]
    return any(
        _fits(legs[1:], _without(dice, option)) for option in _leg_options(start, goal, dice)
    )


def _legs(path: _Path, at: int, index: int) -> list[tuple[int, int]]:
    """What is left of a path standing on ``at`` and heading for its ``index``-th point."""
    if index >= len(path.points):
        return []
    legs = [(at, path.points[index])]
    legs.extend(zip(path.points[index:-1], path.points[index + 1 :], strict=True))
    return legs


def _roll_text(dice: Dice) -> str:
    return f"{max(dice)}-{min(dice)}"


def _dice_problem(paths: Sequence[_Path], shown: Sequence[str], dice: Dice) -> Message | None:
    """Why the dice cannot make the distances written, if they cannot (R4)."""
    pool = (dice[0],) * 4 if dice[0] == dice[1] else dice
    legs = [leg for path in paths for leg in _legs(path, path.points[0], 1)]
    roll = _roll_text(dice)
    if len(legs) > len(pool):
        return Message(
            "{play} needs at least {count} dice; the dice are {roll}",
            play=" ".join(shown),
            count=len(legs),
            roll=roll,
        )
    for start, goal in legs:
        if not _leg_options(start, goal, pool):
            leg = f"{_point_name(start)}/{_point_name(goal)}"
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
    if _fits(legs, pool):
        return None
    written = " ".join(shown)
    options = [_leg_options(start, goal, pool) for start, goal in legs]
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


# -- one die on a scratch board ----------------------------------------------


def _listing(items: Sequence[str]) -> Message:
    if len(items) == 1:
        return Message.plain(items[0])
    return Message("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def _step(board: bytearray, source: int, die: int) -> tuple[int, bool] | _Failure:
    """Move one checker by one die in place (R4, R6, R7, R8); return (target, hit) or why not.

    ``source`` 25 takes a checker from the bar, or in acey-deucey one still
    waiting to enter when the bar is empty (R14).
    """
    if source == BAR_POINT:
        if board[_BAR]:
            origin = _BAR
        elif board[_WAITING]:
            origin = _WAITING
        else:
            return _Failure(_ORDER, Message("no checker of yours on the bar"))
    else:
        if not board[source]:
            return _Failure(_ORDER, Message(_NO_CHECKER_ON, point=source))
        origin = source
    if board[_BAR] and origin != _BAR:
        return _Failure(_ORDER, _bar_first(board[_BAR]))
    target = source - die
    if target >= 1:
        opposing = board[_SIDE + 25 - target]
        if opposing >= 2:
            return _Failure(
                _RULE,
                Message(
                    "point {point} is blocked ({count} opposing checkers)",
                    point=target,
                    count=opposing,
                ),
            )
        board[origin] -= 1
        board[target] += 1
        if opposing:
            board[_SIDE + 25 - target] = 0
            board[_SIDE + _BAR] += 1
        return target, bool(opposing)
    return _bear_off(board, origin, source, die)


def _bear_off(
    board: bytearray, origin: int, source: int, die: int
) -> tuple[int, bool] | _Failure:
    """Bear a checker off from ``source`` by ``die`` in place (R8), or say why not: all
    checkers must be home, and a die higher than needed only takes the highest one."""
    target = source - die
    outside = [str(p) for p in range(24, 6, -1) if board[p]]
    where = [Message("on {points}", points=_listing(outside))] if outside else []
    if board[_BAR]:
        where.append(Message("on the bar"))
    if board[_WAITING]:
        where.append(Message("{count} still to enter", count=board[_WAITING]))
    if where:
        return _Failure(
            _RULE,
            Message(
                "cannot bear off: checkers still outside the home board ({where})",
                where=_joined(where),
            ),
        )
    if target < 0:
        higher = [str(p) for p in range(source + 1, 7) if board[p]]
        if higher:
            return _Failure(
                _RULE,
                Message(
                    _BEARS_OFF_ONLY_WHEN[len(higher) > 1], point=source, points=_listing(higher)
                ),
                die,
            )
    board[origin] -= 1
    board[_OFF] += 1
    return OFF_POINT, False


def _bar_first(count: int) -> Message:
    return Message.plural(
        "must enter from the bar first ({n} checker on the bar)",
        "must enter from the bar first ({n} checkers on the bar)",
        count,
    )


# -- the search ------------------------------------------------------------


class _Search:
    """Every way to play the written paths die by die, and why the others fail."""

    def __init__(self, paths: Sequence[_Path]) -> None:
        self.paths = tuple(paths)
        self.outcomes: dict[bytes, _Outcome] = {}
        # Each failure with its rank: see reason().
        self.failures: list[tuple[tuple[int, bool, int, int], _Failure]] = []

    def run(self, board: bytes, dice: tuple[int, ...]) -> None:
        count = len(self.paths)
        self._visit(
            bytearray(board),
            dice,
            tuple(path.points[0] for path in self.paths),
            (1,) * count,
            ((),) * count,
            (),
            0,
            0,
        )

    def _visit(
        self,
        board: bytearray,
        dice: tuple[int, ...],
        at: tuple[int, ...],
        index: tuple[int, ...],
        routes: tuple[tuple[tuple[int, bool], ...], ...],
        moves: tuple[_Step, ...],
        unasked_hits: int,
        detours: int,
    ) -> None:
        """Play one more die on one unfinished path, every way the dice allow."""
        paths = self.paths
        if all(index[i] == len(path.points) for i, path in enumerate(paths)):
            key = bytes(board)
            known = self.outcomes.get(key)
            if known is None or unasked_hits < known.unasked_hits:
                self.outcomes[key] = _Outcome(unasked_hits, moves, routes, dice)
            return
        depth = len(moves)
        tried: set[tuple[_Path, int, int]] = set()
        for i, path in enumerate(paths):
            k = index[i]
            if k == len(path.points) or (path, at[i], k) in tried:
                continue
            tried.add((path, at[i], k))
            goal = path.points[k]
            for die in sorted(set(dice), reverse=True):
                target = at[i] - die
                if target < goal and goal != OFF_POINT:
                    continue
                landed = target <= goal
                rest = _without(dice, (die,))
                # Only steps after which the dice can still finish every path.
                legs = [
                    leg
                    for j, other in enumerate(paths)
                    if j != i
                    for leg in _legs(other, at[j], index[j])
                ]
                legs.extend(_legs(path, target, k) if not landed else _legs(path, goal, k + 1))
                if not _fits(legs, rest):
                    continue
                scratch = bytearray(board)
                result = _step(scratch, at[i], die)
                kind = result.kind if isinstance(result, _Failure) else _RULE
                rank = (kind, landed, -detours, depth)
                if isinstance(result, _Failure):
                    self.failures.append((rank, result))
                    continue
                point, hit = result
                if landed and path.stars[k] and not hit:
                    message = Message(
                        "there is no blot to hit on {point}: it is hit already", point=point
                    )
                    self.failures.append((rank, _Failure(_RULE, message)))
                    continue
                self._visit(
                    scratch,
                    rest,
                    (*at[:i], point, *at[i + 1 :]),
                    (*index[:i], k + 1 if landed else k, *index[i + 1 :]),
                    (*routes[:i], (*routes[i], (point, hit)), *routes[i + 1 :]),
                    (*moves, (at[i], point, hit)),
                    unasked_hits + (hit and not landed),
                    detours + (not landed),
                )

    def reason(self) -> Message | None:
        """The most telling failure, as the player meant the text.

        A broken rule tells more than a wrong order of moves (7/5 before
        13/7); a written landing more than one on a route the text left
        open; a route with fewer such landings is closer to the text; and
        of the rest, the failure met furthest along (after the moves that
        did work).  Equally telling failures are all reported.
        """
        if not self.failures:
            return None
        worst = max(rank for rank, _ in self.failures)
        dice: dict[Message, list[int]] = {}
        for rank, failure in self.failures:
            if rank == worst:
                used = dice.setdefault(failure.message, [])
                if failure.die not in used:
                    used.append(failure.die)
        return _joined(
            [
                Message(message.template, **message.values, die=_either(used))
                if "{die}" in message.template
                else message
                for message, used in dice.items()
            ]
        )


def _complete(
    board: bytes,
    dice: tuple[int, ...],
    count: int,
    legal: dict[bytes, Play],
    highest: int = BAR_POINT,
) -> Play | None:
    """A legal play reached by playing ``count`` more of ``dice`` after ``board``."""
    if count == 0:
        return legal.get(board)
    double = len(set(dice)) == 1
    for source in range(highest, 0, -1):
        for die in set(dice):
            scratch = bytearray(board)
            if isinstance(_step(scratch, source, die), _Failure):
                continue
            # With doubles, later moves never start behind earlier ones (as in movegen).
            found = _complete(
                bytes(scratch),
                _without(dice, (die,)),
                count - 1,
                legal,
                source if double else BAR_POINT,
            )
            if found is not None:
                return found
    return None


def _example(plays: Sequence[Play], moves: Sequence[_Step]) -> Play:
    """The legal play most like the text's moves, to show as an example."""
    wanted = Counter((source, target) for source, target, _ in moves)

    def overlap(play: Play) -> int:
        return sum((Counter((m.source, m.target) for m in play.moves) & wanted).values())

    return max(plays, key=overlap)


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
    paths, shown = _read(text)
    if not paths:
        raise _read_error(text, Message("no moves in it"))
    board = position._board
    _check_written(paths, shown, board, dice)
    search = _Search(paths)
    search.run(board, (dice[0],) * 4 if dice[0] == dice[1] else dice)
    return _chosen(search, plays, paths, shown, dice)


def _check_written(
    paths: Sequence[_Path], shown: Sequence[str], board: bytes, dice: Dice
) -> None:
    """Refuse, before any search, what the text alone shows against the rules: sources,
    the bar first, hits on no blot, and segments the dice cannot make."""
    _check_sources(paths, board)
    bar = board[_BAR]
    from_bar = sum(path.points[0] == BAR_POINT for path in paths)
    if bar and from_bar < bar and from_bar < len(paths):
        raise IllegalPlayError(_bar_first(bar))
    for path in paths:
        for point, star in zip(path.points, path.stars, strict=True):
            if star and not board[_SIDE + 25 - point]:
                raise IllegalPlayError(Message("there is no blot to hit on {point}", point=point))
    problem = _dice_problem(paths, shown, dice)
    if problem is not None:
        raise IllegalPlayError(problem)


def _chosen(
    search: _Search,
    plays: Sequence[Play],
    paths: Sequence[_Path],
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


def _check_sources(paths: Sequence[_Path], board: bytes) -> None:
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
                    else Message(_NO_CHECKER_ON, point=point)
                )
            raise IllegalPlayError(Message(_MOVE_FROM[bar], moved=moved, point=point, have=have))


def _ambiguity(
    paths: Sequence[_Path], shown: Sequence[str], outcomes: Sequence[_Outcome]
) -> Message:
    """Which written path allows routes that hit different blots, and what they are."""
    for i, path in enumerate(paths):
        routes = list(dict.fromkeys(outcome.routes[i] for outcome in outcomes))
        landings = {tuple(point for point, _ in route) for route in routes}
        if len(landings) > 1:
            ways = list(
                dict.fromkeys(
                    "/".join(
                        [_point_name(path.points[0])]
                        + [_point_name(point) + ("*" if hit else "") for point, hit in route]
                    )
                    for route in routes
                )
            )
            return Message(
                "{path} is ambiguous: {ways} hit different blots; "
                "write the landing you mean, e.g. {example}",
                path=str(path),
                ways=_listing(ways),
                example=ways[0],
            )
    plays = [_format(outcome.moves) for outcome in outcomes]
    return Message(
        "{play} is ambiguous: it could be {plays}", play=" ".join(shown), plays=_listing(plays)
    )


def _forced_play(
    outcomes: dict[bytes, _Outcome],
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
            completed = _complete(key, outcome.dice_left, most - used, legal)
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
        example = _example(plays, candidates[0][1].moves)
        if high != low:
            return Message("must use both dice: e.g. {example} uses both", example=str(example))
        return Message(
            "must use as many dice as possible ({most}): e.g. {example} uses {most}",
            most=most,
            example=str(example),
        )
    if used == most == 1 and high != low:
        example = _example(plays, candidates[0][1].moves)
        return Message(
            "must play the higher die ({die}) when only one die can be played, e.g. {example}",
            die=high,
            example=str(example),
        )
    return _not_legal(written, dice)


def _not_legal(written: str, dice: Dice) -> Message:
    return Message("{play} is not a legal play of {roll}", play=written, roll=_roll_text(dice))


def _either(dice: Sequence[int]) -> Message:
    """The dice one message stands for: "6", "6 or a 5" (after "a")."""
    if len(dice) == 1:
        return Message.plain(str(dice[0]))
    return Message("{dice} or a {die}", dice=_either(dice[:-1]), die=dice[-1])


#: The messages said in more than one place.
_NOT_A_POINT: Final = N_("{point} is not a point (use 1-24, bar or off)")
_NOT_A_NUMBERED_POINT: Final = N_("{point} is not a point (points are 1-24, 25 the bar and 0 off)")
_NO_CHECKER_ON: Final = N_("no checker of yours on {point}")
_MOVE_FROM: Final = {
    False: N_("{moved} checkers move from {point} but you have only {have} there"),
    True: N_("{moved} checkers move from the bar but you have only {have} there"),
}
_BEARS_OFF_ONLY_WHEN: Final = {
    False: N_(
        "a {die} bears off from {point} only when no checker is on a higher point "
        "({points} is occupied)"
    ),
    True: N_(
        "a {die} bears off from {point} only when no checker is on a higher point "
        "({points} are occupied)"
    ),
}
