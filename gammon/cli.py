"""The ``gammon`` command line: list legal plays, draw positions, play in the terminal.

- ``gammon moves POSITION DICE [--json] [--variant V]``: every legal play with
  the Position ID it leads to;
- ``gammon show POSITION[:MATCHID] [--dice D] [--variant V]``: the text board;
- ``gammon hint POSITION[:MATCHID] [--dice D] [--ply N]``: the engine's ranking
  of the plays, or its cube action when no dice are given;
- ``gammon serve``: the play server; ``gammon connect URL``: play on one from the terminal;
- ``gammon verify RECORD.json``: recheck the provably fair dice of an online game;
- ``gammon play [--opponent human|random|bot] [--level L] [--variant V] [--match N]
  [--seed S]``: a game or match read from standard input, so it can be piped a script.

A position is a GNU Position ID (``Position ID:`` prefix allowed), an XGID or
``start``. Bad input ends the command with exit status 2 and one line on stderr that says
what was wrong, never a traceback, so scripts can tell a typo from a crash.

>>> main(["moves", "YAAASAAAAAAAAA", "6-5"])
1 legal play of 6-5 from YAAASAAAAAAAAA
  #  play                     position ID        position ID
                              (opponent on roll) (mover on roll)
  1  3/off 1/off              AAAAwAAAAAAAAA     YAAAAAAAAAAAAA
0
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO

from gammon.diagram import draw
from gammon.dice import RandomDice
from gammon.engine.bot import SKILL_LEVELS, Bot
from gammon.engine.cube import CubeOwner, CubeState, double_refusal
from gammon.engine.evaluator import evaluate
from gammon.engine.hint import cube_hint, play_hints
from gammon.engine.met import MatchScore
from gammon.errors import GammonError, IllegalActionError, InvalidDiceError, PositionIdError
from gammon.game import (
    Beavered,
    DoubleChosen,
    Doubled,
    Dropped,
    Ended,
    Event,
    Game,
    Moved,
    OpeningRolled,
    Passed,
    Phase,
    ResignationAccepted,
    ResignationRejected,
    Resigned,
    Rolled,
    Took,
)
from gammon.ids import MatchIdFields, decode_match_id
from gammon.match import Match, Session
from gammon.position import Dice, Position, validate_dice
from gammon.variants import VARIANTS, Variant, find_variant
from gammon.xgid import parse_xgid

__all__ = ["RandomOpponent", "main", "parse_dice", "read_position"]

PROG = "gammon"
_EXIT_BAD_INPUT = 2
_ID_PREFIX = re.compile(r"^\s*(?:GNU\s+Backgammon\s+)?Position\s+ID\s*:\s*", re.IGNORECASE)
_MATCH_PREFIX = re.compile(r"^\s*Match\s+ID\s*:\s*", re.IGNORECASE)
_DICE = re.compile(r"\s*(\d)\s*[-,/ ]?\s*(\d)\s*")
_START_WORDS = ("start", "initial")


class _UsageError(ValueError):
    """A command line that argparse rejected; turned into exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so ``main`` stays in charge."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def parse_dice(text: str) -> Dice:
    """Read a roll written ``31``, ``3-1``, ``3,1`` or ``3 1``.

    >>> parse_dice("3-1"), parse_dice(" 6 6 ")
    ((3, 1), (6, 6))
    >>> parse_dice("71")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidDiceError: each die must be a number from 1 to 6, got 7
    """
    found = _DICE.fullmatch(text)
    if found is None:
        raise InvalidDiceError(
            f"dice must be two numbers from 1 to 6 written 31, 3-1, 3,1 or '3 1', got {text!r}"
        )
    return validate_dice((int(found.group(1)), int(found.group(2))))


@dataclass(frozen=True)
class _Input:
    """A position as given on the command line, with whatever game state came with it."""

    position: Position
    match: MatchIdFields | None = None
    dice: Dice | None = None
    cube: int = 1
    cube_owner: int | None = None
    score: tuple[int, int] | None = None
    match_length: int | None = None


