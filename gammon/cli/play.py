"""``gammon play``: a game or a match in the terminal, read from standard input.

Two people at one keyboard, or one against the random opponent or the engine's
bot; commands come one a line, so a script can be piped in. What is typed
becomes an action value (:mod:`gammon.actions`) that the series applies; the
choices offered are the series' ``legal_actions``, and what happens is put
into words by :func:`gammon.events.describe`, as on the server.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from typing import TYPE_CHECKING, Final, Protocol, TextIO

from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Forfeit,
    OutOfTime,
    PlayDice,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.cli.common import Commands, UsageError, add_lang_option, lang_of, needs_extra
from gammon.cli.hint import hint_text
from gammon.cli.inputs import match_length_arg, variant_arg
from gammon.diagram import draw
from gammon.dice import RandomDice
from gammon.errors import GammonError, IllegalActionError
from gammon.events import describe
from gammon.game import Game, Phase
from gammon.i18n import N_, translator
from gammon.match import Match, Session
from gammon.variants import VARIANTS, Variant, find_variant

if TYPE_CHECKING:
    from gammon.engine.bot import Bot

__all__ = ["Opponent", "RandomOpponent", "register", "run_play"]

PROG = "gammon"
_MARKS: Final = ("X", "O")
_RESIGN_WORDS: Final = {"single": 1, "gammon": 2, "backgammon": 3, "1": 1, "2": 2, "3": 3}
_SIDE_WORD = re.compile(r"\bside ([01])\b")
#: The words the prompt offers, in the order it offers them.
_CHOICE_WORDS: Final[tuple[tuple[type[Action], str], ...]] = (
    (Roll, "roll"),
    (Double, "double"),
    (Take, "take"),
    (Beaver, "beaver"),
    (Drop, "drop"),
    (AcceptResignation, "accept"),
    (RejectResignation, "reject"),
)
_PLAY_HELP = N_(
    """\
Commands (the side named in the prompt types them):
  roll, r            roll the dice (done for you when you cannot double)
  double, d          offer the cube before rolling
  take, t / drop, p  answer a double; 'beaver' takes and redoubles where allowed
  resign [single|gammon|backgammon]   offer to resign; the opponent may accept or reject
  accept / reject    answer a resignation
  <play>             a play in standard notation, as 13/7* 7/5, bar/22 or 6/2(2)
  <n>                the n-th play listed by 'moves'
  choose <n>         acey-deucey: the double to play after a 1-2
  moves              list the legal plays of the dice
  board, b           draw the board again
  pips               the pip counts
  hint               the engine's best plays, or its cube advice before rolling
  help, ?            this text
  quit, q            stop playing"""
)


class Opponent(Protocol):
    """Who plays a side for the computer: the random opponent or the engine's :class:`Bot`."""

    name: str

    def decide(self, game: Game, side: int, score: tuple[int, int] = (0, 0)) -> Action: ...


class RandomOpponent:
    """A stand-in opponent: a random legal play each turn, chosen with its own seeded generator.

    It never doubles, takes every double and accepts every resignation, so a
    game against it always runs to a finish.

    >>> from gammon.dice import ScriptedDice
    >>> game = Game(dice=ScriptedDice([(3, 1)]))
    >>> RandomOpponent(1).decide(game, 0)
    Roll(side=0)
    """

    name = N_("the random opponent")

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def decide(self, game: Game, side: int, score: tuple[int, int] = (0, 0)) -> Action:
        """The action ``side`` takes now; ``score`` is there to decide like the bot."""
        choices = _choices(game.legal_actions(side))
        plays = [action for action in choices if isinstance(action, PlayDice)]
        if plays:
            return self._random.choice(plays)
        if Take(side) in choices:
            return Take(side)
        if AcceptResignation(side) in choices:
            return AcceptResignation(side)
        if any(isinstance(action, ChooseDouble) for action in choices):
            return ChooseDouble(side, self._random.randint(1, 6))
        return Roll(side)


def _choices(actions: list[Action]) -> list[Action]:
    """What the prompt offers: the legal actions less resigning and leaving, always open."""
    return [a for a in actions if not isinstance(a, Resign | Forfeit | OutOfTime)]


def _marks(text: str) -> str:
    """The rules' 'side 0' and 'side 1' as the X and O on the board."""
    return _SIDE_WORD.sub(lambda m: _MARKS[int(m.group(1))], text)


class _Quit(Exception):
    """The player typed quit."""


