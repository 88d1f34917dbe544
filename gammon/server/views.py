"""What the clients see of a table: its state, its lobby entry, its fair-dice records.

:class:`TableView` writes a table's ``state`` message (docs/PROTOCOL.md 3) as
each receiver sees it; :meth:`TableView.state_text` makes it from JSON texts
that are the same for every receiver of one state (the settings, the series,
the game's log, each side's board...), encoded once per ``seq`` however many
sockets receive it. :func:`summary_json` is the table's lobby entry,
:func:`game_record` and :func:`table_record` its fair-dice records (section 5).
Nothing here changes a table.

>>> import json
>>> from gammon.match import SeriesRules
>>> from gammon.server.settings import TableSettings
>>> from gammon.server.table import Seat, Table
>>> table = Table(1, TableSettings(SeriesRules(length=1)), Seat(7, "alice"), created=0.0)
>>> view = TableView(table)
>>> json.loads(view.state_text(None, at=0.0)) == view.state_json(None, at=0.0)
True
>>> summary_json(table)["players"]
['alice', None]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any, Final

from gammon.clock import Clock
from gammon.game import Phase
from gammon.match import Match
from gammon.messages import Message
from gammon.play import Play
from gammon.server.game_json import board_json, log_entry_in, play_json
from gammon.server.plays_text import legal_plays_text, state_boards_text
from gammon.server.protocol import Refused, dumps
from gammon.server.settings import ClockSettings
from gammon.server.table import Table
from gammon.server.table_actions import TableStatus
from gammon.server.table_codec import last_json, result_json, table_result_json

__all__ = ["TableView", "clock_json", "game_record", "summary_json", "table_record"]


#: The key before the previous games' value in a state's text.
PREVIOUS: Final = ',"previous_games":'


def clock_json(settings: ClockSettings, clock: Clock, at: float) -> dict[str, Any]:
    """The state's ``clock`` (docs/PROTOCOL.md 3): the settings, the reserves at ``at``."""
    running = clock.running
    return {
        **settings.to_json(),
        "remaining_ms": [math.floor(ms) for ms in clock.remaining(at)],
        "running": running,
        # When the running side's clock started (its delay ends delay_s later): a page
        # opened in the middle of a turn shows the delay that is really left.
        "started_ms": math.floor(clock.since * 1000) if running is not None else None,
        "server_ms": math.floor(at * 1000),
    }


