"""The search behind :func:`gammon.notation.parse_play`: written paths played die by die.

The paths a text names (:mod:`gammon.notation_syntax`) are played one die at a time on
a scratch board, every way the dice allow (:class:`PlaySearch`); each board reached is
an outcome to match against the legal plays, and each die that cannot be played leaves
a failure naming the rule that stops it, ranked so the most telling one is said.
Also here: the dice arithmetic the search prunes with (:func:`leg_options`,
:func:`fits`) and the completions and examples that explain a forced play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from gammon import movegen
from gammon.i18n import N_
from gammon.messages import Message
from gammon.notation_syntax import BAR_POINT, OFF_POINT, CheckerPath

if TYPE_CHECKING:
    # Only for annotations: plays call the notation, never the reverse.
    from gammon.play import Play

__all__ = [
    "NO_CHECKER_ON",
    "Outcome",
    "PlaySearch",
    "Step",
    "bar_first",
    "closest_play",
    "complete_play",
    "fits",
    "leg_options",
    "legs_left",
    "listing",
    "without",
]

#: One checker moved by one die: (source, target, hit), as a Move holds it.
Step = tuple[int, int, bool]

_SIDE = movegen.SIDE
_OFF = movegen.OFF
_BAR = movegen.BAR
_WAITING = movegen.WAITING


# Failures met while searching: an ORDER failure only says that the moves were
# tried in an order that cannot work (7/5 before 13/7); a RULE failure names
# the rule that stops the move, which is what the player needs to hear.
_ORDER = 0
_RULE = 1


class _Failure(NamedTuple):
    """Why one die cannot be played; ``{die}`` in the message stands for the die."""

    kind: int
    message: Message
    die: int = 0


@dataclass(slots=True)
class Outcome:
    """A board the text leads to, and how: fewer hits the text did not ask for is better."""

    unasked_hits: int
    moves: tuple[Step, ...]
    routes: tuple[tuple[tuple[int, bool], ...], ...]
    dice_left: tuple[int, ...]


def _joined(parts: Sequence[Message], separator: str = "; ") -> Message:
    """``parts`` one after another, each in the reader's language (the separator is
    punctuation, the same in every language)."""
    if len(parts) == 1:
        return parts[0]
    names = [f"part{i}" for i in range(len(parts))]
    return Message(
        separator.join("{" + name + "}" for name in names), **dict(zip(names, parts, strict=True))
    )


# -- dice ------------------------------------------------------------------


def without(dice: tuple[int, ...], used: Iterable[int]) -> tuple[int, ...]:
    """The dice left once ``used`` are played, each die once."""
    rest = list(dice)
    for die in used:
        rest.remove(die)
    return tuple(rest)


def leg_options(start: int, goal: int, dice: tuple[int, ...]) -> set[tuple[int, ...]]:
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
                extend(left - die, (*used, die), without(rest, (die,)))

    extend(start - goal, (), dice)
    return found


def fits(legs: Sequence[tuple[int, int]], dice: tuple[int, ...]) -> bool:
    """Whether the dice can play every leg, each die once."""
    if not legs:
        return True
    start, goal = legs[0]
    return any(fits(legs[1:], without(dice, option)) for option in leg_options(start, goal, dice))


def legs_left(path: CheckerPath, at: int, index: int) -> list[tuple[int, int]]:
    """What is left of a path standing on ``at`` and heading for its ``index``-th point."""
    if index >= len(path.points):
        return []
    legs = [(at, path.points[index])]
    legs.extend(zip(path.points[index:-1], path.points[index + 1 :], strict=True))
    return legs


# -- one die on a scratch board ----------------------------------------------


def listing(items: Sequence[str]) -> Message:
    """Points or plays listed in words: "13", "13 and 8", "24, 13 and 8"."""
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
            return _Failure(_ORDER, Message(NO_CHECKER_ON, point=source))
        origin = source
    if board[_BAR] and origin != _BAR:
        return _Failure(_ORDER, bar_first(board[_BAR]))
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


def _bear_off(board: bytearray, origin: int, source: int, die: int) -> tuple[int, bool] | _Failure:
    """Bear a checker off from ``source`` by ``die`` in place (R8), or say why not: all
    checkers must be home, and a die higher than needed only takes the highest one."""
    target = source - die
    outside = [str(p) for p in range(24, 6, -1) if board[p]]
    where = [Message("on {points}", points=listing(outside))] if outside else []
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
                    _BEARS_OFF_ONLY_WHEN[len(higher) > 1], point=source, points=listing(higher)
                ),
                die,
            )
    board[origin] -= 1
    board[_OFF] += 1
    return OFF_POINT, False


def bar_first(count: int) -> Message:
    return Message.plural(
        "must enter from the bar first ({n} checker on the bar)",
        "must enter from the bar first ({n} checkers on the bar)",
        count,
    )


# -- the search ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Walk:
    """Where one line of the search stands: the scratch board and the dice left, where
    each path's checker is and which written point it heads for, the routes and moves
    so far, the hits the text did not ask for and the landings it left open (detours)."""

    board: bytearray
    dice: tuple[int, ...]
    at: tuple[int, ...]
    index: tuple[int, ...]
    routes: tuple[tuple[tuple[int, bool], ...], ...]
    moves: tuple[Step, ...]
    unasked_hits: int
    detours: int

    def moved(
        self, i: int, board: bytearray, dice: tuple[int, ...], point: int, hit: bool, landed: bool
    ) -> _Walk:
        """The walk after path ``i``'s checker moved to ``point`` on ``board``."""
        at, index, routes = self.at, self.index, self.routes
        return _Walk(
            board,
            dice,
            (*at[:i], point, *at[i + 1 :]),
            (*index[:i], index[i] + 1 if landed else index[i], *index[i + 1 :]),
            (*routes[:i], (*routes[i], (point, hit)), *routes[i + 1 :]),
            (*self.moves, (at[i], point, hit)),
            self.unasked_hits + (hit and not landed),
            self.detours + (not landed),
        )


