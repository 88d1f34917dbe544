"""The head tags of a .mat file read into what the replay needs: the series' rules,
and what the rows cannot hold (tied opening throws, resignations, forfeits).
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from gammon.dice import Dice
from gammon.errors import GammonError, InvalidRulesError, MatFileError
from gammon.match import SeriesRules
from gammon.matfile.record import (
    CLOSED_BOARD_TAG,
    DEFAULT_MAX_CUBE,
    FORFEIT_TAG,
    OPENING_TIES_TAG,
    RESIGNATIONS_TAG,
    RULE_TAGS,
    ParsedMatch,
    TurnKind,
    read_rule,
)
from gammon.variants import Variant, find_variant

__all__ = [
    "Offer",
    "file_rules",
    "forfeited_games",
    "head_ties",
    "offers_by_game",
    "unrolled_passes",
]


def head_ties(parsed: ParsedMatch) -> dict[int, tuple[Dice, ...]]:
    """The OpeningTies head tag: game number -> its tied opening throws (R3)."""
    found: dict[int, tuple[Dice, ...]] = {}
    for tag in parsed.tags:
        if tag.key != OPENING_TIES_TAG:
            continue
        for item in filter(None, (part.strip() for part in tag.value.split(";"))):
            match = re.fullmatch(r"(\d+)\s*:\s*((?:[1-6]{2}\s*)+)", item)
            if match is None or any(w[0] != w[1] for w in match[2].split()):
                raise MatFileError(
                    f"line {tag.line}: the OpeningTies tag lists games and their tied "
                    f'opening throws, like "2: 33 11; 5: 44", not {item!r}'
                )
            found[int(match[1])] = tuple((int(w[0]), int(w[1])) for w in match[2].split())
    return found


def unrolled_passes(parsed: ParsedMatch) -> dict[int, frozenset[int]]:
    """The ClosedBoard head tag: game number -> the places in its history of the turns passed
    on the bar against a closed board without a roll (R7), whose rows show a stand-in roll."""
    found: dict[int, frozenset[int]] = {}
    for tag in parsed.tags:
        if tag.key != CLOSED_BOARD_TAG:
            continue
        for item in filter(None, (part.strip() for part in tag.value.split(";"))):
            match = re.fullmatch(r"(\d+)\s*:\s*((?:\d+\s*)+)", item)
            if match is None:
                raise MatFileError(
                    f"line {tag.line}: the ClosedBoard tag lists games and the places of their "
                    f'turns passed without a roll, like "1: 40 52; 3: 17", not {item!r}'
                )
            found[int(match[1])] = frozenset(int(word) for word in match[2].split())
    return found


class Offer(NamedTuple):
    event: int
    side: int
    value: int
    outcome: str
    line: int


_OFFER: Final = re.compile(
    r"game\s+(\d+)\s+event\s+(\d+)\s*:\s*side\s+([01])\s+resigns\s+([123])"
    r"(?:\s*,\s*(rejected|accepted))?",
    re.IGNORECASE,
)


def offers_by_game(parsed: ParsedMatch) -> dict[int, list[Offer]]:
    """The Resignations head tag: game number -> its offers, in the order they were made."""
    found: dict[int, list[Offer]] = {}
    for tag in parsed.tags:
        if tag.key != RESIGNATIONS_TAG:
            continue
        for item in filter(None, (part.strip() for part in tag.value.split(";"))):
            match = _OFFER.fullmatch(item)
            if match is None:
                raise MatFileError(
                    f"line {tag.line}: the Resignations tag lists offers like "
                    f'"game 1 event 9: side 1 resigns 2, rejected", not {item!r}'
                )
            found.setdefault(int(match[1]), []).append(
                Offer(
                    int(match[2]),
                    int(match[3]),
                    int(match[4]),
                    (match[5] or "pending").lower(),
                    tag.line,
                )
            )
    for listed in found.values():
        listed.sort(key=lambda offer: offer.event)
    return found


def forfeited_games(parsed: ParsedMatch) -> dict[int, bool]:
    """Games ended by a forfeit (the Forfeit tag): number -> whether on time."""
    found: dict[int, bool] = {}
    for tag in parsed.tags:
        if tag.key != FORFEIT_TAG:
            continue
        match = re.fullmatch(r"Game (\d+)( on time)?", tag.value.strip())
        if match is None:
            raise MatFileError(
                f'line {tag.line}: the Forfeit tag is "Game N" or "Game N on time", '
                f"not {tag.value!r}"
            )
        found[int(match[1])] = match[2] is not None
    return found


def file_rules(
    parsed: ParsedMatch, variant: str | Variant | None, *, jacoby: bool = False
) -> SeriesRules:
    """The rules of the file's tags; ``jacoby`` turns the Jacoby rule on where no tag says."""
    values = _tag_values(parsed, jacoby)
    chosen = _chosen_variant(values.get("Variation"), variant)

    def flag(key: str, default: bool) -> bool:
        value = values.get(key, default)
        return value if isinstance(value, bool) else default

    def number(key: str, default: int) -> int:
        value = values.get(key, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    stakes = values.get("Stakes")
    max_games = values.get("MaxGames")
    cube_limit = number("CubeLimit", DEFAULT_MAX_CUBE)
    try:
        return SeriesRules(
            length=0 if parsed.is_money else parsed.length,
            variant=chosen if isinstance(chosen, Variant) else "standard",
            crawford=flag("Crawford", True),
            cube=cube_limit > 1,
            max_cube=cube_limit if cube_limit > 1 else DEFAULT_MAX_CUBE,
            gammons=flag("Gammons", True),
            jacoby=flag("Jacoby", False),
            beavers=flag("Beaver", False),
            auto_doubles=number("AutoDoubles", 0),
            stakes=stakes if isinstance(stakes, tuple) else None,
            max_games=max_games if isinstance(max_games, int) else None,
        )
    except InvalidRulesError as exc:
        key = _SETTING_TAGS.get(exc.setting, exc.setting)
        if not parsed.is_money and exc.setting in _MONEY_ONLY:
            raise MatFileError(
                f"the {key} tag is for money sessions, not a {parsed.length}-point match"
            ) from exc
        raise MatFileError(f"the file's rules cannot be played: the {key} tag: {exc}") from exc


def _tag_values(parsed: ParsedMatch, jacoby: bool) -> dict[str, object]:
    """Each rule tag's value by its key; for money, beavers where the games have one and
    the Jacoby rule where ``jacoby`` asks and no tag says."""
    values: dict[str, object] = {}
    for tag in parsed.tags:
        if tag.key in RULE_TAGS:
            try:
                values[tag.key] = read_rule(tag.key, tag.value)
            except MatFileError as exc:
                raise MatFileError(f"line {tag.line}: {exc}") from exc
    if parsed.is_money:
        # GNU Backgammon writes no Beaver tag: a beaver in the games says they were allowed.
        if "Beaver" not in values and any(
            turn.kind is TurnKind.BEAVER for game in parsed.games for turn in game.turns
        ):
            values["Beaver"] = True
        if jacoby:
            values.setdefault("Jacoby", True)
    return values


def _chosen_variant(chosen: object, variant: str | Variant | None) -> object:
    """The variant asked for, which must be the Variation tag's if there is one; else the
    tag's value (None without one)."""
    if variant is None:
        return chosen
    try:
        wanted = find_variant(variant)
    except GammonError as exc:
        raise MatFileError(str(exc)) from exc
    if isinstance(chosen, Variant) and chosen != wanted:
        raise MatFileError(f"the file is a {chosen.name} file (Variation tag), not {wanted.name}")
    return wanted


_MONEY_ONLY: Final = frozenset({"jacoby", "beavers", "auto_doubles", "stakes", "max_games"})


#: The .mat rule tag of each series setting, to name it in errors.
_SETTING_TAGS: Final = {
    "variant": "Variation",
    "crawford": "Crawford",
    "max_cube": "CubeLimit",
    "gammons": "Gammons",
    "jacoby": "Jacoby",
    "beavers": "Beaver",
    "auto_doubles": "AutoDoubles",
    "stakes": "Stakes",
    "max_games": "MaxGames",
}
