"""The attack corpus: hostile and broken submissions, each with the grade and message it must get.

Every entry is data: what the student hands in (a ``game.py`` source or an archive), the rubric
it is graded by, the points per criterion it must get (or ``None`` when the grader must refuse
the file), and a message the student must see. ``tests/test_attacks.py`` and
``tests/test_attacks_reach.py`` grade each one with ``autograder check`` in real child
processes, and all of them together with ``autograder grade``.

Most entries are the deterministic honest player (``HONEST``: the reference solution whose
search stops after a fixed amount of work, not time, so the same seed gives the same games
every run) with a small patch, so that only the criteria under attack can move. They are
graded by ``QUICK_RUBRIC``: 2 games, 3 + 3 probes, 2 s per call. With seed 0 both games end in
the drop phase, so the patches that act "in the move phase" act on the three move probes only.

Sources are ``string.Template`` texts: ``$here`` (the folder the submission was handed in from),
``$out`` (the grader's output folder), ``$other`` (another student's file), ``$solution``,
``$course_rubric`` and ``$rubric`` (the kit's secrets), ``$marker`` (a unique file name),
``$cwd`` (the grader's working folder), ``$root_only`` (a file only root may read),
``$checkout`` (another copy of the kit's solution), ``$tmpdir`` (the grader's ``TMPDIR``, where
it unpacks the class), ``$socket`` and ``$service`` (a unix socket in the file system and an
abstract one, where a service listens) are filled in by the test.

Some entries are safe only where a layer is active (``needs``): ``fence`` (bubblewrap),
``process limit`` (cgroups, or a uid of its own) and ``cgroups``; elsewhere they are skipped,
with the line that installs what is missing.

The entries are in ``process.py``, ``files.py`` and ``output.py``, in that order; the code
they hand in in ``snippets.py`` and ``forging.py``; the model in ``model.py``.
"""

from __future__ import annotations

from tests.corpus.classes import CLASS_ATTACKS, ClassAttack
from tests.corpus.files import FILES
from tests.corpus.forging import FORGERS, LOOK
from tests.corpus.model import (
    COURSE_RUBRIC,
    FULL,
    HONEST,
    PATIENT_RUBRIC,
    QUICK_RUBRIC,
    ZERO,
    Attack,
    Context,
    missing_layers,
    quick_rubric,
)
from tests.corpus.output import OUTPUT
from tests.corpus.process import PROCESS
from tests.corpus.snippets import LONG_CLASS_NAME, NAME_ESCAPES, TERMINAL_ESCAPES

__all__ = [
    "Attack",
    "ClassAttack",
    "CLASS_ATTACKS",
    "LONG_CLASS_NAME",
    "NAME_ESCAPES",
    "Context",
    "ATTACKS",
    "missing_layers",
    "TERMINAL_ESCAPES",
    "HONEST",
    "QUICK_RUBRIC",
    "COURSE_RUBRIC",
    "PATIENT_RUBRIC",
    "FULL",
    "FORGERS",
    "LOOK",
    "ZERO",
    "quick_rubric",
]

ATTACKS: dict[str, Attack] = {**PROCESS, **FILES, **OUTPUT}
