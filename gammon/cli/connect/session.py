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
from typing import Any, Final, TextIO

from gammon.cli.common import lang_of
from gammon.cli.connect.api import ConnectError, Http, base_url
from gammon.cli.connect.commands import run_command
from gammon.cli.connect.dice import DiceRecordError, check_record
from gammon.cli.connect.link import TableLink
from gammon.cli.connect.screen import Screen, lobby_line, tournament_lines
from gammon.i18n import N_, translator

__all__ = ["connect_and_play"]

#: What the tournament's step did, by the step.
_DONE: Final = {
    "register": N_("* registered"),
    "unregister": N_("* unregistered"),
    "withdraw": N_("* withdrawn"),
}


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
                self.failures.append(
                    link.gettext("game {number}: {reason}", number=number, reason=exc)
                )
                self.verified[number] = 0
                link.say(
                    link.gettext(
                        "Game {number} dice: NOT VERIFIED: {reason}", number=number, reason=exc
                    )
                )
                continue
            self.verified[number] = rolls
            link.say(
                link.gettext(
                    "Game {number} dice: seed matches the commitment; all {rolls} rolls verified",
                    number=number,
                    rolls=rolls,
                )
            )


def _sign_in(http: Http, args: argparse.Namespace, out: TextIO) -> dict[str, Any]:
    """Log in, sign up, or go on as the guest the cookie names (a new guest if none)."""
    tr = http.tr
    me = http.get("/api/me")
    http.csrf = str(me.get("csrf")) if me.get("csrf") else None
    if args.name is not None:
        password = args.password or os.environ.get("GAMMON_PASSWORD")
        if password is None:
            if not sys.stdin.isatty():
                raise ConnectError(tr.gettext("--name needs --password (or GAMMON_PASSWORD)"))
            password = getpass.getpass(tr.gettext("password for {name}: ", name=args.name))
        path = "/api/signup" if args.signup else "/api/login"
        user = http.post(path, {"name": args.name, "password": password})["user"]
    elif me.get("user") is not None:
        user = me["user"]
    else:
        user = http.post("/api/guest")["user"]
    print(
        tr.gettext("Signed in as {name} (guest)", name=user["name"])
        if user.get("guest")
        else tr.gettext("Signed in as {name}", name=user["name"]),
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
    http: Http,
    ws_base: str,
    table_id: int,
    user: str,
    out: TextIO,
    stream: TextIO,
    lines: asyncio.Queue[str | None] | None = None,
) -> bool:
    """Join the table if there is a free seat, play it from ``stream`` (or from ``lines``, read
    from it already), then check its dice. True when the table ended, False when the user left
    it (``quit``, or the end of the input) while it goes on."""
    link = TableLink(http, ws_base, table_id, Screen(table_id, out, http.tr.lang))
    dice = _DiceCheck(link)
    socket = asyncio.create_task(link.run_socket())
    try:
        await link.wait_for(lambda: link.state is not None)
        if link.fatal is not None:
            raise link.fatal
        await _join_if_free(link, table_id, user)
        queue = lines
        if queue is None:
            queue = asyncio.Queue()
            _read_lines(stream, asyncio.get_running_loop(), queue)
        await _play_lines(link, dice, queue, table_id)
        if link.fatal is not None:
            raise link.fatal
        if link.finished:
            await _verify_all_dice(link, dice)
        return link.finished
    finally:
        socket.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await socket


async def _join_if_free(link: TableLink, table_id: int, user: str) -> None:
    """Take the table's free seat, unless we sit there already (or it is not open: watch)."""
    state = link.state or {}
    seated = [p.get("name") for p in state.get("players") or [] if isinstance(p, dict)]
    if state.get("status") == "open" and state.get("you") is None and user not in seated:
        reply = await link.request({"type": "join"})
        if reply["type"] == "error":
            raise ConnectError(
                link.gettext(
                    "cannot join table {table}: {reason} ({code})",
                    table=table_id,
                    reason=reply.get("message"),
                    code=reply.get("code"),
                )
            )


async def _play_lines(
    link: TableLink, dice: _DiceCheck, queue: asyncio.Queue[str | None], table_id: int
) -> None:
    """Run the player's commands as they come, checking each game's dice once it is over,
    until the table ends, the link fails, or the player stops (``quit``, end of input)."""
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
            return
        line = line_task.result()
        if line is None:
            link.say(
                link.gettext(
                    "* end of input; the table goes on at the server "
                    "(come back with --table {table})",
                    table=table_id,
                )
            )
            return
        if not await run_command(link, line):
            return


async def _verify_all_dice(link: TableLink, dice: _DiceCheck) -> None:
    """At the table's end: every game's dice checked against its record (DICE.md), and
    the count of rolls proved said, or the first failure raised."""
    await dice.verify(dice.finished_games())
    total = sum(dice.verified.values())
    if dice.failures:
        raise ConnectError(
            link.gettext("the dice did not verify: {reason}", reason=dice.failures[0])
        )
    if dice.verified:
        link.say(
            link.screen.tr.ngettext(
                "Fair dice (DICE.md): all {rolls} rolls verified in {n} game",
                "Fair dice (DICE.md): all {rolls} rolls verified in {n} games",
                len(dice.verified),
                rolls=total,
            )
        )


