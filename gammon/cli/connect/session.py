"""A session at a server: sign in, list or open a table, play it, then check its dice.

The standard input is read by a thread and fed to the event loop, so a script
piped in and a person at a terminal are the same to the session.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
import sys
import threading
from collections.abc import Sequence
from typing import Any, TextIO

from gammon.cli.connect.api import ConnectError, Http, base_url
from gammon.cli.connect.commands import run_command
from gammon.cli.connect.dice import DiceRecordError, check_record
from gammon.cli.connect.link import TableLink
from gammon.cli.connect.screen import Screen, lobby_line

__all__ = ["connect_and_play"]


class _DiceCheck:
    """The games of one table whose dice were checked (DICE.md), and what went wrong."""

    def __init__(self, link: TableLink) -> None:
        self.link = link
        self.verified: dict[int, int] = {}
        self.failures: list[str] = []

    def finished_games(self) -> list[int]:
        state = self.link.state or {}
        numbers = [g["number"] for g in state.get("previous_games") or []]
        game = state.get("game")
        if game and game.get("result"):
            numbers.append(game["number"])
        return numbers

    async def verify(self, numbers: Sequence[int]) -> None:
        """Fetch and check each game's record (DICE.md); say how many rolls it proves."""
        link = self.link
        state = link.state or {}
        bot = bool(state.get("settings", {}).get("bot"))
        for number in numbers:
            if number in self.verified:
                continue
            path = f"/api/tables/{link.table}/record?game={number}"
            try:
                record = await asyncio.to_thread(link.http.get, path)
                rolls = check_record(
                    record,
                    commitment=link.commitments.get(number),
                    sent=link.sent.get(number, []),
                    only_ours=bot and state.get("you") is not None,
                )
            except (ConnectError, DiceRecordError) as exc:
                self.failures.append(f"game {number}: {exc}")
                self.verified[number] = 0
                link.say(f"Game {number} dice: NOT VERIFIED: {exc}")
                continue
            self.verified[number] = rolls
            link.say(f"Game {number} dice: seed matches the commitment; all {rolls} rolls verified")


def _sign_in(http: Http, args: argparse.Namespace, out: TextIO) -> dict[str, Any]:
    """Log in, sign up, or go on as the guest the cookie names (a new guest if none)."""
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
    """The new table's settings (PROTOCOL.md 1.3), only those given on the command line."""
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


async def _play_table(
    http: Http, ws_base: str, table_id: int, user: str, out: TextIO, stream: TextIO
) -> int:
    """Join the table if there is a free seat, play it from ``stream``, then check its dice."""
    link = TableLink(http, ws_base, table_id, Screen(table_id, out))
    dice = _DiceCheck(link)
    socket = asyncio.create_task(link.run_socket())
    try:
        await link.wait_for(lambda: link.state is not None)
        if link.fatal is not None:
            raise link.fatal
        state = link.state or {}
        seated = [p.get("name") for p in state.get("players") or [] if isinstance(p, dict)]
        if state.get("status") == "open" and state.get("you") is None and user not in seated:
            reply = await link.request({"type": "join"})
            if reply["type"] == "error":
                raise ConnectError(
                    f"cannot join table {table_id}: {reply.get('message')} ({reply.get('code')})"
                )
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        _read_lines(stream, asyncio.get_running_loop(), queue)
        checked: set[int] = set()
        while not link.finished and link.fatal is None:
            await dice.verify(
                [n for n in dice.finished_games() if n not in checked and n in link.commitments]
            )
            checked.update(dice.finished_games())
            line_task = asyncio.ensure_future(queue.get())
            end_task = asyncio.ensure_future(link.wait_for(lambda: False))
            await asyncio.wait({line_task, end_task}, return_when=asyncio.FIRST_COMPLETED)
            end_task.cancel()
            if not line_task.done():
                line_task.cancel()
                break
            line = line_task.result()
            if line is None:
                link.say(
                    "* end of input; the table goes on at the server "
                    f"(come back with --table {table_id})"
                )
                break
            if not await run_command(link, line):
                break
        if link.fatal is not None:
            raise link.fatal
        if link.finished:
            await dice.verify(dice.finished_games())
            total = sum(dice.verified.values())
            if dice.failures:
                raise ConnectError(f"the dice did not verify: {dice.failures[0]}")
            if dice.verified:
                games = len(dice.verified)
                link.say(
                    f"Fair dice (DICE.md): all {total} rolls verified "
                    f"in {games} game{'s' if games != 1 else ''}"
                )
        return 0
    finally:
        socket.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await socket


def connect_and_play(args: argparse.Namespace, out: TextIO) -> int:
    """Sign in, pick or make a table, and play it from standard input."""
    base = base_url(args.url)
    http = Http(base)
    ws_base = "ws" + base[len("http") :]
    creating = args.bot is not None or args.create
    if args.table is None and not creating:
        if args.name is not None:
            _sign_in(http, args, out)
        tables = http.get("/api/tables")["tables"]
        print(f"{len(tables)} table{'' if len(tables) == 1 else 's'} at {base}", file=out)
        for summary in tables:
            print(lobby_line(summary), file=out)
        return 0
    user = str(_sign_in(http, args, out)["name"])
    if creating:
        summary = http.post("/api/tables", _settings(args))["table"]
        table_id = int(summary["id"])
        print(f"Created table {table_id}: {lobby_line(summary).strip()}", file=out, flush=True)
    else:
        table_id = args.table
    try:
        return asyncio.run(_play_table(http, ws_base, table_id, user, out, sys.stdin))
    except KeyboardInterrupt:
        print(f"\n* interrupted; table {table_id} goes on at the server", file=out)
        return 130

