"""The corpus's entries that end the process, spend time or take space."""

from __future__ import annotations

from tests.corpus.forging import _ANSWERS_EARLY, _THROUGH_A_SIGNAL
from tests.corpus.model import (
    COURSE_RUBRIC,
    FENCE,
    FULL,
    HONEST,
    MOVE_PHASE_ILLEGAL,
    MOVE_PHASE_LOST,
    MOVE_PHASE_TIMEOUT,
    PATIENT_RUBRIC,
    PRINTED,
    ZERO,
    Attack,
    _grade,
    in_move_phase,
    patched,
)
from tests.corpus.snippets import (
    _BUSY,
    _CPU_THIEVES,
    _CPU_WORK_SECONDS,
    _DAEMON,
    _FILE_HANDLES,
    _FLOOD,
    _FORK_BOMB,
    _MEMFD_HOARD,
    _PROCESS_HOARD,
    _SEARCHES_IN_OPPONENT_MOVE,
    _SEARCHES_IN_SETTER,
    _SEGFAULT,
    _SLEEP_IGNORING_SIGNALS,
    _SPAWN,
    _THREAD_PRINTS,
    _THREAD_SPINS,
    _YES,
)

PROCESS: dict[str, Attack] = {
    # -- the honest player: the yardstick for "the grade is unaffected" ------------------------
    "honest": Attack("baseline", HONEST, FULL, "won 2 of 2"),
    "honest-course-rubric": Attack("baseline", HONEST, FULL, "won 3 of 3", rubric=COURSE_RUBRIC),
    # -- ending the process ---------------------------------------------------------------------
    "sys-exit-at-import": Attack(
        "exit",
        HONEST + "\nimport sys\nsys.exit(3)\n",
        ZERO,
        "game.py tried to end the program while being imported (SystemExit: 3",
        rubric=COURSE_RUBRIC,
    ),
    "os-exit-at-import": Attack(
        "exit",
        HONEST + "\nimport os\nos._exit(0)\n",
        ZERO,
        "the submission's process exited with status 0 during importing game.py",
    ),
    "sys-exit-in-make-move": Attack(
        "exit",
        in_move_phase("_sys.exit(0)"),
        _grade(**MOVE_PHASE_LOST, time=20),  # time on the 11 of 14 calls that answered
        "make_move tried to end the program: SystemExit: 0",
    ),
    "os-exit-in-make-move": Attack(
        "exit",
        in_move_phase("_os._exit(1)"),
        _grade(**MOVE_PHASE_LOST, time=20),
        "the submission's process exited with status 1 during make_move",
    ),
    "system-exit-in-init": Attack(
        "exit",
        patched(init="raise SystemExit('bye')"),
        ZERO,
        "TeekoPlayer() tried to end the program: SystemExit: bye",
    ),
    "keyboard-interrupt-in-init": Attack(
        "exit",
        patched(init="raise KeyboardInterrupt"),
        ZERO,
        "TeekoPlayer() tried to end the program: KeyboardInterrupt",
    ),
    "keyboard-interrupt-in-make-move": Attack(
        "exit",
        in_move_phase("raise KeyboardInterrupt"),
        _grade(**MOVE_PHASE_LOST, time=17),
        "make_move tried to end the program: KeyboardInterrupt",
        rubric=COURSE_RUBRIC,
    ),
    "segfault-by-recursion": Attack(
        "exit",
        in_move_phase(_SEGFAULT),
        _grade(**MOVE_PHASE_LOST, time=20),
        "was killed by SIGSEGV (it may have run out of memory or recursed too deeply) "
        "during make_move",
    ),
    "kills-its-parent": Attack(
        "exit",
        in_move_phase("import signal\n_os.kill(_os.getppid(), signal.SIGKILL)"),
        FULL,  # its parent is the runner's reaper, pid 1 of the namespace: immune
        "won 2 of 2",
        needs=FENCE,
    ),
    "kills-itself": Attack(
        "exit",
        in_move_phase("import signal\n_os.kill(_os.getpid(), signal.SIGKILL)"),
        _grade(**MOVE_PHASE_LOST, time=20),
        "the submission's process was killed by SIGKILL",
    ),
    "kills-its-process-group": Attack(
        "exit",
        in_move_phase("import signal\n_os.killpg(_os.getpgrp(), signal.SIGKILL)"),
        _grade(**MOVE_PHASE_LOST, time=20),
        # fenced, its group is led by pid 1 of its namespace, which no signal reaches
        "make_move raised ProcessLookupError: [Errno 3] No such process",
        unfenced="was killed by SIGKILL",
    ),
    "kills-every-process-it-can": Attack(
        "exit",
        in_move_phase(
            "import signal\ntry:\n    _os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass"
        ),
        FULL,
        "won 2 of 2",
        needs=FENCE,  # kill(-1) outside a pid namespace reaches everything the user owns
    ),
    # -- time -------------------------------------------------------------------------------------
    "infinite-loop-at-import": Attack(
        "time",
        HONEST + "\nwhile True:\n    pass\n",
        ZERO,
        "importing game.py did not finish within 4 s",
    ),
    "infinite-loop-in-make-move": Attack(
        "time",
        in_move_phase("while True:\n    pass"),
        _grade(**MOVE_PHASE_TIMEOUT),
        "make_move was still running after 2 s and was stopped",
        seconds=45.0,  # two calls in a row computing to the limit, on a busy machine's wall
    ),
    "sleeps-ignoring-signals": Attack(
        "time",
        in_move_phase(_SLEEP_IGNORING_SIGNALS),
        _grade(**MOVE_PHASE_TIMEOUT),
        "make_move was still running after 2 s and was stopped",
    ),
    "searches-in-the-board-setter": Attack(
        "time",
        patched(prelude=_SEARCHES_IN_SETTER),
        _grade(time=13),
        "of it in TeekoPlayer(), called before make_move",
        seconds=_CPU_WORK_SECONDS,
    ),
    "searches-in-init": Attack(
        "time",
        patched(init="_busy(1.3)", prelude=_BUSY),
        _grade(time=13),
        "of it in TeekoPlayer(), called before make_move",
        seconds=_CPU_WORK_SECONDS,
    ),
    "searches-in-opponent-move": Attack(
        "time",
        patched(prelude=_SEARCHES_IN_OPPONENT_MOVE),
        _grade(time=13),
        "of it in place_piece/opponent_move, called before make_move",
        seconds=_CPU_WORK_SECONDS,
    ),
    "answers-before-the-request": Attack(
        "time",
        patched(prelude=_THROUGH_A_SIGNAL + _ANSWERS_EARLY),
        ZERO,  # each reply sent twice: the second is a stray reply, or waits before a request
        "the submission wrote into the grader's private pipe",
    ),
    "steals-cpu-with-busy-processes": Attack(
        "time",
        patched(prelude=_CPU_THIEVES),
        FULL,
        "won 2 of 2",
        survivors="$marker",
    ),
    "thread-spins-after-the-call": Attack(
        "time", patched(prelude=_THREAD_SPINS), FULL, "won 2 of 2"
    ),
    "thread-prints-after-the-call": Attack(
        "time", patched(prelude=_THREAD_PRINTS), _grade(**PRINTED), "printed: tick"
    ),
    "child-process-left-running": Attack(
        "time",
        patched(prelude=_SPAWN % "False"),
        FULL,
        "won 2 of 2",
        survivors="$marker",
    ),
    "child-in-a-new-session": Attack(
        "time",
        patched(prelude=_SPAWN % "True"),
        FULL,
        "won 2 of 2",
        survivors="$marker",
    ),
    "fork-bomb": Attack(
        "time",
        patched(prelude=_FORK_BOMB),
        _grade(**PRINTED),
        "printed: fork bomb stopped: BlockingIOError",
        needs=("fence", "process limit"),
    ),
    "double-fork-daemon": Attack(
        "time", patched(prelude=_DAEMON), FULL, "won 2 of 2", survivors="$marker"
    ),
    "process-floods-stdout-forever": Attack(
        "time",
        patched(prelude=_YES),
        _grade(**PRINTED),
        "printed: yyyyyyyy",
        survivors="$marker",
    ),
    # -- space ------------------------------------------------------------------------------------
    "memory-bomb-at-import": Attack(
        "space",
        HONEST + "\n_hog = []\nwhile True:\n    _hog.append(bytes(1 << 26))\n",
        ZERO,
        "importing game.py raised MemoryError",
    ),
    "memory-bomb-in-make-move": Attack(
        "space",
        in_move_phase("hog = []\nwhile True:\n    hog.append(bytes(1 << 26))"),
        _grade(**MOVE_PHASE_LOST, time=20),
        "make_move raised MemoryError",
    ),
    "memory-creep": Attack(
        "space",
        patched("_HOARD.append(bytes(350 << 20))", prelude="_HOARD = []\n"),
        _grade(rules=0, state=3, format=3, time=12, wins=0),  # the third call of each process fails
        "make_move raised MemoryError",
    ),
    "prints-100-mb-at-import": Attack(
        "space",
        patched(prelude=_FLOOD),
        _grade(**PRINTED),
        "more bytes]",
    ),
    "prints-100-mb-to-stderr-in-make-move": Attack(
        "space",
        in_move_phase('_sys.stderr.write("e" * 100_000_000)'),
        _grade(**PRINTED),
        "printed: eeeeeeee",
    ),
    "returns-100-mb-string": Attack(
        "space",
        in_move_phase('return "A1" * 50_000_000'),
        _grade(**MOVE_PHASE_ILLEGAL),
        "make_move must return a list like [(row, col)], got 'A1A1A1",
    ),
    "returns-ten-million-tuples": Attack(
        "moves",
        in_move_phase("return [(0, 0)] * 10_000_000"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "got a list of 10000000 items",
    ),
    "returns-a-huge-int": Attack(
        "space",
        in_move_phase("return [(10 ** 100_000, 0), move[1]]"),
        _grade(rules=10),
        "row 9223372036854775808 is off the board (rows are 0-4)",
    ),
    "returns-a-deep-nest": Attack(
        "space",
        in_move_phase("deep = []\nfor _ in range(100_000):\n    deep = [deep]\nreturn deep"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "the move phase move should be [(row, col), (source_row, source_col)], got a list of 1 "
        "item",
    ),
    "returns-a-wide-unicode-tree": Attack(
        "space",
        in_move_phase('return [[["\\u00e9" * 1000] * 16] * 16] * 16'),
        _grade(**MOVE_PHASE_ILLEGAL),
        "got a list of 16 items",
    ),
    "holds-memory-in-memfd": Attack(
        "space",
        in_move_phase(_MEMFD_HOARD, "_HOARD = []\n"),
        _grade(**MOVE_PHASE_LOST, time=20),
        "was killed for using more than 1024 MB of memory, all its processes together during "
        "make_move",
        rubric=PATIENT_RUBRIC,
        needs=("cgroups",),
    ),
    "holds-memory-in-many-processes": Attack(
        "space",
        patched(prelude=_PROCESS_HOARD),
        _grade(**PRINTED),
        "printed: memory held by its processes within 1024 MB: True",
        needs=("cgroups",),
    ),
    "opens-thousands-of-files": Attack(
        "space",
        patched(prelude=_FILE_HANDLES),
        _grade(**PRINTED),
        "printed: file handles stopped: OSError EMFILE",
    ),
}
