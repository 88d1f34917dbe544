"""Our own nets as an engine of the registry: the default, and the only one to learn from."""

from __future__ import annotations

from gammon.engine.evaluator import Evaluator, default_evaluator

__all__ = ["ours"]


def ours() -> Evaluator:
    """The shipped nets (:func:`~gammon.engine.evaluator.default_evaluator`)."""
    return default_evaluator()
