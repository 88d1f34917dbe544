"""Practice (R15): hints at a chosen depth with the cube, a tutor, and taking a play back.

Where practice is on (every table against the bot, and any table created with
``"practice": true``, which the opponent accepts by joining it), a player may ask
for a ``hint`` at their own decision: the checker plays ranked with their
equities and gammon chances, and, before rolling or when doubled, the cube
action with the no double / double-take / double-pass equities. The depth is the
bot's at a table against the bot (its level's ply), 1-ply elsewhere, or what the
hint asks for (0 to 2).

**The tutor.** A player who switches it on (``{"type": "tutor", "on": true}``)
gets a ``tutor`` message right after each of their checker plays: the play's
loss against the best at the hint depth and, for a mistake (0.04 or more), the
better play and the teacher's explanation (:mod:`gammon.engine.analysis.explain`).

**Taking a play back** (``take_back``, an action in the table's log): only
against the bot, only the player's own last play of the game being played,
and only before the bot acts (the play must be the table's last action; a play
that ended the game cannot be taken back). The game goes back to the position
before the play with the same dice, which are not thrown again: no die is
thrown, undone or thrown again by a take-back, the next roll is the same roll
number of the same seed, and the entropy sent with the taken-back play still
counts for it (DICE.md), so a take-back never gives a player a new roll. This
module says when practice allows it (:func:`check_take_back`); the table carries it
out with the rules library's own operation of the series,
:meth:`gammon.match.Match.take_back`, which returns the series as it was. When the
tutor has warned of a mistake, the bot waits (up to :data:`HOLD_S`) for the
player to take the play back or keep it (``keep``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from gammon.messages import Message
from gammon.server.protocol import Refused
from gammon.server.timesource import SystemTime, TimeSource

if TYPE_CHECKING:
    from gammon.engine.cube import CubeState
    from gammon.engine.hint import PlayHint
    from gammon.game import Game
    from gammon.i18n import Translator
    from gammon.position import Dice, Position
    from gammon.server.bots import Bots
    from gammon.server.connections import Connection, LiveTable
    from gammon.server.table import Table

__all__ = [
    "DEFAULT_PLY",
    "HOLD_S",
    "TAKE_BACK",
    "Practice",
    "can_take_back",
    "check_take_back",
    "cube_fields",
    "play_fields",
    "practice_on",
]

#: The protocol's name of the take-back action.
TAKE_BACK: Final = "take_back"
#: The hint depth at a practice table between people (against the bot: the bot's own).
DEFAULT_PLY: Final = 1
#: How long the bot waits, after the tutor warned of a mistake, for a take-back or ``keep``.
HOLD_S: Final = 120.0
#: The tutor warns of a play that loses at least this much (a doubtful play).
MISTAKE: Final = 0.04


# -- the rules of practice, on a table (no engine here) -----------------------------------


def practice_on(table: Table) -> bool:
    """Whether hints (and the tutor) are allowed at ``table``."""
    return table.bot_side is not None or bool(getattr(table.settings, "practice", False))


#: Practice's refusals of a take-back, as (code, message) for :class:`Refused`.
_ONLY_AGAINST_THE_BOT: Final = (
    "not_available",
    Message("a play can be taken back only in a game against the bot"),
)
_ONLY_THE_BOTS_OPPONENT: Final = (
    "not_a_player",
    Message("only the bot's opponent can take a play back"),
)
_ONLY_YOUR_LAST_PLAY: Final = (
    "illegal_action",
    Message(
        "only your own last play can be taken back, before the bot acts and while the game "
        "goes on"
    ),
)


def _take_back_refusal(table: Table, side: int | None) -> tuple[str, Message] | None:
    """Why ``side`` may not take its last play back at ``table`` now (None: it may).

    Practice's own rules (only the bot's opponent, only at a table against the bot, only
    while the play is the table's last action, so before the bot acts); the rules library
    says whether the series allows it (:meth:`gammon.match.Match.take_back`: the side's
    play is the last thing done in the game being played, and did not end it).
    """
    if table.bot_side is None:
        return _ONLY_AGAINST_THE_BOT
    if side is None or side == table.bot_side:
        return _ONLY_THE_BOTS_OPPONENT
    last = table.last
    series = table.series
    if (
        table.status != "playing"
        or series is None
        or last is None
        or last.action.name != "play"
        or last.side != side
        or last.game != table.game_number
        or not series.can_take_back(side)
    ):
        return _ONLY_YOUR_LAST_PLAY
    return None


def can_take_back(table: Table, side: int | None) -> bool:
    return side is not None and _take_back_refusal(table, side) is None


def check_take_back(table: Table, side: int | None) -> None:
    """Refuse a take-back that practice does not allow now (see the module's rules)."""
    refusal = _take_back_refusal(table, side)
    if refusal is not None:
        raise Refused(*refusal)


# -- the engine's side (in the bots' engine thread) -------------------------------------------


def _hint_ply(table: Table, ply: object) -> int:
    if isinstance(ply, int) and not isinstance(ply, bool):
        return ply
    bot = table.bot_side
    if bot is not None and table.seats is not None:
        from gammon.engine.bot import SKILL_LEVELS

        level = SKILL_LEVELS.get(table.seats[bot].bot or "")
        if level is not None:
            return min(level.ply, 2)
    return DEFAULT_PLY


def play_fields(hint: PlayHint) -> dict[str, Any]:
    """One ranked play as the protocol gives it (docs/PROTOCOL.md 4.5): the hints and the
    analysis board (gammon.server.analysis_board) answer the same shape."""
    e = hint.evaluation
    return {
        "play": str(hint.play),
        "equity": round(hint.equity, 4),
        "loss": round(hint.loss, 4),
        "win": round(e.win, 4),
        "win_gammon": round(e.win_gammon, 4),
        "win_backgammon": round(e.win_backgammon, 4),
        "lose_gammon": round(e.lose_gammon, 4),
        "lose_backgammon": round(e.lose_backgammon, 4),
        **({} if hint.mwc is None else {"mwc": round(hint.mwc, 4)}),
    }


def _plays(
    position: Position,
    dice: Dice,
    ply: int,
    state: CubeState | None = None,
    engine: str = "gammon",
) -> list[dict[str, Any]]:
    """The ranked plays; at a match score (``state``) by match winning chance, with ``mwc``."""
    from gammon.engine.engines import get_engine
    from gammon.engine.hint import play_hints

    hints = play_hints(position, dice, ply=ply, state=state, evaluator=get_engine(engine))
    return [play_fields(hint) for hint in hints]


def _cube(
    game: Game,
    doubler: int,
    score: tuple[int, int],
    ply: int,
    engine: str = "gammon",
    lang: str = "en",
) -> dict[str, Any]:
    """The cube hint for ``doubler`` (on roll, or having doubled): the action and equities."""
    from gammon.engine.cube import CubeState

    state = CubeState.of_game(game, doubler, score)
    position = game.position_for(doubler)
    return {"doubler": doubler, **cube_fields(position, state, ply, engine, lang)}


def cube_fields(
    position: Position, state: CubeState, ply: int, engine: str = "gammon", lang: str = "en"
) -> dict[str, Any]:
    """The cube action of the player on roll of ``position`` with its figures (the
    protocol's CUBE_HINT less ``doubler``): the hints and the analysis board; the words
    (``text``) in ``lang``, the reader's."""
    from gammon.engine.analysis.explain import cube_words
    from gammon.engine.engines import get_engine
    from gammon.engine.hint import cube_hint

    hint = cube_hint(position, state, ply=ply, evaluator=get_engine(engine))
    d, e = hint.decision, hint.evaluation
    return {
        "action": str(d),
        "double": d.doubles,
        "take": d.taker.value,
        "no_double": round(d.no_double, 4),
        "double_take": round(d.double_take, 4),
        "double_pass": round(d.double_pass, 4),
        "match": d.match,
        "take_point": round(d.take_point, 4),
        "doubling_point": None if d.doubling_point is None else round(d.doubling_point, 4),
        "cash_point": round(d.cash_point, 4),
        # The chances against the window and the take point, in words that agree with
        # the action (gammon.engine.analysis.explain.cube_words).
        "text": " ".join(cube_words(e.win, d, lang)),
        "win": round(e.win, 4),
        "win_gammon": round(e.win_gammon, 4),
        "win_backgammon": round(e.win_backgammon, 4),
        "lose_gammon": round(e.lose_gammon, 4),
        "lose_backgammon": round(e.lose_backgammon, 4),
    }


def tutor_verdict(
    position: Position,
    dice: Dice,
    played: str,
    ply: int,
    engine: str = "gammon",
    state: CubeState | None = None,
    lang: str = "en",
) -> dict[str, Any]:
    """The tutor's words on ``played`` (the rules' notation) from ``position`` with ``dice``,
    ranked as the hint ranks: at a match score (``state``) by match winning chance; the
    verdict's sentence in ``lang`` (the figures' words and the explanation, from
    gammon.engine.analysis, as that module writes them)."""
    from gammon.i18n import translator

    words = translator(lang)
    from gammon.engine.analysis import mark_for
    from gammon.engine.analysis.explain import loss_words
    from gammon.engine.analysis.results import Unit
    from gammon.engine.engines import get_engine
    from gammon.engine.hint import play_hints

    hints = play_hints(position, dice, ply=ply, evaluator=get_engine(engine), state=state)
    best = hints[0]
    mine = next((h for h in hints if str(h.play) == played), best)
    loss = max(0.0, best.equity - mine.equity)
    match = best.mwc is not None and mine.mwc is not None
    verdict: dict[str, Any] = {
        "play": played,
        "best": str(best.play),
        "loss": round(loss, 4),
        "mark": str(mark_for(loss)),
        "ply": ply,
        "unit": (Unit.MWC if match else Unit.EQUITY).value,
        "text": "",
    }
    if match:
        assert best.mwc is not None and mine.mwc is not None
        verdict["mwc_loss"] = round(max(0.0, best.mwc - mine.mwc), 4)
    if loss < MISTAKE or str(best.play) == played:
        verdict["text"] = (
            words.gettext("The best play.")
            if str(best.play) == played
            else words.gettext("Fine: {best} is a shade better.", best=str(best.play))
        )
        return verdict

    why = _explanation(position, dice, played, ply, hints, mine, loss, lang)
    # The words show the figure the verdict carries (rounded once), in its unit, named:
    # equity in money play, match winning chance in a match.
    unit = Unit.MWC if match else Unit.EQUITY
    shown = verdict["mwc_loss"] if match else verdict["loss"]
    verdict["text"] = _loses(words, loss_words(shown, unit, lang), str(best.play), why)
    return verdict


def _loses(words: Translator, loss_text: str, best: str, why: str) -> str:
    """The tutor's sentence on a mistake: what it loses, the better play, and why."""
    if why:
        return words.gettext(
            "That play loses {loss}; {best} was better: {why}", loss=loss_text, best=best, why=why
        )
    return words.gettext("That play loses {loss}; {best} was better.", loss=loss_text, best=best)


def _explanation(
    position: Position,
    dice: Dice,
    played: str,
    ply: int,
    hints: list[PlayHint],
    mine: PlayHint,
    loss: float,
    lang: str,
) -> str:
    """Why the best of ``hints`` beats ``mine`` (the play made), in ``lang``, as the review
    explains a checker play; "" where it has no words for it (the words are a bonus; the
    figures are the verdict)."""
    from gammon.engine.analysis import Candidate, CheckerReview, mark_for
    from gammon.engine.analysis.explain import explain_checker

    best = hints[0]

    def candidate(hint: PlayHint) -> Candidate:
        e = hint.evaluation
        chances = (e.win, e.win_gammon, e.win_backgammon, e.lose_gammon, e.lose_backgammon)
        return Candidate(
            str(hint.play), hint.equity, best.equity - hint.equity, chances, ply, hint.mwc
        )

    try:
        position_id: str | None = position.id
    except Exception:
        position_id = None
    review = CheckerReview(
        game=1,
        index=0,
        side=0,
        dice=dice,
        position_id=position_id,
        match_id="",
        played=played,
        candidates=(candidate(best), candidate(mine)),
        rank=hints.index(mine),
        legal_plays=len(hints),
        loss=loss,
        cost=loss,
        mark=mark_for(loss),
    )
    why = ""
    with contextlib.suppress(Exception):  # the words are a bonus; the figures are the verdict
        explanation = explain_checker(review, checkers=position.checkers, lang=lang)
        if explanation is not None:
            why = explanation.text
    return why


# -- on the event loop ----------------------------------------------------------------------


def _nobody_elsewhere(table_id: int) -> None:
    """One node alone: a table's bot waits here or nowhere."""


class Practice:
    """Hints, the tutor's switch and warnings, and the bot's wait for a take-back."""

    def __init__(self, bots: Bots | None, time: TimeSource | None = None) -> None:
        self.bots = bots
        #: The clock of the bot's wait (gammon.server.timesource).
        self.time: TimeSource = time if time is not None else SystemTime()
        #: (table, user) pairs with the tutor on.
        self.tutors: set[tuple[int, int]] = set()
        #: Tables whose bot waits: the future the bot awaits before acting.
        self.holds: dict[int, asyncio.Future[None]] = {}
        #: When each hold began (``time.monotonic``): the tutor tells the player how long
        #: the bot will still wait for their answer.
        self.held_since: dict[int, float] = {}
        #: Tells the node running a table's bot that its wait is over, where that is
        #: another node (the hub sets it to its cluster's ``release_bot``).
        self.release_elsewhere: Callable[[int], None] = _nobody_elsewhere

    def tutor_on(self, table_id: int, user_id: int) -> bool:
        return (table_id, user_id) in self.tutors

    def set_tutor(self, table: Table, user_id: int, on: bool) -> None:
        if on and not practice_on(table):
            raise Refused(
                "not_available",
                Message("the tutor is for practice tables and games against the bot"),
            )
        if on:
            self.tutors.add((table.id, user_id))
        else:
            self.tutors.discard((table.id, user_id))

    async def hint(
        self, table: Table, side: int | None, fields: Mapping[str, Any], lang: str = "en"
    ) -> dict[str, Any]:
        """A hint for ``side``: ``{"seq", "ply", "plays", "cube"}`` (docs/PROTOCOL.md 4.5),
        the cube's words in ``lang`` (the asking socket's)."""
        if side is None:
            raise Refused("not_a_player", Message("hints are for the players at the table"))
        if self.bots is None:
            raise Refused("not_available", Message("the engine is switched off on this server"))
        if not practice_on(table):
            raise Refused(
                "not_available",
                Message(
                    "hints are for practice: games against the bot, or tables created for practice"
                ),
            )
        actions = table.actions_for(side)
        if "hint" not in actions:
            raise Refused(
                "not_available",
                Message(
                    "a hint is for your own decision: your dice to play, your cube, or a double "
                    "to answer"
                ),
            )
        game, series = table.game, table.series
        assert game is not None and series is not None
        ply = _hint_ply(table, fields.get("ply"))
        score = series.score if table.settings.is_match else (0, 0)
        seq = table.seq
        engine = self.bots.engine.name
        plays: list[dict[str, Any]] = []
        cube: dict[str, Any] | None = None
        if "play" in actions and game.dice is not None:
            from gammon.engine.cube import CubeState

            state = CubeState.of_game(game, side, score) if table.settings.is_match else None
            plays = await self.bots.run(_plays, game.position, game.dice, ply, state, engine)
        elif "double" in actions:
            cube = await self.bots.run(_cube, game, side, score, ply, engine, lang)
        elif "take" in actions:
            cube = await self.bots.run(_cube, game, 1 - side, score, ply, engine, lang)
        return {
            "type": "hint",
            "seq": seq,
            "ply": ply,
            "engine": engine,
            # What the client shows: match winning chance in a match, else equity.
            "unit": "mwc" if table.settings.is_match else "equity",
            "plays": plays,
            "cube": cube,
        }

    def before_play(self, live: LiveTable, side: int | None, user_id: int) -> Any:
        """What the tutor needs from before a play (the board and dice), or None if it is off."""
        table = live.table
        game = table.game
        if (
            side is None
            or game is None
            or game.dice is None
            or not self.tutor_on(table.id, user_id)
        ):
            return None
        from gammon.engine.cube import CubeState

        # The hint's ranking exactly: at a match score by match winning chance, so that the
        # tutor's best play is the hint's best play.
        state = None
        if table.settings.is_match and table.series is not None:
            state = CubeState.of_game(game, side, table.series.score)
        return (game.position, game.dice, _hint_ply(table, None), state)

    def hold(self, live: LiveTable) -> None:
        """Make the bot wait until :meth:`release`: called where the table runs, once a play
        the tutor will judge is committed and before the bot is started (Hub._changed)."""
        table_id = live.table.id
        if table_id not in self.holds:
            self.holds[table_id] = asyncio.get_running_loop().create_future()
            self.held_since[table_id] = self.time.monotonic()

    def hold_left(self, table_id: int) -> float:
        """The seconds the bot will still wait at ``table_id`` (0 when it does not)."""
        since = self.held_since.get(table_id)
        if since is None or table_id not in self.holds:
            return 0.0
        return max(0.0, HOLD_S - (self.time.monotonic() - since))

    def release(self, table_id: int, *, here_only: bool = False) -> None:
        """End the bot's wait: here, and (unless ``here_only``) on the node running the
        table when that is another."""
        future = self.holds.pop(table_id, None)
        self.held_since.pop(table_id, None)
        if future is not None and not future.done():
            future.set_result(None)
        if not here_only:
            self.release_elsewhere(table_id)

    async def gate(self, live: LiveTable) -> None:
        """The bot's wait before each action (Bots.play): while the table is held."""
        future = self.holds.get(live.table.id)
        if future is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await self.time.wait_for(asyncio.shield(future), HOLD_S)
            self.release(live.table.id)

    async def after_play(
        self, live: LiveTable, conn: Connection, side: int, before: Any, seq: int, played: str
    ) -> None:
        """The tutor's verdict on a play just made, while the bot waits (held by the play:
        ``hold_bot``) in case the player takes it back."""
        table = live.table
        position, dice, ply, state = before
        holding = can_take_back(table, side)
        try:
            assert self.bots is not None
            verdict = await self.bots.run(
                tutor_verdict,
                position,
                dice,
                played,
                ply,
                self.bots.engine.name,
                state,
                conn.lang,
            )
        except Exception:
            self.release(table.id)
            raise
        take = holding and bool(verdict["mark"]) and can_take_back(live.table, side)
        message = {"type": "tutor", "seq": seq, **verdict, "take_back": take}
        if take:
            # How long the bot waits for the answer: the player is told (PROTOCOL.md 4.5).
            message["hold_s"] = round(self.hold_left(table.id), 1)
        conn.send(message)
        if not take:
            self.release(table.id)
