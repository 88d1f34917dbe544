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
from gammon.i18n import N_, SOURCE_LANGUAGE, Translator, translator
from gammon.ids import decode_match_id
from gammon.position import Position

__all__ = ["Screen", "board_position", "lobby_line", "our_turn", "result_text"]

#: Actions the opponent's turn also allows: they do not make it "our turn" (``take_back``:
#: our last play, while the bot thinks about its answer, PROTOCOL.md 4.5).
ALWAYS: Final = frozenset({"forfeit", "resign", "hint", "take_back"})
_SHOWN_PLAYS = 12
_WAITING_FOR: Final = {
    "opening": N_("Waiting for {player} to throw the opening roll."),
    "roll": N_("Waiting for {player} to roll or double."),
    "double offered": N_("Waiting for {player} to answer the double."),
    "beaver offered": N_("Waiting for {player} to answer the beaver."),
    "move": N_("Waiting for {player} to play."),
    "resignation offered": N_("Waiting for {player} to answer the resignation."),
    "choose double": N_("Waiting for {player} to choose a double."),
}
#: The game's phases (the protocol's values) as a watcher reads them (English: the values).
_PHASE_WORDS: Final = {
    "opening": N_("the opening roll"),
    "roll": N_("rolling or doubling"),
    "double offered": N_("a double offered"),
    "beaver offered": N_("a beaver offered"),
    "move": N_("a play to make"),
    "resignation offered": N_("a resignation offered"),
    "choose double": N_("a double to choose"),
}
#: The tables' statuses (the protocol's values) in the lobby's list.
_STATUS_WORDS: Final = {
    "open": N_("open"),
    "playing": N_("playing"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
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


def player_names(state: dict[str, Any], tr: Translator | None = None) -> list[str]:
    """The players' names by side."""
    players = state.get("players") or [None, None]
    empty = (tr or translator()).gettext("(empty seat)")
    return [str(p["name"]) if isinstance(p, dict) else empty for p in players]


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


def result_text(state: dict[str, Any], result: dict[str, Any], lang: str = SOURCE_LANGUAGE) -> str:
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
        return describe(ended, player_names(state, translator(lang)), lang)
    except (KeyError, ValueError, TypeError, IndexError):  # a server newer than this client
        return ", ".join(f"{key} {value}" for key, value in result.items())


def _match_words(settings: dict[str, Any], tr: Translator) -> str:
    """'5-point match' (in the player's language), or '?-point match' without a length."""
    length = settings.get("length")
    if isinstance(length, int):
        return tr.ngettext("{n}-point match", "{n}-point match", length)
    return tr.gettext("{length}-point match", length="?")


def lobby_line(summary: dict[str, Any], tr: Translator | None = None) -> str:
    """One table of the lobby list (PROTOCOL.md 1.3)."""
    tr = tr or translator()
    settings = summary.get("settings") or {}
    players = tr.gettext(" vs ").join(
        p or tr.gettext("(free seat)") for p in summary.get("players") or []
    )
    kind = tr.gettext("money") if settings.get("mode") == "money" else _match_words(settings, tr)
    extra = []
    if summary.get("bot"):
        extra.append(tr.gettext("bot {level}", level=summary["bot"]))
    if summary.get("invite"):
        extra.append(tr.gettext("invites {name}", name=summary["invite"]))
    if settings.get("clock"):
        extra.append(tr.gettext("clock {seconds} s", seconds=settings["clock"].get("base_s")))
    tail = f" [{', '.join(extra)}]" if extra else ""
    status = str(summary.get("status", "?"))
    status = tr.gettext(_STATUS_WORDS[status]) if status in _STATUS_WORDS else status
    return (
        f"  {summary.get('id'):>5}  {status:<9} "
        f"{settings.get('variant', 'standard')} {kind}: {players}{tail}"
    )


#: The table's result by its reason (the protocol's values): the player's own win, another's.
_RESULT_WORDS: Final = {
    "match": (
        N_("Result: You win the match: {first} {first_score}, {second} {second_score}."),
        N_("Result: {player} wins the match: {first} {first_score}, {second} {second_score}."),
    ),
    "session": (
        N_("Result: You win the session: {first} {first_score}, {second} {second_score}."),
        N_("Result: {player} wins the session: {first} {first_score}, {second} {second_score}."),
    ),
    "time": (
        N_("Result: You win on time: {first} {first_score}, {second} {second_score}."),
        N_("Result: {player} wins on time: {first} {first_score}, {second} {second_score}."),
    ),
    "forfeit": (
        N_("Result: You win by forfeit: {first} {first_score}, {second} {second_score}."),
        N_("Result: {player} wins by forfeit: {first} {first_score}, {second} {second_score}."),
    ),
}


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

    def __init__(self, table: int, out: TextIO, lang: str = SOURCE_LANGUAGE) -> None:
        self.table = table
        self.out = out
        self.tr = translator(lang)
        self.shown = _Shown()

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show_chat(self, chat: dict[str, Any]) -> None:
        ident = chat.get("id")
        if isinstance(ident, int):
            if ident <= self.shown.chat:
                return
            self.shown.chat = ident
        self.say(
            self.tr.gettext("[chat] {user}: {text}", user=chat.get("user"), text=chat.get("text"))
        )

    def show_error(self, message: dict[str, Any], what: str = "") -> None:
        """A refusal in the server's words (already in the player's language)."""
        values = {"reason": message.get("message"), "code": message.get("code")}
        self.say(
            self.tr.gettext("! refused {what}: {reason} [{code}]", what=repr(what), **values)
            if what
            else self.tr.gettext("! refused: {reason} [{code}]", **values)
        )

    def show_hint(self, reply: dict[str, Any]) -> None:
        tr = self.tr
        plays = reply.get("plays") or []
        self.say(tr.gettext("Hint (best first):"))
        for n, play in enumerate(plays[:10], 1):
            figures = tr.gettext(
                "equity {equity}  loss {loss}  win {win}",
                equity=tr.signed(play.get("equity", 0), 3),
                loss=tr.number(play.get("loss", 0), "0.000"),
                win=tr.percent(play.get("win", 0), 1),
            )
            self.say(f"  {n:2}  {play.get('play', ''):<24} {figures}")

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
                        self.say(
                            self.tr.gettext("* {name} connected", name=p["name"])
                            if now
                            else self.tr.gettext("* {name} disconnected", name=p["name"])
                        )
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
            self.say(
                self.tr.gettext(
                    "Game {number} over: {result}",
                    number=number,
                    result=result_text(state, result, self.tr.lang),
                )
            )

    def _table_result(self, state: dict[str, Any]) -> str:
        tr = self.tr
        if state.get("status") == "cancelled":
            return tr.gettext("Table {table} was cancelled.", table=self.table)
        result = state.get("result") or {}
        winner = result.get("winner")
        names = player_names(state, tr)
        score = result.get("score") or (state.get("series") or {}).get("score") or [0, 0]
        if winner is None:
            return tr.gettext(
                "Result: the session ends level, {first}-{second}.", first=score[0], second=score[1]
            )
        reason = str(result.get("reason"))
        scores = {"first": names[0], "first_score": score[0],
                  "second": names[1], "second_score": score[1]}  # fmt: skip
        template = _RESULT_WORDS.get(reason)
        if template is None:  # a reason newer than this client: its own word
            return tr.gettext(
                "Result: {who} {reason}: {first} {first_score}, {second} {second_score}.",
                who=tr.gettext("You win") if winner == state.get("you")
                else tr.gettext("{player} wins", player=names[winner]),
                reason=reason,
                **scores,
            )  # fmt: skip
        mine = winner == state.get("you")
        return tr.gettext(template[0] if mine else template[1], player=names[winner], **scores)

    def render(self, state: dict[str, Any]) -> str:
        """The heading, the board, the clock and what to do now."""
        game = state.get("game")
        settings = state.get("settings") or {}
        series = state.get("series") or {}
        tr = self.tr
        me = viewer(state)
        names = player_names(state, tr)
        mine, theirs = names[me], names[1 - me]
        if series.get("mode") == "money":
            net = series.get("net") or 0
            mine_net = f"{net if me == 0 else -net:+d}"
            kind = (
                tr.gettext("money session, you {net}", net=mine_net)
                if state.get("you") is not None
                else tr.gettext("money session, {player} {net}", player=mine, net=mine_net)
            )
        else:
            kind = _match_words(settings, tr)
        values = {"table": self.table, "variant": settings.get("variant", "standard"),
                  "kind": kind, "seq": state.get("seq")}  # fmt: skip
        head = (
            tr.gettext("== Table {table} ({variant}, {kind}), game {number}, seq {seq} ==",
                       number=game["number"], **values)
            if game
            else tr.gettext("== Table {table} ({variant}, {kind}), seq {seq} ==", **values)
        )  # fmt: skip
        if game is None:
            status = state.get("status")
            if status == "open":
                waiting = tr.gettext(
                    "Waiting for an opponent to join table {table}.", table=self.table
                )
                return f"{head}\n{waiting}"
            return head
        lines = [head, self._board(state, game)]
        clock = state.get("clock")
        if clock:
            remaining = clock["remaining_ms"]
            running = clock.get("running")
            parts = [
                tr.gettext("{name} {time} (running)", name=name, time=clock_text(remaining[side]))
                if running == side
                else f"{name} {clock_text(remaining[side])}"
                for name, side in ((mine, me), (theirs, 1 - me))
            ]
            lines.append(tr.gettext("Clock: {clocks}", clocks=", ".join(parts)))
        lines.append(self.status(state, game))
        return "\n".join(lines)

    def _board(self, state: dict[str, Any], game: dict[str, Any]) -> str:
        me = viewer(state)
        position = board_position(game)
        settings = state.get("settings") or {}
        has_cube = bool(settings.get("cube", True)) and settings.get("variant") != "tavla"
        everyone = player_names(state, self.tr)
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
                lang=self.tr.lang,
            )
        return draw(
            position,
            match=fields,
            cube=1 if has_cube else None,
            names=names,
            on_roll=0 if fields.player_on_roll == me else 1,
            lang=self.tr.lang,
        )

    def status(self, state: dict[str, Any], game: dict[str, Any]) -> str:
        """What the user may do now, or whom the table waits for; the commands it names are
        typed in English, so they stay English."""
        tr = self.tr
        actions = [a for a in game.get("actions") or [] if a != "forfeit"]
        names = player_names(state, tr)
        theirs = names[1 - viewer(state)]
        phase = str(game.get("phase"))
        if phase == "over":
            return tr.gettext("Game over.")
        if state.get("you") is None:
            # English shows the protocol's value, as it always has; the others its words.
            words = _PHASE_WORDS.get(phase) if tr.lang != SOURCE_LANGUAGE else None
            shown = tr.gettext(words) if words else phase
            return tr.gettext("Watching ({phase}).", phase=shown)
        if not our_turn(state):
            if phase in _WAITING_FOR:
                return tr.gettext(_WAITING_FOR[phase], player=theirs)
            return tr.gettext("Waiting for {player} to {phase}.", player=theirs, phase=phase)
        commands = tr.gettext(" or ").join(actions)
        if "play" in actions:
            dice = game.get("dice") or ["?", "?"]
            plays = game.get("legal_plays") or []
            lines = [
                tr.ngettext(
                    "Your move: play {die1}-{die2} ({n} legal play; type a number or the play):",
                    "Your move: play {die1}-{die2} ({n} legal plays; type a number or the play):",
                    len(plays),
                    die1=dice[0],
                    die2=dice[1],
                )
            ]
            lines += [f"  {n:2}  {p['play']}" for n, p in enumerate(plays[:_SHOWN_PLAYS], 1)]
            if len(plays) > _SHOWN_PLAYS:
                lines.append(
                    tr.gettext("  ... {count} more: type 'moves'", count=len(plays) - _SHOWN_PLAYS)
                )
            return "\n".join(lines)
        if phase == "double offered":
            value = (game.get("cube") or {}).get("value", 1)
            return tr.gettext(
                "{player} doubles to {value}: {commands}?",
                player=theirs, value=2 * value, commands=commands,
            )  # fmt: skip
        if phase == "beaver offered":
            return tr.gettext("{player} beavers: {commands}?", player=theirs, commands=commands)
        if phase == "resignation offered":
            offer = game.get("resignation") or {}
            try:
                kind = tr.gettext(WinKind(offer.get("value", 1)).words)
            except ValueError:
                kind = "?"
            return tr.gettext(
                "{player} offers to resign {kind}: accept or reject?", player=theirs, kind=kind
            )
        return tr.gettext(
            "Your turn: {commands}.",
            commands=", ".join(_ACTION_WORDS.get(a, a) for a in actions),
        )


def _match_state(match: dict[str, Any], tr: Translator) -> str:
    """How a bracket's match stands: who won (and how, if not by the match), its table,
    or that it waits."""
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
        tail = (
            tr.gettext("{player} won", player=winner)
            if winner
            else tr.gettext("nobody went through")
        )
        if how and how != "match":
            tail += f" ({str(how).replace('_', ' ')})"
    elif status == "ready":
        tail = (
            tr.gettext("table {table}", table=match.get("table"))
            if match.get("table")
            else tr.gettext("starting")
        )
    else:
        tail = tr.gettext("waiting")
    return tail


def tournament_lines(tournament: dict[str, Any], tr: Translator | None = None) -> list[str]:
    """A tournament as text (PROTOCOL.md 1.6): its state, then the bracket round by round.

    Its kind and status are the protocol's words (as ``--tournaments`` lists them)."""
    tr = tr or translator()
    settings = tournament.get("settings") or {}
    lines = [
        tr.gettext(
            "Tournament {id}: {name} ({kind}, {status}, {registered}/{seats} registered)",
            id=tournament.get("id"),
            name=settings.get("name"),
            kind=str(settings.get("kind", "")).replace("_", " "),
            status=tournament.get("status"),
            registered=len(tournament.get("registered") or []),
            seats=settings.get("seats"),
        )
    ]
    for round_ in tournament.get("rounds") or []:
        lines.append(
            tr.gettext(
                "  {round} ({length} points):",
                round=round_.get("name"),
                length=round_.get("length"),
            )
        )
        for match in round_.get("matches") or []:
            names = [
                str(p.get("name")) if isinstance(p, dict) else "?"
                for p in match.get("players") or []
            ]
            tail = _match_state(match, tr)
            lines.append(f"    {match.get('match')}. {' - '.join(names)}: {tail}")
    winner = tournament.get("winner")
    if isinstance(winner, dict):
        lines.append(tr.gettext("  Winner: {name}", name=winner.get("name")))
    return lines
