"""GNU Backgammon's .sgf match files: read, replayed through the rules, and written.

SGF (the Smart Game Format, FF[4]) stores each game of a match or session as a tree
of nodes; backgammon is game type ``GM[6]``. Written from the public specification
of the format for backgammon (https://www.red-bean.com/sgf/backgammon.html, by
GNU Backgammon's author) and from files GNU Backgammon 1.07 writes; the code is our own.

- A game's root node holds ``PW``/``PB`` (the players: White is side 0, the left
  column of a .mat file; Black is side 1), ``MI[length:7][game:2][ws:3][bs:1]``
  (match length, 0 for money, and the score before the game), ``RU`` (rules,
  ``:``-separated: ``Crawford``, ``Crawford:CrawfordGame``, ``Jacoby``,
  ``NoCube``, ``Nackgammon``, ``Hypergammon3``) and ``RE[W+2]`` (White won 2
  points; a trailing ``R`` when the loser resigned).
- Each following node is one move: ``W[31hefe]`` (White throws 3-1 and plays
  8/5 6/5), ``B[66]`` (Black cannot move), ``W[double]``, ``B[take]``,
  ``B[drop]``; a ``double`` answered by another ``double`` is a beaver. Points
  are letters: ``a`` is White's 1 point (Black's 24) through ``x``, ``y`` the
  bar and ``z`` borne off. ``PL[W]DI[51]`` is a roll not played yet.
- A set-up position: ``AE[a:y]`` clears points, ``AW[a][a]``/``AB[x]`` add one White or
  Black checker per letter, before the first move; the game starts there (an edit
  after the first move is refused). Gibbon's ``B[resign:2]`` offers a resignation of
  that value (R9), which the result ``RE`` accepts or ``W[reject]`` refuses.
- Analysis, comments and other properties are skipped; of a game's variations
  the first (the line actually played) is read.

>>> from gammon.dice import ScriptedDice
>>> from gammon.match import Match
>>> match = Match(3, dice=ScriptedDice([(3, 1), (6, 4)]))
>>> _ = match.game.roll(0), match.game.play(0, "8/5 6/5"), match.game.roll(1)
>>> _ = match.game.play(1, "24/18 13/9"), match.game.double(0), match.game.drop(1)
>>> text = write_sgf(match, names=("Alice", "Bob"))
>>> print(text, end="")
(;FF[4]GM[6]CA[UTF-8]AP[gammon]MI[length:3][game:0][ws:0][bs:0]PW[Alice]PB[Bob]RU[Crawford]RE[W+1]
;W[31hefe]
;B[64aglp]
;W[double]
;B[drop])
>>> replay_sgf(text).histories == match.histories
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from gammon.dice import Dice, DiceSource
from gammon.errors import GammonError, MatFileError, SgfError
from gammon.events import (
    Beavered,
    DoubleChosen,
    Doubled,
    Dropped,
    Ended,
    EndReason,
    Event,
    Moved,
    OpeningRolled,
    Passed,
    PassReason,
    Rolled,
    Took,
)
from gammon.game import Game
from gammon.match import Match, Session
from gammon.matfile import MatGame, MatTag, MatTurn, ParsedMatch, TurnKind, replay_mat
from gammon.position import Position
from gammon.sgf_syntax import SgfNode, parse_sgf

__all__ = ["SgfError", "SgfNode", "parse_sgf", "read_sgf", "replay_sgf", "write_sgf"]


# -- reading --------------------------------------------------------------------------

_MOVE: Final = re.compile(r"([1-6])([1-6])((?:[a-z][a-z])*)")
_RESULT: Final = re.compile(r"([WB])\+(\d+)([A-Za-z]*)")
_VARIANTS: Final = {
    "nackgammon": "NackGammon",
    "hypergammon3": "Hypergammon",
    "hypergammon2": "HyperGammon (2)",
    "hypergammon1": "HyperGammon (1)",
}


def _point(letter: str, side: int) -> int:
    """A point letter in the mover's own numbering (bar 25, off 0)."""
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    number = ord(letter) - ord("a") + 1
    return number if side == 0 else 25 - number


def _letter(point: int, side: int) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") - 1 + (point if side == 0 else 25 - point))