class TableView:
    """The ``state`` messages of one table, with the parts every receiver shares made once."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: Each game's log events as JSON texts, by game number - 1, written once each (every
        #: state carries the game's log, so it is never encoded again).
        self._log_texts: dict[str, list[list[str]]] = {}
        #: JSON texts of parts of the state at ``_parts_seq``: each is made once per state
        #: however many sockets receive it (see :meth:`state_text`).
        self._parts: dict[object, str] = {}
        #: Parts that depend on more than ``seq`` (:meth:`_stamped_part`): key -> (stamp, text).
        self._stamped: dict[str, tuple[object, str]] = {}
        self._parts_seq = -1
        #: :meth:`_boards` at ``_parts_seq``.
        self._boards_text: tuple[str, str, str | None] | None = None
        #: Texts that outlive a ``seq``, each with what it was made from (compared by
        #: identity: settings and series are replaced, never changed in place, when they
        #: change): the settings', and the previous games' (finished games never change).
        self._settings_text: tuple[object, str] = (None, "")
        #: The previous games: each entry's text and the whole list's, with the series and
        #: the game number they were made at.
        self._previous_games_texts: tuple[object, int, list[str], str] = (None, -1, [], "[]")

    # -- the state as JSON values ------------------------------------------------------

    def state_json(
        self,
        viewer: int | None,
        *,
        at: float,
        connected: AbstractSet[int] = frozenset(),
        spectators: int = 0,
        lang: str = "en",
    ) -> dict[str, Any]:
        """The whole state as ``viewer`` (a side, or None for a spectator) sees it, the
        current game's log in ``lang``."""
        table = self.table
        return {
            "type": "state",
            "table": table.id,
            "seq": table.seq,
            "status": table.status.value,
            "settings": table.settings.to_json(),
            "you": viewer,
            "players": players_json(table, connected),
            "spectators": spectators,
            "series": self.series_json(),
            "game": self.game_json(viewer, lang),
            "previous_games": previous_games_json(table),
            "clock": self._clock_json(at),
            "result": table_result_json(table.result),
            "last": last_json(table.last),
            **_tournament_json(table),
        }

    def game_json(self, viewer: int | None, lang: str = "en") -> dict[str, Any] | None:
        self._at_current_seq()
        table = self.table
        if table.game is None or table.series is None:
            return None
        view = viewer if viewer is not None else 0
        actions = table.actions_for(viewer)
        return {
            **self._game_head_json(view),
            "actions": actions,
            "legal_plays": self._legal_plays_json(view) if "play" in actions else [],
            "log": [
                log_entry_in(entry, table.names, lang)
                for entry in table.logs[table.game_number - 1]
            ],
            **self._game_tail_json(),
        }

    def series_json(self) -> dict[str, Any] | None:
        self._at_current_seq()
        table = self.table
        series = table.series
        if series is None:
            return None
        over = table.status == TableStatus.FINISHED
        result = table.result
        winner = result.winner if result else None
        score = list(result.score if result else series.score)
        if isinstance(series, Match):
            return {
                "mode": "match",
                "length": series.length,
                "score": score,
                "game_number": table.game_number,
                "crawford": series.game.rules.crawford,
                "over": over,
                "winner": winner,
                "net": None,
                "bankrolls": None,
                "match_id": self._match_id(),
            }
        return {
            "mode": "money",
            "length": 0,
            "score": score,
            "game_number": table.game_number,
            "crawford": False,
            "over": over,
            "winner": winner,
            "net": score[0] - score[1],
            "bankrolls": list(series.bankrolls) if series.bankrolls else None,
            "match_id": self._match_id(),
        }

    def _game_head_json(self, view: int) -> dict[str, Any]:
        """The current game's fields before ``actions``, with the board from side ``view``."""
        game = self.table.game
        assert game is not None
        return {**self._game_common_json(), "board": board_json(game.position_for(view), view)}

    def _game_common_json(self) -> dict[str, Any]:
        """The head's fields that every receiver sees alike (all but the board, which is last)."""
        table = self.table
        game = table.game
        assert game is not None
        resignation = game.resignation
        offered = game.phase in (Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED)
        return {
            "number": table.game_number,
            "phase": str(game.phase),
            "turn": game.turn,
            "on_roll": game.on_roll,
            # The roll to be played: only while it waits to be played (not while a
            # resignation is offered in the middle of a move, nor once the game is over).
            "dice": list(game.dice) if game.dice and game.phase is Phase.MOVE else None,
            "cube": {
                "value": game.cube_value,
                "owner": game.cube_owner,
                "offered": offered,
                # What the cube shows if the offer is taken (the double, or the beaver's redouble).
                "offered_value": 2 * game.cube_value if offered else None,
                "centred": game.cube_owner is None,
            },
            "resignation": (
                {"side": resignation[0], "value": resignation[1]} if resignation else None
            ),
            "crawford": game.rules.crawford,
            "position_id": self._boards()[2],
            "match_id": self._match_id(),
        }

    def _boards(self) -> tuple[str, str, str | None]:
        """Side 0's and side 1's boards as JSON text and the Position ID, made once per
        ``seq`` in one compiled call (:func:`state_boards_text`; called after
        :meth:`_at_current_seq`, as every part is)."""
        boards = self._boards_text
        if boards is None:
            game = self.table.game
            assert game is not None
            boards = self._boards_text = state_boards_text(game.position_for(0), game.on_roll or 0)
        return boards

    def _match_id(self) -> str:
        """The GNU Match ID of the current state (the game and the series show it)."""
        series = self.table.series
        assert series is not None
        return self._part("match_id", lambda: series.id)

    def _legal_plays_json(self, view: int) -> list[dict[str, Any]]:
        """Every legal play of the side on roll (``view``), with the board after it (R5)."""
        return [play_json(play, view) for play in self._legal_plays()]

    def _legal_plays(self) -> list[Play]:
        game = self.table.game
        assert game is not None
        return game.legal_plays()

    def _game_tail_json(self) -> dict[str, Any]:
        table = self.table
        game = table.game
        assert game is not None
        fair = table.game_dice[table.game_number - 1]
        return {
            "result": result_json(game.result),
            "commitment": fair.commitment,
            "seed": fair.seed_hex if game.is_over else None,
        }

    # -- the state as JSON text, from shared parts -------------------------------------------

    def _at_current_seq(self) -> None:
        """Forget the parts of an older ``seq``."""
        if self._parts_seq != self.table.seq:
            self._parts.clear()
            self._stamped.clear()
            self._boards_text = None
            self._parts_seq = self.table.seq

    def _part(self, key: object, make: Callable[[], str]) -> str:
        """A part of the current state as JSON text, made once per ``seq`` (called after
        :meth:`_at_current_seq`, once for each text made of parts)."""
        text = self._parts.get(key)
        if text is None:
            text = self._parts[key] = make()
        return text

    def _stamped_part(self, key: str, stamp: object, make: Callable[[], str]) -> str:
        """:meth:`_part` for a part that depends on ``stamp`` too (the clock's time, who is
        connected: the same for every receiver of one broadcast); only the last is kept."""
        found = self._stamped.get(key)
        if found is not None and found[0] == stamp:
            return found[1]
        text = make()
        self._stamped[key] = (stamp, text)
        return text

    def _log(self, number: int, lang: str = "en") -> list[str]:
        """Game ``number``'s log as JSON texts in ``lang`` (each entry's ``text``), each event
        encoded once per language (logs only grow)."""
        by_game = self._log_texts.setdefault(lang, [])
        while len(by_game) < number:
            by_game.append([])
        texts = by_game[number - 1]
        events = self.table.logs[number - 1]
        if len(texts) < len(events):
            if lang == "en":
                texts.extend(dumps(entry) for entry in events[len(texts) :])
            else:
                names = self.table.names
                texts.extend(
                    dumps(log_entry_in(entry, names, lang)) for entry in events[len(texts) :]
                )
        return texts

    def state_text(
        self,
        viewer: int | None,
        *,
        at: float,
        connected: AbstractSet[int] = frozenset(),
        spectators: int = 0,
        log_from: int | None = None,
        games_from: int | None = None,
        lang: str = "en",
    ) -> str:
        """:meth:`state_json` as JSON text, made from parts shared by every receiver.

        With ``log_from`` (a receiver that opted in to ``log_delta``, docs/PROTOCOL.md
        2.2) the game's ``log`` holds only the events from that index on, and
        ``log_from`` says so; with ``games_from`` (``games_delta``) ``previous_games``
        holds only the games from that index on, and ``previous_games_from`` says so.
        The text is three runs of fields that are the same for every receiver of this
        ``seq`` (the second and third also for the same players connected, spectators
        and clock time: one broadcast), each written once, and between them what is the
        receiver's own: ``you``, in the game its board, its actions, its legal plays and
        the log it lacks, and the previous games it lacks.
        """
        self._at_current_seq()
        you = "null" if viewer is None else str(viewer)
        middle = self._stamped_part(
            "middle",
            (frozenset(connected), spectators),
            lambda: self._middle_text(connected, spectators),
        )
        games = self._previous_games_text(games_from)
        clock = self._stamped_part("clock", at, lambda: self._clock_text(at))
        game = self._game_text(viewer, log_from, lang)
        return "".join(
            (
                self._part("head", self._head_text),
                you,
                middle,
                game,
                PREVIOUS,
                games,
                clock,
                self._part("end", self._end_text),
            )
        )

    def _previous_games_text(self, games_from: int | None) -> str:
        """``previous_games``'s value: all of them, or those from ``games_from`` on."""
        previous, all_previous = self._previous_games()
        if games_from is None:
            return all_previous
        return _list_from(previous, games_from, "previous_games_from")

    def _game_text(self, viewer: int | None, log_from: int | None, lang: str) -> str:
        """``game``'s value for ``viewer``: shared parts around its board, actions and plays."""
        table = self.table
        series = table.series
        if series is None:
            return "null"
        game = series.game
        view = viewer if viewer is not None else 0
        actions = table.actions_for(viewer)
        plays = (
            self._part(("plays", view), lambda: legal_plays_text(game.legal_plays(), view))
            if "play" in actions
            else "[]"
        )
        board_of_0, board_of_1, _ = self._boards()
        board = board_of_1 if view else board_of_0
        texts = self._log(series.game_number, lang)
        if log_from is None:
            log = self._part(("log", lang), lambda: "[" + ",".join(texts) + "]")
        else:
            log = _list_from(texts, log_from, "log_from")
        return "".join(
            (
                self._part("common", lambda: dumps(self._game_common_json())[:-1]),
                ',"board":',
                board,
                ',"actions":',
                dumps(actions),
                ',"legal_plays":',
                plays,
                ',"log":',
                log,
                self._part("tail", lambda: "," + dumps(self._game_tail_json())[1:]),
            )
        )

    def _head_text(self) -> str:
        """The state's text up to ``you``'s value."""
        table = self.table
        return "".join(
            (
                '{"type":"state","table":',
                str(table.id),  # ints, written as JSON writes them
                ',"seq":',
                str(table.seq),
                ',"status":',
                dumps(table.status.value),
                ',"settings":',
                self._settings(),
                ',"you":',
            )
        )

    def _middle_text(self, connected: AbstractSet[int], spectators: int) -> str:
        """From after ``you``'s value to ``game``'s value (or the game's first field)."""
        return "".join(
            (
                ',"players":',
                dumps(players_json(self.table, connected)),
                ',"spectators":',
                str(spectators),
                ',"series":',
                dumps(self.series_json()),
                ',"game":',
            )
        )

    def _clock_text(self, at: float) -> str:
        """The clock, after the previous games: made again at each broadcast (its time)."""
        return ',"clock":' + dumps(self._clock_json(at))

    def _end_text(self) -> str:
        """From after the clock to the end of the state."""
        table = self.table
        return "".join(
            (
                ',"result":',
                dumps(table_result_json(table.result)),
                ',"last":',
                dumps(last_json(table.last)),
                f',"tournament":{dumps(_tournament_json(table)["tournament"])}'
                if table.tournament is not None
                else "",
                "}",
            )
        )

    def _clock_json(self, at: float) -> dict[str, Any] | None:
        table = self.table
        if table.clock is None or table.settings.clock is None:
            return None
        return clock_json(table.settings.clock, table.clock, at)

    def _settings(self) -> str:
        """The settings as JSON text, made again only when the table's settings are others."""
        settings = self.table.settings
        made_from, text = self._settings_text
        if made_from is not settings:
            text = dumps(settings.to_json())
            self._settings_text = (settings, text)
        return text

    def _previous_games(self) -> tuple[list[str], str]:
        """``previous_games``: each entry as JSON text, and the whole list's text; made again
        only when a game ends or the series is another (a take-back rebuilds it)."""
        series = self.table.series
        games = series.game_number if series is not None else 0
        made_from, made_games, texts, whole = self._previous_games_texts
        if made_from is not series or made_games != games:
            texts = [dumps(entry) for entry in previous_games_json(self.table)]
            whole = "[" + ",".join(texts) + "]"
            self._previous_games_texts = (series, games, texts, whole)
        return texts, whole

    def previous_games_count(self) -> int:
        """How many finished games ``previous_games`` lists: what a receiver of the current
        state has (``games_delta``)."""
        return len(self._previous_games()[0])

    def log_length(self) -> tuple[int, int]:
        """(game number, events in its log): what a receiver of the current state has."""
        table = self.table
        number = table.game_number
        return number, len(table.logs[number - 1]) if number else 0


