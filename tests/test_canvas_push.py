"""``autograder canvas push`` against a local server that speaks the few Canvas endpoints it
uses (started and stopped by each test, on 127.0.0.1): a dry run sends nothing, a confirmed
run posts each grade with its comment and attaches the page, and each refusal is one line."""

from __future__ import annotations

import json
import re
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from autograder.classroom.records import STATUS_ERROR, STATUS_GRADED, Record
from tests.conftest import autograder_process

pytestmark = pytest.mark.timeout(120)

TOKEN = "secret-token-123"
COURSE, ASSIGNMENT = "7", "3"
_SUBMISSION = re.compile(rf"/api/v1/courses/{COURSE}/assignments/{ASSIGNMENT}/submissions/(\d+)")


@dataclass
class FakeCanvas:
    """What the server was sent: grades and comments per user, files uploaded, every request."""

    known_users: set[str]
    requests: list[str] = field(default_factory=list)
    grades: dict[str, str] = field(default_factory=dict)
    comments: dict[str, list[str]] = field(default_factory=dict)
    files: dict[str, list[int]] = field(default_factory=dict)
    uploads: list[bytes] = field(default_factory=list)
    url: str = ""


def _handler(canvas: FakeCanvas) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _answer(self, status: int, body: object) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _authorized(self) -> bool:
            if self.headers.get("Authorization") == f"Bearer {TOKEN}":
                return True
            self._answer(401, {"errors": [{"message": "Invalid access token."}]})
            return False

        def _form(self) -> dict[str, list[str]]:
            size = int(self.headers.get("Content-Length", "0"))
            return urllib.parse.parse_qs(self.rfile.read(size).decode())

        def do_GET(self) -> None:  # noqa: N802
            path = urllib.parse.urlparse(self.path).path
            canvas.requests.append(f"GET {path}")
            if not self._authorized():
                return
            if path == f"/api/v1/courses/{COURSE}":
                self._answer(200, {"id": int(COURSE), "name": "Intro AI"})
            elif path == f"/api/v1/courses/{COURSE}/assignments/{ASSIGNMENT}":
                self._answer(200, {"id": int(ASSIGNMENT), "course_id": int(COURSE)})
            elif (found := _SUBMISSION.fullmatch(path)) and found[1] in canvas.known_users:
                user = int(found[1])
                body = {"id": 900 + user, "user_id": user, "assignment_id": int(ASSIGNMENT)}
                self._answer(200, {**body, "course_id": int(COURSE)})
            else:
                self._answer(
                    404, {"errors": [{"message": "The specified resource does not exist."}]}
                )

        def do_PUT(self) -> None:  # noqa: N802
            path = urllib.parse.urlparse(self.path).path
            canvas.requests.append(f"PUT {path}")
            if not self._authorized():
                return
            found = _SUBMISSION.fullmatch(path)
            assert found, path
            form = self._form()
            user = found[1]
            if "submission[posted_grade]" in form:
                canvas.grades[user] = form["submission[posted_grade]"][0]
            canvas.comments.setdefault(user, []).extend(form.get("comment[text_comment]", []))
            ids = form.get("comment[file_ids][]", form.get("comment[file_ids]", []))
            canvas.files.setdefault(user, []).extend(int(i) for i in ids)
            self._answer(200, {"id": 900 + int(user), "user_id": int(user)})

        def do_POST(self) -> None:  # noqa: N802
            path = urllib.parse.urlparse(self.path).path
            canvas.requests.append(f"POST {path}")
            if path.startswith("/upload/"):  # step 2: the file itself, no token (as Canvas)
                size = int(self.headers.get("Content-Length", "0"))
                canvas.uploads.append(self.rfile.read(size))
                number = len(canvas.uploads)
                self._answer(200, {"id": number, "url": f"{canvas.url}/files/{number}"})
                return
            if not self._authorized():
                return
            if path.endswith("/comments/files"):  # step 1: where to upload
                self._form()
                upload = {"upload_url": f"{canvas.url}/upload/1", "upload_params": {"key": "k"}}
                self._answer(200, upload)
            else:
                self._answer(404, {"errors": [{"message": "no such endpoint"}]})

    return Handler


@pytest.fixture
def canvas() -> Iterator[FakeCanvas]:
    fake = FakeCanvas(known_users={"20001", "20002"})
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()