def read_sgf(text: str) -> ParsedMatch:
    """An .sgf file read into the records of :mod:`gammon.matfile`, checking its layout only.

    >>> parsed = read_sgf("(;GM[6]MI[length:1]PW[A]PB[B];B[52aclq])")
    >>> parsed.length, parsed.names, parsed.games[0].turns[0].play
    (1, ('A', 'B'), '24/22 13/8')
    """
    trees = parse_sgf(text)
    if not trees:
        raise SgfError("the file holds no game")
    names: tuple[str, str] | None = None
    length: int | None = None
    rules: dict[str, str] = {}
    crawford_seen = False
    games: list[MatGame] = []
    for number, nodes in enumerate(trees, 1):
        root = nodes[0]
        _check_root(root, number)
        info = _match_info(root)
        game_length = int(info.get("length", "0"))
        if length is None:
            length = game_length
        elif game_length != length:
            raise SgfError(
                f"line {root.line}: game {number} is of a {game_length}-point match, "
                f"game 1 of a {length}-point one"
            )
        game_names = (root.get("PW") or "White", root.get("PB") or "Black")
        names = names or game_names
        words = _rule_words(root, rules)
        crawford_seen |= "crawford" in words
        games.append(_game(nodes, number, info, words, rules.get("Variation", "")))
    assert names is not None and length is not None
    if length and not crawford_seen and length > 1:
        rules["Crawford"] = "Off"
    tags = tuple(MatTag(key, value, trees[0][0].line) for key, value in rules.items())
    return ParsedMatch(length, names, tuple(games), tags)


def _check_root(root: SgfNode, number: int) -> None:
    """Refuses a game that is not backgammon, or that starts with the cube turned."""
    kind = root.get("GM")
    if kind is not None and kind.strip() != "6":
        raise SgfError(f"line {root.line}: GM[{kind}] is not backgammon (GM[6]), game {number}")
    cube = root.get("CV")
    if cube is not None and cube.strip() not in ("", "1"):
        raise SgfError(
            f"line {root.line}: game {number} starts with the cube at {cube} (automatic "
            "doubles), which is not replayed here"
        )


def _rule_words(root: SgfNode, rules: dict[str, str]) -> set[str]:
    """The words of a game's RU property, lower case; the rules they name are added to
    ``rules`` as .mat tags."""
    words = {word.strip().lower() for word in (root.get("RU") or "").split(":")}
    if "jacoby" in words:
        rules["Jacoby"] = "On"
    if "nocube" in words:
        rules["CubeLimit"] = "1"
    for word, variation in _VARIANTS.items():
        if word in words:
            rules["Variation"] = variation
    return words


def _game(
    nodes: Sequence[SgfNode], number: int, info: dict[str, str], words: set[str], variation: str
) -> MatGame:
    """One game tree as a .mat game: its score (MI), result (RE), set-up and turns."""
    root = nodes[0]
    score: tuple[int, int] | None = None
    if "ws" in info and "bs" in info:
        score = (int(info["ws"]), int(info["bs"]))
    winner, points = _result(root, number)
    start, moves = _set_up(nodes, number, 3 if variation == "Hypergammon" else 15)
    turns = _turns(moves, number)
    return MatGame(
        number=number,
        line=root.line,
        score_line=root.line,
        score=score,
        turns=turns,
        winner=winner,
        points=points,
        result_line=None if winner is None else turns[-1].line if turns else root.line,
        crawford="crawfordgame" in words,
        start=start,
    )


_SET_UP: Final = ("AE", "AW", "AB")


def _points_of(values: list[str], line: int, key: str) -> list[int]:
    """The point letters of a set-up property, one per checker; ``a:f`` is a range."""
    points: list[int] = []
    for value in values:
        text = value.strip().lower()
        found = re.fullmatch(r"([a-y])(?::([a-y]))?", text)
        if found is None:
            raise SgfError(
                f"line {line}: {key}[{value}] is not a point letter 'a' to 'y' or a range 'a:f'"
            )
        first, last = ord(found[1]), ord(found[2] or found[1])
        low, high = min(first, last), max(first, last)
        points += [letter - ord("a") + 1 for letter in range(low, high + 1)]
    return points