def read_position(text: str, variant: str | Variant = "standard") -> Position:
    """Read a Position ID (``Position ID:`` prefix allowed), an XGID, or ``start``.

    >>> read_position("Position ID: 4HPwATDgc/ABMA") == Position.initial()
    True
    >>> read_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10").pips()
    (167, 167)
    """
    return _read_input(text, find_variant(variant)).position


def _read_input(text: str, variant: Variant) -> _Input:
    text = _ID_PREFIX.sub("", text).strip()
    if not text:
        raise PositionIdError("no position given: expected a Position ID, an XGID or 'start'")
    if text.lower() in _START_WORDS:
        return _Input(variant.initial_position())
    if text[:5].upper() == "XGID=" or text.count(":") >= 9:
        return _read_xgid(text, variant)
    match: MatchIdFields | None = None
    if ":" in text:
        text, match_text = text.split(":", 1)
        match = decode_match_id(_MATCH_PREFIX.sub("", match_text))
    position = Position.from_id(text, checkers=variant.checkers)
    if match is None:
        return _Input(position)
    return _Input(position, match=match, dice=match.dice if match.dice != (0, 0) else None)


def _read_xgid(text: str, variant: Variant) -> _Input:
    xgid = parse_xgid(text)
    mine, theirs = xgid.board
    return _Input(
        Position(mine, theirs, checkers=variant.checkers),
        dice=xgid.dice if xgid.dice != (0, 0) else None,
        cube=xgid.cube_value,
        cube_owner=xgid.cube_owner,
        score=xgid.score,
        match_length=xgid.match_length,
    )


