"""A straightforward legal-play generator: the baseline ``bench/movegen.py`` times.

Written the obvious way (lists copied for every move, recursion over the dice,
a set of result boards) from the rules alone, so it is also a second,
independent implementation the tests compare :meth:`Position.plays` against.
A board here is two lists of 27 counts (index 0 off, 1-24 points, 25 bar,
26 acey-deucey checkers waiting to enter), the player on roll first.
"""

from __future__ import annotations

Board = tuple[tuple[int, ...], tuple[int, ...]]


def _step(
    me: list[int], opp: list[int], source: int, die: int
) -> tuple[list[int], list[int]] | None:
    if me[source] == 0 or (me[25] and source != 25):
        return None
    target = 25 - die if source >= 25 else source - die
    if target >= 1:
        if opp[25 - target] >= 2:
            return None
        me2, opp2 = me.copy(), opp.copy()
        me2[source] -= 1
        me2[target] += 1
        if opp2[25 - target] == 1:
            opp2[25 - target] = 0
            opp2[25] += 1
        return me2, opp2
    if me[25] or me[26] or any(me[p] for p in range(7, 25)):
        return None
    if target < 0 and any(me[p] for p in range(source + 1, 7)):
        return None
    me2 = me.copy()
    me2[source] -= 1
    me2[0] += 1
    return me2, opp


def _walk(
    me: list[int], opp: list[int], dice: list[int], used: list[int], out: dict[Board, list[int]]
) -> None:
    moved = False
    if dice:
        for source in range(1, 27):
            result = _step(me, opp, source, dice[0])
            if result is not None:
                moved = True
                _walk(result[0], result[1], dice[1:], [*used, dice[0]], out)
    if not moved:
        out.setdefault((tuple(me), tuple(opp)), used)


def naive_plays(board: Board, die1: int, die2: int) -> set[Board]:
    """The set of boards that the legal plays of a roll lead to (R4-R8)."""
    me, opp = list(board[0]), list(board[1])
    out: dict[Board, list[int]] = {}
    orders = [[die1] * 4] if die1 == die2 else [[die1, die2], [die2, die1]]
    for dice in orders:
        _walk(me, opp, dice, [], out)
    most = max(len(used) for used in out.values())
    kept = {b: used for b, used in out.items() if len(used) == most}
    if most == 1 and die1 != die2:
        high = max(die1, die2)
        if any(used[0] == high for used in kept.values()):
            kept = {b: used for b, used in kept.items() if used[0] == high}
    return set(kept)
