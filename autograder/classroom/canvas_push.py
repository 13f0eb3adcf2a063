"""Grades and feedback back to Canvas: ``autograder canvas push``.

From a graded folder (``autograder grade --out DIR``), each graded student with a Canvas user
id (from Canvas's download names, or the roster) gets the score posted to one assignment, the
feedback as a submission comment, and the HTML page attached to it. It goes through canvasapi
(a well-kept client of Canvas's REST API), with an API token from the environment only. A dry
run, the default, prints what would be sent and sends nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.classroom.records import STATUS_GRADED, read_record
from autograder.errors import GraderError

__all__ = ["Post", "TOKEN_VARIABLE", "plan", "describe", "push"]

TOKEN_VARIABLE = "CANVAS_API_TOKEN"
COMMENT_CHARS = 8000  # of feedback.md in the comment; the attached page holds everything


@dataclass(frozen=True)
class Post:
    """What one student gets: the score, a comment, and the page to attach (if written)."""

    student: str
    user_id: str
    score: float
    comment: str
    page: Path | None


def plan(out: Path) -> tuple[list[Post], list[str]]:
    """The posts for the graded folder ``out``, and one sentence per student left out.

    :raises GraderError: when ``out`` holds no graded students at all.
    """
    folders = sorted(
        p for p in (out / "students").glob("*") if p.is_dir() and not p.name.startswith(".")
    )  # a hidden folder is a half-written one a grader left when it died (files.replace_folder)
    posts, skipped = [], []
    for folder in folders:
        record = read_record(folder / "record.json")
        if record is None:
            skipped.append(f"{folder.name}: no finished grade (run grade again)")
            continue
        if record.status != STATUS_GRADED:
            skipped.append(f"{record.student}: not graded ({record.reason})")
            continue
        if not record.canvas_id:
            skipped.append(
                f"{record.student}: no Canvas user id (not in a Canvas download's names; "
                "grade with --roster to match it)"
            )
            continue
        feedback = folder / "feedback.md"
        text = feedback.read_text("utf-8") if feedback.is_file() else ""
        if len(text) > COMMENT_CHARS:
            text = text[:COMMENT_CHARS] + "\n... (the rest is in the attached page)\n"
        page = folder / "feedback.html"
        posts.append(
            Post(
                record.student,
                record.canvas_id,
                record.score,
                text,
                page if page.is_file() else None,
            )
        )
    if not posts and not skipped:
        raise GraderError(f"{out} holds no graded students; run autograder grade --out {out} first")
    return posts, skipped


def describe(posts: list[Post], course: str, assignment: str) -> list[str]:
    """What a dry run prints: a line per student, nothing sent."""
    lines = [
        f"{post.student} (Canvas user {post.user_id}): score {post.score:g}, a comment of "
        f"{len(post.comment)} characters" + (", feedback.html attached" if post.page else "")
        for post in posts
    ]
    lines.append(
        f"dry run: nothing was sent; add --yes to post these {len(posts)} grades to course "
        f"{course}, assignment {assignment}"
    )
    return lines


def _client(url: str, token: str) -> Any:
    from canvasapi import Canvas  # imported here: only this command needs it

    return Canvas(url, token)


def push(
    posts: list[Post],
    url: str,
    token: str,
    course: str,
    assignment: str,
    client: Callable[[str, str], Any] = _client,
) -> list[str]:
    """Post each grade and comment, and attach each page; a line per student saying what
    happened. A student Canvas refuses is one sentence; the others are still sent.

    :raises GraderError: when the course or the assignment cannot be reached at all.
    """
    from canvasapi.exceptions import CanvasException

    try:
        target = client(url, token).get_course(course).get_assignment(assignment)
    except (CanvasException, OSError, ValueError) as err:
        raise GraderError(
            f"cannot reach assignment {assignment} of course {course} at {url}: {err}"
        ) from None
    said = []
    for post in posts:
        try:
            submission = target.get_submission(post.user_id)
            submission.edit(
                submission={"posted_grade": f"{post.score:g}"},
                comment={"text_comment": post.comment},
            )
            attached = ""
            if post.page is not None:
                done, _ = submission.upload_comment(post.page)
                attached = ", feedback.html attached" if done else ", the page did not upload"
            said.append(f"{post.student}: posted {post.score:g}{attached}")
        except (CanvasException, OSError, ValueError) as err:
            said.append(f"{post.student}: not posted, Canvas said: {err}")
    return said