def _set_up(
    nodes: Sequence[SgfNode], number: int, checkers: int
) -> tuple[Position | None, Sequence[SgfNode]]:
    """The position a game's first nodes set up (``AE`` clears points, ``AW``/``AB`` add one
    White/Black checker per letter, ``y`` the bar), and the nodes after it.

    As the specification has them: letters count from White's side (``a`` is White's
    1-point, Black's 24). Checkers not placed are borne off. A set-up after the first move
    (an edited position in mid-game) is refused: the rules could not check what came before.
    """
    board: dict[int, list[int]] | None = None
    index = next(
        (i for i, node in enumerate(nodes) if "W" in node.properties or "B" in node.properties),
        len(nodes),
    )
    for node in nodes[:index]:
        if not any(key in node.properties for key in _SET_UP):
            continue
        if board is None:
            initial = Position.initial("hypergammon" if checkers == 3 else "standard")
            board = {
                0: list(initial.mine),
                1: [initial.theirs[23 - i] for i in range(24)] + [initial.theirs[24]],
            }
        for point in _points_of(node.properties.get("AE", []), node.line, "AE"):
            board[0][point - 1] = board[1][point - 1] = 0
        for side, key in ((0, "AW"), (1, "AB")):
            for point in _points_of(node.properties.get(key, []), node.line, key):
                board[side][point - 1] += 1
    for later in nodes[index:]:
        if any(key in later.properties for key in _SET_UP):
            raise SgfError(
                f"line {later.line}: game {number} sets up a position after its first move "
                "(an edited position), which the rules cannot replay"
            )
    if board is None:
        return None, nodes[1:]
    white, black = board[0], board[1]
    theirs = [black[23 - i] for i in range(24)] + [black[24]]  # Black's own numbering
    try:
        start = Position(white, theirs, checkers=checkers)
    except GammonError as exc:
        raise SgfError(f"line {nodes[0].line}: game {number}'s set-up position: {exc}") from exc
    return start, nodes[index:] if index else nodes[1:]


def _match_info(root: SgfNode) -> dict[str, str]:
    info: dict[str, str] = {}
    for value in root.properties.get("MI", []):
        key, _, text = value.partition(":")
        info[key.strip().lower()] = text.strip()
    for key in ("length", "ws", "bs", "game"):
        if key in info and not info[key].isdigit():
            raise SgfError(f"line {root.line}: MI[{key}:{info[key]}] is not a whole number")
    return info


def _result(root: SgfNode, number: int) -> tuple[int | None, int | None]:
    """The winner and the points of RE; a trailing R (resigned) shows in the replay, where
    the game is not over by the rules and the loser's resignation ends it."""
    text = (root.get("RE") or "").strip()
    if not text or text in ("0", "?", "Void"):
        return None, None
    found = _RESULT.fullmatch(text)
    if found is None:
        raise SgfError(
            f"line {root.line}: game {number}'s result RE[{text}] is not like 'W+2' or 'B+1R'"
        )
    points = int(found[2])
    if points < 1:
        raise SgfError(f"line {root.line}: game {number} is won by 1 point or more, not {points}")
    return (0 if found[1] == "W" else 1), points


def _turns(nodes: Sequence[SgfNode], number: int) -> tuple[MatTurn, ...]:
    """A game's moves, cube actions and resignations as .mat turns."""
    turns: list[MatTurn] = []
    offered: int | None = None  # the side whose double waits for an answer
    resigned = False  # a resignation waits for an answer
    for node in nodes:
        moves = [(side, node.properties[key]) for side, key in ((0, "W"), (1, "B"))
                 if key in node.properties]
        if not moves:
            shown = _shown_roll(node)
            if shown is not None:
                turns.append(shown)
            continue
        if len(moves) > 1 or len(moves[0][1]) != 1:
            raise SgfError(f"line {node.line}: a node holds one move, by one player")
        side, (value,) = moves[0]
        text = value.strip().lower()
        if text == "double":
            kind = TurnKind.BEAVER if offered == 1 - side else TurnKind.DOUBLE
            turns.append(MatTurn(node.line, side, kind))
            offered = side
            continue
        offered = None
        resign = re.fullmatch(r"resign(?::(\d+))?", text)
        if resign:
            # Gibbon's resignation, B[resign:2]: the value offered (1 single, 2 gammon,
            # 3 backgammon, R9); the result RE, or a reject, answers it.
            offer = int(resign[1] or 1)
            if not 1 <= offer <= 3:
                raise SgfError(
                    f"line {node.line}: {'WB'[side]}[{text}] resigns {offer}, but a resignation "
                    "is of 1 (single), 2 (gammon) or 3 (backgammon)"
                )
            turns.append(MatTurn(node.line, side, TurnKind.RESIGN, value=offer))
            resigned = True
            continue
        if resigned and text in ("accept", "reject"):
            resigned = False
            if text == "reject":
                turns.append(MatTurn(node.line, side, TurnKind.REJECT))
            continue  # accepted: the result RE ends the game
        resigned = False
        if text in ("take", "accept"):
            turns.append(MatTurn(node.line, side, TurnKind.TAKE))
        elif text in ("drop", "pass", "reject"):
            turns.append(MatTurn(node.line, side, TurnKind.DROP))
        else:
            turns.append(_move(node, side, value, number))
    return tuple(turns)


