"""The research viewer's fields: filters by problem, step and repeat, and every turn of an attempt in order,
the user turns the protocol added included (later checkpoint questions, expert-answer carryover, the
formatting turn, tool calls and their output), rebuilt from the item's protocol data and the stored turns."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Mapping

from physbench.suites.research.report_tables import step_outcomes

if TYPE_CHECKING:
    from physbench.runner.results import Result

MAX_TEXT = 200_000  # characters of one turn sent to the page; the rest is cut with a note
OPENING_NOTE = "(the item's messages, shown under Item, then:)\n\n"


def facet_values(r: "Result") -> dict[str, Any]:
    """problem, the steps the attempt answers (a checkpoint attempt answers several), and the repeat (from 1)."""
    steps = [str(s) for s in r.item.reference.get("steps") or ()] or [step for step, _ in step_outcomes(r)]
    return {"problem": str(r.item.reference.get("problem", r.item.id)), "step": steps, "repeat": str(r.repeat + 1)}


def _text_block(title: str, text: str) -> dict[str, Any]:
    return {"title": title, "text": text[:MAX_TEXT], "cut": max(0, len(text) - MAX_TEXT)}


def _fenced(text: str, lang: str = "") -> str:
    fence = "```"
    while fence in text:  # a fence longer than any run of backticks inside, so the code stays one block
        fence += "`"
    return f"{fence}{lang}\n{text}\n{fence}"


def _user_prompt(r: "Result", label: str) -> str | None:
    """The user turn that preceded the turn `label` (None where the item's own messages were the prompt)."""
    data = r.item.protocol_data or {}
    if label == "format":
        return str(data.get("format") or "")
    if label == "solve" or label.startswith("turn-"):
        return None
    sid, _, part = label.rpartition(":")
    steps = [s for s in data.get("steps") or () if isinstance(s, Mapping)]
    index = next((i for i, s in enumerate(steps) if str(s.get("id")) == sid), None)
    if index is None:
        return None
    step = steps[index]
    if part == "format":
        return str(step.get("format") or "")
    if r.item.kind == "checkpoints-oracle":  # each checkpoint alone: setup, earlier ones with expert answers
        return str(step.get("alone") or step.get("ask") or "")
    carry = ""
    if r.item.kind == "checkpoints-oracle-multiturn" and index > 0:
        carry = str(steps[index - 1].get("expected") or "") + "\n\n"
    return (OPENING_NOTE if index == 0 else "") + carry + str(step.get("ask") or "")


def conversation_blocks(r: "Result") -> list[dict[str, Any]]:
    """One text block per turn in the order sent: each user turn the protocol added, each model reply,
    each tool call (code) with its output."""
    turns = [t for t in (r.turns or []) if isinstance(t, Mapping)]
    if not turns and r.text is not None:  # a one-call attempt: only the reply is stored
        turns = [{"text": r.text, "label": "reply"}]
    log = list(((r.answer or {}).get("detail") or {}).get("tool_log") or []) if isinstance(r.answer, Mapping) else []
    blocks: list[dict[str, Any]] = []
    for n, t in enumerate(turns, 1):
        label = str(t.get("label") or f"turn {n}")
        prompt = _user_prompt(r, label)
        if prompt:
            blocks.append(_text_block(f"{n}. user → {label}", prompt))
        usage = t.get("usage") if isinstance(t.get("usage"), Mapping) else {}
        tokens = f", {usage.get('completion_tokens')} tokens" if usage.get("completion_tokens") else ""
        blocks.append(_text_block(f"{n}. model · {label} ({t.get('finish_reason') or 'no finish reason'}{tokens})",
                                  str(t.get("text") or "")))
        for call in t.get("tool_calls") or ():
            entry = log.pop(0) if log else {}
            name = call.get("name", "tool") if isinstance(call, Mapping) else "tool"
            blocks.append(_text_block(f"{n}. tool call · {name}", _call_text(call, entry)))
    return blocks


def _call_text(call: Any, entry: Mapping[str, Any]) -> str:
    """The code a tool call ran, fenced, and what came back, fenced as text."""
    args = entry.get("arguments", call.get("arguments") if isinstance(call, Mapping) else None)
    try:
        parsed = json.loads(args) if isinstance(args, str) else args
    except ValueError:
        parsed = None
    code = parsed.get("code") if isinstance(parsed, Mapping) else None
    shown = _fenced(str(code), "python") if isinstance(code, str) else _fenced(str(args), "json")
    result = entry.get("result")
    if isinstance(result, Mapping):
        out = str(result.get("output") or "") + (f"\nerror: {result['error']}" if result.get("error") else "")
    else:
        out = "" if result is None else str(result)
    return shown + ("\n\noutput:\n\n" + _fenced(out) if out.strip() else "")
