"""The play page's server: 127.0.0.1 only, a free port, a page and four small JSON routes.

``GET /`` the page, ``GET /state`` the game; ``POST /new`` ``{"mode", "ai", "opponent"}``,
``POST /click`` ``{"row", "col"}``, ``POST /step``: each answers with the game as it is then.
A body that is not a small JSON object gets a 400 with one sentence; nothing a browser sends
reaches the submission except as a move the rules accepted.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from autograder.live.page import PAGE
from autograder.live.table import Table

__all__ = ["serve", "make_server"]

_MAX_BODY = 4096


class _Handler(BaseHTTPRequestHandler):
    table: Table  # set on the class made for each server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        """Quiet: the terminal shows only the address and what goes wrong."""

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, value: object, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        if self.path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, PAGE.encode(), "text/html; charset=utf-8")
        elif self.path == "/state":
            self._json(self.table.state())
        else:
            self._json({"error": "no such page"}, HTTPStatus.NOT_FOUND)

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        body = self._body()
        if body is None:
            return
        table = self.table
        if self.path == "/new":
            table.new(
                str(body.get("mode", "play")),
                str(body.get("ai", "")),
                str(body.get("opponent", "random")),
            )
        elif self.path == "/click":
            row, col = body.get("row"), body.get("col")
            if not isinstance(row, int) or not isinstance(col, int):
                self._json({"error": "a click is {row, col}, two integers"}, HTTPStatus.BAD_REQUEST)
                return
            table.click(row, col)
        elif self.path == "/step":
            table.step()
        else:
            self._json({"error": "no such action"}, HTTPStatus.NOT_FOUND)
            return
        self._json(table.state())

    def _body(self) -> dict[str, Any] | None:
        try:
            size = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            size = -1
        if not 0 <= size <= _MAX_BODY:
            self._json(
                {"error": f"a request body is at most {_MAX_BODY} bytes"}, HTTPStatus.BAD_REQUEST
            )
            return None
        try:
            body = json.loads(self.rfile.read(size) or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            self._json({"error": "the body must be a JSON object"}, HTTPStatus.BAD_REQUEST)
            return None
        return body


def make_server(table: Table, port: int = 0) -> ThreadingHTTPServer:
    """A server for ``table`` on 127.0.0.1 (``port`` 0: a free one), not yet serving."""
    handler = type("Handler", (_Handler,), {"table": table})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def serve(server: ThreadingHTTPServer, table: Table) -> None:
    """Serve until interrupted; the table's processes are closed whatever happens."""
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        table.close()