def _shown_roll(node: SgfNode) -> MatTurn | None:
    """A roll shown but not played yet (``PL[W]DI[31]``, as GNU Backgammon writes it), or
    None for a node that shows none."""
    player, shown = node.get("PL"), node.get("DI")
    if player and shown and re.fullmatch(r"[1-6]{2}", shown.strip()):
        side = 0 if player.strip().upper() == "W" else 1
        rolled = (int(shown.strip()[0]), int(shown.strip()[1]))
        return MatTurn(node.line, side, TurnKind.ROLL, dice=rolled, play="")
    return None


def _move(node: SgfNode, side: int, value: str, number: int) -> MatTurn:
    """A roll and its play (``W[31hefe]``: the dice, then from-to letter pairs) as a turn
    written in .mat notation."""
    text = value.strip().lower()
    found = _MOVE.fullmatch(text)
    if found is None or any(ch not in "abcdefghijklmnopqrstuvwxyz" for ch in found[3]):
        raise SgfError(
            f"line {node.line}: cannot read the move {'WB'[side]}[{value}] of game "
            f"{number}: a move is a roll like '31' and letter pairs like 'hefe', or "
            "double, take or drop"
        )
    pairs = found[3]
    play = " ".join(
        f"{_point(pairs[i], side)}/{_point(pairs[i + 1], side)}" for i in range(0, len(pairs), 2)
    )
    dice = (int(found[1]), int(found[2]))
    return MatTurn(node.line, side, TurnKind.ROLL, dice=dice, play=play)


def replay_sgf(source: str | ParsedMatch, *, dice: DiceSource | None = None) -> Match | Session:
    """Play an .sgf file through the rules: a :class:`Match`, or a :class:`Session` for money.

    Every move must be legal where it stands and every result must be what the
    rules give; otherwise :class:`SgfError` names the line.

    >>> replay_sgf("(;GM[6]MI[length:1]PW[A]PB[B];B[52aclq];W[31hefe])")
    <Match to 1 score=(0, 0) games=1 over=False>
    >>> replay_sgf("(;GM[6]MI[length:1]PW[A]PB[B];B[52aclr])")
    Traceback (most recent call last):
    ...
    gammon.errors.SgfError: line 1: B cannot play '24/22 13/7' with 52: 13/7 needs a 6; ...
    """
    parsed = source if isinstance(source, ParsedMatch) else read_sgf(source)
    try:
        return replay_mat(parsed, dice=dice)
    except MatFileError as exc:
        message = str(exc).replace("'Wins' line", "result (RE)")
        raise SgfError(message) from None


# -- writing --------------------------------------------------------------------------


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


#: The roll shown for a turn lost on the bar against a closed board (R7), as in .mat files.
_CLOSED_OUT_ROLL: Final = (6, 4)


def write_sgf(
    series: Match | Session, *, names: tuple[str, str] = ("Player 1", "Player 2")
) -> str:
    """The .sgf text of every game of ``series`` (side 0 is White), as GNU Backgammon reads it.

    The format has no place for tied opening throws, refused resignation offers,
    table stakes or a fixed number of games; they are left out. A forfeit is
    written as the result it gave. Acey-deucey and tavla, which GNU Backgammon
    does not play, raise :class:`SgfError`.
    """
    if not isinstance(series, Match | Session):
        raise SgfError(
            f"only a Match or a Session can be written as an .sgf file, "
            f"not {type(series).__name__}"
        )
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise SgfError(f"a player's name must be some text, got {name!r}")
    rules = series.rules
    variant = rules.variant.name
    if variant not in ("standard", "nackgammon", "hypergammon"):
        raise SgfError(
            f"{variant} cannot be written as an .sgf file: GNU Backgammon does not play it"
        )
    payouts = series.payouts if isinstance(series, Session) else None
    score = list(series.start_score)
    trees: list[str] = []
    for index, game in enumerate(series.games):
        if game.rules.auto_doubles and any(
            isinstance(e, OpeningRolled) and e.is_tie for e in game.history
        ):
            raise SgfError(
                f"game {index + 1} began with an automatic double, which is not written here"
            )
        root = _root_text(series, game, index, names, score)
        result = game.result
        if result is not None:
            resigned = "R" if result.reason is EndReason.RESIGNATION else ""
            root += f"RE[{'WB'[result.winner]}+{result.points}{resigned}]"
            points = result.points if payouts is None else payouts[index]
            score[result.winner] += points
        trees.append("\n".join([root, *_nodes(game.history, index + 1)]) + ")")
    return "\n".join(trees) + "\n"


