"""Engines: our nets by default, other programs' as optional, labelled plug-ins.

:func:`get_engine` by name (``"gammon"``, ``"gnubg"``, ``"sage"``); every engine is a
:class:`~gammon.engine.evaluator.Search`, so anything that takes an ``evaluator`` (hints,
the bot, rollouts, the analysis) takes any of them. See :mod:`.base`.
"""

from gammon.engine.engines.base import (
    DEFAULT_ENGINE,
    ENGINES,
    Adapter,
    EngineError,
    EngineInfo,
    EngineNotInstalledError,
    UnknownEngineError,
    UnsupportedBoardError,
    engine_names,
    get_engine,
)

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "Adapter",
    "EngineError",
    "EngineInfo",
    "EngineNotInstalledError",
    "UnknownEngineError",
    "UnsupportedBoardError",
    "engine_names",
    "get_engine",
]
