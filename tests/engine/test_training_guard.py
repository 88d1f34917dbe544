"""Never train on other programs' answers: the training paths cannot reach the adapters.

Two guards. Statically, nothing the training modules import (followed through every
``gammon`` module they reach, imports inside functions included) is an adapter or its
package, and none of them calls ``get_engine``, the one door to the adapters. At run
time, the functions that make training data refuse an engine that is not our nets.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gammon.engine.engines import get_engine
from gammon.engine.evaluator import NotOurEngineError, require_ours
from gammon.engine.mined_collection import collect_mined
from gammon.engine.mining import mine_game
from gammon.engine.supervise import collect

ROOT = Path(__file__).resolve().parents[2]
TRAINING = (
    "gammon.engine.train",
    "gammon.engine.supervise",
    "gammon.engine.mining",
    "gammon.engine.mined_collection",
    "gammon.engine.selfplay",
    "gammon.engine.rounds",
)
ADAPTERS = {"gammon.engine.engines.gnubg", "gammon.engine.engines.sage"}
PACKAGES = {"gnubg_nn", "bgsage", "bgbot_cpp"}


def _path(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _imports(module: str) -> tuple[set[str], bool]:
    """The modules ``module`` imports (absolute names), and whether it calls get_engine."""
    path = _path(module)
    assert path is not None, module
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    calls = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            found.add(source)
            # ``from gammon.engine import evaluator`` imports a submodule.
            found.update(f"{source}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            calls = calls or name == "get_engine"
    return found, calls


def _reachable() -> tuple[set[str], set[str]]:
    """Every module the training paths reach (gammon's own followed), and those that call
    get_engine."""
    seen: set[str] = set()
    callers: set[str] = set()
    todo = list(TRAINING)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        if not module.startswith("gammon") or _path(module) is None:
            continue
        # Importing a module runs its packages' __init__ first.
        parts = module.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        imported, calls = _imports(module)
        if calls:
            callers.add(module)
        todo.extend(imported)
    return seen, callers


def test_the_training_paths_never_import_an_adapter() -> None:
    reached, callers = _reachable()
    assert "gammon.engine.evaluator" in reached  # the scan follows imports at all
    assert not reached & ADAPTERS
    assert not {name.split(".")[0] for name in reached} & PACKAGES
    assert not callers, f"{sorted(callers)} can reach the adapters through get_engine"


def test_the_scan_would_see_an_adapter() -> None:
    """The scan itself: the command line does reach get_engine."""
    _imported, calls = _imports("gammon.cli.hint")
    assert calls


@pytest.fixture(scope="module")
def gnubg() -> object:
    return get_engine("gnubg")


def test_require_ours(gnubg: object) -> None:
    require_ours(get_engine("gammon"), "training")
    with pytest.raises(NotOurEngineError, match="'gnubg' engine") as raised:
        require_ours(gnubg, "training")  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)


def test_supervised_targets_refuse_another_engine(tmp_path: Path, gnubg: object) -> None:
    data = tmp_path / "data.npz"
    with pytest.raises(NotOurEngineError):
        collect(data, 2, 1, 0, ply=1, evaluator=gnubg)  # type: ignore[arg-type]
    with pytest.raises(NotOurEngineError):
        collect_mined(data, 2, 0, evaluator=gnubg)  # type: ignore[arg-type]
    assert not data.exists()


def test_mining_refuses_another_engine(gnubg: object) -> None:
    with pytest.raises(NotOurEngineError):
        next(mine_game(0, 0, gnubg))  # type: ignore[arg-type]
