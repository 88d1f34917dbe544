"""``gammon connect URL``: play on a gammon server from the terminal.

Written from ``docs/PROTOCOL.md`` and ``DICE.md`` alone, as an outside developer
would: nothing here imports the server. The rules library only draws the board
(:func:`gammon.diagram.draw`) from the Position ID and Match ID the server sends;
every rule is the server's to check (R4-R13), so a refused command prints the
server's reason and the session goes on.

- ``gammon connect URL``: list the open tables;
- ``gammon connect URL --bot LEVEL [--match N | --money] ...``: play the computer;
- ``gammon connect URL --create [--invite NAME] ...``: open a table and wait;
- ``gammon connect URL --table ID``: join (or rejoin, or watch) a table.

Sign in with ``--name N --password P`` (``--signup`` creates the account first),
or play as a guest (the default). Commands are read from standard input, one a
line, so a script can be piped in: ``roll``, ``double``, ``take``, ``drop``,
``beaver``, a play (``24/18 13/9``), ``N`` (the N-th legal play), ``moves``,
``resign [single|gammon|backgammon]``, ``accept``, ``reject``, ``say TEXT``,
``hint``, ``board``, ``help``, ``quit``. A game command waits for the player's
turn before it is sent. When the table ends, every game's dice are checked
against the revealed seed with the formula of DICE.md (R13).

>>> derive_dice(bytes(range(32)), 1, [bytes.fromhex("00112233445566778899aabbccddeeff"),
...                                  bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")])
(1, 4)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import hashlib
import hmac
import http.cookiejar
import json
import os
import re
import secrets
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TextIO

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from gammon.diagram import draw
from gammon.errors import GammonError, InvalidIdError
from gammon.ids import decode_match_id
from gammon.position import Position

__all__ = [
    "ConnectError",
    "DiceRecordError",
    "check_record",
    "derive_dice",
    "main",
    "register",
    "run_connect",
]

_LABEL = b"gammon-fair-dice/1\x00"
_FAIR_FORMAT = "gammon-fair-dice/1"
#: Game actions: sent with fresh entropy and the state's ``seq`` (PROTOCOL.md 4).
_ACTIONS = frozenset({
    "join", "roll", "double", "take", "drop", "beaver", "play", "choose_double", "resign",
    "accept_resignation", "reject_resignation", "forfeit",
})  # fmt: skip
#: Actions the opponent's turn also allows: they do not make it "our turn".
_ALWAYS = frozenset({"forfeit", "resign", "hint"})
_RESIGN_VALUES = {"single": 1, "s": 1, "1": 1, "gammon": 2, "g": 2, "2": 2,
                  "backgammon": 3, "b": 3, "3": 3}  # fmt: skip
_KINDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
#: Close codes after which reconnecting cannot help (PROTOCOL.md 2).
_FINAL_CLOSES = {4401: "signed out", 4403: "kicked or banned", 4404: "no such table"}
_SHOWN_PLAYS = 12
_RECONNECT_GIVE_UP_S = 120.0
_HELP = """\
commands (one a line):
  roll | double | take | drop | beaver      the cube and the dice (R3, R10, R11)
  24/18 13/9                                 play the dice, in notation (R4-R8)
  N                                          play the N-th legal play listed
  moves                                      list every legal play of your roll
  resign [single|gammon|backgammon]          offer to resign (R9); accept | reject answer one
  choose N                                   acey-deucey: the double after a 1-2 (R14)
  hint                                       the bot's ranking of your plays (bot tables, R15)
  say TEXT                                   table chat
  board | help | quit                        show the board again, this help, leave the table
  forfeit                                    give up the match (you lose it, R13)"""


class ConnectError(GammonError):
    """The server refused us, or cannot be reached, or a game's dice did not verify."""


class DiceRecordError(ConnectError, ValueError):
    """A fair-dice record that does not prove its rolls (DICE.md)."""


# -- the dice check (DICE.md, reimplemented from the document) -----------------


def derive_dice(seed: bytes, index: int, entropy: Sequence[bytes]) -> tuple[int, int]:
    """The dice of roll ``index`` (from 1) from the seed and that roll's contributions.

    DICE.md's vectors: no entropy gives 3-6; roll 69 skips a byte of 252.

    >>> seed = bytes(range(32))
    >>> a = bytes.fromhex("00112233445566778899aabbccddeeff")
    >>> b = bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")
    >>> derive_dice(seed, 1, []), derive_dice(seed, 69, [b, a]), derive_dice(seed, 83, [])
    ((3, 6), (1, 1), (2, 4))
    """
    hashes = sorted(hashlib.sha256(e).digest() for e in entropy)
    message = _LABEL + index.to_bytes(4, "big") + len(hashes).to_bytes(4, "big") + b"".join(hashes)
    dice: list[int] = []
    block = 0
    while len(dice) < 2:
        stream = hmac.new(seed, message + block.to_bytes(4, "big"), hashlib.sha256).digest()
        dice += [b % 6 + 1 for b in stream if b < 252][: 2 - len(dice)]
        block += 1
    return dice[0], dice[1]


