"""Submission-made text, cleaned where it enters and escaped for each report format."""

from __future__ import annotations

import subprocess

import pytest

from autograder.play.untrusted import (
    BOUNDS,
    admit,
    admit_reply,
    clean,
    csv_cell,
    md_cell,
    md_code,
    shell_word,
)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2J\x1b[31mred", "\\x1b[2J\\x1b[31mred"),
        ("bell\x07 and nul\x00", "bell\\x07 and nul\\x00"),
        ("\u202eevil\u2066", "\\u202eevil\\u2066"),
        ("lone \ud800 surrogate", "lone \\ud800 surrogate"),
        ("line\u2028separator", "line\\u2028separator"),
        ("caf\u00e9 \u4e2d \U0001f600", "caf\u00e9 \u4e2d \U0001f600"),
        ("two\nlines\tand a tab", "two\nlines\tand a tab"),
    ],
    ids=["ansi", "bell and nul", "bidi", "surrogate", "line separator", "unicode", "newlines"],
)
def test_control_characters_become_visible_escapes(raw, shown):
    assert clean(raw) == shown
    shown.encode("utf-8")  # always writable as UTF-8


@pytest.mark.parametrize("kind", ["name", "repr", "file", "path", "sentence"])
def test_a_name_keeps_to_one_line(kind):
    """A file named ``x\ngraded bob: 100`` must not print a line of its own in the log."""
    assert admit("new\nline\tand tab", kind) == "new\\x0aline\\x09and tab"
    assert admit("printed\nlines", "printed") == "printed\nlines"


def test_a_long_text_is_cut_with_a_note():
    assert clean("x" * 1000, 10) == "x" * 10 + " [... 990 more characters]"


def test_a_whole_reply_is_cleaned_keys_too():
    tree = {"ok": True, "error\x1b": ["\x1b[0m", {"n": 3, "s": "\x07" * 5000}]}
    cleaned = admit_reply(tree)
    assert cleaned["error\\x1b"][0] == "\\x1b[0m"
    assert cleaned["error\\x1b"][1]["n"] == 3
    assert cleaned["error\\x1b"][1]["s"].endswith("[... 4700 more characters]")  # a note: 300


@pytest.mark.parametrize(
    ("kind", "bound"),
    [("name", 100), ("repr", 300), ("message", 400), ("file", 255), ("printed", 4096)],
)
def test_each_kind_of_text_is_cut_to_its_bound(kind, bound):
    assert BOUNDS[kind] == bound
    assert admit("\u202e" + "x" * 5000, kind).startswith("\\u202exxx")
    assert admit("x" * 5000, kind) == "x" * bound + f" [... {5000 - bound} more characters]"


def test_each_field_of_a_reply_is_cut_by_its_kind():
    reply = admit_reply(
        {
            "ok": False,
            "error": "Huge" + "X" * 5000 + ": " + "E" * 5000,
            "value": [{"type": "T" * 500, "repr": "R" * 500}],
        }
    )
    assert reply["error"].startswith("Huge" + "X" * 96 + " [... 4904 more characters]: EEE")
    assert len(reply["error"]) < 700
    assert reply["value"][0]["type"] == "T" * 100 + " [... 400 more characters]"
    assert reply["value"][0]["repr"] == "R" * 300 + " [... 200 more characters]"


def test_the_class_names_of_a_missing_player_class_are_cut_one_by_one():
    names = ", ".join(["K" * 2000, "\x1bB", *(f"C{i}" for i in range(20))])
    reply = admit_reply({"ok": False, "kind": "class", "error": names})
    assert reply["error"] == (
        "K" * 100 + " [... 1900 more characters], \\x1bB, C0, C1, C2, C3, C4, C5, C6, C7 "
        "and 12 more"
    )


@pytest.mark.parametrize("text", ["plain", "```", "a ```` b", "`" * 12, "~~~\n```python"])
def test_a_code_block_cannot_be_closed_from_inside(text):
    opening, body, closing = md_code(text)
    assert opening.startswith("```") and closing == opening[: len(closing)]
    assert body == text
    assert closing not in text


def test_a_table_cell_holds_no_markup():
    cell = md_cell("| **100/100** <img src=x onerror=alert(1)>\n# `x` [a](b) make_move")
    assert "\n" not in cell and "make_move" in cell
    for char in "|*<>`[]":
        assert all(cell[i - 1] == "\\" for i, c in enumerate(cell) if c == char)


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1+2", "'+1+2"),
        ("-x", "'-x"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("-10", "-10"),
        ("12.5", "12.5"),
        ("alice", "alice"),
        ("", ""),
    ],
)
def test_a_spreadsheet_cell_never_starts_a_formula(text, safe):
    assert csv_cell(text) == safe


@pytest.mark.parametrize(
    ("word", "quoted"),
    [
        ("plain.py", "plain.py"),
        ("two words.py", "'two words.py'"),
        ("evil\x1b[31m\u202egame.py", "$'evil\\x1b[31m\\u202egame.py'"),
        ("it's\x07", "$'it\\'s\\x07'"),
    ],
)
def test_a_shell_word_reproduces_the_name_and_holds_nothing_raw(word, quoted, tmp_path):
    assert shell_word(word) == quoted
    done = subprocess.run(
        ["bash", "-c", f"printf %s {quoted}"], capture_output=True, check=True, timeout=30
    )
    assert done.stdout.decode() == word