class _Terminal:
    """Plays a match or a money game over text streams: reads commands, prints what happens."""

    def __init__(
        self,
        series: Match | Session,
        opponents: dict[int, Opponent],
        out: TextIO,
        inp: TextIO,
        lang: str = "en",
    ) -> None:
        self.tr = translator(lang)
        self.series = series
        self.opponents = opponents
        self.out = out
        self.inp = inp
        self.echo = not inp.isatty()
        self._shown: tuple[int, int] | None = None  # (game number, history length) last drawn

    def say(self, text: str) -> None:
        print(text, file=self.out)

    # -- what is shown --------------------------------------------------------

    def viewer(self) -> int:
        """The side the board is drawn for: the human against a bot, else the side to act."""
        if self.opponents:
            return 0 if 0 not in self.opponents else 1
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
            lang=self.tr.lang,
        )

    def show_board(self) -> None:
        game = self.series.game
        self._shown = (self.series.game_number, len(game.history))
        self.say(self.board())

    def pips(self) -> str:
        pips = self.series.game.position_for(0).pips()
        return self.tr.gettext("Pip count: X {x}, O {o}", x=pips[0], o=pips[1])

    def prompt(self, side: int, choices: list[Action]) -> str:
        """``X (roll or double)> ``: the side to type and what it may type now."""
        game = self.series.game
        mark = _MARKS[side]
        kinds = {type(action) for action in choices}
        if PlayDice in kinds and game.dice is not None:
            return f"{mark} (play {game.dice[0]}-{game.dice[1]})> "
        if ChooseDouble in kinds:
            return f"{mark} (choose a double, 1-6)> "
        words = [word for kind, word in _CHOICE_WORDS if kind in kinds]
        offer = " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)
        if game.phase is Phase.BEAVER_OFFERED:
            offer += " the beaver"
        return f"{mark} ({offer})> "

    # -- what is done ---------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Carry out an action in the series and tell what happened."""
        for event in self.series.apply(action):
            self.say(describe(event, _MARKS, self.tr.lang))

    def carry_out(self, side: int, line: str) -> None:
        """Do what ``line`` says for ``side``; our errors propagate for the caller to print."""
        words = line.strip().lower().split()
        if not words:
            return
        word = words[0]
        if word in ("help", "?"):
            self.say(self.tr.gettext(_PLAY_HELP))
        elif word in ("quit", "q", "exit"):
            raise _Quit
        elif word in ("board", "b"):
            self.show_board()
        elif word == "pips":
            self.say(self.pips())
        elif word == "hint":
            self.say(hint_text(self.series.game, side, self.series.score))
        elif word in ("moves", "plays", "list"):
            plays = self.plays(side)
            if not plays:
                self.say(self.tr.gettext("There are no dice to play now."))
            for number, play in enumerate(plays, 1):
                self.say(f"{number:>3}  {play.play}")
        else:
            self.apply(self.action(side, line.strip()))

    def plays(self, side: int) -> list[PlayDice]:
        """The legal plays of the dice, numbered from 1 in 'moves'."""
        return [a for a in self.series.legal_actions(side) if isinstance(a, PlayDice)]

    def action(self, side: int, text: str) -> Action:
        """The action a line of input names; the rules then decide whether it is allowed now."""
        words = text.lower().split()
        word, rest = words[0], words[1:]
        choices = _choices(self.series.legal_actions(side))
        answering_resignation = AcceptResignation(side) in choices
        choosing = any(isinstance(action, ChooseDouble) for action in choices)
        if word in ("roll", "r"):
            return Roll(side)
        if word in ("double", "d"):
            return Double(side)
        if word == "beaver":
            return Beaver(side)
        if word in ("accept", "take", "t") and answering_resignation:
            return AcceptResignation(side)
        if word in ("reject", "drop", "pass", "p") and answering_resignation:
            return RejectResignation(side)
        if word in ("take", "t", "accept"):
            return Take(side)
        if word in ("drop", "pass", "p", "reject"):
            return Drop(side)
        if word == "resign":
            value = _RESIGN_WORDS.get(rest[0] if rest else "single")
            if value is None or len(rest) > 1:
                raise IllegalActionError(
                    f"resign what? write 'resign', 'resign gammon' or 'resign backgammon', "
                    f"not {text!r}"
                )
            return Resign(side, value)
        if word == "choose" or (choosing and word.isdigit()):
            chosen = rest[0] if word == "choose" and len(rest) == 1 else word
            if not chosen.isdigit():
                raise IllegalActionError(
                    f"choose a double by its number, as 'choose 4', not {text!r}"
                )
            return ChooseDouble(side, int(chosen))
        if word.isdigit() and len(words) == 1:
            plays = self.plays(side)
            if not 1 <= int(word) <= len(plays):
                raise IllegalActionError(
                    f"there is no play number {word}: 'moves' lists "
                    f"{len(plays)} play{'' if len(plays) == 1 else 's'}"
                    if plays else f"there is no play number {word}: no dice to play now"
                )  # fmt: skip
            return plays[int(word) - 1]
        if any(c.isdigit() for c in text) or "/" in text:
            return PlayDice(side, text)
        raise IllegalActionError(f"unknown command {text!r}; type 'help' for the commands")

    def run(self) -> int:
        series = self.series
        tr = self.tr
        variant = series.game.rules.variant.name
        if isinstance(series, Match) and 1 in self.opponents:
            opening = tr.ngettext(
                "gammon: a {n}-point match of {variant}, {opponent} (O).",
                "gammon: a {n}-point match of {variant}, {opponent} (O).",
                series.length,
                variant=variant,
                opponent=tr.gettext(self.opponents[1].name),
            )
        elif isinstance(series, Match):
            opening = tr.ngettext(
                "gammon: a {n}-point match of {variant}, two players at one keyboard.",
                "gammon: a {n}-point match of {variant}, two players at one keyboard.",
                series.length,
                variant=variant,
            )
        elif 1 in self.opponents:
            opening = tr.gettext(
                "gammon: a money game of {variant}, {opponent} (O).",
                variant=variant,
                opponent=tr.gettext(self.opponents[1].name),
            )
        else:
            opening = tr.gettext(
                "gammon: a money game of {variant}, two players at one keyboard.", variant=variant
            )
        self.say(opening)
        self.say(tr.gettext("Type 'help' for the commands."))
        while True:
            game = series.game
            if game.is_over:
                if not self.finish_game():
                    return 0
                continue
            side = game.turn if game.turn is not None else self.viewer()
            choices = _choices(series.legal_actions(side))
            if choices == [Roll(side)]:  # nothing to decide before rolling: no double possible
                self.apply(Roll(side))
                continue
            if side in self.opponents:
                self.apply(self.opponents[side].decide(game, side, series.score))
                continue
            if self._shown != (series.game_number, len(game.history)):
                self.show_board()
            print(self.prompt(side, choices), end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                print(file=self.out)
                raise _InputEnded
            if self.echo:
                print(line.rstrip("\n"), file=self.out)
            try:
                self.carry_out(side, line)
            except GammonError as exc:
                self.say(self.tr.gettext("Not possible: {reason}", reason=_marks(str(exc))))

    def finish_game(self) -> bool:
        """Report a finished game; start the next one if the series goes on."""
        series = self.series
        self.show_board()
        score = series.score
        if isinstance(series, Match):
            self.say(
                self.tr.gettext(
                    "Score: X {x}, O {o} (match to {length})",
                    x=score[0],
                    o=score[1],
                    length=series.length,
                )
            )
        if series.is_over:
            winner = series.winner
            if isinstance(series, Match):
                self.say(
                    self.tr.gettext(
                        "{player} wins the match {high}-{low}.",
                        player=_MARKS[winner or 0],
                        high=max(score),
                        low=min(score),
                    )
                )
            return False
        series.new_game()
        self.say(self.tr.gettext("Game {number}", number=series.game_number))
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
    opponents: dict[int, Opponent] = {}
    if args.opponent == "random":
        opponents[1] = RandomOpponent(args.seed)
    elif args.opponent == "bot":
        opponents[1] = _bot(args.level, args.seed)
    terminal = _Terminal(series, opponents, out, sys.stdin, lang_of(args))
    try:
        return terminal.run()
    except _Quit:
        terminal.say(terminal.tr.gettext("Bye."))
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
    play.add_argument(
        "--opponent",
        choices=("human", "random", "bot"),
        default="human",
        help="who plays O: a second person (default), random legal moves, or the engine's bot",
    )
    play.add_argument(
        "--level",
        default="expert",
        metavar="LEVEL",
        help="the bot's skill level, e.g. beginner, expert (the default) or grandmaster",
    )
    play.add_argument(
        "--variant",
        type=variant_arg,
        default=find_variant("standard"),
        metavar="V",
        help=f"the variant to play ({variants}); default standard",
    )
    play.add_argument(
        "--match",
        type=match_length_arg,
        metavar="N",
        help="play a match to N points instead of one money game",
    )
    play.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="seed the dice (and the random opponent) to replay the same game",
    )
    add_lang_option(play)
    play.set_defaults(run=run_play)