def _hex(value: object, what: str, size: int | None = None) -> bytes:
    if not isinstance(value, str):
        raise DiceRecordError(f"{what} is not a hex string")
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise DiceRecordError(f"{what} is not hex: {value!r}") from None
    if size is not None and len(raw) != size:
        raise DiceRecordError(f"{what} is {len(raw)} bytes, not {size}")
    return raw


def check_record(
    record: Any,
    *,
    commitment: str | None = None,
    sent: Sequence[str] = (),
    only_ours: bool = False,
) -> int:
    """Check one game's record (DICE.md); returns how many rolls it proves.

    ``commitment`` is the one the state showed before the game's rolls; ``sent``
    the entropy (hex) we sent with accepted actions in that game, in order: each
    must be in the record, in order, except those after the game's last roll.
    ``only_ours``: a game against the bot holds no contribution but ours.

    >>> seed = bytes(range(32))
    >>> a = "00112233445566778899aabbccddeeff"
    >>> record = {"format": "gammon-fair-dice/1", "seed": seed.hex(),
    ...           "commitment": hashlib.sha256(seed).hexdigest(),
    ...           "rolls": [{"index": 1, "entropy": [a], "dice": [2, 6]}]}
    >>> check_record(record, sent=[a], only_ours=True)
    1
    >>> record["rolls"][0]["dice"] = [6, 2]
    >>> check_record(record)
    Traceback (most recent call last):
    ...
    gammon.connect.DiceRecordError: roll 1 is 6-2 but the seed and its entropy give 2-6
    """
    if not isinstance(record, dict) or record.get("format") != _FAIR_FORMAT:
        raise DiceRecordError(f"the record is not in the {_FAIR_FORMAT} format")
    seed = _hex(record.get("seed"), "the seed", 32)
    published = str(record.get("commitment", "")).lower()
    if hashlib.sha256(seed).hexdigest() != published:
        raise DiceRecordError("the seed's SHA-256 is not the record's commitment")
    if commitment is not None and commitment.lower() != published:
        raise DiceRecordError(
            f"the record's commitment {published} is not the one shown before the game "
            f"({commitment})"
        )
    rolls = record.get("rolls")
    if not isinstance(rolls, list):
        raise DiceRecordError("the record has no list of rolls")
    first_use: dict[str, int] = {}
    for number, roll in enumerate(rolls, 1):
        if not isinstance(roll, dict) or roll.get("index") != number:
            raise DiceRecordError(f"roll {number} is missing (rolls are numbered 1, 2, ...)")
        entropy = roll.get("entropy")
        if not isinstance(entropy, list):
            raise DiceRecordError(f"roll {number} has no list of entropy")
        raw = [_hex(e, f"an entropy contribution of roll {number}") for e in entropy]
        expected = derive_dice(seed, number, raw)
        dice = roll.get("dice")
        if not isinstance(dice, list) or tuple(dice) != expected:
            shown = "-".join(map(str, dice)) if isinstance(dice, list) else repr(dice)
            raise DiceRecordError(
                f"roll {number} is {shown} but the seed and its entropy give "
                f"{expected[0]}-{expected[1]}"
            )
        for e in entropy:
            first_use.setdefault(str(e).lower(), number)
    ours = [e.lower() for e in sent]
    if only_ours:
        strangers = sorted(set(first_use) - set(ours))
        if strangers:
            raise DiceRecordError(
                f"roll {first_use[strangers[0]]} used entropy we did not send ({strangers[0]})"
            )
    last = 0
    missing: str | None = None
    for e in ours:
        used = first_use.get(e)
        if used is None:
            missing = missing or e
        elif missing is not None:
            raise DiceRecordError(f"our entropy {missing} is missing though later entropy was used")
        elif used < last:
            raise DiceRecordError(f"our entropy {e} was used before entropy we sent earlier")
        else:
            last = used
    return len(rolls)


# -- HTTP (PROTOCOL.md 1) --------------------------------------------------------


class _Http:
    """JSON over HTTP with a cookie jar and the double-submit CSRF header (PROTOCOL.md 1.1)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf: str | None = None

    def _cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar if c.value is not None)

    def get(self, path: str) -> Any:
        return self._send(urllib.request.Request(self.base + path, method="GET"))

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        token = self._cookie("gammon_csrf") or self.csrf
        if token is None:
            self.csrf = str(self.get("/api/me")["csrf"])
            token = self._cookie("gammon_csrf") or self.csrf
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body or {}).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": token},
            method="POST",
        )
        return self._send(request)

    def _send(self, request: urllib.request.Request) -> Any:
        request.add_header("Accept", "application/json")
        try:
            with self.opener.open(request, timeout=60) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise ConnectError(_http_error(exc)) from None
        except urllib.error.URLError as exc:
            raise ConnectError(f"cannot reach {self.base}: {exc.reason}") from None
        except (OSError, json.JSONDecodeError) as exc:
            raise ConnectError(f"{self.base} did not answer like a gammon server: {exc}") from None


def _http_error(exc: urllib.error.HTTPError) -> str:
    """The server's message and code (PROTOCOL.md 1: every error has both)."""
    try:
        error = json.loads(exc.read())["error"]
        text = f"{error['message']} ({error['code']})"
    except (OSError, ValueError, KeyError, TypeError):
        text = f"HTTP {exc.code} {exc.reason}"
    retry = exc.headers.get("Retry-After") if exc.headers else None
    return f"{text}; retry in {retry} s" if retry else text


