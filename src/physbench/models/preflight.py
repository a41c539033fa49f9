"""Before a run: one cheap request tells an endpoint that cannot be reached, a refused key or a model
the server does not serve, so that the user reads the cause at once instead of after the retries.

The probe is `GET /models` (free); when that does not confirm the model by name, one chat request
of one token follows. Only the three causes above stop the run (a UserError, exit 2, before anything
is stored); anything else (429, 5xx, a slow server) is left to the run's own retries.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from typing import Any, Sequence

import aiohttp

from physbench.core.errors import UserError

CONNECT_S = 5.0  # an endpoint that does not accept a connection in this long is called unreachable
LIST_S = 10.0  # GET /models
PROBE_S = 30.0  # the one-token chat request (a cold server may take a while for its first token)
REFUSED_KEY = frozenset({401, 403})


@dataclass(frozen=True)
class Verdict:
    """What the probe of one endpoint found: `cause` is None when the run may go ahead."""

    url: str
    cause: str | None = None
    unreachable: bool = False


def _excerpt(body: bytes, limit: int = 160) -> str:
    """The server's own error message when its body is OpenAI-style JSON, else its first characters."""
    try:
        doc = json.loads(body[:65536])
        message = doc.get("error", {}).get("message") if isinstance(doc, dict) else None
        if isinstance(message, str) and message.strip():
            return " ".join(message.split())[:limit]
    except (ValueError, AttributeError, UnicodeDecodeError):
        pass
    return " ".join(body[:limit].decode("utf-8", "replace").split())


def _headers(key_env: str | None) -> dict[str, str]:
    headers = {"Content-Type": "application/json"}
    key = os.environ.get(key_env or "") if key_env else None
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return headers


def _served(body: bytes) -> list[str] | None:
    """The model ids of a `GET /models` reply, or None when it is not such a list."""
    try:
        doc = json.loads(body[: 4 << 20])
        data = doc.get("data") if isinstance(doc, dict) else None
        if isinstance(data, list):
            return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id") is not None]
    except (ValueError, UnicodeDecodeError):
        pass
    return None


async def _get(session: aiohttp.ClientSession, url: str, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
    async with session.get(url, headers=headers, allow_redirects=False,
                           timeout=aiohttp.ClientTimeout(total=timeout, sock_connect=CONNECT_S)) as response:
        return response.status, await response.content.read(4 << 20)


async def _post(session: aiohttp.ClientSession, url: str, headers: dict[str, str], body: bytes,
                timeout: float) -> tuple[int, bytes]:
    async with session.post(url, data=body, headers=headers, allow_redirects=False,
                            timeout=aiohttp.ClientTimeout(total=timeout, sock_connect=CONNECT_S)) as response:
        return response.status, await response.content.read(1 << 16)


def _refusal(status: int, body: bytes, base_url: str, name: str, key_env: str | None) -> str | None:
    """The cause named for a reply that means the run cannot work, else None."""
    if status in REFUSED_KEY:
        key = f"the key in {key_env}" if key_env and os.environ.get(key_env) else f"no key ({key_env or 'OPENAI_API_KEY'} is not set)"
        return f"{base_url} refused {key}: HTTP {status}: {_excerpt(body)}"
    if status == 404:
        return f"{base_url} does not serve model {name!r} (HTTP 404: {_excerpt(body)})"
    return None


def _not_connected(exc: BaseException) -> bool:
    """Whether `exc` means no connection was made (refused, no route, unknown host, connect timeout);
    a server that connected and then was slow or dropped the request is left to the run."""
    connect_timeout = getattr(aiohttp, "ConnectionTimeoutError", None)
    if connect_timeout is not None and isinstance(exc, connect_timeout):
        return True
    if isinstance(exc, asyncio.TimeoutError):
        return "connect" in str(exc).lower()
    return isinstance(exc, (aiohttp.ClientConnectorError, aiohttp.InvalidURL))


def _unreachable(base_url: str, exc: BaseException) -> Verdict:
    if isinstance(exc, asyncio.TimeoutError):
        why = f"no connection within {CONNECT_S:g} s"
    else:
        os_error = getattr(exc, "os_error", None)
        errno = getattr(os_error, "errno", None)
        why = (os.strerror(errno) if isinstance(errno, int) and errno > 0 else
               getattr(os_error, "strerror", None) or str(exc)[:100]).lower()
    return Verdict(base_url, f"cannot reach {base_url} ({why})", unreachable=True)


async def probe(base_url: str, name: str, key_env: str | None) -> Verdict:
    """Probe one endpoint for model `name`: GET /models, then a one-token chat request if needed."""
    headers = _headers(key_env)
    async with aiohttp.ClientSession(trust_env=False) as session:
        try:
            status, body = await _get(session, f"{base_url}/models", headers, LIST_S)
        except Exception as exc:  # noqa: BLE001 - every failure is either "unreachable" or left to the run
            return _unreachable(base_url, exc) if _not_connected(exc) else Verdict(base_url)
        if status in REFUSED_KEY:
            return Verdict(base_url, _refusal(status, body, base_url, name, key_env))
        served = _served(body) if status == 200 else None
        if served is not None and name in served:
            return Verdict(base_url)
        if status not in (200, 404, 405):  # up, but busy or odd: the run's retries deal with it
            return Verdict(base_url)
        chat = json.dumps({"model": name, "messages": [{"role": "user", "content": "Reply with one word."}],
                           "max_tokens": 1}).encode()
        try:
            status, body = await _post(session, f"{base_url}/chat/completions", headers, chat, PROBE_S)
        except Exception as exc:  # noqa: BLE001
            return _unreachable(base_url, exc) if _not_connected(exc) else Verdict(base_url)
        cause = _refusal(status, body, base_url, name, key_env)
        if cause and status == 404 and served:
            listed = ", ".join(served[:5]) + (", ..." if len(served) > 5 else "")
            cause += f"; it lists: {listed}"
        return Verdict(base_url, cause)


async def _probe_all(urls: Sequence[str], name: str, key_env: str | None) -> list[Verdict]:
    return list(await asyncio.gather(*(probe(url, name, key_env) for url in urls)))


def endpoints_of(model: Any) -> tuple[str, str | None, list[str]] | None:
    """(model name, key variable, base URLs) of an OpenAI-compatible model or pool, else None."""
    inner = [e.model for e in getattr(model, "endpoints", ())] or [model]
    if not all(hasattr(m, "base_url") and hasattr(m, "key_env") and hasattr(m, "name") for m in inner):
        return None
    return inner[0].name, inner[0].key_env, [m.base_url for m in inner]


def preflight(model: Any, warn: Any = None) -> None:
    """Probe the endpoints of `model` (nothing for a model that is not an endpoint); a UserError
    naming the cause when a key is refused, the model is not served, or no endpoint can be reached.
    With several endpoints, one that cannot be reached is only warned of (`warn(line)`)."""
    found = endpoints_of(model)
    if found is None:
        return
    name, key_env, urls = found
    verdicts = asyncio.run(_probe_all(urls, name, key_env))
    for v in verdicts:
        if v.cause and not v.unreachable:
            raise UserError(v.cause)
    down = [v for v in verdicts if v.unreachable]
    if len(down) == len(verdicts):
        raise UserError(down[0].cause + ("" if len(down) == 1 else f" (nor any of the other {len(down) - 1} endpoints)"))
    for v in down:
        if warn is not None:
            warn(f"physbench: warning: {v.cause}; the run goes on with the other endpoints")
