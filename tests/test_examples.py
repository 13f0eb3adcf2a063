"""The bundled example class: its zips are what make_examples.py writes, byte for byte."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_example_zips_are_current():
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "make_examples.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