def _root_text(
    series: Match | Session, game: Game, index: int, names: tuple[str, str], score: list[int]
) -> str:
    """A game's root node up to its result: the match and score (MI), the players, the
    rules (RU) and a set-up start."""
    rules = series.rules
    variant = rules.variant.name
    length = series.length if isinstance(series, Match) else 0
    words = []
    if isinstance(series, Match) and rules.crawford and length > 1:
        words.append("Crawford:CrawfordGame" if game.rules.crawford else "Crawford")
    if rules.jacoby:
        words.append("Jacoby")
    if not rules.cube:
        words.append("NoCube")
    if variant == "nackgammon":
        words.append("Nackgammon")
    elif variant == "hypergammon":
        words.append("Hypergammon3")
    root = (
        f"(;FF[4]GM[6]CA[UTF-8]AP[gammon]MI[length:{length}][game:{index}]"
        f"[ws:{score[0]}][bs:{score[1]}]PW[{_escape(names[0])}]PB[{_escape(names[1])}]"
    )
    if words:
        root += f"RU[{':'.join(words)}]"
    if game.start != Position.initial(rules.variant):
        root += _set_up_text(game.start)
    return root


def _set_up_text(start: Position) -> str:
    """``AE[a:y]`` and one ``AW``/``AB`` letter per checker: a set-up start (side 0 White)."""
    white = "".join(f"[{_letter(p, 0)}]" * start.mine[p - 1] for p in range(1, 26))
    black = "".join(f"[{_letter(p, 1)}]" * start.theirs[p - 1] for p in range(1, 26))
    return "AE[a:y]" + (f"AW{white}" if white else "") + (f"AB{black}" if black else "")


def _nodes(history: Sequence[Event], number: int) -> list[str]:
    nodes: list[str] = []
    pending: tuple[int, Dice] | None = None

    def roll(side: int, dice: Dice, pairs: str = "") -> str:
        return f";{'WB'[side]}[{max(dice)}{min(dice)}{pairs}]"

    for event in history:
        if isinstance(event, OpeningRolled):
            if not event.is_tie:
                die0, die1 = event.dice
                pending = (0 if die0 > die1 else 1, event.dice)
        elif isinstance(event, Rolled):
            pending = (event.side, event.dice)
        elif isinstance(event, Moved):
            pairs = "".join(
                _letter(m.source, event.side) + _letter(m.target, event.side) for m in event.moves
            )
            nodes.append(roll(event.side, event.dice, pairs))
            pending = None
        elif isinstance(event, Passed):
            if pending is not None:  # a roll with no play, or a recorded dance (R7)
                nodes.append(roll(*pending))
            elif event.reason is PassReason.CLOSED_BOARD:
                nodes.append(roll(event.side, _CLOSED_OUT_ROLL))
            pending = None
        elif isinstance(event, Doubled | Beavered):
            nodes.append(f";{'WB'[event.side]}[double]")
        elif isinstance(event, Took):
            nodes.append(f";{'WB'[event.side]}[take]")
        elif isinstance(event, Dropped):
            nodes.append(f";{'WB'[event.side]}[drop]")
        elif isinstance(event, DoubleChosen):
            raise SgfError(f"game {number}: acey-deucey cannot be written as an .sgf file")
        elif isinstance(event, Ended):
            if pending is not None:  # rolled, then the game ended (a resignation, a forfeit)
                nodes.append(roll(*pending))
            pending = None
    if pending is not None:  # rolled, not played yet: GNU Backgammon's own way to show it
        side, dice = pending
        nodes.append(f";PL[{'WB'[side]}]DI[{max(dice)}{min(dice)}]")
    return nodes
