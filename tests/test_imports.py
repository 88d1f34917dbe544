"""The rules library's core imports one way, bottom-up, with no circle.

catalogs -> messages -> errors -> i18n -> clock, dice, variants, movegen, textkernels
-> position_id -> match_id -> ids -> notation_syntax -> notation_search -> notation -> play
-> diagram, svg -> position (the
catalogs, each language's words, import nothing; messages, which errors carry, only the
catalogs; i18n, which refuses a language gammon does not speak, the catalogs and errors):
a module may import only modules below it when it runs; an upper module may appear in a
lower one only under ``TYPE_CHECKING``, for annotations. Read from the source, so the test
sees imports however the modules were loaded.
"""

from __future__ import annotations

import ast
from pathlib import Path

import gammon

PACKAGE = Path(gammon.__file__).parent
CORE = (
    "catalogs",
    "messages",
    *("errors", "i18n", "clock", "dice", "variants", "movegen", "textkernels"),
    *("position_id", "match_id", "ids", "notation_syntax", "notation_search", "notation"),
    "play",
    *("diagram", "svg"),
    "position",
)
#: Imports up a layer inside a function, each with its reason.
ALLOWED_LATE: set[tuple[str, str]] = set()


def _imports(module: str) -> tuple[set[str], set[str]]:
    """The gammon modules ``module`` imports at load time, and inside functions."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    at_load: set[str] = set()
    late: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and (child.module or "").startswith("gammon"):
                names = (
                    [alias.name for alias in child.names]
                    if child.module == "gammon"
                    else [str(child.module).removeprefix("gammon.")]
                )
                (late if inner else at_load).update(names)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.startswith("gammon."):
                        (late if inner else at_load).add(alias.name.removeprefix("gammon."))
            visit(child, inner)

    visit(tree, False)
    return at_load, late


def test_core_imports_only_lower_modules() -> None:
    for level, module in enumerate(CORE):
        at_load, _ = _imports(module)
        upward = {name for name in at_load if name not in CORE[:level]}
        assert not upward, f"gammon.{module} imports {sorted(upward)} at load time"


def test_no_late_imports_to_dodge_a_circle() -> None:
    for module in CORE:
        _, late = _imports(module)
        dodged = {(module, name) for name in late} - ALLOWED_LATE
        assert not dodged, f"gammon.{module} imports {sorted(late)} inside a function"


def test_dice_know_nothing_of_the_board() -> None:
    at_load, late = _imports("dice")
    assert at_load | late == {"errors"}


# -- the layers between packages (docs/ARCHITECTURE.md) ---------------------------------

#: What each layer may import from gammon besides itself, at load time or inside functions.
LAYERS = {
    "core": set(),
    "engine": {"core"},
    "server": {"core", "engine"},
    "cli.common": {"core"},
    "cli": {"core", "engine", "server", "cli.common", "cli.connect"},
    "cli.connect": {"core", "cli.common"},
}


def _layer(module: str) -> str:
    """The layer a gammon module (dotted, without 'gammon.') belongs to.

    ``python -m`` entry points (``__main__``) start an application: they are the cli's.
    """
    if module.endswith("__main__"):
        return "cli"
    for name in ("cli.connect", "cli.common", "engine", "server", "cli"):
        if module == name or module.startswith(name + "."):
            return name
    return "core"


def _all_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gammon."):
            found.add(str(node.module).removeprefix("gammon."))
        elif isinstance(node, ast.Import):
            found |= {
                a.name.removeprefix("gammon.") for a in node.names if a.name.startswith("gammon.")
            }
    return found


def test_each_layer_imports_only_the_layers_below() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).with_suffix("")
        parts = [part for part in relative.parts if part != "__init__"]
        module = ".".join(parts) or "__init__"
        layer = _layer(module)
        for imported in _all_imports(path):
            other = _layer(imported)
            assert other == layer or other in LAYERS[layer], (
                f"gammon.{module} ({layer}) imports gammon.{imported} ({other})"
            )
