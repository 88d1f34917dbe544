"""What a tournament's organiser chooses, checked field by field on input.

>>> s = TournamentSettings.from_json({"name": "Friday 8", "kind": "sit_and_go", "seats": 8})
>>> s.seats, s.lengths, s.clock_json()["base_s"]
(8, (3,), 600)
>>> s.length_of_round(3)
3
>>> TournamentSettings.from_json({"name": "x", "kind": "sit_and_go", "seats": 6})
Traceback (most recent call last):
...
gammon.server.tournaments.errors.TournamentError: bad_settings: The number of seats of a Sit & Go \
must be 2, 4, 8 or 16, not 6
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

from gammon.i18n import N_
from gammon.messages import Message
from gammon.server.bodies import first_unknown
from gammon.server.names import BadName, read_name
from gammon.server.protocol import Refused, shown
from gammon.server.settings import TableSettings
from gammon.server.tournaments.errors import TournamentError

__all__ = ["KINDS", "SIT_AND_GO_SEATS", "Satellite", "TournamentSettings"]

KINDS: Final = ("scheduled", "sit_and_go")
SIT_AND_GO_SEATS: Final = (2, 4, 8, 16)
#: The most players a scheduled tournament may take (a bracket of 256, eight rounds).
MAX_PLAYERS: Final = 256
#: A tournament's matches are always played on a clock: without one a player who walks
#: away would hold up the whole bracket. This is the clock when the organiser names none.
DEFAULT_CLOCK: Final = {"base_s": 600, "delay_s": 12, "increment_s": 0}

_FIELDS: Final = (
    "name",
    "kind",
    "seats",
    "min_players",
    "start_at",
    "registration_opens_at",
    "lengths",
    "table",
    "show_up_s",
    "bots",
    "bots_after_s",
    "rated",
    "satellite",
)
#: What a tournament table may set besides the length (which comes from ``lengths``).
_TABLE_FIELDS: Final = ("variant", "cube", "max_cube", "crawford", "clock")
#: The satellite's shape, as a program writes it (the same in every language).
_SATELLITE: Final = '{"target": <tournament id>, "seats": 1, 2, 4 or 8}'

#: Each setting's name as a refusal starts with it (capitalised: the sentence's start).
_LABELS: Final = {
    "name": N_("The name"),
    "kind": N_("The kind"),
    "seats": N_("The number of seats"),
    "min_players": N_("The smallest field"),
    "start_at": N_("The start time"),
    "registration_opens_at": N_("The time registration opens"),
    "lengths": N_("The match lengths"),
    "table": N_("The table settings"),
    "show_up_s": N_("The time to come to a match (seconds)"),
    "bots": N_("The bot level"),
    "bots_after_s": N_("The wait before bots fill the seats (seconds)"),
    "rated": N_("Rated"),
    "satellite": N_("The satellite prize"),
    "satellite.target": N_("The satellite's target tournament"),
    "satellite.seats": N_("The number of seats the satellite wins"),
}


def _bad(name: str, rule: Message) -> TournamentError:
    """The setting ``name`` refused: its label, then what it must be (``rule``)."""
    label = Message(_LABELS[name]) if name in _LABELS else Message.plain(repr(name))
    return TournamentError(
        "bad_settings", Message("{setting} {rule}", setting=label, rule=rule), field=name
    )


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_time(value: object) -> bool:
    return (_is_int(value) or isinstance(value, float)) and 0 <= value < 1e11


@dataclass(frozen=True)
class Satellite:
    """The prize of a satellite: seats in a later tournament for its top ``seats`` players."""

    target: int
    seats: int = 1

    def to_json(self) -> dict[str, int]:
        return {"target": self.target, "seats": self.seats}


@dataclass(frozen=True)
class TournamentSettings:
    """A tournament's posted rules (R13: each tournament posts its own rules).

    ``seats`` is the field of a Sit & Go (it starts when they are all taken) and the
    most players a scheduled tournament takes; ``lengths[r - 1]`` is the match length of
    round ``r``, the last one repeating; ``table`` holds the matches' other settings
    (variant, cube, Crawford, clock) in the table settings' own words.
    """

    name: str
    kind: str
    seats: int
    lengths: tuple[int, ...] = (3,)
    min_players: int = 2
    start_at: float | None = None
    registration_opens_at: float | None = None
    table: Mapping[str, Any] = field(default_factory=dict)
    show_up_s: int = 300
    bots: str | None = None
    bots_after_s: int | None = None
    rated: bool = True
    satellite: Satellite | None = None

    @classmethod
    def from_json(cls, data: object, *, bot_levels: Sequence[str] = ()) -> TournamentSettings:
        """Read an organiser's settings; raise :class:`TournamentError` naming the field.

        The fields are read in a fixed order, each by a reader of its own, since later
        ones depend on earlier ones (a Sit & Go's seats, its field, its start); the first
        refused is the one named.
        """
        values = _known_values(data)
        name = _read_name(values)
        kind = _read_kind(values)
        sit_and_go = kind == "sit_and_go"
        seats = _read_seats(values, sit_and_go)
        min_players = _read_min_players(values, seats, sit_and_go)
        start_at, opens = _read_times(values, sit_and_go)
        lengths = _read_lengths(values)
        table = _table_settings(values.get("table", {}), lengths, bot_levels)
        show_up_s = _read_show_up_s(values)
        bots, bots_after_s = _read_bots(values, sit_and_go, bot_levels)
        rated = values.get("rated", True)
        if not isinstance(rated, bool):
            raise _bad("rated", Message("must be true or false, not {value}", value=shown(rated)))
        satellite = _satellite(values.get("satellite"), seats)
        return cls(
            name=name,
            kind=kind,
            seats=seats,
            lengths=tuple(lengths),
            min_players=min_players,
            start_at=float(start_at) if start_at is not None else None,
            registration_opens_at=float(opens) if opens is not None else None,
            table=table,
            show_up_s=show_up_s,
            bots=bots,
            bots_after_s=bots_after_s,
            rated=rated,
            satellite=satellite,
        )

    @classmethod
    def from_row(cls, data: Mapping[str, Any]) -> TournamentSettings:
        """Settings as stored (already checked once when created)."""
        values = dict(data)
        satellite = values.pop("satellite", None)
        return cls(
            **{
                k: v
                for k, v in values.items()
                if k in _FIELDS and k not in ("lengths", "satellite")
            },
            lengths=tuple(values.get("lengths") or (3,)),
            satellite=Satellite(**satellite) if satellite else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "seats": self.seats,
            "min_players": self.min_players,
            "start_at": self.start_at,
            "registration_opens_at": self.registration_opens_at,
            "lengths": list(self.lengths),
            "table": dict(self.table),
            "show_up_s": self.show_up_s,
            "bots": self.bots,
            "bots_after_s": self.bots_after_s,
            "rated": self.rated,
            "satellite": self.satellite.to_json() if self.satellite else None,
        }

    def length_of_round(self, round_number: int) -> int:
        """The match length of round ``round_number`` (from 1)."""
        return self.lengths[min(round_number, len(self.lengths)) - 1]

    def clock_json(self) -> dict[str, int]:
        clock: dict[str, int] = self.table["clock"]
        return clock

    def table_json(self, round_number: int) -> dict[str, Any]:
        """The settings of a table of round ``round_number``, as a table reads them."""
        return {**self.table, "mode": "match", "length": self.length_of_round(round_number)}


def _known_values(data: object) -> dict[Any, Any]:
    """The settings given (a null is a setting left out), once each name is known."""
    if not isinstance(data, Mapping):
        raise TournamentError("bad_settings", Message("the settings must be a JSON object"))
    unknown = first_unknown(data, _FIELDS)
    if unknown is not None:
        raise TournamentError(
            "bad_settings",
            Message(
                "there is no tournament setting called {name}; the settings are: {known}",
                name=shown(unknown),
                known=", ".join(_FIELDS),
            ),
            field=unknown[:64],
        )
    return {k: v for k, v in data.items() if v is not None}


def _read_name(values: Mapping[str, Any]) -> str:
    if "name" not in values:
        raise _bad("name", Message("must be given, 1 to 60 characters"))
    try:
        return read_name(values["name"], low=1, high=60)  # the rule of every name
    except BadName as exc:
        raise _bad("name", exc.text) from None


def _read_kind(values: Mapping[str, Any]) -> str:
    kind = values.get("kind", "sit_and_go")
    if kind not in KINDS:
        raise _bad(
            "kind",
            Message('must be "scheduled" or "sit_and_go", not {value}', value=shown(kind)),
        )
    return str(kind)


def _read_seats(values: Mapping[str, Any], sit_and_go: bool) -> int:
    seats = values.get("seats", 8 if sit_and_go else 64)
    if sit_and_go and seats not in SIT_AND_GO_SEATS:
        raise _bad(
            "seats",
            Message("of a Sit & Go must be 2, 4, 8 or 16, not {value}", value=shown(seats)),
        )
    if not (_is_int(seats) and 2 <= seats <= MAX_PLAYERS):
        raise _bad(
            "seats",
            Message(
                "must be a whole number from 2 to {most}, not {value}",
                most=MAX_PLAYERS,
                value=shown(seats),
            ),
        )
    return seats


def _read_min_players(values: Mapping[str, Any], seats: int, sit_and_go: bool) -> int:
    min_players = values.get("min_players", seats if sit_and_go else 2)
    if not (_is_int(min_players) and 2 <= min_players <= seats):
        raise _bad(
            "min_players",
            Message(
                "must be a whole number from 2 to {most}, not {value}",
                most=seats,
                value=shown(min_players),
            ),
        )
    if sit_and_go and min_players != seats:
        raise _bad("min_players", Message("is the number of seats in a Sit & Go: leave it out"))
    return min_players


def _read_times(values: Mapping[str, Any], sit_and_go: bool) -> tuple[Any, Any]:
    """The start time and the time registration opens, as given (checked, not converted)."""
    start_at, opens = values.get("start_at"), values.get("registration_opens_at")
    if sit_and_go:
        if start_at is not None:
            raise _bad(
                "start_at",
                Message("is for scheduled tournaments: a Sit & Go starts when its seats are full"),
            )
    elif not _is_time(start_at):
        raise _bad("start_at", Message("must be given: seconds since 1970 (UTC)"))
    if opens is not None:
        if not _is_time(opens):
            raise _bad("registration_opens_at", Message("must be seconds since 1970 (UTC)"))
        if start_at is not None and opens >= start_at:
            raise _bad("registration_opens_at", Message("must come before the start time"))
    return start_at, opens


def _read_lengths(values: Mapping[str, Any]) -> list[int]:
    lengths = values.get("lengths", [3])
    if _is_int(lengths):
        lengths = [lengths]
    if not (
        isinstance(lengths, list)
        and 1 <= len(lengths) <= 8
        and all(_is_int(n) and 1 <= n <= 25 for n in lengths)
    ):
        raise _bad(
            "lengths",
            Message(
                "must be a list of 1 to 8 whole numbers from 1 to 25 (points, one per round, "
                "the last repeating), not {value}",
                value=shown(lengths),
            ),
        )
    return lengths


def _read_show_up_s(values: Mapping[str, Any]) -> int:
    show_up_s = values.get("show_up_s", 300)
    if not (_is_int(show_up_s) and 10 <= show_up_s <= 3600):
        raise _bad(
            "show_up_s",
            Message("must be a whole number from 10 to 3600, not {value}", value=shown(show_up_s)),
        )
    return show_up_s


def _read_bots(
    values: Mapping[str, Any], sit_and_go: bool, bot_levels: Sequence[str]
) -> tuple[str | None, int | None]:
    """The bots' level and how long the seats wait for them (120 s when a level is given)."""
    bots, bots_after_s = values.get("bots"), values.get("bots_after_s")
    if bots is not None:
        if not sit_and_go:
            raise _bad("bots", Message("can fill the seats of a Sit & Go only"))
        if bots not in bot_levels:
            known = (
                Message("one of {levels}", levels=", ".join(bot_levels))
                if bot_levels
                else Message("unset: this server has no bots")
            )
            raise _bad(
                "bots", Message("must be {known}, not {value}", known=known, value=shown(bots))
            )
        if bots_after_s is None:
            bots_after_s = 120
    if bots_after_s is not None:
        if bots is None:
            raise _bad(
                "bots_after_s",
                Message('needs "bots", the level of the bots that fill the seats'),
            )
        if not (_is_int(bots_after_s) and 0 <= bots_after_s <= 86400):
            raise _bad(
                "bots_after_s",
                Message(
                    "must be a whole number from 0 to 86400, not {value}",
                    value=shown(bots_after_s),
                ),
            )
    return bots, bots_after_s


def _table_settings(
    data: object, lengths: Sequence[int], bot_levels: Sequence[str]
) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise _bad(
            "table", Message("must be a JSON object: variant, cube, max_cube, crawford, clock")
        )
    unknown = first_unknown(data, _TABLE_FIELDS)
    if unknown is not None:
        raise _bad(
            "table",
            Message(
                "cannot set {name} for a tournament's matches: "
                'they take {known} (the length comes from "lengths")',
                name=shown(unknown),
                known=", ".join(_TABLE_FIELDS),
            ),
        )
    chosen = {k: v for k, v in data.items() if v is not None}
    chosen.setdefault("clock", dict(DEFAULT_CLOCK))
    try:
        checked = TableSettings.from_json(
            {**chosen, "mode": "match", "length": max(lengths)}, bot_levels=bot_levels
        )
    except Refused as exc:
        raise TournamentError(exc.code, exc.text, field=f"table.{exc.field}") from None
    full = checked.to_json()
    return {name: full[name] for name in _TABLE_FIELDS}


def _satellite(data: object, seats: int) -> Satellite | None:
    if data is None:
        return None
    if not isinstance(data, Mapping) or set(data) - {"target", "seats"}:
        raise _bad("satellite", Message("must be {shape}", shape=_SATELLITE))
    target, won = data.get("target"), data.get("seats", 1)
    if not (_is_int(target) and target >= 1):
        raise _bad(
            "satellite.target",
            Message("must be a tournament's number, not {value}", value=shown(target)),
        )
    if won not in (1, 2, 4, 8) or not _is_int(won) or won >= seats:
        raise _bad(
            "satellite.seats",
            Message(
                "must be 1, 2, 4 or 8 and fewer than the seats ({seats}), not {value}: "
                "the winner, the finalists, the semi-finalists or the quarter-finalists qualify",
                seats=seats,
                value=shown(won),
            ),
        )
    return Satellite(target, won)
