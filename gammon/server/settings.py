"""A table's settings: the series' rules (the rules library's) plus what only a table has.

:class:`TableSettings` holds a :class:`~gammon.match.SeriesRules` (match
length or money, variant, cube, every series option, each checked by the rules
library) and the table's own settings: the clock, an invited player, a bot.
:meth:`TableSettings.from_json` reads what a client sends (docs/PROTOCOL.md
1.3) and refuses what is wrong with ``Refused("bad_settings", ...)``, naming
the field and saying in words what would do; :meth:`TableSettings.to_json`
writes the settings back in the same form.

The JSON names of the series' settings are :class:`SeriesRules`' own field
names (only ``gammons`` is not offered: every table counts gammons), plus
``mode`` (``"match"`` or ``"money"``, since ``length`` 0 is no match length a
player would type). Besides the rules library's checks the server keeps its
own limits (a match of at most 64 points, a cube of at most 64, 1000 games,
stakes of 10000), which fit its players and its database.

>>> settings = TableSettings.from_json({"mode": "money", "beavers": True})
>>> settings.rules
SeriesRules(length=0, beavers=True)
>>> TableSettings.from_json({"length": 0})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gammon.server.protocol.Refused: bad_settings: The match length (points) must be a whole ...
>>> TableSettings.from_json({"variant": "tavla", "length": None}).rules.cube
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from gammon.errors import InvalidRulesError, UnknownVariantError
from gammon.i18n import N_
from gammon.match import SeriesRules
from gammon.messages import Message
from gammon.rules import is_whole
from gammon.server.bodies import first_unknown
from gammon.server.names import BadName, read_name
from gammon.server.protocol import Refused, shown
from gammon.variants import VARIANTS

__all__ = ["ClockSettings", "TableSettings", "settings_from_row", "variant_names"]

#: The settings a new table gets when the client leaves them out: a 3-point match.
DEFAULT_RULES: Final = SeriesRules(length=3)
#: The series' settings a client may send, by their JSON (and SeriesRules) names.
SERIES_SETTINGS: Final = tuple(
    field.name for field in dataclasses.fields(SeriesRules) if field.name != "gammons"
)
_TABLE_SETTINGS: Final = ("clock", "invite", "bot", "rated", "practice")
_SETTINGS: Final = ("mode", *SERIES_SETTINGS, *_TABLE_SETTINGS)

#: The server's own limits on the whole-number settings (the rules allow more).
_LIMITS: Final = {
    "length": (1, 64),
    "max_cube": (2, 64),
    "auto_doubles": (0, 6),
    "max_games": (1, 1000),
    "stakes": (1, 10000),
}
_CLOCK_LIMITS: Final = {"base_s": (1, 36000), "delay_s": (0, 120), "increment_s": (0, 120)}

#: Each setting in the players' words, for error messages (the field name goes alongside):
#: the subject that starts the message, ``{setting}``.
_LABELS: Final = {
    "mode": N_("The mode"),
    "length": N_("The match length (points)"),
    "variant": N_("The variant"),
    "cube": N_("The doubling cube"),
    "max_cube": N_("The highest cube value"),
    "crawford": N_("The Crawford rule"),
    "jacoby": N_("The Jacoby rule"),
    "beavers": N_("Beavers"),
    "auto_doubles": N_("The number of automatic doubles"),
    "max_games": N_("The number of games in the session"),
    "stakes": N_("The stakes (each side's bankroll, in points)"),
    "clock": N_("The clock"),
    "clock.base_s": N_("The clock's reserve (seconds)"),
    "clock.delay_s": N_("The clock's delay (seconds)"),
    "clock.increment_s": N_("The clock's increment (seconds)"),
    "invite": N_("The invited player"),
    "bot": N_("The bot level"),
    "rated": N_("Rated"),
    "practice": N_("Practice (hints and the tutor for both players)"),
}


def _bad(name: str, template: str, **values: object) -> Refused:
    """A refused setting: the message in words (``template``, marked with ``N_``, starts
    with the setting's ``{setting}``), ``name`` (the JSON field) for programs."""
    label = Message(_LABELS[name]) if name in _LABELS else Message.plain(repr(name))
    return Refused("bad_settings", Message(template, setting=label, **values), field=name)


class _Sentence(Message):
    """A message of the rules library written as a sentence of its own: its first letter a
    capital, in every language."""

    __slots__ = ()

    def translated(self, lang: str) -> str:
        text = super().translated(lang)
        return f"{text[:1].upper()}{text[1:]}"


def _whole(name: str, value: object, low: int, high: int) -> None:
    if not (is_whole(value) and low <= value <= high):  # type: ignore[operator]
        raise _bad(
            name,
            N_("{setting} must be a whole number from {low} to {high}, not {value}"),
            low=low,
            high=high,
            value=shown(value),
        )


@dataclass(frozen=True)
class ClockSettings:
    """A reserve for the whole match plus a simple delay and an increment per action (R13)."""

    base_s: int
    delay_s: int = 0
    increment_s: int = 0

    def to_json(self) -> dict[str, int]:
        return {"base_s": self.base_s, "delay_s": self.delay_s, "increment_s": self.increment_s}

    @classmethod
    def from_json(cls, data: object) -> ClockSettings:
        """Read ``{"base_s": ..., "delay_s": ..., "increment_s": ...}`` (the last two optional)."""
        if not isinstance(data, Mapping):
            raise _bad(
                "clock",
                N_("{setting} must be left out (no clock) or {shape}"),
                shape='{"base_s": ..., "delay_s": ..., "increment_s": ...}',
            )
        unknown = first_unknown(data, _CLOCK_LIMITS)
        if unknown is not None:
            raise _bad(
                "clock",
                N_(
                    "{setting} has no field {field}: its fields are base_s, delay_s and increment_s"
                ),
                field=shown(unknown),
            )
        values = {"delay_s": 0, "increment_s": 0}
        values.update({k: v for k, v in data.items() if v is not None})
        if values.get("base_s") is None:
            raise _bad(
                "clock.base_s",
                N_("{setting} must be given: each side's reserve for the match, in seconds"),
            )
        for name, (low, high) in _CLOCK_LIMITS.items():
            _whole(f"clock.{name}", values[name], low, high)
        return cls(values["base_s"], values["delay_s"], values["increment_s"])


@dataclass(frozen=True)
class TableSettings:
    """What the creator chose (docs/PROTOCOL.md 1.3): the series' rules and the table's own."""

    rules: SeriesRules = DEFAULT_RULES
    clock: ClockSettings | None = None
    invite: str | None = None
    bot: str | None = None
    #: Whether the match changes the players' ratings (when it can: gammon.server.ratings).
    rated: bool = True
    #: Both players agree to practise: hints and the tutor for either (gammon.server.practice).
    #: Creating the table asks for it; joining it agrees. Always on against the bot.
    practice: bool = False

    @property
    def is_match(self) -> bool:
        return self.rules.is_match

    @classmethod
    def from_json(cls, data: object, *, bot_levels: Sequence[str] | None = None) -> TableSettings:
        """Read a client's settings; raise ``Refused("bad_settings", ...)`` naming the field.

        A setting given as ``null`` is the same as one left out: it takes its
        default (docs/PROTOCOL.md 1.3). The cube's default depends on the
        variant: tavla is played without it, so ``"cube": true`` with tavla is
        refused and a tavla table left to the default has no cube. ``bot_levels``
        are the bots this server has (none when left out).
        """
        return _read(data, bot_levels=bot_levels or ())

    def to_json(self) -> dict[str, Any]:
        rules = self.rules
        series: dict[str, Any] = {name: getattr(rules, name) for name in SERIES_SETTINGS}
        series.update(
            length=rules.length or None,
            variant=rules.variant.name,
            # Table stakes are the same for both sides at a table: one number.
            stakes=rules.stakes[0] if rules.stakes is not None else None,
        )
        return {
            "mode": "match" if rules.is_match else "money",
            **series,
            "clock": self.clock.to_json() if self.clock else None,
            "invite": self.invite,
            "bot": self.bot,
            "rated": self.rated,
            "practice": self.practice,
        }


def settings_from_row(data: Mapping[str, Any]) -> TableSettings:
    """Settings as stored (they were checked when the table was made): the bot level is kept
    whether or not this server has that bot now."""
    return _read(data, bot_levels=None)


def variant_names() -> list[str]:
    return [variant.name for variant in VARIANTS]


def _read(data: object, *, bot_levels: Sequence[str] | None) -> TableSettings:
    """:meth:`TableSettings.from_json`; ``bot_levels`` None takes any bot level (stored rows)."""
    if not isinstance(data, Mapping):
        raise Refused("bad_settings", Message("the settings must be a JSON object"))
    _check_names(data)
    given = {k: v for k, v in data.items() if v is not None}
    mode = given.pop("mode", "match")
    if mode not in ("match", "money"):
        raise _bad(
            "mode", N_('{setting} must be "match" or "money", not {value}'), value=shown(mode)
        )
    series = {name: given[name] for name in SERIES_SETTINGS if name in given}
    _check_json_types(series)
    series["length"] = series.get("length", DEFAULT_RULES.length) if mode == "match" else 0
    rules = _series_rules(series, mode)
    clock = given.get("clock")
    invite, bot = given.get("invite"), given.get("bot")
    _check_opponent(invite, bot, bot_levels)
    rated = _switch(
        given, "rated", True, N_("{setting} must be true (ratings count it) or false, not {value}")
    )
    practice = _switch(
        given, "practice", False, N_("{setting} must be true (on) or false (off), not {value}")
    )
    return TableSettings(
        rules,
        ClockSettings.from_json(clock) if clock is not None else None,
        invite,
        bot,
        rated,
        practice,
    )


def _check_names(data: Mapping[Any, Any]) -> None:
    """Each setting given is one there is."""
    unknown = first_unknown(data, _SETTINGS)
    if unknown is not None:
        raise Refused(
            "bad_settings",
            Message(
                "there is no setting called {name}; the settings are: {settings}",
                name=shown(unknown),
                settings=", ".join(_SETTINGS),
            ),
            field=unknown[:64],
        )


def _check_opponent(invite: object, bot: object, bot_levels: Sequence[str] | None) -> None:
    """The invited player is a name, the bot one of this server's levels, and not both."""
    if invite is not None:
        try:
            read_name(invite, low=1, high=40)  # an account's name: the rule of every name
        except BadName as exc:
            raise _bad(
                "invite", N_("{setting} must be a user's name, which {why}"), why=exc.text
            ) from None
    if bot is None:
        return
    if bot_levels is not None and (not isinstance(bot, str) or bot not in bot_levels):
        if bot_levels:
            raise _bad(
                "bot",
                N_("{setting} must be one of {levels}, not {value}"),
                levels=", ".join(bot_levels),
                value=shown(bot),
            )
        raise _bad(
            "bot",
            N_("{setting} must be unset: this server has no bots, not {value}"),
            value=shown(bot),
        )
    if invite is not None:
        raise Refused(
            "bad_settings",
            Message(
                "a table against the bot cannot invite a player too: "
                'set "invite" or "bot", not both'
            ),
            field="invite",
        )


def _switch(given: Mapping[str, Any], name: str, default: bool, wrong: str) -> bool:
    """The switch ``name`` (true or false), or ``wrong`` refused with its value."""
    value = given.get(name, default)
    if not isinstance(value, bool):
        raise _bad(name, wrong, value=shown(value))
    return value


def _check_json_types(series: Mapping[str, Any]) -> None:
    """Each series setting has its JSON type (a switch is true or false, a count a whole
    number within the server's limits, a variant a name) before the rules see it."""
    for name, value in series.items():
        default = getattr(DEFAULT_RULES, name)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise _bad(
                    name,
                    N_("{setting} must be true (on) or false (off), not {value}"),
                    value=shown(value),
                )
        elif name in _LIMITS:
            _whole(name, value, *_LIMITS[name])
        elif name == "variant" and not isinstance(value, str):
            raise _bad(
                "variant",
                N_("{setting} must be a variant's name, not {value}"),
                value=shown(value),
            )


def _series_rules(series: dict[str, Any], mode: str) -> SeriesRules:
    """The rules library's SeriesRules, its refusals put in the players' words."""
    try:
        rules = SeriesRules(**series)
    except UnknownVariantError:
        raise _bad(
            "variant",
            N_("{setting} must be one of {names}, not {value}"),
            names=", ".join(variant_names()),
            value=shown(series.get("variant")),
        ) from None
    except InvalidRulesError as exc:
        raise _rules_refused(exc, series, mode) from None
    if not rules.variant.cube and rules.cube:
        # R14: a variant without the cube is played without it; asking for it is refused
        # rather than quietly turned off.
        if series.get("cube") is True:
            raise _bad(
                "cube",
                N_(
                    "{setting} is not used in {variant}: {variant} is played without it "
                    '(leave "cube" out or set it to false)'
                ),
                variant=rules.variant.name,
            )
        rules = dataclasses.replace(rules, cube=False)
    return rules


def _rules_refused(exc: InvalidRulesError, series: Mapping[str, Any], mode: str) -> Refused:
    name = exc.setting
    if name == "max_cube":
        return _bad(
            name,
            N_("{setting} must be 2, 4, 8, 16, 32 or 64, not {value}"),
            value=shown(series.get(name)),
        )
    if mode == "match" and series.get(name):
        # A money-play option in a match: say how to get it.
        if name == "beavers":
            return _bad(
                name,
                N_(
                    "{setting} are for money play only, "
                    'not for a match (set "mode" to "money", or leave it out)'
                ),
            )
        return _bad(
            name,
            N_(
                "{setting} is for money play only, "
                'not for a match (set "mode" to "money", or leave it out)'
            ),
        )
    # What the checks above leave to the rules library: its words, as a sentence.
    why = exc.text
    if why == Message.plain(why.template):  # words as they are: a capital, in English
        sentence = Message.plain(f"{why.template[:1].upper()}{why.template[1:]}")
    else:
        sentence = _Sentence(why.template, **why.values)
    return Refused("bad_settings", sentence, field=name)
