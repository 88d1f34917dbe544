"""``python -m gammon``: the same command line as the ``gammon`` script."""

from __future__ import annotations

import sys

from gammon.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    sys.exit(main())
