"""``python -m gammon.cli.connect``: the same as ``gammon connect``."""

from __future__ import annotations

import sys

from gammon.cli.connect import main

if __name__ == "__main__":
    sys.exit(main())
