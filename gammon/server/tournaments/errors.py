"""The one error a tournament raises: a refused action, with the protocol's error code."""

from __future__ import annotations

from gammon.server.protocol import Refused

__all__ = ["TournamentError"]


class TournamentError(Refused):
    """A tournament action that is refused; the tournament is exactly as it was before.

    It is a :class:`~gammon.server.protocol.Refused` (so a ``ValueError``): ``code`` is
    the protocol's error code, the message is for people, ``field`` (when set) names the
    field at fault for programs.
    """
