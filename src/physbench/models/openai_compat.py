"""Any OpenAI-compatible chat endpoint (vLLM, llama.cpp server, hosted APIs).

One `generate` call is one HTTP request; failures are classified as `ModelError(retryable=...)`
and the runner's retry policy decides what to do with them.

The client is aiohttp rather than httpx: at 64 requests in flight httpx's connection pool spends
its time rescanning connections (encode/httpx#3215) and manages about 160 requests/s on two
cores, where aiohttp sustains thousands (see benchmarks/runner.py).
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Sequence
from urllib.parse import urlsplit

import aiohttp

from physbench.core.errors import UserError
from physbench.models.base import Completion, ModelError
from physbench.models.chat_json import encode_messages, excerpt, read_completion
from physbench.models.deadlines import Deadlines
from physbench.models.pricing import Price

if TYPE_CHECKING:
    from physbench.core.items import Item, Message
    from physbench.core.tools import ToolSpec

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
CONNECT_TIMEOUT_S = 60.0
MAX_BODY_BYTES = 64 << 20
MAX_RETRY_AFTER_S = 120.0  # the longest Retry-After honoured (option max_retry_after_s)
RETRYABLE_STATUS = frozenset({408, 409, 429})
NEVER_RETRY_STATUS = frozenset({401, 403})  # a bad or unauthorised key does not heal by waiting
SAMPLING_KEYS = frozenset({"temperature", "max_tokens", "top_p", "seed", "stop", "reasoning_effort"})


def thinking_field(budget: Any) -> dict[str, Any]:
    """`--thinking-budget N` on the wire: `thinking: {"type": "enabled", "budget_tokens": N}`, the form of
    Anthropic's OpenAI-compatible endpoint (a server that does not know the field ignores or refuses it)."""
    return {"thinking": {"type": "enabled", "budget_tokens": int(budget)}}


def make_http_client(concurrency: int, timeout_s: float) -> aiohttp.ClientSession:
    """A client session whose pool holds one connection per concurrent request (call inside a loop).

    The connect timeout is at least 60 s (a loaded server can be slow to accept); `timeout_s`
    bounds the wait for the response. Waiting for a pooled connection is not bounded, since the
    pool matches the concurrency.
    """
    connector = aiohttp.TCPConnector(limit=concurrency, limit_per_host=0, ttl_dns_cache=300)
    timeout = aiohttp.ClientTimeout(total=None, connect=None, sock_connect=max(CONNECT_TIMEOUT_S, timeout_s),
                                    sock_read=timeout_s)
    return aiohttp.ClientSession(connector=connector, timeout=timeout, trust_env=False)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date; None if unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


def check_base_url(url: str) -> None:
    """A UserError unless `url` is an http(s) URL with a host and, if it names one, a valid port."""
    shown = url[:120]
    if not url.startswith(("http://", "https://")):
        raise UserError(f"--base-url must start with http:// or https://, got {shown!r}")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number in 0-65535
    except ValueError:
        raise UserError(f"--base-url {shown!r} has an invalid port") from None
    if not parts.hostname or any(c.isspace() for c in url):
        raise UserError(f"--base-url {shown!r} is not a valid URL (no host, or spaces in it)")


def redirect_error(status: int, location: str | None) -> str:
    """The error of a model request answered with a redirect (not followed), naming where it pointed."""
    shown = "".join(c if c.isprintable() else "?" for c in (location or ""))[:200]
    return (f"HTTP {status}: the endpoint redirects to {shown!r}; model requests do not follow redirects "
            "(check --base-url)" if shown else f"HTTP {status}: a redirect without a Location; not followed")


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")  # a local server (vLLM) usually takes no key


