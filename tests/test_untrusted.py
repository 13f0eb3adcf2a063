"""Submission-made text, cleaned where it enters and escaped for each report format."""

from __future__ import annotations

import pytest

from autograder.play.untrusted import clean, clean_tree, csv_cell, md_cell, md_code


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


def test_a_long_text_is_cut_with_a_note():
    assert clean("x" * 1000, 10) == "x" * 10 + " [... 990 more characters]"


def test_a_whole_reply_is_cleaned_keys_too():
    tree = {"ok": True, "error\x1b": ["\x1b[0m", {"n": 3, "s": "\x07" * 5000}]}
    cleaned = clean_tree(tree, 100)
    assert cleaned["error\\x1b"][0] == "\\x1b[0m"
    assert cleaned["error\\x1b"][1]["n"] == 3
    assert cleaned["error\\x1b"][1]["s"].endswith("[... 4900 more characters]")


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
