"""Before any test: the compiled kernels the server loads at its start, compiled once.

In a fresh checkout numba compiles them on first use (about 10 s of CPU). Every server
the tests start loads them in a thread at its start; compiled here first, in the one
process that runs before the test workers, those servers find them in numba's cache
instead of each compiling them at once beside the tests (which starved the servers of
the CPU on a 2-core machine: requests timed out).
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller did it
        return
    from gammon.server import plays_text

    plays_text.warm_up()