async def _play_tournament(
    http: Http, ws_base: str, number: int, user: str, out: TextIO, stream: TextIO
) -> int:
    """Play each of the user's matches of a tournament as it comes, until it is over for them."""
    tr = http.tr
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    _read_lines(stream, asyncio.get_running_loop(), lines)
    played: set[int] = set()
    shown = ""
    while True:
        tournament = http.get(f"/api/tournaments/{number}")["tournament"]
        text = "\n".join(tournament_lines(tournament, tr))
        if text != shown:
            print(text, file=out, flush=True)
            shown = text
        if tournament["status"] in ("finished", "cancelled"):
            return 0
        mine = [
            m
            for r in tournament["rounds"]
            for m in r["matches"]
            if m["status"] == "ready"
            and m["table"] not in played
            and any(isinstance(p, dict) and p.get("name") == user for p in m["players"])
        ]
        entry = next((e for e in tournament["registered"] if e.get("name") == user), None)
        if entry is not None and entry.get("out") and not mine:
            print(tr.gettext("* you are out of the tournament ({why})", why=entry["out"]), file=out)
            return 0
        if mine and mine[0]["table"]:
            table = int(mine[0]["table"])
            played.add(table)
            print(
                tr.gettext(
                    "* your match {match}: table {table}", match=mine[0]["match"], table=table
                ),
                file=out,
                flush=True,
            )
            if not await _play_table(http, ws_base, table, user, out, stream, lines):
                # Left (quit, or no more input): the match goes on without us, and so
                # would every later one; come back with --play.
                left = tr.gettext(
                    "* left tournament {number}; come back with --tournament {number} --play",
                    number=number,
                )
                print(left, file=out, flush=True)
                return 0
            continue
        await asyncio.sleep(1.0)


def _tournaments(http: Http, args: argparse.Namespace, out: TextIO, ws_base: str) -> int:
    """``--tournaments``, and ``--tournament ID`` with ``--register``, ``--unregister``,
    ``--withdraw`` or ``--play``."""
    tr = http.tr
    if args.tournament is None:
        listed = http.get("/api/tournaments")["tournaments"]
        print(tr.ngettext("{n} tournament", "{n} tournaments", len(listed)), file=out)
        for t in listed:
            described = tr.gettext(
                "{name}: {kind}, {status}, {registered}/{seats} registered",
                name=t["name"],
                kind=t["kind"].replace("_", " "),
                status=t["status"],
                registered=t["registered"],
                seats=t["seats"],
            )
            print(f"  {t['id']:>4}  {described}", file=out)
        return 0
    number = int(args.tournament)
    path = f"/api/tournaments/{number}"
    acting = args.register or args.unregister or args.withdraw or args.play
    user = str(_sign_in(http, args, out)["name"]) if acting else ""
    for flag, action in (("register", "register"), ("unregister", "unregister"),
                         ("withdraw", "withdraw")):  # fmt: skip
        if getattr(args, flag):
            http.post(f"{path}/{action}")
            print(tr.gettext(_DONE[action]), file=out)
    if args.play:
        return asyncio.run(_play_tournament(http, ws_base, number, user, out, sys.stdin))
    for line in tournament_lines(http.get(path)["tournament"], tr):
        print(line, file=out)
    return 0


def connect_and_play(args: argparse.Namespace, out: TextIO) -> int:
    """Sign in, pick or make a table, and play it from standard input."""
    lang = lang_of(args)
    base = base_url(args.url, translator(lang))
    http = Http(base, lang)
    tr = http.tr
    ws_base = "ws" + base[len("http") :]
    if args.tournaments or args.tournament is not None:
        return _tournaments(http, args, out, ws_base)
    creating = args.bot is not None or args.create
    if args.table is None and not creating:
        if args.name is not None:
            _sign_in(http, args, out)
        tables = http.get("/api/tables")["tables"]
        print(tr.ngettext("{n} table at {server}", "{n} tables at {server}", len(tables),
                          server=base), file=out)  # fmt: skip
        for summary in tables:
            print(lobby_line(summary, tr), file=out)
        return 0
    user = str(_sign_in(http, args, out)["name"])
    if creating:
        summary = http.post("/api/tables", _settings(args))["table"]
        table_id = int(summary["id"])
        print(
            tr.gettext(
                "Created table {table}: {summary}",
                table=table_id,
                summary=lobby_line(summary, tr).strip(),
            ),
            file=out,
            flush=True,
        )
    else:
        table_id = args.table
    try:
        asyncio.run(_play_table(http, ws_base, table_id, user, out, sys.stdin))
        return 0
    except KeyboardInterrupt:
        print(
            "\n" + tr.gettext("* interrupted; table {table} goes on at the server", table=table_id),
            file=out,
        )
        return 130
