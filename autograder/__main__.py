"""``python -m autograder`` runs the same command line as ``autograder``."""

import sys

from autograder.cli import main

sys.exit(main())