def _graded_folder(tmp_path: Path) -> Path:
    """A folder as ``autograder grade`` leaves it: five students, one unknown to Canvas, one
    without a Canvas id, one not graded."""
    out = tmp_path / "grades"
    students = [
        Record("ann", STATUS_GRADED, 88, 100, {}, canvas_id="20001"),
        Record("bo", STATUS_GRADED, 100, 100, {}, canvas_id="20002"),
        Record("cy", STATUS_GRADED, 70, 100, {}, canvas_id="20003"),  # Canvas does not know cy
        Record("di", STATUS_GRADED, 95, 100, {}),  # no Canvas id: skipped
        Record("ed", STATUS_ERROR, 0, 100, {}, reason="ed.zip holds no game.py", canvas_id="1"),
    ]
    for record in students:
        folder = out / "students" / record.student
        folder.mkdir(parents=True)
        (folder / "record.json").write_text(record.to_json())
        (folder / "feedback.md").write_text(
            f"# Feedback for {record.student}\n\nScore: {record.score:g}\n"
        )
        (folder / "feedback.html").write_text(f"<!doctype html><p>page of {record.student}</p>\n")
    return out


def _push(out: Path, canvas: FakeCanvas, *more: str, token: str | None = TOKEN):  # type: ignore[no-untyped-def]
    args = ["canvas", "push", "--out", str(out), "--url", canvas.url]
    args += ["--course", COURSE, "--assignment", ASSIGNMENT, *more]
    env = {"CANVAS_API_TOKEN": token} if token is not None else {"CANVAS_API_TOKEN": ""}
    return autograder_process(args, env, 60)


def test_a_dry_run_says_what_it_would_send_and_sends_nothing(tmp_path, canvas):
    done = _push(_graded_folder(tmp_path), canvas)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    size = len("# Feedback for ann\n\nScore: 88\n")
    ann = f"ann (Canvas user 20001): score 88, a comment of {size} characters"
    assert f"{ann}, feedback.html attached" in lines
    assert any(line.startswith("skipped: di: no Canvas user id") for line in lines)
    assert "skipped: ed: not graded (ed.zip holds no game.py)" in lines
    assert lines[-1] == (
        "dry run: nothing was sent; add --yes to post these 3 grades to course 7, assignment 3"
    )
    assert canvas.requests == []


def test_a_confirmed_push_posts_grades_comments_and_pages(tmp_path, canvas):
    done = _push(_graded_folder(tmp_path), canvas, "--yes")
    assert done.returncode == 0, done.stderr
    assert canvas.grades == {"20001": "88", "20002": "100"}
    assert canvas.comments["20001"] == ["# Feedback for ann\n\nScore: 88\n"]
    assert canvas.files == {"20001": [1], "20002": [2]}
    assert b"page of ann" in canvas.uploads[0] and b"page of bo" in canvas.uploads[1]
    lines = done.stdout.splitlines()
    assert "ann: posted 88, feedback.html attached" in lines
    refused = [line for line in lines if line.startswith("cy: ")]
    assert refused and refused[0].startswith("cy: not posted, Canvas said: ")
    assert refused[0] == "cy: not posted, Canvas said: Not Found"  # canvasapi's word for a 404


def test_without_a_token_nothing_is_sent_and_one_sentence_says_why(tmp_path, canvas):
    done = _push(_graded_folder(tmp_path), canvas, "--yes", token=None)
    assert done.returncode == 2
    assert "set CANVAS_API_TOKEN to a Canvas API token" in done.stderr
    assert "Traceback" not in done.stderr
    assert canvas.requests == []


def test_a_wrong_token_is_one_sentence(tmp_path, canvas):
    done = _push(_graded_folder(tmp_path), canvas, "--yes", token="wrong")
    assert done.returncode == 2
    assert f"cannot reach assignment 3 of course 7 at {canvas.url}" in done.stderr
    assert "Traceback" not in done.stderr
    assert canvas.grades == {}


def test_a_folder_that_was_never_graded_is_one_sentence(tmp_path, canvas):
    done = _push(tmp_path / "nothing", canvas)
    assert done.returncode == 2
    assert "holds no graded students; run autograder grade --out" in done.stderr
