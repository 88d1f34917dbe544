"""The analysis board's endpoints: any position, set up by hand or pasted as an XGID, a
Position ID or a Position ID with its Match ID, judged at a chosen depth and rolled out
(docs/PROTOCOL.md 9.1).

Why a module of its own: the board is not a table (no seats, no log, nothing stored). It
translates a setup (JSON) into the rules library's value for one position with its dice,
cube and score (:class:`gammon.xgid.Xgid`, which checks every field), asks the engine,
and answers JSON. The engine's work runs on the engine's thread (the bots' own,
gammon.server.bots), a rollout in batches of :data:`BATCH` trials, so that bots playing
games wait at most one batch; a rollout's progress is asked for, not pushed.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.errors import GammonError, XgidError
from gammon.messages import Message
from gammon.position import Position
from gammon.server.auth import TokenBuckets
from gammon.server.bodies import ANY, fields
from gammon.server.pages import spoken
from gammon.server.protocol import Refused
from gammon.server.timesource import SystemTime, TimeSource
from gammon.xgid import Xgid, format_xgid, parse_xgid

if TYPE_CHECKING:
    from gammon.engine.cube import CubeState
    from gammon.server.edge import Edge

__all__ = [
    "BATCH",
    "STATUS",
    "TRIALS",
    "BoardRollouts",
    "BoardRoutes",
    "after_play",
    "read_setup",
    "read_text",
    "setup_fields",
]

#: Trials a rollout batch plays (one engine call): 36, so that each batch throws every
#: first roll once (the rollouts' stratified dice).
BATCH: Final = 36
#: The rollout lengths the board offers: whole batches, up to every pair of first rolls.
TRIALS: Final = (36, 72, 144, 324, 648, 1296)
#: Plays rolled out when the dice are set: the best few at 0-ply, on the same dice.
ROLLED_PLAYS: Final = 3
#: Rollouts running at once on one server, and finished ones kept for their readers.
MAX_RUNNING: Final = 2
KEEP_FINISHED: Final = 50
#: The HTTP status of the board's own error codes (the app's table takes them in).
STATUS: Final = {"bad_setup": 400, "no_such_rollout": 404}
#: Requests to the engine an account may make: a burst, then one every 2 s.
REQUEST_LIMIT: Final = (20.0, 0.5)
_SETUP_FIELDS: Final = frozenset({"mine", "theirs", "dice", "cube", "match"})
_OWNERS: Final = {None: None, "mine": 0, "theirs": 1}
#: The shapes of the setup's cube and match, as a program writes them (the same in every
#: language).
_CUBE: Final = Message(
    "the cube must be {shape}", shape="{'value': N, 'owner': null, 'mine' or 'theirs'}"
)
_MATCH: Final = Message(
    "the match must be {shape}", shape="{'length': N, 'score': [A, B], 'crawford': bool}"
)


def _refuse(message: Message, where: str) -> Refused:
    return Refused("bad_setup", message, field=where)


def _ints(value: object, count: int, where: str) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != count
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise _refuse(
            Message("{where} must be a list of {count} whole numbers", where=where, count=count),
            where,
        )
    return tuple(value)


def read_setup(data: object) -> Xgid:
    """A setup (docs/PROTOCOL.md 9.1, SETUP) as the rules library's value, or
    :class:`Refused` naming the field at fault."""
    if not isinstance(data, Mapping):
        raise _refuse(Message("the setup must be a JSON object"), "setup")
    unknown = sorted(set(data) - _SETUP_FIELDS)
    if unknown:
        raise _refuse(
            Message("the setup has no field {field}", field=repr(unknown[0])), f"setup.{unknown[0]}"
        )
    mine = _ints(data.get("mine"), 25, "setup.mine")
    theirs = _ints(data.get("theirs"), 25, "setup.theirs")
    dice = data.get("dice")
    rolled = (0, 0) if dice is None else _ints(dice, 2, "setup.dice")
    cube = data.get("cube", {"value": 1, "owner": None})
    if not isinstance(cube, Mapping) or set(cube) - {"value", "owner"}:
        raise _refuse(_CUBE, "setup.cube")
    value, owner = cube.get("value", 1), cube.get("owner")
    if not isinstance(value, int) or isinstance(value, bool) or owner not in _OWNERS:
        raise _refuse(_CUBE, "setup.cube")
    match = data.get("match", {"length": 0, "score": [0, 0], "crawford": False})
    if not isinstance(match, Mapping) or set(match) - {"length", "score", "crawford"}:
        raise _refuse(_MATCH, "setup.match")
    length, crawford = match.get("length", 0), match.get("crawford", False)
    if not isinstance(length, int) or isinstance(length, bool) or not isinstance(crawford, bool):
        raise _refuse(_MATCH, "setup.match")
    score = _ints(match.get("score", [0, 0]), 2, "setup.match.score")
    try:
        setup = Xgid(
            board=(mine, theirs),
            cube_value=value,
            cube_owner=_OWNERS[owner],
            dice=(rolled[0], rolled[1]),
            score=(score[0], score[1]),
            match_length=length,
            crawford=crawford,
        )
    except GammonError as exc:
        raise _refuse(_plain(exc), "setup") from None
    return _checked(setup, "setup")


def _checked(setup: Xgid, where: str) -> Xgid:
    """``setup`` if a game can be in it: not over, and its cube as the engine takes it
    (a centred cube shows 1)."""
    if setup.cube_owner is None and setup.cube_value != 1:
        raise _refuse(
            Message(
                "a centred cube shows 1, not {value}: whoever took the last double owns the cube",
                value=setup.cube_value,
            ),
            where,
        )
    try:
        _position(setup)
        cube_state(setup)
    except Refused:
        raise
    except GammonError as exc:
        raise _refuse(_plain(exc), where) from None
    return setup


def _plain(exc: GammonError) -> Message:
    """An XGID's error as the board's, for a setup the player never typed as an XGID (set
    up by hand, or pasted as a Position ID): what is wrong, without the word XGID.

    The error's own message without it (:attr:`gammon.errors.XgidError.reason`), not its
    text with a prefix cut off: each language writes the prefix its own way, so only the
    message can say it without one, in every language.
    """
    return exc.reason if isinstance(exc, XgidError) else exc.text


def read_text(text: str) -> Xgid:
    """A pasted XGID, Position ID (``Position ID:`` allowed) or Position ID:Match ID."""
    from gammon.written import read_given

    text = text.strip()
    if not text:
        raise _refuse(Message("paste an XGID, a Position ID or a Position ID:Match ID"), "text")
    try:
        if text[:5].upper() == "XGID=" or text.count(":") >= 9:
            return _checked(parse_xgid(text), "text")
        from gammon.variants import find_variant

        given = read_given(text, find_variant("standard"))
    except GammonError as exc:
        raise _refuse(exc.text, "text") from None
    position, fields = given.position, given.match
    if fields is None:
        return _checked(Xgid(board=(position.mine, position.theirs)), "text")
    me = fields.player_on_roll
    owner = None if fields.cube_owner is None else 0 if fields.cube_owner == me else 1
    try:
        return _checked(
            Xgid(
                board=(position.mine, position.theirs),
                cube_value=fields.cube_value,
                cube_owner=owner,
                dice=fields.dice,
                score=(fields.score[me], fields.score[1 - me]),
                match_length=fields.match_length,
                crawford=fields.crawford and fields.match_length > 0,
            ),
            "text",
        )
    except GammonError as exc:
        raise _refuse(_plain(exc), "text") from None


def _position(setup: Xgid) -> Position:
    position = Position(*setup.board)
    if position.winner() is not None:
        raise _refuse(Message("one side has borne off every checker: the game is over"), "setup")
    return position


def setup_fields(setup: Xgid) -> dict[str, Any]:
    """What the board shows and shares of a setup: the setup itself, its XGID (the
    shared link's), its Position ID, the pip counts and the checkers off."""
    position = _position(setup)
    owner = {None: None, 0: "mine", 1: "theirs"}[setup.cube_owner]
    return {
        "setup": {
            "mine": list(setup.board[0]),
            "theirs": list(setup.board[1]),
            "dice": None if setup.dice == (0, 0) else list(setup.dice),
            "cube": {"value": setup.cube_value, "owner": owner},
            "match": {
                "length": setup.match_length,
                "score": list(setup.score),
                "crawford": setup.crawford,
            },
        },
        "xgid": format_xgid(setup),
        "position_id": position.id,
        "pips": list(position.pips()),
        "off": list(position.off),
    }


def after_play(setup: Xgid, position: Position) -> Xgid:
    """The setup after a play reached ``position`` (the mover's side first): the
    opponent on roll, no dice, the cube's owner and the score seen from them."""
    turned = position.swapped()
    owner = None if setup.cube_owner is None else 1 - setup.cube_owner
    return replace(
        setup,
        board=(turned.mine, turned.theirs),
        player_on_roll=1 - setup.player_on_roll,
        dice=(0, 0),
        cube_owner=owner,
        score=(setup.score[1], setup.score[0]),
    )


def cube_state(setup: Xgid) -> CubeState:
    """The cube and score of the player on roll, as the engine takes them."""
    from gammon.engine.cube import CubeOwner, CubeState
    from gammon.engine.met import MatchScore

    owner = {None: CubeOwner.CENTRED, 0: CubeOwner.ME, 1: CubeOwner.OPPONENT}[setup.cube_owner]
    score = None
    if setup.match_length:
        away = (setup.match_length - setup.score[0], setup.match_length - setup.score[1])
        score = MatchScore(
            *away, crawford=setup.crawford, post_crawford=not setup.crawford and 1 in away
        )
    return CubeState(setup.cube_value, owner, score)


def analyse(setup: Xgid, ply: int, engine: str, lang: str = "en") -> dict[str, Any]:
    """The ranked plays of the dice set, or without dice the cube action (the engine's
    thread runs this): each play with the setup it leads to, for playing on; the cube's
    words in ``lang``."""
    from gammon.engine.cube import double_refusal
    from gammon.engine.engines import get_engine
    from gammon.engine.hint import play_hints
    from gammon.server.practice import cube_fields, play_fields

    position, state = _position(setup), cube_state(setup)
    unit = "mwc" if setup.match_length else "equity"
    answer: dict[str, Any] = {"ply": ply, "engine": engine, "unit": unit, "plays": None}
    answer["cube"] = answer["cube_refusal"] = None
    if setup.dice != (0, 0):
        hints = play_hints(position, setup.dice, ply=ply, state=state, evaluator=get_engine(engine))
        answer["plays"] = [
            {**play_fields(hint), "after": format_xgid(after_play(setup, hint.play.position))}
            for hint in hints
        ]
        return answer
    refusal = double_refusal(state)
    if refusal is not None:
        answer["cube_refusal"] = refusal
    else:
        answer["cube"] = cube_fields(position, state, ply, engine, lang)
    return answer


@dataclass
class _Rollout:
    """One rollout on the board: who asked, what, and how far it has come."""

    id: int
    owner: int
    setup: Xgid
    trials: int
    #: The rolled-out boards (first side on roll), and the play that led to each (None:
    #: the position itself, before its roll).
    boards: list[bytes]
    plays: list[str | None]
    seed: int
    done: int = 0
    state: str = "running"
    error: str | None = None
    values: list[list[np.ndarray]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    def fields(self) -> dict[str, Any]:
        results = []
        if self.state == "done":
            results = [self._result(i) for i in range(len(self.boards))]
            results.sort(key=lambda r: -r["equity"])
        return {
            "id": self.id,
            "state": self.state,
            "done": self.done,
            "trials": self.trials * len(self.boards),
            "error": self.error,
            "xgid": format_xgid(self.setup),
            "results": results,
        }

    def _result(self, index: int) -> dict[str, Any]:
        from gammon.engine.network import invert
        from gammon.engine.rollout import summarise

        values = np.concatenate(self.values[index])
        if self.plays[index] is not None:  # rolled out for the opponent: the mover's view
            values = invert(values.astype(np.float32)).astype(np.float64)
        result = summarise(values)
        e = result.evaluation
        return {
            "play": self.plays[index],
            "equity": round(e.equity, 4),
            "interval": round(1.96 * result.equity_error, 4),
            "win": round(e.win, 4),
            "win_gammon": round(e.win_gammon, 4),
            "win_backgammon": round(e.win_backgammon, 4),
            "lose_gammon": round(e.lose_gammon, 4),
            "lose_backgammon": round(e.lose_backgammon, 4),
            "trials": result.trials,
        }


Runner = Callable[..., Awaitable[Any]]


class BoardRollouts:
    """The board's rollouts: one at a time an account, :data:`MAX_RUNNING` a server.

    Cubeless, variance-reduced, with stratified first rolls and no truncation
    (gammon.engine.rollout); with dice set, the best :data:`ROLLED_PLAYS` plays at
    0-ply on the same dice, so their differences are sharper than their values. A
    rollout's seed is the setup's own (a CRC of its XGID): the same position rolled out
    again gives the same figures, on any server.
    """

    def __init__(self, run: Runner, engine: str) -> None:
        self.run = run
        self.engine = engine
        self.jobs: OrderedDict[int, _Rollout] = OrderedDict()
        self._ids = itertools.count(1)

    def running(self) -> list[_Rollout]:
        return [job for job in self.jobs.values() if job.state == "running"]

    async def start(self, owner: int, setup: Xgid, trials: int) -> _Rollout:
        if trials not in TRIALS:
            raise Refused(
                "bad_request",
                Message(
                    "a rollout is one of {counts} trials, not {trials}",
                    counts=", ".join(map(str, TRIALS)),
                    trials=trials,
                ),
                field="trials",
            )
        for job in self.running():
            if job.owner == owner:  # a new rollout replaces the account's running one
                self.cancel(job)
        if len(self.running()) >= MAX_RUNNING:
            raise Refused(
                "busy", Message("the server is rolling out other positions: try again soon")
            )
        position = _position(setup)
        boards: list[bytes]
        plays: list[str | None]
        if setup.dice == (0, 0):
            boards, plays = [position.raw], [None]
        else:
            ranked = await self.run(_best_plays, position, setup.dice, self.engine)
            boards = [raw for raw, _ in ranked]
            plays = [text for _, text in ranked]
        seed = zlib.crc32(format_xgid(setup).encode())
        job = _Rollout(next(self._ids), owner, setup, trials, boards, plays, seed)
        job.values = [[] for _ in boards]
        self.jobs[job.id] = job
        self._forget_old()
        job.task = asyncio.get_running_loop().create_task(self._roll(job))
        return job

    def cancel(self, job: _Rollout) -> None:
        if job.task is not None and not job.task.done():
            job.task.cancel()
        job.state = "cancelled"

    def get(self, job_id: int) -> _Rollout:
        job = self.jobs.get(job_id)
        if job is None:
            raise Refused(
                "no_such_rollout",
                Message("there is no rollout {id} (they are kept a while)", id=job_id),
            )
        return job

    def stop(self) -> None:
        for job in self.running():
            self.cancel(job)

    def _forget_old(self) -> None:
        finished = [key for key, job in self.jobs.items() if job.state != "running"]
        for key in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.jobs[key]

    async def _roll(self, job: _Rollout) -> None:
        from gammon.engine.rollout import RolloutSettings, rollout_batch

        settings = RolloutSettings(variance_reduction=True, stratify=True)
        try:
            for number in range(job.trials // BATCH):
                for index, raw in enumerate(job.boards):
                    values = await self.run(
                        _batch, rollout_batch, raw, number, job.seed, self.engine, settings
                    )
                    job.values[index].append(values)
                    job.done += BATCH
            job.state = "done"
        except asyncio.CancelledError:
            job.state = "cancelled"
            raise
        except Exception as exc:  # the engine failed: say so, keep the server
            job.state, job.error = "failed", f"the rollout failed: {exc}"


def _best_plays(position: Position, dice: tuple[int, int], engine: str) -> list[tuple[bytes, str]]:
    """The best plays at 0-ply, as boards with the opponent on roll (to roll out)."""
    from gammon.engine.engines import get_engine
    from gammon.engine.hint import play_hints

    hints = play_hints(position, dice, ply=0, evaluator=get_engine(engine))
    return [(hint.play.position.swapped().raw, str(hint.play)) for hint in hints[:ROLLED_PLAYS]]


def _batch(
    rollout_batch: Callable[..., np.ndarray],
    raw: bytes,
    number: int,
    seed: int,
    engine: str,
    settings: Any,
) -> np.ndarray:
    from gammon.engine.engines import get_engine

    search = get_engine(engine)
    return rollout_batch(
        raw, number * BATCH, BATCH, seed, number, None if search.is_ours else search, settings
    )


class BoardRoutes:
    """The board's endpoints (``run``: the engine's thread, None when the engine is off),
    with its rollouts (``rollouts``) for the app to stop at shutdown."""

    def __init__(
        self,
        edge: Edge,
        *,
        run: Runner | None,
        engine: str,
        time: TimeSource | None = None,
    ) -> None:
        self.edge = edge
        self.run = run
        self.engine = engine
        self.requests = TokenBuckets(*REQUEST_LIMIT, name="board_user", time=time or SystemTime())
        self.rollouts = BoardRollouts(run, engine) if run is not None else None

    def routes(self) -> list[Route]:
        handler = self.edge.handler
        return [
            Route("/api/board", handler(self.board), methods=["POST"]),
            Route("/api/board/analyse", handler(self.analyse_board), methods=["POST"]),
            Route("/api/board/rollouts", handler(self.start_rollout), methods=["POST"]),
            Route("/api/board/rollouts/{rollout_id}", handler(self.one_rollout), methods=["GET"]),
        ]

    async def _asker(self, request: Request) -> int:
        """The id of the account asking the engine, once it has a token left."""
        user = await self.edge.current_user(request)
        if user is None:
            raise Refused(
                "not_signed_in", Message("sign in (or play as a guest) to ask the engine")
            )
        wait = self.requests.take(str(user.id))
        if wait:
            seconds = 3600 if math.isinf(wait) else math.ceil(wait)
            raise Refused(
                "rate_limited",
                Message(
                    "too many questions to the engine: try again in {seconds} s", seconds=seconds
                ),
            )
        return user.id

    def _engine_on(self) -> BoardRollouts:
        if self.rollouts is None or self.run is None:
            raise Refused("not_available", Message("the engine is switched off on this server"))
        return self.rollouts

    async def board(self, request: Request) -> Response:
        data = await self.edge.body(request)
        _only(data, {"text", "setup"})
        return JSONResponse(setup_fields(_setup_of(data)))

    async def analyse_board(self, request: Request) -> Response:
        data = await self.edge.body(request)
        _only(data, {"setup", "ply"})
        self._engine_on()
        setup = read_setup(data.get("setup"))
        ply = data.get("ply", 0)
        if ply not in (0, 1, 2) or isinstance(ply, bool):
            raise Refused("bad_request", Message("ply must be 0, 1 or 2"), field="ply")
        await self._asker(request)
        run = self.run
        assert run is not None
        analysis = await run(analyse, setup, ply, self.engine, spoken(request))
        return JSONResponse({"analysis": analysis})

    async def start_rollout(self, request: Request) -> Response:
        data = await self.edge.body(request)
        _only(data, {"setup", "trials"})
        jobs = self._engine_on()
        setup = read_setup(data.get("setup"))
        trials = data.get("trials", 324)
        if not isinstance(trials, int) or isinstance(trials, bool):
            raise Refused("bad_request", Message("trials must be a whole number"), field="trials")
        owner = await self._asker(request)
        job = await jobs.start(owner, setup, trials)
        return JSONResponse({"rollout": job.fields()}, status_code=202)

    async def one_rollout(self, request: Request) -> Response:
        jobs = self._engine_on()
        text = request.path_params["rollout_id"]
        number = int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else 0
        return JSONResponse({"rollout": jobs.get(number).fields()})


def _setup_of(data: Mapping[str, Any]) -> Xgid:
    """The board's setup from a body: its ``text`` (as people write one) or its ``setup``."""
    if "text" in data:
        if not isinstance(data["text"], str):
            raise _refuse(Message("text must be a string"), "text")
        return read_text(data["text"])
    return read_setup(data.get("setup"))


def _only(data: Mapping[str, Any], allowed: set[str]) -> None:
    fields(data, dict.fromkeys(allowed, ANY))  # each field read, with its own words, below
