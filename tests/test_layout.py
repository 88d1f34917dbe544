"""The package's shape as a reader meets it (issue 17): no import circle anywhere in
``gammon/``, and no function or module so long that it hides what it does.

The rules library's own layering (which module may import which) is tests/test_imports.py;
this is the whole package's. An import inside a function counts (it is a circle all the
same, only put off); one under ``TYPE_CHECKING`` does not (annotations only).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import gammon

PACKAGE = Path(gammon.__file__).parent


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def _imported(module: str, path: Path) -> Iterator[str]:
    """The package's modules ``module`` imports, at load or inside a function."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def known(name: str) -> str | None:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        return name or None

    def visit(node: ast.AST) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    yield from visit(other)
                continue
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parent = package
                    for _ in range(child.level - 1):
                        parent = parent.rpartition(".")[0]
                    base = f"{parent}.{base}" if base else parent
                # ``from gammon.server import chat`` imports the module gammon.server.chat.
                names = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                    for alias in child.names
                ]
            else:
                yield from visit(child)
                continue
            for name in names:
                target = known(name)
                if target is not None and target != module:
                    yield target

    yield from visit(ast.parse(path.read_text(encoding="utf-8")))


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, as a
    loop: the package is deep enough to make recursion a risk)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def test_no_import_circle_in_the_package() -> None:
    graph = {module: set(_imported(module, path)) for module, path in MODULES.items()}
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(graph) == [["a", "b", "c"]]


# How long is too long (issue 17): a function over this many lines, or a module over
# MODULE_LINES, must say at its top why it is long. A reason is read, not counted: the
# docstring holds a paragraph that begins with the words below.
FUNCTION_LINES = 60
MODULE_LINES = 600
FUNCTION_REASON = "Why this function is long:"
MODULE_REASON = "Why this module is long:"


def _is_migration(path: Path) -> bool:
    """Migrations are a record of what the schema was, written once and never read again."""
    return "migrations" in path.relative_to(PACKAGE).parts


def _long_functions(path: Path) -> Iterator[tuple[str, int]]:
    """Each function of ``path`` longer than FUNCTION_LINES with no reason in its
    docstring, by its qualified name and length."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def visit(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                assert child.end_lineno is not None
                length = child.end_lineno - child.lineno + 1
                reason = FUNCTION_REASON in (ast.get_docstring(child) or "")
                if length > FUNCTION_LINES and not reason:
                    yield name, length
                yield from visit(child, f"{name}.")
            else:
                yield from visit(child, prefix)

    yield from visit(tree, "")


def test_no_long_function_without_its_reason() -> None:
    found = [
        f"{module}.{name} ({length} lines)"
        for module, path in MODULES.items()
        if not _is_migration(path)
        for name, length in _long_functions(path)
    ]
    assert found == []


def test_no_long_module_without_its_reason() -> None:
    found = []
    for module, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + 1
        if _is_migration(path) or lines <= MODULE_LINES:
            continue
        if MODULE_REASON not in (ast.get_docstring(ast.parse(text)) or ""):
            found.append(f"{module} ({lines} lines)")
    assert found == []


def test_the_length_check_reads_the_reason(tmp_path: Path) -> None:
    body = "\n".join(f"    x = {n}" for n in range(FUNCTION_LINES))
    bare = tmp_path / "bare.py"
    bare.write_text(f"def f():\n    '''Short.'''\n{body}\n", encoding="utf-8")
    told = tmp_path / "told.py"
    told.write_text(
        f"def f():\n    '''Short.\n\n    {FUNCTION_REASON} a table.'''\n{body}\n",
        encoding="utf-8",
    )
    assert list(_long_functions(bare)) == [("f", FUNCTION_LINES + 2)]
    assert list(_long_functions(told)) == []
