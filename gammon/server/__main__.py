"""``python -m gammon.server [--port P] ...``: the same as ``gammon serve``."""

from __future__ import annotations

import sys

from gammon.cli.serve import main

if __name__ == "__main__":
    sys.exit(main())