class PlaySearch:
    """Every way to play the written paths die by die, and why the others fail."""

    def __init__(self, paths: Sequence[CheckerPath]) -> None:
        self.paths = tuple(paths)
        self.outcomes: dict[bytes, Outcome] = {}
        # Each failure with its rank: see reason().
        self.failures: list[tuple[tuple[int, bool, int, int], _Failure]] = []

    def run(self, board: bytes, dice: tuple[int, ...]) -> None:
        count = len(self.paths)
        start = tuple(path.points[0] for path in self.paths)
        self._visit(_Walk(bytearray(board), dice, start, (1,) * count, ((),) * count, (), 0, 0))

    def _visit(self, walk: _Walk) -> None:
        """Play one more die on one unfinished path, every way the dice allow."""
        paths = self.paths
        if all(walk.index[i] == len(path.points) for i, path in enumerate(paths)):
            key = bytes(walk.board)
            known = self.outcomes.get(key)
            if known is None or walk.unasked_hits < known.unasked_hits:
                self.outcomes[key] = Outcome(walk.unasked_hits, walk.moves, walk.routes, walk.dice)
            return
        tried: set[tuple[CheckerPath, int, int]] = set()
        for i, path in enumerate(paths):
            k = walk.index[i]
            if k == len(path.points) or (path, walk.at[i], k) in tried:
                continue
            tried.add((path, walk.at[i], k))
            for die in sorted(set(walk.dice), reverse=True):
                self._play(walk, i, die)

    def _play(self, walk: _Walk, i: int, die: int) -> None:
        """Play ``die`` on path ``i``'s checker and go on from there, or note why it fails;
        a die that overshoots a written landing, or after which the dice cannot finish
        every path, is not tried at all."""
        path = self.paths[i]
        k = walk.index[i]
        goal = path.points[k]
        target = walk.at[i] - die
        if target < goal and goal != OFF_POINT:
            return
        landed = target <= goal
        rest = without(walk.dice, (die,))
        legs = [
            leg
            for j, other in enumerate(self.paths)
            if j != i
            for leg in legs_left(other, walk.at[j], walk.index[j])
        ]
        legs.extend(legs_left(path, target, k) if not landed else legs_left(path, goal, k + 1))
        if not fits(legs, rest):
            return
        scratch = bytearray(walk.board)
        result = _step(scratch, walk.at[i], die)
        kind = result.kind if isinstance(result, _Failure) else _RULE
        rank = (kind, landed, -walk.detours, len(walk.moves))
        if isinstance(result, _Failure):
            self.failures.append((rank, result))
            return
        point, hit = result
        if landed and path.stars[k] and not hit:
            message = Message("there is no blot to hit on {point}: it is hit already", point=point)
            self.failures.append((rank, _Failure(_RULE, message)))
            return
        self._visit(walk.moved(i, scratch, rest, point, hit, landed))

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


def complete_play(
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
            found = complete_play(
                bytes(scratch),
                without(dice, (die,)),
                count - 1,
                legal,
                source if double else BAR_POINT,
            )
            if found is not None:
                return found
    return None


def closest_play(plays: Sequence[Play], moves: Sequence[Step]) -> Play:
    """The legal play most like the text's moves, to show as an example."""
    wanted = Counter((source, target) for source, target, _ in moves)

    def overlap(play: Play) -> int:
        return sum((Counter((m.source, m.target) for m in play.moves) & wanted).values())

    return max(plays, key=overlap)


def _either(dice: Sequence[int]) -> Message:
    """The dice one message stands for: "6", "6 or a 5" (after "a")."""
    if len(dice) == 1:
        return Message.plain(str(dice[0]))
    return Message("{dice} or a {die}", dice=_either(dice[:-1]), die=dice[-1])


#: The messages said in more than one place (NO_CHECKER_ON by gammon.notation as well).
NO_CHECKER_ON: Final = N_("no checker of yours on {point}")
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
