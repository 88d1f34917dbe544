"""``gammon hint``: the engine's ranking of the plays, or its cube action.

The engine is an extra (``gammon[engine]``): it is imported only when a hint is
asked for, so the rest of the command line runs without it.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Final, TextIO

from gammon.cli.common import Commands, add_engine_option, add_lang_option, lang_of, needs_extra
from gammon.cli.inputs import GivenPosition, parse_dice, read_given, variant_arg
from gammon.cli.rules import POSITION_HELP, variant_help
from gammon.game import Game, Phase
from gammon.i18n import N_, Translator, translator
from gammon.position import Dice, Position
from gammon.variants import Variant, find_variant

if TYPE_CHECKING:
    from gammon.engine.cube import CubeDecision, CubeState
    from gammon.engine.evaluator import Search
    from gammon.engine.hint import PlayHint

__all__ = ["cube_state_from_ids", "hint_text", "register", "run_hint"]


def _load_engine(what: str) -> None:
    """Import the engine once, or say which extra to install."""
    with needs_extra(what, "engine"):
        import gammon.engine  # noqa: F401


def cube_state_from_ids(given: GivenPosition, variant: Variant) -> CubeState:
    """The cube and score typed on the command line (Match ID or XGID), for the player on roll.

    :meth:`CubeState.of_game` does this for a game being played; here there is no
    game, only the fields of the IDs, each with its own idea of who owns the cube.
    """
    from gammon.engine.cube import CubeOwner, CubeState
    from gammon.engine.met import MatchScore

    if given.match is not None:
        fields = given.match
        me = fields.player_on_roll
        owner = fields.cube_owner
        value, length, score = fields.cube_value, fields.match_length, fields.score
        relative = (
            CubeOwner.CENTRED if owner is None else CubeOwner.ME if owner == me
            else CubeOwner.OPPONENT
        )  # fmt: skip
        crawford, jacoby = fields.crawford, fields.jacoby and not length
        score = (score[me], score[1 - me])
    else:
        value, length = given.cube, given.match_length or 0
        owner = given.cube_owner
        relative = (
            CubeOwner.CENTRED if owner is None else CubeOwner.ME if owner == 0
            else CubeOwner.OPPONENT
        )  # fmt: skip
        score, crawford, jacoby = given.score or (0, 0), False, False
    match_score = None
    if length:
        away = (length - score[0], length - score[1])
        match_score = MatchScore(*away, crawford=crawford, post_crawford=not crawford and 1 in away)
    return CubeState(value, relative, match_score, jacoby=jacoby, available=variant.cube)


def _by(evaluator: Search | None, t: Translator) -> str:
    """Who judged, for the first line of a hint: nothing for our own nets."""
    if evaluator is None or evaluator.is_ours:
        return ""
    return " " + t.gettext("by the {engine} engine", engine=evaluator.name)


#: The doubler's action (GNU Backgammon's wording), by verdict and whether it is a redouble.
_CUBE_ACTIONS: Final = {
    ("no double", False): N_("No double"),
    ("no double", True): N_("No redouble"),
    ("double", False): N_("Double"),
    ("double", True): N_("Redouble"),
    ("too good to double", False): N_("Too good to double"),
    ("too good to double", True): N_("Too good to redouble"),
}
#: The taker's answer, by :class:`~gammon.engine.cube.TakerVerdict` value.
_ANSWERS: Final = {"take": N_("take"), "pass": N_("pass"), "beaver": N_("beaver")}


def cube_action_words(decision: CubeDecision, t: Translator) -> str:
    """``No double, take`` (the engine's own ``str``) in the language of ``t``."""
    verdict = decision.doubler.value
    action = "double" if decision.doubles else verdict
    return t.gettext(
        "{action}, {answer}",
        action=t.gettext(_CUBE_ACTIONS[action, decision.redouble]),
        answer=t.gettext(_ANSWERS[decision.taker.value]),
    )


def play_hint_line(hint: PlayHint, t: Translator) -> str:
    """One ranked play: its equity, its loss against the best and its chances."""
    e = hint.evaluation
    mwc = "" if hint.mwc is None else t.gettext("MWC {mwc}", mwc=t.percent(hint.mwc)) + "  "
    return (
        f"{hint.play!s:<28} {t.signed(hint.equity)} ({t.signed(-hint.loss)})  {mwc}"
        + t.gettext(
            "win {win} g {gammon} bg {backgammon}  lose g {lose_gammon} bg {lose_backgammon}",
            win=t.percent(e.win), gammon=t.percent(e.win_gammon),
            backgammon=t.percent(e.win_backgammon), lose_gammon=t.percent(e.lose_gammon),
            lose_backgammon=t.percent(e.lose_backgammon),
        )
    )  # fmt: skip


def format_cube_hint(
    position: Position,
    state: CubeState,
    ply: int,
    evaluator: Search | None = None,
    lang: str = "en",
) -> str:
    """The cube action with its equities, or why the player on roll may not double.

    The reason a double is not allowed comes from the rules in English (their catalog
    is still to come)."""
    from gammon.engine.cube import double_refusal
    from gammon.engine.evaluator import default_evaluator
    from gammon.engine.hint import cube_hint

    t = translator(lang)
    refusal = double_refusal(state)
    if refusal is not None:
        e = (evaluator or default_evaluator()).evaluate(position, ply)
        return "\n".join((
            t.gettext("The player on roll cannot double here: {reason}.", reason=refusal),
            t.gettext(
                "Cubeless equity {equity}: win {win} (gammon {gammon}), lose gammon {lose_gammon}",
                equity=t.signed(e.equity), win=t.percent(e.win), gammon=t.percent(e.win_gammon),
                lose_gammon=t.percent(e.lose_gammon),
            ),
        ))  # fmt: skip
    hint = cube_hint(position, state, ply=ply, evaluator=evaluator)
    d, e = hint.decision, hint.evaluation
    unit = t.gettext("MWC") if d.match else t.gettext("equity per cube")
    figures = [
        (t.gettext("no double"), d.no_double),
        (t.gettext("double/take"), d.double_take),
        (t.gettext("double/pass"), d.double_pass),
    ]
    if d.double_beaver is not None:
        figures.append((t.gettext("double/beaver"), d.double_beaver))
    wide = max(12, *(len(label) + 1 for label, _ in figures))
    lines = [
        t.gettext(
            "Cube action ({ply}-ply{by}, {unit}): {action}",
            ply=ply, by=_by(evaluator, t), unit=unit, action=cube_action_words(d, t),
        ),
        "  " + t.gettext(
            "win {win} (gammon {gammon}, backgammon {backgammon}), "
            "lose gammon {lose_gammon} (backgammon {lose_backgammon})",
            win=t.percent(e.win), gammon=t.percent(e.win_gammon),
            backgammon=t.percent(e.win_backgammon), lose_gammon=t.percent(e.lose_gammon),
            lose_backgammon=t.percent(e.lose_backgammon),
        ),
        *(f"  {label:<{wide}} {t.signed(value)}" for label, value in figures),
        "  " + t.gettext(
            "take point {take_point} (cube efficiency {efficiency})",
            take_point=t.percent(d.take_point), efficiency=t.number(hint.efficiency, "0.00"),
        ),
    ]  # fmt: skip
    return "\n".join(lines)


def format_play_hints(
    position: Position,
    dice: Dice,
    ply: int,
    limit: int,
    state: CubeState | None = None,
    evaluator: Search | None = None,
    lang: str = "en",
) -> str:
    """The plays of the dice ranked best first; ``limit`` 0 shows them all.

    At a match score (``state``) they rank by match winning chance; ``evaluator`` is the
    engine (our nets by default), named in the first line when it is another's.
    """
    from gammon.engine.hint import play_hints

    t = translator(lang)
    hints = play_hints(position, dice, ply=ply, state=state, evaluator=evaluator)
    shown = hints if limit <= 0 else hints[:limit]
    by = _by(evaluator, t)
    if state is not None and state.score is not None:
        by += " " + t.gettext("by match winning chance")
    lines = [
        t.ngettext(
            "{n} legal play of {die1}-{die2}, ranked at {ply}-ply{by}:",
            "{n} legal plays of {die1}-{die2}, ranked at {ply}-ply{by}:",
            len(hints), die1=dice[0], die2=dice[1], ply=ply, by=by,
        )
    ]  # fmt: skip
    lines.extend(f"{n:>3}. {play_hint_line(hint, t)}" for n, hint in enumerate(shown, 1))
    return "\n".join(lines)


def hint_text(game: Game, side: int, score: tuple[int, int]) -> str:
    """What ``gammon play``'s 'hint' shows: plays when dice are out, else the cube."""
    if game.phase is Phase.MOVE:
        assert game.dice is not None
        _load_engine("the hint of gammon play")
        from gammon.engine.cube import CubeState

        state = CubeState.of_game(game, side, score) if game.rules.match_length else None
        return format_play_hints(game.position, game.dice, 0, 5, state)
    if game.phase is Phase.ROLL and game.on_roll == side:
        _load_engine("the hint of gammon play")
        from gammon.engine.cube import CubeState

        return format_cube_hint(game.position, CubeState.of_game(game, side, score), 0)
    return translator().gettext("Hints are for the side to roll or to play.")


def run_hint(args: argparse.Namespace, out: TextIO) -> int:
    """Rank the plays of the dice given, or without dice give the cube action."""
    given = read_given(args.position, args.variant)
    dice = parse_dice(args.dice) if args.dice else given.dice
    lang = lang_of(args)
    _load_engine("gammon hint")
    from gammon.engine.engines import get_engine

    evaluator = get_engine(args.engine)
    state = cube_state_from_ids(given, args.variant)
    if dice is not None:
        text = format_play_hints(
            given.position, dice, args.ply, args.limit, state, evaluator, lang=lang
        )
    else:
        text = format_cube_hint(given.position, state, args.ply, evaluator, lang=lang)
    print(text, file=out)
    return 0


def register(commands: Commands) -> None:
    """Add ``hint`` to the ``gammon`` command line."""
    hint = commands.add_parser(
        "hint",
        help="the engine's advice: plays ranked, or the cube action",
        description="Ask the engine: with dice (given or from the Match ID), every legal "
        "play ranked by equity with its chances and its loss against the best; without "
        "dice, the cube action of the player on roll for money or at the match score.",
    )
    hint.add_argument("position", help=POSITION_HELP + "; may end in ':MATCHID'")
    hint.add_argument("--dice", help="the roll: 31, 3-1 or 3,1")
    hint.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                      help="search depth (default 0)")  # fmt: skip
    hint.add_argument("--limit", type=int, default=10, metavar="N",
                      help="show the best N plays (default 10; 0 for all)")  # fmt: skip
    hint.add_argument("--variant", type=variant_arg, default=find_variant("standard"),
                      metavar="V", help=variant_help())  # fmt: skip
    add_engine_option(hint)
    add_lang_option(hint)
    hint.set_defaults(run=run_hint)
