"""No test depends on luck or on the machine's speed (issue 21): a scan of every test file.

Every random choice in a test comes from a seeded source, so a test plays the same games and
draws the same examples on every run; and a test waits for events, never for a fixed time,
so a loaded machine makes it slower, never wrong. The scan reads each ``tests/**/*.py`` with
:mod:`ast` (names as Python binds them, not text that happens to match) and fails, naming
the file, the line and the rule, on anything below. The few uses that are the point of their
test are allowed in :data:`ALLOWED`, each with its reason.

The rules:

- ``secrets``: the ``secrets`` module at all.
- ``urandom``: ``os.urandom``.
- ``uuid``: ``uuid.uuid1`` and ``uuid.uuid4`` (from the clock and the system's randomness).
- ``system-random``: ``random.SystemRandom``.
- ``random-global``: the ``random`` module's own functions (``random.random``, ``choice``,
  ``shuffle``, ``seed``, ...), which share one generator seeded from the system.
- ``unseeded-random``: ``random.Random()`` with no seed.
- ``numpy-global``: numpy's legacy global generator (``np.random.rand``, ``seed``, ...).
- ``unseeded-numpy``: ``numpy.random.default_rng()`` with no seed.
- ``unseeded-dice``: ``RandomDice()`` and ``RandomPlayer()`` with no seed.
- ``sleep``: ``time.sleep``, ``asyncio.sleep`` (or either imported bare) and Playwright's
  ``wait_for_timeout``, except ``asyncio.sleep(0)``: a yield to the event loop, not a wait.
  Polling for a state another process owns goes through tests/waiting.py.
- ``hypothesis-random``: Hypothesis told to draw at random (``derandomize=False``,
  ``st.randoms(use_true_random=True)``); the suite's profile (tests/conftest.py) derandomizes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: (path from the repository's root, rule): why that file may break that rule.
ALLOWED: dict[tuple[str, str], str] = {
    ("tests/waiting.py", "sleep"): (
        "the suite's one polling helper: it sleeps between looks at a state another process "
        "owns, where no event can be awaited"
    ),
    ("tests/conftest.py", "hypothesis-random"): (
        "the opt-in 'explore' profile (HYPOTHESIS_PROFILE=explore), for a developer hunting "
        "new failures; the suite's own profile derandomizes"
    ),
    ("tests/test_dice.py", "unseeded-dice"): (
        "RandomDice() only to check that it is a DiceSource: it rolls nothing"
    ),
    ("tests/engine/test_player.py", "unseeded-dice"): (
        "RandomPlayer() only to check its type and name: it chooses nothing"
    ),
}

#: The ``random`` module's functions on its one shared, system-seeded generator.
RANDOM_GLOBALS = frozenset(
    {
        "betavariate", "binomialvariate", "choice", "choices", "expovariate", "gammavariate",
        "gauss", "getrandbits", "getstate", "lognormvariate", "normalvariate",
        "paretovariate", "randbytes", "randint", "random", "randrange", "sample", "seed",
        "setstate", "shuffle", "triangular", "uniform", "vonmisesvariate", "weibullvariate",
    }
)  # fmt: skip
#: numpy.random's legacy functions, all on one global RandomState.
NUMPY_GLOBALS = frozenset(
    {
        "beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f",
        "gamma", "geometric", "get_state", "gumbel", "hypergeometric", "integers", "laplace",
        "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal",
        "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
        "permutation", "poisson", "power", "rand", "randint", "randn", "random",
        "random_integers", "random_sample", "ranf", "rayleigh", "sample", "seed", "set_state",
        "shuffle", "standard_cauchy", "standard_exponential", "standard_gamma",
        "standard_normal", "standard_t", "triangular", "uniform", "vonmises", "wald",
        "weibull", "zipf",
    }
)  # fmt: skip
#: Sources of dice or plays that draw from the system when given no seed.
SEEDED_CLASSES = frozenset({"RandomDice", "RandomPlayer"})


@dataclass(frozen=True)
class Finding:
    line: int
    rule: str
    what: str


class _Checker(ast.NodeVisitor):
    """The findings in one module, with the names its imports bind resolved to modules."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        #: Local name -> the dotted module or object it stands for ("random", "numpy.random",
        #: "time.sleep", ...), from the module's imports.
        self.names: dict[str, str] = {}

    def _find(self, node: ast.AST, rule: str, what: str) -> None:
        self.findings.append(Finding(getattr(node, "lineno", 0), rule, what))

    # -- imports -------------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.names[alias.asname] = alias.name
            else:  # "import numpy.random" binds "numpy"
                top = alias.name.split(".")[0]
                self.names[top] = top
            self._check_imported(node, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module is None or node.level:
            return  # a relative import: the project's own modules
        for alias in node.names:
            full = f"{node.module}.{alias.name}"
            self.names[alias.asname or alias.name] = full
            self._check_imported(node, full)

    def _check_imported(self, node: ast.AST, full: str) -> None:
        rule = _rule_of(full)
        if rule is not None and rule != "sleep":  # a sleep counts where it is called
            self._find(node, rule, f"import of {full}")

    # -- scopes: a parameter hides the module of the same name ---------------------------

    def _in_scope(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        arguments = node.args
        params = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        params += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        outer = self.names
        self.names = {k: v for k, v in outer.items() if k not in {a.arg for a in params}}
        self.generic_visit(node)
        self.names = outer

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _in_scope

    # -- uses ----------------------------------------------------------------------------

    def _dotted(self, node: ast.AST) -> str | None:
        """What ``node`` (a name or a chain of attributes) stands for, through the imports."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        base = self.names.get(node.id)
        if base is None:
            return None  # a local name, a parameter, a builtin: not a module's
        return ".".join([base, *reversed(parts)])

    def visit_Attribute(self, node: ast.Attribute) -> None:
        full = self._dotted(node)
        if full is not None and full.split(".")[0] == "secrets":
            self._find(node, "secrets", full)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        full = self._dotted(node.func)
        name = full.rsplit(".", 1)[-1] if full else _called_name(node.func)
        bare = not node.args and not node.keywords
        if full is not None:
            rule = _rule_of(full)
            if rule == "sleep" and not (full == "asyncio.sleep" and _is_zero(node)):
                self._find(node, "sleep", f"{full}(...)")
            elif rule is not None and rule not in ("secrets", "sleep"):
                self._find(node, rule, f"{full}(...)")
            if full == "random.Random" and bare:
                self._find(node, "unseeded-random", "random.Random() with no seed")
            if full in ("numpy.random.default_rng", "numpy.random.RandomState") and bare:
                self._find(node, "unseeded-numpy", f"{full}() with no seed")
        if name in SEEDED_CLASSES and bare:
            self._find(node, "unseeded-dice", f"{name}() with no seed")
        if isinstance(node.func, ast.Attribute) and node.func.attr == "wait_for_timeout":
            self._find(node, "sleep", "wait_for_timeout(...)")  # Playwright's fixed wait
        for keyword in node.keywords:
            if keyword.arg == "derandomize" and _is_false(keyword.value):
                self._find(node, "hypothesis-random", "derandomize=False")
            if keyword.arg == "use_true_random" and not _is_false(keyword.value):
                self._find(node, "hypothesis-random", "use_true_random")
        self.generic_visit(node)


def _rule_of(full: str) -> str | None:
    """The rule that the module-level object ``full`` (dotted) breaks, if any."""
    module, _, name = full.rpartition(".")
    if full == "secrets" or module == "secrets":
        return "secrets"
    if full == "os.urandom":
        return "urandom"
    if full in ("uuid.uuid1", "uuid.uuid4"):
        return "uuid"
    if full == "random.SystemRandom":
        return "system-random"
    if module == "random" and name in RANDOM_GLOBALS:
        return "random-global"
    if module == "numpy.random" and name in NUMPY_GLOBALS:
        return "numpy-global"
    if full in ("time.sleep", "asyncio.sleep"):
        return "sleep"
    return None


def _called_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_zero(call: ast.Call) -> bool:
    return (
        len(call.args) == 1
        and not call.keywords
        and isinstance(call.args[0], ast.Constant)
        and call.args[0].value == 0
    )


def _is_false(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def check(source: str) -> list[Finding]:
    """The findings in one module's source, in the order of its lines."""
    checker = _Checker()
    checker.visit(ast.parse(source))
    return sorted(checker.findings, key=lambda f: (f.line, f.rule))


def _scan() -> dict[tuple[str, str], list[Finding]]:
    found: dict[tuple[str, str], list[Finding]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for finding in check(path.read_text()):
            found.setdefault((name, finding.rule), []).append(finding)
    return found


def test_no_test_depends_on_luck_or_on_the_machines_speed() -> None:
    found = _scan()
    broken = [
        f"{path}:{f.line}: {rule}: {f.what}"
        for (path, rule), findings in found.items()
        if (path, rule) not in ALLOWED
        for f in findings
    ]
    assert not broken, (
        "seed every random choice and wait for events, not for time (tests/test_determinism.py"
        " says how; tests/waiting.py polls where nothing can be awaited):\n" + "\n".join(broken)
    )
    stale = sorted(key for key in ALLOWED if key not in found)
    assert not stale, f"allowed, but nothing there needs it any more: remove {stale}"


# -- the checker itself ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ("import secrets", "secrets"),
        ("from secrets import token_hex", "secrets"),
        ("import os\nos.urandom(8)", "urandom"),
        ("from os import urandom", "urandom"),
        ("import uuid\nuuid.uuid4()", "uuid"),
        ("import uuid\nuuid.uuid1()", "uuid"),
        ("import random\nrandom.SystemRandom()", "system-random"),
        ("import random\nrandom.shuffle([])", "random-global"),
        ("import random\nrandom.randint(1, 6)", "random-global"),
        ("import random as r\nr.choice([1])", "random-global"),
        ("from random import choice\nchoice([1])", "random-global"),
        ("import random\nrandom.seed(3)", "random-global"),
        ("import random\nrandom.Random()", "unseeded-random"),
        ("import numpy as np\nnp.random.default_rng()", "unseeded-numpy"),
        ("import numpy as np\nnp.random.rand(3)", "numpy-global"),
        ("import numpy as np\nnp.random.seed(3)", "numpy-global"),
        ("import numpy\nnumpy.random.shuffle([])", "numpy-global"),
        ("from numpy.random import default_rng\ndefault_rng()", "unseeded-numpy"),
        ("from numpy import random as npr\nnpr.randint(6)", "numpy-global"),
        ("from gammon.dice import RandomDice\nRandomDice()", "unseeded-dice"),
        ("import gammon.dice as d\nd.RandomDice()", "unseeded-dice"),
        ("RandomPlayer()", "unseeded-dice"),
        ("import time\ntime.sleep(0.1)", "sleep"),
        ("import time\ntime.sleep(0)", "sleep"),
        ("import asyncio\nasync def f():\n    await asyncio.sleep(0.05)", "sleep"),
        ("from time import sleep\nsleep(1)", "sleep"),
        ("from asyncio import sleep as nap\nasync def f():\n    await nap(2)", "sleep"),
        ("page.wait_for_timeout(50)", "sleep"),
        ("from hypothesis import settings\n@settings(derandomize=False)\ndef t(): pass", None),
        ("import hypothesis.strategies as st\nst.randoms(use_true_random=True)", None),
    ],
)
def test_the_scan_catches_each_rule(source: str, rule: str | None) -> None:
    expected = rule or "hypothesis-random"
    assert expected in {f.rule for f in check(source)}, check(source)


@pytest.mark.parametrize(
    "source",
    [
        "import random\nrng = random.Random(5)\nrng.shuffle([])\nrng.randint(1, 6)",
        "import random\ndef f(random):\n    random.shuffle([])",  # a parameter, not the module
        "import numpy as np\nrng = np.random.default_rng(2024)\nrng.integers(6)",
        "from gammon.dice import RandomDice\nRandomDice(7)\nRandomDice(seed=1)",
        "import asyncio\nasync def f():\n    await asyncio.sleep(0)",
        "import hypothesis.strategies as st\nst.randoms(use_true_random=False)",
        "from hypothesis import settings\n@settings(derandomize=True)\ndef t(): pass",
        "rng.randbytes(8)\nrandom_board(rng)\nchoose(state, rng)",
        "import time\ntime.monotonic()",
    ],
)
def test_the_scan_passes_seeded_uses(source: str) -> None:
    assert check(source) == []
