"""``python -m gammon.server [--port P] ...``: the same as ``gammon serve``."""

from __future__ import annotations

import sys

from gammon.server.cli import main

if __name__ == "__main__":
    sys.exit(main())
