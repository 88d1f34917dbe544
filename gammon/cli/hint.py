"""``gammon hint``: the engine's ranking of the plays, or its cube action.

The engine is an extra (``gammon[engine]``): it is imported only when a hint is
asked for, so the rest of the command line runs without it.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from gammon.cli.common import Commands, add_engine_option, needs_extra
from gammon.cli.inputs import GivenPosition, parse_dice, read_given, variant_arg
from gammon.cli.rules import POSITION_HELP, variant_help
from gammon.game import Game, Phase
from gammon.position import Dice, Position
from gammon.variants import Variant, find_variant

if TYPE_CHECKING:
    from gammon.engine.cube import CubeState
    from gammon.engine.evaluator import Search

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


def _by(evaluator: Search | None) -> str:
    """Who judged, for the first line of a hint: nothing for our own nets."""
    return "" if evaluator is None or evaluator.is_ours else f" by the {evaluator.name} engine"


def format_cube_hint(
    position: Position, state: CubeState, ply: int, evaluator: Search | None = None
) -> str:
    """The cube action with its equities, or why the player on roll may not double."""
    from gammon.engine.cube import double_refusal
    from gammon.engine.evaluator import default_evaluator
    from gammon.engine.hint import cube_hint

    refusal = double_refusal(state)
    if refusal is not None:
        e = (evaluator or default_evaluator()).evaluate(position, ply)
        return (
            f"The player on roll cannot double here: {refusal}.\n"
            f"Cubeless equity {e.equity:+.3f}: win {e.win:.1%} "
            f"(gammon {e.win_gammon:.1%}), lose gammon {e.lose_gammon:.1%}"
        )
    hint = cube_hint(position, state, ply=ply, evaluator=evaluator)
    d, e = hint.decision, hint.evaluation
    unit = "MWC" if d.match else "equity per cube"
    lines = [
        f"Cube action ({ply}-ply{_by(evaluator)}, {unit}): {d}",
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


def format_play_hints(
    position: Position,
    dice: Dice,
    ply: int,
    limit: int,
    state: CubeState | None = None,
    evaluator: Search | None = None,
) -> str:
    """The plays of the dice ranked best first; ``limit`` 0 shows them all.

    At a match score (``state``) they rank by match winning chance; ``evaluator`` is the
    engine (our nets by default), named in the first line when it is another's.
    """
    from gammon.engine.hint import play_hints

    hints = play_hints(position, dice, ply=ply, state=state, evaluator=evaluator)
    shown = hints if limit <= 0 else hints[:limit]
    by = " by match winning chance" if state is not None and state.score is not None else ""
    lines = [
        f"{len(hints)} legal plays of {dice[0]}-{dice[1]}, ranked at {ply}-ply"
        f"{_by(evaluator)}{by}:"
    ]
    lines.extend(f"{n:>3}. {hint}" for n, hint in enumerate(shown, 1))
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
    return "Hints are for the side to roll or to play."


def run_hint(args: argparse.Namespace, out: TextIO) -> int:
    """Rank the plays of the dice given, or without dice give the cube action."""
    given = read_given(args.position, args.variant)
    dice = parse_dice(args.dice) if args.dice else given.dice
    _load_engine("gammon hint")
    from gammon.engine.engines import get_engine

    evaluator = get_engine(args.engine)
    state = cube_state_from_ids(given, args.variant)
    if dice is not None:
        text = format_play_hints(given.position, dice, args.ply, args.limit, state, evaluator)
    else:
        text = format_cube_hint(given.position, state, args.ply, evaluator)
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
    hint.set_defaults(run=run_hint)
