"""The JSON of the chat-completions API: request bodies out, response bodies in.

Both directions sit on the runner's per-item path, so the usual case takes a short road: request
messages are written straight from their strings with json's own string encoder, and a response
body goes straight to json's C scanner. Anything unusual (a message that is not a plain
`Message`, a body in another encoding or with blanks around it) takes json.dumps / json.loads
themselves, so the bytes sent and what a body is accepted as are exactly theirs.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from physbench.core.items import Message
from physbench.models.base import ModelError, usage_dict

STANDARD_MESSAGE_KEYS = frozenset({"role", "content"})
_escape = json.encoder.encode_basestring_ascii  # the string encoder json.dumps uses (ensure_ascii)
_scan_once = json.JSONDecoder().scan_once  # the C scanner behind json.loads, without its Python layers

ChatResponse = tuple[str, "str | None", dict[str, int], dict[str, Any], "dict[str, Any] | None"]


def encode_messages(messages: Sequence[Message]) -> str:
    """The messages as a JSON array: the same text as json.dumps([m.to_dict() for m in messages])."""
    parts = []
    for m in messages:
        if type(m) is Message and type(m.role) is str and type(m.content) is str:
            parts.append(f'{{"role": {_escape(m.role)}, "content": {_escape(m.content)}}}')
        else:
            parts.append(json.dumps(m.to_dict()))
    return f"[{', '.join(parts)}]"


def loads_body(body: bytes) -> Any:
    """json.loads(body): what it accepts, this returns; what it rejects, this raises (ValueError)."""
    try:
        text = body.decode("utf-8")
        value, end = _scan_once(text, 0)
    except (UnicodeDecodeError, StopIteration, ValueError, RecursionError):
        return json.loads(body)  # another encoding, a byte-order mark, leading blanks, or malformed
    return value if end == len(text) else json.loads(body)  # trailing blanks pass, other data raises


def excerpt(body: bytes, limit: int = 200) -> str:
    """The start of a body as one line of text, for error messages."""
    text = body[:limit].decode("utf-8", "replace")
    return " ".join(text.split())


def _extras(message: dict[str, Any]) -> dict[str, Any] | None:
    extras = {k: v for k, v in message.items() if k not in STANDARD_MESSAGE_KEYS and v not in (None, "", [], {})}
    return extras or None


def read_chat_response(body: bytes) -> ChatResponse:
    """(text, finish_reason, usage, raw, extras) from a chat-completions body; ModelError if malformed.

    `usage` keeps the standard counts that are integers; `extras` holds
    the message's non-empty fields beside role and content (reasoning_content, refusal...).
    """
    try:
        raw = loads_body(body)
    except (ValueError, RecursionError):
        raise ModelError(f"malformed JSON body: {excerpt(body, 80)!r}", retryable=True) from None
    if type(raw) is not dict:
        raise ModelError("response body is not a JSON object", retryable=True)
    choices = raw.get("choices")
    if type(choices) is not list or not choices or type(choices[0]) is not dict:
        error = raw.get("error")
        detail = error.get("message") if isinstance(error, dict) else None
        raise ModelError(f"response without choices{': ' + str(detail)[:200] if detail else ''}", retryable=True)
    choice = choices[0]
    message = choice.get("message")
    content = extras = None
    if type(message) is dict:
        content = message.get("content")
        if content is not None and type(content) is not str:
            raise ModelError("message content is not a string", retryable=True)
        if not message.keys() <= STANDARD_MESSAGE_KEYS:
            extras = _extras(message)
    finish = choice.get("finish_reason")
    counts = raw.get("usage")
    prompt = completion = None
    if type(counts) is dict:  # only integer counts (booleans are not counts)
        prompt, completion = counts.get("prompt_tokens"), counts.get("completion_tokens")
    usage = usage_dict(prompt if type(prompt) is int else None, completion if type(completion) is int else None)
    return content or "", finish if type(finish) is str else None, usage, raw, extras
