"""Tools a model may call: their definitions (name, description, JSON-schema parameters) and the
bounded reading of the argument text a model sends."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

MAX_ARGUMENT_CHARS = 64_000  # a tool call's argument text beyond this is refused, not parsed
MAX_ARGUMENT_DEPTH = 32


@dataclass(frozen=True)
class ToolSpec:
    """One tool offered to a model, in the shape of the chat-completions `tools` list."""

    name: str
    description: str
    parameters: Mapping[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})

    def to_openai(self) -> dict[str, Any]:
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": dict(self.parameters)}}


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of a JSON value, stopping once it passes `limit`."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return deepest


def parse_arguments(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """(object, None) for a JSON object of arguments; (None, why) for anything else. Never raises."""
    if not isinstance(text, str):
        return None, "arguments are not text"
    if len(text) > MAX_ARGUMENT_CHARS:
        return None, f"arguments are longer than {MAX_ARGUMENT_CHARS} characters"
    if not text.strip():
        return {}, None  # some servers send "" for a call without arguments
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return None, f"arguments are not valid JSON ({type(exc).__name__}: {str(exc)[:80]})"
    if not isinstance(value, dict):
        return None, f"arguments must be a JSON object, got {type(value).__name__}"
    if _depth(value, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH:
        return None, f"arguments are nested deeper than {MAX_ARGUMENT_DEPTH} levels"
    return value, None
