"""A loopback OpenAI-compatible chat server for tests and benchmarks, with scripted faults.

Replies are instant unless told otherwise. The reply text is the rest of a `mock-reply:` line in
the last user message, else the first reply rule whose `match` is a substring of the request body
(`replies`: [{"match", "reply"}], for protocols that send different prompts), else the configured
default. Fault rules match a substring of the request
body and play a sequence, one step per matching request (the last step repeats):
`ok`, `429` (with Retry-After), `500`, `503`, `400`, `401`, `timeout` (no reply for `hang_s`),
`close` (drop the connection), `malformed` (broken JSON), `length` (half the text, finish_reason
"length"), `empty` (no content), `301`/`302`/`303`/`307`/`308` (a redirect to `location`).
`usage` (a dict) replaces fields of every reply's usage counts (e.g. a hostile 10**30 tokens).
`GET /models` lists `models` (default: "mock"; any name is served),
or answers with the HTTP error that a rule matching every request ("") plays next.

Run it alone with `python -m physbench.runner.mock_server [--port P] [--config FILE]`; it prints
`listening http://127.0.0.1:PORT/v1` and serves until stdin closes or it is killed.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

MAX_BODY = 16 << 20


@dataclass
class FaultRule:
    match: str
    sequence: list[str]
    seen: int = 0

    def next_step(self) -> str:
        step = self.sequence[min(self.seen, len(self.sequence) - 1)]
        self.seen += 1
        return step


@dataclass
class MockConfig:
    reply: str = "\\boxed{1.018 cGy/MU}"
    delay_s: float = 0.0
    retry_after: str = "1"
    hang_s: float = 30.0
    faults: list[FaultRule] = field(default_factory=list)
    record: bool = False  # keep every request body (tests read MockServer.bodies)
    replies: list[tuple[str, str]] = field(default_factory=list)  # (substring of the body, reply text)
    usage: dict[str, Any] = field(default_factory=dict)  # fields that replace the reply's usage counts
    location: str = ""  # where a redirect step points
    error_message: str = ""  # the message of an error step's body (default "mock STATUS")
    models: list[str] = field(default_factory=lambda: ["mock"])  # what GET /models lists (any name is served)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "MockConfig":
        faults = [FaultRule(f["match"], list(f["sequence"])) for f in d.get("faults", [])]
        return cls(reply=d.get("reply", cls.reply), delay_s=float(d.get("delay_s", 0.0)),
                   retry_after=str(d.get("retry_after", "1")), hang_s=float(d.get("hang_s", 30.0)), faults=faults,
                   record=bool(d.get("record", False)),
                   replies=[(str(r["match"]), str(r["reply"])) for r in d.get("replies", [])],
                   usage=dict(d.get("usage") or {}), location=str(d.get("location", "")),
                   error_message=str(d.get("error_message", "")),
                   models=[str(m) for m in d.get("models", ["mock"])])


def _reply_text(request: dict[str, Any], default: str) -> str:
    messages = request.get("messages") or []
    user = next((m.get("content", "") for m in reversed(messages) if m.get("role") == "user"), "")
    for line in str(user).splitlines():
        if line.startswith("mock-reply:"):
            return line[len("mock-reply:"):].strip().replace("\\n", "\n")
    return default


def _scripted(request: dict[str, Any]) -> dict[str, Any] | None:
    """The scripted reply, if the latest user message holding a `mock-script:` JSON list exists:
    element k, where k counts the assistant messages after that user message (the last element
    once the script runs out). An element is reply text or {"content", "tool_calls", "finish_reason"};
    a tool call is {"id", "name", "arguments"} (arguments: text sent as is, or JSON encoded)."""
    messages = request.get("messages") or []
    for at in range(len(messages) - 1, -1, -1):
        m = messages[at]
        if not isinstance(m, dict) or m.get("role") != "user":
            continue
        for line in str(m.get("content", "")).splitlines():
            if line.startswith("mock-script:"):
                try:
                    script = json.loads(line[len("mock-script:"):])
                except ValueError:
                    return None
                if not isinstance(script, list) or not script:
                    return None
                k = sum(1 for x in messages[at + 1:] if isinstance(x, dict) and x.get("role") == "assistant")
                step = script[min(k, len(script) - 1)]
                if not isinstance(step, dict):
                    return {"content": str(step), "tool_calls": [], "finish_reason": "stop"}
                calls = [c if "function" in c else
                         {"id": c.get("id", f"call_{i}"), "type": "function",
                          "function": {"name": c.get("name", ""), "arguments": c["arguments"] if isinstance(
                              c.get("arguments"), str) else json.dumps(c.get("arguments", {}))}}
                         for i, c in enumerate(step.get("tool_calls") or [])]
                return {"content": step.get("content"), "tool_calls": calls,
                        "finish_reason": step.get("finish_reason") or ("tool_calls" if calls else "stop")}
    return None


def _completion_body(request: dict[str, Any], text: str | None, finish: str,
                     tool_calls: list[Any] | None = None, usage: dict[str, Any] | None = None) -> bytes:
    prompt_chars = sum(len(str(m.get("content", ""))) for m in request.get("messages") or [])
    prompt_tokens, completion_tokens = prompt_chars // 4 + 1, len(text or "") // 4 + 1
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = tool_calls
    counts: dict[str, Any] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                              "total_tokens": prompt_tokens + completion_tokens, **(usage or {})}
    thought = _reasoning_tokens(request)
    if thought:  # a request with reasoning settings "thinks": counted as OpenAI counts it (inside completion)
        counts["completion_tokens"] += thought
        counts["total_tokens"] += thought
        counts["completion_tokens_details"] = {"reasoning_tokens": thought}
    return json.dumps({
        "id": "mock-1", "object": "chat.completion", "created": int(time.time()), "model": request.get("model", "mock"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": counts,
    }).encode()


MOCK_THOUGHT = {"minimal": 0, "low": 100, "medium": 400, "high": 1600}  # reasoning tokens per reply by effort


def _reasoning_tokens(request: dict[str, Any]) -> int:
    """Reasoning tokens the mock reports: by `reasoning_effort`, capped by `thinking.budget_tokens`."""
    effort = MOCK_THOUGHT.get(str(request.get("reasoning_effort")), 0)
    thinking = request.get("thinking")
    budget = thinking.get("budget_tokens") if isinstance(thinking, dict) else None
    if isinstance(budget, int) and budget > 0:
        return min(effort or budget, budget)
    return effort


_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
            500: "Internal Server Error", 503: "Service Unavailable"}


class _Connection(asyncio.Protocol):
    def __init__(self, server: "MockServer") -> None:
        self.server = server
        self.buffer = b""
        self.transport: asyncio.Transport | None = None
        self.busy = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.busy:
            self._next_request()

    def _next_request(self) -> None:
        head_end = self.buffer.find(b"\r\n\r\n")
        if head_end < 0:
            return
        head = self.buffer[:head_end].decode("latin-1").split("\r\n")
        length = 0
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip() or 0)
        if length > MAX_BODY:
            self._send(400, b"{}", close=True)
            return
        if len(self.buffer) < head_end + 4 + length:
            return
        body = self.buffer[head_end + 4: head_end + 4 + length]
        self.buffer = self.buffer[head_end + 4 + length:]
        method, path = (head[0].split(" ") + ["", ""])[:2]
        self.busy = True
        self.server.handle(self, method, path, body)

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None, close: bool = False) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}", "Content-Type: application/json",
                 f"Content-Length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if close:
            lines.append("Connection: close")
        self.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        if close:
            self.transport.close()
        self.busy = False
        if self.buffer and not close:
            self._next_request()

    def respond(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self._send(status, body, headers)

    def drop(self) -> None:
        if self.transport is not None:
            self.transport.close()


class MockServer:
    """The server; `start()` runs it on its own thread and event loop, `stop()` ends it."""

    def __init__(self, config: MockConfig | None = None, port: int = 0) -> None:
        self.config = config or MockConfig()
        self.port = port
        self.requests: Counter[str] = Counter()  # by step played ("ok", "429", ...)
        self.connections: set[_Connection] = set()
        self.bodies: list[bytes] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: OSError | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def handle(self, conn: _Connection, method: str, path: str, body: bytes) -> None:
        if method == "GET" and path.endswith("/stats"):
            conn.respond(200, json.dumps(dict(self.requests)).encode())
            return
        if method == "GET" and path.rstrip("/") in ("", "/v1"):
            conn.respond(200, b'{"object": "physbench mock server", "see": "/v1/models"}')
            return
        if method == "GET" and path.endswith("/models"):
            self._list_models(conn)
            return
        if method != "POST" or not path.endswith("/chat/completions"):
            conn.respond(404, b'{"error": {"message": "not found"}}')
            return
        if self.config.record:
            self.bodies.append(body)
        step = "ok"
        for rule in self.config.faults:
            if rule.match.encode() in body:
                step = rule.next_step()
                break
        self.requests[step] += 1
        if self.config.delay_s > 0 and step not in ("timeout",):
            assert self._loop is not None
            self._loop.call_later(self.config.delay_s, self._play, conn, step, body)
        else:
            self._play(conn, step, body)

    def _list_models(self, conn: _Connection) -> None:
        """GET /models: the configured names, unless a fault rule for every request (match "") says
        its next step is an HTTP error, which this answers too (without using up the step)."""
        every = next((rule for rule in self.config.faults if rule.match == ""), None)
        if every is not None:
            step = every.sequence[min(every.seen, len(every.sequence) - 1)]
            if step.isdigit():
                conn.respond(int(step), json.dumps({"error": {"message": f"mock {step}"}}).encode())
                return
        conn.respond(200, json.dumps({"object": "list", "data": [{"id": m, "object": "model", "owned_by": "mock"}
                                                                 for m in self.config.models]}).encode())

    def _play(self, conn: _Connection, step: str, body: bytes) -> None:
        if step == "timeout":
            assert self._loop is not None
            self._loop.call_later(self.config.hang_s, conn.drop)
            return
        if step == "close":
            conn.drop()
            return
        if step.isdigit():
            headers = ({"Retry-After": self.config.retry_after} if step == "429" else
                       {"Location": self.config.location} if step.startswith("30") else None)
            message = self.config.error_message or f"mock {step}"
            conn.respond(int(step), json.dumps({"error": {"message": message}}).encode(), headers)
            return
        if step == "malformed":
            conn.respond(200, b'{"choices": [{"message": {"content": "\\\\boxed{1')
            return
        try:
            request = json.loads(body)
        except ValueError:
            conn.respond(400, b'{"error": {"message": "bad json"}}')
            return
        scripted = _scripted(request) if b"mock-script:" in body else None
        if scripted is not None and step == "ok":
            conn.respond(200, _completion_body(request, scripted["content"], scripted["finish_reason"],
                                               scripted["tool_calls"]))
            return
        default = next((reply for match, reply in self.config.replies if match.encode() in body), self.config.reply)
        text = _reply_text(request, default)
        if step == "length":
            conn.respond(200, _completion_body(request, text[: len(text) // 2], "length"))
        elif step == "empty":
            conn.respond(200, _completion_body(request, "", "stop"))  # an empty reply (null content is malformed)
        else:
            conn.respond(200, _completion_body(request, text, "stop", usage=self.config.usage))

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._server = await self._loop.create_server(lambda: _Connection(self), "127.0.0.1", self.port,
                                                      backlog=1024)
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()

    def start(self) -> "MockServer":
        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._serve())
            except OSError as exc:  # the port is taken: start() raises it
                self._error = exc
                self._ready.set()
                loop.close()
                return
            loop.run_forever()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, name="mock-openai", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("mock server did not start")
        if self._error is not None:
            self._loop = None
            raise self._error
        return self

    def stop(self) -> None:
        if self._loop is None or self._thread is None:
            return

        def shutdown() -> None:
            assert self._server is not None and self._loop is not None
            self._server.close()
            for conn in list(self.connections):
                conn.drop()
            self._loop.stop()

        self._loop.call_soon_threadsafe(shutdown)
        self._thread.join(10)

    def __enter__(self) -> "MockServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="loopback OpenAI-compatible mock server")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--config", help="JSON file with reply, delay_s, retry_after, hang_s, faults")
    args = parser.parse_args(argv)
    config = MockConfig()
    if args.config:
        with open(args.config, encoding="utf-8") as fh:
            config = MockConfig.from_dict(json.load(fh))
    server = MockServer(config, args.port).start()
    print(f"listening {server.base_url}", flush=True)
    try:
        sys.stdin.read()  # serve until the parent closes our stdin (or kills us)
    except KeyboardInterrupt:
        pass
    server.stop()


if __name__ == "__main__":
    main()
