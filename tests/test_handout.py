"""``autograder starter``: the kit's starter (or answer key) copied out, never over a file."""

from __future__ import annotations

from autograder.files import kit_path
from tests.conftest import ROOT


def test_a_checkout_finds_its_own_course_folders():
    """Run from the source tree (or an editable install), the kit's files are the checkout's."""
    assert kit_path() == ROOT
    assert kit_path("solution/teeko2/game.py") == ROOT / "solution" / "teeko2" / "game.py"


def test_the_starter_and_the_answer_key_are_copied_out(run_cli, tmp_path):
    done = run_cli("starter", "teeko2", "--to", str(tmp_path / "mine"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{tmp_path / 'mine' / 'game.py'}\n"
    mine = (tmp_path / "mine" / "game.py").read_bytes()
    assert mine == (ROOT / "starter" / "teeko2" / "game.py").read_bytes()
    done = run_cli("starter", "board-abc", "--to", str(tmp_path / "book"))
    assert sorted(p.name for p in (tmp_path / "book").iterdir()) == sorted(
        p.name for p in (ROOT / "starter" / "board-abc").iterdir()
    )
    done = run_cli("starter", "connect4", "--answer-key", "--to", str(tmp_path / "key"))
    key = (ROOT / "answer_key" / "connect4" / "game.py").read_bytes()
    assert (tmp_path / "key" / "game.py").read_bytes() == key


def test_a_file_already_there_is_never_overwritten(run_cli, tmp_path):
    (tmp_path / "game.py").write_text("my work\n")
    done = run_cli("starter", "teeko2", "--to", str(tmp_path), expect_ok=False)
    assert done.returncode == 2
    assert done.stderr == (
        f"autograder: game.py already in {tmp_path}: move it away, or choose another folder "
        "with --to FOLDER\n"
    )
    assert (tmp_path / "game.py").read_text() == "my work\n"


def test_an_assignment_without_an_answer_key_is_one_sentence(run_cli, tmp_path):
    done = run_cli("starter", "board-abc", "--answer-key", "--to", str(tmp_path), expect_ok=False)
    assert done.returncode == 2
    assert done.stderr.startswith("autograder: the kit has no answer key for board-abc (looked in")
    assert list(tmp_path.iterdir()) == []
