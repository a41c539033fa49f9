"""`physbench view`: a small local web server (127.0.0.1 only) to browse every response of some runs.

Routes: `/` (the page), `/app.js`, `/app.css`, `/api/meta` (runs and filter values),
`/api/responses?model=&kind=&outcome=&<suite filters>=&offset=&limit=` (a page of rows) and
`/api/responses/N` (one response beside its item, reference, grade and attribution). Read-only:
only GET and HEAD are answered. Requests whose Host is not this server's loopback address are
refused (a guard against DNS rebinding), and every answer forbids framing, sniffing and any
script or style but the page's own.
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from physbench.report.viewer_assets import PAGE, SCRIPT, STYLE
from physbench.report.viewer_data import ResponseIndex
from physbench.report.viewer_vendor import vendor_asset

HOST = "127.0.0.1"
MAX_PATH = 4096
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
STATIC = {
    "/": ("text/html; charset=utf-8", PAGE),
    "/index.html": ("text/html; charset=utf-8", PAGE),
    "/app.js": ("text/javascript; charset=utf-8", SCRIPT),
    "/app.css": ("text/css; charset=utf-8", STYLE),
}


def json_bytes(obj: Any) -> bytes:
    """JSON with '<', '>' and '&' escaped, so that even a page that misread it as HTML would see no tag."""
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").encode("utf-8")


def _int(values: dict[str, list[str]], name: str, default: int) -> int:
    raw = values.get(name, [""])[0]
    if not raw:
        return default
    if not raw.isdigit() or len(raw) > 9:
        raise ValueError(f"{name} must be a whole number")
    return int(raw)


class ViewerHandler(BaseHTTPRequestHandler):
    """Answers the viewer's routes from the server's ResponseIndex."""

    server: "ViewerServer"
    server_version = "physbench-view"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        if self.server.verbose:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, content_type: str, head_only: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if not head_only:
            self.wfile.write(body)

    def _json(self, status: int, obj: Any, head_only: bool = False) -> None:
        self._send(status, json_bytes(obj), "application/json; charset=utf-8", head_only)

    def _error(self, status: HTTPStatus, message: str, head_only: bool = False) -> None:
        self._json(status, {"error": message}, head_only)

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        port = self.server.server_address[1]
        return host in {f"{HOST}:{port}", f"localhost:{port}"}

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
        self._route(head_only=True)

    def do_GET(self) -> None:  # noqa: N802
        self._route(head_only=False)

    def _route(self, head_only: bool) -> None:
        if len(self.path) > MAX_PATH:
            return self._error(HTTPStatus.REQUEST_URI_TOO_LONG, "request too long", head_only)
        if not self._host_ok():
            return self._error(HTTPStatus.MISDIRECTED_REQUEST, "unexpected Host header", head_only)
        parts = urlsplit(self.path)
        path = parts.path
        if path in STATIC:
            content_type, text = STATIC[path]
            return self._send(HTTPStatus.OK, text.encode("utf-8"), content_type, head_only)
        asset = vendor_asset(path)  # the math script and KaTeX (viewer_vendor.py)
        if asset is not None:
            return self._send(HTTPStatus.OK, asset[1], asset[0], head_only)
        if path == "/favicon.ico":
            return self._send(HTTPStatus.NO_CONTENT, b"", "text/plain", head_only)
        index = self.server.index
        if path == "/api/meta":
            return self._json(HTTPStatus.OK, index.meta(), head_only)
        if path == "/api/responses":
            try:
                values = parse_qs(parts.query, keep_blank_values=False, max_num_fields=20)
                filters = {name: values[name][0] for name in index.filters if name in values}
                page = index.query(filters, _int(values, "offset", 0), _int(values, "limit", 100))
            except ValueError as exc:
                return self._error(HTTPStatus.BAD_REQUEST, str(exc), head_only)
            return self._json(HTTPStatus.OK, page, head_only)
        if path.startswith("/api/responses/"):
            key = path.rsplit("/", 1)[1]
            detail = index.detail(int(key)) if key.isdigit() and len(key) <= 9 else None
            if detail is None:
                return self._error(HTTPStatus.NOT_FOUND, "no such response", head_only)
            return self._json(HTTPStatus.OK, detail, head_only)
        return self._error(HTTPStatus.NOT_FOUND, "not found", head_only)

    def _method_not_allowed(self) -> None:
        # the request body is never read, so the connection cannot carry another request
        self.close_connection = True
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, "the viewer is read-only")

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _method_not_allowed  # noqa: N815


class ViewerServer(ThreadingHTTPServer):
    """The viewer bound to 127.0.0.1 (port 0: a free port); `start()` serves on a thread, `stop()` ends it."""

    daemon_threads = True

    def __init__(self, index: ResponseIndex, port: int = 0, *, verbose: bool = False) -> None:
        super().__init__((HOST, port), ViewerHandler)
        self.index = index
        self.verbose = verbose
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def start(self) -> "ViewerServer":
        self._thread = threading.Thread(target=self.serve_forever, name="physbench-view", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self.server_close()