def _list_from(texts: list[str], start: int, key: str) -> str:
    """A delta feature's part (docs/PROTOCOL.md 2.2): the list of ``texts`` from ``start`` on,
    then the field ``key`` saying where they go."""
    return "[" + ",".join(texts[start:]) + '],"' + key + '":' + str(start)


def players_json(table: Table, connected: AbstractSet[int]) -> list[dict[str, Any] | None]:
    """Each seat's player, and whether they are connected (the creator alone before the start)."""
    if table.seats is None:
        creator = table.creator
        return [
            {"name": creator.name, "bot": None, "connected": creator.user_id in connected},
            None,
        ]
    return [
        {
            "name": seat.name,
            "bot": seat.bot,
            "connected": seat.bot is not None or seat.user_id in connected,
        }
        for seat in table.seats
    ]


def previous_games_json(table: Table) -> list[dict[str, Any]]:
    """The games finished before the current one, with their revealed seeds."""
    if table.series is None:
        return []
    out = []
    games = table.series.games
    for index, game in enumerate(games):
        if not game.is_over or index == len(games) - 1:
            continue
        fair = table.game_dice[index]
        out.append(
            {
                "number": index + 1,
                "result": result_json(game.result),
                "commitment": fair.commitment,
                "seed": fair.seed_hex,
            }
        )
    return out


