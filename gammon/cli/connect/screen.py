"""What the terminal shows of a table: boards, the game log, results, chat (PROTOCOL.md 3).

The board is drawn by the rules library from the Position ID and Match ID the
server sends; the game log is shown in the server's own words (each event's
``text``), and a game's result in the words of :func:`gammon.events.describe`,
so the terminal never has a wording of its own for what happened.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Final, TextIO

from gammon.diagram import draw
from gammon.errors import InvalidIdError
from gammon.events import Ended, EndReason, GameResult, WinKind, describe
from gammon.ids import decode_match_id
from gammon.position import Position

__all__ = ["Screen", "board_position", "lobby_line", "our_turn", "result_text"]

#: Actions the opponent's turn also allows: they do not make it "our turn" (``take_back``:
#: our last play, while the bot thinks about its answer, PROTOCOL.md 4.5).
ALWAYS: Final = frozenset({"forfeit", "resign", "hint", "take_back"})
_SHOWN_PLAYS = 12
_WAITING_FOR: Final = {
    "opening": "throw the opening roll",
    "roll": "roll or double",
    "double offered": "answer the double",
    "beaver offered": "answer the beaver",
    "move": "play",
    "resignation offered": "answer the resignation",
    "choose double": "choose a double",
}
_ACTION_WORDS: Final = {
    "accept_resignation": "accept",
    "reject_resignation": "reject",
    "choose_double": "choose N",
}


def viewer(state: dict[str, Any]) -> int:
    """The side the board is drawn for: ours, or side 0 when watching."""
    you = state.get("you")
    return you if isinstance(you, int) else 0


def player_names(state: dict[str, Any]) -> list[str]:
    """The players' names by side."""
    players = state.get("players") or [None, None]
    return [str(p["name"]) if isinstance(p, dict) else "(empty seat)" for p in players]


def board_position(game: dict[str, Any]) -> Position:
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


def our_turn(state: dict[str, Any]) -> bool:
    """Whether the table waits for us (PROTOCOL.md 3): ``turn`` is our side, or the opening
    roll is still to be thrown (``turn`` null) and we may throw it.

    ``actions`` alone does not say it: the side not to act may still resign, forfeit or
    take its last play back, and a newer server may list more such actions.

    >>> our_turn({"you": 1, "game": {"phase": "roll", "turn": 1, "actions": ["roll"]}})
    True
    >>> our_turn({"you": 0, "game": {"phase": "roll", "turn": 1,
    ...                              "actions": ["resign", "take_back", "forfeit"]}})
    False
    >>> our_turn({"you": 0, "game": {"phase": "opening", "turn": None,
    ...                              "actions": ["roll", "forfeit"]}})
    True
    """
    you = state.get("you")
    game = state.get("game") or {}
    actions = set(game.get("actions") or [])
    if you is None or not actions - ALWAYS:
        return False
    turn = game.get("turn")
    return turn == you or (turn is None and game.get("phase") == "opening")


def clock_text(ms: int) -> str:
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def result_text(state: dict[str, Any], result: dict[str, Any]) -> str:
    """A game's ``RESULT`` in the shared words of :func:`gammon.events.describe`.

    >>> state = {"players": [{"name": "alice"}, {"name": "bob"}]}
    >>> result_text(state, {"winner": 1, "points": 2, "kind": "gammon", "reason": "bear-off"})
    'bob wins 2 points (a gammon, by bearing off)'
    """
    try:
        ended = Ended(
            GameResult(
                int(result["winner"]),
                int(result["points"]),
                WinKind[str(result["kind"]).upper()],
                EndReason(result["reason"]),
            )
        )
        return describe(ended, player_names(state))
    except (KeyError, ValueError, TypeError, IndexError):  # a server newer than this client
        return ", ".join(f"{key} {value}" for key, value in result.items())


def lobby_line(summary: dict[str, Any]) -> str:
    """One table of the lobby list (PROTOCOL.md 1.3)."""
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


@dataclass
class _Shown:
    """What the terminal has shown so far, so each state prints only what changed."""

    seq: int = -1
    log_game: int = 0
    log_count: int = 0
    results: set[int] = field(default_factory=set)
    connected: tuple[bool, ...] = ()
    chat: int = 0