def _variant(name: str) -> Variant:
    try:
        return find_variant(name)
    except GammonError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _match_length(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 32767:
        raise argparse.ArgumentTypeError(f"a match is 1 to 32767 points, got {text!r}")
    return int(text)


def _id_or_none(position: Position) -> str | None:
    return None if position.waiting != (0, 0) else position.id


# -- moves ---------------------------------------------------------------------


def _cmd_moves(args: argparse.Namespace, out: TextIO) -> int:
    variant: Variant = args.variant
    # An unquoted "Position ID: 4HPw... 31" arrives as several words.
    words = _ID_PREFIX.sub("", " ".join([args.position, *args.dice])).split()
    given = _read_input(words[0] if words else "", variant)
    if words[1:]:
        dice = parse_dice(" ".join(words[1:]))
    elif given.dice is not None:
        dice = given.dice
    else:
        raise InvalidDiceError("no dice given: write them after the position, as 31 or 3-1")
    start = given.position
    plays = start.plays(dice)
    start_id = _id_or_none(start)
    if args.json:
        report: dict[str, Any] = {
            "start_position_id": start_id,
            "dice": list(dice),
            "variant": variant.name,
            "plays": [
                {
                    "play": str(play),
                    "moves": [
                        {"from": m.source, "to": m.target, "hit": m.hit} for m in play.moves
                    ],
                    "position_id": _id_or_none(play.position.swapped()),
                    "mover_position_id": _id_or_none(play.position),
                }
                for play in plays
            ],
        }
        print(json.dumps(report, indent=2), file=out)
        return 0
    if plays[0].is_pass:
        count = "no legal play"
    else:
        count = f"{len(plays)} legal play{'' if len(plays) == 1 else 's'}"
    source = start_id or "the starting position"
    print(f"{count} of {dice[0]}-{dice[1]} from {source}", file=out)
    print(f"  #  {'play':<24} {'position ID':<18} position ID", file=out)
    print(f"     {'':<24} {'(opponent on roll)':<18} (mover on roll)", file=out)
    for number, play in enumerate(plays, 1):
        after = _id_or_none(play.position.swapped()) or "-"
        mover = _id_or_none(play.position) or "-"
        print(f"{number:>3}  {play!s:<24} {after:<18} {mover}", file=out)
    return 0


# -- show ----------------------------------------------------------------------


def _cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    given = _read_input(args.position, args.variant)
    dice = parse_dice(args.dice) if args.dice else given.dice
    if given.match is not None:
        text = draw(given.position, match=given.match, dice=dice)
    else:
        text = draw(
            given.position,
            dice=dice,
            cube=given.cube if args.variant.cube else None,
            cube_owner=given.cube_owner,
            score=given.score,
            match_length=given.match_length,
        )
    print(text, file=out)
    return 0


# -- play ----------------------------------------------------------------------

_MARKS = ("X", "O")
_RESIGN_WORDS = {"single": 1, "gammon": 2, "backgammon": 3, "1": 1, "2": 2, "3": 3}
_SIDE_WORD = re.compile(r"\bside ([01])\b")
_PLAY_HELP = """\
Commands (the side named in the prompt types them):
  roll, r            roll the dice (done for you when you cannot double)
  double, d          offer the cube before rolling (R10)
  take, t / drop, p  answer a double; 'beaver' takes and redoubles where allowed (R11)
  resign [single|gammon|backgammon]   offer to resign; the opponent may accept or reject
  accept / reject    answer a resignation
  <play>             a play in standard notation, as 13/7* 7/5, bar/22 or 6/2(2)
  <n>                the n-th play listed by 'moves'
  choose <n>         acey-deucey: the double to play after a 1-2 (R14)
  moves              list the legal plays of the dice
  board, b           draw the board again
  pips               the pip counts
  hint               the engine's best plays, or its cube advice before rolling
  help, ?            this text
  quit, q            stop playing"""


class RandomOpponent:
    """A stand-in opponent: a random legal play each turn, chosen with its own seeded generator.

    It never doubles, takes every double and accepts every resignation, so a
    game against it always runs to a finish. :meth:`command` answers with the
    text a person would type, which the terminal then carries out.
    """

    name = "the random opponent"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def command(self, game: Game) -> str:
        phase = game.phase
        if phase is Phase.MOVE:
            return str(self._random.choice(game.legal_plays()))
        if phase in (Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED):
            return "take"
        if phase is Phase.RESIGNATION_OFFERED:
            return "accept"
        if phase is Phase.CHOOSE_DOUBLE:
            return f"choose {self._random.randint(1, 6)}"
        return "roll"


class _Quit(Exception):
    """The player typed quit."""


class _Terminal:
    """Plays a match or a money game over text streams: reads commands, prints what happens."""

    def __init__(
        self,
        series: Match | Session,
        bots: dict[int, RandomOpponent | Bot],
        out: TextIO,
        inp: TextIO,
    ) -> None:
        self.series = series
        self.bots = bots
        self.out = out
        self.inp = inp
        self.echo = not inp.isatty()
        self._shown: tuple[int, int] | None = None  # (game number, history length) last drawn

    def say(self, text: str) -> None:
        print(_SIDE_WORD.sub(lambda m: _MARKS[int(m.group(1))], text), file=self.out)

    # -- what is shown --------------------------------------------------------

    def viewer(self) -> int:
        """The side the board is drawn for: the human against a bot, else the side to act."""
        if self.bots:
            return 0 if 0 not in self.bots else 1
        game = self.series.game
        side = game.turn if game.turn is not None else game.on_roll
        return side or 0

    def board(self) -> str:
        game = self.series.game
        viewer = self.viewer()
        on_roll = 0 if game.on_roll in (None, viewer) else 1
        return draw(
            game.position_for(viewer),
            match=self.series.match_id_fields(),
            cube=1 if game.rules.cube_in_play else None,
            marks=(_MARKS[viewer], _MARKS[1 - viewer]),
            on_roll=on_roll,
        )

    def show_board(self) -> None:
        game = self.series.game
        self._shown = (len(self.series.games), len(game.history))
        self.say(self.board())

    def pips(self) -> str:
        pips = self.series.game.position_for(0).pips()
        return f"Pip count: X {pips[0]}, O {pips[1]}"

    def describe(self, event: Event) -> str:
        match event:
            case OpeningRolled(dice=(die0, die1)):
                if die0 == die1:
                    return f"Opening roll: both throw {die0}; throw again"
                first = "X" if die0 > die1 else "O"
                return f"Opening roll: X throws {die0}, O throws {die1}; {first} plays first"
            case Rolled(side=side, dice=(die1, die2)):
                return f"side {side} rolls {die1}-{die2}"
            case Moved(side=side, play=text):
                return f"side {side} plays {text}"
            case Passed(side=side, reason=reason):
                return f"side {side} cannot move ({reason})"
            case Doubled(side=side, value=value):
                return f"side {side} doubles to {value}"
            case Beavered(side=side, value=value):
                return f"side {side} beavers to {value}"
            case Took(side=side):
                return f"side {side} takes"
            case Dropped(side=side):
                return f"side {side} drops"
            case Resigned(side=side, value=value):
                kind = ("", "a single game", "a gammon", "a backgammon")[value]
                return f"side {side} offers to resign {kind}"
            case ResignationAccepted(side=side):
                return f"side {side} accepts the resignation"
            case ResignationRejected(side=side):
                return f"side {side} rejects the resignation"
            case DoubleChosen(side=side, number=number):
                return f"side {side} chooses {number}-{number}"
            case Ended(result=result):
                return f"Game over: {result}"
        return repr(event)  # pragma: no cover - every event is named above

    def prompt(self, side: int) -> str:
        game = self.series.game
        phase = game.phase
        mark = _MARKS[side]
        if phase is Phase.OPENING:
            return f"{mark} (roll)> "
        if phase is Phase.ROLL:
            return f"{mark} (roll or double)> "
        if phase is Phase.MOVE:
            assert game.dice is not None
            return f"{mark} (play {game.dice[0]}-{game.dice[1]})> "
        if phase is Phase.DOUBLE_OFFERED:
            return f"{mark} (take{', beaver' if game.can_beaver(side) else ''} or drop)> "
        if phase is Phase.BEAVER_OFFERED:
            return f"{mark} (take or drop the beaver)> "
        if phase is Phase.RESIGNATION_OFFERED:
            return f"{mark} (accept or reject)> "
        return f"{mark} (choose a double, 1-6)> "

    # -- what is done ---------------------------------------------------------

    def carry_out(self, side: int, line: str) -> None:
        """Do what ``line`` says for ``side``; our errors propagate for the caller to print."""
        game = self.series.game
        text = line.strip()
        words = text.lower().split()
        if not words:
            return
        word, rest = words[0], words[1:]
        phase = game.phase
        events: tuple[Event, ...] = ()
        if word in ("help", "?"):
            self.say(_PLAY_HELP)
        elif word in ("quit", "q", "exit"):
            raise _Quit
        elif word in ("board", "b"):
            self.show_board()
        elif word == "pips":
            self.say(self.pips())
        elif word == "hint":
            self.say(_hint_text(game, side, self.series.score))
        elif word in ("moves", "plays", "list"):
            plays = game.legal_plays()
            if not plays:
                self.say("There are no dice to play now.")
            for number, play in enumerate(plays, 1):
                self.say(f"{number:>3}  {play}")
        elif word in ("roll", "r"):
            events = game.roll(side)
        elif word in ("double", "d"):
            events = game.double(side)
        elif word == "beaver":
            events = game.beaver(side)
        elif word in ("accept", "take", "t") and phase is Phase.RESIGNATION_OFFERED:
            events = game.accept_resignation(side)
        elif word in ("reject", "drop", "pass", "p") and phase is Phase.RESIGNATION_OFFERED:
            events = game.reject_resignation(side)
        elif word in ("take", "t", "accept"):
            events = game.take(side)
        elif word in ("drop", "pass", "p", "reject"):
            events = game.drop(side)
        elif word == "resign":
            value = _RESIGN_WORDS.get(rest[0] if rest else "single")
            if value is None or len(rest) > 1:
                raise IllegalActionError(
                    f"resign what? write 'resign', 'resign gammon' or 'resign backgammon', "
                    f"not {text!r}"
                )
            events = game.resign(side, value)
        elif word == "choose" or (phase is Phase.CHOOSE_DOUBLE and word.isdigit()):
            chosen = rest[0] if word == "choose" and len(rest) == 1 else word
            if not chosen.isdigit():
                raise IllegalActionError(
                    f"choose a double by its number, as 'choose 4', not {text!r}"
                )
            events = game.choose_double(side, int(chosen))
        elif word.isdigit() and len(words) == 1:
            plays = game.legal_plays()
            if not 1 <= int(word) <= len(plays):
                raise IllegalActionError(
                    f"there is no play number {word}: 'moves' lists "
                    f"{len(plays)} play{'' if len(plays) == 1 else 's'}"
                    if plays else f"there is no play number {word}: no dice to play now"
                )
            events = game.play(side, plays[int(word) - 1])
        elif any(c.isdigit() for c in text) or "/" in text:
            events = game.play(side, text)
        else:
            raise IllegalActionError(f"unknown command {text!r}; type 'help' for the commands")
        for event in events:
            self.say(self.describe(event))

    def auto_roll(self, side: int) -> bool:
        """Roll for a side that has nothing to decide before rolling (no double possible)."""
        game = self.series.game
        if game.phase in (Phase.OPENING, Phase.ROLL) and not game.can_double(side):
            for event in game.roll(side):
                self.say(self.describe(event))
            return True
        return False

    def run(self) -> int:
        series = self.series
        kind = (
            f"a {series.length}-point match" if isinstance(series, Match) else "a money game"
        )
        against = (
            f"{self.bots[1].name} (O)" if 1 in self.bots else "two players at one keyboard"
        )
        self.say(f"gammon: {kind} of {series.game.rules.variant.name}, {against}.")
        self.say("Type 'help' for the commands.")
        while True:
            game = series.game
            if game.is_over:
                if not self.finish_game():
                    return 0
                continue
            side = game.turn if game.turn is not None else self.viewer()
            if self.auto_roll(side):
                continue
            if side in self.bots:
                bot = self.bots[side]
                if isinstance(bot, RandomOpponent):
                    self.carry_out(side, bot.command(game))
                else:
                    for event in series.apply(bot.decide(game, side, series.score)):
                        self.say(self.describe(event))
                continue
            if self._shown != (len(series.games), len(game.history)):
                self.show_board()
            print(self.prompt(side), end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                print(file=self.out)
                raise _InputEnded
            if self.echo:
                print(line.rstrip("\n"), file=self.out)
            try:
                self.carry_out(side, line)
            except GammonError as exc:
                self.say(f"Not possible: {exc}")

    def finish_game(self) -> bool:
        """Report a finished game; start the next one if the series goes on."""
        series = self.series
        self.show_board()
        score = series.score
        if isinstance(series, Match):
            self.say(f"Score: X {score[0]}, O {score[1]} (match to {series.length})")
        if series.is_over:
            winner = series.winner
            if isinstance(series, Match):
                self.say(f"{_MARKS[winner or 0]} wins the match {max(score)}-{min(score)}.")
            return False
        series.new_game()
        self.say(f"Game {len(series.games)}")
        return True


class _InputEnded(Exception):
    """Standard input ran out before the game or match was over."""


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    variant: Variant = args.variant
    dice = RandomDice(args.seed)
    series: Match | Session
    if args.match is not None:
        series = Match(args.match, variant=variant, dice=dice)
    else:
        series = Session(variant=variant, max_games=1, dice=dice)
    bots: dict[int, RandomOpponent | Bot] = {}
    if args.opponent == "random":
        bots[1] = RandomOpponent(args.seed)
    elif args.opponent == "bot":
        bots[1] = Bot(args.level, seed=args.seed)
    terminal = _Terminal(series, bots, out, sys.stdin)
    try:
        return terminal.run()
    except _Quit:
        terminal.say("Bye.")
        return 0
    except _InputEnded:
        print(f"{PROG}: input ended before the game was over", file=sys.stderr)
        return 1


# -- hint ----------------------------------------------------------------------


def _given_cube_state(given: _Input, variant: Variant) -> CubeState:
    """The cube and score of a position given on the command line, for the player on roll."""
    if given.match is not None:
        fields = given.match
        me = fields.player_on_roll
        owner = fields.cube_owner
        value, length, score = fields.cube_value, fields.match_length, fields.score
        relative = (
            CubeOwner.CENTRED if owner is None else CubeOwner.ME if owner == me
            else CubeOwner.OPPONENT
        )
        crawford, jacoby = fields.crawford, fields.jacoby and not length
        score = (score[me], score[1 - me])
    else:
        value, length = given.cube, given.match_length or 0
        owner = given.cube_owner
        relative = (
            CubeOwner.CENTRED if owner is None else CubeOwner.ME if owner == 0
            else CubeOwner.OPPONENT
        )
        score, crawford, jacoby = given.score or (0, 0), False, False
    match_score = None
    if length:
        away = (length - score[0], length - score[1])
        match_score = MatchScore(
            *away, crawford=crawford, post_crawford=not crawford and 1 in away
        )
    return CubeState(value, relative, match_score, jacoby=jacoby, available=variant.cube)


def _format_cube_hint(position: Position, state: CubeState, ply: int) -> str:
    refusal = double_refusal(state)
    if refusal is not None:
        e = evaluate(position, ply)
        return (
            f"The player on roll cannot double here: {refusal}.\n"
            f"Cubeless equity {e.equity:+.3f}: win {e.win:.1%} "
            f"(gammon {e.win_gammon:.1%}), lose gammon {e.lose_gammon:.1%}"
        )
    hint = cube_hint(position, state, ply=ply)
    d, e = hint.decision, hint.evaluation
    unit = "MWC" if d.match else "equity per cube"
    lines = [
        f"Cube action ({ply}-ply, {unit}): {d}",
        f"  win {e.win:.1%} (gammon {e.win_gammon:.1%}, backgammon {e.win_backgammon:.1%}), "
        f"lose gammon {e.lose_gammon:.1%} (backgammon {e.lose_backgammon:.1%})",
        f"  no double    {d.no_double:+.3f}",
        f"  double/take  {d.double_take:+.3f}",
        f"  double/pass  {d.double_pass:+.3f}",
    ]
    if d.double_beaver is not None:
        lines.append(f"  double/beaver {d.double_beaver:+.3f}")
    lines.append(f"  take point {d.take_point:.1%} (cube efficiency {hint.efficiency:.2f})")
    return "\n".join(lines)


def _format_play_hints(position: Position, dice: Dice, ply: int, limit: int) -> str:
    hints = play_hints(position, dice, ply=ply)
    shown = hints if limit <= 0 else hints[:limit]
    lines = [f"{len(hints)} legal plays of {dice[0]}-{dice[1]}, ranked at {ply}-ply:"]
    lines.extend(f"{n:>3}. {hint}" for n, hint in enumerate(shown, 1))
    return "\n".join(lines)


def _hint_text(game: Game, side: int, score: tuple[int, int]) -> str:
    """What the terminal's 'hint' shows: plays when dice are out, else the cube."""
    if game.phase is Phase.MOVE:
        assert game.dice is not None
        return _format_play_hints(game.position, game.dice, 0, 5)
    if game.phase is Phase.ROLL and game.on_roll == side:
        state = CubeState.of_game(game, side, score)
        return _format_cube_hint(game.position, state, 0)
    return "Hints are for the side to roll or to play."


def _cmd_hint(args: argparse.Namespace, out: TextIO) -> int:
    given = _read_input(args.position, args.variant)
    dice = parse_dice(args.dice) if args.dice else given.dice
    if dice is not None:
        print(_format_play_hints(given.position, dice, args.ply, args.limit), file=out)
    else:
        state = _given_cube_state(given, args.variant)
        print(_format_cube_hint(given.position, state, args.ply), file=out)
    return 0


# -- the parser ----------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    variants = ", ".join(v.name for v in VARIANTS)
    parser = _Parser(
        prog=PROG,
        description="Backgammon from the command line: legal plays, boards and games.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=_Parser)

    position_help = (
        "a GNU Position ID (a 'Position ID:' prefix is fine), "
        "an XGID, or 'start' for the variant's starting position"
    )
    variant_help = f"the variant, for its checker count and cube ({variants}); default standard"

    moves = commands.add_parser(
        "moves",
        help="list every legal play of a roll",
        description="List every legal play of a roll (R4-R8), with the Position ID each "
        "leads to: first with the opponent on roll (as GNU Backgammon shows it), then "
        "with the mover still on roll.",
    )
    moves.add_argument("position", help=position_help)
    moves.add_argument(
        "dice", nargs="*",
        help="the roll: 31, 3-1, 3,1 or 3 1 (may be left out when an XGID or Match ID has it)",
    )
    moves.add_argument("--json", action="store_true", help="print JSON instead of a table")
    moves.add_argument("--variant", type=_variant, default=find_variant("standard"),
                       metavar="V", help=variant_help)
    moves.set_defaults(run=_cmd_moves)

    show = commands.add_parser(
        "show",
        help="draw a position as a text board",
        description="Draw a position as a text board; a Match ID after a colon "
        "(ID:MATCHID, as GNU Backgammon writes them) adds the score, cube and dice.",
    )
    show.add_argument("position", help=position_help + "; may end in ':MATCHID'")
    show.add_argument("--dice", help="dice to show as rolled: 31, 3-1 or 3,1")
    show.add_argument("--variant", type=_variant, default=find_variant("standard"),
                      metavar="V", help=variant_help)
    show.set_defaults(run=_cmd_show)

    play = commands.add_parser(
        "play",
        help="play a game or a match in the terminal",
        description="Play backgammon in the terminal, reading commands from standard input "
        "(type 'help' once playing): two people at one keyboard, or one against an "
        "opponent that plays random legal moves.",
    )
    play.add_argument("--opponent", choices=("human", "random", "bot"), default="human",
                      help="who plays O: a second person (default), random legal moves, "
                      "or the engine's bot")
    play.add_argument("--level", choices=list(SKILL_LEVELS), default="expert",
                      help="the bot's skill level (default expert)")
    play.add_argument("--variant", type=_variant, default=find_variant("standard"),
                      metavar="V", help=f"the variant to play ({variants}); default standard")
    play.add_argument("--match", type=_match_length, metavar="N",
                      help="play a match to N points (R12) instead of one money game")
    play.add_argument("--seed", type=int, metavar="S",
                      help="seed the dice (and the random opponent) to replay the same game")
    play.set_defaults(run=_cmd_play)

    hint = commands.add_parser(
        "hint",
        help="the engine's advice: plays ranked, or the cube action",
        description="Ask the engine: with dice (given or from the Match ID), every legal "
        "play ranked by equity with its chances and its loss against the best; without "
        "dice, the cube action of the player on roll for money or at the match score.",
    )
    hint.add_argument("position", help=position_help + "; may end in ':MATCHID'")
    hint.add_argument("--dice", help="the roll: 31, 3-1 or 3,1")
    hint.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                      help="search depth (default 0)")
    hint.add_argument("--limit", type=int, default=10, metavar="N",
                      help="show the best N plays (default 10; 0 for all)")
    hint.add_argument("--variant", type=_variant, default=find_variant("standard"),
                      metavar="V", help=variant_help)
    hint.set_defaults(run=_cmd_hint)

    # The server's commands live with the server; importing them is cheap.
    from gammon import connect
    from gammon.server import cli as server_cli
    from gammon.server import verify_cli

    server_cli.register(commands)
    verify_cli.register(commands)
    connect.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 2 bad input)."""
    out = sys.stdout
    try:
        parser = _parser()
        args, extra = parser.parse_known_args(argv)
        # argparse gives "*" positionals only the words before the first option,
        # so "moves start --json 3 1" leaves the dice over: take them back.
        if extra and args.command == "moves" and not any(w.startswith("-") for w in extra):
            args.dice = [*args.dice, *extra]
        elif extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        status: int = args.run(args, out)
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:  # output piped into head, say: not an error of ours
        # Point stdout at devnull so the interpreter's final flush stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (_UsageError, GammonError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return _EXIT_BAD_INPUT
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
