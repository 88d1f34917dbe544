"""Before any test: the suite's Hypothesis profile, and the compiled kernels the server loads.

Hypothesis: the suite runs the same examples every time (derandomize: a run never passes or
fails by luck), with no per-example deadline (a loaded machine makes an example slow, not
wrong) and no example database (what one run found must not change what the next one tries).
A failure prints its reproduction blob. HYPOTHESIS_PROFILE=explore draws fresh random
examples instead: for a developer hunting bugs, never for CI.

The kernels: in a fresh checkout numba compiles them on first use (about 10 s of CPU). Every
server the tests start loads them in a thread at its start; compiled here first, in the one
process that runs before the test workers, those servers find them in numba's cache instead
of each compiling them at once beside the tests (which starved the servers of the CPU on a
2-core machine: requests timed out).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("suite", derandomize=True, deadline=None, database=None, print_blob=True)
# Random exploration, to look for new failures; print_blob lets one be replayed and kept.
settings.register_profile(
    "explore", derandomize=False, deadline=None, database=None, print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))
# The command line speaks the locale's language (gammon.i18n.from_environment), and most
# tests read its English: a developer's own locale must not change what they read. The
# tests of the languages set the locale themselves.
os.environ["LANGUAGE"] = "en"


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller did it
        return
    from gammon.server import plays_text

    plays_text.warm_up()
