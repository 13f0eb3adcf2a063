"""The corpus's entries on the filesystem, the forgers, and attacks on the grader itself."""

from __future__ import annotations

import zlib

from tests.corpus.forging import (
    _HIDDEN,
    _LYING_SYNC,
    _REACHES_IN_BY_OTHER_MEANS,
    _ROUTES,
    _SILENCES_THE_RUNNER,
    _THROUGH_A_SIGNAL,
    BOARD_ABC_REFERENCE,
    LOOK,
    _forged_board_abc,
    _forged_teeko,
)
from tests.corpus.model import (
    COURSE_RUBRIC,
    FENCE,
    FULL,
    PRINTED,
    ZERO,
    Attack,
    _grade,
    in_move_phase,
    patched,
)
from tests.corpus.snippets import (
    _CHANNEL_GARBAGE,
    _CLOSE_CHANNEL,
    _CPU_WORK_SECONDS,
    _DEEP_REPLY,
    _FORGED_REPLY,
    _HOME_WRITE,
    _LATE_RESULTS,
    _LISTS_TMPDIR,
    _NETWORK,
    _PATCH_BUILTINS,
    _PATCH_KIT,
    _PATCH_RANDOM,
    _PATCH_TIME,
    _REMOUNT,
    _SOCKETS,
    _reads,
    _writes,
)

