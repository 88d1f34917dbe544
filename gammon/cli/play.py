"""``gammon play``: a game or a match in the terminal, read from standard input.

Two people at one keyboard, or one against the random opponent or the engine's
bot; commands come one a line, so a script can be piped in.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from typing import TYPE_CHECKING, TextIO

from gammon.cli.common import Commands, UsageError, needs_extra
from gammon.cli.hint import hint_text
from gammon.cli.inputs import match_length_arg, variant_arg
from gammon.diagram import draw
from gammon.dice import RandomDice
from gammon.errors import GammonError, IllegalActionError
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
from gammon.match import Match, Session
from gammon.variants import VARIANTS, Variant, find_variant

if TYPE_CHECKING:
    from gammon.engine.bot import Bot

__all__ = ["RandomOpponent", "register", "run_play"]

PROG = "gammon"
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
            self.say(hint_text(game, side, self.series.score))
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


def _bot(level: str, seed: int | None) -> Bot:
    """The engine's bot at ``level``; the engine is an extra, imported only here."""
    with needs_extra("gammon play --opponent bot", "engine"):
        from gammon.engine.bot import SKILL_LEVELS, Bot
    if level not in SKILL_LEVELS:
        raise UsageError(
            f"argument --level: invalid choice: {level!r} (choose from {', '.join(SKILL_LEVELS)})"
        )
    return Bot(level, seed=seed)


def run_play(args: argparse.Namespace, out: TextIO) -> int:
    """Play until the game or match is over, the player quits or the input ends."""
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
        bots[1] = _bot(args.level, args.seed)
    terminal = _Terminal(series, bots, out, sys.stdin)
    try:
        return terminal.run()
    except _Quit:
        terminal.say("Bye.")
        return 0
    except _InputEnded:
        print(f"{PROG}: input ended before the game was over", file=sys.stderr)
        return 1




def register(commands: Commands) -> None:
    """Add ``play`` to the ``gammon`` command line."""
    variants = ", ".join(v.name for v in VARIANTS)
    play = commands.add_parser(
        "play",
        help="play a game or a match in the terminal",
        description="Play backgammon in the terminal, reading commands from standard input "
        "(type 'help' once playing): two people at one keyboard, or one against an "
        "opponent that plays random legal moves, or against the engine's bot.",
    )
    play.add_argument("--opponent", choices=("human", "random", "bot"), default="human",
                      help="who plays O: a second person (default), random legal moves, "
                      "or the engine's bot")
    play.add_argument("--level", default="expert",
                      metavar="LEVEL",
                      help="the bot's skill level, e.g. beginner, expert (the default) "
                      "or grandmaster")
    play.add_argument("--variant", type=variant_arg, default=find_variant("standard"),
                      metavar="V", help=f"the variant to play ({variants}); default standard")
    play.add_argument("--match", type=match_length_arg, metavar="N",
                      help="play a match to N points instead of one money game")
    play.add_argument("--seed", type=int, metavar="S",
                      help="seed the dice (and the random opponent) to replay the same game")
    play.set_defaults(run=run_play)