def _base_url(text: str) -> str:
    """``http://host:port`` from what the user typed (a bare ``host:port`` is fine)."""
    url = text.strip().rstrip("/")
    if "://" not in url:
        url = f"http://{url}"
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConnectError(f"not a server address: {text!r} (expected http://HOST:PORT)")
    return f"{parts.scheme}://{parts.netloc}"


# -- showing a state (PROTOCOL.md 3) -----------------------------------------------


def _viewer(state: dict[str, Any]) -> int:
    you = state.get("you")
    return you if isinstance(you, int) else 0


def _board_position(game: dict[str, Any]) -> Position:
    """The board from the viewer's side: the Position ID, turned to the viewer.

    The ID is the side on roll's view (side 0's before the opening roll); the
    ``board`` field (always the viewer's) is the fallback, e.g. for acey-deucey
    checkers waiting to enter (no ID then).
    """
    board = game["board"]
    waiting = (int(board["waiting"][0]), int(board["waiting"][1]))
    checkers = sum(board["mine"]) + board["off"][0] + waiting[0]
    drawn = Position(board["mine"], board["theirs"], waiting=waiting, checkers=checkers)
    if game.get("position_id"):
        try:
            decoded = Position.from_id(game["position_id"], checkers=checkers)
        except (InvalidIdError, ValueError):
            return drawn
        seen_by = game["on_roll"] if game.get("on_roll") is not None else 0
        turned = decoded if seen_by == board["side"] else decoded.swapped()
        if turned == drawn:
            return turned
    return drawn


def _clock_text(ms: int) -> str:
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass
class _View:
    """What the terminal has shown so far, so each state prints only what changed."""

    seq: int = -1
    log_game: int = 0
    log_count: int = 0
    results: set[int] = field(default_factory=set)
    connected: tuple[bool, ...] = ()
    commitments: dict[int, str] = field(default_factory=dict)