FILES: dict[str, Attack] = {
    # -- the filesystem (the effect must not happen; see ``absent`` and ``secret``) ---------------
    "writes-the-grader-output-folder": Attack(
        "files",
        patched(prelude=_writes(out="$out/$marker", feedback="$out/feedback.md")),
        _grade(**PRINTED),
        "out blocked: FileNotFoundError ENOENT | feedback blocked: FileNotFoundError ENOENT",
        absent=("$out/$marker",),
        needs=FENCE,
    ),
    "fakes-results-json": Attack(
        "files",
        patched("return None", prelude=_LATE_RESULTS),
        _grade(rules=0, format=0, wins=0),
        "make_move must return a list like [(row, col)], got None",
        needs=FENCE,
    ),
    "writes-its-original-folder": Attack(
        "files",
        patched(prelude=_writes(new="$here/$marker", game="$here/game.py")),
        _grade(**PRINTED),
        "new blocked: FileNotFoundError ENOENT | game blocked: FileNotFoundError ENOENT",
        absent=("$here/$marker",),
        needs=FENCE,
    ),
    "writes-the-current-folder": Attack(
        "files",
        patched(prelude=_writes(cwd="$marker", grader_cwd="$cwd/$marker")),
        _grade(**PRINTED),
        # The grader's folder does not exist for it, wherever the kit is checked out.
        "cwd done | grader_cwd blocked: FileNotFoundError ENOENT",
        absent=("$cwd/$marker",),
        needs=FENCE,
    ),
    "writes-home": Attack(
        "files",
        patched(prelude=_writes(root="/root/$marker") + _HOME_WRITE),
        _grade(**PRINTED),
        "| ~ done",  # /root: read-only (Python lives there) or absent, as the machine has it
        absent=("/root/$marker",),
        needs=FENCE,
    ),
    "writes-tmp-and-shared-memory": Attack(
        "files",
        patched(
            prelude=_writes(tmp="/tmp/$marker", var="/var/tmp/$marker", shm="/dev/shm/$marker")
        ),
        _grade(**PRINTED),
        "tmp done | var blocked: FileNotFoundError ENOENT | shm done",  # private /tmp, /dev/shm
        absent=("/tmp/$marker", "/var/tmp/$marker", "/dev/shm/$marker"),
        needs=FENCE,
    ),
    "reads-the-reference-solution": Attack(
        "files",
        patched(prelude=_reads(solution="$solution")),
        _grade(**PRINTED),
        "solution reading failed: FileNotFoundError",
        secret="$solution",
        needs=FENCE,
    ),
    "reads-the-rubric-config": Attack(
        "files",
        patched(prelude=_reads(course="$course_rubric", rubric="$rubric")),
        _grade(**PRINTED),
        "course reading failed: FileNotFoundError | rubric reading failed: FileNotFoundError",
        secret="$rubric",
        needs=FENCE,
    ),
    "reads-another-students-submission": Attack(
        "files",
        patched(prelude=_reads(other="$other")),
        _grade(**PRINTED),
        "other reading failed: FileNotFoundError",
        secret="$other",
        needs=FENCE,
    ),
    "reads-a-root-only-file": Attack(
        "files",
        patched(prelude=_reads(shadow="/etc/shadow", private="$root_only")),
        _grade(**PRINTED),
        "shadow reading failed: FileNotFoundError | private reading failed: FileNotFoundError",
        secret="$root_only",
        needs=FENCE,
    ),
    "reads-another-checkout-of-the-solution": Attack(
        "files",
        patched(prelude=_reads(checkout="$checkout")),
        _grade(**PRINTED),
        "checkout reading failed: FileNotFoundError",
        secret="$checkout",
        needs=FENCE,
    ),
    "lists-the-graders-temporary-folder": Attack(
        "files",
        patched(prelude=_LISTS_TMPDIR),
        _grade(**PRINTED),
        "listing failed: FileNotFoundError",
        needs=FENCE,
    ),
    "writes-proc-sys": Attack(
        "files",
        patched(
            prelude=_writes(
                hostname="/proc/sys/kernel/hostname",
                core_pattern="/proc/sys/kernel/core_pattern",
                pid_max="/proc/sys/kernel/pid_max",
            )
        ),
        _grade(**PRINTED),
        "hostname blocked: PermissionError EACCES | core_pattern blocked: PermissionError "
        "EACCES | pid_max blocked: PermissionError EACCES",
        unchanged=("/proc/sys/kernel/hostname", "/proc/sys/kernel/core_pattern"),
        needs=FENCE,
    ),
    "writes-kernel-devices": Attack(
        "files",
        patched(prelude=_writes(kmsg="/dev/kmsg", mem="/dev/mem", port="/dev/port")),
        _grade(**PRINTED),
        "kmsg blocked: PermissionError EACCES | mem blocked: PermissionError EACCES | port "
        "blocked: PermissionError EACCES",
        needs=FENCE,
    ),
    "connects-to-a-unix-socket": Attack(
        "files",
        patched(prelude=_SOCKETS),
        _grade(**PRINTED),
        "socket blocked: FileNotFoundError ENOENT | abstract blocked: ConnectionRefusedError "
        "ECONNREFUSED",
        needs=FENCE,
    ),
    "connects-to-the-network": Attack(
        "files",
        patched(prelude=_NETWORK),
        _grade(**PRINTED),
        # its own network namespace: no route out, and a loopback nobody listens on
        "internet blocked: OSError ENETUNREACH | loopback blocked: ConnectionRefusedError "
        "ECONNREFUSED",
        needs=FENCE,
    ),
    "remounts-and-unshares-to-escape": Attack(
        "files",
        patched(prelude=_REMOUNT),
        _grade(**PRINTED),
        "escape attempts: [-1, -1, -1, -1, -1, -1, 'FileNotFoundError']",
        absent=("$here/$marker",),
        needs=FENCE,
    ),
    # -- forging inside the child: the runner and the driver patched through introspection ------
    # What only the child sees is the submission's own word: the forger gets what it forges,
    # with the reference solution handed in beside it, and is listed under "needs a look".
    "forges-board-abc-checks-from-inside": Attack(
        "grader",
        _forged_board_abc(_ROUTES),
        BOARD_ABC_REFERENCE | {"search": 15},  # forged answers the search checks see through
        LOOK + "_forge.py line 23: reads another frame (f_back)",
        assignment="board-abc",
        rubric=COURSE_RUBRIC,
        seconds=120.0,
    ),
    "forges-state-and-format-from-inside": Attack(
        "grader", _forged_teeko(_ROUTES), FULL, "reads another frame (f_back)"
    ),
    "forges-format-through-the-runners-module": Attack(
        "grader",
        _forged_teeko("(_by_main,)"),
        _grade(state=5, format=5),  # __main__ is the submission's own module, not the runner
        "each square should be a tuple (row, col), got [",
    ),
    "reaches-into-the-grader-by-other-means": Attack(
        "grader",
        patched(prelude=_REACHES_IN_BY_OTHER_MEANS),
        _grade(**PRINTED),
        # what it printed is its own business; the source is listed under "needs a look"
        "reads every thread's frame (sys._current_frames)",
    ),
    "forges-state-and-format-through-a-signal-handler": Attack(
        "grader", _forged_teeko("(_by_signal,)"), FULL, "reads another frame (f_back)"
    ),
    "forges-board-abc-checks-through-a-signal-handler": Attack(
        "grader",
        _forged_board_abc("(_by_signal,)"),
        BOARD_ABC_REFERENCE | {"search": 15},  # forged answers the search checks see through
        "also handed in: _forge.py, _ref/board.py, _ref/connectfour.py, _ref/minimax.py, "
        "_ref/tictactoe.py",
        assignment="board-abc",
        rubric=COURSE_RUBRIC,
        seconds=120.0,
    ),
    # -- the grader itself -------------------------------------------------------------------------
    "patches-random": Attack(
        "grader", patched(prelude=_PATCH_RANDOM), FULL, "won 2 of 2", same_games_as="honest"
    ),
    "seeds-random": Attack(
        "grader",
        patched("import random\nrandom.seed(7)", prelude="import random\nrandom.seed(7)\n"),
        FULL,
        "won 2 of 2",
        same_games_as="honest",
    ),
    "patches-time": Attack(
        "grader",
        in_move_phase(
            "began = _clock()\nwhile _clock() - began < 1.3:\n    pass", prelude=_PATCH_TIME
        ),
        _grade(time=13),
        "slowest make_move: 1.3",
        same_games_as="honest",
        seconds=_CPU_WORK_SECONDS,
    ),
    "patches-builtins-json-and-copy": Attack(
        "grader",
        patched(prelude=_PATCH_BUILTINS),
        FULL,
        "won 2 of 2",
        same_games_as="honest",
    ),
    "patches-the-autograder-package": Attack(
        "grader", patched(prelude=_PATCH_KIT), FULL, "won 2 of 2", same_games_as="honest"
    ),
    "silences-the-runner": Attack(
        "grader",
        patched('print("thinking")', prelude=_SILENCES_THE_RUNNER),
        _grade(**PRINTED),  # as a plain print
        "printed: thinking",
    ),
    "hides-its-code-compressed": Attack(
        "grader",
        patched(
            prelude=f"import zlib\nexec(zlib.decompress({zlib.compress(_HIDDEN.encode())!r}))\n"
        ),
        _grade(**PRINTED),
        "runs decoded code: exec() of zlib.decompress(...)",
    ),
    "writes-garbage-into-the-channel": Attack(
        "grader",
        patched(prelude=_CHANNEL_GARBAGE),
        ZERO,
        "the submission wrote into the grader's private pipe",
    ),
    "forges-a-reply": Attack(
        "grader",
        patched(prelude=_FORGED_REPLY),
        ZERO,
        "the submission wrote into the grader's private pipe",
    ),
    "forges-a-deeply-nested-reply": Attack(
        "grader",
        patched(prelude="import struct as _struct\n" + _DEEP_REPLY),
        ZERO,
        "the grader's channel received a reply that is not JSON during importing game.py",
    ),
    "lies-in-its-replies": Attack(
        "grader",
        patched(prelude=_THROUGH_A_SIGNAL + _LYING_SYNC),
        FULL,  # the host reads only what it expects, of the type it expects
        "won 2 of 2",
        same_games_as="honest",
    ),
    "closes-the-channel": Attack(
        "grader",
        patched(prelude=_CLOSE_CHANNEL),
        ZERO,
        "the submission's process exited with status 1 during importing game.py",
    ),
}
