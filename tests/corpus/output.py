"""The corpus's entries on what reaches the reports, malformed moves, broken files, archives."""

from __future__ import annotations

import codecs

from tests.conftest import TWO_SQUARES
from tests.corpus.model import (
    COURSE_RUBRIC,
    FULL,
    HONEST,
    MOVE_PHASE_ILLEGAL,
    PRINTED,
    ZERO,
    Attack,
    _archive,
    _grade,
    _lying_bomb,
    _zip,
    in_move_phase,
    patched,
)
from tests.corpus.snippets import (
    _FLOODS_REPORTS,
    _LIAR,
    _MARKDOWN_BREAKOUT,
    _MISSING_METHODS,
    _NAMEDTUPLES,
    _NEGATIVE,
    _NOTEBOOK,
    _NUMPY,
    _OFF_BOARD,
    _OPPONENTS_MARKER,
    LONG_CLASS_NAME,
    NAME_ESCAPES,
    TERMINAL_ESCAPES,
)

OUTPUT: dict[str, Attack] = {
    # -- what reaches the reports ------------------------------------------------------------------
    "prints-terminal-escapes": Attack(
        "reports",
        patched(prelude=f"print({TERMINAL_ESCAPES!r})\n"),
        _grade(**PRINTED),
        "printed: \\x1b[2J\\x1b[1;31mScore: 100/100\\x1b[0m\\x1b]0;pwned\\x07\\u202eevil",
    ),
    "breaks-out-of-markdown": Attack(
        "reports",
        patched(prelude=f"print({_MARKDOWN_BREAKOUT!r})\n"),
        _grade(**PRINTED),
        "printed: ``` | | # Score: 100/100",
    ),
    "defines-a-2000-character-class-name": Attack(
        "reports",
        f"class {LONG_CLASS_NAME}:\n    pass\n",
        ZERO,
        f"game.py defines no class TeekoPlayer (it defines: {'K' * 100}",  # then the cut's note
    ),
    "file-name-with-terminal-escapes": Attack(
        "reports",
        HONEST,
        FULL,
        "u202egnp.py",  # the name's end, as every format shows it (Markdown escapes the rest)
        filename=f"student{NAME_ESCAPES}.py",
    ),
    "floods-every-report-field": Attack(
        "reports",
        patched(prelude=_FLOODS_REPORTS),
        ZERO | PRINTED,
        "make_move raised HugeXXXXXXXX",
    ),
    # -- malformed moves --------------------------------------------------------------------------
    "returns-none": Attack(
        "moves",
        patched("return None"),
        _grade(rules=0, format=0, wins=0),
        "make_move must return a list like [(row, col)], got None",
        rubric=COURSE_RUBRIC,
    ),
    "returns-a-string": Attack(
        "moves",
        in_move_phase('return "C2 B1"'),
        _grade(**MOVE_PHASE_ILLEGAL),
        "make_move must return a list like [(row, col)], got 'C2 B1' (a str)",
    ),
    "returns-bools": Attack(
        "moves",
        in_move_phase("return [(True, False), (False, False)]"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "the row of the destination is True, a bool: booleans are not integers",
    ),
    "returns-numpy-integers": Attack(
        "moves",
        in_move_phase("return [tuple(_np.int64(v) for v in square) for square in move]", _NUMPY),
        _grade(format=5),
        "each square should be a tuple of two ints, got (np.int64(",
    ),
    "returns-namedtuples": Attack(
        "moves",
        patched("return [_Square(*square) for square in move]", prelude=_NAMEDTUPLES),
        _grade(format=0),  # legal values: the rules and the games count; the format does not
        "each square should be a tuple (row, col), got Square(",
    ),
    "returns-lists-instead-of-tuples": Attack(
        "moves",
        in_move_phase("return [list(square) for square in move]"),
        _grade(format=5),
        "each square should be a tuple (row, col), got [",
    ),
    "returns-a-generator": Attack(
        "moves",
        in_move_phase("return (square for square in move)"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "make_move must return a list like [(row, col)], got <generator object",
    ),
    "returns-an-object-with-lying-eq-and-len": Attack(
        "moves",
        in_move_phase(_LIAR),
        _grade(format=5),  # judged on the values list itself holds, whatever its methods say
        "make_move should return a list, got [(",
    ),
    "returns-an-off-board-square": Attack(
        "moves",
        in_move_phase(_OFF_BOARD),
        _grade(rules=10),
        "row 5 is off the board (rows are 0-4)",
    ),
    "returns-negative-indices": Attack(
        "moves",
        in_move_phase(_NEGATIVE),
        _grade(rules=10),
        "row -1 is off the board (rows are 0-4)",
    ),
    "moves-the-opponents-marker": Attack(
        "moves",
        in_move_phase(_OPPONENTS_MARKER),
        _grade(rules=10),
        "is not one of your markers (it is the opponent's marker)",
    ),
    "moves-two-squares": Attack(
        "moves",
        in_move_phase(TWO_SQUARES),
        _grade(rules=10),
        "is not adjacent to",
    ),
    "drops-after-the-drop-phase": Attack(
        "moves",
        in_move_phase("return [move[0]]"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "all 8 markers are down",
    ),
    # -- broken files -----------------------------------------------------------------------------
    "empty-file": Attack(
        "broken", "", ZERO, "game.py defines no class TeekoPlayer (it defines: no classes)"
    ),
    "saved-as-latin-1": Attack(
        "broken",
        HONEST.encode() + '\nGREETING = "Bienvenue au caf\u00e9"\n'.encode("latin-1"),
        ZERO,
        "Python cannot read game.py: 'utf-8' codec can't decode byte 0xe9 on line",
    ),
    "saved-as-latin-1-accent-in-a-comment": Attack(  # python game.py refuses it, import reads it
        "broken",
        "# Auteur : Jos\u00e9\n".encode("latin-1") + HONEST.encode(),
        FULL,
        "warning: game.py is not UTF-8 (line 1 holds the byte 0xe9) and has no coding line, so "
        "running python game.py stops with a SyntaxError; an import reads it, so it was graded",
    ),
    "coding-line-of-an-unknown-encoding": Attack(
        "broken",
        b"# -*- coding: klingon -*-\n" + HONEST.encode(),
        ZERO,
        "Python cannot read game.py: its coding line names klingon, an encoding Python does not "
        "know, so no import can run it; remove that line",
    ),
    "saved-as-utf-16": Attack(
        "broken",
        codecs.BOM_UTF16_LE + HONEST.encode("utf-16-le"),
        ZERO,
        "Python cannot read game.py: it holds NUL bytes, so no import can run it; save it with "
        "the UTF-8 encoding",
    ),
    "syntax-error": Attack(
        "broken",
        HONEST + "\ndef broken(:\n    pass\n",
        ZERO,
        "game.py has a syntax error (invalid syntax at line",
    ),
    "wrong-class-name": Attack(
        "broken",
        HONEST.replace("class TeekoPlayer", "class TeekoPlayr").replace(
            "TeekoPlayer", "TeekoPlayr"
        ),
        ZERO,
        "game.py defines no class TeekoPlayer (it defines: TeekoPlayr)",
        rubric=COURSE_RUBRIC,
    ),
    "missing-methods": Attack(
        "broken",
        _MISSING_METHODS,
        ZERO,
        "make_move raised AttributeError: 'TeekoPlayer' object has no attribute 'make_move'",
    ),
    "init-needs-arguments": Attack(
        "broken",
        HONEST.replace("def __init__(self) -> None:", "def __init__(self, depth: int) -> None:"),
        ZERO,
        "TeekoPlayer() raised TypeError: TeekoPlayer.__init__() missing 1 required positional "
        "argument: 'depth'",
    ),
    "missing-import": Attack(
        "broken",
        HONEST + "\nimport teeko_helpers_i_forgot_to_submit\n",
        ZERO,
        "game.py imports teeko_helpers_i_forgot_to_submit, which this course does not allow: "
        "the rubric allows numpy and the standard library; if teeko_helpers_i_forgot_to_submit "
        "is a file of yours, hand it in beside game.py",
    ),
    "imports-numpy": Attack(  # the course's rubric allows numpy; the kit installs it
        "broken",
        HONEST + "\nimport numpy as _np\n_EMPTY = _np.zeros((5, 5))\n",
        FULL,
        "won 2 of 2",
    ),
    "imports-a-package-the-course-does-not-allow": Attack(  # rich: the grader has it
        "broken",
        HONEST + "\nimport rich\n",
        ZERO,
        "game.py imports rich, which this course does not allow: the rubric allows numpy and "
        "the standard library",
    ),
    "input-at-import": Attack(
        "broken",
        HONEST + '\nname = input("Your move: ")\n',
        ZERO | PRINTED,  # the prompt was printed
        "game.py called input() while being imported",
    ),
    "notebook-saved-as-game-py": Attack(
        "broken", _NOTEBOOK, ZERO, "importing game.py raised NameError: name 'true' is not defined"
    ),
    # -- archives: ``check`` refuses them in one line (exit 2); ``grade`` gives a zero row ---------
    "zip-path-traversal": _archive(
        lambda ctx: _zip({"../game.py": HONEST, "game.py": HONEST}),
        "holds the entry '../game.py', which points outside the zip",
    ),
    "zip-absolute-path": _archive(
        lambda ctx: _zip({"/tmp/game.py": HONEST, "game.py": HONEST}),
        "holds the entry '/tmp/game.py', which points outside the zip",
    ),
    "zip-symlink": _archive(
        lambda ctx: _zip({}, link="game.py"), "holds the symlink 'game.py'; zip the file itself"
    ),
    "zip-bomb": _archive(
        lambda ctx: _zip({"game.py": HONEST, "padding.txt": b"\0" * (60 << 20)}),
        "unpacks to more than 50 MB; submit only game.py",
    ),
    "zip-bomb-with-lying-sizes": _archive(
        _lying_bomb, "is damaged ('game.py': Bad CRC-32 for file 'game.py'); zip it again"
    ),
    "zip-in-a-zip": _archive(
        lambda ctx: _zip({"inner.zip": _zip({"game.py": HONEST})}),
        "holds no game.py (it holds inner.zip)",
    ),
    "corrupt-zip": _archive(
        lambda ctx: _zip({"game.py": HONEST})[:-200],
        "is not a readable zip file; zip game.py again",
    ),
    "not-a-zip-named-zip": _archive(
        lambda ctx: HONEST.encode(), "is not a readable zip file; zip game.py again"
    ),
    "empty-zip": _archive(lambda ctx: _zip({}), "holds no game.py (it is empty)"),
    "zip-with-an-over-long-name": _archive(
        lambda ctx: _zip({"game.py": HONEST, "n" * 300 + ".py": "x"}),
        "holds a file or folder with a name too long to unpack",
    ),
    "zip-with-a-file-and-a-folder-of-the-same-name": _archive(
        lambda ctx: _zip({"game.py": HONEST, "helper": "x", "helper/util.py": "x"}),
        "holds 'helper' both as a file and as a folder; zip it again",
    ),
    "zip-with-two-game-py": _archive(
        lambda ctx: _zip({"a/game.py": HONEST, "b/game.py": HONEST}),
        "holds several game.py files (a/game.py, b/game.py); submit exactly one",
    ),
}