class _Table:
    """One table socket: shows states, sends commands, reconnects (PROTOCOL.md 2-4)."""

    def __init__(self, http: _Http, ws_base: str, table: int, out: TextIO) -> None:
        self.http = http
        self.url = f"{ws_base}/ws/tables/{table}"
        self.table = table
        self.out = out
        self.state: dict[str, Any] | None = None
        self.ws: ClientConnection | None = None
        self.changed = asyncio.Condition()
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 0
        self.fatal: ConnectError | None = None
        self.finished = False
        self.view = _View()
        self.sent: dict[int, list[str]] = {}
        self.verified: dict[int, int] = {}
        self.failures: list[str] = []
        self.chat_seen = 0
        self.connects = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    # -- the socket ------------------------------------------------------------

    async def run_socket(self) -> None:
        """Keep one connection open; back off 0.5 s, 1 s, 2 s ... 10 s between tries."""
        delay = 0.5
        lost_since: float | None = None
        while not self.finished and self.fatal is None:
            try:
                async with connect(
                    self.url,
                    additional_headers={"Cookie": self.http.cookie_header()},
                    max_size=1 << 24,
                    open_timeout=20,
                ) as ws:
                    self.ws = ws
                    self.connects += 1
                    async for raw in ws:
                        delay, lost_since = 0.5, None  # the server talks: a real connection
                        await self._receive(raw)
                        if self.finished:
                            return
                code = ws.close_code
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
            except InvalidStatus as exc:
                status = exc.response.status_code
                if status in (401, 403, 404):
                    self._fail(ConnectError(f"the server refused the WebSocket (HTTP {status})"))
                    return
                code = None
            except (TimeoutError, OSError, InvalidHandshake):
                code = None
            finally:
                self.ws = None
                self._drop_pending()
            if code in _FINAL_CLOSES:
                reason = _FINAL_CLOSES[code]
                self._fail(ConnectError(f"the server closed the table: {reason} ({code})"))
                return
            now = time.monotonic()
            lost_since = lost_since or now
            if now - lost_since > _RECONNECT_GIVE_UP_S:
                self._fail(
                    ConnectError(
                        f"lost the connection to table {self.table} and could not reconnect "
                        f"for {_RECONNECT_GIVE_UP_S:.0f} s"
                    )
                )
                return
            self.say(
                f"* connection lost{f' (code {code})' if code else ''}; reconnecting in {delay:g} s"
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    def _fail(self, error: ConnectError) -> None:
        self.fatal = error
        asyncio.get_running_loop().create_task(self._notify())

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    def _drop_pending(self) -> None:
        for future in self.pending.values():
            if not future.done():
                future.set_result({"type": "lost"})
        self.pending.clear()

    async def _receive(self, raw: str | bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind == "state":
            self._show_state(message)
            async with self.changed:
                self.state = message
                if message.get("status") in ("finished", "cancelled"):
                    self.finished = True
                self.changed.notify_all()
        elif kind in ("ack", "error", "hint") and message.get("id") in self.pending:
            future = self.pending.pop(message["id"])
            if not future.done():
                future.set_result(message)
        elif kind == "error":
            self._show_error(message)
        elif kind == "hello":
            you = (message.get("user") or {}).get("name", "nobody (watching)")
            again = "reconnected" if self.connects > 1 else "connected"
            self.say(f"* {again} to table {self.table} as {you}")
        elif kind == "chat_history":
            for chat in message.get("messages") or []:
                self._show_chat(chat)
        elif kind == "chat":
            self._show_chat(message.get("message") or {})

    def _show_chat(self, chat: dict[str, Any]) -> None:
        ident = chat.get("id")
        if isinstance(ident, int):
            if ident <= self.chat_seen:
                return
            self.chat_seen = ident
        self.say(f"[chat] {chat.get('user')}: {chat.get('text')}")

    def _show_error(self, message: dict[str, Any], what: str = "") -> None:
        about = f" {what!r}" if what else ""
        self.say(f"! refused{about}: {message.get('message')} [{message.get('code')}]")

    # -- what the user sees ------------------------------------------------------

    def _names(self, state: dict[str, Any]) -> tuple[str, str]:
        players = state.get("players") or [None, None]
        names = [str(p["name"]) if isinstance(p, dict) else "(empty seat)" for p in players]
        me = _viewer(state)
        return names[me], names[1 - me]

    def _show_state(self, state: dict[str, Any]) -> None:
        view = self.view
        game = state.get("game")
        players = tuple(
            bool(isinstance(p, dict) and p.get("connected")) for p in state.get("players") or []
        )
        if state.get("seq") == view.seq:
            if players != view.connected and len(players) == len(view.connected):
                for p, was, now in zip(state["players"], view.connected, players, strict=True):
                    if was != now and isinstance(p, dict):
                        self.say(f"* {p['name']} {'connected' if now else 'disconnected'}")
            view.connected = players
            return
        view.seq, view.connected = state.get("seq", -1), players
        if game is not None:
            if game["number"] not in view.commitments and game.get("commitment"):
                view.commitments[game["number"]] = game["commitment"]
            if game["number"] != view.log_game:
                view.log_game, view.log_count = game["number"], 0
            log = game.get("log") or []
            for event in log[view.log_count :]:
                self.say(f"  {event.get('text') or event.get('type')}")
            view.log_count = len(log)
        self._show_results(state)
        self.say(self._render(state))
        if state.get("status") in ("finished", "cancelled"):
            self.say(self._table_result(state))

    def _show_results(self, state: dict[str, Any]) -> None:
        finished = [(g["number"], g.get("result")) for g in state.get("previous_games") or []]
        game = state.get("game")
        if game and game.get("result"):
            finished.append((game["number"], game["result"]))
        for number, result in finished:
            if number in self.view.results or not result:
                continue
            self.view.results.add(number)
            self.say(f"Game {number} over: {self._result_text(state, result)}")

    def _result_text(self, state: dict[str, Any], result: dict[str, Any]) -> str:
        winner = result.get("winner")
        names = [p["name"] if isinstance(p, dict) else "?" for p in state.get("players") or []]
        who = names[winner] if isinstance(winner, int) and winner < len(names) else "nobody"
        if winner == state.get("you"):
            who = f"you ({who})"
        points = result.get("points")
        return (
            f"{who} win{'' if who.startswith('you') else 's'} "
            f"{points} point{'' if points == 1 else 's'} ({result.get('kind')}, "
            f"{result.get('reason')})"
        )

    def _table_result(self, state: dict[str, Any]) -> str:
        if state.get("status") == "cancelled":
            return f"Table {self.table} was cancelled."
        result = state.get("result") or {}
        winner = result.get("winner")
        names = [p["name"] if isinstance(p, dict) else "?" for p in state.get("players") or []]
        score = result.get("score") or (state.get("series") or {}).get("score") or [0, 0]
        reason = result.get("reason")
        what = {
            "match": "the match",
            "session": "the session",
            "time": "on time",
            "forfeit": "by forfeit",
        }.get(str(reason), str(reason))
        if winner is None:
            return f"Result: the session ends level, {score[0]}-{score[1]}."
        who = "You win" if winner == state.get("you") else f"{names[winner]} wins"
        return f"Result: {who} {what}: {names[0]} {score[0]}, {names[1]} {score[1]}."

    def _render(self, state: dict[str, Any]) -> str:
        game = state.get("game")
        settings = state.get("settings") or {}
        series = state.get("series") or {}
        me = _viewer(state)
        mine, theirs = self._names(state)
        if series.get("mode") == "money":
            net = series.get("net") or 0
            mine_net = net if me == 0 else -net
            kind = f"money session, {'you' if state.get('you') is not None else mine} {mine_net:+d}"
        else:
            kind = f"{settings.get('length', '?')}-point match"
        head = (
            f"== Table {self.table} ({settings.get('variant', 'standard')}, {kind})"
            f"{', game ' + str(game['number']) if game else ''}, seq {state.get('seq')} =="
        )
        if game is None:
            status = state.get("status")
            if status == "open":
                return f"{head}\nWaiting for an opponent to join table {self.table}."
            return head
        lines = [head, self._board(state, game)]
        clock = state.get("clock")
        if clock:
            remaining = clock["remaining_ms"]
            running = clock.get("running")
            parts = [
                f"{name} {_clock_text(remaining[side])}{' (running)' if running == side else ''}"
                for name, side in ((mine, me), (theirs, 1 - me))
            ]
            lines.append("Clock: " + ", ".join(parts))
        lines.append(self._status(state, game))
        return "\n".join(lines)

    def _board(self, state: dict[str, Any], game: dict[str, Any]) -> str:
        me = _viewer(state)
        position = _board_position(game)
        settings = state.get("settings") or {}
        has_cube = bool(settings.get("cube", True)) and settings.get("variant") != "tavla"
        names = self._names(state)
        fields = None
        if game.get("phase") != "opening":  # the Match ID names a player on roll; nobody is yet
            with contextlib.suppress(InvalidIdError, KeyError, TypeError):
                fields = decode_match_id(game["match_id"])
        if fields is None:
            cube = game.get("cube") or {}
            owner = cube.get("owner")
            series = state.get("series") or {}
            score = series.get("score") or [0, 0]
            return draw(
                position,
                dice=game.get("dice"),
                cube=cube.get("value", 1) if has_cube else None,
                cube_owner=None if owner is None else int(owner != me),
                score=(score[me], score[1 - me]),
                match_length=series.get("length") or 0,
                names=names,
                on_roll=0 if game.get("on_roll") in (None, me) else 1,
            )
        return draw(
            position,
            match=fields,
            cube=1 if has_cube else None,
            names=names,
            on_roll=0 if fields.player_on_roll == me else 1,
        )

    def _status(self, state: dict[str, Any], game: dict[str, Any]) -> str:
        actions = [a for a in game.get("actions") or [] if a != "forfeit"]
        theirs = self._names(state)[1]
        phase = game.get("phase")
        if phase == "over":
            return "Game over."
        if state.get("you") is None:
            return f"Watching ({phase})."
        if not actions or set(actions) <= _ALWAYS - {"hint"}:
            waiting = {
                "opening": "throw the opening roll",
                "roll": "roll or double",
                "double offered": "answer the double",
                "beaver offered": "answer the beaver",
                "move": "play",
                "resignation offered": "answer the resignation",
                "choose double": "choose a double",
            }.get(str(phase), str(phase))
            return f"Waiting for {theirs} to {waiting}."
        if "play" in actions:
            dice = game.get("dice") or ["?", "?"]
            plays = game.get("legal_plays") or []
            lines = [
                f"Your move: play {dice[0]}-{dice[1]} ({len(plays)} legal "
                f"play{'' if len(plays) == 1 else 's'}; type a number or the play):"
            ]
            lines += [f"  {n:2}  {p['play']}" for n, p in enumerate(plays[:_SHOWN_PLAYS], 1)]
            if len(plays) > _SHOWN_PLAYS:
                lines.append(f"  ... {len(plays) - _SHOWN_PLAYS} more: type 'moves'")
            return "\n".join(lines)
        if phase == "double offered":
            value = (game.get("cube") or {}).get("value", 1)
            return f"{theirs} doubles to {2 * value}: {' or '.join(actions)}?"
        if phase == "beaver offered":
            return f"{theirs} beavers: {' or '.join(actions)}?"
        if phase == "resignation offered":
            offer = game.get("resignation") or {}
            return (
                f"{theirs} offers to resign {_KINDS.get(offer.get('value', 1), '?')}: "
                "accept or reject?"
            )
        names = {
            "accept_resignation": "accept",
            "reject_resignation": "reject",
            "choose_double": "choose N",
        }
        return "Your turn: " + ", ".join(names.get(a, a) for a in actions) + "."

    # -- commands ----------------------------------------------------------------

    def my_turn(self) -> bool:
        """Whether a game command makes sense now, so a script waits for it, not fails."""
        state = self.state
        if state is None or state.get("you") is None:
            return state is not None and state.get("status") != "open"
        game = state.get("game")
        actions = set(game.get("actions") or []) if game else set()
        return bool(actions - _ALWAYS)

    async def wait_for(self, predicate: Callable[[], bool]) -> None:
        async with self.changed:
            await self.changed.wait_for(
                lambda: predicate() or self.finished or self.fatal is not None
            )

    async def request(self, message: dict[str, Any], timeout: float = 120) -> dict[str, Any]:
        """Send one message; the ``ack``, ``error`` or ``hint`` answering it.

        A ``rate_limited`` refusal is sent again after a pause (the server asks to slow down,
        and a script that keeps going would only be refused again, PROTOCOL.md 2).
        """
        pause = 0.5
        for _ in range(8):
            reply = await self._request_once(message, timeout)
            if reply.get("code") != "rate_limited":
                return reply
            await asyncio.sleep(pause)
            pause = min(2 * pause, 4.0)
        return reply

    async def _request_once(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """One try; actions carry the state's ``seq`` and 32 fresh random bytes (4, DICE.md)."""
        await self.wait_for(lambda: self.ws is not None)
        if self.ws is None:
            return {"type": "lost"}
        self.next_id += 1
        ident = self.next_id
        message = {**message, "id": ident}
        game = (self.state or {}).get("game")
        entropy: str | None = None
        if message["type"] in _ACTIONS and self.state is not None:
            message.setdefault("seq", self.state.get("seq"))
            entropy = secrets.token_hex(32)
            message["entropy"] = entropy
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        try:
            await self.ws.send(json.dumps(message))
            reply = await asyncio.wait_for(future, timeout)
        except ConnectionClosed:
            reply = {"type": "lost"}
        except TimeoutError:
            self.pending.pop(ident, None)
            reply = {
                "type": "error",
                "code": "timeout",
                "message": f"no answer from the server within {timeout:.0f} s",
            }
        if reply["type"] == "ack":
            if entropy is not None and game is not None and game.get("result") is None:
                self.sent.setdefault(game["number"], []).append(entropy)
            seq = reply.get("seq")
            if isinstance(seq, int):
                await self.wait_for(lambda: (self.state or {}).get("seq", -1) >= seq)
        elif reply["type"] == "lost":
            self.say(
                "* the connection dropped before the server answered; "
                "the board after reconnecting shows whether it counted"
            )
        return reply

    async def command(self, line: str) -> bool:
        """Run one line of input; False to leave."""
        words = line.split()
        if not words or words[0].startswith("#"):
            return True
        word = words[0].lower()
        rest = line.strip()[len(words[0]) :].strip()
        if word in ("quit", "exit", "q"):
            self.say(
                f"* leaving table {self.table}; it goes on at the server "
                f"(come back with --table {self.table})"
            )
            return False
        if word in ("help", "?"):
            self.say(_HELP)
            return True
        if word == "board":
            if self.state is not None:
                self.say(self._render(self.state))
            return True
        if word in ("say", "chat"):
            reply = await self.request({"type": "chat", "text": rest})
            if reply["type"] == "error":
                self._show_error(reply, line.strip())
            return True
        await self.wait_for(self.my_turn)
        if self.finished or self.fatal is not None:
            return True
        message = self._message(word, words, line.strip())
        if message is None:
            return True
        reply = await self.request(message)
        if reply["type"] == "error":
            self._show_error(reply, line.strip())
        elif reply["type"] == "hint":
            self._show_hint(reply)
        return True

    def _message(self, word: str, words: list[str], line: str) -> dict[str, Any] | None:
        """The protocol message for a game command, or None after saying why there is none."""
        simple = {
            "roll": "roll",
            "r": "roll",
            "double": "double",
            "d": "double",
            "take": "take",
            "drop": "drop",
            "beaver": "beaver",
            "hint": "hint",
            "accept": "accept_resignation",
            "reject": "reject_resignation",
            "forfeit": "forfeit",
            "join": "join",
        }
        if word in simple and len(words) == 1:
            return {"type": simple[word]}
        if word == "resign":
            value = _RESIGN_VALUES.get(words[1].lower() if len(words) > 1 else "single")
            if value is None or len(words) > 2:
                self.say("! resign what? 'resign', 'resign gammon' or 'resign backgammon'")
                return None
            return {"type": "resign", "value": value}
        if word == "choose" and len(words) == 2 and words[1].isdigit():
            return {"type": "choose_double", "number": int(words[1])}
        plays = self._legal_plays()
        if word == "moves":
            if not plays:
                self.say("! no plays to list: it is not your move")
            for n, play in enumerate(plays, 1):
                self.say(f"  {n:3}  {play['play']}")
            return None
        if line.isdigit():
            if not plays:
                state = self.state or {}
                now = self._status(state, state.get("game") or {})
                self.say(f"! no play {line} to choose: it is not your move ({now})")
                return None
            number = int(line)
            if not 1 <= number <= len(plays):
                self.say(f"! there is no play {number}: choose 1 to {len(plays)}")
                return None
            return {"type": "play", "play": plays[number - 1]["play"]}
        return {"type": "play", "play": line}

    def _legal_plays(self) -> list[dict[str, Any]]:
        game = (self.state or {}).get("game") or {}
        return list(game.get("legal_plays") or [])

    def _show_hint(self, reply: dict[str, Any]) -> None:
        plays = reply.get("plays") or []
        self.say("Hint (best first):")
        for n, play in enumerate(plays[:10], 1):
            self.say(
                f"  {n:2}  {play.get('play', ''):<24} equity {play.get('equity', 0):+.3f}"
                f"  loss {play.get('loss', 0):.3f}  win {100 * play.get('win', 0):.1f}%"
            )

    # -- the dice --------------------------------------------------------------------

    def finished_games(self) -> list[int]:
        state = self.state or {}
        numbers = [g["number"] for g in state.get("previous_games") or []]
        game = state.get("game")
        if game and game.get("result"):
            numbers.append(game["number"])
        return numbers

    async def verify(self, numbers: Sequence[int]) -> None:
        """Fetch and check each game's record (DICE.md); say how many rolls it proves."""
        bot = bool((self.state or {}).get("settings", {}).get("bot"))
        for number in numbers:
            if number in self.verified:
                continue
            path = f"/api/tables/{self.table}/record?game={number}"
            try:
                record = await asyncio.to_thread(self.http.get, path)
                rolls = check_record(
                    record,
                    commitment=self.view.commitments.get(number),
                    sent=self.sent.get(number, []),
                    only_ours=bot and (self.state or {}).get("you") is not None,
                )
            except ConnectError as exc:
                self.failures.append(f"game {number}: {exc}")
                self.verified[number] = 0
                self.say(f"Game {number} dice: NOT VERIFIED: {exc}")
                continue
            self.verified[number] = rolls
            self.say(f"Game {number} dice: seed matches the commitment; all {rolls} rolls verified")


# -- the command ------------------------------------------------------------------


def _sign_in(http: _Http, args: argparse.Namespace, out: TextIO) -> dict[str, Any]:
    me = http.get("/api/me")
    http.csrf = str(me.get("csrf")) if me.get("csrf") else None
    if args.name is not None:
        password = args.password or os.environ.get("GAMMON_PASSWORD")
        if password is None:
            if not sys.stdin.isatty():
                raise ConnectError("--name needs --password (or GAMMON_PASSWORD)")
            password = getpass.getpass(f"password for {args.name}: ")
        path = "/api/signup" if args.signup else "/api/login"
        user = http.post(path, {"name": args.name, "password": password})["user"]
    elif me.get("user") is not None:
        user = me["user"]
    else:
        user = http.post("/api/guest")["user"]
    print(
        f"Signed in as {user['name']}{' (guest)' if user.get('guest') else ''}",
        file=out,
        flush=True,
    )
    return dict(user)


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    if args.money:
        settings["mode"] = "money"
    elif args.match is not None:
        settings.update(mode="match", length=args.match)
    options = {
        "variant": args.variant,
        "max_cube": args.max_cube,
        "auto_doubles": args.auto_doubles,
        "max_games": args.max_games,
        "stakes": args.stakes,
        "invite": args.invite,
        "bot": args.bot,
    }
    settings.update({k: v for k, v in options.items() if v is not None})
    for flag, key, value in (
        ("no_cube", "cube", False),
        ("no_crawford", "crawford", False),
        ("jacoby", "jacoby", True),
        ("beavers", "beavers", True),
    ):
        if getattr(args, flag):
            settings[key] = value
    if args.clock is not None:
        settings["clock"] = args.clock
    return settings


def _clock(text: str) -> dict[str, int]:
    """``BASE[/DELAY[/INCREMENT]]`` in seconds."""
    found = re.fullmatch(r"(\d+)(?:/(\d+)(?:/(\d+))?)?", text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(f"expected BASE[/DELAY[/INCREMENT]] seconds, got {text!r}")
    base, delay, increment = (int(g) if g else 0 for g in found.groups())
    return {"base_s": base, "delay_s": delay, "increment_s": increment}


def _lobby_line(summary: dict[str, Any]) -> str:
    settings = summary.get("settings") or {}
    players = " vs ".join(p or "(free seat)" for p in summary.get("players") or [])
    kind = (
        "money" if settings.get("mode") == "money" else f"{settings.get('length', '?')}-point match"
    )
    extra = []
    if summary.get("bot"):
        extra.append(f"bot {summary['bot']}")
    if summary.get("invite"):
        extra.append(f"invites {summary['invite']}")
    if settings.get("clock"):
        extra.append(f"clock {settings['clock'].get('base_s')} s")
    tail = f" [{', '.join(extra)}]" if extra else ""
    return (
        f"  {summary.get('id'):>5}  {summary.get('status', '?'):<9} "
        f"{settings.get('variant', 'standard')} {kind}: {players}{tail}"
    )


def _read_lines(
    stream: TextIO, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]
) -> None:
    """Feed standard input to the event loop from a daemon thread (pipes and terminals alike)."""

    def pump() -> None:
        try:
            for line in iter(stream.readline, ""):
                loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\r\n"))
        except (OSError, ValueError, RuntimeError):
            pass
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody is listening
            loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=pump, name="gammon-connect-stdin", daemon=True).start()


async def _session(
    http: _Http, ws_base: str, table_id: int, user: str, out: TextIO, stream: TextIO
) -> int:
    table = _Table(http, ws_base, table_id, out)
    socket = asyncio.create_task(table.run_socket())
    try:
        await table.wait_for(lambda: table.state is not None)
        if table.fatal is not None:
            raise table.fatal
        state = table.state or {}
        seated = [p.get("name") for p in state.get("players") or [] if isinstance(p, dict)]
        if state.get("status") == "open" and state.get("you") is None and user not in seated:
            reply = await table.request({"type": "join"})
            if reply["type"] == "error":
                raise ConnectError(
                    f"cannot join table {table_id}: {reply.get('message')} ({reply.get('code')})"
                )
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        _read_lines(stream, asyncio.get_running_loop(), queue)
        checked: set[int] = set()
        while not table.finished and table.fatal is None:
            await table.verify(
                [
                    n
                    for n in table.finished_games()
                    if n not in checked and n in table.view.commitments
                ]
            )
            checked.update(table.finished_games())
            line_task = asyncio.ensure_future(queue.get())
            end_task = asyncio.ensure_future(table.wait_for(lambda: False))
            await asyncio.wait({line_task, end_task}, return_when=asyncio.FIRST_COMPLETED)
            end_task.cancel()
            if not line_task.done():
                line_task.cancel()
                break
            line = line_task.result()
            if line is None:
                table.say(
                    "* end of input; the table goes on at the server "
                    f"(come back with --table {table_id})"
                )
                break
            if not await table.command(line):
                break
        if table.fatal is not None:
            raise table.fatal
        if table.finished:
            await table.verify(table.finished_games())
            total = sum(table.verified.values())
            if table.failures:
                raise ConnectError(f"the dice did not verify: {table.failures[0]}")
            if table.verified:
                table.say(
                    f"Fair dice (DICE.md): all {total} rolls verified "
                    f"in {len(table.verified)} game{'s' if len(table.verified) != 1 else ''}"
                )
        return 0
    finally:
        socket.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await socket


def run_connect(args: argparse.Namespace, out: TextIO) -> int:
    """Sign in, pick or make a table, and play it from standard input."""
    base = _base_url(args.url)
    http = _Http(base)
    ws_base = "ws" + base[len("http") :]
    creating = args.bot is not None or args.create
    if args.table is None and not creating:
        if args.name is not None:
            _sign_in(http, args, out)
        tables = http.get("/api/tables")["tables"]
        print(f"{len(tables)} table{'' if len(tables) == 1 else 's'} at {base}", file=out)
        for summary in tables:
            print(_lobby_line(summary), file=out)
        return 0
    user = str(_sign_in(http, args, out)["name"])
    if creating:
        summary = http.post("/api/tables", _settings(args))["table"]
        table_id = int(summary["id"])
        print(f"Created table {table_id}: {_lobby_line(summary).strip()}", file=out, flush=True)
    else:
        table_id = args.table
    try:
        return asyncio.run(_session(http, ws_base, table_id, user, out, sys.stdin))
    except KeyboardInterrupt:
        print(f"\n* interrupted; table {table_id} goes on at the server", file=out)
        return 130


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of 0 or more, got {text!r}")
    return value


def register(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``connect`` to the ``gammon`` command line."""
    parser = commands.add_parser(
        "connect",
        help="play on a gammon server from the terminal",
        description="Play on a gammon server (docs/PROTOCOL.md) from the terminal: sign in "
        "(or play as a guest), then play the bot, open a table, or join one; commands come "
        "from standard input (type 'help'), so a script can be piped in. Without --table, "
        "--bot or --create: list the open tables.",
    )
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--name", help="your account name")
    who.add_argument("--guest", action="store_true", help="play as a new guest (the default)")
    parser.add_argument("--password", help="your password (or GAMMON_PASSWORD)")
    parser.add_argument("--signup", action="store_true", help="create the account --name first")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--table", type=_positive, metavar="ID", help="join, rejoin or watch a table"
    )
    where.add_argument("--bot", metavar="LEVEL", help="play the computer at LEVEL (e.g. expert)")
    where.add_argument("--create", action="store_true", help="open a table, wait for an opponent")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--match", type=_positive, metavar="N", help="a match to N points (R12)")
    kind.add_argument("--money", action="store_true", help="a money session (R11)")
    parser.add_argument("--variant", help="standard, nackgammon, hypergammon, tavla, acey-deucey")
    parser.add_argument("--no-cube", action="store_true", help="play without the cube (R10)")
    parser.add_argument("--max-cube", type=_positive, metavar="N", help="the highest cube")
    parser.add_argument("--no-crawford", action="store_true", help="no Crawford rule (R12)")
    parser.add_argument("--jacoby", action="store_true", help="money: the Jacoby rule (R11)")
    parser.add_argument("--beavers", action="store_true", help="money: beavers allowed (R11)")
    parser.add_argument(
        "--auto-doubles",
        type=_positive,
        metavar="N",
        help="money: opening ties double the cube up to N times (R3)",
    )
    parser.add_argument(
        "--max-games", type=_positive, metavar="N", help="money: end the session after N games"
    )
    parser.add_argument(
        "--stakes", type=_positive, metavar="N", help="money: each side's bankroll in points"
    )
    parser.add_argument(
        "--clock",
        type=_clock,
        metavar="BASE[/DELAY[/INC]]",
        help="a clock in seconds (R13), e.g. 600/12",
    )
    parser.add_argument("--invite", metavar="NAME", help="only NAME may take the second seat")
    parser.set_defaults(run=run_connect)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ConnectError(f"{message} (see '{self.prog} --help')")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gammon.connect``: the same as ``gammon connect`` (exit 2 on an error)."""
    parser = _Parser(prog="gammon")
    register(parser.add_subparsers(dest="command", parser_class=_Parser))
    try:
        args = parser.parse_args(["connect", *(sys.argv[1:] if argv is None else argv)])
        return int(args.run(args, sys.stdout))
    except GammonError as exc:
        print(f"gammon: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
