"""``python -m autograder.oracle ACTION ...`` is ``autograder oracle ACTION ...``."""

from __future__ import annotations

import sys

from autograder.cli import main

if __name__ == "__main__":
    sys.exit(main(["oracle", *sys.argv[1:]]))