def summary_json(table: Table, spectators: int = 0) -> dict[str, Any]:
    """The table's lobby entry (docs/PROTOCOL.md 1.3)."""
    players: list[str | None] = (
        [seat.name for seat in table.seats]
        if table.seats is not None
        else [table.creator.name, None]
    )
    score = (
        list(table.result.score)
        if table.result
        else list(table.series.score)
        if table.series is not None
        else [0, 0]
    )
    return {
        "id": table.id,
        "status": table.status.value,
        "created_by": table.creator.name,
        "players": players,
        "settings": table.settings.to_json(),
        "invite": table.settings.invite,
        "bot": table.settings.bot,
        "score": list(score),
        "spectators": spectators,
        "created_ms": math.floor(table.created * 1000),
    }


def game_record(table: Table, number: int) -> dict[str, Any]:
    """Game ``number``'s fair-dice record (R13); only once that game is over."""
    if table.series is None or not 1 <= number <= table.game_number:
        missing = Message("table {table} has no game {number}", table=table.id, number=number)
        raise Refused("no_such_game", missing)
    game = table.series.games[number - 1]
    if not game.is_over:
        raise Refused(
            "game_not_over",
            Message("game {number} is still being played: its seed is secret", number=number),
        )
    return table.game_dice[number - 1].record(
        game={
            "number": number,
            "result": result_json(game.result),
            "players": table.names,
            "log": table.logs[number - 1],
        },
        table=table.id,
    )


def table_record(table: Table) -> dict[str, Any]:
    """Every finished game's record (docs/PROTOCOL.md 5)."""
    games = []
    if table.series is not None:
        games = [
            game_record(table, number)
            for number, game in enumerate(table.series.games, 1)
            if game.is_over
        ]
    return {
        "format": "gammon-table-record/1",
        "table": table.id,
        "settings": table.settings.to_json(),
        "players": table.names if table.seats else [table.creator.name, None],
        "status": table.status.value,
        "result": table_result_json(table.result),
        "games": games,
    }


def _tournament_json(table: Table) -> dict[str, Any]:
    """``{"tournament": {"id", "match"}}`` for a tournament's match, else nothing: the
    field is there only when it says something (docs/PROTOCOL.md 3)."""
    if table.tournament is None:
        return {}
    tournament, match = table.tournament
    return {"tournament": {"id": tournament, "match": match}}
