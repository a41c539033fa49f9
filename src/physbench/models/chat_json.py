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

from physbench.core.items import Message, ToolCall
from physbench.core.tools import parse_arguments
from physbench.models.base import Completion, ModelError, token_count, usage_dict

STANDARD_MESSAGE_KEYS = frozenset({"role", "content", "tool_calls"})
MAX_TOOL_CALLS = 128  # tool calls read from one reply; more is a malformed reply
_escape = json.encoder.encode_basestring_ascii  # the string encoder json.dumps uses (ensure_ascii)
_scan_once = json.JSONDecoder().scan_once  # the C scanner behind json.loads, without its Python layers

ChatResponse = tuple[str, "str | None", dict[str, int], dict[str, Any], "dict[str, Any] | None", "tuple[ToolCall, ...]"]


def message_json(m: Message) -> dict[str, Any]:
    """One message in the chat-completions shape: an assistant's tool calls as `function` calls
    (arguments as the text the model sent), a tool result with its `tool_call_id`."""
    out: dict[str, Any] = {"role": m.role, "content": m.content}
    if m.tool_calls:
        out["content"] = m.content or None
        out["tool_calls"] = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                             for c in m.tool_calls]
    if m.tool_call_id is not None:
        out["tool_call_id"] = m.tool_call_id
    if m.name is not None:
        out["name"] = m.name
    return out


def encode_messages(messages: Sequence[Message]) -> str:
    """The messages as a JSON array: the same text as json.dumps([m.to_dict() for m in messages])."""
    parts = []
    for m in messages:
        if (type(m) is Message and type(m.role) is str and type(m.content) is str and not m.tool_calls
                and m.tool_call_id is None and m.name is None):
            parts.append(f'{{"role": {_escape(m.role)}, "content": {_escape(m.content)}}}')
        elif type(m) is Message:
            parts.append(json.dumps(message_json(m)))
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


def read_tool_calls(value: Any) -> tuple[ToolCall, ...]:
    """The `tool_calls` of a reply message as ToolCalls; a call with unreadable arguments keeps its
    text and an `error` (never raises on the arguments); a list that is not calls is a ModelError."""
    if value is None:
        return ()
    if type(value) is not list or len(value) > MAX_TOOL_CALLS:
        raise ModelError("message tool_calls is not a list of at most "
                         f"{MAX_TOOL_CALLS} calls", retryable=True)
    calls = []
    for i, call in enumerate(value):
        fn = call.get("function") if type(call) is dict else None
        if type(fn) is not dict or type(fn.get("name")) is not str:
            raise ModelError(f"tool call {i} has no function name", retryable=True)
        arguments = fn.get("arguments")
        if arguments is None:
            arguments = ""
        elif type(arguments) is not str:  # some servers send the object itself
            try:
                arguments = json.dumps(arguments)
            except (TypeError, ValueError, RecursionError):
                arguments = str(arguments)[:1000]
        parsed, error = parse_arguments(arguments)
        call_id = call.get("id")
        calls.append(ToolCall(call_id if type(call_id) is str and call_id else f"call_{i}", fn["name"],
                              arguments, parsed, error))
    return tuple(calls)


def _count(d: Any, key: str) -> int | None:
    value = d.get(key) if type(d) is dict else None
    return token_count(value) if type(value) is int and value >= 0 else None


def read_usage(counts: Any) -> dict[str, int]:
    """The standard counts, plus `cached_tokens` (usage.prompt_tokens_details) and `reasoning_tokens`
    (usage.completion_tokens_details) when the endpoint reports them as integers."""
    if type(counts) is not dict:
        return {}
    prompt, completion = counts.get("prompt_tokens"), counts.get("completion_tokens")
    usage = usage_dict(prompt if type(prompt) is int else None, completion if type(completion) is int else None)
    cached = _count(counts.get("prompt_tokens_details"), "cached_tokens")
    reasoning = _count(counts.get("completion_tokens_details"), "reasoning_tokens")
    if cached is not None:
        usage["cached_tokens"] = cached
    if reasoning is not None:
        usage["reasoning_tokens"] = reasoning
    return usage


def read_chat_response(body: bytes) -> ChatResponse:
    """(text, finish_reason, usage, raw, extras, tool_calls) from a chat-completions body; ModelError if malformed.

    A choice without a message, or a message with neither text nor tool calls (`content: null`),
    is malformed (retryable): there is nothing to grade.

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
    extras = None
    if type(message) is not dict:
        raise ModelError("choice without a message", retryable=True)
    content = message.get("content")
    if content is not None and type(content) is not str:
        raise ModelError("message content is not a string", retryable=True)
    calls = read_tool_calls(message.get("tool_calls"))
    if content is None and not calls:
        raise ModelError("message content is null and there are no tool calls", retryable=True)
    if not message.keys() <= STANDARD_MESSAGE_KEYS:
        extras = _extras(message)
    finish = choice.get("finish_reason")
    usage = read_usage(raw.get("usage"))
    return content or "", finish if type(finish) is str else None, usage, raw, extras, calls


def read_completion(body: bytes, latency: float, price: Any = None) -> Completion:
    """The Completion of a 200 reply's body (ModelError if malformed); its cost when a `Price` is given."""
    text, finish, usage, raw, extras, calls = read_chat_response(body)
    cost = price.cost(usage) if price is not None else None
    # positional (text, usage, finish_reason, latency, raw, cost, extras, tool_calls): cheaper per request
    return Completion(text, usage, finish, latency, raw, cost, extras, calls)
