"""A loopback stand-in for CritPt's grading server (127.0.0.1 only), enforcing what the official one
states: an `x-api-key`, complete batches only (every expected id, each as often as the others),
and a daily limit of submissions per key. Replies as the official client reads them: aggregate
metrics on success, an error object with a 4xx status otherwise."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


class CritPtServer:
    def __init__(self, expected_ids: set[str], key: str = "k-test", daily_limit: int = 10,
                 score: Callable[[dict[str, Any]], bool] = lambda s: False, redirect_to: str | None = None) -> None:
        self.expected, self.key, self.limit, self.score = expected_ids, key, daily_limit, score
        self.redirect_to = redirect_to
        self.accepted = 0
        self.bodies: list[dict[str, Any]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _reply(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(raw)

            def do_POST(self) -> None:
                data = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))) or b"null")
                owner.bodies.append(data)
                if owner.redirect_to:
                    return self._reply(307, {}, {"location": owner.redirect_to})
                if self.headers.get("x-api-key") != owner.key:
                    return self._reply(401, {"detail": "Invalid or missing API key"})
                if owner.accepted >= owner.limit:
                    return self._reply(429, {"detail": f"Daily limit of {owner.limit} submissions reached"})
                subs = data.get("submissions") if isinstance(data, dict) else None
                if not isinstance(subs, list) or not subs:
                    return self._reply(400, {"detail": "No submissions"})
                counts: dict[str, int] = {}
                for s in subs:
                    counts[s.get("problem_id")] = counts.get(s.get("problem_id"), 0) + 1
                missing, unknown = owner.expected - set(counts), set(counts) - owner.expected
                if missing or unknown or len(set(counts.values())) != 1:
                    return self._reply(400, {"detail": f"Incomplete batch: missing {sorted(missing)[:5]}, "
                                                       f"unmatched {sorted(unknown)[:5]}"})
                owner.accepted += 1
                right = sum(bool(owner.score(s)) for s in subs)
                return self._reply(200, {"accuracy": right / len(subs), "timeout_rate": 0.0, "server_timeout_count": 0})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/evaluate"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "CritPtServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
