"""The play page's server: 127.0.0.1 only, a free port, a page and four small JSON routes,
answering only the page it served.

``GET /`` the page, ``GET /state`` the game; ``POST /new`` ``{"mode", "ai", "opponent"}``,
``POST /click`` ``{"row", "col"}``, ``POST /step``: each answers with the game as it is then.
A body that is not a small JSON object gets a 400 with one sentence; nothing a browser sends
reaches the submission except as a move the rules accepted.

Any web page the person has open can send requests to 127.0.0.1, so every request must carry
this session's random token (in the printed address's ``?token=``, or the page's
``X-Play-Token`` header), name this server in ``Host`` (a page whose name was rebound to
127.0.0.1 names its own), come from this origin if it says where it comes from (``Origin``),
and a POST must be ``application/json`` (what a cross-site form cannot send, and what a
cross-site script can send only after a preflight this server never grants). Anything else
gets a 403 with one line, and the terminal says what was refused.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from autograder.live.page import PAGE
from autograder.live.table import Table

__all__ = ["PlayServer", "serve", "make_server", "TOKEN_HEADER"]

_MAX_BODY = 4096
TOKEN_HEADER = "X-Play-Token"
_NOT_YOURS = "this game belongs to another page: open the address autograder play printed"


class PlayServer(ThreadingHTTPServer):
    """A threading server that knows its session token and the names it answers to."""

    token: str
    refused: list[str]  # "POST /new: why", one per refused request, oldest first

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        """The address to open: the only one the page works at."""
        return f"http://127.0.0.1:{self.port}/?token={self.token}"

    def hosts(self) -> tuple[str, ...]:
        return (f"127.0.0.1:{self.port}", f"localhost:{self.port}")


class _Handler(BaseHTTPRequestHandler):
    table: Table  # set on the class made for each server
    server: PlayServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        """Quiet: the terminal shows only the address and what goes wrong."""

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, value: object, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _refuse(self, line: str) -> None:
        """403 with one line; the terminal names the request, never its token."""
        route = urlsplit(self.path).path
        self.server.refused.append(f"{self.command} {route}: {line}")
        print(f"autograder play: refused {self.command} {route}: {line}", file=sys.stderr)
        self.close_connection = True
        self._send(HTTPStatus.FORBIDDEN, (line + "\n").encode(), "text/plain; charset=utf-8")

    def _allowed(self) -> bool:
        """Host, token, origin and (for a POST) the body's type, or a 403 saying which."""
        server = self.server
        host = self.headers.get("Host", "")
        if host not in server.hosts():
            self._refuse(
                f"this server answers only to {' or '.join(server.hosts())}, not to "
                f"{host[:100]!r}: open the address autograder play printed"
            )
            return False
        query = parse_qs(urlsplit(self.path).query).get("token", [""])[0]
        token = self.headers.get(TOKEN_HEADER) or query
        if not hmac.compare_digest(token.encode(), server.token.encode()):
            self._refuse(_NOT_YOURS)
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin not in {f"http://{name}" for name in server.hosts()}:
            self._refuse(
                f"requests from {origin[:100]!r} are refused: "
                "only the page autograder play served may drive it"
            )
            return False
        if self.command == "POST":
            kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                self._refuse(
                    f"a POST here is JSON (Content-Type: application/json), not {kind[:100]!r}"
                )
                return False
        return True

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        if not self._allowed():
            return
        route = urlsplit(self.path).path
        if route in ("/", "/index.html"):
            self._send(HTTPStatus.OK, PAGE.encode(), "text/html; charset=utf-8")
        elif route == "/state":
            self._json(self.table.state())
        else:
            self._json({"error": "no such page"}, HTTPStatus.NOT_FOUND)

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        if not self._allowed():
            return
        body = self._body()
        if body is None:
            return
        table = self.table
        route = urlsplit(self.path).path
        if route == "/new":
            table.new(
                str(body.get("mode", "play")),
                str(body.get("ai", "")),
                str(body.get("opponent", "random")),
            )
        elif route == "/click":
            row, col = body.get("row"), body.get("col")
            if not isinstance(row, int) or not isinstance(col, int):
                self._json({"error": "a click is {row, col}, two integers"}, HTTPStatus.BAD_REQUEST)
                return
            table.click(row, col)
        elif route == "/step":
            table.step()
        else:
            self._json({"error": "no such action"}, HTTPStatus.NOT_FOUND)
            return
        self._json(table.state())

    def do_OPTIONS(self) -> None:  # noqa: N802 - the stdlib's name
        """A CORS preflight: never granted, so no other site's script may send JSON here."""
        self._refuse("this server grants no cross-origin requests")

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


def make_server(table: Table, port: int = 0) -> PlayServer:
    """A server for ``table`` on 127.0.0.1 (``port`` 0: a free one), not yet serving, with a
    fresh random token: its ``url`` is the one address that works."""
    handler = type("Handler", (_Handler,), {"table": table})
    server = PlayServer(("127.0.0.1", port), handler)
    server.token = secrets.token_urlsafe(24)
    server.refused = []
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