class Screen:
    """Prints one table's states, chat and refusals to ``out``."""

    def __init__(self, table: int, out: TextIO) -> None:
        self.table = table
        self.out = out
        self.shown = _Shown()

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show_chat(self, chat: dict[str, Any]) -> None:
        ident = chat.get("id")
        if isinstance(ident, int):
            if ident <= self.shown.chat:
                return
            self.shown.chat = ident
        self.say(f"[chat] {chat.get('user')}: {chat.get('text')}")

    def show_error(self, message: dict[str, Any], what: str = "") -> None:
        about = f" {what!r}" if what else ""
        self.say(f"! refused{about}: {message.get('message')} [{message.get('code')}]")

    def show_hint(self, reply: dict[str, Any]) -> None:
        plays = reply.get("plays") or []
        self.say("Hint (best first):")
        for n, play in enumerate(plays[:10], 1):
            self.say(
                f"  {n:2}  {play.get('play', ''):<24} equity {play.get('equity', 0):+.3f}"
                f"  loss {play.get('loss', 0):.3f}  win {100 * play.get('win', 0):.1f}%"
            )

    def show_state(self, state: dict[str, Any]) -> None:
        """Print what changed: who (dis)connected, new log events, results, the board."""
        shown = self.shown
        game = state.get("game")
        players = tuple(
            bool(isinstance(p, dict) and p.get("connected")) for p in state.get("players") or []
        )
        if state.get("seq") == shown.seq:
            if players != shown.connected and len(players) == len(shown.connected):
                for p, was, now in zip(state["players"], shown.connected, players, strict=True):
                    if was != now and isinstance(p, dict):
                        self.say(f"* {p['name']} {'connected' if now else 'disconnected'}")
            shown.connected = players
            return
        shown.seq, shown.connected = state.get("seq", -1), players
        if game is not None:
            if game["number"] != shown.log_game:
                shown.log_game, shown.log_count = game["number"], 0
            log = game.get("log") or []
            for event in log[shown.log_count :]:
                self.say(f"  {event.get('text') or event.get('type')}")
            shown.log_count = len(log)
        self._show_results(state)
        self.say(self.render(state))
        if state.get("status") in ("finished", "cancelled"):
            self.say(self._table_result(state))

    def _show_results(self, state: dict[str, Any]) -> None:
        finished = [(g["number"], g.get("result")) for g in state.get("previous_games") or []]
        game = state.get("game")
        if game and game.get("result"):
            finished.append((game["number"], game["result"]))
        for number, result in finished:
            if number in self.shown.results or not result:
                continue
            self.shown.results.add(number)
            self.say(f"Game {number} over: {result_text(state, result)}")

    def _table_result(self, state: dict[str, Any]) -> str:
        if state.get("status") == "cancelled":
            return f"Table {self.table} was cancelled."
        result = state.get("result") or {}
        winner = result.get("winner")
        names = player_names(state)
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

    def render(self, state: dict[str, Any]) -> str:
        """The heading, the board, the clock and what to do now."""
        game = state.get("game")
        settings = state.get("settings") or {}
        series = state.get("series") or {}
        me = viewer(state)
        names = player_names(state)
        mine, theirs = names[me], names[1 - me]
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
                f"{name} {clock_text(remaining[side])}{' (running)' if running == side else ''}"
                for name, side in ((mine, me), (theirs, 1 - me))
            ]
            lines.append("Clock: " + ", ".join(parts))
        lines.append(self.status(state, game))
        return "\n".join(lines)

    def _board(self, state: dict[str, Any], game: dict[str, Any]) -> str:
        me = viewer(state)
        position = board_position(game)
        settings = state.get("settings") or {}
        has_cube = bool(settings.get("cube", True)) and settings.get("variant") != "tavla"
        everyone = player_names(state)
        names = (everyone[me], everyone[1 - me])
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

    def status(self, state: dict[str, Any], game: dict[str, Any]) -> str:
        """What the user may do now, or whom the table waits for."""
        actions = [a for a in game.get("actions") or [] if a != "forfeit"]
        names = player_names(state)
        theirs = names[1 - viewer(state)]
        phase = game.get("phase")
        if phase == "over":
            return "Game over."
        if state.get("you") is None:
            return f"Watching ({phase})."
        if not our_turn(state):
            return f"Waiting for {theirs} to {_WAITING_FOR.get(str(phase), str(phase))}."
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
            try:
                kind = WinKind(offer.get("value", 1)).words
            except ValueError:
                kind = "?"
            return f"{theirs} offers to resign {kind}: accept or reject?"
        return "Your turn: " + ", ".join(_ACTION_WORDS.get(a, a) for a in actions) + "."


def tournament_lines(tournament: dict[str, Any]) -> list[str]:
    """A tournament as text (PROTOCOL.md 1.6): its state, then the bracket round by round."""
    settings = tournament.get("settings") or {}
    lines = [
        f"Tournament {tournament.get('id')}: {settings.get('name')} "
        f"({str(settings.get('kind', '')).replace('_', ' ')}, {tournament.get('status')}, "
        f"{len(tournament.get('registered') or [])}/{settings.get('seats')} registered)"
    ]
    for round_ in tournament.get("rounds") or []:
        lines.append(f"  {round_.get('name')} ({round_.get('length')} points):")
        for match in round_.get("matches") or []:
            names = [
                str(p.get("name")) if isinstance(p, dict) else "?"
                for p in match.get("players") or []
            ]
            status = match.get("status")
            if status == "over":
                winner = next(
                    (
                        p.get("name")
                        for p in match.get("players") or []
                        if isinstance(p, dict) and p.get("entry") == match.get("winner")
                    ),
                    None,
                )
                how = match.get("how")
                tail = f"{winner} won" if winner else "nobody went through"
                if how and how != "match":
                    tail += f" ({str(how).replace('_', ' ')})"
            elif status == "ready":
                tail = f"table {match.get('table')}" if match.get("table") else "starting"
            else:
                tail = "waiting"
            lines.append(f"    {match.get('match')}. {' - '.join(names)}: {tail}")
    winner = tournament.get("winner")
    if isinstance(winner, dict):
        lines.append(f"  Winner: {winner.get('name')}")
    return lines
