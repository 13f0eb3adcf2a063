"""The rubric file: the course defaults, whole-file validation, and the generated docs table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder.errors import GraderError
from autograder.games import PACKS
from autograder.grading.rubric import load_rubric, reference
from tests.conftest import COURSE_TOML, TEEKO, assignment, course_rubric

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TEXT = COURSE_TOML.read_text()


def test_the_default_is_the_course_rubric():
    rubric = course_rubric()
    assert rubric.max_score == 100
    assert (rubric.rules.of("drop"), rubric.rules.of("move")) == (10, 15)
    assert (rubric.state.total, rubric.format.total) == (10, 10)
    assert [(t.limit, t.points) for t in rubric.time_tiers] == [(5.0, 25), (10.0, 13)]
    assert [(t.limit, t.points) for t in rubric.win_tiers] == [(2.0, 30), (1.0, 15)]
    assert (rubric.output_penalty, rubric.packaging_penalty) == (10, 0)
    assert (rubric.games, rubric.ply_cap, rubric.probes) == (3, 200, (("drop", 10), ("move", 10)))
    assert rubric.limits.call_seconds == 10.5


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rubric.toml"
    path.write_text(text)
    return path


def test_the_sandbox_limits_have_defaults_a_course_may_change(tmp_path):
    assert course_rubric().limits.packages == ("numpy",)
    text = re.sub(r"^packages = .*$", "processes = 16\npackages = []", DEFAULT_TEXT, flags=re.M)
    limits = load_rubric(_write(tmp_path, text), TEEKO).limits
    assert (limits.processes, limits.packages, limits.open_files) == (16, (), 256)


def test_each_game_allows_the_packages_its_course_uses(tmp_path):
    """The courses' own choices: numpy for Teeko's (common in its submissions), the standard
    library alone for the book's Board homework; every game's rubric says one or the other."""
    allowed = {name: load_rubric(None, pack).limits.packages for name, pack in PACKS.items()}
    assert allowed["teeko"] == ("numpy",) and allowed["board-abc"] == ()
    assert set(allowed.values()) <= {("numpy",), ()}
    omitted = re.sub(r"^packages = .*\n", "", DEFAULT_TEXT, flags=re.M)
    assert "packages" not in omitted
    assert load_rubric(_write(tmp_path, omitted), TEEKO).limits.packages == ("numpy",)


def test_a_course_can_change_any_number(tmp_path):
    text = DEFAULT_TEXT.replace("games = 3", "games = 5").replace("penalty = 10", "penalty = 5")
    rubric = load_rubric(_write(tmp_path, text), TEEKO)
    assert rubric.games == 5
    assert rubric.output_penalty == 5
    assert rubric.source == str(tmp_path / "rubric.toml")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("games = 3", "gmaes = 3", r"unknown key 'play.gmaes'; \[play\] takes games, ply_cap"),
        ("[output]", "[outptu]", r"unknown table \[outptu\]"),
        ("games = 3", 'games = "three"', r"play.games should be a whole number, got 'three'"),
        ("games = 3", "games = true", r"play.games should be a whole number, got True"),
        ("drop_points = 10", "drop_points = -10", r"rules.drop_points must not be negative"),
        ("games = 3", "", r"missing play.games"),
        ("{ wins = 1, points = 15 }", "{ wins = 1 }", r"wins.tiers\[1\] should be"),
        ("pattern = 'hw8_", "pattern = '(hw8_", r"packaging.pattern is not a regular expression"),
        ("[play]", "[play", r"is not valid TOML"),
        (
            'packages = ["numpy"]',
            'packages = ["numpy", "os; rm -rf"]',
            r"limits.packages holds 'os; rm -rf'; list importable names",
        ),
    ],
    ids=[
        "typo key",
        "typo table",
        "string",
        "bool",
        "negative",
        "missing",
        "tier",
        "regex",
        "toml",
        "package",
    ],
)
def test_a_broken_rubric_is_refused_in_one_sentence(tmp_path, old, new, message):
    assert old in DEFAULT_TEXT
    path = _write(tmp_path, DEFAULT_TEXT.replace(old, new, 1))
    with pytest.raises(GraderError, match=message) as caught:
        load_rubric(path, TEEKO)
    assert str(path) in str(caught.value)
    assert "\n" not in str(caught.value).strip()


def test_an_unreadable_rubric_file_is_named(tmp_path):
    with pytest.raises(GraderError, match="cannot read the rubric file .*missing.toml"):
        load_rubric(tmp_path / "missing.toml", TEEKO)


def test_docs_carry_the_current_option_table():
    assert reference(TEEKO) in (ROOT / "docs" / "rubric.md").read_text()


def test_visibility_goes_into_results_json_and_nowhere_else(tmp_path):
    """Gradescope's words per criterion and for the header; local reports show everything."""
    from autograder.grading.report import Feedback, markdown, results_json
    from autograder.grading.scoring import score
    from autograder.play.records import Session

    path = tmp_path / "course.toml"
    path.write_text(DEFAULT_TEXT + '\n[visibility]\nwins = "after_published"\nstdout = "hidden"\n')
    rubric = load_rubric(path, TEEKO)
    session = Session("game.py", assignment("teeko"), 0, rubric.plan, load_error="it broke")
    grade = score(session, rubric)
    results = results_json(Feedback(grade))
    seen = {test["tags"][0]: test["visibility"] for test in results["tests"]}
    assert seen["wins"] == "after_published"
    assert seen["rules"] == "visible"
    assert results["stdout_visibility"] == "hidden"
    assert "beats a random player" in markdown(Feedback(grade))


def test_a_visibility_gradescope_does_not_know_is_refused(tmp_path):
    path = tmp_path / "course.toml"
    path.write_text(DEFAULT_TEXT + '\n[visibility]\nwins = "later"\n')
    with pytest.raises(GraderError) as caught:
        load_rubric(path, TEEKO)
    assert str(caught.value) == (
        f"{path}: visibility.wins is 'later'; choose one of visible, after_due_date, "
        "after_published, hidden"
    )