class OpenAIModel:
    """`openai/NAME`: chat completions from `base_url` with the key in an environment variable."""

    def __init__(self, name: str, *, base_url: str | None = None, api_key_env: str | None = None,
                 concurrency: int = 16, timeout_s: float = 600.0, price: Price | None = None,
                 max_body_bytes: int = MAX_BODY_BYTES, max_retry_after_s: float = MAX_RETRY_AFTER_S) -> None:
        if not name:
            raise UserError("model spec 'openai/NAME' needs a model NAME")
        self.name = name
        self.spec = f"openai/{name}"
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        check_base_url(self.base_url)
        self.key_env = api_key_env or DEFAULT_KEY_ENV
        key = os.environ.get(self.key_env)
        if api_key_env and not key:
            raise UserError(f"environment variable {api_key_env} (named by --api-key-env) is not set")
        if not key and urlsplit(self.base_url).hostname not in LOOPBACK_HOSTS:
            print(f"physbench: warning: {self.key_env} is not set; requests to {self.base_url} go without a key",
                  file=sys.stderr)
        self._headers = {"Content-Type": "application/json"}
        if key:  # a local server (vLLM) needs none
            self._headers["Authorization"] = f"Bearer {key}"
        self._url = f"{self.base_url}/chat/completions"
        self._client: aiohttp.ClientSession | None = None  # made in the running event loop
        self._name_json = json.dumps(name)
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self._deadlines = Deadlines(timeout_s)
        self.max_body_bytes = max_body_bytes
        self.max_retry_after_s = max_retry_after_s
        self.price = price

    def request_body(self, messages: Sequence["Message"], params: dict[str, Any],
                     tools: "Sequence[ToolSpec] | None" = None, tool_choice: Any = None) -> bytes:
        """The JSON request body (messages are encoded afresh each time: cheaper than keeping them)."""
        sampling = {k: v for k, v in params.items() if k in SAMPLING_KEYS and v is not None} if params else {}
        if params and params.get("thinking_budget") is not None:  # reasoning_effort goes as is (OpenAI's field)
            sampling.update(thinking_field(params["thinking_budget"]))
        if tools:
            sampling["tools"] = [t.to_openai() for t in tools]
            if tool_choice is not None:
                sampling["tool_choice"] = tool_choice
        tail = f", {json.dumps(sampling)[1:-1]}" if sampling else ""
        return f'{{"model": {self._name_json}, "messages": {encode_messages(messages)}{tail}}}'.encode("utf-8")

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       tools: "Sequence[ToolSpec] | None" = None, tool_choice: Any = None,
                       **params: Any) -> Completion:
        body, latency = await self.fetch(messages, tools=tools, tool_choice=tool_choice, **params)
        return read_completion(body, latency, self.price)

    async def fetch(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                    tools: "Sequence[ToolSpec] | None" = None, tool_choice: Any = None,
                    **params: Any) -> tuple[bytes, float]:
        """One request: the body of its 200 reply, not yet read, and the latency; any other
        outcome is a ModelError. `read_completion` turns the body into the Completion that
        `generate` returns (the runner may do that in its grading process, see runner/engine.py)."""
        content = self.request_body(messages, params, tools, tool_choice)
        client = self._client
        if client is None:  # made on first use, in the running loop; aclose() clears it
            client = self._client = make_http_client(self.concurrency, self.timeout_s)
        start = time.perf_counter()
        # the whole call (connect, headers, body) has one deadline: a server dripping bytes
        # keeps sock_read satisfied but cannot hold the call past timeout_s
        watched = self._deadlines.enter()
        try:
            try:
                # never follow a redirect: a 307 would post the prompt to another origin, a 302 fetch any URL
                async with client.post(self._url, data=content, headers=self._headers,
                                       allow_redirects=False) as response:
                    status, headers = response.status, response.headers
                    if 300 <= status < 400:
                        raise ModelError(redirect_error(status, headers.get("Location")), retryable=False)
                    body = await (response.read() if self._sized(headers) else self._read_capped(response))
                    retry_after = headers.get("Retry-After") if status != 200 else None
            finally:
                timed_out = self._deadlines.leave(watched)
        except asyncio.CancelledError:
            if timed_out:
                raise ModelError(f"timeout after {self.timeout_s:g} s", retryable=True, endpoint_fault=True) from None
            raise
        except aiohttp.ClientError as exc:
            raise ModelError(f"connection error ({type(exc).__name__}: {str(exc)[:120]})", retryable=True,
                             endpoint_fault=True) from None
        latency = time.perf_counter() - start
        if status != 200:
            retryable = status not in NEVER_RETRY_STATUS and (status in RETRYABLE_STATUS or status >= 500)
            wait = parse_retry_after(retry_after) if retryable else None
            if wait is not None:  # a server asking for an hour does not get to stall the run
                wait = min(wait, self.max_retry_after_s)
            raise ModelError(f"HTTP {status}: {excerpt(body)}", retryable=retryable, retry_after=wait,
                             endpoint_fault=status >= 500)
        return body, latency

    def _sized(self, headers: Any) -> bool:
        """Whether the body may be read whole: a Content-Length within max_body_bytes (the parser
        stops there), not chunked, and not compressed (which could inflate it); a larger one is refused now."""
        length = headers.get("Content-Length")
        if length is None or not length.isdigit():
            return False
        if int(length) > self.max_body_bytes:
            raise ModelError(f"response body of {length} bytes exceeds the limit", retryable=False)
        return "Content-Encoding" not in headers and "Transfer-Encoding" not in headers

    async def _read_capped(self, response: aiohttp.ClientResponse) -> bytes:
        """The body read in chunks and refused once it passes max_body_bytes (chunked, read to the
        end of the stream, or compressed: what arrives is counted)."""
        chunks, size = [], 0
        async for chunk in response.content.iter_chunked(1 << 16):
            size += len(chunk)
            if size > self.max_body_bytes:
                raise ModelError(f"response body exceeds the limit of {self.max_body_bytes} bytes", retryable=False)
            chunks.append(chunk)
        return b"".join(chunks)

    def info(self) -> dict[str, Any]:
        return {"kind": "openai", "name": self.name, "base_url": self.base_url, "api_key_env": self.key_env,
                "timeout_s": self.timeout_s,
                "price_usd_per_mtok": None if self.price is None else
                {"input": self.price.input_per_mtok, "output": self.price.output_per_mtok}}

    async def aclose(self) -> None:
        if self._client is not None and not self._client.closed:
            await self._client.close()
        self._client = None
        self._deadlines.reset()
