"""The WebSocket link to one table (PROTOCOL.md 2-4): states in, actions out, reconnects.

This is the one module of the client that needs the ``websockets`` package (the
``client`` extra).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from gammon.cli.connect.api import ConnectError, Http
from gammon.cli.connect.screen import Screen, our_turn
from gammon.i18n import N_

__all__ = ["TableLink"]

#: Game actions: sent with fresh entropy and the state's ``seq`` (PROTOCOL.md 4).
_ACTIONS: Final = frozenset({
    "join", "roll", "double", "take", "drop", "beaver", "play", "choose_double", "resign",
    "accept_resignation", "reject_resignation", "forfeit",
})  # fmt: skip
#: Close codes after which reconnecting cannot help (PROTOCOL.md 2).
_FINAL_CLOSES: Final = {
    4401: N_("signed out"),
    4403: N_("kicked or banned"),
    4404: N_("no such table"),
}
_RECONNECT_GIVE_UP_S = 120.0


class TableLink:
    """One table socket: keeps the latest state, sends requests, reconnects (PROTOCOL.md 2-4)."""

    def __init__(self, http: Http, ws_base: str, table: int, screen: Screen) -> None:
        self.http = http
        self.url = f"{ws_base}/ws/tables/{table}"
        self.table = table
        self.screen = screen
        self.state: dict[str, Any] | None = None
        self.ws: ClientConnection | None = None
        self.changed = asyncio.Condition()
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 0
        self.fatal: ConnectError | None = None
        self.finished = False
        self.connects = 0
        #: Each game's dice commitment, as first shown; the entropy we sent in each game.
        self.commitments: dict[int, str] = {}
        self.sent: dict[int, list[str]] = {}

    def say(self, text: str = "") -> None:
        self.screen.say(text)

    def gettext(self, message: str, **values: Any) -> str:
        """``message`` in the player's language (the screen's)."""
        return self.screen.tr.gettext(message, **values)

    async def run_socket(self) -> None:
        """Keep one connection open; back off 0.5 s, 1 s, 2 s ... 10 s between tries."""
        delay = 0.5
        lost_since: float | None = None
        while not self.finished and self.fatal is None:
            connection = await self._connect_once()
            if connection is None:
                return
            talked, code = connection
            if talked:  # the server talked: a real connection
                delay, lost_since = 0.5, None
            if self._closed_for_good(code):
                return
            now = time.monotonic()
            lost_since = lost_since or now
            if now - lost_since > _RECONNECT_GIVE_UP_S:
                self._fail(
                    ConnectError(
                        self.gettext(
                            "lost the connection to table {table} and could not reconnect "
                            "for {seconds} s",
                            table=self.table,
                            seconds=round(_RECONNECT_GIVE_UP_S),
                        )
                    )
                )
                return
            self._say_lost(code, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    async def _connect_once(self) -> tuple[bool, int | None] | None:
        """One connection, read to its end: whether the server said anything on it and its
        close code (None: no code, or it never opened); None when the table is done with
        (finished, or the server refused the socket for good)."""
        talked = False
        try:
            async with connect(
                self.url,
                additional_headers=self.http.headers(),
                max_size=1 << 24,
                open_timeout=20,
            ) as ws:
                self.ws = ws
                self.connects += 1
                async for raw in ws:
                    talked = True
                    await self._receive(raw)
                    if self.finished:
                        return None
            code = ws.close_code
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else None
        except InvalidStatus as exc:
            status = exc.response.status_code
            if status in (401, 403, 404):
                self._fail(
                    ConnectError(
                        self.gettext(
                            "the server refused the WebSocket (HTTP {status})", status=status
                        )
                    )
                )
                return None
            code = None
        except (TimeoutError, OSError, InvalidHandshake):
            code = None
        finally:
            self.ws = None
            self._drop_pending()
        return talked, code

    def _closed_for_good(self, code: int | None) -> bool:
        """A close that means not to come back (signed out, removed, no such table): said,
        and the link fails with it."""
        if code not in _FINAL_CLOSES:
            return False
        reason = self.gettext(_FINAL_CLOSES[code])
        self._fail(
            ConnectError(
                self.gettext(
                    "the server closed the table: {reason} ({code})", reason=reason, code=code
                )
            )
        )
        return True

    def _say_lost(self, code: int | None, delay: float) -> None:
        """Tell the player the connection is lost and when the next try comes."""
        seconds = self.screen.tr.number(delay)
        self.say(
            self.gettext(
                "* connection lost (code {code}); reconnecting in {seconds} s",
                code=code,
                seconds=seconds,
            )
            if code
            else self.gettext("* connection lost; reconnecting in {seconds} s", seconds=seconds)
        )

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
            self._note_commitment(message)
            self.screen.show_state(message)
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
            self.screen.show_error(message)
        elif kind == "hello":
            user = message.get("user") or {}
            name = user.get("name") or self.gettext("nobody (watching)")
            self.say(
                self.gettext(
                    "* reconnected to table {table} as {name}", table=self.table, name=name
                )
                if self.connects > 1
                else self.gettext(
                    "* connected to table {table} as {name}", table=self.table, name=name
                )
            )
        elif kind == "chat_history":
            for chat in message.get("messages") or []:
                self.screen.show_chat(chat)
        elif kind == "chat":
            self.screen.show_chat(message.get("message") or {})

    def _note_commitment(self, state: dict[str, Any]) -> None:
        game = state.get("game")
        if game is not None and game.get("commitment"):
            self.commitments.setdefault(game["number"], game["commitment"])

    def my_turn(self) -> bool:
        """Whether a game command makes sense now, so a script waits for it, not fails."""
        state = self.state
        if state is None or state.get("you") is None:
            return state is not None and state.get("status") != "open"
        return our_turn(state)

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
                "message": self.gettext(
                    "no answer from the server within {seconds} s", seconds=round(timeout)
                ),
            }
        if reply["type"] == "ack":
            if entropy is not None and game is not None and game.get("result") is None:
                self.sent.setdefault(game["number"], []).append(entropy)
            seq = reply.get("seq")
            if isinstance(seq, int):
                await self.wait_for(lambda: (self.state or {}).get("seq", -1) >= seq)
        elif reply["type"] == "lost":
            self.say(
                self.gettext(
                    "* the connection dropped before the server answered; "
                    "the board after reconnecting shows whether it counted"
                )
            )
        return reply
