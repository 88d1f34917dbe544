"""Tournaments: knockouts scheduled or Sit & Go, and satellites, on top of the tables' API.

Like lichess's tournament module, a tournament is its own concept with its own state,
pairing and standings; its matches are ordinary tables that the server creates when a
match is ready, and their results come back as actions. ``bracket`` draws the bracket
by lot (R13) with byes; ``settings`` reads what the organiser chose; ``state`` is the
tournament as a state machine over actions, rebuilt exactly from its log.
"""

from __future__ import annotations

from gammon.server.tournaments.bracket import (
    bracket_size,
    draw,
    round_count,
    round_name,
    seed_order,
)
from gammon.server.tournaments.errors import TournamentError
from gammon.server.tournaments.settings import Satellite, TournamentSettings
from gammon.server.tournaments.state import (
    STATUSES,
    Applied,
    BracketMatch,
    Entry,
    Record,
    Tournament,
)

__all__ = [
    "STATUSES",
    "Applied",
    "BracketMatch",
    "Entry",
    "Record",
    "Satellite",
    "Tournament",
    "TournamentError",
    "TournamentSettings",
    "bracket_size",
    "draw",
    "round_count",
    "round_name",
    "seed_order",
]
